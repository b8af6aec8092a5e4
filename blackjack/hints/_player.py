"""The player's expected values on a rank-count vector (internal; see :mod:`.probability`).

``counts`` is a tuple of 10 ints (ace first, tens last) of the cards the player has not seen, the dealer's hole
card among them, or ``None`` for an infinite deck; EVs are floats per unit of the hand's initial bet. With
``peek`` every figure is conditioned exactly on the dealer having no natural (the next card's chances too, see
:func:`chance_terms`); without it a dealer natural takes every bet on the hand, doubles and splits included.
``exact=True`` removes every card the player draws before the dealer plays; ``exact=False`` keeps the dealer's
chances of the starting composition for the whole hit tree (docs/hints.md, "Level 2: method and conditioning").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from . import _dealer, _stand
from ._dealer import BUST, NATURAL, INFINITE, dealer_float, forbidden_hole
from ._stand import stands_for
from ._work import NODE, spend

Counts = tuple[int, ...]
NEG_INF = -math.inf


@dataclass(frozen=True)
class Game:
    """The rule facts the EV engine needs for one upcard, hashable for the caches (``probability.game_for``).

    Most attributes are the :class:`~blackjack.rules.Rules` fields of the same meaning (``h17``
    ``dealer_hits_soft_17``, ``das`` ``double_after_split``, ``max_hands`` ``max_split_hands``,
    ``charlie`` ``charlie_cards``). Besides them: ``peek``, figures are conditioned on the dealer
    not having a natural; ``exact``, the player's drawn cards are removed before the dealer plays;
    ``lead``, the rank index (0 = ace) the stand EVs' level sums take first (:mod:`._stand`: speed
    only, the values agree to rounding).
    """

    upcard: int
    h17: bool
    naturals: bool
    peek: bool
    double_on: str
    das: bool
    max_hands: int
    resplit_aces: bool
    hit_split_aces: bool
    split_by: str
    charlie: int | None
    charlie_pays: float
    exact: bool = True
    decks: int = 0
    lead: int = 0

    def is_charlie(self, cards: int) -> bool:
        """True when a hand of ``cards`` cards that has not busted wins as a Charlie (``Rules.charlie_cards``)."""
        return self.charlie is not None and cards >= self.charlie


def total_of(hard: int, ace: bool) -> int:
    """Best total of a hand with hard total ``hard`` (aces as 1) and an ace or not."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


def doubles_on(double_on: str, total: int) -> bool:
    """Whether ``Rules.double_on`` (``"any"``, ``"9-11"``, ``"10-11"``, ``"none"``) allows a two-card best total ``total``."""
    if double_on == "9-11":
        return 9 <= total <= 11
    if double_on == "10-11":
        return 10 <= total <= 11
    return double_on == "any"


def can_double(game: Game, total: int, from_split: bool, split_aces: bool) -> bool:
    """Whether a two-card hand of best total ``total`` may double (engine rule: the best total)."""
    if split_aces or (from_split and not game.das):
        return False
    return doubles_on(game.double_on, total)


def stand_value(total: int, dist: tuple[float, ...]) -> float:
    """EV of standing on ``total`` (not a natural) against a dealer distribution."""
    if total > 21:
        return -1.0
    value = dist[BUST] - dist[NATURAL]
    for index in range(5):
        dealer = 17 + index
        if dealer < total:
            value += dist[index]
        elif dealer > total:
            value -= dist[index]
    return value


#: Chances are floored to this grid (2**-52): every chance and every partial sum of them is
#: then an exact float, so a sum of chances never exceeds 1 (a correctly rounded quotient
#: may round up; the sum of several can reach 1.0000000000000002). The error is below 2.3e-16.
_GRID = 1 << 52
_INFINITE_DRAWS: list[tuple[int, float, None]] = [(v, (INFINITE[v - 1] * _GRID // 13) / _GRID, None)
                                                  for v in range(1, 11)]


def draws(counts: Counts | None, game: Game) -> list[tuple[int, float, Counts | None]]:
    """The player's next card: ``[(value, chance, counts after), ...]`` under the peek model.

    Only cards with a positive chance are listed (none: no card can come). The chances are
    :func:`chance_terms`'s, floored to multiples of 2**-52 so that they add up to at most 1.
    """
    if counts is None:
        return list(_INFINITE_DRAWS)
    n = sum(counts)
    bad = forbidden_hole(game.upcard) if game.peek else None
    terms = chance_terms(n, None if bad is None else counts[bad])
    if terms is None:
        return []
    left, extra, denominator = terms
    out: list[tuple[int, float, Counts | None]] = []
    for i, c in enumerate(counts):
        if c:
            numerator = c * (left + extra if i == bad else left)
            if numerator > 0:
                out.append((i + 1, (numerator * _GRID // denominator) / _GRID, counts[:i] + (c - 1,) + counts[i + 1:]))
    return out


def chance_terms(n: int, held: int | None) -> tuple[int, int, int] | None:
    """The next card's chance as integers: ``C_x x (left + extra if x is the natural-maker else left) / denominator``.

    The one rule for the player's next card under the peek model (module docstring):
    ``C_x/N x q(C-x)/q(C)`` with ``q(C) = (N - held)/N`` is ``C_x (N - 1 - held + [x is the
    natural-maker]) / ((N - 1)(N - held))``; without a peek it is ``C_x / N``.

    Args:
        n: the unseen cards, ``N``.
        held: the unseen natural-makers the peek rules out as the hole card, or None
            without a peek.

    Returns:
        ``(left, extra, denominator)``, or None when no card can come (none left, or every
        card left would have to be the hole card the peek ruled out).
    """
    if held is None:
        return (1, 0, n) if n > 0 else None
    allowed = n - held  # hole cards the peek allows
    if allowed <= 0 or n <= 1:
        return None
    return n - 1 - held, 1, (n - 1) * allowed


def _checked(dist: tuple[float, ...]) -> bool:
    return abs(sum(dist) - 1.0) < 1e-9


class Tree:
    """Optimal hit/stand play of one hand from a starting composition, memoised per node.

    Args:
        counts: the unseen cards at the root (None: infinite deck).
        game: the rules.

    A node is keyed by ``(hard total, ace, cards)``, and also by its composition in the
    exact mode, so one tree can serve every hand dealt from the same root composition
    (:func:`tree_for` shares them).
    """

    def __init__(self, counts: Counts | None, game: Game) -> None:
        self.root = counts
        self.game = game
        self.memo: dict[object, float] = {}
        self.stands = stands_for(game.upcard, game.h17, game.naturals, game.peek, game.lead) if game.exact else None
        self.hits: dict[object, float] = {}
        self.draws_memo: dict[Counts | None, list[tuple[int, float, Counts | None]]] = {}
        self.root_draws = draws(counts, game) if not game.exact else None
        root_dealer = None if game.exact else dealer_float(counts, game.upcard, game.h17, game.naturals, game.peek)
        # the approximation needs a dealer who can finish from the root; else every stand is -inf
        self.root_dealer = root_dealer if root_dealer is not None and _checked(root_dealer) else None

    def _dist(self, counts: Counts | None) -> tuple[float, ...] | None:
        if not self.game.exact:
            return self.root_dealer
        game = self.game
        dist = dealer_float(counts, game.upcard, game.h17, game.naturals, game.peek)
        return dist if _checked(dist) else None

    def stand(self, hard: int, ace: bool, counts: Counts | None) -> float:
        """EV of standing now (``-inf`` if the cards could run out before the dealer ends)."""
        total = total_of(hard, ace)
        if total > 21:
            return -1.0
        if self.stands is not None and counts is not None:
            value = self.stands.ev(total, counts)
            if value is not None:
                return value
        dist = self._dist(counts)
        return NEG_INF if dist is None else stand_value(total, dist)

    def next_cards(self, counts: Counts | None) -> list[tuple[int, float, Counts | None]]:
        """The next card's distribution (the root's in the approximate mode), memoised per composition."""
        if self.root_draws is not None:
            return self.root_draws
        got = self.draws_memo.get(counts)
        if got is None:
            got = self.draws_memo[counts] = draws(counts, self.game)
        return got

    def _key(self, hard: int, ace: bool, n: int, counts: Counts | None) -> object:
        """A node's memo key: its hand, and its composition in the exact mode (cards only count for a Charlie)."""
        cards = n if self.game.charlie else 0
        return (counts, hard, ace, cards) if self.game.exact and counts is not None else (hard, ace, cards)

    def best(self, hard: int, ace: bool, n: int, counts: Counts | None, may_hit: bool = True) -> float:
        """EV of playing on optimally (hit or stand) from a hand with ``n`` cards.

        A node not yet in the memo charges :data:`._work.NODE` units to the work budget.

        Raises:
            OutOfWork: inside :func:`._work.work_budget`, once the units are used up.
        """
        total = total_of(hard, ace)
        if total > 21:
            return -1.0
        game = self.game
        if game.is_charlie(n):
            return game.charlie_pays
        if not may_hit:
            return self.stand(hard, ace, counts)
        key = self._key(hard, ace, n, counts)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        spend(NODE)
        if total == 21 and game.charlie is None:
            value = self.stand(hard, ace, counts)
        elif total <= 11:
            # standing on 11 or less is never better than one more card (it cannot bust and
            # the dealer's cards are exchangeable), so skip the dealer computation
            value = self.hit(hard, ace, n, counts)
        else:
            value = max(self.stand(hard, ace, counts), self.hit(hard, ace, n, counts))
        self.memo[key] = value
        return value

    def hit(self, hard: int, ace: bool, n: int, counts: Counts | None) -> float:
        """EV of taking one card and then playing on optimally (memoised like :meth:`best`)."""
        game = self.game
        key = self._key(hard, ace, n, counts)
        got = self.hits.get(key)
        if got is not None:
            return got
        value = 0.0
        mass = 0.0
        for v, chance, after in self.next_cards(counts):
            value += chance * self.best(hard + v, ace or v == 1, n + 1, after if game.exact else counts)
            mass += chance
        value = value if mass > 0.5 else NEG_INF
        self.hits[key] = value
        return value

    def double(self, hard: int, ace: bool, n: int, counts: Counts | None) -> float:
        """EV of doubling: one card, then stand; per unit of the initial bet (so up to +-2)."""
        value = 0.0
        mass = 0.0
        game = self.game
        for v, chance, after in self.next_cards(counts):
            h, a = hard + v, ace or v == 1
            if game.is_charlie(n + 1) and total_of(h, a) <= 21:
                outcome = game.charlie_pays
            else:
                outcome = self.stand(h, a, after if game.exact else counts)
            value += chance * outcome
            mass += chance
        return 2.0 * value if mass > 0.5 else NEG_INF


def tree_for(counts: Counts | None, game: Game) -> Tree:
    """The :class:`Tree` for a root composition and rules, shared by every call that asks (the 16 most recent).

    A hint shown again, a pair and its split hands, two seats asking in turn reuse its memo (a tree from a
    6-deck shoe holds up to about 3,000 nodes: 2-2 against a 2, its split hands included). An approximate game
    (``exact=False``) on a shoe of :data:`SMALL_SHOE` cards or fewer gets an exact tree: there the approximation
    could draw cards that are not there, and the exact tree is cheap.
    """
    if not game.exact and counts is not None and sum(counts) <= SMALL_SHOE:
        return _tree(counts, replace(game, exact=True))
    return _tree(counts, game)


#: Shoes of this many unseen cards or fewer are always computed exactly (``tree_for``).
SMALL_SHOE = 26


_tree = lru_cache(maxsize=16)(Tree)


def clear_caches() -> None:
    """Forget every memo of the exact EV engine (dealer distributions, level sums, stand EVs, trees): the next call is cold."""
    _dealer.clear_caches()
    _stand.clear_caches()
    _tree.cache_clear()


def approximate_split_value(pair: int, counts: Counts | None, game: Game, hands: int) -> float:
    """EV of splitting a pair of ``pair`` (1..10), summed over the resulting hands, approximately (``exact=False``).

    Method: every split hand is played by the optimal strategy for its own cards only
    (it ignores the other hands' cards), which makes ``2 x EV(one hand)`` exact for one
    split by exchangeability. Each hand starts from the same composition ``counts``
    (the pair already removed). Resplits (up to ``game.max_hands``) use a branching
    process with a constant chance ``p`` of pairing again, so the extra pair cards
    drawn by resplit hands are not removed (the usual resplit approximation); a hand
    that pairs when no more splits are allowed plays the pair as it is. Under
    rank-splitting a ten pairs with chance ``P(ten)/4`` (a same-rank face; the counts do
    not see faces).
    """
    tree = tree_for(counts, game)
    split_aces = pair == 1
    may_hit = not split_aces or game.hit_split_aces
    values: dict[int, float] = {}
    chances: dict[int, float] = {}
    for v, chance, after in tree.next_cards(counts):
        hard, ace = pair + v, pair == 1 or v == 1
        start = after if game.exact else counts
        best = tree.best(hard, ace, 2, start, may_hit=may_hit)
        if may_hit and total_of(hard, ace) < 21 and can_double(game, total_of(hard, ace), True, split_aces):
            best = max(best, tree.double(hard, ace, 2, start))
        values[v] = best
        chances[v] = chance
    mass = sum(chances.values())
    if mass < 0.5:
        return NEG_INF
    everything = sum(chances[v] * values[v] for v in values)
    resplit = game.max_hands > hands + 1 and (not split_aces or game.resplit_aces)
    if not resplit or pair not in values:
        return 2.0 * everything
    p = chances[pair] * (0.25 if pair == 10 and game.split_by == "rank" else 1.0)
    if p >= 1.0:
        return 2.0 * values[pair]
    e_pair = values[pair]
    e_other = (everything - p * e_pair) / (1.0 - p)
    other, stuck = _split_counts(p, game.max_hands, hands + 1)
    return other * e_other + stuck * e_pair


def _split_counts(p: float, max_hands: int, start_hands: int) -> tuple[float, float]:
    """Expected (hands finished with a non-pair, hands stuck with a pair) after a split.

    A split leaves two one-card hands; each draws a pair card with chance ``p`` and then
    splits again while the seat has fewer than ``max_hands`` hands.
    """
    @lru_cache(maxsize=None)
    def go(pending: int, hands: int) -> tuple[float, float]:
        if pending == 0:
            return 0.0, 0.0
        o1, s1 = go(pending - 1, hands)  # a non-pair second card
        if hands < max_hands:
            o2, s2 = go(pending + 1, hands + 1)  # pairs again and splits
            return (1 - p) * (o1 + 1) + p * o2, (1 - p) * s1 + p * s2
        return (1 - p) * (o1 + 1) + p * o1, (1 - p) * s1 + p * (s1 + 1)

    return go(2, start_hands)


def insurance_value(counts: Counts | None) -> float:
    """EV of the insurance side bet (half the bet, pays 2:1) per unit of the initial bet, for a composition.

    The hole card is a ten with chance ``p = C_10/N`` (:func:`insurance_ev`).
    """
    comp = INFINITE if counts is None else counts
    n = sum(comp)
    return insurance_ev(comp[9] / n if n else 0.0)


def insurance_ev(p_ten: float) -> float:
    """EV of the insurance side bet (half the bet, pays 2:1) per unit of the initial bet: ``(3p - 1)/2``.

    Half a bet wins 2 x 1/2 = 1 with chance ``p_ten`` and loses 1/2 otherwise.
    """
    return (3 * p_ten - 1) / 2


def natural_chance(counts: Counts | None, upcard: int) -> float:
    """The chance that the hole card gives the dealer a natural, before any peek.

    Args:
        counts: the unseen cards (None: infinite deck), at least one.
        upcard: the dealer's upcard, 1..10.

    Returns:
        ``C_X/N`` for the natural-maker ``X`` (a ten under an ace, an ace under a ten);
        0 for an upcard 2-9.
    """
    maker = forbidden_hole(upcard)
    if maker is None:
        return 0.0
    comp = INFINITE if counts is None else counts
    return comp[maker] / sum(comp)


def before_peek(ev: float, p_natural: float) -> float:
    """The EV of playing a hand on, counted before the dealer checks for a natural.

    ``ev`` is the EV once the dealer has no natural; a dealer natural (chance
    ``p_natural``) takes the whole initial bet. This is what an early surrender is
    weighed against.
    """
    return p_natural * -1.0 + (1 - p_natural) * ev
