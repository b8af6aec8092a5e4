"""A stable, readable, keyboard-first table (issue 27): nothing moves the felt, every text fits its widget,
the panels wait for the cards, a round plays by keyboard alone, every text colour reaches 4.5:1."""

from __future__ import annotations

import time
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable, Iterator
from tkinter import ttk
from typing import Any

import pytest

from blackjack import Action, Phase, Rules

from gui.logic import contrast_ratio, preset_title

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]

#: A 1024 x 768 screen's window (less a title bar and a panel) and a maximised 1920 x 1080 one (less the menu bar).
SIZES = ["1008x688", "1920x1048"]
#: Ann T-9 against the dealer's ace, hole card 6: insurance is offered, no natural.
ACE_UP = "Ts As 9h 6d"
#: Ann A-K against the dealer's ace: even money.
EVEN_MONEY = "As Ad Kh 6c"
LONG_VERDICT = ("Basic strategy says hit: 16 against a 10 busts less often than the dealer makes 17 to 21; "
                "you chose stand, and it cost 0.043 of a bet. ") * 2


def walk(widget: tk.Misc) -> Iterator[tk.Misc]:
    """``widget`` and every widget inside it."""
    yield widget
    for child in widget.winfo_children():
        if not isinstance(child, tk.Toplevel | tk.Menu):
            yield from walk(child)


def font_of(widget: tk.Misc) -> tkfont.Font:
    """The font a label, button or check box draws its text in."""
    name = ""
    try:
        name = str(widget.cget("font"))
    except tk.TclError:
        pass
    if not name and isinstance(widget, ttk.Widget):
        name = str(ttk.Style(widget).lookup(widget.winfo_class(), "font"))
    return tkfont.Font(root=widget, font=name or "TkDefaultFont")


def widest_line(text: str, font: tkfont.Font, wrap: int) -> int:
    """The widest line of ``text`` in ``font`` once wrapped between words at ``wrap`` pixels (0: no wrapping)."""
    widest = 0
    for paragraph in text.splitlines():
        line = ""
        for word in paragraph.split(" "):
            longer = f"{line} {word}" if line else word
            if wrap and line and font.measure(longer) > wrap:
                widest = max(widest, font.measure(line))
                line = word
            else:
                line = longer
        widest = max(widest, font.measure(line))
    return widest


def inside(widget: tk.Misc, area: tk.Misc, vertical: bool = True) -> bool:
    """``widget``'s box lies inside ``area``'s (across only, when ``vertical`` is False)."""
    x, y, w, h = widget.winfo_rootx(), widget.winfo_rooty(), widget.winfo_width(), widget.winfo_height()
    ax, ay, aw, ah = area.winfo_rootx(), area.winfo_rooty(), area.winfo_width(), area.winfo_height()
    return ax <= x and x + w <= ax + aw and (not vertical or (ay <= y and y + h <= ay + ah))


def texts_fit(app: Any) -> list[str]:
    """Every mapped label, button and check box of the main window whose text (wrapped as it wraps) is wider than
    the widget, or that its parent cuts; and every mapped widget not inside the window (the side column's
    panels, which scroll, only across)."""
    root = app.root
    root.update()
    bad: list[str] = []
    scrolled = str(app.side.inner)
    for widget in walk(root):
        if widget is root or not widget.winfo_ismapped():
            continue
        in_column = str(widget).startswith(scrolled)
        if not inside(widget, root, vertical=not in_column):
            bad.append(f"{widget} outside the window")
        if widget.master is not None and widget.master is not app.side.canvas and \
                not inside(widget, widget.master, vertical=not in_column or widget.master is not app.side.inner):
            bad.append(f"{widget} cut by {widget.master}")
        if isinstance(widget, ttk.Label | ttk.Button | ttk.Checkbutton):
            text = str(widget.cget("text"))
            if not text:
                continue
            wrap = str(widget.cget("wraplength") or "0") if isinstance(widget, ttk.Label) else "0"
            widest = widest_line(text, font_of(widget), int(float(wrap or "0")))
            room = widget.winfo_width() - (8 if isinstance(widget, ttk.Button) else 0)
            if widest > room:
                bad.append(f"{widget} {text!r}: {widest} px in {room}")
    return bad


def sized(make_app: MakeApp, geometry: str, names: list[str] | None = None, **options: Any) -> Any:
    app = make_app(names, **options)
    app.root.geometry(geometry)
    app.root.update()
    return app


def felt(app: Any) -> tuple[int, int, int, int]:
    """The table canvas's place and size, and where the Deal button sits."""
    app.root.update()
    return (app.table.winfo_width(), app.table.winfo_height(), app.buttons["deal"].winfo_rootx(),
            app.buttons["new_round"].winfo_rootx())


class TestStableTable:
    @pytest.mark.parametrize("geometry", ["980x620", *SIZES])
    def test_a_verdict_an_offer_and_a_bet_error_move_nothing(self, make_app: MakeApp, geometry: str) -> None:
        """The felt keeps its size and Deal and New round keep their places through a long coach verdict,
        an insurance offer (its amount box on show) and a long bet error."""
        app = sized(make_app, geometry, stack=ACE_UP, hints=True)
        before = felt(app)
        app.coach_panel.show_verdict(LONG_VERDICT, app.coach_panel.WRONG)
        app.coach_panel.show_score("Score: 0 of 1 decisions right (0%)")
        assert felt(app) == before
        app.bet_entry.set("9" * 60)
        app.bet_from_entry()
        assert app.bet_error.cget("text") and felt(app) == before
        assert texts_fit(app) == []
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        assert app.insurance_box.winfo_ismapped() and felt(app) == before
        app.act(Action.DECLINE)
        app.settle()
        assert felt(app) == before

    @pytest.mark.parametrize("geometry", SIZES)
    @pytest.mark.parametrize("scene", ["betting", "bet error", "even money", "split", "coach"])
    def test_every_widget_inside_and_no_text_cut(self, make_app: MakeApp, geometry: str, scene: str) -> None:
        """Every widget lies inside the window and no label's, button's or check box's text is wider than the
        widget (measured with its font), at 1024x768 and at 1920x1080."""
        stacks = {"even money": EVEN_MONEY, "split": "8s 6d 8h Tc 3c 9c Kd", "coach": "Ts 6d 6h Tc 5s"}
        app = sized(make_app, geometry, ["Ann", "Bob", "Cy"] if scene == "betting" else ["Ann"],
                    stack=stacks.get(scene, ""), hints=True)
        if scene == "bet error":
            app.bet_entry.set("9" * 60)
            app.bet_from_entry()
        elif scene != "betting":
            app.place_bet(0, 10)
            app.deal()
            app.settle()
        if scene == "even money":
            assert app.buttons["insurance"].cget("text") == "Even money"
        if scene == "split":
            app.act(Action.SPLIT)
            app.act(Action.DOUBLE)
            app.settle()
        if scene == "coach":
            app.coach_panel.enabled.set(True)
            app.act(Action.STAND)
            app.settle()
            assert app.coach_panel.verdict.cget("text")
        assert texts_fit(app) == []

    @pytest.mark.parametrize("geometry", [*SIZES, "1900x620"])
    def test_seat_lines_do_not_overlap_and_keep_off_the_edge(self, make_app: MakeApp, geometry: str) -> None:
        """"chips go here", the name and the money line stack without touching, above the canvas's bottom edge."""
        app = sized(make_app, geometry, ["Ann", "Bob"])
        table = app.table
        boxes = [table.bbox(tag) for tag in ("betting_seat", "name0", "bankroll0")]
        assert all(boxes)
        for upper, lower in zip(boxes, boxes[1:]):
            assert upper[3] <= lower[1] + 1, (upper, lower)
        assert boxes[-1][3] <= table.winfo_height() - 3

    def test_split_hands_bets_on_one_line(self, make_app: MakeApp) -> None:
        """Ann splits 8-8 and the first hand gets a third card: both hands' bet labels share one line."""
        app = sized(make_app, "1200x700", stack="8s 6d 8h Tc 2c 3c 9d", hints=False)
        app.place_bet(0, 10)
        app.deal()
        app.act(Action.SPLIT)
        app.act(Action.HIT)
        app.act(Action.STAND)
        app.settle()
        assert len(app.table.card_codes("hand_0_0")) == 3 and len(app.table.card_codes("hand_0_1")) == 2
        tops = {app.table.bbox(f"stake_0_{j}")[1] for j in (0, 1)}
        assert len(tops) == 1, tops

    def test_felt_text_grows_in_a_wide_short_window(self, make_app: MakeApp) -> None:
        """In a wide, short window the felt's printing is bigger than the height alone would make it."""
        short = sized(make_app, "1900x620").table
        narrow = sized(make_app, "980x620").table
        assert short.bbox("banner_pays")[3] - short.bbox("banner_pays")[1] > \
            narrow.bbox("banner_pays")[3] - narrow.bbox("banner_pays")[1]


class TestInStep:
    def test_hint_count_and_offer_wait_for_the_cards(self, make_app: MakeApp) -> None:
        """With animation on, the hint and count panels show what they showed before the deal, and the
        insurance box stays away, until the last card (the dealer's ace and hole card) is drawn."""
        app = make_app(stack=ACE_UP, animations=True, hints=True)
        app.place_bet(0, 10)
        app.settle()
        hint, count = app.hint_panel.text, app.count_panel.text
        app.deal()
        seen = 0
        while app.animating:
            app.root.update()
            if not app.animating:
                break  # the last card has just landed
            seen += 1
            assert app.hint_panel.text == hint and app.count_panel.text == count
            assert not app.insurance_box.winfo_ismapped()
            assert all(b.instate(["disabled"]) for b in app.buttons.values())
            time.sleep(0.01)
        assert seen > 5  # the animation ran
        assert app.table.card_codes("dealer") == ["As", "??"]
        app.settle()
        assert app.count_panel.text != count and "insurance" in app.count_panel.text
        assert "DECLINE" in app.hint_panel.text and app.insurance_box.winfo_ismapped()


def press(app: Any, key: str) -> None:
    """Press and release ``key`` where the keyboard focus is (the window when nothing has it)."""
    widget = app.root.focus_get() or app.root
    widget.event_generate(f"<KeyPress-{key}>")
    widget.event_generate(f"<KeyRelease-{key}>")
    app.root.update()


def focus_name(app: Any) -> str:
    widget = app.root.focus_get()
    if widget is app.chips:
        return f"chip{app.chip_cursor}"
    names = {str(b): n for n, b in app.buttons.items()}
    names.update({str(app.seat_box): "seat box", str(app.bet_box): "bet box", str(app.bet_button): "bet",
                  str(app.clear_button): "clear", str(app.same_button): "same",
                  str(app.hint_panel.button): "hint show", str(app.count_panel.button): "count show",
                  str(app.coach_panel.check): "coach mode", str(app.coach_panel.drill_box): "drill"})
    return names.get(str(widget), str(widget))


class TestKeyboard:
    def test_tab_visits_actions_chips_bet_box_and_panels_in_order(self, make_app: MakeApp) -> None:
        """From the window, Tab goes the seat box, each chip, the bet box and its buttons (Deal is off until a bet
        is in), then the panels' controls, and round again; Shift+Tab goes back the same way."""
        app = make_app(hints=True)
        app.root.focus_force()
        app.root.update()
        order = []
        for _ in range(16):
            press(app, "Tab")
            order.append(focus_name(app))
        expected = ["seat box", "chip0", "chip1", "chip2", "chip3", "chip4", "bet box", "bet", "clear",
                    "same", "hint show", "count show", "coach mode", "drill"]
        assert order[:14] == expected and order[14] == "seat box"
        back = []
        for _ in range(6):
            app.root.focus_get().event_generate("<<PrevWindow>>")
            app.root.update()
            back.append(focus_name(app))
        assert back == ["seat box", "drill", "coach mode", "count show", "hint show", "same"]

    def test_a_round_by_keyboard_alone(self, make_app: MakeApp) -> None:
        """Tab to the chips, Tab to the 5, Space twice (10), Enter deals; S stands on 19 against 17; Enter starts
        the next round; Tab to the bet box, type 25, Enter bets and gives Deal the focus, Enter deals; H hits."""
        app = make_app(stack="Th 7s 9h Tc 5d 9d 8c 7h 2c", hints=True)
        app.root.focus_force()
        app.root.update()
        press(app, "Tab")
        while focus_name(app) != "chip0":
            press(app, "Tab")
        press(app, "Tab")
        assert focus_name(app) == "chip1" and app.chips.find_withtag("chip_focus")
        press(app, "space")
        press(app, "space")
        assert app.round_view.seats[0].bet == 10
        assert "Deal (Enter)" in app.status.cget("text")
        press(app, "Return")
        app.settle()
        assert app.round_view.phase is Phase.PLAYER_TURN
        press(app, "s")
        app.settle()
        assert app.round_view.phase is Phase.SETTLED and app.round_view.seats[0].bankroll == 1010
        press(app, "Return")
        assert app.round_view.phase is Phase.BETTING
        while focus_name(app) != "bet box":
            press(app, "Tab")
        assert "Enter again deals" in app.status.cget("text")
        press(app, "2")
        press(app, "5")
        press(app, "Return")
        assert app.round_view.seats[0].bet == 25 and focus_name(app) == "deal"
        assert "Deal (Enter)" in app.status.cget("text")
        press(app, "Return")
        app.settle()
        assert app.round_view.phase is Phase.PLAYER_TURN and app.bet_entry.get() == "25"
        press(app, "h")
        app.settle()
        assert len(app.round_view.seats[0].hands[0].cards) == 3

    def test_space_on_a_check_box_only_ticks_it(self, make_app: MakeApp) -> None:
        """With the focus on the hint panel's show box after a round, Space untick it; no new round starts."""
        app = make_app(stack="Th 7s 9h Tc", hints=True)
        app.place_bet(0, 10)
        app.deal()
        app.act(Action.STAND)
        app.settle()
        app.hint_panel.button.focus_force()
        app.root.update()
        press(app, "space")
        app.settle()
        assert app.round_view.phase is Phase.SETTLED and not app.hint_panel.shown.get()

    def test_letters_work_with_the_focus_on_a_panel_and_alt_is_for_menus(self, make_app: MakeApp) -> None:
        """H hits with the focus on the coach's check box; Alt+S does not stand (Alt is for the menus)."""
        app = make_app(stack="Th 7s 5h Tc 2c 3c")
        app.place_bet(0, 10)
        app.deal()
        app.coach_panel.check.focus_force()
        app.root.update()
        app.coach_panel.check.event_generate("<KeyPress-s>", state=0x8)
        app.root.update()
        assert app.round_view.phase is Phase.PLAYER_TURN and len(app.round_view.seats[0].hands[0].cards) == 2
        press(app, "h")
        assert len(app.round_view.seats[0].hands[0].cards) == 3

    def test_menus_have_alt_letters_and_human_preset_names(self, make_app: MakeApp) -> None:
        """Every menu bar entry and every menu item underlines a letter, unique within its menu; the Rules
        menu names each preset as its description does ("Atlantic City"), not by its id."""
        app = make_app()
        bar = app.menubar
        menus = [bar]
        for i in range(bar.index("end") + 1):
            if bar.type(i) == "cascade":
                menus.append(app.root.nametowidget(bar.entrycget(i, "menu")))
        for menu in menus:
            letters = []
            for i in range(menu.index("end") + 1):
                if menu.type(i) in ("separator", "tearoff"):
                    continue
                index = int(menu.entrycget(i, "underline"))
                assert index >= 0, menu.entrycget(i, "label")
                letters.append(str(menu.entrycget(i, "label"))[index].lower())
            assert len(letters) == len(set(letters)), letters
        rules = app.root.nametowidget(bar.entrycget(bar.index("Rules"), "menu"))
        labels = [str(rules.entrycget(i, "label")) for i in range(rules.index("end") + 1)
                  if rules.type(i) == "radiobutton"]
        assert labels == [preset_title(Rules.preset(n)) for n in Rules.preset_names()]
        assert "Atlantic City" in labels and not any("_" in label for label in labels)


def hex_color(widget: tk.Misc, color: str) -> str:
    r, g, b = widget.winfo_rgb(color)
    return f"#{r // 257:02x}{g // 257:02x}{b // 257:02x}"


def canvas_pairs(canvas: tk.Canvas) -> list[tuple[str, str, str]]:
    """(text, its colour, the colour under it) for every text on ``canvas``: under it is the fill of the highest
    filled shape below it in the stacking order at the text's middle, else the canvas's background."""
    order = list(canvas.find_all())
    pairs = []
    for item in order:
        if canvas.type(item) != "text" or not canvas.itemcget(item, "text").strip():
            continue
        x1, y1, x2, y2 = canvas.bbox(item)
        under = [i for i in canvas.find_overlapping((x1 + x2) / 2, (y1 + y2) / 2, (x1 + x2) / 2, (y1 + y2) / 2)
                 if order.index(i) < order.index(item) and canvas.type(i) in ("rectangle", "oval", "polygon")
                 and canvas.itemcget(i, "fill")]
        background = canvas.itemcget(under[-1], "fill") if under else canvas.cget("background")
        pairs.append((canvas.itemcget(item, "text"), hex_color(canvas, canvas.itemcget(item, "fill")),
                      hex_color(canvas, background)))
    return pairs


def widget_pairs(app: Any) -> list[tuple[str, str, str]]:
    """(text, foreground, background) of every enabled label, button and check box on show."""
    style = ttk.Style(app.root)
    pairs = []
    for widget in walk(app.root):
        if not isinstance(widget, ttk.Label | ttk.Button | ttk.Checkbutton) or not widget.winfo_ismapped():
            continue
        if not str(widget.cget("text")) or widget.instate(["disabled"]):
            continue  # WCAG exempts the text of controls that cannot be used
        cls = widget.winfo_class()
        state = ["focus"] if widget.instate(["focus"]) else []
        try:
            own = str(widget.cget("foreground"))
        except tk.TclError:
            own = ""  # a ttk button takes its colours from its style
        foreground = own or str(style.lookup(cls, "foreground", state) or "black")
        background = str(style.lookup(cls, "background", state) or style.lookup(".", "background"))
        pairs.append((str(widget.cget("text")), hex_color(widget, foreground), hex_color(widget, background)))
    return pairs


class TestContrast:
    @pytest.mark.parametrize("scene", ["betting", "insurance", "results", "insured", "hidden panels", "coach"])
    def test_every_text_reaches_4_5_to_1(self, make_app: MakeApp, scene: str) -> None:
        """Every text on show, in the panels, the bars and on the felt (names, money, totals, results, insurance
        labels, the cards, the bet circles, the chips), against what is under it: at least 4.5:1 (WCAG AA)."""
        stacks = {"insurance": ACE_UP, "results": "Th 7s 9h Tc 8s 8d 5c", "insured": "Ts As 9h Kd",
                  "coach": "Ts 6d 6h Tc 5s"}
        app = make_app(["Ann", "Bob"] if scene == "betting" else ["Ann"], stack=stacks.get(scene, ""),
                       hints=scene != "hidden panels", count=scene != "hidden panels")
        app.bet_entry.set("abc")
        app.bet_from_entry()
        if scene == "betting":
            app.place_bet(1, 30)
        if scene in ("insurance", "results", "insured", "coach"):
            app.place_bet(0, 10)
            app.deal()
            app.settle()
        if scene == "insured":
            app.take_insurance()
            app.settle()
            assert app.table.texts("insurance_text0") == ["Insurance won +10"]
        if scene == "results":
            app.act(Action.STAND)
            app.settle()
        if scene == "coach":
            app.coach_panel.enabled.set(True)
            app.act(Action.STAND)
            app.settle()
            app.coach_panel.show_verdict("wrong", app.coach_panel.WRONG)
        app.buttons["deal"].focus_force()
        app.root.update()
        pairs = widget_pairs(app) + canvas_pairs(app.table)
        if app.round_view.phase is Phase.BETTING:  # else the chips are faded: they cannot be used (WCAG exempts them)
            pairs += canvas_pairs(app.chips)
        pairs += canvas_pairs(app.hint_panel.bars) if app.hint_panel.bars.winfo_ismapped() else []
        assert len(pairs) > 10
        low = [(text, fg, bg, round(contrast_ratio(fg, bg), 2)) for text, fg, bg in pairs
               if contrast_ratio(fg, bg) < 4.5]
        assert low == []
