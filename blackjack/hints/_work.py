"""A work budget for the exact EVs, counted in units of work done, not time (internal; see :func:`.advice.hint_evs`).

The exact EVs spend their time in three places, each counted where its memo misses
(a value taken from a memo costs nothing):

* the dealer engine's level passes (``_dealer._Levels.down``: one per distribution of a
  new composition, one per new level sum): :data:`PASS` units plus one unit per group
  summed (a group is one integer multiply-add; a distribution's lowest pass under an ace
  sums 208 groups);
* a stand EV of a new composition (``_stand.Stands.ev``: one weighted sum of level 1's
  groups, 20-100 of them): :data:`DOT` units plus one per group;
* a node of the player's hit/stand tree (``_player.Tree.best``): :data:`NODE` units;
* a node of a split hand's fixed-strategy play (``_split._Hands._play``, every count of
  extra pair cards at once): :data:`SPLIT_NODE` units.

The weights were fitted (non-negative least squares on relative error) to the cold CPU
time of ``expected_values`` on the 500 decisions of ``benchmarks/hints.py`` (the faster
of two runs each, 2026-11-23, load 0.6-0.8): a group took 0.184 us, a pass 4.83 us
besides its groups (26 units), a split node 9.34 us (51 units); a tree node came out at
0, its cost carried by the pass each new composition makes, and is charged 10 units so
that a tree walked over memoised distributions still counts. Correlation of fitted and
measured CPU ms 0.996. In a benchmark run a unit then took 0.18-0.20 us at the median
over the decisions above 20 ms; the CPU time per unit of one decision varies up to 2-3x
with the machine's load (the tails are that, not the weights).

The count depends only on the computation and on what the memos hold when it starts,
never on the clock: the same call with the same call history gives the same count and
the same stop on any machine. (The stand EV's weighted sum replaced a level pass and
its quotients after the fit. It is charged on the safe side, 8 units plus 1 per group: a
refit on runs whose machine speed drifted put a product at about 0.3 of a pass's group
and found no fixed cost. In those runs a unit took 0.195-0.349 us at the median as the
machine's speed varied; docs/hints.md.)
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["DOT", "NODE", "PASS", "SPLIT_NODE", "Budget", "OutOfWork", "collector_paused", "spend", "work_budget"]

#: Units of a level pass of the dealer engine besides its groups (the call, the memo
#: look-ups, the quotients of a stand EV or distribution).
PASS = 26
#: Units of a stand EV's weighted sum over level 1's groups besides one unit per group.
DOT = 8
#: Units of one new node of the player's hit/stand tree (its next-card chances; see the module docstring).
NODE = 10
#: Units of one new node of a split hand's fixed-strategy play (every count of pair cards out at once).
SPLIT_NODE = 51


class OutOfWork(Exception):
    """An EV computation used more work units than the budget set by :func:`work_budget`."""


class Budget:
    """The units a :func:`work_budget` block may use and has used so far.

    Attributes:
        limit: the units allowed (int, >= 0).
        used: the units counted so far; it can end above ``limit`` by the one charge that
            crossed it.
    """

    __slots__ = ("limit", "used")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0


_BUDGET: ContextVar[Budget | None] = ContextVar("ev_work_budget", default=None)


@contextmanager
def work_budget(units: int) -> Iterator[Budget]:
    """Within the block, :func:`spend` raises :class:`OutOfWork` once more than ``units`` units are used.

    The charges come before the work they pay for, so a stopped computation leaves only
    finished values in the memos. The budget belongs to the current thread (a context
    variable); an inner block replaces the outer one while it runs.

    Yields:
        The :class:`Budget`, whose ``used`` says how much work the block did.
    """
    budget = Budget(units)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


def spend(units: int) -> None:
    """Count ``units`` of work against the current budget (nothing outside :func:`work_budget`).

    Raises:
        OutOfWork: the budget's ``used`` passes its ``limit``.
    """
    budget = _BUDGET.get()
    if budget is not None:
        budget.used += units
        if budget.used > budget.limit:
            raise OutOfWork(f"the EVs used more than {budget.limit} work units")


class _Pause:
    """Who has paused the cyclic garbage collector, and whether it ran before the first of them."""

    lock = threading.Lock()
    holders = 0
    was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block; it runs again after the last such block ends.

    The EV engine makes no reference cycles, so nothing waits on the collector, while a
    full collection landing inside a hint costs it 6-19 ms here (the engine's memos and
    tables are many objects to walk): paused, the collection comes after the answer.
    Blocks may overlap across threads; the collector is enabled again only if it was
    enabled before the first one started. Memory is unchanged: objects without cycles
    are freed as before, by reference counting.
    """
    with _Pause.lock:
        if _Pause.holders == 0:
            _Pause.was_enabled = gc.isenabled()
            gc.disable()
        _Pause.holders += 1
    try:
        yield
    finally:
        with _Pause.lock:
            _Pause.holders -= 1
            if _Pause.holders == 0 and _Pause.was_enabled:
                gc.enable()
