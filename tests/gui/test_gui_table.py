"""The table as a player meets it: it fits a small screen, keeps its books across a rules change, answers its keys,
and shows what the engine says (shoe, stakes, payouts, chips), driven through the real widgets.

Rounds are dealt from a stacked shoe (deal order: one card to each seat, the dealer's
upcard, the second cards, the hole card, then hits in turn). Vegas rules unless said.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import tkinter as tk
from tkinter import ttk

import pytest

from blackjack import Action, Phase, Rules
from gui.dialogs import HELP_KEYS, HELP_RULES

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]

#: The room a window must leave on the screen for its title bar (about 30 pixels) and a desktop panel (about 30).
TITLE_AND_PANEL = 60


#: Opens the table on the display in $DISPLAY with three seats and hints on, plays to Cy's decision (2-2 against a 6,
#: the longest hint), and prints the screen's size and each part's box relative to the window as JSON.
SMALL_SCREEN_SCRIPT = """
import json, tkinter as tk
from blackjack import Action, Rules
from gui.app import App
from gui.testing import Mbox
root = tk.Tk()
app = App(root, ["Ann", "Bob", "Cy"], Rules.preset("vegas"), seed=7, stack="Ts 9c 2d 6d 8h 8c 2h 9s".split(),
          animations=False, modal=False, messages=Mbox(), hints=True)
root.update()
for seat in range(3):
    app.place_bet(seat, 10)
app.deal()
app.act(Action.STAND)
app.act(Action.STAND)
app.settle()
parts = {"side column": app.side, "hint panel": app.hint_panel, "count panel": app.count_panel,
         "coach mode": app.coach_panel.check, "drill box": app.coach_panel.drill_box,
         "New round": app.buttons["new_round"], "Same bet again": app.same_button, "status line": app.status,
         "table": app.table}
print(json.dumps({
    "screen": [root.winfo_screenwidth(), root.winfo_screenheight()],
    "window": [root.winfo_width(), root.winfo_height(), root.winfo_reqwidth(), root.winfo_reqheight()],
    "parts": {name: [w.winfo_ismapped(), w.winfo_rootx() - root.winfo_rootx(), w.winfo_rooty() - root.winfo_rooty(),
                     w.winfo_width(), w.winfo_height(), w.winfo_reqwidth()] for name, w in parts.items()},
    "errors": app.errors}))
app.close()
"""


def on_a_small_screen(script: str) -> dict[str, Any]:
    """Run ``script`` in a fresh Python on a private 1024 x 768 X screen and return the JSON it prints.

    A process of its own, because Tk keeps its connection to a display until the process
    ends: this one's tests would stop with it when that screen's Xvfb is stopped.
    """
    from gui.testing import NoDisplay, xvfb
    root = Path(__file__).resolve().parents[2]
    try:
        with xvfb("1024x768x24") as name:
            env = {**os.environ, "DISPLAY": name, "PYTHONPATH": str(root)}
            done = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                                  timeout=120)
    except NoDisplay as err:
        pytest.skip(str(err))
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def menu(app: Any, title: str) -> Any:
    """The menu under ``title`` in the window's menu bar."""
    return app.root.nametowidget(app.menubar.entrycget(app.menubar.index(title), "menu"))


def press(widget: Any, key: str) -> None:
    """Press and release a key in ``widget``, as a person typing there would (``key`` is a keysym)."""
    widget.event_generate(f"<KeyPress-{key}>")
    widget.event_generate(f"<KeyRelease-{key}>")
    widget.update()


def descendant(window: Any, kind: type) -> Any:
    """The first widget of class ``kind`` inside ``window`` (depth first)."""
    todo = list(window.winfo_children())
    while todo:
        widget = todo.pop(0)
        if isinstance(widget, kind):
            return widget
        todo.extend(widget.winfo_children())
    raise LookupError(f"no {kind.__name__} in {window}")


class TestSmallScreen:
    """On a 1024 x 768 screen the table, its side column and the strategy chart are on screen whole."""

    def test_the_table_fits_with_its_side_column(self) -> None:
        """Three seats, hints on, a decision waiting (the hint panel at its tallest): the window with a title bar
        fits 1024 x 768, and the side column, the coach's controls, the last action button, the betting rail's
        last button and the status line lie whole inside it, none squeezed below the width it asks for."""
        shown = on_a_small_screen(SMALL_SCREEN_SCRIPT)
        assert shown["screen"] == [1024, 768] and shown["errors"] == []
        width, height, wants, _ = shown["window"]
        assert width <= 1024 and height + TITLE_AND_PANEL <= 768 and wants <= width, shown["window"]
        for name, (mapped, x, y, w, h, asks) in shown["parts"].items():
            assert mapped and w >= asks, (name, w, asks)
            assert 0 <= x and x + w <= width and 0 <= y and y + h <= height, (name, x, y, w, h, width, height)

    def test_the_strategy_chart_fits_768_pixels(self, make_app: MakeApp) -> None:
        """The chart window (every row of hard, soft and pairs) with a title bar fits 1024 x 768, and every cell
        and the legend lie inside its canvas."""
        app = make_app(stack="As 9d 7h 8c")
        app.place_bet(0, 10)
        app.deal()
        menu(app, "View").invoke("Strategy chart")
        app.settle()
        window = app.study.chart_window
        window.update()
        assert window.winfo_height() + TITLE_AND_PANEL <= 768 and window.winfo_width() <= 1024, \
            window.winfo_geometry()
        canvas = window.canvas
        assert len(canvas.find_withtag("cell")) == 34 * 10
        right, bottom = canvas.winfo_width(), canvas.winfo_height()
        for item in (*canvas.find_withtag("cell"), *canvas.find_withtag("legend")):
            x1, y1, x2, y2 = canvas.bbox(item)
            assert 0 <= x1 and x2 <= right and 0 <= y1 and y2 <= bottom, (canvas.gettags(item), right, bottom)


def play_and_win(app: Any) -> None:
    """Deal from a stacked 18 against the dealer's 17 (bet already placed), stand: a win of the bet."""
    app.game.shoe.stack("Ts 9d 8h 8c".split())
    app.buttons["deal"].invoke()
    app.buttons["stand"].invoke()
    assert app.round_view.phase is Phase.SETTLED


class TestRulesChange:
    """A rules change between rounds (the Rules menu) keeps the session going."""

    def test_ledger_rounds_count_on(self, make_app: MakeApp) -> None:
        """A round at Vegas, the Rules menu's Atlantic City, a round there: the ledger (and the session
        window's) number the rounds 1 and 2, not 1 and 1."""
        app = make_app()
        app.place_bet(0, 10)
        play_and_win(app)
        menu(app, "Rules").invoke("Atlantic City")
        assert app.game.rules.name == "atlantic_city" and app.round_view.phase is Phase.BETTING
        app.place_bet(0, 20)
        play_and_win(app)
        app.buttons["new_round"].invoke()
        assert [(row.round, row.results, row.net) for row in app.study.ledger_rows] == [(1, "WIN", 10), (2, "WIN", 20)]
        app.open_session()
        ledger = app.study.session_window.ledger
        assert [ledger.item(row)["values"][0] for row in ledger.get_children()] == [1, 2]

    def test_same_bet_again_after_a_rules_change(self, make_app: MakeApp) -> None:
        """Bet 10 and play at Vegas, switch to Atlantic City: Same bet again puts 10 in the circle."""
        app = make_app()
        app.place_bet(0, 10)
        play_and_win(app)
        menu(app, "Rules").invoke("Atlantic City")
        app.same_button.invoke()
        assert app.table.texts("bet_text0") == ["10"] and app.game.round.bet(0) == 10


class TestKeys:
    def test_the_bet_box_does_not_swallow_the_shortcuts(self, make_app: MakeApp) -> None:
        """Type 10 in the bet box and Enter, press Deal: H then hits (pressed where the focus is) and S stands
        (pressed in the bet box itself); no letter lands in the box."""
        app = make_app(stack="Th 9c 2d 8s 5h")  # Ann 12 against a 9; a hit brings 5: 17
        box = next(w for w in app.same_button.master.winfo_children()
                   if isinstance(w, ttk.Entry) and not isinstance(w, ttk.Combobox))  # the bet box
        box.focus_force()
        for key in ("1", "0", "Return"):
            press(box, key)
        assert app.game.round.bet(0) == 10
        app.buttons["deal"].invoke()
        press(app.root.focus_get() or app.root, "h")
        assert app.table.card_codes("hand_0_0") == ["Th", "2d", "5h"]
        press(box, "s")
        assert app.round_view.phase is Phase.SETTLED and app.bet_entry.get() == "10"


class TestCount:
    def test_cards_left_agrees_with_the_shoe(self, make_app: MakeApp) -> None:
        """The count panel's cards left is the number on the table's shoe: before the deal, while the hole card is
        down (then marked "+ hole card", the card the true count also counts as unseen) and once it is turned."""
        app = make_app(stack="Ts 9d 8h 8c")

        def numbers() -> tuple[int, str]:
            shoe = re.fullmatch(r"shoe: (\d+) cards", app.table.texts("shoe_text")[0])
            left = re.search(r"cards left +(\d+)(.*)", app.count_panel.text)
            assert shoe and left, (app.table.texts("shoe_text"), app.count_panel.text)
            assert int(shoe.group(1)) == int(left.group(1))
            return int(left.group(1)), left.group(2)

        assert numbers() == (312, "")
        app.place_bet(0, 10)
        app.deal()
        assert numbers() == (308, " + hole card")
        app.act(Action.STAND)
        assert numbers() == (308, "")


class TestBetCircle:
    @pytest.mark.parametrize(("stack", "actions", "shown"), [
        ("5h 9c 6d 8s Th", [Action.DOUBLE], "20"),                    # 11 against a 9: doubled to 20
        ("8s 6d 8h Th Tc Kd", [Action.SPLIT, Action.STAND, Action.STAND], "20"),  # 8-8 split: 10 on each hand
        ("8s 6d 8h Th 3c 9c Kd", [Action.SPLIT, Action.DOUBLE, Action.STAND], "30"),  # split, double the first
    ])
    def test_the_circle_shows_what_is_on_the_table(self, make_app: MakeApp, stack: str, actions: list[Action],
                                                   shown: str) -> None:
        """A bet of 10 reads 10 until it is doubled or split; then the circle shows every credit on the table."""
        app = make_app(stack=stack)
        app.place_bet(0, 10)
        app.deal()
        assert app.table.texts("bet_text0") == ["10"]
        for action in actions:
            app.act(action)
        assert app.table.texts("bet_text0") == [shown]
        assert sum(hand.bet for hand in app.round_view.seats[0].hands) == int(shown)


class TestCloseKeys:
    @pytest.mark.parametrize("key", ["Escape", "Control-w"])
    @pytest.mark.parametrize("which", ["chart", "rules help", "keys help", "session"])
    def test_escape_and_ctrl_w_close_the_window(self, make_app: MakeApp, which: str, key: str) -> None:
        """Escape or Ctrl+W, pressed inside the strategy chart, a help window or the session window, closes it;
        the table stays open."""
        app = make_app()
        if which == "chart":
            menu(app, "View").invoke("Strategy chart")
            window, inner = app.study.chart_window, app.study.chart_window.canvas
        elif which == "session":
            menu(app, "View").invoke("Session chart and ledger")
            window, inner = app.study.session_window, app.study.session_window.ledger
        else:
            menu(app, "Help").invoke("Rules of blackjack" if which == "rules help" else "Keyboard shortcuts")
            window = app.last_dialog
            inner = descendant(window, tk.Text)
        app.settle()
        inner.focus_force()
        inner.event_generate(f"<{key}>")
        app.root.update()
        assert not window.winfo_exists() and app.root.winfo_exists()
        if which == "chart":
            assert app.study.chart_window is None


class TestHelp:
    @pytest.mark.parametrize("title, text", [("Rules of blackjack", HELP_RULES), ("Keyboard shortcuts", HELP_KEYS)])
    def test_the_help_text_scrolls(self, make_app: MakeApp, title: str, text: str) -> None:
        """A help window fits a 1024 x 768 screen; its text has a scroll bar, and Page Down and End bring the
        last line into view (the rules page is longer than the window)."""
        app = make_app()
        menu(app, "Help").invoke(title)
        window = app.last_dialog
        window.update()
        assert window.winfo_height() + TITLE_AND_PANEL <= 768
        box, scrollbar = descendant(window, tk.Text), descendant(window, ttk.Scrollbar)
        assert scrollbar.winfo_ismapped() and box.cget("yscrollcommand")
        assert box.get("1.0", "end-1c") == text
        longer = box.yview()[1] < 1.0
        assert longer == (title == "Rules of blackjack")
        if longer:
            press(box, "Next")
            assert box.yview()[0] > 0.0
            press(box, "Home")
            assert box.yview()[0] == 0.0
        press(box, "End")
        assert box.yview()[1] == 1.0 and box.dlineinfo("end-1c") is not None
        assert scrollbar.get() == pytest.approx(box.yview())


class TestBanner:
    @pytest.mark.parametrize(("rules", "bonus"), [
        (Rules.preset("thunderjack"), "THUNDERJACK PAYS 3 TO 1  ·  BLITZ (6 CARDS) PAYS 5 TO 1"),
        (dataclasses.replace(Rules.preset("thunderjack"), thunderjack_pays=Fraction(2), charlie_cards=5,
                             charlie_pays=Fraction(7, 2)), "THUNDERJACK PAYS 2 TO 1  ·  BLITZ (5 CARDS) PAYS 7 TO 2"),
        (dataclasses.replace(Rules.preset("vegas"), charlie_cards=7), "BLITZ (7 CARDS) PAYS 1 TO 1"),
        (Rules.preset("vegas"), None),
    ])
    @pytest.mark.parametrize("geometry", ["980x620", "1600x1000"])
    def test_bonus_payouts_on_the_felt(self, make_app: MakeApp, rules: Rules, bonus: str | None,
                                       geometry: str) -> None:
        """The felt prints the rules' Thunderjack and Blitz payouts under the dealer's rule, above the natural's
        payout; a table without them prints none. With three seats dealt, no banner line touches a card or a
        bet circle."""
        app = make_app(["Ann", "Bob", "Cy"], rules, stack="9s 9h 9d 6c 7s 7h 7d Tc")
        app.root.geometry(geometry)
        app.root.update()
        for seat in range(3):
            app.place_bet(seat, 10)
        app.deal()
        table = app.table
        printed = table.texts("felt")
        assert [text for text in printed if "THUNDERJACK PAYS" in text or "BLITZ" in text] == ([bonus] if bonus else [])
        assert printed.index("BLACKJACK PAYS 3 TO 2") == 0
        assert printed[-1].startswith("DEALER STANDS ON ALL 17s")
        lines = [table.bbox(item) for item in table.find_withtag("felt") if table.type(item) == "text"]
        assert [box[1] for box in lines] == sorted((box[1] for box in lines), reverse=True)  # drawn bottom up
        for line in lines:
            for other in (*table.find_withtag("card"), *(table.find_withtag(f"bet_circle{i}")[0] for i in range(3))):
                box = table.bbox(other)
                assert not (line[0] < box[2] and box[0] < line[2] and line[1] < box[3] and box[1] < line[3]), \
                    (table.gettags(other), box, line)


class TestChips:
    def test_rail_chips_keep_their_colours(self, make_app: MakeApp) -> None:
        """The five chips on the rail have five colours while betting, and five (faded) colours during play."""
        app = make_app(stack="Ts 9d 8h 8c")

        def fills() -> list[str]:
            return [app.chips.itemcget(app.chips.find_withtag(f"chip{value}")[0], "fill")  # the chip's face
                    for value in (1, 5, 25, 100, 500)]

        betting = fills()
        app.place_bet(0, 10)
        app.deal()
        playing = fills()
        assert len(set(betting)) == 5 and len(set(playing)) == 5 and not set(betting) & set(playing)

    @pytest.mark.parametrize(("bet", "chip"), [(1, 1), (3, 1), (5, 5), (30, 25), (100, 100), (500, 500)])
    def test_the_bet_circle_takes_its_largest_chips_colour(self, make_app: MakeApp, bet: int, chip: int) -> None:
        """A bet's circle is filled in the rail's colour of the largest chip in it: 30 is the 25 chip's colour."""
        app = make_app()
        rail = app.chips.itemcget(app.chips.find_withtag(f"chip{chip}")[0], "fill")
        app.bet_entry.set(str(bet))
        app.bet_button.invoke()
        assert app.table.texts("bet_text0") == [str(bet)]
        assert app.table.itemcget("bet_circle0", "fill") == rail


class TestAnimation:
    def test_hit_and_stand_wait_for_the_deal(self, make_app: MakeApp) -> None:
        """With animations on, Hit and Stand (buttons and keys) do nothing until every card of the deal has
        arrived; then H hits."""
        app = make_app(stack="Th 9c 2d 8s 5h", animations=True)
        app.place_bet(0, 10)
        app.buttons["deal"].invoke()
        assert app.events  # the deal is still being shown
        assert app.buttons["hit"].instate(["disabled"]) and app.buttons["stand"].instate(["disabled"])
        app.act(Action.STAND)
        app.buttons["stand"].invoke()
        app.buttons["hit"].invoke()
        press(app.root, "h")  # handled at once, before press lets the window run on
        assert len(app.round_view.seats[0].hands[0].cards) == 2 and app.round_view.phase is Phase.PLAYER_TURN
        app.settle()
        assert not app.events and app.table.card_codes("hand_0_0") == ["Th", "2d"]
        assert app.buttons["hit"].instate(["!disabled"]) and app.buttons["stand"].instate(["!disabled"])
        press(app.root, "h")
        assert len(app.round_view.seats[0].hands[0].cards) == 3
