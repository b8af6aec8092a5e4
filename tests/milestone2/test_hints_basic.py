"""Milestone 2c, basic hints: the basic-strategy play with a reason in plain words (5 points).

``blackjack.hints.basic_advice(player_cards, upcard, rules=None)`` returns
``(action, reason)``. Cards may be point values (ace = 1). The default rules are
``Rules()``: 6 decks, dealer stands on soft 17, double after split, no surrender.
"""

from __future__ import annotations

import pytest

from blackjack import Action, Card, Rules
from blackjack.hints import basic_advice

PART = "hints"


@pytest.mark.points(2)
def test_stand_on_16_against_6() -> None:
    """16 against a dealer 6: stand, and say the dealer is likely to bust."""
    action, reason = basic_advice([10, 6], 6)
    assert action is Action.STAND, f"basic_advice([10, 6], 6) should say STAND (the dealer 6 busts often); got {action}"
    assert "bust" in reason.lower(), f"the reason should mention that the dealer may bust; got {reason!r}"


@pytest.mark.points(1)
def test_double_11_against_6() -> None:
    """11 against a 6: double down."""
    action, _reason = basic_advice([Card.parse("5h"), Card.parse("6d")], Card.parse("6s"))
    assert action is Action.DOUBLE, f"basic_advice(5-6 vs 6) should say DOUBLE; got {action}"


@pytest.mark.points(1)
def test_always_split_eights() -> None:
    """A pair of 8s is split, even against a 10."""
    action, reason = basic_advice([8, 8], 10)
    assert action is Action.SPLIT, f"basic_advice([8, 8], 10) should say SPLIT; got {action}"
    assert reason, "the reason should not be empty"


@pytest.mark.points(1)
@pytest.mark.hidden
def test_surrender_16_against_10_when_allowed() -> None:
    """16 against a 10 surrenders under late surrender, and hits without it."""
    vegas = Rules.preset("vegas")
    got = basic_advice([10, 6], 10, vegas)[0]
    assert got is Action.SURRENDER, f"with late surrender, 16 vs 10 should SURRENDER; got {got}"
    got = basic_advice([10, 6], 10)[0]
    assert got is Action.HIT, f"without surrender, 16 vs 10 should HIT; got {got}"
