"""Exact dealer outcome probabilities on a rank-count vector (internal; see :mod:`.probability`).

The dealer's play is enumerated once per ``(upcard, H17, naturals)``: every ordered
sequence of drawn cards (hole card first) that ends the dealer's hand. Sequences are
grouped by their multiset of cards ``m``; the final total depends only on ``m``, so each
group is one row ``(outcome, n = |m|, orderings, orderings-with-an-allowed-hole-card)``.

For a composition ``C`` of ``N`` unseen cards (a tuple of 10 counts, ace first), the
chance of one particular ordered sequence with multiset ``m`` is
``prod_i F(C_i, m_i) / F(N, n)`` where ``F(c, k) = c (c-1) ... (c-k+1)`` is the falling
factorial; so ``P(outcome) = sum_rows orderings * prod_i F(C_i, m_i) / F(N, n)``.
The sums are done in Python integers and are exact; the infinite deck uses
``F(c, k) = c**k`` with ``C = (1,) * 9 + (4,)`` and ``N = 13``.

Peek conditioning ("the dealer does not have a natural") keeps only the orderings whose
first card (the hole card) does not complete a natural and divides by
``P(hole card allowed) = 1 - C_X / N``.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Sequence
from operator import itemgetter, mul

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
    """The grouped dealer sequences for one upcard and rule set.

    Each row's product ``prod_i F(C_i, m_i)`` is found on a prefix tree: a node is a row's
    first few ``(rank, k)`` factors (tens first, then ace..9), so rows that share factors
    share the partial product, and one multiplication per node serves every row below it
    (about 2.5 times faster than a product per row).
    """

    __slots__ = ("steps", "row_values", "weights", "weights_peek", "slices", "max_n")

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
        # The prefix tree: node 0 is the empty product; a later node is (node, parent, slot)
        # where slot rank*_K + k indexes F(C_rank, k) in the falling-factorial table.
        node_of: dict[tuple[tuple[int, int], ...], int] = {(): 0}
        steps: list[tuple[int, int, int]] = []
        row_nodes: list[int] = []
        weights: list[int] = []
        weights_peek: list[int] = []
        slices: dict[tuple[int, int], tuple[int, int]] = {}
        for (outcome, multiset), (w_all, w_peek) in rows:
            n = sum(multiset)
            path: tuple[tuple[int, int], ...] = ()
            for rank in (9, 0, 1, 2, 3, 4, 5, 6, 7, 8):
                k = multiset[rank]
                if k:
                    longer = path + ((rank, k),)
                    if longer not in node_of:
                        node_of[longer] = len(node_of)
                        steps.append((node_of[longer], node_of[path], rank * _K + k))
                    path = longer
            start, _end = slices.get((outcome, n), (len(row_nodes), 0))
            row_nodes.append(node_of[path])
            weights.append(w_all)
            weights_peek.append(w_peek)
            slices[(outcome, n)] = (start, len(row_nodes))
        self.steps = tuple(steps)
        # pad with node 0 so the itemgetter always returns a tuple
        self.row_values: Callable[[Sequence[int]], tuple[int, ...]] = itemgetter(*row_nodes, 0, 0)
        self.weights = tuple(weights)
        self.weights_peek = tuple(weights_peek)
        self.slices = slices

    @property
    def nodes(self) -> int:
        """Nodes of the prefix tree, the empty product (node 0) included."""
        return len(self.steps) + 1

    @property
    def rows(self) -> int:
        """Groups of dealer draws (rows), each one product of falling factorials."""
        return len(self.weights)


@functools.lru_cache(maxsize=64)
def _table(upcard: int, h17: bool, naturals: bool) -> _Table:
    return _Table(upcard, h17, naturals)


def _falling(counts: Counts, infinite: bool) -> list[int]:
    table = [1] * (10 * _K)
    for rank, c in enumerate(counts):
        base = rank * _K
        value = 1
        for k in range(1, _K):
            value *= c if infinite else c - k + 1
            if value <= 0:
                value = 0
            table[base + k] = value
    return table


def dealer_numerators(counts: Counts | None, upcard: int, h17: bool, naturals: bool,
                      peek: bool) -> tuple[list[dict[int, int]], list[int], int]:
    """Return ``(numerators, denominators, peek_numerator)`` for the exact distribution.

    ``numerators[o][n]`` over ``denominators[n]`` is the chance of outcome ``o`` with ``n``
    dealer cards drawn, not yet divided by the no-natural chance; when ``peek`` it must
    still be divided by ``peek_numerator / N`` (see :func:`dealer_float`).
    """
    infinite = counts is None
    comp = INFINITE if counts is None else counts
    table = _table(upcard, h17, naturals)
    ff = _falling(comp, infinite)
    weights = table.weights_peek if peek else table.weights
    products = [1] * table.nodes
    for node, parent, slot in table.steps:
        products[node] = products[parent] * ff[slot]
    values = table.row_values(products)
    numerators: list[dict[int, int]] = [{} for _ in OUTCOMES]
    for (outcome, n), (start, end) in table.slices.items():
        numerators[outcome][n] = sum(map(mul, weights[start:end], values[start:end]))
    total = sum(comp)
    denominators = [1] * (table.max_n + 1)
    for n in range(1, table.max_n + 1):
        denominators[n] = denominators[n - 1] * (total if infinite else max(total - n + 1, 0))
    bad = forbidden_hole(upcard) if (naturals and peek) else None
    allowed = total - (comp[bad] if bad is not None else 0)
    return numerators, denominators, allowed


@functools.lru_cache(maxsize=65536)
def dealer_float(counts: Counts | None, upcard: int, h17: bool, naturals: bool,
                 peek: bool) -> tuple[float, ...]:
    """Return the seven outcome probabilities as floats (memoised on the composition).

    Each float is the correctly rounded quotient of exact integer sums, so the
    relative error is below 1e-15.
    """
    numerators, denominators, allowed = dealer_numerators(counts, upcard, h17, naturals, peek)
    total = sum(INFINITE if counts is None else counts)
    if allowed == 0:
        return (0.0,) * len(OUTCOMES)
    out = []
    for per_n in numerators:
        value = 0.0
        for n, num in per_n.items():
            if num:
                value += num / denominators[n]
        out.append(value * total / allowed)
    return tuple(out)
