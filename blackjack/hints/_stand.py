"""Exact stand EVs straight from the dealer's draws, one merged weighted sum per player total (internal).

With ``P`` the dealer's final-total chances (after the peek, if any) and a dealer natural a loss, standing on
``t <= 16`` is worth ``2 P(bust) - 1``, on 17 ``2 P(bust) + P(17) - 1`` and so on (:data:`_FORMULAS`). Each
formula uses the chances adding up to 1, which holds when the shoe holds at least as many cards as the longest
dealer hand; for a smaller shoe :meth:`Stands.ev` returns None and the caller adds up the whole distribution.
Each formula is one weighted sum over the rows of :class:`._dealer._Table`, grouped by level as
:class:`._dealer._Levels` groups them, the ranks in the order of :func:`._dealer.rank_order` (``lead`` first: a
pair's split hands, on shoes that differ only in the pair's rank, then share every level sum but the lowest).
Level 1's sums and weights are rounded once to floats and the products added with :func:`math.fsum`; every term
of a formula has one sign, so the EV differs from :func:`._player.stand_value` of the whole distribution only by
rounding (``tests/hints/test_hints_stand.py`` holds it to 1e-14). docs/hints.md ("Level 2") gives the measurements.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence
from math import fsum
from operator import mul, truediv
from typing import Any

from ._dealer import (BUST, NATURAL, _denominators, _falling_row, _gather, _Levels, _table, forbidden_hole,
                      rank_order)
from ._work import DOT, spend

Counts = tuple[int, ...]

#: Per player total (16 stands for every total up to 16): the constant and the
#: coefficient of each outcome's chance in the stand EV (module docstring).
_FORMULAS: dict[int, tuple[int, dict[int, int]]] = {
    16: (-1, {BUST: 2}),
    17: (-1, {BUST: 2, 0: 1}),
    18: (-1, {BUST: 2, 0: 2, 1: 1}),
    19: (1, {2: -1, 3: -2, 4: -2, NATURAL: -2}),
    20: (1, {3: -1, 4: -2, NATURAL: -2}),
    21: (1, {4: -1, NATURAL: -2}),
}

#: Entries the memos keep in all, over every formula, rank order and rule set: past a limit, that memo starts
#: afresh in every formula (the values stay right; only later calls redo the work). The hardest benchmark
#: decision (2-2 v 2, 8 decks) keeps about 2,800 level sums; 2-2 v A from 6 decks about 7,000 stand EVs; a
#: decision about 100 level-1 weight rows per formula (``_Formula.dot``).
LEVEL_LIMIT = 8192
DOT_LIMIT = 8192
VALUE_LIMIT = 65536
_LIMITS = {"sums": LEVEL_LIMIT, "dots": DOT_LIMIT, "values": VALUE_LIMIT}
_kept = dict.fromkeys(_LIMITS, 0)


class _Formula:
    """One stand formula's weighted dealer rows for an upcard, rule set and rank order, by level.

    A composition's stand EV is ``const + N / allowed x sum_g S_g w_g`` over the groups
    ``g`` of level 1 (``n`` dealer cards, ``m`` of them of the lead rank): ``S_g`` the
    group's level sum (:class:`._dealer._Levels`, every factor but the lead rank's) and
    ``w_g = F(C_lead, m) / F(N, n)``. The weights depend only on the lead rank's count and
    the shoe's size, so the compositions of one decision share a few hundred of them.

    Attributes:
        const: the formula's constant.
        max_n: the most cards a dealer hand draws, hole card included.
        first_n: the number of dealer cards of each level-1 group.
        first_m: the cards of the lead rank in each level-1 group.
        values: the stand EVs computed so far, by composition.
    """

    __slots__ = ("levels", "weights", "const", "max_n", "first_n", "first_m", "order", "memo", "first_memo", "dots",
                 "values")

    def __init__(self, upcard: int, h17: bool, naturals: bool, peek: bool, total: int, lead: int) -> None:
        table = _table(upcard, h17, naturals)
        const, coefficients = _FORMULAS[total]
        order = rank_order(lead)
        source = table.weights_peek if peek else table.weights
        keys: list[tuple[int, ...]] = []
        weights: list[int] = []
        for (outcome, n), (start, end) in table.slices.items():
            coefficient = coefficients.get(outcome, 0)
            for row in range(start, end):
                weight = source[row] * coefficient
                if weight:
                    multiset = table.multisets[row]
                    keys.append((n,) + tuple(multiset[rank] for rank in order))
                    weights.append(weight)
        if not keys:  # nothing to add up (say only naturals, which the peek rules out)
            keys, weights = [(0,) + (0,) * 10], [0]
        self.levels = _Levels(keys, weights, weights, head=1)
        self.weights = self.levels.weights
        self.const = const
        self.max_n = table.max_n
        self.first_n = tuple(key[0] for key in self.levels.firsts)
        self.first_m = tuple(key[1] for key in self.levels.firsts)
        self.order = _gather(list(order))
        self.memo: list[dict[Counts, list[int]]] = [{} for _ in range(10)]  # levels 2..9
        self.first_memo: dict[Counts, tuple[float, ...]] = {}
        self.dots: dict[tuple[int, int], tuple[float, ...]] = {}
        self.values: dict[Counts, float] = {}

    def firsts(self, ordered: Counts) -> tuple[float, ...]:
        """Level 1's sums, as floats, for a composition in the levels' order.

        Level ``L``'s sums depend on the counts at levels ``L..9`` only and are memoised on them: a composition
        walks up to the first level it shares with one seen before and comes back down.

        Raises:
            OutOfWork: inside :func:`._work.work_budget`, once its units are used up.
        """
        got = self.first_memo.get(ordered[1:])
        if got is not None:
            return got
        memo = self.memo
        down = self.levels.down
        pending: list[tuple[int, Counts]] = []
        level = 2
        sums: Sequence[int] | None = None
        while level <= 9:
            suffix = ordered[level:]
            sums = memo[level].get(suffix)
            if sums is not None:
                break
            pending.append((level, suffix))
            level += 1
        if sums is None:
            sums = self.weights
        while pending:
            level, suffix = pending.pop()
            sums = down(sums, level, suffix[0])
            _keep("sums")
            memo[level][suffix] = sums
        first = tuple(map(float, down(sums, 1, ordered[1])))
        _keep("sums")
        self.first_memo[ordered[1:]] = first
        return first

    def dot(self, lead: int, cards: int) -> tuple[float, ...]:
        """The weights ``F(lead, m) / F(cards, n)`` of the level-1 groups (memoised; class docstring)."""
        got = self.dots.get((lead, cards))
        if got is None:
            falling = _falling_row(lead)
            denominators = _denominator_row(cards)
            got = tuple(map(truediv, map(falling.__getitem__, self.first_m), map(denominators.__getitem__, self.first_n)))
            _keep("dots")
            self.dots[(lead, cards)] = got
        return got

    def memos(self, kind: str) -> list[dict[Any, Any]]:
        """This formula's memos of one kind of :data:`_LIMITS`."""
        if kind == "sums":
            return [*self.memo, self.first_memo]
        return [self.dots if kind == "dots" else self.values]


def _keep(kind: str) -> None:
    """Count one more entry kept in a memo of ``kind``; past its limit that memo of every formula starts afresh."""
    if _kept[kind] >= _LIMITS[kind]:
        _forget(kind)
    _kept[kind] += 1


@functools.lru_cache(maxsize=1024)
def _denominator_row(cards: int) -> tuple[int, ...]:
    """``F(cards, n)`` for ``n = 0..min(cards, 40)`` (:func:`._dealer._denominators`; a dealer hand draws fewer)."""
    return tuple(_denominators(cards, min(cards, 40), False))


class Stands:
    """The exact stand EVs for one upcard, rule set and rank order (memoised per composition).

    Args:
        upcard: the dealer's upcard, 1..10.
        h17: the dealer hits soft 17.
        naturals: two-card 21s are naturals.
        peek: the dealer has checked and has no natural (conditioned on exactly).
        lead: the rank index (0 = ace) the level sums take first (module docstring).
    """

    __slots__ = ("by_total", "formulas", "bad")

    def __init__(self, upcard: int, h17: bool, naturals: bool, peek: bool, lead: int) -> None:
        formulas = {total: _Formula(upcard, h17, naturals, peek, total, lead) for total in _FORMULAS}
        self.by_total = tuple(formulas[min(max(total, 16), 21)] for total in range(22))
        self.formulas = tuple(formulas.values())
        self.bad = forbidden_hole(upcard) if (naturals and peek) else None

    def ev(self, total: int, counts: Counts) -> float | None:
        """EV of standing on ``total`` (2..21, not a natural) with ``counts`` unseen, per unit bet, exact.

        Returns:
            The EV, or None when the dealer could run out of cards (fewer unseen cards
            than the longest dealer hand) or no hole card is allowed: the caller then
            works from the whole distribution.

        Raises:
            OutOfWork: inside :func:`._work.work_budget`, once its units are used up.
        """
        formula = self.by_total[total]
        values = formula.values
        value = values.get(counts)
        if value is not None:
            return value
        cards = sum(counts)
        if cards < formula.max_n:
            return None
        bad = self.bad
        allowed = cards - (counts[bad] if bad is not None else 0)
        if allowed <= 0:
            return None
        ordered = formula.order(counts)
        spend(DOT + len(formula.first_n))
        added = fsum(map(mul, formula.firsts(ordered), formula.dot(ordered[0], cards)))
        value = formula.const + added * cards / allowed
        _keep("values")
        values[counts] = value
        return value


#: :class:`Stands` kept, the most recently used: a rule set's every upcard and rank order
#: (100; their formulas take about 42 MB, tracemalloc). Each is built in 10-15 ms.
STANDS_KEPT = 100

_STANDS: OrderedDict[tuple[int, bool, bool, bool, int], Stands] = OrderedDict()


def stands_for(upcard: int, h17: bool, naturals: bool, peek: bool, lead: int = 0) -> Stands:
    """The :class:`Stands` for an upcard, rule set and rank order (made once, kept while recently used)."""
    key = (upcard, h17, naturals, peek, lead)
    stands = _STANDS.get(key)
    if stands is None:
        stands = _STANDS[key] = Stands(upcard, h17, naturals, peek, lead)
        if len(_STANDS) > STANDS_KEPT:
            _STANDS.popitem(last=False)
    else:
        _STANDS.move_to_end(key)
    return stands


def _forget(kind: str) -> None:
    for stands in list(_STANDS.values()):
        for formula in stands.formulas:
            for memo in formula.memos(kind):
                memo.clear()
    _kept[kind] = 0


def clear_caches() -> None:
    """Forget every memoised level sum and stand EV (the formulas themselves stay: they do not depend on any shoe)."""
    for kind in _LIMITS:
        _forget(kind)
    _denominator_row.cache_clear()
