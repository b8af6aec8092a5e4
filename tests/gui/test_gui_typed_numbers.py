"""The Tk table's dialogs read typed numbers with the kit's one reader (issue 33, item 4): a number it
refuses is shown in the dialog in one line, and the dialog stays open with nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]
NOT_NUMBERS = ["0" * 4000, "1e999", "１", "١", "7" * 10_000, "2.5"]
IDS = ["4000 zeros", "1e999", "full-width 1", "arabic-indic 1", "10000 characters", "2.5"]


@pytest.mark.parametrize("typed", NOT_NUMBERS, ids=IDS)
def test_new_game_players_that_are_no_number_are_shown(make_app: MakeApp, typed: str) -> None:
    app = make_app()
    app.open_new_game()
    dialog = app.last_dialog
    dialog.players.set(typed)
    dialog.ok_button.invoke()
    error = dialog.error.cget("text")
    assert error.startswith("players must be a whole number from 1 to 3, got ") and "\n" not in error
    assert len(error) < 120 and dialog.winfo_exists() and app.errors == []


@pytest.mark.parametrize("typed", NOT_NUMBERS[:-1], ids=IDS[:-1])  # a bankroll may be 2.5
def test_new_game_bankroll_that_is_no_number_is_shown(make_app: MakeApp, typed: str) -> None:
    app = make_app()
    app.open_new_game()
    dialog = app.last_dialog
    dialog.bankroll.set(typed)
    dialog.ok_button.invoke()
    error = dialog.error.cget("text")
    assert error and "\n" not in error and len(error) < 200 and dialog.winfo_exists() and app.errors == []


@pytest.mark.parametrize("typed", NOT_NUMBERS, ids=IDS)
def test_rules_decks_that_are_no_number_are_shown(make_app: MakeApp, typed: str) -> None:
    app = make_app()
    app.open_rules()
    dialog = app.last_dialog
    dialog.vars["decks"].set(typed)
    dialog.ok_button.invoke()
    error = dialog.error.cget("text")
    assert error.startswith("decks: a whole number, got ") and "\n" not in error and len(error) < 120
    assert dialog.winfo_exists() and app.errors == []
