"""Dialogs and menus in a real window: bad input is shown in the dialog, good input changes the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gui.dialogs import ABOUT, HELP_KEYS

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]


class TestStackDialog:
    def test_unknown_card_code_is_shown_in_the_dialog(self, make_app: MakeApp) -> None:
        """Stacking "As Zx" shows the unknown-code message and leaves the dialog open."""
        app = make_app()
        app.open_stack()
        dialog = app.last_dialog
        dialog.codes.set("As Zx")
        dialog.ok_button.invoke()
        assert "Zx" in dialog.error.cget("text") and dialog.winfo_exists()

    def test_no_copy_left_is_shown_in_the_dialog(self, make_app: MakeApp) -> None:
        """Two aces of spades cannot be stacked on a single deck: the engine's message is shown."""
        app = make_app(rules="single_deck")
        app.open_stack()
        dialog = app.last_dialog
        dialog.codes.set("As As")
        dialog.ok_button.invoke()
        assert "no copy of it is left" in dialog.error.cget("text")

    def test_stacked_cards_are_dealt(self, make_app: MakeApp) -> None:
        """Stacking "Ah 9c Kh 7d" through the dialog deals Ann A-K against a 9."""
        app = make_app()
        app.open_stack()
        dialog = app.last_dialog
        dialog.codes.set("Ah 9c Kh 7d")
        dialog.ok_button.invoke()
        app.place_bet(0, 10)
        app.buttons["deal"].invoke()
        app.settle()
        assert not dialog.winfo_exists() and app.table.card_codes("hand_0_0") == ["Ah", "Kh"]


class TestNewGameDialog:
    def test_bad_bankroll_is_shown(self, make_app: MakeApp) -> None:
        """A bankroll of "abc" is refused inside the dialog."""
        app = make_app()
        app.open_new_game()
        dialog = app.last_dialog
        dialog.bankroll.set("abc")
        dialog.ok_button.invoke()
        assert "abc" in dialog.error.cget("text") and dialog.winfo_exists()

    def test_duplicate_names_are_refused(self, make_app: MakeApp) -> None:
        """Two players called Ann are refused."""
        app = make_app()
        app.open_new_game()
        dialog = app.last_dialog
        dialog.players.set("2")
        dialog.names[0].set("Ann")
        dialog.names[1].set("Ann")
        dialog.ok_button.invoke()
        assert dialog.error.cget("text") == "player names must differ, got Ann, Ann"

    @pytest.mark.parametrize("name, message", [("   ", "a player needs a name"),
                                               ("x" * 500, "a player's name may have at most 20 characters, got 500")])
    def test_bad_name_is_shown_and_the_game_stays(self, make_app: MakeApp, name: str, message: str) -> None:
        """An empty or overlong name is refused inside the dialog with the engine's reason; the old game stays."""
        app = make_app()
        game = app.game
        app.open_new_game()
        dialog = app.last_dialog
        dialog.names[0].set(name)
        dialog.ok_button.invoke()
        assert dialog.error.cget("text") == message and dialog.winfo_exists() and app.game is game

    def test_three_players_take_three_seats(self, make_app: MakeApp) -> None:
        """A new game for Ann, Bob and Cy with 200 credits under Thunderjack seats three players."""
        app = make_app()
        app.open_new_game()
        dialog = app.last_dialog
        dialog.players.set("3")
        for var, name in zip(dialog.names, ("Ann", "Bob", "Cy")):
            var.set(name)
        dialog.bankroll.set("200")
        dialog.preset.set("thunderjack")
        dialog.ok_button.invoke()
        assert [app.table.texts(f"name{i}") for i in range(3)] == [["Ann"], ["Bob"], ["Cy"]]
        assert app.table.texts("bankroll2") == ["bankroll 200"] and app.game.rules.name == "thunderjack"


class TestRules:
    def test_word_for_a_number_is_shown(self, make_app: MakeApp) -> None:
        """decks = "abc" is refused with a one-line message."""
        app = make_app()
        app.open_rules()
        dialog = app.last_dialog
        dialog.vars["decks"].set("abc")
        dialog.ok_button.invoke()
        assert dialog.error.cget("text") == "decks: a whole number, got 'abc'"

    def test_engine_rejects_impossible_rules(self, make_app: MakeApp) -> None:
        """Nine decks are refused with the engine's RulesError message."""
        app = make_app()
        app.open_rules()
        dialog = app.last_dialog
        dialog.vars["decks"].set("9")
        dialog.ok_button.invoke()
        assert dialog.error.cget("text") == "decks must be 1..8, got 9"

    def test_switch_changes_the_table(self, make_app: MakeApp) -> None:
        """Switching on "dealer hits soft 17" is printed on the felt."""
        app = make_app()
        app.open_rules()
        dialog = app.last_dialog
        dialog.vars["dealer_hits_soft_17"].set(True)
        dialog.ok_button.invoke()
        assert any("DEALER HITS SOFT 17" in text for text in app.table.texts("felt"))

    def test_preset_menu_keeps_players_and_money(self, make_app: MakeApp) -> None:
        """Changing to the downtown preset after a lost round keeps Ann's 990 credits."""
        app = make_app(stack="Ts 9d 6h 8c Kd")
        app.place_bet(0, 10)
        app.buttons["deal"].invoke()
        app.buttons["hit"].invoke()
        app.preset.set("downtown")
        app.set_rules(app.game.rules.preset("downtown"))
        assert app.game.rules.name == "downtown" and app.table.texts("bankroll0") == ["bankroll 990"]

    def test_preset_with_too_few_seats_is_refused(self, make_app: MakeApp) -> None:
        """Four players cannot move to the three-seat Thunderjack table: a message box says so."""
        app = make_app(["A", "B", "C", "D"])
        app.set_rules(app.game.rules.preset("thunderjack"))
        assert app.messages.shown[-1][2] == "the thunderjack table seats at most 3 players"
        assert app.game.rules.name == "vegas"


class TestHelp:
    def test_keyboard_help(self, make_app: MakeApp) -> None:
        """F1 opens the keyboard shortcuts."""
        app = make_app()
        app.root.event_generate("<F1>")
        app.root.update()
        assert app.last_dialog.text == HELP_KEYS and "H        Hit" in HELP_KEYS

    def test_about_box(self, make_app: MakeApp) -> None:
        """Help ▸ About shows the About text in a message box."""
        app = make_app()
        help_menu = app.menubar.nametowidget(app.menubar.entrycget("Help", "menu"))
        help_menu.invoke("About")
        assert app.messages.shown == [("showinfo", "About Blackjack Kit", ABOUT)]
