"""Geometry of the window at every allowed size: nothing is drawn over anything else, every control can be reached.

Vegas rules; the smallest window is the one ``App`` allows (``root.minsize``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from blackjack import Action, Phase

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]

#: Window sizes to check: the smallest allowed, the first, a tall narrow one, a wide one.
SIZES = ["980x620", "1200x700", "980x1000", "1600x700"]


def dealer_cards(n: int) -> list[str]:
    """``n`` dealer cards (2 to 11) that reach a hard 17 exactly on the last one.

    The longest draw: six 2s (12), then aces, each worth 1 by then, up to 17.
    """
    if n == 2:
        values = ["T", "7"]
    elif n == 3:
        values = ["5", "2", "T"]
    elif n == 4:
        values = ["2", "2", "3", "T"]
    elif n <= 7:
        values = ["2"] * (n - 1) + [str(17 - 2 * (n - 1))]
    else:
        values = ["2"] * 6 + ["A"] * (n - 7) + [str(12 - n) if n < 11 else "A"]
    suits = "cdhs"
    return [value + suits[i % 4] for i, value in enumerate(values)]


def dealer_draws(make_app: MakeApp, n: int, geometry: str) -> Any:
    """Open a window of ``geometry``, let Ann stand on 19 and the dealer draw to 17 in ``n`` cards; return the app."""
    dealer = dealer_cards(n)
    app = make_app(stack=" ".join(["Th", dealer[0], "9h", dealer[1], *dealer[2:]]))
    app.root.geometry(geometry)
    app.root.update()
    app.place_bet(0, 10)
    app.deal()
    app.act(Action.STAND)
    app.settle()
    return app


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Two canvas bounding boxes ``(x1, y1, x2, y2)`` share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class TestDealerRow:
    """The dealer's cards and total never reach the shoe or its card count, however many cards he draws."""

    @pytest.mark.parametrize("geometry", SIZES)
    @pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    def test_dealer_cards_and_total_keep_off_the_shoe(self, make_app: MakeApp, geometry: str, n: int) -> None:
        """Ann stands on 19; the dealer draws to a 17 in ``n`` cards. Every dealer card and the total lie
        inside the canvas, left of the shoe and its "shoe: N cards" label, without touching them."""
        app = dealer_draws(make_app, n, geometry)
        table = app.table
        assert app.round_view.phase is Phase.SETTLED
        assert len(table.card_codes("dealer")) == n and table.texts("dealer_says")[0].endswith(" 17")
        shoe = table.bbox("shoe")
        assert table.texts("shoe_text") and shoe
        items = [*table.find_withtag("dealer"), *table.find_withtag("dealer_says"), *table.find_withtag("dealer_says_bg")]
        width = table.winfo_width()
        for item in items:
            box = table.bbox(item)
            assert not overlap(box, shoe), (table.gettags(item), box, shoe)
            assert 0 <= box[0] and box[2] <= width, (table.gettags(item), box, width)

    @pytest.mark.parametrize("n", [4, 11])
    def test_a_long_row_stays_in_order(self, make_app: MakeApp, n: int) -> None:
        """At the smallest window the dealer's cards still run left to right, each showing its corner,
        and the total comes after the last card."""
        table = dealer_draws(make_app, n, "980x620").table
        uids = dict.fromkeys(tag for item in table.find_withtag("dealer") for tag in table.gettags(item)
                             if tag.startswith("cardid"))
        cards = [table.bbox(uid) for uid in uids]
        assert len(cards) == n
        xs = [box[0] for box in cards]
        card_w = cards[0][2] - cards[0][0]
        assert xs == sorted(xs) and min(b - a for a, b in zip(xs, xs[1:])) >= 0.3 * card_w - 2
        assert table.bbox("dealer_says_bg")[0] >= max(box[2] for box in cards)


def visible_in_side(app: Any, widget: Any) -> bool:
    """``widget`` is mapped and shows whole: X clips a window to each of its ancestors, so it must lie inside
    every one of them up to the main window (the side column's scrolled view, the column, the window)."""
    app.root.update()
    if not widget.winfo_ismapped():
        return False
    x, y = widget.winfo_rootx(), widget.winfo_rooty()
    right, bottom = x + widget.winfo_width(), y + widget.winfo_height()
    area = widget.master
    while area is not None:
        ax, ay = area.winfo_rootx(), area.winfo_rooty()
        if not (ax <= x and right <= ax + area.winfo_width() and ay <= y and bottom <= ay + area.winfo_height()):
            return False
        area = area.master if area is not app.root else None
    return True


def five_action_hint(make_app: MakeApp, stack: str, seats: int = 1, geometry: str = "980x620") -> Any:
    """A window of ``geometry`` with hints on, dealt from ``stack`` to the first decision, its hint shown."""
    names = ["Ann", "Bob", "Cy"][:seats]
    app = make_app(names, stack=stack, hints=True)
    app.root.geometry(geometry)
    app.root.update()
    for seat in range(seats):
        app.place_bet(seat, 10)
    app.deal()
    app.settle()
    return app


class TestSidePanel:
    """At the smallest window the side column's controls can all be reached; the coach's are in view."""

    @pytest.mark.parametrize(("stack", "seats"), [
        ("2d 6d 2h 9c", 1),                    # 2-2 against a 6: split (the reviewer's hand)
        ("6d 7c 6h 9s", 1),                    # 6-6 against a 7: hit, with the longest reason (five lines)
        ("Ts 9c 2d 6d 8h 8c 2h 9s", 3),         # three seats; Cy's 2-2 against a 6 once Ann and Bob stand
    ])
    def test_coach_controls_in_view_with_a_five_action_hint(self, make_app: MakeApp, stack: str,
                                                              seats: int) -> None:
        """With the hint's five EV lines shown, the coach mode checkbox and the drill box are mapped and wholly
        inside the window and the side column's visible part."""
        app = five_action_hint(make_app, stack, seats)
        for _ in range(seats - 1):
            app.act(Action.STAND)
            app.settle()
        assert app.hint_panel.evs.cget("text").count("\n") == 5, app.hint_panel.evs.cget("text")  # header + 5
        assert visible_in_side(app, app.coach_panel.check)
        assert visible_in_side(app, app.coach_panel.drill_box)

    def test_an_overflowing_column_scrolls_to_every_control(self, make_app: MakeApp) -> None:
        """When the panels need more height than the smallest window has (a long hint and a coach verdict),
        a scroll bar appears; the wheel scrolls, and a control that takes the focus scrolls into view."""
        app = five_action_hint(make_app, "6d 7c 6h 9s")
        app.coach_panel.show_verdict("Basic strategy says hit, you chose stand; it cost 0.258 of a bet. " * 2)
        app.coach_panel.show_score("Score: 0 of 1 decisions right (0%)")
        app.root.update()
        assert app.side.overflows and app.side.scrollbar.winfo_ismapped()
        assert not visible_in_side(app, app.coach_panel.score)
        app.coach_panel.drill_box.focus_force()
        app.root.update()
        assert visible_in_side(app, app.coach_panel.drill_box)
        app.hint_panel.button.focus_force()
        app.root.update()
        assert visible_in_side(app, app.hint_panel.button)
        for _ in range(20):
            app.hint_panel.evs.event_generate("<Button-5>")
        app.root.update()
        assert visible_in_side(app, app.coach_panel.score)

    def test_no_scroll_bar_with_room_to_spare(self, make_app: MakeApp) -> None:
        """At the first window size (1200x700) everything fits: no scroll bar, the column starts at its top."""
        app = five_action_hint(make_app, "6d 7c 6h 9s", geometry="1200x700")
        assert not app.side.overflows and not app.side.scrollbar.winfo_ismapped()
        assert app.side.canvas.yview()[0] == 0.0
        assert visible_in_side(app, app.hint_panel.button) and visible_in_side(app, app.coach_panel.check)
