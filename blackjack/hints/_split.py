"""Exact pair splitting with resplits (internal; see :func:`.probability.expected_values`).

Post-split strategy. Every split hand is played by one fixed strategy that looks only at
its own cards, so the hands can be added up exactly:

* ``"CDP1"`` (the default): the strategy that is optimal for the *first* split hand,
  chosen on the shoe with both pair cards out (and the hand's own cards), then used for
  every split hand, however many pair cards the resplits remove later;
* ``"CDZ-"``: the pre-split strategy: a split hand is played as the same cards would be
  played in an unsplit hand (the shoe with only one pair card out).

These are the post-split strategies of Eric Farmer's combinatorial analyzer
(github.com/possibly-wrong/blackjack, ``readme.txt``), and the method is his analyzer's
(``computeSplit``), written afresh and extended to any ``max_split_hands`` and to the peek;
``tests/hints/test_hints_ca_oracle.py`` holds both to its split EVs (docs/hints.md).

Method. Let ``C`` be the unseen cards with both pair cards out, ``P`` the pair cards
among them, and ``M`` the most hands this split can make. ``X(a, b)`` is the EV of one
split hand (its pair card, a second card, then the strategy) when ``a`` further pair cards
and ``b`` non-pair cards are known to have gone to other hands; ``N(a, b)`` the same for a
hand whose own second card is not a pair card. The other hands' later cards need not be
known: by exchangeability, cards of unknown value taken from the shoe change no
expectation. ``X(a, 0)`` is computed directly (the shoe less ``a`` pair cards; one walk of
the hand's play serves every ``a``, see :class:`_Hands`); one more
non-pair card known to be gone is removed by the law of total probability,
``X(a, b-1) = v X(a+1, b-1) + (1 - v) X(a, b)`` with ``v`` the chance that a card of
unknown value is a pair card. The split's EV adds, over every way the resplitting can
end (``h < M`` hands each with a non-pair second card, or ``M`` hands reached after ``k``
hands were completed), the number of such card orders times their chance times the
hands' EVs. The peek (the hole card is known not to complete a natural) tilts every
chance by ``q(C - s) / q(C)``, ``q`` the chance that the hole card is not the
natural-maker; ``q`` is linear in the cards seen, so the tilt of an event that fixes
only how many pair and non-pair cards were seen is exact with their expected makeup.

Rank pairs (``split_by="rank"``): for 2..9 and aces a rank is a value, so nothing
changes. A ten-valued pair (K-K) resplits only on its own rank; the counts see values,
so the number ``j`` of unseen tens of that rank is unknown and the EV is averaged over
its distribution: each of the other ``16 d - 2`` tens of ``d`` decks is equally likely to
be unseen (hypergeometric; binomial with 1/4 when the decks are unknown). The hands'
EVs do not depend on ``j``; only the chances do.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from operator import add, mul

from ._dealer import forbidden_hole
from ._player import (NEG_INF, Counts, Game, Tree, approximate_split_value, can_double, chance_terms, draws,
                      total_of, tree_for)
from ._work import SPLIT_NODE, spend

__all__ = ["STRATEGIES", "split_ev", "split_value"]

#: The post-split strategies :func:`split_ev` computes (see the module docstring).
STRATEGIES = ("CDP1", "CDZ-")


def _falling(x: float, k: int) -> float:
    out = 1.0
    for i in range(k):
        out *= max(x - i, 0.0)
    return out


@lru_cache(maxsize=None)
def _ways(a: int, b: int) -> int:
    """Orders of ``a`` pair and ``b`` non-pair second cards that leave a hand waiting after every card.

    Two hands wait for a second card at the start; a pair card adds a waiting hand and a
    non-pair card completes one.
    """
    if 2 + a - b <= 0:
        return 0
    if a == 0 and b == 0:
        return 1
    return (_ways(a - 1, b) if a else 0) + (_ways(a, b - 1) if b else 0)


def _orders_ending(h: int) -> int:
    """Orders of ``h - 2`` pair and ``h`` non-pair second cards that end with ``h`` hands, none pairing at the end."""
    return _ways(h - 2, h - 1)


def _orders_reaching(max_hands: int, k: int) -> int:
    """Orders that reach ``max_hands`` hands with the last pair card after ``k`` completed hands."""
    return _ways(max_hands - 3, k) if max_hands > 2 else int(k == 0)


class _Chances:
    """Chances of seeing ``a`` pair cards and ``b`` non-pair cards in a given order, after the peek."""

    def __init__(self, counts: Counts | None, pair_value: int, pairs: int, game: Game) -> None:
        self.infinite = counts is None
        if counts is None:
            self.p = pairs / 13  # ``pairs`` is the pair card's weight out of 13 here
            return
        self.n = sum(counts)
        self.pairs = pairs
        bad = forbidden_hole(game.upcard) if game.peek else None
        self.bad = bad
        if bad is not None:
            self.c_x = counts[bad]
            self.pair_is_x = bad == pair_value - 1
            # natural-makers among the non-pair cards
            self.x_others = self.c_x - (pairs if self.pair_is_x else 0)

    def _q(self, a: int, b: int) -> float:
        """Chance that the hole card is allowed, given ``a`` pair and ``b`` non-pair cards seen."""
        if self.bad is None:
            return 1.0
        left = self.n - a - b
        if left <= 0:
            return 0.0
        others = self.n - self.pairs
        seen_x = (a if self.pair_is_x else 0) + (b * self.x_others / others if others else 0.0)
        return max(1.0 - (self.c_x - seen_x) / left, 0.0)

    def pattern(self, a: int, b: int) -> float:
        """The chance of one particular order of ``a`` pair and ``b`` non-pair cards."""
        if self.infinite:
            return self.p ** a * (1.0 - self.p) ** b
        base = _falling(self.pairs, a) * _falling(self.n - self.pairs, b) / _falling(self.n, a + b) \
            if self.n >= a + b else 0.0
        if base == 0.0 or self.bad is None:
            return base
        q0 = self._q(0, 0)
        return base * self._q(a, b) / q0 if q0 > 0 else 0.0

    def v(self, a: int, b: int) -> float:
        """The chance that the next card is a pair card, given ``a`` pair and ``b`` non-pair cards seen."""
        if self.infinite:
            return self.p
        here = self.pattern(a, b)
        return self.pattern(a + 1, b) / here if here > 0 else 0.0


class _Hands:
    """``X(a, 0)``, ``P(a, 0)`` and the pair's chance for every ``a`` at once, by the fixed strategy.

    One walk of the split hand's play serves every ``a``: the strategy decides on the
    hand's own cards, so the hands and the play are the same for every ``a``; only the
    chances of the cards and the dealer's outcomes change. A node is keyed by ``D``, the
    unseen cards when no further pair card is out; with ``a`` out they are ``D`` less ``a``
    pair cards. Each node holds one EV per ``a`` (a list).

    Args:
        pair: the pair's value (1..10).
        counts: the unseen cards at the split, both pair cards out (None: infinite deck).
        game: the rules.
        strategy: ``"CDP1"`` or ``"CDZ-"`` (module docstring).
        most: the largest ``a`` wanted (fewer if fewer pair cards are unseen).
    """

    def __init__(self, pair: int, counts: Counts | None, game: Game, strategy: str, most: int) -> None:
        self.pair = pair
        self.rank = pair - 1
        self.counts = counts
        self.game = game
        self.tree: Tree = tree_for(counts, game)  # the optimal play on the shoe at the split
        self.shift = 1 if strategy == "CDZ-" else 0  # pair cards put back where the strategy decides
        self.split_aces = pair == 1
        self.may_hit = not self.split_aces or game.hit_split_aces
        self.bad = forbidden_hole(game.upcard) if game.peek else None
        self.span = 1 if counts is None else min(most, counts[pair - 1]) + 1
        self.memo: dict[object, list[float]] = {}
        self.results: tuple[list[float], list[float], list[float]] | None = None

    def at(self, a: int) -> tuple[float, float, float]:
        """``(X(a, 0), P(a, 0), chance that the second card has the pair's value)``; NEG_INF if the cards can run out.

        Raises:
            OutOfWork: inside :func:`._work.work_budget`, once the units are used up.
        """
        if self.results is None:
            self.results = self._second_cards()
        x_values, p_values, p_chances = self.results
        a = 0 if self.counts is None else a  # an infinite deck does not notice cards out
        if a >= len(x_values):
            return 0.0, 0.0, 0.0  # more pair cards out than there are: this never happens
        return x_values[a], p_values[a], p_chances[a]

    def _second_cards(self) -> tuple[list[float], list[float], list[float]]:
        span = self.span
        x_values = [0.0] * span
        p_values = [0.0] * span
        p_chances = [0.0] * span
        mass = [0.0] * span
        for v, after, chances in self._next(self.counts):
            values = self._two_cards(v, after)
            x_values = list(map(add, x_values, map(mul, chances, values)))
            mass = list(map(add, mass, chances))
            if v == self.pair:
                p_values, p_chances = values, chances
        x_values = [NEG_INF if m < 0.5 or math.isinf(x) or math.isnan(x) else x for x, m in zip(x_values, mass)]
        return x_values, p_values, p_chances

    def _shifted(self, counts: Counts | None) -> Counts | None:
        """``counts`` with the strategy's pair cards put back (where it decides)."""
        if counts is None or not self.shift:
            return counts
        i = self.rank
        return counts[:i] + (counts[i] + self.shift,) + counts[i + 1:]

    def _next(self, counts: Counts | None) -> list[tuple[int, Counts | None, list[float]]]:
        """The next card from ``counts`` less ``a`` pair cards: ``[(value, counts after, [chance per a]), ...]``.

        The chances follow :func:`._player.chance_terms`, as :func:`._player.draws` does, with
        ``a`` pair cards out of ``C``; a card that is not there has chance 0.
        """
        if counts is None:
            return [(v, None, [chance]) for v, chance, _after in draws(None, self.game)]
        n0 = sum(counts)
        rank, bad, span = self.rank, self.bad, self.span
        base: list[float] = []  # a card's chance per copy of it, for each a (chance_terms)
        base_bad: list[float] = []  # the same for the natural-maker
        for a in range(span):
            terms = chance_terms(n0 - a, None if bad is None else counts[bad] - (a if bad == rank else 0))
            if terms is None:
                base.append(0.0)
                base_bad.append(0.0)
            else:
                left, extra, denominator = terms
                base.append(left / denominator)
                base_bad.append((left + extra) / denominator)
        out: list[tuple[int, Counts | None, list[float]]] = []
        for i, c0 in enumerate(counts):
            if not c0:
                continue
            factors = base_bad if i == bad else base
            if i == rank:
                chances = [(c0 - a) * factor if c0 > a else 0.0 for a, factor in enumerate(factors)]
            else:
                chances = [c0 * factor for factor in factors]
            out.append((i + 1, counts[:i] + (c0 - 1,) + counts[i + 1:], chances))
        return out

    def _stands(self, hard: int, ace: bool, counts: Counts | None) -> list[float]:
        """EV of standing, per ``a`` (0 where fewer than ``a`` pair cards are left: it never happens)."""
        tree = self.tree
        if counts is None:
            return [tree.stand(hard, ace, None)]
        i = self.rank
        left = counts[i]
        return [tree.stand(hard, ace, counts[:i] + (left - a,) + counts[i + 1:]) if a <= left else 0.0
                for a in range(self.span)]

    def _two_cards(self, v: int, counts: Counts | None) -> list[float]:
        """EV per ``a`` of the split hand (pair card, ``v``) with ``counts`` unseen when ``a = 0``."""
        game, tree = self.game, self.tree
        hard, ace = self.pair + v, self.pair == 1 or v == 1
        total = total_of(hard, ace)
        if total == 21:  # a 21 takes no more cards, as in the round
            return self._stands(hard, ace, counts)
        if self.may_hit and can_double(game, total, True, self.split_aces):
            decide = self._shifted(counts)
            if tree.double(hard, ace, 2, decide) > tree.best(hard, ace, 2, decide, may_hit=True):
                return self._double(hard, ace, counts)
        return self._play(hard, ace, 2, counts, self.may_hit)

    def _double(self, hard: int, ace: bool, counts: Counts | None) -> list[float]:
        """EV per ``a`` of doubling: one card, then stand; per unit of the initial bet."""
        game = self.game
        values = [0.0] * self.span
        for v, after, chances in self._next(counts):
            h, a = hard + v, ace or v == 1
            if game.is_charlie(3) and total_of(h, a) <= 21:
                outcome = [game.charlie_pays] * self.span
            else:
                outcome = self._stands(h, a, after)
            values = list(map(add, values, map(mul, chances, outcome)))
        return [2.0 * value for value in values]

    def _play(self, hard: int, ace: bool, n: int, counts: Counts | None, may_hit: bool) -> list[float]:
        """EV per ``a`` of hit/stand play by the fixed strategy, from a hand with ``n`` cards.

        A node not yet in the memo charges :data:`._work.SPLIT_NODE` units (:func:`._work.spend`).
        """
        total = total_of(hard, ace)
        if total > 21:
            return [-1.0] * self.span
        game, tree = self.game, self.tree
        if game.is_charlie(n):
            return [game.charlie_pays] * self.span
        if not may_hit or (total == 21 and game.charlie is None):
            return self._stands(hard, ace, counts)
        key = (counts, hard, ace, n if game.charlie else 0)
        got = self.memo.get(key)
        if got is not None:
            return got
        spend(SPLIT_NODE)
        decide = self._shifted(counts)
        if total <= 11 or tree.hit(hard, ace, n, decide) > tree.stand(hard, ace, decide):
            values = [0.0] * self.span
            for v, after, chances in self._next(counts):
                child = self._play(hard + v, ace or v == 1, n + 1, after, True)
                values = list(map(add, values, map(mul, chances, child)))
        else:
            values = self._stands(hard, ace, counts)
        self.memo[key] = values
        return values


def _combine(hands: _Hands, chances: _Chances, max_hands: int) -> float:
    """Add up the ways the resplitting can end (see the module docstring)."""
    @lru_cache(maxsize=None)
    def x(a: int, b: int) -> float:
        if b == 0:
            return hands.at(a)[0]
        v = chances.v(a, b - 1)
        if v >= 1.0:
            return 0.0  # unreachable (no non-pair card left): its weight is zero
        return (x(a, b - 1) - (v * x(a + 1, b - 1) if v > 0 else 0.0)) / (1.0 - v)

    @lru_cache(maxsize=None)
    def n(a: int, b: int) -> float:
        v = chances.v(a, b)
        if v >= 1.0:
            return 0.0
        if b == 0:
            x_value, p_value, _ = hands.at(a)
            return (x_value - (v * p_value if v > 0 else 0.0)) / (1.0 - v)
        return (n(a, b - 1) - (v * n(a + 1, b - 1) if v > 0 else 0.0)) / (1.0 - v)

    total = 0.0
    for h in range(2, max_hands):
        weight = _orders_ending(h) * chances.pattern(h - 2, h)
        if weight > 0:
            total += weight * h * n(h - 2, h - 1)
    for k in range(0, max_hands - 1):
        weight = _orders_reaching(max_hands, k) * chances.pattern(max_hands - 2, k)
        if weight > 0:
            if k:
                total += weight * k * n(max_hands - 2, k - 1)
            total += weight * (max_hands - k) * x(max_hands - 2, k)
    if math.isnan(total) or math.isinf(total):
        return NEG_INF
    return total


def split_ev(pair: int, counts: Counts | None, game: Game, hands: int, strategy: str = "CDP1") -> float:
    """EV of splitting a pair of value ``pair`` (1..10), summed over every hand it makes, exact.

    Args:
        pair: the pair's point value, ace 1.
        counts: the unseen cards, both pair cards and the upcard already out (None: infinite deck).
        game: the rules (``game.exact`` must be true).
        hands: the hands the seat holds now (the split makes at most
            ``game.max_hands - hands + 1`` hands from this one; split aces resplit only
            with ``game.resplit_aces``).
        strategy: the post-split strategy, ``"CDP1"`` or ``"CDZ-"`` (module docstring).

    Returns:
        The EV per unit of the initial bet of one hand, summed over the split hands (so
        between about -8 and +8 with doubles); NEG_INF when the cards can run out.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"post-split strategy must be one of {STRATEGIES}, got {strategy!r}")
    max_hands = game.max_hands - hands + 1
    if pair == 1 and not game.resplit_aces:
        max_hands = 2
    max_hands = max(max_hands, 2)
    game = replace(game, lead=pair - 1)  # the split hands' shoes differ in the pair's rank (see ._stand)
    if counts is not None and sum(counts) < _cards_needed(pair, counts, game.upcard, max_hands):
        return NEG_INF  # the cards could run out before every hand and the dealer are done
    one = _Hands(pair, counts, game, strategy, 2 * (max_hands - 2))
    rank_tens = pair == 10 and game.split_by == "rank"
    if counts is None:
        return _combine(one, _Chances(None, pair, 1 if rank_tens else (4 if pair == 10 else 1), game), max_hands)
    available = counts[pair - 1]
    if not rank_tens:
        return _combine(one, _Chances(counts, pair, available, game), max_hands)
    total = 0.0
    for j, chance in _same_rank(available, game.decks):
        if chance > 0:
            value = _combine(one, _Chances(counts, pair, j, game), max_hands)
            if value == NEG_INF:
                return NEG_INF
            total += chance * value
    return total


def _same_rank(tens: int, decks: int) -> list[tuple[int, float]]:
    """Distribution of how many of ``tens`` unseen ten-valued cards share the split pair's rank."""
    others = 16 * decks - 2  # the other ten-valued cards of the shoe
    same = 4 * decks - 2
    if decks > 0 and 0 <= tens <= others and same >= 0:
        whole = math.comb(others, tens)
        return [(j, math.comb(same, j) * math.comb(others - same, tens - j) / whole) for j in range(0, tens + 1)]
    return [(j, math.comb(tens, j) * 0.25 ** j * 0.75 ** (tens - j)) for j in range(0, tens + 1)]


def split_value(pair: int, counts: Counts | None, game: Game, hands: int, strategy: str = "CDP1") -> float:
    """EV of splitting, summed over the split hands: exact (:func:`split_ev`) unless ``game.exact`` is false.

    With ``exact=False`` (a large shoe, see :func:`._player.tree_for`) the resplits use the
    constant re-pair approximation of :func:`._player.approximate_split_value`.
    """
    if tree_for(counts, game).game.exact:
        return split_ev(pair, counts, game, hands, strategy)
    return approximate_split_value(pair, counts, game, hands)


def _cards_needed(pair: int, counts: Counts, upcard: int, max_hands: int) -> int:
    """An upper bound on the cards a split to ``max_hands`` hands and the dealer can use.

    Every card a hand draws but its last leaves its hard total at 20 or less, so those
    cards add up to at most ``20 - pair`` per hand; the dealer's (the hole card
    included) to at most ``16 - upcard``. Pooling those budgets, the most cards are the
    smallest ones whose sum stays within them, plus one last card per hand and for the
    dealer, plus the ``max_hands - 2`` resplit pair cards. The exchangeability argument
    needs every card order to finish; a smaller shoe could run out, and the split is
    then left out (like any action after which the cards could run out).
    """
    budget = max_hands * (20 - pair) + (16 - upcard)
    small = 0
    for value in range(1, 11):
        take = min(counts[value - 1], max(budget, 0) // value)
        small += take
        budget -= take * value
        if take < counts[value - 1]:
            break
    return (max_hands - 2) + (max_hands + 1) + small
