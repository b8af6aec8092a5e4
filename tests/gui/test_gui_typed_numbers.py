"""The Tk table's dialogs read typed numbers with the kit's one reader (issue 33, item 4): a number it
refuses is shown in the dialog in one line, and the dialog stays open with nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]
NOT_NUMBERS = {"4000 zeros": "0" * 4000, "1e999": "1e999", "full-width 1": "１", "arabic-indic 1": "١",
               "10000 characters": "7" * 10_000, "2.5": "2.5"}
#: Each dialog's field: how to open the dialog, the field's variable, and how its refusal starts.
FIELDS = {
    "new game players": ("open_new_game", lambda d: d.players, "players must be a whole number from 1 to 3, got "),
    "new game bankroll": ("open_new_game", lambda d: d.bankroll, "bankroll: an amount must "),
    "rules decks": ("open_rules", lambda d: d.vars["decks"], "decks: a whole number, got "),
}


@pytest.mark.parametrize("typed", NOT_NUMBERS.values(), ids=NOT_NUMBERS.keys())
@pytest.mark.parametrize("field", FIELDS)
def test_a_dialog_shows_a_number_it_refuses_in_one_line(make_app: MakeApp, field: str, typed: str) -> None:
    if field == "new game bankroll" and typed == "2.5":
        pytest.skip("a bankroll may be 2.5 credits")
    opener, variable, start = FIELDS[field]
    app = make_app()
    getattr(app, opener)()
    dialog = app.last_dialog
    variable(dialog).set(typed)
    dialog.ok_button.invoke()
    error = dialog.error.cget("text")
    assert error.startswith(start) and "\n" not in error and len(error) < 160, error[:300]
    assert dialog.winfo_exists() and app.errors == []
