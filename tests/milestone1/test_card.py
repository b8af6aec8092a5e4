"""Milestone 1, Card: the course's given Card class, its codes, and its two accessors.

The course hands out ``Card`` ready-made ("You are given the Card class"), so these
contract tests carry no points: they check that a submission did not break it.
Points start with the Deck (tests/milestone1/test_deck.py).
"""

from __future__ import annotations

import enum

import pytest

from milestones.grader.judge import Student


class Suit(enum.Enum):
    """The four suits as the judge names them: the given ``blackjack.Suit``'s members and letters, in its order
    (the judge never imports the student's package). A card comes back from the student's process as
    ``{"suit": name, "face": n}``."""

    SPADES = "s"
    DIAMONDS = "d"
    CLUBS = "c"
    HEARTS = "h"


SUITS_IN_COURSE_ORDER = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS]
FACE_CODES = "A23456789TJQK"


def card(suit: Suit, face: int) -> dict[str, object]:
    """A card as the observations send it."""
    return {"suit": suit.name, "face": face}


def code(suit: Suit, face: int) -> str:
    """A card's two-character code: "Ah", "Th", "Kd"."""
    return FACE_CODES[face - 1] + suit.value


def shown(got: object) -> str:
    """A card the student's process sent, as its code when it is one ("Ah"), else as it came."""
    if isinstance(got, dict) and got.keys() == {"suit", "face"} and got["suit"] in Suit.__members__ \
            and type(got["face"]) is int and 1 <= got["face"] <= 13:
        return code(Suit[got["suit"]], got["face"])
    return repr(got)


@pytest.mark.points(0)
def test_card_keeps_suit_and_face(student: Student) -> None:
    """Card(suit, face) keeps the suit and face it was made with (cs111 Card(int suit, int value))."""
    got = student("suit_and_face", "HEARTS", 12)
    assert got == {"suit": "HEARTS", "face": 12}, \
        f"Card(Suit.HEARTS, 12) should have suit HEARTS and face 12; got Suit.{got['suit']}, {got['face']}"


@pytest.mark.points(0)
def test_course_suit_constants_name_the_suits(student: Student) -> None:
    """Card.SPADES .. Card.HEARTS are the four suits, as the course's Card constants are."""
    got = student("course_suit_constants")
    want = [suit.name for suit in SUITS_IN_COURSE_ORDER]
    assert got == want, f"Card.SPADES, Card.DIAMONDS, Card.CLUBS, Card.HEARTS should be the suits {want}; got {got}"


@pytest.mark.points(0)
@pytest.mark.parametrize("face, value", [(1, 1), (2, 2), (7, 7), (9, 9), (10, 10), (11, 10), (12, 10), (13, 10)])
def test_get_value_is_blackjack_points(student: Student, face: int, value: int) -> None:
    """get_value() is the face for 1..10 and 10 for jack, queen and king; an ace is 1 (the hand decides 11)."""
    got = student("value", "CLUBS", face)
    assert got == value, f"get_value() of a card with face {face} should be {value}; got {got}"


@pytest.mark.points(0)
@pytest.mark.parametrize("face", [0, 14, -1, "A", 1.0, True])
def test_bad_face_is_rejected(student: Student, face: object) -> None:
    """A face outside 1..13, or not an int, is refused when the card is made."""
    raised = student.raised("make", "SPADES", face)
    assert raised is not None and raised.is_a("InvalidCardError", "TypeError"), \
        (f"Card(Suit.SPADES, {face!r}) should raise InvalidCardError or TypeError: a face is an int from 1 to 13; "
         + ("it made a card" if raised is None else f"it raised {raised.type}: {raised.message}"))


@pytest.mark.points(0)
def test_suit_must_be_a_suit(student: Student) -> None:
    """A suit given as a plain string is a TypeError, not a silently odd card."""
    raised = student.raised("make_with_text_suit", "s", 1)
    assert raised is not None and raised.is_a("TypeError"), \
        ("Card('s', 1) should raise TypeError: a card's suit is a Suit; "
         + ("it made a card" if raised is None else f"it raised {raised.type}: {raised.message}"))


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
def test_parse_reads_every_spelling(student: Student, text: str, suit: Suit, face: int) -> None:
    """Card.parse reads "Ah", "AH", "10h", "Th", "A♥" and the Thunderjack id "a_h_2" (issue 2)."""
    got = student("parse", text)
    assert got == card(suit, face), f"Card.parse({text!r}) should be {code(suit, face)}; got {shown(got)}"


@pytest.mark.points(0)
@pytest.mark.parametrize("text", ["Zx", "", "1", "11h", "Ax", "A", "hA", "a_h", "a_h_x", "Ahh", "0s"])
def test_parse_rejects_unknown_code_naming_it(student: Student, text: str) -> None:
    """An unknown code raises a ValueError (InvalidCardError) whose message quotes the text."""
    raised = student.raised("parse", text)
    assert raised is not None and raised.is_a("ValueError"), \
        (f"Card.parse({text!r}) should raise ValueError (InvalidCardError); "
         + ("it returned a card" if raised is None else f"it raised {raised.type}: {raised.message}"))
    assert raised.is_a("InvalidCardError"), \
        f"Card.parse({text!r}) should raise InvalidCardError; it raised {raised.type}: {raised.message}"
    assert repr(text) in raised.message, f"the message should name {text!r}; got {raised.message!r}"


@pytest.mark.points(0)
def test_parse_rejects_non_string(student: Student) -> None:
    """Card.parse of a non-string is a TypeError."""
    raised = student.raised("parse", 14)
    assert raised is not None and raised.is_a("TypeError"), \
        ("Card.parse(14) should raise TypeError: a card code is a str; "
         + ("it returned a card" if raised is None else f"it raised {raised.type}: {raised.message}"))


@pytest.mark.points(0)
def test_str_round_trips_all_52(student: Student) -> None:
    """Card.parse(str(card)) == card for every one of the 52 cards, and the 52 codes differ."""
    got = student("round_trips")
    cards = [card(suit, face) for suit in Suit for face in range(1, 14)]
    assert [each["card"] for each in got] == cards, "the 52 cards Card(suit, face) made should be themselves"
    wrong = [f"Card.parse({each['code']!r}) gave {shown(each['parsed'])}, not {shown(each['card'])}"
             for each in got if each["parsed"] != each["card"]]
    assert not wrong, "; ".join(wrong[:3]) + (" ..." if len(wrong) > 3 else "")
    assert len({each["code"] for each in got}) == 52, \
        f"the 52 cards should have 52 different codes; got {len({each['code'] for each in got})}"


@pytest.mark.points(0)
def test_str_is_rank_then_suit_letter(student: Student) -> None:
    """str(card) is the two-character code, with T for the ten: "Th", "As", "Kd"."""
    got = student("codes", [["HEARTS", 10], ["SPADES", 1], ["DIAMONDS", 13]])
    assert got == ["Th", "As", "Kd"], \
        f"str() of the ten of hearts, the ace of spades and the king of diamonds should be Th, As, Kd; got {got}"


@pytest.mark.points(0)
def test_repr_is_a_parse_call(student: Student) -> None:
    """repr(card) is code you can paste back into Python."""
    text = student("card_repr", "CLUBS", 7)
    assert text == "Card.parse('7c')", f"repr(Card(Suit.CLUBS, 7)) should be \"Card.parse('7c')\"; got {text!r}"
    evaluated = student("repr_evaluated", "CLUBS", 7)
    assert evaluated == card(Suit.CLUBS, 7), f"evaluating {text} should give the card 7c back; got {shown(evaluated)}"


@pytest.mark.points(0)
def test_cards_are_values(student: Student) -> None:
    """Equal cards compare equal and hash alike, and a card cannot be changed."""
    got = student("values", "Ah", 1, "As")
    assert got["equal"] is True, f"Card(Suit.HEARTS, 1) == Card.parse('Ah') should be True; got {got['equal']!r}"
    assert got["distinct"] == 2, \
        (f"the set {{Card(Suit.HEARTS, 1), Card.parse('Ah'), Card.parse('As')}} should hold 2 cards; "
         f"got {got['distinct']}")
    raised = student.raised("set_face", "Ah", 2)
    assert raised is not None and raised.is_a("AttributeError"), \
        ("Card.parse('Ah').face = 2 should raise AttributeError: a card cannot be changed; "
         + ("it changed the card" if raised is None else f"it raised {raised.type}: {raised.message}"))


@pytest.mark.points(0)
def test_parse_cards_reads_a_list(student: Student) -> None:
    """parse_cards reads codes separated by commas and spaces, in order."""
    got = student("parse_list", "As Kd, 9h")
    assert got == [card(Suit.SPADES, 1), card(Suit.DIAMONDS, 13), card(Suit.HEARTS, 9)], \
        f"parse_cards('As Kd, 9h') should be [As, Kd, 9h]; got [{', '.join(map(shown, got))}]"
