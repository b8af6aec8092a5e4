"""Drills by hand type: choose opening cards that give the wanted spot, for ``Shoe.stack``.

The table stays honest: a drill only stacks the shoe ("ace up the sleeve",
Thunderjack dev blog) before the deal; the engine deals, decides legality and
settles as in any round. The dealer's hole card is not stacked, so it stays a
random card of the shoe, and every later card too.

>>> import random
>>> opening("pair", 1, random.Random(3))
['Td', '4h', 'Tc']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from blackjack import Card, Suit

__all__ = ["DRILLS", "Spot", "opening", "spot"]

#: Drill kinds and what each deals to every seat.
DRILLS: dict[str, str] = {
    "hard": "two different cards with no ace: a hard total from 5 to 19",
    "soft": "an ace and a 2..9: a soft total from 13 to 20",
    "pair": "two cards of the same rank",
    "insurance": "the dealer shows an ace; any two cards",
}

_SUITS = tuple(Suit)
_TEN_FACES = (10, 11, 12, 13)

Spot = tuple[Card, Card]


class _Picker:
    """Picks cards of given faces, each card at most ``decks`` times in one deal (the shoe has no more)."""

    def __init__(self, rng: random.Random, decks: int = 1) -> None:
        self.rng = rng
        self.decks = decks
        self.used: Counter[Card] = Counter()

    def card(self, faces: Iterable[int]) -> Card:
        faces = list(faces)
        choices = [Card(suit, face) for face in faces for suit in _SUITS if self.used[Card(suit, face)] < self.decks]
        if not choices:
            raise ValueError(f"a {self.decks}-deck shoe has too few cards of faces {faces} for this drill")
        card = self.rng.choice(choices)
        self.used[card] += 1
        return card

    def left(self, face: int) -> int:
        return sum(self.decks - self.used[Card(suit, face)] for suit in _SUITS)

    def pair(self) -> Spot:
        faces = [face for face in range(1, 14) if self.left(face) >= 2]
        if not faces:
            raise ValueError(f"a {self.decks}-deck shoe has no pair left for this drill")
        face = self.rng.choice(faces)
        return self.card([face]), self.card([face])


def spot(kind: str, picker_or_rng: random.Random | _Picker) -> Spot:
    """Choose one player's two opening cards, in deal order, for a drill ``kind`` (one of :data:`DRILLS`), drawn
    with ``picker_or_rng`` (a ``random.Random``, so drills replay by seed).

    Raises:
        ValueError: an unknown kind; the message lists the kinds.
    """
    picker = picker_or_rng if isinstance(picker_or_rng, _Picker) else _Picker(picker_or_rng)
    rng = picker.rng
    if kind == "hard":
        first = rng.randrange(2, 11)
        second = rng.choice([v for v in range(2, 11) if v != first])
        return picker.card(_faces(first)), picker.card(_faces(second))
    if kind == "soft":
        cards = [picker.card([1]), picker.card(range(2, 10))]
        rng.shuffle(cards)
        return cards[0], cards[1]
    if kind == "pair":
        return picker.pair()
    if kind == "insurance":
        return picker.card(range(1, 14)), picker.card(range(1, 14))
    raise ValueError(f"unknown drill: {kind!r}; choose from: {', '.join(DRILLS)}")


def opening(kind: str, seats: int, rng: random.Random, decks: int = 1) -> list[str]:
    """Return the ``2 * seats + 1`` card codes to stack for a drill ``kind`` (one of :data:`DRILLS`) with ``seats``
    (1..7) betting, in the engine's deal order: each seat's first card, the dealer's upcard, each seat's second
    card (the hole card is left to the shoe). ``rng`` draws them; no card comes more often than ``decks`` has it.

    Raises:
        ValueError: an unknown kind, seats outside 1..7, or too few cards of a kind in
            the shoe (e.g. a soft drill for five seats on one deck: five aces).
    """
    if kind not in DRILLS:
        raise ValueError(f"unknown drill: {kind!r}; choose from: {', '.join(DRILLS)}")
    if not 1 <= seats <= 7:
        raise ValueError(f"a drill needs 1..7 seats, got {seats}")
    picker = _Picker(rng, decks)
    upcard = picker.card([1]) if kind == "insurance" else picker.card(range(1, 14))
    hands = [spot(kind, picker) for _ in range(seats)]
    return [hand[0].code for hand in hands] + [upcard.code] + [hand[1].code for hand in hands]


def _faces(value: int) -> list[int]:
    """The faces worth ``value`` points (2..10; ten covers T J Q K)."""
    return list(_TEN_FACES) if value == 10 else [value]
