"""Milestone 2c, basic hints: the basic-strategy play with a reason in plain words (5 points).

``blackjack.hints.basic_advice(player_cards, upcard, rules=None)`` returns
``(action, reason)``. Cards may be point values (ace = 1). The default rules are
``Rules()``: 6 decks, dealer stands on soft 17, double after split, no surrender.
"""

from __future__ import annotations

import pytest

from m2_judge_hints import shown
from milestones.judge import Student

PART = "hints"


def advice(student: Student, cards: list[int] | list[str], up: int | str, rules: str | None = None,
           printed: list[str] | None = None) -> tuple[str, str]:
    """``basic_advice(cards, up, rules)`` (``rules``: a preset's name), checked to be an ``(Action, reason)`` pair:
    ``(the action's name, the reason)``; what it printed goes to ``printed``."""
    call = f"basic_advice([{', '.join(map(str, cards))}], {up}{'' if rules is None else f', {rules} rules'})"
    got = student("advice", cards, up, None if rules is None else {"preset": rules})
    if printed is not None:
        printed.append(got["printed"])
    assert got["pair"], f"{call} should return a pair (action, reason); got {shown(got['got'])}"
    action, reason = got["action"], got["reason"]
    assert action is not None, \
        f"{call} should return an Action first (Action.STAND ...); got {shown(got['action_data'])}"
    assert isinstance(reason, str) and reason.strip(), \
        f"{call} should return a reason in plain words second; got {shown(reason)}"
    return action, reason


@pytest.mark.points(1)
def test_stand_on_16_against_6(student: Student) -> None:
    """16 against a dealer 6: stand, and the reason quotes the dealer's chance of busting (42%)."""
    printed: list[str] = []
    action, reason = advice(student, [10, 6], 6, printed=printed)
    assert action == "STAND", \
        f"basic_advice([10, 6], 6) should say STAND (basic strategy: the dealer's 6 busts often); got Action.{action}"
    assert "42" in reason, (f"basic_advice's reason quotes the infinite-deck chance of the dealer busting, as its "
                            f"docstring asks: a 6 up busts 42% of the time; got {reason!r}")
    text = "".join(printed).strip()
    assert not text, (f"basic_advice printed {text[:100]!r}: the engine never prints; "
                      f"return the advice and let the front end show it")


@pytest.mark.points(1)
def test_stand_on_every_hard_17(student: Student) -> None:
    """A hard 17 stands against every upcard, a 7 or an ace too: one more card busts it 9 times in 13."""
    wrong = []
    for cards, up in (([10, 7], 10), ([9, 8], 7), (["Ts", "7d"], "Ah"), ([5, 2, 10], 9)):
        action, _reason = advice(student, cards, up)
        if action != "STAND":
            wrong.append(f"basic_advice([{', '.join(map(str, cards))}], {up}) said {action}")
    assert not wrong, "; ".join(wrong) + " (a hard 17, no ace counted as 11, should STAND against every upcard: " \
        "basic strategy hits 12 to 16 against a 7 or higher, but stands from 17 up, because one more card busts a " \
        "hard 17 9 times in 13 (any 5 or higher) while standing loses less)"


@pytest.mark.points(1)
def test_double_11_against_6(student: Student) -> None:
    """11 against a 6: double down."""
    action, _reason = advice(student, ["5h", "6d"], "6s")
    assert action == "DOUBLE", \
        f"basic_advice([5h, 6d], 6s) should say DOUBLE (basic strategy doubles 11 against 2-10; Cards work like " \
        f"point values); got Action.{action}"


@pytest.mark.points(1)
def test_always_split_eights(student: Student) -> None:
    """A pair of 8s is split, even against a 10."""
    action, _reason = advice(student, [8, 8], 10)
    assert action == "SPLIT", \
        f"basic_advice([8, 8], 10) should say SPLIT (basic strategy always splits 8s: 16 is the worst total); " \
        f"got Action.{action}"


@pytest.mark.points(1)
@pytest.mark.hidden
def test_surrender_16_against_10_when_allowed(student: Student) -> None:
    """16 against a 10 surrenders under late surrender, and hits without it."""
    got = advice(student, [10, 6], 10, "vegas")[0]
    assert got == "SURRENDER", f"with late surrender (vegas), 16 vs 10 should SURRENDER; got Action.{got}"
    got = advice(student, [10, 6], 10)[0]
    assert got == "HIT", f"without surrender (Rules()), 16 vs 10 should HIT; got Action.{got}"
