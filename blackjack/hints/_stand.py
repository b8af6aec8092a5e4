"""Exact stand EVs straight from the dealer's draws, one merged sum per player total (internal).

The player's trees ask for the EV of standing on a total ``t`` far more often than for
the dealer's whole distribution, and one of these EVs needs only some of the dealer's
outcomes. With ``P`` the dealer's final-total chances (after the peek, if any), and a
dealer natural counted as a loss for every total that is not itself a natural:

* ``t <= 16``: ``2 P(bust) - 1``;
* ``t = 17``: ``2 P(bust) + P(17) - 1``;
* ``t = 18``: ``2 P(bust) + 2 P(17) + P(18) - 1``;
* ``t = 19``: ``1 - P(19) - 2 P(20) - 2 P(21) - 2 P(natural)``;
* ``t = 20``: ``1 - P(20) - 2 P(21) - 2 P(natural)``;
* ``t = 21``: ``1 - P(21) - 2 P(natural)``.

Each uses the chances adding up to 1, which holds whenever the dealer cannot run out of
cards: the shoe holds at least as many cards as the longest dealer hand. Smaller shoes
are left to the caller (``stand_ev`` returns None), which then adds up the whole
distribution and checks it.

Each formula is one weighted sum over the dealer's draws: the rows of
:class:`._dealer._Table` of the outcomes it names, each weight times the formula's
coefficient, grouped by level as the dealer engine groups them (:class:`._dealer._Levels`).
Rows of different outcomes but the same counts of the lower ranks then fall into one
group, so a pass sums fewer groups: a composition's own pass under an ace 20-32 against
the whole distribution's 208. The levels take the ranks in an order the caller chooses
(:func:`._dealer.rank_order`): ``lead`` first. A pair's split hands are played on shoes
that differ from one another only in the pair's rank; with that rank first they share
every level sum but the lowest.

The integers are exact and every term is positive, so a result differs from the one
computed from the whole distribution (:func:`._player.stand_value`) only by rounding
(below 1e-15).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence
from operator import truediv

from ._dealer import BUST, NATURAL, _denominators, _gather, _Levels, _table, forbidden_hole, rank_order

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

#: Level sums kept in all, over every formula, rank order and rule set: past this the
#: memos start afresh (the values stay right; only later calls redo the work). The
#: hardest benchmark decision (2-2 v 2, 8 decks) keeps about 2,800.
LEVEL_LIMIT = 8192
#: Stand EVs kept in all, the same way (2-2 v A from 6 decks keeps about 7,000).
VALUE_LIMIT = 65536


class _Kept:
    """How many level sums and stand EVs the memos hold, over every formula."""

    sums = 0
    values = 0

class _Formula:
    """One stand formula's weighted dealer rows for an upcard, rule set and rank order, by level.

    Attributes:
        const: the formula's constant.
        max_n: the most cards a dealer hand draws, hole card included.
        slice_n: the number of dealer cards of each level-0 group.
        values: the stand EVs computed so far, by composition.
    """

    __slots__ = ("levels", "weights", "const", "max_n", "slice_n", "order", "memo", "values")

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
        self.slice_n = tuple(head[0] for head in self.levels.heads)
        self.order = _gather(list(order))
        self.memo: list[dict[Counts, list[int]]] = [{} for _ in range(10)]
        self.values: dict[Counts, float] = {}

    def sums(self, ordered: Counts) -> list[int]:
        """The weighted sums per level-0 group (``n`` dealer cards) for a composition in the levels' order.

        Level ``L``'s sums depend on the counts at levels ``L..9`` only and are memoised on
        them; a composition walks up to the first level it shares with one seen before
        and comes back down.

        Raises:
            OutOfWork: inside :func:`._work.work_budget`, once its units are used up.
        """
        memo = self.memo
        down = self.levels.down
        pending: list[tuple[int, Counts]] = []
        level = 1
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
            if _Kept.sums >= LEVEL_LIMIT:
                _forget_sums()
            memo[level][suffix] = sums
            _Kept.sums += 1
        return down(sums, 0, ordered[0])


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
        denominators = _denominator_row(cards)
        quotients = map(truediv, formula.sums(formula.order(counts)), map(denominators.__getitem__, formula.slice_n))
        added: float = sum(quotients)
        value = formula.const + added * cards / allowed
        if _Kept.values >= VALUE_LIMIT:
            _forget_values()
        values[counts] = value
        _Kept.values += 1
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


def stand_ev(total: int, counts: Counts, upcard: int, h17: bool, naturals: bool, peek: bool,
             lead: int = 0) -> float | None:
    """EV of standing on ``total`` (2..21, not a natural), exact: :meth:`Stands.ev` of :func:`stands_for`.

    Args:
        total: the player's best total, 21 or less.
        counts: the unseen cards (10 counts, ace first).
        upcard: the dealer's upcard, 1..10.
        h17: the dealer hits soft 17.
        naturals: two-card 21s are naturals.
        peek: the dealer has checked and has no natural (conditioned on exactly).
        lead: the rank index (0 = ace) the level sums take first (module docstring).

    Returns:
        The EV per unit bet, or None (see :meth:`Stands.ev`).

    Raises:
        OutOfWork: inside :func:`._work.work_budget`, once its units are used up.
    """
    return stands_for(upcard, h17, naturals, peek, lead).ev(total, counts)


def _formulas() -> list[_Formula]:
    return [formula for stands in list(_STANDS.values()) for formula in stands.formulas]


def _forget_sums() -> None:
    for formula in _formulas():
        for memo in formula.memo:
            memo.clear()
    _Kept.sums = 0


def _forget_values() -> None:
    for formula in _formulas():
        formula.values.clear()
    _Kept.values = 0


def clear_caches() -> None:
    """Forget every memoised level sum and stand EV (the formulas themselves stay: they do not depend on any shoe)."""
    _forget_sums()
    _forget_values()
    _denominator_row.cache_clear()
