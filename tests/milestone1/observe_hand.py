"""Observations for test_hand.py, run in the student's process: hands built from given cards, the student's Hand
methods called, plain data returned (docs/design/graded_test_shape.md)."""

from __future__ import annotations

from blackjack import Hand, parse_cards


def _hand(codes: str, from_split: bool = False) -> Hand:
    hand = Hand(from_split=from_split)
    for card in parse_cards(codes):
        hand.add_card(card)
    return hand


def scores(hands: list[str]) -> list[object]:
    """get_score() of each hand, given as card codes ("As 6d"), the cards added one at a time with add_card."""
    return [_hand(codes).get_score() for codes in hands]


def scores_as_cards_arrive(codes: str) -> list[object]:
    """get_score() of an empty hand, then after each card of ``codes`` is added."""
    hand = Hand()
    seen = [hand.get_score()]
    for card in parse_cards(codes):
        hand.add_card(card)
        seen.append(hand.get_score())
    return seen


def softness(hands: list[str]) -> list[object]:
    """is_soft() of each hand."""
    return [_hand(codes).is_soft() for codes in hands]


def naturals(hands: list[list[object]]) -> list[object]:
    """is_blackjack() of each ``[codes, from_split]`` hand."""
    return [_hand(str(codes), bool(split)).is_blackjack() for codes, split in hands]


def busts(hands: list[str]) -> list[object]:
    """is_bust() of each hand."""
    return [_hand(codes).is_bust() for codes in hands]


def total_text(codes: str) -> object:
    """total_text() of a hand."""
    return _hand(codes).total_text()


def is_pair(codes: str, by: str) -> object:
    """is_pair(by=by) of a hand."""
    return _hand(codes).is_pair(by=by)


def add_text(codes: str, text: str) -> object:
    """add_card(text) with a string instead of a Card, on a hand of ``codes``."""
    return _hand(codes).add_card(text)  # type: ignore[arg-type]


def protocols(codes: str, present: str, absent: str) -> dict[str, object]:
    """The container protocols of a hand: len, the first card, the cards iterated, membership, str, .cards."""
    hand = _hand(codes)
    return {"len": len(hand), "first": str(hand[0]), "iterated": [str(c) for c in hand],
            "has_present": parse_cards(present)[0] in hand, "has_absent": parse_cards(absent)[0] in hand,
            "str": str(hand), "cards": [str(c) for c in hand.cards], "cards_is_tuple": type(hand.cards) is tuple}
