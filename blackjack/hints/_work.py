"""A work budget for the exact EVs, counted in units of work done, not time (internal; see :func:`.advice.hint_evs`).

Each memo miss charges the work it does (a memoised value costs nothing): a dealer level pass
(``_dealer._Levels.down``) :data:`PASS` units plus one per group summed (an integer multiply-add), a stand EV's
weighted sum (``_stand.Stands.ev``) :data:`DOT` plus one per group, a new node of the player's hit/stand tree
(``_player.Tree.best``) :data:`NODE`, and of a split hand's fixed-strategy play (``_split._Hands._play``)
:data:`SPLIT_NODE`. The count depends only on the computation and on what the memos hold when it starts, never on
the clock, so the same call after the same calls stops at the same place on any machine. The weights were fitted
to the cold CPU time of the decisions of ``benchmarks/hints.py``; docs/hints.md ("What is exact, what is not, and
how fast") gives the fit and what a unit costs.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["DOT", "NODE", "PASS", "SPLIT_NODE", "Budget", "OutOfWork", "collector_paused", "spend", "work_budget"]

PASS = 26  #: units of a dealer level pass besides its groups
DOT = 8  #: units of a stand EV's weighted sum besides its groups
NODE = 10  #: units of a new node of the player's hit/stand tree
SPLIT_NODE = 51  #: units of a new node of a split hand's play (every count of pair cards out at once)


class OutOfWork(Exception):
    """An EV computation used more work units than the budget set by :func:`work_budget`."""


@dataclass(slots=True)
class Budget:
    """The units a :func:`work_budget` block may use and has used so far.

    Attributes:
        limit: the units allowed (int, >= 0).
        used: the units counted so far; it can end above ``limit`` by the one charge that
            crossed it.
    """

    limit: int
    used: int = 0


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

    The EV engine makes no reference cycles, so a full collection (6-19 ms inside a hint, docs/hints.md) can
    wait until after the answer. Blocks may overlap across threads; the collector is enabled again only if it
    was enabled before the first one started.
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
