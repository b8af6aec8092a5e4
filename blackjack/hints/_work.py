"""A work budget for the exact EVs, counted in units of work done, not time (internal; see :func:`.advice.hint_evs`).

The exact EVs spend their time in three places, each counted where its memo misses
(a value taken from a memo costs nothing):

* the dealer engine's level passes (``_dealer._Levels.down``: one per composition's
  distribution and one per new level sum): :data:`PASS` units plus one unit per group
  summed (a group is one big-integer multiply-add; a composition's own pass under an
  ace sums 208 groups, a new level-1 sum 379);
* a node of the player's hit/stand tree (``_player.Tree.best``): :data:`NODE` units;
* a node of a split hand's fixed-strategy play (``_split._Hands._play``):
  :data:`SPLIT_NODE` units.

The weights were fitted (non-negative least squares on relative error) to the cold CPU
time of ``expected_values`` on the 500 decisions of ``benchmarks/hints.py`` (two runs,
2026-11-23, load 1.1-1.4): one unit took 0.141 us of CPU at the median, correlation of
units and CPU ms 0.995. In the two benchmark runs that set
:data:`.advice.EXACT_WORK_BUDGET` (load 1.9-2.0 and 0.6-1.1) a unit took 0.144-0.150 us
at the median over the decisions above 20 ms, 0.133-0.176 from p10 to p90, 0.120-0.410
at the extremes; the unit counts were the same in every run, while the CPU time per unit
of one decision varied up to 2-3x with the machine's load (the tails are that, not the
weights).

The count depends only on the computation and on what the memos hold when it starts,
never on the clock: the same call with the same call history gives the same count and
the same stop on any machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["NODE", "PASS", "SPLIT_NODE", "Budget", "OutOfWork", "spend", "work_budget"]

#: Units of a level pass of the dealer engine besides its groups (the call, the falling
#: factorials, the quotients of a distribution).
PASS = 26
#: Units of one new node of the player's hit/stand tree (its next-card chances and stand EV).
NODE = 10
#: Units of one new node of a split hand's fixed-strategy play (it also compares hit and stand).
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
