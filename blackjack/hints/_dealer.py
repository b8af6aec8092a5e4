"""Exact dealer outcome probabilities on a rank-count vector (internal; see :mod:`.probability`).

The dealer's play is enumerated once per ``(upcard, H17, naturals)``: every ordered sequence of drawn cards (hole
card first) that ends the dealer's hand, grouped by its multiset ``m`` into one row ``(outcome, n = |m|,
orderings, orderings whose hole card the peek allows)``. From a composition ``C`` of ``N`` cards (10 counts, ace
first) ``P(outcome) = sum_rows orderings x prod_i F(C_i, m_i) / F(N, n)`` with ``F`` the falling factorial
(``c**k`` for the infinite deck, ``C = (1,) * 9 + (4,)``, ``N = 13``), summed in integers; the peek divides by
the chance of an allowed hole card. :class:`_Levels` shares the sums between compositions (docs/hints.md,
"Level 2: method and conditioning").
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import add, getitem, itemgetter, mul, sub, truediv

from ._work import PASS, spend

#: Outcome order used everywhere inside the hints package.
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
NATURAL = 6
#: The infinite deck as a "composition": 1/13 for ace..9, 4/13 for ten-valued cards.
INFINITE = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)

Counts = tuple[int, ...]
_K = 13  # slots per rank in the falling-factorial table (a rank appears at most 12 times)


def forbidden_hole(upcard: int) -> int | None:
    """Return the rank index (0 = ace, 9 = ten) whose hole card would make a natural, or None."""
    if upcard == 1:
        return 9
    if upcard == 10:
        return 0
    return None


class _Table:
    """The grouped dealer sequences for one upcard and rule set, rows sorted by ``(outcome, n)``."""

    __slots__ = ("weights", "weights_peek", "slices", "max_n", "multisets", "slice_n", "outcome_cuts")

    def __init__(self, upcard: int, h17: bool, naturals: bool) -> None:
        groups: dict[tuple[int, tuple[int, ...]], list[int]] = defaultdict(lambda: [0, 0])
        bad = forbidden_hole(upcard) if naturals else None
        drawn = [0] * 10

        def walk(hard: int, ace: bool, n: int, first: int) -> None:
            soft = ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            outcome: int | None = None
            if total > 21:
                outcome = BUST
            elif n == 1 and total == 21 and naturals:
                outcome = NATURAL
            elif total >= 17 and not (h17 and soft and total == 17):
                outcome = total - 17
            if outcome is not None:
                row = groups[(outcome, tuple(drawn))]
                row[0] += 1
                if first != bad:
                    row[1] += 1
                return
            for value in range(1, 11):
                drawn[value - 1] += 1
                walk(hard + value, ace or value == 1, n + 1, value - 1 if n == 0 else first)
                drawn[value - 1] -= 1

        walk(upcard, upcard == 1, 0, -1)
        rows = sorted(groups.items(), key=lambda item: (item[0][0], sum(item[0][1])))
        self.max_n = max(sum(m) for (_, m), _w in rows)
        self.weights = tuple(w_all for _key, (w_all, _w_peek) in rows)
        self.weights_peek = tuple(w_peek for _key, (_w_all, w_peek) in rows)
        self.multisets = tuple(multiset for (_outcome, multiset), _w in rows)
        slices: dict[tuple[int, int], tuple[int, int]] = {}
        for index, ((outcome, multiset), _w) in enumerate(rows):
            n = sum(multiset)
            start, _end = slices.get((outcome, n), (index, 0))
            slices[(outcome, n)] = (start, index + 1)
        self.slices = slices
        # the slices in row order (ascending outcome, then n): n of each, and where each outcome's begin
        self.slice_n = tuple(n for _outcome, n in slices)
        outcomes = [outcome for outcome, _n in slices]
        self.outcome_cuts = tuple(bisect_left(outcomes, outcome) for outcome in range(len(OUTCOMES) + 1))

    @property
    def rows(self) -> int:
        """Groups of dealer draws (rows), each one product of falling factorials."""
        return len(self.weights)


_table = functools.lru_cache(maxsize=64)(_Table)


def dealer_numerators(counts: Counts | None, upcard: int, h17: bool, naturals: bool,
                      peek: bool) -> tuple[list[dict[int, int]], list[int], int]:
    """Return ``(numerators, denominators, peek_numerator)`` for the exact distribution, one product per row.

    ``numerators[o][n]`` over ``denominators[n]`` is the chance of outcome ``o`` with ``n``
    dealer cards drawn, not yet divided by the no-natural chance; when ``peek`` it must
    still be divided by ``peek_numerator / N`` (see :func:`dealer_float`).
    """
    infinite = counts is None
    comp = INFINITE if counts is None else counts
    table = _table(upcard, h17, naturals)
    weights = table.weights_peek if peek else table.weights
    factors = [tuple(c ** k for k in range(_K)) if infinite else _falling_row(c) for c in comp]
    numerators: list[dict[int, int]] = [{} for _ in OUTCOMES]
    for (outcome, n), (start, end) in table.slices.items():
        numerators[outcome][n] = sum(weights[row] * math.prod(map(getitem, factors, table.multisets[row]))
                                     for row in range(start, end))
    return numerators, _denominators(sum(comp), table.max_n, infinite), _allowed(comp, upcard, naturals and peek)


def _allowed(comp: Counts, upcard: int, peek: bool) -> int:
    """The cards of ``comp`` that may be the hole card: all but the natural-makers when the dealer has peeked."""
    bad = forbidden_hole(upcard) if peek else None
    return sum(comp) - (comp[bad] if bad is not None else 0)


def _denominators(total: int, max_n: int, infinite: bool) -> list[int]:
    """``F(N, n)`` for ``n = 0..max_n`` (``N**n`` for the infinite deck)."""
    denominators = [1] * (max_n + 1)
    for n in range(1, max_n + 1):
        denominators[n] = denominators[n - 1] * (total if infinite else max(total - n + 1, 0))
    return denominators


@functools.lru_cache(maxsize=4096)
def _slice_denominators(total: int, upcard: int, h17: bool, naturals: bool, infinite: bool) -> tuple[int, ...]:
    """``F(N, n)`` for each slice of the table, in slice order; 1 for a zero one (``n > N``:
    its numerator is 0 as well, since the rows need more cards than there are)."""
    table = _table(upcard, h17, naturals)
    denominators = _denominators(total, table.max_n, infinite)
    return tuple(denominators[n] or 1 for n in table.slice_n)


def _floats(numerators: list[int], table: _Table, denominators: tuple[int, ...], total: int,
            allowed: int) -> tuple[float, ...]:
    """The seven probabilities from the numerators per slice (slice order).

    Per outcome the correctly rounded quotients ``numerator / F(N, n)`` are added in
    order of ``n``, then multiplied by ``N`` and divided by the allowed hole cards.
    """
    if allowed == 0:
        return (0.0,) * len(OUTCOMES)
    quotients = list(map(truediv, numerators, denominators))
    cuts = table.outcome_cuts
    return tuple(functools.reduce(add, quotients[cuts[o]:cuts[o + 1]], 0.0) * total / allowed
                 for o in range(len(OUTCOMES)))


@functools.lru_cache(maxsize=65536)
def dealer_float(counts: Counts | None, upcard: int, h17: bool, naturals: bool,
                 peek: bool) -> tuple[float, ...]:
    """Return the seven outcome probabilities as floats (memoised on the composition).

    Each float is the correctly rounded quotient of exact integer sums, so the
    relative error is below 1e-15. A finite composition's integers come from the level
    sums (:func:`_level_sums`, shared by compositions that differ only in their small
    cards), the same integers as :func:`dealer_numerators`.

    Raises:
        OutOfWork: inside :func:`._work.work_budget`, once its units are used up (a miss
            charges its level passes; nothing is memoised then).
    """
    table = _table(upcard, h17, naturals)
    if counts is None:
        spend(PASS + table.rows)  # the infinite deck's one pass over the rows (see _work)
        per_outcome = dealer_numerators(counts, upcard, h17, naturals, peek)[0]
        numerators = [per_outcome[outcome][n] for outcome, n in table.slices]
    else:
        level_1 = _level_sums(1, counts[1:], upcard, h17, naturals, peek)  # every factor but the aces'
        numerators = _levels(upcard, h17, naturals).down(level_1, 0, counts[0])  # level 0: the slices' numerators
    comp = INFINITE if counts is None else counts
    total = sum(comp)
    return _floats(numerators, table, _slice_denominators(total, upcard, h17, naturals, counts is None),
                   total, _allowed(comp, upcard, naturals and peek))


class _Levels:
    """Rows of dealer draws grouped level by level, for :func:`_level_sums` (and ``_stand``).

    Args:
        keys: one key per row, ``head`` leading fields (say ``(outcome, n)``) and then the
            row's counts of the ten ranks in the order the levels take them.
        weights: the rows' integer weights without the peek, in ``keys``' order.
        weights_peek: the same with the peek (orderings whose hole card is allowed).
        head: how many leading fields of a key are not rank counts.

    Level ``L`` (0..10) groups the rows by the head and the counts of the first ``L``
    ranks of the order. Level 10 is the rows themselves and level 0 the heads. Sorted,
    the groups of level ``L + 1`` that refine one group of level ``L`` are consecutive, so
    a level's sums are segment sums of the next level's. ``firsts`` lists level 1's groups
    (their keys' first ``head + 1`` fields).
    """

    __slots__ = ("weights", "weights_peek", "factor_k", "starts", "ends", "firsts")

    def __init__(self, keys: Sequence[tuple[int, ...]], weights: Sequence[int], weights_peek: Sequence[int],
                 head: int) -> None:
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self.weights = tuple(weights[row] for row in order)
        self.weights_peek = tuple(weights_peek[row] for row in order)
        finer = [keys[row] for row in order]  # level 10
        factor_k: list[_Gather] = [_gather([0])] * 10
        starts: list[_Gather] = [_gather([0])] * 10
        ends: list[_Gather] = [_gather([0])] * 10
        firsts: list[tuple[int, ...]] = []
        for level in range(9, -1, -1):
            if level == 0:
                firsts = finer
            coarse: list[tuple[int, ...]] = []
            begin: list[int] = []
            for index, key in enumerate(finer):
                if not coarse or coarse[-1] != key[:head + level]:
                    coarse.append(key[:head + level])
                    begin.append(index)
            factor_k[level] = _gather([key[head + level] for key in finer])
            starts[level] = _gather(begin)
            ends[level] = _gather(begin[1:] + [len(finer)])
            finer = coarse
        self.firsts = tuple(firsts)
        self.factor_k = tuple(factor_k)
        self.starts = tuple(starts)
        self.ends = tuple(ends)

    def down(self, sums: Sequence[int], level: int, count: int) -> list[int]:
        """Level ``level``'s sums from level ``level + 1``'s, for ``count`` cards of rank ``level`` in the shoe.

        Charges :data:`._work.PASS` plus one unit per group of ``sums`` to the work budget
        (:func:`._work.spend`; only memo misses call this).

        Raises:
            OutOfWork: inside :func:`._work.work_budget`, once the units are used up.
        """
        spend(PASS + len(sums))
        running = list(accumulate(map(mul, sums, self.factor_k[level](_falling_row(count))), initial=0))
        return list(map(sub, self.ends[level](running), self.starts[level](running)))


@functools.lru_cache(maxsize=1024)
def _falling_row(count: int) -> tuple[int, ...]:
    """``F(count, k)`` for ``k = 0.._K-1`` (0 once ``k`` exceeds ``count``)."""
    falling = [1] * _K
    for k in range(1, _K):
        falling[k] = max(falling[k - 1] * (count - k + 1), 0)
    return tuple(falling)


def _gather(indices: list[int]) -> _Gather:
    """``itemgetter(*indices)``, returning a tuple for every length."""
    if len(indices) == 1:
        index = indices[0]
        return lambda seq: (seq[index],)
    return itemgetter(*indices)


_Gather = Callable[[Sequence[int]], tuple[int, ...]]


def rank_order(lead: int) -> tuple[int, ...]:
    """The order the levels take the ranks in: ``lead`` (a rank index, 0 = ace) first, then the others from the ace up."""
    return (lead,) + tuple(rank for rank in range(10) if rank != lead)


@functools.lru_cache(maxsize=128)
def _levels(upcard: int, h17: bool, naturals: bool) -> _Levels:
    """The table's rows by level, keyed ``(outcome, n, m_0, ..., m_9)``: level 0 is the table's slices."""
    table = _table(upcard, h17, naturals)
    keys = [(outcome, n) + table.multisets[row]
            for (outcome, n), (start, end) in table.slices.items() for row in range(start, end)]
    return _Levels(keys, table.weights, table.weights_peek, head=2)


#: Level sums :func:`_level_sums` keeps (for whole distributions: 3-3 v A from 8 decks, all of it from them,
#: asked for 1,010 different level-1 sums of 208 integers, 370 level-2 ones and fewer than 100 above).
LEVEL_CACHE = 2048


@functools.lru_cache(maxsize=LEVEL_CACHE)
def _level_sums(level: int, suffix: Counts, upcard: int, h17: bool, naturals: bool, peek: bool) -> list[int]:
    """Level ``level``'s sums (:class:`_Levels`) for the counts ``suffix`` of ranks ``level..9``.

    Each group's sum is ``sum over its rows of weight x prod_{i >= level} F(C_i, m_i)``;
    the factors of the ranks below ``level`` are left out, so compositions that differ
    only in those ranks share these sums (memoised).
    """
    levels = _levels(upcard, h17, naturals)
    finer: Sequence[int]
    if level == 9:
        finer = levels.weights_peek if peek else levels.weights
    else:
        finer = _level_sums(level + 1, suffix[1:], upcard, h17, naturals, peek)
    return levels.down(finer, level, suffix[0])


def clear_caches() -> None:
    """Forget every memoised dealer distribution and grouped sum: the next call is cold."""
    dealer_float.cache_clear()
    _level_sums.cache_clear()
