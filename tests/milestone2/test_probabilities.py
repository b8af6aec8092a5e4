"""Milestone 2d, static probabilities: dealer outcomes, bust chances and expected values (20 points).

* ``dealer_probabilities(upcard, shoe=None, rules=None)`` -> ``{"17", "18", "19", "20",
  "21", "bust", "blackjack": probability}`` summing to 1. ``shoe=None`` is an infinite
  deck; a dict ``{point value: count}`` is the cards still unseen.
* ``bust_probability(player_cards, shoe=None)`` -> the chance one more card busts.
* ``expected_values(player_cards, upcard, shoe=None, rules=None)`` -> ``{Action: EV}`` per
  unit of the initial bet, conditioned on the dealer not having blackjack when the
  dealer peeks.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from blackjack import Action, Rules
from blackjack.hints import bust_probability, dealer_probabilities, expected_values

PART = "probabilities"


def one_deck_without(*values: int) -> dict[int, int]:
    counts = {v: 4 for v in range(1, 10)}
    counts[10] = 16
    for v in values:
        counts[v] -= 1
    return counts


@pytest.mark.points(3)
def test_dealer_probabilities_sum_to_one() -> None:
    """For every upcard the dealer's outcomes add up to 1 (infinite deck and one deck)."""
    for up in range(1, 11):
        for shoe in (None, one_deck_without(up)):
            got = dealer_probabilities(up, shoe)
            assert set(got) == {"17", "18", "19", "20", "21", "bust", "blackjack"}, \
                f"dealer_probabilities({up}) should have the keys 17..21, bust, blackjack; got {sorted(got)}"
            total = sum(got.values())
            assert abs(total - 1) < 1e-9, f"dealer_probabilities({up}, {shoe}) should sum to 1; got {total}"


@pytest.mark.points(3)
def test_dealer_bust_infinite_deck() -> None:
    """Infinite deck, dealer stands on soft 17: a 6 busts 42.32%, a 10 21.21% (Wizard of Odds)."""
    got = dealer_probabilities(6)["bust"]
    assert abs(got - 0.4232) < 1e-4, f"dealer_probabilities(6) should give bust ≈ 0.4232 for an infinite deck; got {got:.4f}"
    got = dealer_probabilities(10, rules=Rules(dealer_peeks=False))["bust"]
    assert abs(got - 0.2121) < 1e-4, f"a 10 up (no peek) should bust ≈ 0.2121; got {got:.4f}"


@pytest.mark.points(3)
def test_dealer_tens_and_sixes() -> None:
    """Upcard 6 with two 6s and two tens left: the dealer makes 18 one time in 6 and busts otherwise."""
    got = dealer_probabilities(6, {6: 2, 10: 2})
    assert abs(got["18"] - 1 / 6) < 1e-12, f"18 should have chance 1/6 (hole 6 then a 6); got {got['18']}"
    assert abs(got["bust"] - 5 / 6) < 1e-12, f"bust should have chance 5/6; got {got['bust']}"


@pytest.mark.points(1)
def test_dealer_peeked_ace_has_no_blackjack() -> None:
    """After the peek, an ace up has blackjack 0; without it the chance is 4/13 (infinite deck)."""
    got = dealer_probabilities(1, peeked=True)["blackjack"]
    assert got == 0, f"a peeked ace has no blackjack; got {got}"
    got = dealer_probabilities(1, peeked=False)["blackjack"]
    assert abs(got - 4 / 13) < 1e-12, f"an ace up has blackjack with chance 4/13 before the peek; got {got}"


@pytest.mark.points(2)
def test_bust_probability_infinite() -> None:
    """Hard 16 busts on a 6, 7, 8, 9 or ten-card: 8/13; a soft 17 cannot bust."""
    got = bust_probability([10, 6])
    assert abs(got - 8 / 13) < 1e-12, f"bust_probability([10, 6]) should be 8/13 ≈ 0.6154; got {got:.4f}"
    got = bust_probability([1, 6])
    assert got == 0, f"a soft 17 (ace-6) cannot bust with one card; got {got}"


@pytest.mark.points(2)
def test_bust_probability_from_the_shoe() -> None:
    """With three tens and a five left, 16 busts 3 times in 4."""
    got = bust_probability([10, 6], {10: 3, 5: 1})
    assert abs(got - 0.75) < 1e-12, f"bust_probability([10, 6], {{10: 3, 5: 1}}) should be 0.75; got {got}"


@pytest.mark.points(3)
def test_stand_20_against_6_by_enumeration() -> None:
    """Standing on 10-10 against a 6 from one deck: EV = P(dealer < 20 or bust) - P(dealer 21)."""
    shoe = one_deck_without(10, 10, 6)
    dealer = dealer_probabilities(6, shoe)
    want = dealer["17"] + dealer["18"] + dealer["19"] + dealer["bust"] - dealer["21"]
    got = expected_values([10, 10], 6, shoe)[Action.STAND]
    assert abs(got - want) < 1e-12, f"EV of standing on 20 vs 6 should be {want:.6f}; got {got:.6f}"
    assert 0.6 < got < 0.8, f"standing on 20 vs 6 wins most of the time (EV ≈ +0.70); got {got:.4f}"


@pytest.mark.points(2)
@pytest.mark.hidden
def test_16_against_10_infinite_deck() -> None:
    """16 vs 10, infinite deck: stand -0.5404, hit -0.5398, so hitting is (barely) better."""
    evs = expected_values([10, 6], 10)
    assert abs(evs[Action.STAND] - -0.5404) < 1e-4, f"stand 16 vs 10 should be ≈ -0.5404; got {evs[Action.STAND]:.4f}"
    assert abs(evs[Action.HIT] - -0.5398) < 1e-4, f"hit 16 vs 10 should be ≈ -0.5398; got {evs[Action.HIT]:.4f}"


@pytest.mark.points(1)
def test_surrender_and_legal_actions() -> None:
    """Under late surrender, 16 vs 10 lists stand, hit, double and surrender (-0.5); no split for 10-6."""
    evs = expected_values([10, 6], 10, None, Rules.preset("vegas"))
    assert set(evs) == {Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER}, \
        f"10-6 vs 10 under vegas rules should offer stand, hit, double, surrender; got {sorted(a.value for a in evs)}"
    assert evs[Action.SURRENDER] == -0.5, f"surrender gives back half the bet: EV -0.5; got {evs[Action.SURRENDER]}"
    assert evs[Action.DOUBLE] < evs[Action.HIT], "doubling 16 vs 10 should be worse than hitting"


@pytest.mark.points(0)
def test_exact_fractions_are_available() -> None:
    """(Ungraded) exact=True returns fractions."""
    got = dealer_probabilities(6, {6: 2, 10: 2}, exact=True)
    assert got["18"] == Fraction(1, 6)
