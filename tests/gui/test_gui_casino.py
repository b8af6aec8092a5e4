"""The table as a player and an accessibility reviewer expect of a casino game (issue 38), read from the window.

Each class is one item of the issue; each test reads the state a person sees from the
widgets and the canvas: the keyboard focus, where cards and chips lie, the panels' and
the status line's text at the moment the felt changes, the controls' sizes. Rounds come
from a stacked shoe (deal order: a card to each seat, the upcard, the second cards, the
hole card, then the cards play calls for) under Vegas rules unless said: 6 decks, S17,
3:2, DAS, late surrender, dealer peeks, 1000 credits.
"""

from __future__ import annotations

import math
import time
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Any

import pytest

from blackjack import Action, Phase, Rules
from gui.cards import chip_stacks
from gui.dialogs import HELP_KEYS
from gui.logic import card_size, preset_title
from test_gui_access import press

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]
#: Ann stands on 19 against a 6; the dealer's 6-T draws a 7 and busts.
STAND_19 = "9s 6d Th Tc 7s"
#: Ann 9-7 against the dealer's ace; the hole card is a king: a dealer blackjack after the insurance offer.
DEALER_BLACKJACK = "9s Ac 7h Kd"


def focused(app: Any) -> str:
    """The name of the control with the keyboard focus: an action button's name, ``chips``, or the widget path."""
    widget = app.root.focus_get()
    names = {str(b): n for n, b in app.buttons.items()}
    names.update({str(app.chips): "chips", str(app.seat_box): "seat box", str(app.bet_box): "bet box"})
    return names.get(str(widget), str(widget))


def ready(app: Any) -> Any:
    """Give the window the keyboard focus as the window manager does (to the control that last had it in the
    window), and let it settle."""
    app.root.focus_lastfor().focus_force()
    app.settle()
    return app


def card_boxes(table: Any, tag: str) -> list[tuple[int, int, int, int]]:
    """The boxes of the cards drawn with ``tag``, left to right as drawn (each card's face, not its shadow)."""
    uids = dict.fromkeys(t for item in table.find_withtag(tag) for t in table.gettags(item) if t.startswith("cardid"))
    return [table.bbox(table.find_withtag(uid)[1]) for uid in uids]


def wait_for(app: Any, tag: str, timeout: float = 10.0) -> None:
    """Run the window until the canvas shows an item tagged ``tag`` (animations on)."""
    deadline = time.monotonic() + timeout
    while not app.table.find_withtag(tag):
        assert time.monotonic() < deadline, f"no {tag} on the table after {timeout} s"
        app.root.update()
        time.sleep(0.002)


class TestInStepWithTheFelt:
    """Item 1: advice and status go with the felt, at the moment the felt changes."""

    @pytest.mark.parametrize("stack, actions, result", [(STAND_19, "s", "WIN +10"),
                                                        (DEALER_BLACKJACK, "n", "LOSE -10")])
    def test_panels_read_the_settled_round_when_its_result_appears(self, make_app: MakeApp, stack: str,
                                                                   actions: str, result: str) -> None:
        """Animated: Ann stands on 19 (the dealer busts), or declines insurance into a dealer blackjack. In the
        same moment as her result label lands on the felt, the hint has no advice left, the count has no
        hole card to add, the status line says the round is over and New round is on."""
        app = ready(make_app(stack=stack, animations=True, hints=True))
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        for key in actions:
            press(app, key)
        wait_for(app, "result_0_0")
        assert app.table.texts("result_0_0") == [result]
        assert "→" not in app.hint_panel.text
        assert "hole card" not in app.count_panel.text
        assert app.status.cget("text").startswith("Round over")
        assert app.buttons["new_round"].instate(["!disabled"])

    def test_advice_goes_the_moment_the_decision_is_over(self, make_app: MakeApp) -> None:
        """Animated: the hint says → STAND for 19; the moment Ann stands (before any card of the dealer's has
        been shown) the hint drops it and the status line stops asking Ann to hit or stand."""
        app = ready(make_app(stack=STAND_19, animations=True, hints=True))
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        assert "→ STAND" in app.hint_panel.text
        press(app, "s")
        assert app.animating
        assert "→" not in app.hint_panel.text
        assert "stand" not in app.status.cget("text").lower()


class TestFocus:
    """Item 2: the keyboard focus follows the play, and every control shows it."""

    def test_focus_goes_to_hit_after_the_deal_and_to_new_round_at_the_end(self, make_app: MakeApp) -> None:
        """After Deal the focus is on Hit, so Space hits; once the round is over it is on New round, so Space
        opens the next round (and leaves the hint panel shown)."""
        app = ready(make_app(stack="Th 6d 2s 9c 5h 4d", hints=True))
        app.place_bet(0, 10)
        press(app, "Return")
        assert app.round_view.phase is Phase.PLAYER_TURN and focused(app) == "hit"
        press(app, "space")  # T-2 hits a 5: 17
        assert len(app.round_view.seats[0].hands[0].cards) == 3
        press(app, "s")
        assert app.round_view.phase is Phase.SETTLED and focused(app) == "new_round"
        press(app, "space")
        assert app.round_view.phase is Phase.BETTING and app.hint_panel.shown.get()

    def test_tab_from_the_actions_skips_the_closed_betting_rail(self, make_app: MakeApp) -> None:
        """During a decision Tab goes from Hit through the other action buttons and then to the panels: the
        betting rail's controls (Bet for, chips, bet box) are off the Tab order while bets are closed."""
        app = ready(make_app(stack="8s 6d 8h Th", hints=True))
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        app.buttons["hit"].focus_set()
        visited = []
        for _ in range(6):
            press(app, "Tab")
            visited.append(focused(app))
        assert visited[:4] == ["stand", "double", "split", "surrender"]
        assert not {"seat box", "chips", "bet box"} & set(visited)

    def test_every_control_tab_reaches_shows_a_focus_ring(self, make_app: MakeApp) -> None:
        """Tab round the window while betting and while playing: each control that takes the focus draws it (a
        ttk button, check box or box maps a look for the focus state; the chips draw a ring round one chip)."""
        app = ready(make_app(stack="8s 6d 8h Th", hints=True))
        style = ttk.Style(app.root)

        def shows_focus(widget: tk.Misc) -> bool:
            if widget is app.chips:
                return bool(app.chips.find_withtag("chip_focus"))
            kind = widget.winfo_class()
            if style.configure(kind, "focuscolor"):  # a button's or check box's ring, in the colour set for it
                return True
            options = ("fieldbackground", "bordercolor", "background")  # a box's look when it has the focus
            return any("focus" in " ".join(str(part) for part in entry[:-1])
                       for option in options for entry in (style.map(kind, option) or []))

        seen: dict[str, bool] = {}
        for setup in ("betting", "playing"):
            if setup == "playing":
                app.place_bet(0, 10)
                app.deal()
                app.settle()
            for _ in range(20):
                press(app, "Tab")
                widget = app.root.focus_get()
                if widget is not None:
                    seen[str(widget)] = shows_focus(widget)
        assert {focused_name for focused_name, ok in seen.items() if not ok} == set()
        assert str(app.seat_box) in seen and str(app.bet_box) in seen


class TestChips:
    """Item 3: lost bets are swept, wins paid beside the bet."""

    def test_a_lost_bet_is_swept_and_a_win_is_paid_beside_it(self, make_app: MakeApp) -> None:
        """Ann (10) busts, Bob (10) wins against the dealer's bust: Ann's circle is empty with no chips left,
        Bob's still holds his 10 and the house pays 10 in chips (two 5s) beside it."""
        app = ready(make_app(["Ann", "Bob"], stack="Ts 9s 6d 6h 9h Tc Kd 7s"))
        app.place_bet(0, 10)
        app.place_bet(1, 10)
        app.deal()
        app.act(Action.HIT)    # Ann: T-6 draws a K: bust
        app.act(Action.STAND)  # Bob: 9-9 stands on 18; the dealer's 6-T draws a 7: 23
        app.settle()
        table = app.table
        assert table.texts("result_0_0") == ["BUST -10"] and table.texts("result_1_0") == ["WIN +10"]
        assert table.texts("bet_text0") == [] and not table.find_withtag("stacks0")
        assert table.texts("bet_text1") == ["10"]
        paid = [t for item in table.find_withtag("payout1") for t in table.gettags(item) if t.startswith("stackchip_")]
        assert sorted(paid) == ["stackchip_5", "stackchip_5"] == [f"stackchip_{v}" for v, n in chip_stacks(10)
                                                                   for _ in range(n)]


    def test_the_chips_travel_to_and_from_the_dealer(self, make_app: MakeApp) -> None:
        """Animated: when Ann's BUST shows, her 10 in chips leaves her circle and moves up toward the dealer,
        then is gone; when Bob's WIN shows, his payout arrives from the dealer and settles beside his bet."""
        app = ready(make_app(["Ann", "Bob"], stack="Ts 9s 6d 6h 9h Tc Kd 7s", animations=True))
        app.place_bet(0, 10)
        app.place_bet(1, 10)
        app.deal()
        app.settle()
        press(app, "h")
        wait_for(app, "sweep0")
        start = app.table.bbox("sweep0")
        wait_for(app, "result_0_0")
        moved = start
        while app.table.find_withtag("sweep0"):
            moved = app.table.bbox("sweep0") or moved
            app.root.update()
        assert moved[1] < start[1] - 20
        app.settle()
        press(app, "s")
        wait_for(app, "payout1")
        arriving = app.table.bbox("payout1")
        app.settle()
        time.sleep(0.5)
        app.root.update()
        assert app.table.bbox("payout1")[1] > arriving[1] + 20


class TestCards:
    """Items 4 and 5: one card size, half of every card in view, cards that stay where they were put."""

    def test_a_two_card_hand_shows_half_of_its_lower_card(self, make_app: MakeApp) -> None:
        """A jack under a nine: at least half of the jack's width is in view."""
        app = ready(make_app(stack="Js 6d 9h Tc"))
        app.place_bet(0, 10)
        app.deal()
        first, second = card_boxes(app.table, "hand_0_0")
        assert second[0] - first[0] >= 0.5 * (first[2] - first[0])

    def test_one_card_size_after_a_split(self, make_app: MakeApp) -> None:
        """Three seats at 1008x688; Ann splits 8-8 and draws to three cards in each hand: her cards, Bob's, Cy's
        and the dealer's are one size."""
        app = make_app(["Ann", "Bob", "Cy"], stack="8s Ts Tc 6d 8h 9h 7c Th 2c 3c 2d 3d")
        app.root.geometry("1008x688")
        app.root.update()
        for seat in range(3):
            app.place_bet(seat, 10)
        app.deal()
        for action in (Action.SPLIT, Action.HIT, Action.STAND, Action.HIT):
            app.act(action)
        app.settle()
        assert [len(app.table.card_codes(f"hand_0_{j}")) for j in (0, 1)] == [3, 3]
        widths = {tag: {round(b[2] - b[0]) for b in card_boxes(app.table, tag)}
                  for tag in ("hand_0_0", "hand_0_1", "hand_1_0", "hand_2_0", "dealer")}
        every = set.union(*widths.values())
        assert max(every) - min(every) <= 1, widths

    def test_cards_stay_where_they_were_put(self, make_app: MakeApp) -> None:
        """T-2 hits a 5 and a 3: the first two cards do not move when the third and fourth arrive; the dealer's
        6-T does not move when the dealer draws."""
        app = ready(make_app(stack="Th 6d 2s Tc 5h 3d 9c"))
        app.place_bet(0, 10)
        app.deal()
        before = card_boxes(app.table, "hand_0_0")
        dealer = card_boxes(app.table, "dealer")
        app.act(Action.HIT)
        assert card_boxes(app.table, "hand_0_0")[:2] == before
        app.act(Action.HIT)
        assert card_boxes(app.table, "hand_0_0")[:2] == before
        app.act(Action.STAND)
        app.settle()
        assert len(app.table.card_codes("dealer")) == 3 and card_boxes(app.table, "dealer")[:1] == dealer[:1]

    def test_a_split_hand_keeps_its_place_as_its_cards_come(self, make_app: MakeApp) -> None:
        """8-8 split: the first hand's cards do not move when it draws (hit), nor the second hand's first card."""
        app = ready(make_app(stack="8s 6d 8h Th 2c 5d 9s"))
        app.place_bet(0, 10)
        app.deal()
        app.act(Action.SPLIT)
        first, second = card_boxes(app.table, "hand_0_0"), card_boxes(app.table, "hand_0_1")
        app.act(Action.HIT)
        assert card_boxes(app.table, "hand_0_0")[:2] == first and card_boxes(app.table, "hand_0_1")[:1] == second


class TestBetting:
    """Item 6: a clear target, no Deal without a bet, Enter repeats the bet, the bankroll pays for the chip."""

    def test_the_target_is_at_the_bet_circle(self, make_app: MakeApp) -> None:
        """"chips go here" sits right under the marked seat's bet circle, centred on it, for one player too."""
        app = make_app()
        table = app.table
        x1, y1, x2, y2 = table.bbox("bet_circle0")
        tx1, ty1, tx2, _ty2 = table.bbox("betting_seat")
        assert y2 <= ty1 <= y2 + 20 and abs((tx1 + tx2) / 2 - (x1 + x2) / 2) <= 2

    def test_deal_waits_for_a_bet(self, make_app: MakeApp) -> None:
        """Deal is off until a chip is in the circle; Enter with no bet deals nothing and says why in red."""
        app = ready(make_app())
        assert app.buttons["deal"].instate(["disabled"])
        press(app, "Return")
        assert app.round_view.phase is Phase.BETTING and app.bet_error.cget("text")
        app.add_chip(5)
        assert app.buttons["deal"].instate(["!disabled"])

    def test_the_bankroll_pays_for_the_chip_when_it_is_placed(self, make_app: MakeApp) -> None:
        """A 25 chip on the circle: the money line reads 975 at once, before the deal."""
        app = make_app()
        app.add_chip(25)
        assert app.table.texts("bankroll0") == ["bankroll 975"]

    def test_enter_at_a_new_round_repeats_the_last_bet(self, make_app: MakeApp) -> None:
        """After a round of 15, Enter at the next round bets 15 again and deals, as the text game does."""
        app = ready(make_app(stack=STAND_19 + " 9h 7c Th 9c"))
        app.place_bet(0, 15)
        app.deal()
        app.act(Action.STAND)
        press(app, "Return")  # New round
        assert app.round_view.phase is Phase.BETTING
        press(app, "Return")
        view = app.round_view
        assert view.phase is not Phase.BETTING and view.seats[0].bet == 15


class TestSideColumn:
    """Item 7: the side column does not jump as the hint grows and shrinks."""

    def test_count_and_coach_keep_their_place(self, make_app: MakeApp) -> None:
        """Betting (no hint), a decision (a full hint with five EVs) and the settled round: the count and coach
        panels stay at the same height in the column."""
        app = make_app(stack="8s 6d 8h Th 9c", hints=True)

        def places() -> tuple[int, int]:
            app.settle()
            app.root.update()
            return app.count_panel.winfo_y(), app.coach_panel.winfo_y()

        betting = places()
        app.place_bet(0, 10)
        app.deal()
        deciding = places()
        assert "EV per bet" in app.hint_panel.text
        app.act(Action.STAND)
        assert betting == deciding == places()


class TestScale:
    """Item 8: controls and panels grow with the window."""

    @staticmethod
    def sizes(app: Any, geometry: str) -> dict[str, int]:
        app.root.geometry(geometry)
        app.root.update()
        app.root.update()
        return {"button height": app.buttons["hit"].winfo_height(), "button width": app.buttons["hit"].winfo_width(),
                "chips": app.chips.winfo_width(), "side column": app.side.winfo_width(),
                "status": app.status.winfo_height(), "count panel": app.count_panel.label.winfo_reqheight()}

    def test_controls_grow_at_1920x1080(self, make_app: MakeApp) -> None:
        """Every control's size at 1920x1080 is at least 1.3 times its size at 1024x768 (1008x688, the window
        there), and at 1024x768 every button is inside the window."""
        app = make_app(hints=True)
        small = self.sizes(app, "1008x688")
        assert all(b.winfo_rootx() + b.winfo_width() <= app.root.winfo_rootx() + 1008 for b in app.buttons.values())
        large = self.sizes(app, "1920x1080")
        assert {k: large[k] / small[k] for k in small if large[k] < 1.3 * small[k]} == {}


class TestAnimation:
    """Item 9: a speed setting with off, and any key or click finishes the animation."""

    def test_the_view_menu_offers_speeds_with_off(self, make_app: MakeApp) -> None:
        """View ▸ Animation speed holds Off, Fast, Normal and Slow; Off shows a deal at once."""
        app = make_app(animations=True)
        view = next(app.menubar.nametowidget(app.menubar.entrycget(i, "menu")) for i in range(1, 6)
                    if app.menubar.entrycget(i, "label") == "View")
        cascades = {view.entrycget(i, "label"): view.entrycget(i, "menu")
                    for i in range(view.index("end") + 1) if view.type(i) == "cascade"}
        assert "Animation speed" in cascades
        speeds = view.nametowidget(cascades["Animation speed"])
        names = [speeds.entrycget(i, "label") for i in range(speeds.index("end") + 1)]
        assert names == ["Off", "Fast", "Normal", "Slow"]
        speeds.invoke(names.index("Off"))
        app.place_bet(0, 10)
        app.deal()
        assert not app.animating and len(app.table.card_codes("dealer")) == 2

    @pytest.mark.parametrize("how", ["key", "click"])
    def test_a_key_or_a_click_finishes_the_deal(self, make_app: MakeApp, how: str) -> None:
        """Animated deal: a key press (x) or a click on the felt puts every card on the table at once, and the
        buttons come on."""
        app = ready(make_app(stack="Th 6d 9h Tc", animations=True))
        app.place_bet(0, 10)
        app.deal()
        app.root.update()
        assert app.animating
        if how == "key":
            press(app, "x")
        else:
            app.table.event_generate("<ButtonPress-1>", x=5, y=5)
            app.table.event_generate("<ButtonRelease-1>", x=5, y=5)
            app.root.update()
        assert not app.animating
        assert app.table.card_codes("hand_0_0") == ["Th", "9h"] and app.table.card_codes("dealer") == ["6d", "??"]
        assert app.buttons["stand"].instate(["!disabled"])


class TestRail:
    """Item 10: no text on the felt lies under the rail."""

    @staticmethod
    def rail(table: Any) -> tuple[float, float, float, float, float]:
        """The felt's arc (the oval on the table canvas) and its line width."""
        oval = next(item for item in table.find_withtag("felt") if table.type(item) == "oval")
        x1, y1, x2, y2 = table.coords(oval)
        return x1, y1, x2, y2, float(table.itemcget(oval, "width"))

    @pytest.mark.parametrize("geometry", ["1008x688", "1350x688", "1920x1040"])
    @pytest.mark.parametrize("scene", ["one seat", "three seats", "showcase"])
    def test_no_text_crosses_the_rail(self, make_app: MakeApp, display: str, geometry: str, scene: str) -> None:
        """At the three screen sizes, after a round of one seat, of three, and the showcase round (a split, two
        doubles: the longest captions): no text, and no result label behind one, meets the arc."""
        if scene == "showcase":
            from gui.screenshot import showcase
            app = showcase(tk.Tk(), "settled", geometry)
        else:
            names = ["Ann"] if scene == "one seat" else ["Ann", "Bob", "Cy"]
            app = make_app(names, stack="Ts 9s 8s 6d 7h 9h 9c Tc")
            app.root.geometry(geometry)
            app.root.update()
            for seat in range(len(names)):
                app.place_bet(seat, 10)
            app.deal()
            while app.round_view.phase is not Phase.SETTLED:
                app.act(Action.STAND)
            app.settle()
        try:
            table = app.table
            x1, y1, x2, y2, line = self.rail(table)
            a, b = (x2 - x1) / 2, (y2 - y1) / 2
            cx, cy = x1 + a, y1 + b
            crossed = []
            labels = {*table.find_withtag("result_bg"), *table.find_withtag("dealer_says_bg")}
            for item in table.find_all():
                if table.type(item) != "text" and item not in labels:
                    continue
                tx1, ty1, tx2, ty2 = table.bbox(item)
                for x in range(tx1, tx2 + 1, 2):
                    share = (x - cx) / a
                    if abs(share) >= 1:
                        continue
                    y = cy + b * math.sqrt(1 - share * share)  # the lower arc
                    if ty1 - line / 2 <= y <= ty2 + line / 2:
                        crossed.append(table.gettags(item))
                        break
            assert crossed == []
        finally:
            if scene == "showcase":
                app.close()


class TestSmaller:
    """The issue's smaller items."""

    def test_the_dealer_has_one_line_at_the_end(self, make_app: MakeApp) -> None:
        """Settled: "Dealer stands on 18" shows, and no second "Dealer  18"."""
        app = make_app(stack="Ts 7d 9h Ac")
        app.place_bet(0, 10)
        app.deal()
        app.act(Action.STAND)
        app.settle()
        assert app.table.texts("dealer_says") == ["Dealer stands on 18"] and app.table.texts("dealer_total") == []

    def test_the_hint_under_even_money_says_even_money(self, make_app: MakeApp) -> None:
        """A natural against an ace: the hint's reason names even money, not "Decline insurance"."""
        app = make_app(stack="As Ad Kh 6c", hints=True)
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        assert app.buttons["insurance"].cget("text") == "Even money"
        assert "even money" in app.hint_panel.text.lower() and "Decline insurance" not in app.hint_panel.text

    def test_the_coach_names_the_player(self, make_app: MakeApp) -> None:
        """Coach mode, Ann and Bob: Ann's verdict says it is Ann's while Bob decides."""
        app = make_app(["Ann", "Bob"], stack="Ts 9s 6d 6h 9h Tc")
        app.coach_panel.enabled.set(True)
        app.place_bet(0, 10)
        app.place_bet(1, 10)
        app.deal()
        app.act(Action.STAND)  # Ann stands on 16 against a 6: right
        app.settle()
        assert app.round_view.current_seat.name == "Bob"
        assert app.coach_panel.verdict.cget("text").startswith("Ann: ")

    def test_f1_says_what_letters_do_in_the_boxes(self) -> None:
        """The F1 text says, as docs/gui.md does, that a letter whose button is on presses it in a box."""
        assert "shortcuts do not fire" not in HELP_KEYS
        assert "letter whose button is on presses it" in " ".join(HELP_KEYS.split())

    def test_new_game_lists_the_presets_by_name(self, make_app: MakeApp) -> None:
        """The New game dialog names the tables as the Rules menu does ("Las Vegas Strip", not "vegas")."""
        app = make_app()
        app.open_new_game()
        boxes = [w for w in app.last_dialog.body.winfo_children() if isinstance(w, ttk.Combobox)]
        values = [str(v) for box in boxes for v in box.cget("values")]
        assert preset_title(Rules.preset("vegas")) in values and "vegas" not in values

    def test_a_doubled_card_lies_sideways(self, make_app: MakeApp) -> None:
        """11 doubles and draws a 9: that card is drawn wider than tall."""
        app = make_app(stack="5h 9c 6d 8s 9d")
        app.place_bet(0, 10)
        app.deal()
        app.act(Action.DOUBLE)
        app.settle()
        boxes = card_boxes(app.table, "hand_0_0")
        assert len(boxes) == 3
        (x1, y1, x2, y2), (w, h) = boxes[2], card_size(app.table.winfo_width(), app.table.winfo_height())
        assert x2 - x1 > y2 - y1 and all(b[2] - b[0] < b[3] - b[1] for b in boxes[:2])

    def test_stacking_the_shoe_is_confirmed(self, make_app: MakeApp) -> None:
        """Game ▸ Stack the shoe with "As Kd": the status line says so once the dialog has closed, and still
        says so while the bets go in, until the deal takes the cards."""
        app = ready(make_app())
        app.open_stack()
        app.last_dialog.codes.set("As Kd")
        app.last_dialog.ok()
        app.root.update()
        assert "Stacked: As Kd" in app.status.cget("text")
        app.add_chip(5)
        assert "Stacked: As Kd" in app.status.cget("text")
        app.deal()
        assert "Stacked" not in app.status.cget("text")

    def test_the_shell_keeps_its_height_whatever_the_message(self, display: str) -> None:
        """The milestone-3 shell: a one-line message and a four-line one leave the window the same height."""
        from gui.shell import Shell
        root = tk.Tk()
        try:
            shell = Shell(root, name="Ann", seed=1)
            root.update()
            short = root.winfo_height()
            shell.say("word " * 120)
            root.update()
            assert root.winfo_height() == short
        finally:
            root.destroy()


class TestKeyboardGame:
    def test_a_whole_game_by_keyboard(self, make_app: MakeApp) -> None:
        """Only keys: chips (Right, Space), Enter deals 8-8 against a 6; P splits, D doubles the first hand
        (3 + T = 21), H and S play the second (2, 5: 15); the dealer busts; Space starts a new round; Enter
        repeats the bet of 10 and deals T-9 against an ace; I takes insurance (5), S stands on 19; the
        dealer's A-7 stands on 18; Enter opens the next round."""
        app = ready(make_app(stack="8s 6d 8h Th 3c Tc 2d 5s 9c Ts Ac 9h 7d"))
        assert focused(app) == "chips"
        press(app, "Right")
        press(app, "space")
        press(app, "space")
        assert app.round_view.seats[0].bet == 10 and focused(app) == "chips"
        press(app, "Return")
        assert focused(app) == "hit"
        for key in "pdhs":
            press(app, key)
        view = app.round_view
        assert view.phase is Phase.SETTLED and focused(app) == "new_round"
        assert app.table.texts("result_0_0") == ["WIN +20"] and app.table.texts("result_0_1") == ["WIN +10"]
        press(app, "space")
        assert app.round_view.phase is Phase.BETTING
        press(app, "Return")
        assert app.round_view.phase is Phase.INSURANCE and app.round_view.seats[0].bet == 10
        press(app, "i")
        assert app.round_view.seats[0].insurance == 5 and focused(app) == "hit"
        press(app, "s")
        assert app.table.texts("result_0_0") == ["WIN +10"] and focused(app) == "new_round"
        press(app, "Return")
        assert app.round_view.phase is Phase.BETTING
        assert app.game.players[0].bankroll == 1000 + 30 + 10 - 5


class TestOneSnapshot:
    """Issue 34: the table draws from one ``Round.view()`` per animation tick."""

    @pytest.mark.parametrize("when", ["betting", "deciding", "settled"])
    def test_a_redraw_takes_one_view(self, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
        """Redrawing the window (what each tick of the animation does) asks the round for its view once."""
        app = make_app(stack=STAND_19, hints=True)
        if when != "betting":
            app.place_bet(0, 10)
            app.deal()
        if when == "settled":
            app.act(Action.STAND)
        app.settle()
        calls = []
        kind = type(app.game.round)
        original = kind.view
        monkeypatch.setattr(kind, "view", lambda self: calls.append(1) or original(self))
        app.refresh()
        assert len(calls) == 1
