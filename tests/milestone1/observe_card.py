"""Observations for test_card.py, run in the student's process: cards made and read with the given Card class,
plain data returned (docs/design/graded_test_shape.md). A card is sent as ``{"suit": its Suit's name, "face": n}``
where the test is about what the card is, and as its code (``str(card)``) where it is about the code."""

from __future__ import annotations

from blackjack import Card, Suit, parse_cards
from milestones.grader.observer import plain


def _card(card: object) -> object:
    """A Card as ``{"suit": "HEARTS", "face": 12}``; anything else as plain data (an object by its class and repr)."""
    if isinstance(card, Card):
        return {"suit": _suit(card.suit), "face": plain(card.face)}
    return plain(card)


def _suit(suit: object) -> object:
    """A Suit by its name; anything else as plain data."""
    return suit.name if isinstance(suit, Suit) else plain(suit)


def suit_and_face(suit: str, face: object) -> dict[str, object]:
    """Card(Suit[suit], face): its suit (by name) and get_face()."""
    card = Card(Suit[suit], face)  # type: ignore[arg-type]
    return {"suit": _suit(card.suit), "face": card.get_face()}


def course_suit_constants() -> list[object]:
    """Card.SPADES, Card.DIAMONDS, Card.CLUBS, Card.HEARTS, by name."""
    return [_suit(Card.SPADES), _suit(Card.DIAMONDS), _suit(Card.CLUBS), _suit(Card.HEARTS)]


def value(suit: str, face: int) -> object:
    """get_value() of Card(Suit[suit], face)."""
    return Card(Suit[suit], face).get_value()


def make(suit: str, face: object) -> object:
    """Card(Suit[suit], face), made (the test expects it to be refused)."""
    return _card(Card(Suit[suit], face))  # type: ignore[arg-type]


def make_with_text_suit(suit: str, face: int) -> object:
    """Card(suit, face) with the suit given as a plain string instead of a Suit."""
    return _card(Card(suit, face))  # type: ignore[arg-type]


def parse(text: object) -> object:
    """Card.parse(text)."""
    return _card(Card.parse(text))  # type: ignore[arg-type]


def round_trips() -> list[dict[str, object]]:
    """For each of the 52 cards (every Suit, faces 1..13): the card, its code, and Card.parse of the code."""
    cards = [Card(suit, face) for suit in Suit for face in range(1, 14)]
    return [{"card": _card(card), "code": plain(str(card)), "parsed": _card(Card.parse(str(card)))} for card in cards]


def codes(cards: list[list[object]]) -> list[object]:
    """str(Card(Suit[suit], face)) of each ``[suit, face]``."""
    return [plain(str(Card(Suit[str(suit)], face))) for suit, face in cards]  # type: ignore[arg-type]


def card_repr(suit: str, face: int) -> object:
    """repr(Card(Suit[suit], face))."""
    return plain(repr(Card(Suit[suit], face)))


def repr_evaluated(suit: str, face: int) -> object:
    """The card that evaluating repr(Card(Suit[suit], face)) as Python, with Card in scope, gives."""
    return _card(eval(repr(Card(Suit[suit], face)), {"Card": Card}))  # noqa: S307 - the given repr


def values(code_a: str, face: int, code_b: str) -> dict[str, object]:
    """Card(HEARTS, face) == Card.parse(code_a), and how many different cards {Card(HEARTS, face), code_a, code_b}
    hold."""
    made = Card(Suit.HEARTS, face)
    return {"equal": plain(made == Card.parse(code_a)),
            "distinct": len({made, Card.parse(code_a), Card.parse(code_b)})}


def set_face(code: str, face: int) -> object:
    """Card.parse(code).face = face (the test expects it to be refused)."""
    card = Card.parse(code)
    card.face = face  # type: ignore[misc]
    return _card(card)


def parse_list(text: str) -> list[object]:
    """parse_cards(text)."""
    return [_card(card) for card in parse_cards(text)]
