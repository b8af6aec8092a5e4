"""Hint, count and coach panels, drills, the strategy chart and the session window, in a real window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]


def deal(app: Any, bet: int = 10) -> None:
    """Bet for seat 0 and deal."""
    app.place_bet(0, bet)
    app.buttons["deal"].invoke()
    app.settle()


class TestHints:
    def test_hint_recommends_split_for_eights_against_six(self, make_app: MakeApp) -> None:
        """With hints shown, 8-8 against a 6 gets "→ SPLIT", a reason and the EV list."""
        app = make_app(stack="8s 6d 8h Th", hints=True)
        deal(app)
        assert app.hint_panel.action.cget("text") == "→ SPLIT"
        assert app.hint_panel.reason.cget("text") and "split" in app.hint_panel.evs.cget("text")

    def test_dealer_outcome_bars(self, make_app: MakeApp) -> None:
        """The hint draws one bar per dealer outcome, bust among them."""
        app = make_app(stack="8s 6d 8h Th", hints=True)
        deal(app)
        assert app.hint_panel.bars.find_withtag("bar_bust")

    def test_hidden_hint_computes_nothing(self, make_app: MakeApp) -> None:
        """With the hint panel hidden, its body is not shown and no hint is worked out."""
        app = make_app(stack="8s 6d 8h Th", hints=False)
        deal(app)
        assert not app.hint_panel.body.winfo_ismapped() and app.hint_panel.action.cget("text") == ""

    def test_showing_the_hint_on_demand(self, make_app: MakeApp) -> None:
        """Ticking "show" on a hidden hint panel works out the hint for the current hand."""
        app = make_app(stack="8s 6d 8h Th", hints=False)
        deal(app)
        app.hint_panel.button.invoke()
        app.root.update()
        app.settle()
        assert app.hint_panel.action.cget("text") == "→ SPLIT"


class TestCount:
    def test_count_after_the_deal(self, make_app: MakeApp) -> None:
        """8, 8 and a 6 seen: Hi-Lo running count +1, 309 cards unseen."""
        app = make_app(stack="8s 6d 8h Th")
        deal(app)
        assert "running  +1" in app.count_panel.text and "cards left      309" in app.count_panel.text

    def test_count_can_be_hidden(self, make_app: MakeApp) -> None:
        """Hiding the count panel hides its numbers."""
        app = make_app(count=False)
        assert not app.count_panel.body.winfo_ismapped()


class TestCoachAndDrills:
    def test_coach_flags_a_departure_and_its_cost(self, make_app: MakeApp) -> None:
        """Standing on 8-8 against a 6 in coach mode is flagged: strategy says split; score 0 of 1."""
        app = make_app(stack="8s 6d 8h Th")
        app.coach_panel.enabled.set(True)
        deal(app)
        app.buttons["stand"].invoke()
        app.settle()
        assert app.coach_panel.verdict.cget("text").startswith("Basic strategy says split, you chose stand; it cost")
        assert app.coach_panel.score.cget("text").startswith("Score: 0 of 1 decisions right")

    def test_coach_counts_a_right_play(self, make_app: MakeApp) -> None:
        """Splitting 8-8 against a 6 in coach mode scores 1 of 1."""
        app = make_app(stack="8s 6d 8h Th")
        app.coach_panel.enabled.set(True)
        deal(app)
        app.buttons["split"].invoke()
        app.settle()
        assert app.coach_panel.score.cget("text").startswith("Score: 1 of 1 decisions right (100%)")

    def test_pair_drill_deals_pairs(self, make_app: MakeApp) -> None:
        """With the pair drill on, three deals in a row give the player a pair and light Split."""
        app = make_app()
        app.coach_panel.drill.set("pair")
        for _ in range(3):
            deal(app)
            codes = app.table.card_codes("hand_0_0")
            if app.round_view.phase.value == "player turn":
                assert app.buttons["split"].instate(["!disabled"])
            assert codes[0][0] == codes[1][0], codes
            while app.round_view.turn is not None:
                app.buttons["stand" if app.buttons["stand"].instate(["!disabled"]) else "decline"].invoke()
            app.buttons["new_round"].invoke()

    def test_insurance_drill_offers_insurance(self, make_app: MakeApp) -> None:
        """With the insurance drill on, the dealer shows an ace and the insurance answers light up."""
        app = make_app()
        app.coach_panel.drill.set("insurance")
        deal(app)
        assert app.table.card_codes("dealer")[0][0] == "A" and app.buttons["decline"].instate(["!disabled"])


class TestWindows:
    def test_strategy_chart_highlights_the_hand(self, make_app: MakeApp) -> None:
        """The chart window marks the cell of 8-8 against a 6 (pairs row 8,8, fifth column) with P."""
        app = make_app(stack="8s 6d 8h Th")
        deal(app)
        app.open_chart()
        app.settle()
        canvas = app.chart_window.canvas
        assert "cell_pairs_8,8_4" in canvas.gettags(canvas.find_withtag("highlight")[0])

    def test_session_chart_and_ledger(self, make_app: MakeApp) -> None:
        """After a lost round the session window lists it and draws Ann's bankroll line."""
        app = make_app(stack="Ts 9d 6h 8c Kd")
        deal(app)
        app.buttons["hit"].invoke()
        app.buttons["new_round"].invoke()
        app.open_session()
        window = app.session_window
        window.update()
        rows = [window.ledger.item(row, "values") for row in window.ledger.get_children()]
        assert rows == [("1", "Ann", "BUST", "-10", "990")] and window.chart.find_withtag("line_0")


def test_hint_cleared_when_the_round_ends(make_app: MakeApp) -> None:
    """A hint still being worked out when the round settles is dropped: the panel says no decision is pending."""
    app = make_app(stack="Ts 9d 9h 8c", hints=True)
    deal(app)
    app.buttons["stand"].invoke()
    app.settle()
    assert app.hint_panel.action.cget("text") == "" and app.hint_panel.reason.cget("text") == "No decision pending."


def test_hints_are_worked_out_off_the_tk_thread(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint is computed in a worker thread, so the window keeps answering meanwhile."""
    import threading

    from gui import advice
    threads: list[str] = []
    real = advice.advise

    def spy(view: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(view)

    monkeypatch.setattr(advice, "advise", spy)
    app = make_app(stack="8s 6d 8h Th", hints=True)
    deal(app)
    assert threads and all(name != threading.main_thread().name for name in threads)
    assert app.hint_panel.action.cget("text") == "→ SPLIT"
