"""The exact figure the simulator is checked against: basic strategy's EV from the hint library."""

from __future__ import annotations

import functools

from ..actions import Action
from ..rules import Rules

__all__ = ["basic_strategy_edge"]


@functools.lru_cache(maxsize=16)
def basic_strategy_edge(rules: Rules) -> float:
    """Return the player's EV per initial bet with basic strategy, computed from the hint library.

    For every upcard and initial two-card hand, dealt from the rules' full shoe with
    removal, take the EV (``expected_values(..., exact=False)``, the chart's own
    approximation) of the action the chart (``basic_strategy(rules)``) gives, weight it by
    the chance of the deal, and, where the dealer peeks, mix in the dealer naturals (a
    player natural pushes, anything else loses one bet). Insurance is declined.

    Approximations, each far below a simulation's standard error: later decisions in a
    hand are played optimally for its cards rather than by the chart (about 0.01% of a
    bet), and the dealer's probabilities use the starting composition. The cut card's
    effect on a finite shoe (a few hundredths of a percent) is not modelled.

    Args:
        rules: the table rules.

    Returns:
        The EV as a float; the house edge is its negative (e.g. about -0.0033 for
        the ``vegas`` preset).
    """
    from ..hints.probability import expected_values, full_shoe
    from ..hints.strategy import basic_strategy
    chart = basic_strategy(rules)
    full = full_shoe(rules.decks)
    cards = sum(full)
    total = 0.0
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                counts = list(full)
                weight = counts[up - 1] / cards
                counts[up - 1] -= 1
                weight *= counts[a - 1] / (cards - 1)
                counts[a - 1] -= 1
                weight *= counts[b - 1] / (cards - 2) * (1 if a == b else 2)
                counts[b - 1] -= 1
                if weight == 0:
                    continue
                evs = expected_values((a, b), up, tuple(counts), rules, exact=False)
                action = chart.action([a, b], up)
                if action not in evs:
                    action = max((x for x in evs if x is not Action.INSURANCE), key=evs.__getitem__)
                ev = evs[action]
                maker = {1: 10, 10: 1}.get(up) if rules.naturals else None
                if rules.dealer_peeks and maker is not None:
                    p_natural = counts[maker - 1] / (cards - 3)
                    player_natural = {a, b} == {1, 10}
                    ev = p_natural * (0.0 if player_natural else -1.0) + (1 - p_natural) * ev
                total += weight * ev
    return total
