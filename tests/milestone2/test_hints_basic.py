"""Milestone 2c, basic hints: the basic-strategy play with a reason in plain words (5 points).

``blackjack.hints.basic_advice(player_cards, upcard, rules=None)`` returns
``(action, reason)``. Cards may be point values (ace = 1). The default rules are
``Rules()``: 6 decks, dealer stands on soft 17, double after split, no surrender.
"""

from __future__ import annotations

import pytest

from blackjack import Action, Card, Rules
from blackjack.hints import basic_advice
from m2_helpers import shown

PART = "hints"


def advice(cards: list[int] | list[Card], up: int | Card, rules: Rules | None = None) -> tuple[Action, str]:
    """``basic_advice(cards, up, rules)``, checked to be an ``(Action, reason)`` pair."""
    call = f"basic_advice([{', '.join(map(str, cards))}], {up}{'' if rules is None else f', {rules.name} rules'})"
    got = basic_advice(cards, up, rules)
    assert isinstance(got, tuple) and len(got) == 2, f"{call} should return a pair (action, reason); got {shown(got)}"
    action, reason = got
    assert isinstance(action, Action), f"{call} should return an Action first (Action.STAND ...); got {shown(action)}"
    assert isinstance(reason, str) and reason.strip(), \
        f"{call} should return a reason in plain words second; got {shown(reason)}"
    return action, reason


@pytest.mark.points(2)
def test_stand_on_16_against_6(capsys: pytest.CaptureFixture[str]) -> None:
    """16 against a dealer 6: stand, and the reason quotes the dealer's chance of busting (42%)."""
    action, reason = advice([10, 6], 6)
    assert action is Action.STAND, \
        f"basic_advice([10, 6], 6) should say STAND (basic strategy: the dealer's 6 busts often); got {action}"
    assert "42" in reason, (f"basic_advice's reason quotes the infinite-deck chance of the dealer busting, as its "
                            f"docstring asks: a 6 up busts 42% of the time; got {reason!r}")
    out, err = capsys.readouterr()
    assert not (out + err).strip(), (f"basic_advice printed {(out + err).strip()[:100]!r}: the engine never prints; "
                                     f"return the advice and let the front end show it")


@pytest.mark.points(1)
def test_double_11_against_6() -> None:
    """11 against a 6: double down."""
    action, _reason = advice([Card.parse("5h"), Card.parse("6d")], Card.parse("6s"))
    assert action is Action.DOUBLE, \
        f"basic_advice([5h, 6d], 6s) should say DOUBLE (basic strategy doubles 11 against 2-10; Cards work like " \
        f"point values); got {action}"


@pytest.mark.points(1)
def test_always_split_eights() -> None:
    """A pair of 8s is split, even against a 10."""
    action, _reason = advice([8, 8], 10)
    assert action is Action.SPLIT, \
        f"basic_advice([8, 8], 10) should say SPLIT (basic strategy always splits 8s: 16 is the worst total); got {action}"


@pytest.mark.points(1)
@pytest.mark.hidden
def test_surrender_16_against_10_when_allowed() -> None:
    """16 against a 10 surrenders under late surrender, and hits without it."""
    vegas = Rules.preset("vegas")
    got = advice([10, 6], 10, vegas)[0]
    assert got is Action.SURRENDER, f"with late surrender (vegas), 16 vs 10 should SURRENDER; got {got}"
    got = advice([10, 6], 10)[0]
    assert got is Action.HIT, f"without surrender (Rules()), 16 vs 10 should HIT; got {got}"
