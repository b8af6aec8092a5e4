"""Exact EVs worked out ahead, on a background thread, while the player reads the table.

The hardest decisions take up to about 0.2 s of CPU cold, but a decision is known as soon as the cards are
dealt: a front end calls :meth:`Ahead.start` then, one worker thread computes the exact EVs while the player
reads the table, and :func:`.table_hint.hint` with ``ahead=`` takes them when the player asks (docs/hints.md,
"For the front ends").

>>> from blackjack.hints.ahead import Ahead, Decision
>>> one_deck = {1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 2, 9: 4, 10: 15}  # 8-8 v 10 dealt
>>> decision = Decision.of([8, 8], 10, one_deck)
>>> with Ahead() as ahead:
...     ahead.start(decision)  # when the cards are dealt
...     evs = ahead.evs(decision, wait=None)  # when the player asks (None: wait until ready)
>>> max(evs, key=evs.get), round(evs[Action.SPLIT], 4)
(<Action.SPLIT: 'split'>, -0.4469)
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from ..actions import Action
from ..cards import Card
from ..rules import Rules
from ..view import TableView
from ._work import Budget, OutOfWork, collector_paused, work_budget
from .probability import CardLike, ShoeLike, card_value, counts_from, expected_values

__all__ = ["Ahead", "Decision"]

_DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class Decision:
    """What the EVs of one decision depend on: the hand, the upcard, the unseen cards and the rules.

    Two views of the same decision (before and after the insurance question, say: the
    peek changes no input) give equal Decisions, so EVs worked out for one serve the other.

    Attributes:
        cards: the hand, Cards or point values, in the order received.
        upcard: the dealer's upcard, 1..10.
        unseen: the unseen cards as 10 counts, aces first and every ten-valued card last
            (:func:`~.probability.counts_from`); None for an infinite deck.
        rules: the table rules.
        from_split: the hand came from a split.
        hands: the hands the seat holds now.
    """

    cards: tuple[CardLike, ...]
    upcard: int
    unseen: tuple[int, ...] | None
    rules: Rules = _DEFAULT_RULES
    from_split: bool = False
    hands: int = 1

    @classmethod
    def of(cls, cards: Iterable[CardLike], upcard: CardLike, unseen: ShoeLike,
           rules: Rules | None = None, *, from_split: bool = False, hands: int = 1) -> Decision:
        """The Decision for a hand, an upcard (Card or 1..10) and the unseen cards (any form
        :func:`~.probability.expected_values` takes).

        Raises:
            InvalidCardError, TypeError, ValueError: a bad upcard or composition.
        """
        return cls(tuple(cards), card_value(upcard), counts_from(unseen),
                   _DEFAULT_RULES if rules is None else rules, from_split, hands)

    @classmethod
    def from_view(cls, state: TableView) -> Decision | None:
        """The Decision of the hand whose turn it is in a round's view.

        Args:
            state: the round's view (``round.view()``): ``turn``, ``seats``, ``dealer``,
                ``unseen_counts`` and ``rules`` are read.

        Returns:
            The Decision, or None when no hand waits (or no upcard is dealt).

        Raises:
            NotImplementedError: course code that reads a card's value is not written
                yet (a student's starter).
        """
        if state.turn is None or state.dealer.upcard is None:
            return None
        seat_index, hand_index = state.turn
        seat = state.seats[seat_index]
        hand = seat.hands[hand_index]
        cards: list[Card] = list(hand.cards)
        return cls.of(cards, state.dealer.upcard, state.unseen_counts, state.rules,
                      from_split=hand.from_split, hands=len(seat.hands))

    def expected_values(self, *, exact: bool = True) -> dict[Action, float]:
        """:func:`~.probability.expected_values` of this decision.

        Raises:
            As :func:`~.probability.expected_values`.
        """
        return expected_values(list(self.cards), self.upcard, self.unseen, self.rules,
                               from_split=self.from_split, hands=self.hands, exact=exact)


class _Job:
    """One decision's computation: its future and the budget that can stop it."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        self.budget: Budget | None = None
        self.stopped = False
        self.future: concurrent.futures.Future[dict[Action, float]] | None = None

    def run(self) -> dict[Action, float]:
        # An unlimited budget, so that stop() can end the work at its next memo miss
        # (a stopped computation leaves only finished values in the memos).
        with collector_paused(), work_budget(_UNLIMITED) as budget:
            self.budget = budget
            if self.stopped:
                raise OutOfWork("stopped before it started")
            return self.decision.expected_values()

    def stop(self) -> None:
        self.stopped = True
        if self.budget is not None:
            self.budget.limit = -1
        if self.future is not None:
            self.future.cancel()  # not started yet: it never runs


_UNLIMITED = 1 << 62


class Ahead:
    """One worker thread that works out the exact EVs of the decision a player faces, before they are asked for.

    Only the latest decision is kept: :meth:`start` of another one stops the older
    computation at its next memo miss. The worker holds no lock while it computes and
    shares the EV engine's memos with the caller (their entries are written whole, so
    either thread may read them). :meth:`close` ends the thread; the object is then
    inert (``start`` does nothing, ``evs`` returns None).
    """

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint-ahead")
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self._closed = False

    def start(self, decision: Decision | None) -> None:
        """Begin the exact EVs of ``decision`` (None or the decision already begun: nothing changes)."""
        if decision is None:
            return
        with self._lock:
            if self._closed or (self._job is not None and self._job.decision == decision):
                return
            if self._job is not None:
                self._job.stop()
            job = _Job(decision)
            job.future = self._pool.submit(job.run)
            self._job = job

    def evs(self, decision: Decision, wait: float | None) -> dict[Action, float] | None:
        """The exact EVs of ``decision`` if they are ready, or become ready within ``wait`` seconds.

        Args:
            decision: the decision asked about.
            wait: the most seconds to wait for a computation still running; None waits
                until it ends.

        Returns:
            ``{Action: EV}`` (a fresh dict) as :func:`~.probability.expected_values` gives
            them exactly; None when this decision was not begun, is still running after
            ``wait``, or ended in an error (the caller's own computation then raises it).
        """
        with self._lock:
            job = self._job
        if job is None or job.decision != decision or job.future is None:
            return None
        try:
            return dict(job.future.result(timeout=wait))
        except Exception:  # not ready in time, cancelled, or failed (the caller's own computation raises it again)
            return None

    def pending(self, decision: Decision) -> bool:
        """True while the exact EVs of ``decision`` are begun and not yet ended."""
        with self._lock:
            job = self._job
        return job is not None and job.decision == decision and job.future is not None and not job.future.done()

    def close(self) -> None:
        """Stop the running computation and end the worker thread (without waiting for it)."""
        with self._lock:
            self._closed = True
            if self._job is not None:
                self._job.stop()
            self._job = None
        self._pool.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> Ahead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
