"""A card-counting drill as a pure object: it deals cards to flash, takes answers, keeps score.

No input, output or timing here: the text game and the GUI drive it::

    >>> drill = CountingDrill("hi_lo", rounds=2, cards_per_round=3, seed=1)
    >>> cards = drill.next_cards()          # flash these
    >>> result = drill.answer(drill.expected)  # the student's running count
    >>> result.correct, drill.score
    (True, (1, 1))

The running count is cumulative over the whole drill, as at a table (the count is
never reset between rounds of flashed cards). An unbalanced system (KO) starts at its
initial count for ``decks`` decks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import Card, create_card_array, shuffle
from ..errors import IllegalActionError, quoted
from ..typed_numbers import parse_whole
from .counting import CountingSystem, running_count, system

__all__ = ["CountingDrill", "DrillResult"]


@dataclass(frozen=True)
class DrillResult:
    """The scoring of one answer.

    Attributes:
        round: 1-based number of the round answered.
        cards: the cards flashed in that round.
        given: the student's running count.
        expected: the correct running count.
        correct: ``given == expected``.
    """

    round: int
    cards: tuple[Card, ...]
    given: int
    expected: int
    correct: bool

    def message(self) -> str:
        """One line for the front end: ``"right: +3"`` or ``"wrong: you said +2, the count is +3"``."""
        if self.correct:
            return f"right: {self.expected:+d}"
        return f"wrong: you said {self.given:+d}, the count is {self.expected:+d}"


class CountingDrill:
    """Flash cards from a shuffled shoe; after each round the student gives the running count.

    Args:
        counting: the system or its key (default ``"hi_lo"``).
        decks: decks in the drill shoe (1..8); also fixes an unbalanced system's start.
        rounds: how many rounds (answers) the drill has.
        cards_per_round: cards flashed per round (1..52).
        rng: the random source; or give ``seed``. Default: a fresh ``random.Random()``.
        seed: a shortcut for ``rng=random.Random(seed)``.

    Raises:
        ValueError: a bad decks, rounds or cards_per_round, more cards than the shoe
            holds, or both rng and seed.
        RulesError: an unknown system.
    """

    def __init__(self, counting: str | CountingSystem = "hi_lo", *, decks: int = 1, rounds: int = 10,
                 cards_per_round: int = 4, rng: random.Random | None = None, seed: int | None = None) -> None:
        if rng is not None and seed is not None:
            raise ValueError("give rng or seed, not both")
        if not 1 <= decks <= 8 or rounds < 1 or not 1 <= cards_per_round <= 52:
            raise ValueError(f"need decks 1..8, rounds >= 1 and cards_per_round 1..52; got {decks}, {rounds}, "
                             f"{cards_per_round}")
        if rounds * cards_per_round > decks * 52:
            raise ValueError(f"{rounds} rounds of {cards_per_round} cards need more than {decks} deck(s)")
        self.system = system(counting)
        self.decks = decks
        self.rounds = rounds
        self.cards_per_round = cards_per_round
        self._rng = rng if rng is not None else random.Random(seed)
        self._shoe = create_card_array() * decks
        shuffle(self._shoe, self._rng)
        self._seen: list[Card] = []
        self._pending: tuple[Card, ...] | None = None
        self.results: list[DrillResult] = []

    @property
    def round(self) -> int:
        """Rounds answered so far."""
        return len(self.results)

    @property
    def finished(self) -> bool:
        """True when every round has been answered."""
        return len(self.results) >= self.rounds

    @property
    def waiting(self) -> bool:
        """True when cards were flashed and the answer is due."""
        return self._pending is not None

    @property
    def expected(self) -> int:
        """The correct running count of every card flashed so far."""
        return running_count(self._seen, self.system, decks=self.decks)

    @property
    def score(self) -> tuple[int, int]:
        """``(right answers, answers)``."""
        return sum(r.correct for r in self.results), len(self.results)

    def next_cards(self) -> tuple[Card, ...]:
        """Deal the next round's cards to flash.

        Raises:
            IllegalActionError: the drill is finished, or the last round is not answered.
        """
        if self.finished:
            raise IllegalActionError("the drill is over; start a new one")
        if self._pending is not None:
            raise IllegalActionError("answer the running count for the cards shown first")
        cards = tuple(self._shoe.pop() for _ in range(self.cards_per_round))
        self._seen.extend(cards)
        self._pending = cards
        return cards

    def answer(self, given: int | str) -> DrillResult:
        """Score the student's running count for everything flashed so far.

        Args:
            given: an int, or text such as ``"3"``, ``"+3"``, ``" -2 "``.

        Returns:
            The :class:`DrillResult` (also appended to :attr:`results`).

        Raises:
            IllegalActionError: no cards are waiting for an answer, or the text is not a
                whole number (nothing is scored then).
        """
        if self._pending is None:
            raise IllegalActionError("no cards to count yet: call next_cards() first")
        if isinstance(given, str):
            try:
                value = parse_whole(given)
            except ValueError:
                raise IllegalActionError(f"the running count is a whole number like +3 or -2, got {quoted(given)}",
                                         given) from None
        elif isinstance(given, bool) or not isinstance(given, int):
            raise IllegalActionError(f"the running count is a whole number, got {quoted(given)}", given)
        else:
            value = given
        expected = self.expected
        result = DrillResult(len(self.results) + 1, self._pending, value, expected, value == expected)
        self.results.append(result)
        self._pending = None
        return result

    def summary(self) -> str:
        """One line: ``"Hi-Lo drill: 8 of 10 right (80%)"``."""
        right, asked = self.score
        share = f" ({100 * right // asked}%)" if asked else ""
        return f"{self.system.name} drill: {right} of {asked} right{share}"
