"""Blackjack odds the milestone-2 suite works out for itself: the dealer's final totals, and the EVs a judge holds
a strategy to (standard library only; it imports neither ``blackjack`` nor the grader, so both sides may use it:
named ``observe_*`` so that the student's process gets a copy, for the given ``dealer_probabilities``).

* :func:`dealer_distribution`: the dealer's final-total chances for an upcard, exact, from a finite shoe (cards
  drawn without replacement) or an infinite deck (tens 4/13, every other value 1/13).
* :class:`Odds`: the expected value of each play of a hand against one upcard, infinite deck, for the rules the
  hints tests use (``Rules()``: dealer stands on soft 17, peeks under an ace or a ten, double on any two cards and
  after a split, split aces take one card, no surrender), per unit of the initial bet and conditioned on the
  dealer having no natural. Splits are valued without resplitting. Basic strategy is the best of these EVs.
* :func:`decisions`: a fixed, seeded set of decisions as dealt hands reach them when played by basic strategy,
  the measure of ``test_hints_basic.py``'s defensibility tests: EV lost per decision against basic strategy.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import NamedTuple

__all__ = ["OUTCOMES", "Decision", "Odds", "dealer_distribution", "decisions", "odds"]

#: The dealer's outcomes, as dealer_probabilities keys them.
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
#: An infinite deck: the weight of each point value (ace 1) out of 13.
INFINITE = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)


def total_of(hard: int, ace: bool) -> int:
    """A hand's best total: the hard total, plus 10 when an ace can count 11."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


def dealer_distribution(upcard: int, shoe: Mapping[int, int] | None = None, *, hits_soft_17: bool = False,
                        peeked: bool = False) -> dict[str, Fraction]:
    """The dealer's final-total chances for ``upcard`` (1..10, ace 1), exact.

    Args:
        upcard: the dealer's upcard's point value.
        shoe: the unseen cards (point value -> count, the upcard already out), drawn without replacement; None for
            an infinite deck. The caller makes sure the cards cannot run out.
        hits_soft_17: the dealer hits a soft 17 (H17); else stands on every 17.
        peeked: the hole card is known not to make a natural (the dealer peeked).

    Naturals are on: a two-card 21 is ``"blackjack"``.
    """
    counts = None if shoe is None else tuple(shoe.get(value, 0) for value in range(1, 11))
    return dict(zip(OUTCOMES, _distribution(upcard, counts, hits_soft_17, peeked), strict=True))


@functools.lru_cache(maxsize=256)
def _distribution(upcard: int, counts: tuple[int, ...] | None, hits_soft_17: bool,
                  peeked: bool) -> tuple[Fraction, ...]:
    barred = {1: 10, 10: 1}.get(upcard) if peeked else None
    infinite = counts is None

    def final(hard: int, ace: bool, cards: int) -> str | None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            return "bust"
        if cards == 2 and total == 21:
            return "blackjack"
        if total >= 17 and not (total == 17 and soft and hits_soft_17):
            return str(total)
        return None

    @functools.cache
    def draw(left: tuple[int, ...], hard: int, ace: bool, cards: int) -> tuple[Fraction, ...]:
        skip = barred if cards == 1 else None
        total_left = sum(count for value, count in enumerate(left, 1) if value != skip)
        sums = [Fraction(0)] * len(OUTCOMES)
        for value, count in enumerate(left, 1):
            if count == 0 or value == skip:
                continue
            p = Fraction(count, total_left)
            end = final(hard + value, ace or value == 1, cards + 1)
            if end is not None:
                sums[OUTCOMES.index(end)] += p
            else:
                after = left if infinite else left[:value - 1] + (count - 1,) + left[value:]
                for index, q in enumerate(draw(after, hard + value, ace or value == 1, min(cards + 1, 3))):
                    sums[index] += p * q
        return tuple(sums)

    return draw(INFINITE if counts is None else counts, upcard, upcard == 1, 1)


#: The chance of each next card, point values 1..10, infinite deck.
_NEXT = tuple((value, weight / 13) for value, weight in enumerate(INFINITE, 1))


class Odds:
    """The EVs of the plays of a hand against one upcard (infinite deck, the hints tests' ``Rules()``), per unit of
    the initial bet, conditioned on no dealer natural (the dealer peeked)."""

    def __init__(self, upcard: int) -> None:
        self.upcard = upcard
        dealer = dealer_distribution(upcard, hits_soft_17=False, peeked=upcard in (1, 10))
        self._dealer = {key: float(chance) for key, chance in dealer.items()}
        self.stand = functools.cache(self._stand)
        self.hit = functools.cache(self._hit)

    def _stand(self, total: int) -> float:
        """Standing on ``total`` (over 21: bust, -1)."""
        if total > 21:
            return -1.0
        ev = self._dealer["bust"]
        for key in ("17", "18", "19", "20", "21"):
            ev += self._dealer[key] * ((total > int(key)) - (total < int(key)))
        return ev - self._dealer["blackjack"]

    def best(self, hard: int, ace: bool) -> float:
        """A hand of ``hard`` points (an ace among them or not) played on by hitting or standing, whichever is worth
        more."""
        total = total_of(hard, ace)
        if total >= 21:
            return self.stand(total)
        return max(self.stand(total), self.hit(hard, ace))

    def _hit(self, hard: int, ace: bool) -> float:
        """One more card, then the better of hitting and standing."""
        return sum(p * self.best(hard + value, ace or value == 1) for value, p in _NEXT)

    def double(self, hard: int, ace: bool) -> float:
        """Twice the bet on exactly one more card."""
        return 2 * sum(p * self.stand(total_of(hard + value, ace or value == 1)) for value, p in _NEXT)

    def split(self, pair: int) -> float:
        """Two hands of one card of the pair each (no resplit); split aces take one card and stand, other hands
        double or play on."""
        if pair == 1:
            return 2 * sum(p * self.stand(total_of(1 + value, True)) for value, p in _NEXT)
        each = 0.0
        for value, p in _NEXT:
            hard, ace = pair + value, pair == 1 or value == 1
            each += p * max(self.best(hard, ace), self.double(hard, ace))
        return 2 * each

    def evs(self, values: tuple[int, ...], legal: tuple[str, ...]) -> dict[str, float]:
        """The EV of each of the ``legal`` plays (Action names) of the hand ``values`` (point values, ace 1)."""
        hard, ace = sum(values), 1 in values
        out: dict[str, float] = {}
        for action in legal:
            if action == "STAND":
                out[action] = self.stand(total_of(hard, ace))
            elif action == "HIT":
                out[action] = self.hit(hard, ace)
            elif action == "DOUBLE":
                out[action] = self.double(hard, ace)
            elif action == "SPLIT":
                out[action] = self.split(values[0])
            elif action == "SURRENDER":
                out[action] = -0.5
            elif action == "INSURANCE":  # a side bet of half the bet, 2:1 when the hole card is a ten
                out[action] = (3 * 4 / 13 - 1) / 2
            elif action == "DECLINE":
                out[action] = 0.0
        return out


@functools.cache
def odds(upcard: int) -> Odds:
    """The :class:`Odds` against ``upcard`` (one per upcard, kept)."""
    return Odds(upcard)


class Decision(NamedTuple):
    """A decision as dealt hands reach it: the hand's point values (sorted), the upcard, the legal plays, and how
    many times it came up."""

    cards: tuple[int, ...]
    upcard: int
    legal: tuple[str, ...]
    times: int


def decisions(seed: int, hands: int) -> list[Decision]:
    """The decisions ``hands`` seeded deals (infinite deck) reach when played by basic strategy (the best EV).

    Each deal is two cards and an upcard; an ace up first offers insurance; a dealer natural (the hole card drawn
    too) ends the deal, as does a player natural; then the hand's first decision (hit, stand, double, and split on
    a pair), and, while basic strategy hits, each next decision (hit or stand). Split hands are not followed.
    Equal decisions are counted once with their number of times, in the order they first came up.
    """
    rng = random.Random(seed)
    values = [value for value, weight in enumerate(INFINITE, 1) for _ in range(weight)]
    seen: Counter[tuple[tuple[int, ...], int, tuple[str, ...]]] = Counter()
    for _ in range(hands):
        first, up, second, hole = (rng.choice(values) for _ in range(4))
        cards = [first, second]
        if total_of(sum(cards), 1 in cards) == 21:
            continue
        if up == 1:
            seen[(tuple(sorted(cards)), up, ("INSURANCE", "DECLINE"))] += 1
        if {up, hole} == {1, 10}:
            continue
        legal = ("HIT", "STAND", "DOUBLE") + (("SPLIT",) if first == second else ())
        while True:
            seen[(tuple(sorted(cards)), up, legal)] += 1
            evs = odds(up).evs(tuple(cards), legal)
            if max(evs, key=lambda action: evs[action]) != "HIT":
                break
            cards.append(rng.choice(values))
            if total_of(sum(cards), 1 in cards) >= 21:
                break
            legal = ("HIT", "STAND")
    return [Decision(cards, up, legal, times) for (cards, up, legal), times in seen.items()]
