"""Milestone 1, Card: the course's given Card class, its codes, and its two accessors.

The course hands out ``Card`` ready-made ("You are given the Card class"), so these
contract tests carry no points: they check that a submission did not break it.
Points start with the Deck (tests/milestone1/test_deck.py).
"""

from __future__ import annotations

import pytest

from blackjack import Card, InvalidCardError, Suit, parse_cards

SUITS_IN_COURSE_ORDER = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS]


@pytest.mark.points(0)
def test_card_keeps_suit_and_face() -> None:
    """Card(suit, face) keeps the suit and face it was made with (cs111 Card(int suit, int value))."""
    card = Card(Suit.HEARTS, 12)
    assert card.suit is Suit.HEARTS and card.get_face() == 12, \
        f"Card(Suit.HEARTS, 12) should have suit HEARTS and face 12; got {card.suit}, {card.get_face()}"


@pytest.mark.points(0)
def test_course_suit_constants_name_the_suits() -> None:
    """Card.SPADES .. Card.HEARTS are the four suits, as the course's Card constants are."""
    assert [Card.SPADES, Card.DIAMONDS, Card.CLUBS, Card.HEARTS] == SUITS_IN_COURSE_ORDER


@pytest.mark.points(0)
@pytest.mark.parametrize("face, value", [(1, 1), (2, 2), (7, 7), (9, 9), (10, 10), (11, 10), (12, 10), (13, 10)])
def test_get_value_is_blackjack_points(face: int, value: int) -> None:
    """get_value() is the face for 1..10 and 10 for jack, queen and king; an ace is 1 (the hand decides 11)."""
    got = Card(Suit.CLUBS, face).get_value()
    assert got == value, f"get_value() of a card with face {face} should be {value}; got {got}"


@pytest.mark.points(0)
@pytest.mark.parametrize("face", [0, 14, -1, "A", 1.0, True])
def test_bad_face_is_rejected(face: object) -> None:
    """A face outside 1..13, or not an int, is refused when the card is made."""
    with pytest.raises((InvalidCardError, TypeError)):
        Card(Suit.SPADES, face)  # type: ignore[arg-type]


@pytest.mark.points(0)
def test_suit_must_be_a_suit() -> None:
    """A suit given as a plain string is a TypeError, not a silently odd card."""
    with pytest.raises(TypeError):
        Card("s", 1)  # type: ignore[arg-type]


@pytest.mark.points(0)
@pytest.mark.parametrize("text, suit, face", [
    ("Ah", Suit.HEARTS, 1),
    ("AH", Suit.HEARTS, 1),
    ("ah", Suit.HEARTS, 1),
    ("10h", Suit.HEARTS, 10),
    ("Th", Suit.HEARTS, 10),
    ("A♥", Suit.HEARTS, 1),
    ("10♠", Suit.SPADES, 10),
    ("a_h_2", Suit.HEARTS, 1),
    ("7_c_0", Suit.CLUBS, 7),
    ("Kd", Suit.DIAMONDS, 13),
    ("qs", Suit.SPADES, 12),
    (" Jc ", Suit.CLUBS, 11),
])
def test_parse_reads_every_spelling(text: str, suit: Suit, face: int) -> None:
    """Card.parse reads "Ah", "AH", "10h", "Th", "A♥" and the Thunderjack id "a_h_2" (issue 2)."""
    assert Card.parse(text) == Card(suit, face), f"Card.parse({text!r}) should be {Card(suit, face)}"


@pytest.mark.points(0)
@pytest.mark.parametrize("text", ["Zx", "", "1", "11h", "Ax", "A", "hA", "a_h", "a_h_x", "Ahh", "0s"])
def test_parse_rejects_unknown_code_naming_it(text: str) -> None:
    """An unknown code raises a ValueError (InvalidCardError) whose message quotes the text."""
    with pytest.raises(ValueError) as info:
        Card.parse(text)
    assert isinstance(info.value, InvalidCardError)
    assert repr(text) in str(info.value), f"the message should name {text!r}; got {str(info.value)!r}"


@pytest.mark.points(0)
def test_parse_rejects_non_string() -> None:
    """Card.parse of a non-string is a TypeError."""
    with pytest.raises(TypeError):
        Card.parse(14)  # type: ignore[arg-type]


@pytest.mark.points(0)
def test_str_round_trips_all_52() -> None:
    """Card.parse(str(card)) == card for every one of the 52 cards, and the 52 codes differ."""
    cards = [Card(suit, face) for suit in Suit for face in range(1, 14)]
    assert [Card.parse(str(card)) for card in cards] == cards
    assert len({str(card) for card in cards}) == 52


@pytest.mark.points(0)
def test_str_is_rank_then_suit_letter() -> None:
    """str(card) is the two-character code, with T for the ten: "Th", "As", "Kd"."""
    assert [str(Card(Suit.HEARTS, 10)), str(Card(Suit.SPADES, 1)), str(Card(Suit.DIAMONDS, 13))] == \
        ["Th", "As", "Kd"]


@pytest.mark.points(0)
def test_repr_is_a_parse_call() -> None:
    """repr(card) is code you can paste back into Python."""
    card = Card(Suit.CLUBS, 7)
    assert repr(card) == "Card.parse('7c')"
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.points(0)
def test_cards_are_values() -> None:
    """Equal cards compare equal and hash alike, and a card cannot be changed."""
    assert Card(Suit.HEARTS, 1) == Card.parse("Ah")
    assert len({Card(Suit.HEARTS, 1), Card.parse("Ah"), Card.parse("As")}) == 2
    with pytest.raises(AttributeError):
        Card.parse("Ah").face = 2  # type: ignore[misc]


@pytest.mark.points(0)
def test_parse_cards_reads_a_list() -> None:
    """parse_cards reads codes separated by commas and spaces, in order."""
    assert parse_cards("As Kd, 9h") == [Card(Suit.SPADES, 1), Card(Suit.DIAMONDS, 13), Card(Suit.HEARTS, 9)]
