"""Observations for test_deck.py, run in the student's process: the student's create_card_array, and decks made
with the given Deck constructor from cards the given parse_cards reads (never the student's create_card_array when
the deck is not what is graded), dealt with the student's deal() and is_empty(); cards are sent as their codes
(docs/design/graded_test_shape.md)."""

from __future__ import annotations

from blackjack import Card, Deck, create_card_array, parse_cards
from milestones.grader.observer import OBJECT_KEY, plain

#: The most cards dealt from one deck before the observation stops (a broken is_empty cannot hang the test).
_MOST_DEALS = 10_000


def _code(card: object) -> object:
    """A Card as its code ("As"); None as None; anything else as an object (its class and a short repr), so that a
    string is never taken for a card."""
    if isinstance(card, Card):
        return str(card)
    if card is None:
        return None
    thing = plain(card)
    if isinstance(thing, dict) and OBJECT_KEY in thing:
        return thing
    try:
        text = repr(card)
    except Exception:  # noqa: BLE001 - a student's object
        text = "?"
    return {OBJECT_KEY: type(card).__name__, "repr": text[:200]}


def card_array() -> dict[str, object]:
    """create_card_array(): whether it is a list, its class and repr (cut), and its items as codes."""
    got = create_card_array()
    if not isinstance(got, list):
        return {"is_list": False, "type": type(got).__name__, "repr": repr(got)[:80]}
    return {"is_list": True, "cards": [_code(card) for card in got]}


def deals(codes: str, times: int) -> list[object]:
    """Deck(parse_cards(codes)), then deal() ``times`` times: the cards dealt."""
    deck = Deck(parse_cards(codes))
    return [_code(deck.deal()) for _ in range(times)]


def emptiness(decks: list[str]) -> list[object]:
    """is_empty() of Deck(parse_cards(codes)) for each of ``decks``."""
    return [plain(Deck(parse_cards(codes)).is_empty()) for codes in decks]


def deal_new_deck() -> dict[str, object]:
    """Deck(create_card_array()) dealt while not is_empty(): the cards dealt (at most 10,000), and whether is_empty()
    said True."""
    deck = Deck(create_card_array())
    dealt: list[object] = []
    while not deck.is_empty():
        if len(dealt) >= _MOST_DEALS:
            return {"dealt": dealt, "emptied": False}
        dealt.append(_code(deck.deal()))
    return {"dealt": dealt, "emptied": True}


def fresh_lists() -> dict[str, object]:
    """create_card_array(), reversed in place, then create_card_array() again: whether the second call returned the
    very same list, and the codes of both."""
    first = create_card_array()
    first.reverse()
    again = create_card_array()
    return {"same_list": again is first, "first": [_code(c) for c in first], "again": [_code(c) for c in again]}


def own_copy(codes: str) -> dict[str, object]:
    """Deck(cards) with cards = parse_cards(codes), then cards.clear(): len(deck), then len(deck) after one deal()."""
    cards = parse_cards(codes)
    deck = Deck(cards)
    cards.clear()
    before = len(deck)
    deck.deal()
    return {"before": before, "after_deal": len(deck)}
