"""Where cards come from: the course's :class:`Deck` and the casino :class:`Shoe`.

Cards are conserved: a card is always in exactly one place – the shoe, a hand on
the table, or the discard pile. The shoe never invents or drops a card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from fractions import Fraction

from .cards import Card, create_card_array, parse_cards, shuffle
from .errors import EmptyShoeError, InvalidCardError
from .rules import Rules

__all__ = ["Deck", "Shoe"]


class Deck:
    """A pile of cards dealt one at a time from the top (the course's ``Deck``).

    Args:
        cards: the cards, top (next to deal) first. The deck keeps its own copy.
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card]) -> None:
        self._cards = list(cards)
        self._cards.reverse()  # the next card is at the end, so deal() is O(1)

    def deal(self) -> Card:
        """Remove and return the top card: the first card the deck was made with that is still in it (cs111 ``deal``).

        Raises:
            EmptyShoeError: (a ``LookupError``) the deck is empty; its message says that the deck is empty.
        """
        # BEGIN SOLUTION m1: take the next card off the deck and return it (__init__ keeps the next card last in self._cards); when there is none, raise EmptyShoeError with a message that says the deck is empty
        if not self._cards:
            raise EmptyShoeError("cannot deal: the deck is empty")
        return self._cards.pop()
        # END SOLUTION

    def is_empty(self) -> bool:
        """Return True when no card is left (cs111 ``isEmpty``)."""
        # BEGIN SOLUTION m1: return True when the deck holds no cards, and False otherwise
        return not self._cards
        # END SOLUTION

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards left, next to deal first."""
        return tuple(reversed(self._cards))

    def __len__(self) -> int:
        return len(self._cards)


class Shoe:
    """A dealing shoe of one or more 52-card decks, with a cut card and a discard pile (:meth:`from_rules`).

    The shoe is shuffled when made. Once the cut card is reached (:attr:`cut_card_reached`)
    the table reshuffles before the next round, never in the middle of one; only a shoe that
    runs dry in mid-round gets the discards (not the cards on the table) shuffled back in.

    Args:
        decks: 52-card decks in the shoe, 1..8.
        rng: the random source of every shuffle; give ``random.Random(seed)`` to replay.
        seed: a shortcut for ``rng=random.Random(seed)``; give one of rng and seed.
        penetration: share of the shoe dealt before the cut card, in (0, 1).
        cut_card_from_back: ``(low, high)``: place the cut card a random number of cards
            from the back, in that inclusive range, at every shuffle (justBlackjack
            uses 61-75). Replaces ``penetration``.

    Raises:
        ValueError: decks outside 1..8 or penetration outside (0, 1).
    """

    def __init__(self, decks: int = 6, *, rng: random.Random | None = None, seed: int | None = None,
                 penetration: Fraction | None = Fraction(3, 4),
                 cut_card_from_back: tuple[int, int] | None = None) -> None:
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
            raise ValueError(f"decks must be 1..8, got {decks!r}")
        if rng is not None and seed is not None:
            raise ValueError("give rng or seed, not both")
        if cut_card_from_back is None:
            if penetration is None or not 0 < penetration < 1:
                raise ValueError(f"penetration must be between 0 and 1, got {penetration}")
        elif not 0 < cut_card_from_back[0] <= cut_card_from_back[1] < decks * 52:
            raise ValueError(f"cut_card_from_back must be (low, high) with 0 < low <= high < {decks * 52}")
        self.decks = decks
        self._rng = rng if rng is not None else random.Random(seed)
        self._cut_from_back = cut_card_from_back
        #: every card in its fixed starting order (see :meth:`_reshuffle`), the decks sharing one deck's Cards
        self._full = tuple(create_card_array()) * decks
        self._cards: list[Card] = list(self._full)
        self._discards: list[Card] = []
        # The undealt cards by face 1..13 (index 0 unused), kept lazily so that deal() only pops:
        # they are right as of ``_counted`` cards left; the cards dealt since are
        # ``_snapshot[len(_cards):_counted]``, because between shuffles and stack() the shoe
        # only loses cards off its end (see _sync_counts).
        self._counts = [0] * 14
        self._snapshot: list[Card] = []
        self._counted = 0
        # Stacked cards (see stack()) are the cards above this many from the back; dealing
        # one lowers len(_cards) past it, so deal() need not count them down.
        self._stack_floor = len(self._cards)
        self._cut_remaining = 0
        self._cut_for_penetration = (decks * 52 - round(decks * 52 * penetration)
                                     if cut_card_from_back is None and penetration is not None else 0)
        self.shuffle_count = 0
        self.shuffle()

    @classmethod
    def from_rules(cls, rules: Rules, *, rng: random.Random | None = None, seed: int | None = None) -> Shoe:
        """Return a shuffled shoe with the decks and cut card that ``rules`` gives."""
        return cls(rules.decks, rng=rng, seed=seed, penetration=rules.penetration,
                   cut_card_from_back=rules.cut_card_from_back)

    # --- dealing ----------------------------------------------------------------------
    def deal(self) -> Card:
        """Remove and return the next card.

        If the shoe is empty in mid-round, the discard pile is shuffled back in first
        (``shuffle_count`` goes up by one).

        Raises:
            EmptyShoeError: (a ``LookupError``) no card is left and no discards either.
        """
        cards = self._cards
        if not cards:
            if not self._discards:
                raise EmptyShoeError("cannot deal: the shoe and the discard pile are empty")
            self._reshuffle(self._discards)
        return cards.pop()

    def dealing(self, most: int) -> Callable[[], Card]:
        """Return what deals the next card for a stretch of play that takes at most ``most`` cards.

        That is :meth:`deal`, or, when ``most`` cards or more are left, the undealt list's own
        ``pop``, which skips a test for an empty shoe that cannot fail. Use it only until the
        shoe is next shuffled or stacked.
        """
        return self._cards.pop if len(self._cards) >= most else self.deal

    def is_empty(self) -> bool:
        """Return True when no undealt card is left (discards do not count)."""
        return not self._cards

    def discard(self, cards: Iterable[Card]) -> None:
        """Put used cards on the discard pile."""
        self._discards.extend(cards)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile, oldest first."""
        return tuple(self._discards)

    @property
    def cut_card_reached(self) -> bool:
        """True once no more cards are left than the cut card's place from the back."""
        return len(self._cards) <= self._cut_remaining

    @property
    def cut_card_position(self) -> int:
        """How many cards from the back the cut card sits."""
        return self._cut_remaining

    def counts(self) -> dict[int, int]:
        """Return the undealt cards by point value: ``{1: aces, 2: twos, ..., 10: tens and faces}``."""
        counts = self._sync_counts()
        return {1: counts[1], 2: counts[2], 3: counts[3], 4: counts[4], 5: counts[5], 6: counts[6],
                7: counts[7], 8: counts[8], 9: counts[9], 10: counts[10] + counts[11] + counts[12] + counts[13]}

    @property
    def cards(self) -> tuple[Card, ...]:
        """The undealt cards, next to deal first (for tests and teachers: a real shoe hides this)."""
        return tuple(reversed(self._cards))

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def _stacked(self) -> int:
        """How many cards at the top were put there by :meth:`stack` and are not dealt yet."""
        return max(0, len(self._cards) - self._stack_floor)

    def _sync_counts(self) -> list[int]:
        """Bring the counts by face up to date with the cards dealt since they were last right; return them."""
        left = len(self._cards)
        counts = self._counts
        if left < self._counted:
            for card in self._snapshot[left:self._counted]:
                counts[card.face] -= 1
        self._counted = left
        return counts

    def _mark_counted(self) -> None:
        """Note that the counts are right for the cards in the shoe now (after a shuffle or stack())."""
        self._snapshot = self._cards[:]
        self._counted = len(self._cards)

    # --- shuffling --------------------------------------------------------------------
    def shuffle(self) -> None:
        """Gather the discard pile into the shoe, shuffle it all, and place the cut card.

        Cards still on the table are not gathered: call this between rounds. Stacked
        cards (see :meth:`stack`) stay on top, in their order. With every card back, the
        shuffle starts from the shoe's fixed order, so the k-th shuffle of a seed gives
        the same shoe whatever was played before it.
        """
        stacked = [self._cards.pop() for _ in range(self._stacked)]  # in deal order; _reshuffle recounts
        self._reshuffle(self._discards)
        self._place_cut_card()
        self._cards.extend(reversed(stacked))
        for card in stacked:
            self._counts[card.face] += 1
        self._stack_floor = len(self._cards) - len(stacked)
        self._mark_counted()

    def _reshuffle(self, extra: list[Card]) -> None:
        self._cards.extend(extra)
        extra.clear()
        whole = len(self._cards) == self.decks * 52  # every card is back in the shoe: the usual case
        if whole:
            # The fixed order (see shuffle()): strategies compared on one seed meet the same shoes.
            self._cards[:] = self._full
        shuffle(self._cards, self._rng)
        self._stack_floor = len(self._cards)  # nothing stacked
        if whole:
            self._counts = [0] + [4 * self.decks] * 13
        else:
            counts = self._counts = [0] * 14
            for card in self._cards:
                counts[card.face] += 1
        self._mark_counted()
        self.shuffle_count += 1

    def _place_cut_card(self) -> None:
        if self._cut_from_back is not None:
            low, high = self._cut_from_back
            self._cut_remaining = self._rng.randint(low, high)
        else:
            self._cut_remaining = self._cut_for_penetration

    def stack(self, codes: Iterable[Card | str]) -> None:
        """Make the given cards the next ones dealt, in order ("ace up the sleeve", Thunderjack blog).

        Each card is taken from the undealt cards (or, failing that, from the discard
        pile), so the shoe still holds exactly ``decks`` copies of every card. The deal
        order at the table is docs/api.md's.

        Args:
            codes: Cards or card codes such as ``"Ah"``, ``"10h"``, ``"a_h_2"``, or one string
                of codes separated by commas or spaces (``"As Kd, 9h"``).

        Raises:
            InvalidCardError: a code is unknown, or more copies of a card are asked for
                than are left off the table. Nothing is changed then.
        """
        if isinstance(codes, str):
            codes = parse_cards(codes)
        wanted = [code if isinstance(code, Card) else Card.parse(code) for code in codes]
        already = self._stacked
        free = len(self._cards) - already  # self._cards[:free] are unstacked
        pool = self._cards[:free] + self._discards
        for card in wanted:
            if card not in pool:
                raise InvalidCardError(f"cannot stack {card}: no copy of it is left in the shoe or discards",
                                       str(card))
            pool.remove(card)
        self._sync_counts()
        for card in wanted:
            try:
                index = self._cards.index(card, 0, free)
            except ValueError:
                self._discards.remove(card)
                self._counts[card.face] += 1
            else:
                del self._cards[index]
                free -= 1
        self._cards.extend(reversed(wanted))  # the first wanted card ends up last: dealt first
        self._stack_floor = len(self._cards) - already - len(wanted)
        self._mark_counted()

    def __repr__(self) -> str:
        return (f"<Shoe decks={self.decks} remaining={len(self._cards)} discards={len(self._discards)} "
                f"cut={self._cut_remaining}>")
