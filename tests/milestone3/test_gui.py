"""Milestone 3 (extra credit, 15 points): the base GUI. The player can choose hit or stand, and the GUI reports the result.

You write two functions in ``gui/logic.py``; the window (``gui/app.py``) calls them every
time it redraws:

* ``button_states(view)``: which buttons of the action bar are enabled. An action
  button (Hit, Stand, ...) is enabled exactly when its action is in
  ``view.legal_actions``; Deal only while betting; New round when the round is over.
* ``result_text(outcome)``: the label under a finished hand, e.g. ``"WIN +10"``.

The first tests call the functions directly. The last ones open the real window (they
need a display; see ``tests/milestone3/conftest.py``) at a Las Vegas table, bet 10
credits, press its buttons, and read what the table canvas shows.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from blackjack import Action, Blackjack, Outcome, Result, Rules

CS111 = Rules.preset("cs111")


def enabled_names(states: dict[str, bool]) -> list[str]:
    return sorted(name for name, on in states.items() if on)


@pytest.mark.points(3)
def test_buttons_follow_the_legal_actions() -> None:
    """In a cs111 round with T-6 against a 9, only Hit and Stand are enabled."""
    from gui.logic import button_states
    game = Blackjack(["Ann"], CS111, seed=1)
    game.shoe.stack("Th 9c 6d 8s".split())
    view = game.start_round().view()
    got = enabled_names(button_states(view))
    assert got == ["hit", "stand"], (
        f"button_states(view) should enable exactly the buttons of view.legal_actions (hit and stand here, "
        f"Deal and New round off during play); it enabled {got}")


@pytest.mark.points(2)
def test_deal_while_betting_new_round_when_settled() -> None:
    """Deal is the only button while betting; New round the only one when the round is settled."""
    from gui.logic import button_states
    game = Blackjack(["Ann"], CS111, seed=1)
    betting = enabled_names(button_states(game.new_round().view()))
    assert betting == ["deal"], f"while betting (Phase.BETTING) only 'deal' should be enabled, got {betting}"
    game.shoe.stack("Th 9c 6d 8s Kc".split())
    rnd = game.start_round()
    rnd.apply(Action.HIT)  # T + 6 + K = 26: bust, the round is settled
    settled = enabled_names(button_states(rnd.view()))
    assert settled == ["new_round"], f"after the round is settled only 'new_round' should be enabled, got {settled}"


@pytest.mark.points(1)
def test_result_text_for_a_win() -> None:
    """A win of 10 credits reads "WIN +10"."""
    from gui.logic import result_text
    got = result_text(Outcome(Result.WIN, Fraction(10), Fraction(10)))
    assert got == "WIN +10", f'result_text of a 10-credit win should be "WIN +10" (label, space, signed net), got {got!r}'


@pytest.mark.points(1)
def test_result_text_for_a_bust() -> None:
    """A bust of a 10-credit bet reads "BUST -10"."""
    from gui.logic import result_text
    got = result_text(Outcome(Result.BUST, Fraction(10), Fraction(-10)))
    assert got == "BUST -10", f'result_text of a 10-credit bust should be "BUST -10", got {got!r}'


@pytest.mark.points(1)
def test_result_text_for_a_push() -> None:
    """A push reads "PUSH 0": no sign on zero."""
    from gui.logic import result_text
    got = result_text(Outcome(Result.PUSH, Fraction(10), Fraction(0)))
    assert got == "PUSH 0", f'result_text of a push should be "PUSH 0" (no + on zero), got {got!r}'


@pytest.mark.gui
@pytest.mark.points(4)
def test_window_hit_then_stand_reports_the_win(table: Callable[[str, str], Any]) -> None:
    """In the window: T-2 hits a 5 (17), stands; the dealer's 9-7 draws a K and busts: the hand reads "WIN +10"."""
    app = table("vegas", "Th 9c 2d 7s 5h Kc")
    app.place_bet(0, 10)
    app.buttons["deal"].invoke()
    assert app.buttons["hit"].instate(["!disabled"]), "after Deal the Hit button should be enabled"
    app.buttons["hit"].invoke()
    app.buttons["stand"].invoke()
    app.settle()
    shown = app.table.texts("result_0_0")
    assert shown == ["WIN +10"], f'after hit and stand the dealer busts: the table should show "WIN +10", shows {shown}'


@pytest.mark.gui
@pytest.mark.points(3)
def test_window_hit_to_bust_reports_the_bust(table: Callable[[str, str], Any]) -> None:
    """In the window: T-6 hits a K (26): the hand reads "BUST -10" and only New round is enabled."""
    app = table("vegas", "Th 9c 6d 7s Kc")
    app.place_bet(0, 10)
    app.buttons["deal"].invoke()
    app.buttons["hit"].invoke()
    app.settle()
    shown = app.table.texts("result_0_0")
    assert shown == ["BUST -10"], f'after busting the table should show "BUST -10", shows {shown}'
    lit = sorted(name for name, button in app.buttons.items() if button.instate(["!disabled"]))
    assert lit == ["new_round"], f"after the round only New round should be enabled, got {lit}"
