"""Observations for test_shuffle.py, run in the student's process: cards the given parse_cards reads (never the
student's create_card_array), shuffled with the student's shuffle(cards, rng); the shuffled cards are sent as codes,
or as positions in the cards given, and the judge does the statistics (docs/design/graded_test_shape.md)."""

from __future__ import annotations

import random

from blackjack import Card, parse_cards, shuffle
from milestones.grader.observer import OBJECT_KEY


def _code(card: object) -> object:
    """A Card as its code ("As"); anything else as an object (its class and a short repr), never as a string."""
    if isinstance(card, Card):
        return str(card)
    try:
        text = repr(card)
    except Exception:  # noqa: BLE001 - a student's object
        text = "?"
    return {OBJECT_KEY: type(card).__name__, "repr": text[:200]}


def shuffle_in_place(codes: str, seed: int) -> dict[str, object]:
    """shuffle(cards, random.Random(seed)) on cards = parse_cards(codes): what it returned (None or not), and the
    list's cards after it."""
    cards = parse_cards(codes)
    returned = shuffle(cards, random.Random(seed))  # type: ignore[func-returns-value]
    return {"returned_none": returned is None, "cards": [_code(card) for card in cards]}


def shuffle_after_module_seed(codes: str, module_seed: int, seed: int) -> list[object]:
    """random.seed(module_seed) (the random module's own generator), then shuffle(cards, random.Random(seed)): the
    cards after it."""
    random.seed(module_seed)
    cards = parse_cards(codes)
    shuffle(cards, random.Random(seed))
    return [_code(card) for card in cards]


def shuffle_and_next_draw(codes: str, seed: int) -> dict[str, object]:
    """shuffle(cards, rng) with rng = random.Random(seed): the cards after it, and rng.getrandbits(64) drawn after the
    shuffle (the judge compares it with a fresh generator's first draw to see whether the shuffle drew from rng)."""
    rng = random.Random(seed)
    cards = parse_cards(codes)
    shuffle(cards, rng)
    return {"cards": [_code(card) for card in cards], "next_draw": rng.getrandbits(64)}


def shuffle_many(codes: str, times: int, seed: int) -> list[list[int]]:
    """``times`` shuffles of a new list of the cards parse_cards(codes) reads, all with one random.Random(seed): each
    result as the positions of its cards in ``codes`` (-1 for an item that is not one of them)."""
    rng = random.Random(seed)
    deck = parse_cards(codes)
    index = {card: i for i, card in enumerate(deck)}
    orders = []
    for _ in range(times):
        cards = list(deck)
        shuffle(cards, rng)
        orders.append([index.get(card, -1) if isinstance(card, Card) else -1 for card in cards])
    return orders


def shuffle_without_rng(codes: str) -> list[object]:
    """shuffle(cards) with no rng: the cards after it."""
    cards = parse_cards(codes)
    shuffle(cards)
    return [_code(card) for card in cards]
