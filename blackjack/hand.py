"""A blackjack hand: the cards one player (or the dealer) holds, and how they score.

>>> hand = Hand([Card.parse("As"), Card.parse("6d")])
>>> hand.get_score(), hand.is_soft(), hand.total_text()
(17, True, '7 / 17')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cards import Card

__all__ = ["Hand"]


class Hand:
    """The cards one player hand or the dealer holds, in the order received.

    Args:
        cards: the starting cards (default none).
        from_split: True for a hand made by splitting a pair; its two-card 21 is not
            a natural.

    A hand is mutable (cards are added), compares by its cards, and is not hashable.
    ``str(hand)`` is the card codes, ``"As 7d"``; ``card in hand`` tests by equality.
    """

    __slots__ = ("_cards", "from_split")

    def __init__(self, cards: Iterable[Card] = (), *, from_split: bool = False) -> None:
        self._cards: list[Card] = list(cards)
        self.from_split = from_split

    def add_card(self, card: Card) -> None:
        """Add one card to the hand (cs111 ``addCard``).

        Raises:
            TypeError: ``card`` is not a :class:`Card`.
        """
        if not isinstance(card, Card):
            raise TypeError(f"a hand holds Cards, not {type(card).__name__}")
        self._cards.append(card)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in the order they were received."""
        return tuple(self._cards)

    def get_score(self) -> int:
        """Return the best total: the card values summed, one ace counted as 11 when that does not exceed 21.

        This is the cs111 ``getScore`` algorithm: "add up the values of the cards; if
        there is an ace and changing its value from 1 to 11 would not exceed 21,
        increase the score by 10". Only one ace can ever count 11 (two would be 22).
        Time O(n) for n cards.
        """
        # BEGIN SOLUTION m1: add up get_value() of every card; if the hand has an ace and adding 10 keeps it at 21 or less, add 10
        total = 0
        ace = False
        for card in self._cards:  # one plain loop, reading card.value (= get_value()): this runs often
            value = card.value
            total += value
            if value == 1:
                ace = True
        if ace and total <= 11:
            total += 10
        return total
        # END SOLUTION

    def is_soft(self) -> bool:
        """Return True when an ace is counted as 11 in :meth:`get_score` (e.g. A-6 is soft 17)."""
        # BEGIN SOLUTION m1: a hand is soft when it has an ace and the card values add up to 11 or less
        total = 0
        ace = False
        for card in self._cards:
            value = card.value
            total += value
            if value == 1:
                ace = True
        return ace and total <= 11
        # END SOLUTION

    def is_blackjack(self) -> bool:
        """Return True for a natural: exactly two cards scoring 21, not made by a split."""
        # BEGIN SOLUTION m1: two cards, a score of 21, and the hand is not from a split
        return len(self._cards) == 2 and not self.from_split and self.get_score() == 21
        # END SOLUTION

    def is_bust(self) -> bool:
        """Return True when the best total is over 21."""
        # BEGIN SOLUTION m1: the hand is bust when its score is more than 21
        return self.get_score() > 21
        # END SOLUTION

    def is_pair(self, *, by: str = "rank") -> bool:
        """Return True for two cards of equal face (``by="rank"``) or equal points (``by="value"``).

        Raises:
            ValueError: ``by`` is neither ``"rank"`` nor ``"value"``.
        """
        if by not in ("rank", "value"):
            raise ValueError(f"by must be 'rank' or 'value', got {by!r}")
        if len(self._cards) != 2:
            return False
        first, second = self._cards
        if by == "rank":
            return first.face == second.face
        return first.get_value() == second.get_value()

    def total_text(self) -> str:
        """The total as a table shows it: ``"7 / 17"`` for a soft total (justBlackjack), else ``"17"``.

        A soft 21 shows as ``"21"``: there is nothing better to count it as.
        """
        total = self.get_score()
        if self.is_soft() and total < 21:
            return f"{total - 10} / {total}"
        return str(total)

    def clear(self) -> list[Card]:
        """Remove and return all cards (for the discard pile); the hand then starts again as a new ``Hand()``.

        So it is no longer from a split. The engine reuses hands this way: the dealer's
        between rounds, a recycled round's opening hands.
        """
        cards, self._cards = self._cards, []
        self.from_split = False
        return cards

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __getitem__(self, index: int) -> Card:
        return self._cards[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._cards == other._cards and self.from_split == other.from_split

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return " ".join(card.code for card in self._cards)

    def __repr__(self) -> str:
        split = ", from_split=True" if self.from_split else ""
        return f"Hand(parse_cards({str(self)!r}){split})"
