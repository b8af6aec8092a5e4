"""Property tests: every public probability function on random small shoes (5-20 cards, ranks missing).

No exception but the documented ones (EmptyShoeError when the cards can run out,
IllegalActionError for a bust hand), every probability in [0, 1], every distribution
adding up to 1, and every EV inside the range the bets allow.
"""

from __future__ import annotations

import dataclasses
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack import Action, EmptyShoeError, IllegalActionError, Rules
from blackjack.hints import (bust_probability, counts_from, dealer_probabilities, expected_values,
                             insurance_probability)
from blackjack.hints._player import total_of

RULE_SETS = [
    Rules(),
    dataclasses.replace(Rules(), dealer_hits_soft_17=True, double_after_split=False, split_by="value"),
    dataclasses.replace(Rules(), dealer_peeks=False, hole_card=False, max_split_hands=3, double_on="9-11"),
    dataclasses.replace(Rules(), resplit_aces=True, hit_split_aces=True, surrender="late"),
    dataclasses.replace(Rules(), charlie_cards=6, charlie_pays=5, max_split_hands=2),
    Rules.preset("single_deck"),
]


@st.composite
def deals(draw: st.DrawFn) -> tuple[tuple[int, ...], int, list[int], Rules]:
    """A shoe of 5-20 unseen cards (some ranks missing), an upcard and a 2-4 card hand not yet bust."""
    counts = draw(st.lists(st.integers(0, 4), min_size=10, max_size=10).filter(lambda c: 5 <= sum(c) <= 20))
    up = draw(st.integers(1, 10))
    hand = draw(st.lists(st.integers(1, 10), min_size=2, max_size=4))
    rules = draw(st.sampled_from(RULE_SETS))
    return tuple(counts), up, hand, rules


def _probability(p: float) -> None:
    assert 0.0 <= p <= 1.0, p


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_dealer_probabilities_are_a_distribution(deal: tuple[tuple[int, ...], int, list[int], Rules]) -> None:
    counts, up, _hand, rules = deal
    for peeked in (None, False, True):
        try:
            dist = dealer_probabilities(up, counts, rules, peeked)
        except EmptyShoeError:
            continue
        for p in dist.values():
            _probability(float(p))
        assert math.isclose(sum(dist.values()), 1.0, abs_tol=1e-12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_bust_and_insurance_probabilities_are_in_range(deal: tuple[tuple[int, ...], int, list[int], Rules]) -> None:
    counts, up, hand, rules = deal
    _probability(bust_probability(hand, counts))
    _probability(bust_probability(hand, counts, upcard=up, rules=rules))
    _probability(insurance_probability(counts))
    assert counts_from(counts) == counts


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.booleans(), st.booleans())
def test_expected_values_are_finite_and_in_range(deal: tuple[tuple[int, ...], int, list[int], Rules], exact: bool,
                                                 pair: bool) -> None:
    counts, up, hand, rules = deal
    if pair:
        hand = [hand[0], hand[0]]
    try:
        evs = expected_values(hand, up, counts, rules, exact=exact)
    except IllegalActionError:
        assert total_of(sum(hand), 1 in hand) > 21
        return
    except EmptyShoeError:
        return
    assert evs, "at least STAND"
    top = 2.0 * max(float(rules.blackjack_pays), float(rules.charlie_pays), 1.0)
    most_hands = rules.max_split_hands
    for action, ev in evs.items():
        assert math.isfinite(ev), (action, ev)
        if action is Action.SPLIT:
            assert -2 * most_hands - 1e-9 <= ev <= top * most_hands + 1e-9, ev
        elif action is Action.INSURANCE:
            assert -0.5 - 1e-12 <= ev <= 1.0 + 1e-12
        else:
            assert -2.0 - 1e-12 <= ev <= top + 1e-12, (action, ev)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_approximate_mode_agrees_with_exact_on_small_shoes(deal: tuple[tuple[int, ...], int, list[int], Rules]) -> None:
    """On small shoes exact=False is exact (no finite wrong answer from the approximation)."""
    counts, up, hand, rules = deal
    try:
        exact = expected_values(hand, up, counts, rules)
    except (IllegalActionError, EmptyShoeError) as error:
        try:
            expected_values(hand, up, counts, rules, exact=False)
        except type(error):
            return
        raise AssertionError("exact=False answered where exact mode raised")
    assert expected_values(hand, up, counts, rules, exact=False) == exact


def test_reported_cases() -> None:
    """The three cases of issue 19: no ZeroDivisionError, no finite wrong answer, no chance above 1."""
    import pytest

    evs = expected_values([9, 7], 1, {1: 1, 10: 8}, Rules())  # after the peek the ace is the hole card
    assert evs[Action.STAND] == 1.0 and evs[Action.HIT] == -1.0
    for exact in (True, False):
        with pytest.raises(EmptyShoeError):
            expected_values([8, 8], 1, {1: 1, 10: 1}, Rules(), exact=exact)
    # shoes where the old quotient-by-quotient sum gave 1.0000000000000002 for a hard 20
    for counts, up in (((0, 6, 1, 6, 5, 2, 1, 5, 1, 4), 1), ((0, 3, 2, 5, 2, 1, 1, 6, 5, 6), 1),
                       ((0, 2, 5, 4, 5, 4, 0, 0, 3, 2), 10), ((0, 0, 4, 3, 3, 2, 4, 1, 2, 1), 1)):
        got = bust_probability([10, 10], counts, upcard=up, rules=Rules())
        _probability(got)
        assert got == pytest.approx(1.0, abs=1e-14)  # ten chances, each floored by under 2.3e-16
