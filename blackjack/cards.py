"""Playing cards: the :class:`Suit` enum, the immutable :class:`Card`, and the course helpers
(``create_card_array``, ``shuffle``, ``parse_cards``).

Card codes are two characters, rank then suit, as in treys and most poker tools:
``"As"``, ``"Th"`` (ten of hearts), ``"Kd"``, ``"7c"``. :meth:`Card.parse` also reads
``"10h"``, ``"AH"``, ``"A♥"`` and the Thunderjack card id ``"a_h_2"``
(value_suit_deckIndex, Thunderjack dev blog), so ``Card.parse(str(card)) == card``.

>>> Card.parse("Th")
Card.parse('Th')
>>> str(Card(Suit.HEARTS, 1)), Card(Suit.HEARTS, 12).get_value()
('Ah', 10)
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from .errors import InvalidCardError, quoted

__all__ = ["Card", "Suit", "create_card_array", "parse_cards", "shuffle"]


class Suit(enum.Enum):
    """The four suits, in the order ``create_card_array`` uses (cs111 spec).

    Each suit has a one-letter ``code`` (s, d, c, h), a Unicode ``symbol`` and a ``color``.
    """

    SPADES = "s"
    DIAMONDS = "d"
    CLUBS = "c"
    HEARTS = "h"

    @property
    def code(self) -> str:
        """The one-letter code used in card codes: ``"s"``, ``"d"``, ``"c"`` or ``"h"``."""
        return self.value

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol: ♠ ♦ ♣ ♥."""
        return _SYMBOLS[self]

    @property
    def color(self) -> str:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs (cs111 spec)."""
        return "red" if self in (Suit.HEARTS, Suit.DIAMONDS) else "black"

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (any case), symbol, or English name.

        Raises:
            InvalidCardError: the text names no suit.
        """
        key = text.strip().lower()
        suit = _SUIT_LOOKUP.get(key)
        if suit is None:
            raise InvalidCardError(f"unknown suit: {text!r} (use s, d, c, h or ♠ ♦ ♣ ♥)", text)
        return suit


_SYMBOLS = {Suit.SPADES: "♠", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.HEARTS: "♥"}
_SUIT_LOOKUP = {key: suit for suit in Suit for key in (suit.code, suit.symbol, suit.name.lower())}
_SUIT_LOOKUP.update({"♤": Suit.SPADES, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS, "♡": Suit.HEARTS})

#: Face codes indexed by face number (index 0 unused): A 2 .. 9 T J Q K.
FACE_CODES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_FACE_NAMES = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "jack", "queen", "king")
_FACE_LOOKUP = {code.lower(): face for face, code in enumerate(FACE_CODES) if code} | {"10": 10, "1": 1}
_CODE_RE = re.compile(r"^(10|[2-9tjqka1])(.+)$", re.IGNORECASE)
_CARD_HELP = "rank A 2-9 T/10 J Q K, then suit s d c h (e.g. 'Th', '10h', 'A♥', 'a_h_2')"


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card: an immutable, hashable value.

    Args:
        suit: the card's :class:`Suit`.
        face: 1..13, where 1 is the ace, 11 jack, 12 queen, 13 king (cs111 spec).

    Raises:
        TypeError: ``suit`` is not a :class:`Suit`.
        InvalidCardError: ``face`` is not an int in 1..13.

    Cards compare equal by suit and face; there is no ``<`` because card order depends
    on the game. ``Card.SPADES`` .. ``Card.HEARTS`` alias the :class:`Suit` members, as
    the course's Card class names its suit constants.

    Attributes:
        value: the blackjack points, 1..10 (:meth:`get_value`), stored: scoring reads it for every card.
    """

    suit: Suit
    face: int
    value: int = field(init=False, repr=False, compare=False)

    SPADES: ClassVar[Suit]
    DIAMONDS: ClassVar[Suit]
    CLUBS: ClassVar[Suit]
    HEARTS: ClassVar[Suit]

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise TypeError(f"suit must be a Suit, not {type(self.suit).__name__}")
        if isinstance(self.face, bool) or not isinstance(self.face, int) or not 1 <= self.face <= 13:
            raise InvalidCardError(f"card face must be 1..13 (ace=1, king=13), got {self.face!r}",
                                   repr(self.face))
        object.__setattr__(self, "value", self.face if self.face < 10 else 10)

    # --- course accessors -------------------------------------------------------------
    def get_face(self) -> int:
        """Return the face, 1..13 (ace 1, jack 11, queen 12, king 13) (cs111 ``getFace``)."""
        return self.face

    def get_value(self) -> int:
        """Return the blackjack points, 1..10: ace 1, 2-10 their number, J/Q/K 10 (cs111 ``getValue``).

        The ace's choice between 1 and 11 belongs to the hand, see ``Hand.get_score``.
        """
        return self.value

    # --- text form ----------------------------------------------------------------------
    @property
    def code(self) -> str:
        """The two-character code, rank then suit: ``"Ah"``, ``"Th"``, ``"7c"``."""
        return FACE_CODES[self.face] + self.suit.code

    @property
    def symbol(self) -> str:
        """A display form with the suit symbol: ``"A♥"``, ``"10♠"``."""
        rank = "10" if self.face == 10 else FACE_CODES[self.face]
        return rank + self.suit.symbol

    @property
    def name(self) -> str:
        """The English name, e.g. ``"queen of hearts"``."""
        return f"{_FACE_NAMES[self.face]} of {self.suit.name.lower()}"

    @property
    def is_ace(self) -> bool:
        """True for an ace."""
        return self.face == 1

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its code (surrounding white space ignored).

        Accepts ``"Ah"``, ``"AH"``, ``"ah"``, ``"10h"``, ``"Th"``, ``"A♥"``, ``"10♠"`` and the
        Thunderjack card id ``"a_h_2"`` (value_suit_deckIndex; the deck index is checked to
        be a number and then dropped, since a card's identity is its rank and suit).

        Raises:
            InvalidCardError: (a ``ValueError``) the text is not a card code; the message names it.
            TypeError: ``text`` is not a ``str``.
        """
        if not isinstance(text, str):
            raise TypeError(f"card code must be a str, not {type(text).__name__}")
        raw = text.strip()
        parts = raw.split("_")
        if len(parts) == 3 and parts[2].isdigit():  # a Thunderjack id; any other "_" leaves no suit to find
            raw = parts[0] + parts[1]
        match = _CODE_RE.match(raw)
        suit = None if match is None else _SUIT_LOOKUP.get(match.group(2).lower())
        if match is None or suit is None:
            raise InvalidCardError(f"unknown card code: {quoted(text)} ({_CARD_HELP})", text)
        return cls(suit, _FACE_LOOKUP[match.group(1).lower()])

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


for _suit in Suit:  # Card.SPADES .. Card.HEARTS, as the course's Card class names them
    setattr(Card, _suit.name, _suit)

_CARDS_SEP = re.compile(r"[\s,;]+")


def parse_cards(text: str) -> list[Card]:
    """Read card codes separated by commas, semicolons or white space.

    >>> parse_cards("As, Kd 9h")
    [Card.parse('As'), Card.parse('Kd'), Card.parse('9h')]

    Raises:
        InvalidCardError: a code is unknown; the message names the first bad one.
    """
    return [Card.parse(code) for code in _CARDS_SEP.split(text.strip()) if code]


def create_card_array() -> list[Card]:
    """Return a new list of the 52 cards: A-K of spades, then diamonds, clubs, hearts (cs111 ``createCardArray``).

    The first card is the ace of spades, the 14th the ace of diamonds, the last the king
    of hearts. Each call returns a new list, so shuffling one deck never changes another.
    """
    # BEGIN SOLUTION m1: return a new list of 52 cards: for each suit in Suit's order (spades, diamonds, clubs, hearts), one Card of that suit for each face from 1 (ace) to 13 (king)
    return [Card(suit, face) for suit in Suit for face in range(1, 14)]
    # END SOLUTION


_T = TypeVar("_T")


def shuffle(cards: MutableSequence[_T], rng: random.Random | None = None) -> None:
    """Shuffle ``cards`` in place, every order equally likely (cs111 ``shuffle(Card[] cardArray)``).

    Args:
        cards: any mutable sequence, e.g. the list from :func:`create_card_array`; it keeps
            exactly its items, in a new order.
        rng: the only random source the shuffle may use; pass ``random.Random(seed)`` to
            replay a shuffle. When ``None``, a fresh ``random.Random()`` seeded by the
            operating system is used.

    Returns:
        None: the list itself is changed.

    Every one of the n! orders must be equally likely: milestone 1's ``test_shuffle.py``
    checks that with a chi-square test. Compare the course's ``Deck.shuffle`` algorithm
    with yours in ``docs/diary.md``.
    """
    # BEGIN SOLUTION m1: shuffle cards in place drawing every random number from rng (random.Random() when rng is None), so that all orders are equally likely; start from the course's Deck.shuffle algorithm in milestones/specs/milestone1.md and read its note
    # Fisher-Yates (Durstenfeld): card i swaps with a position j drawn uniformly from 0..i (the course's
    # "swap each card with any position" is biased: n**n swap sequences cannot fall evenly on n! orders).
    # j is drawn as random.Random.shuffle draws it (k random bits, again while more than i), so a seed
    # gives the same order either way; written out here it runs about twice as fast.
    rand = rng if rng is not None else random.Random()
    getrandbits = rand.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        size = i + 1
        bits = size.bit_length()
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
    # END SOLUTION
