"""Hint, count and coach panels, drills, the strategy chart and the session window, in a real window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from blackjack import Action, Round

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
        """8, 8 and a 6 seen: Hi-Lo running count +1; 308 cards left in the shoe, 309 unseen with the hole card."""
        app = make_app(stack="8s 6d 8h Th")
        deal(app)
        assert "running count   +1" in app.count_panel.text
        assert "cards left      308 + hole card" in app.count_panel.text
        assert "system          Hi-Lo" in app.count_panel.text

    def test_count_can_be_hidden(self, make_app: MakeApp) -> None:
        """Hiding the count panel hides its numbers."""
        app = make_app(count=False)
        assert not app.count_panel.body.winfo_ismapped()


def choose_counting(app: Any, name: str) -> None:
    """Pick a counting system by its label in View ▸ Counting system, as a player would."""
    app.counting_menu.invoke(app.counting_menu.index(name))
    app.settle()


class TestCountingSystem:
    def test_menu_lists_every_system_hi_lo_first(self, make_app: MakeApp) -> None:
        """View ▸ Counting system has one radio button per system; Hi-Lo is chosen to start with."""
        app = make_app()
        menu = app.counting_menu
        labels = [menu.entrycget(i, "label") for i in range(menu.index("end") + 1)]
        assert labels == ["Hi-Lo", "Knock-Out (KO)", "Hi-Opt I", "Omega II", "Zen Count"]
        assert app.counting.get() == "hi_lo"

    def test_switching_systems_changes_the_panel(self, make_app: MakeApp) -> None:
        """7, 9 and 8 seen: Hi-Lo +0 with a true count; Zen counts the 7, +1; KO from -20 is -19 with no true count."""
        app = make_app(stack="7s 9d 8h Th")
        deal(app)
        text = app.count_panel.text
        assert "Hi-Lo" in text and "running count   +0" in text and "true count      +0.0" in text
        choose_counting(app, "Zen Count")
        text = app.count_panel.text
        assert "system          Zen Count" in text and "running count   +1" in text
        assert "true count      +0.2" in text and "suggested bet   1" in text
        choose_counting(app, "Knock-Out (KO)")
        text = app.count_panel.text
        assert "system          Knock-Out (KO)" in text and "running count   -19" in text
        assert "true count      " not in text and "suggested bet   " not in text
        assert "unbalanced: no true count" in text and "key count       +4" in text
        assert app.status.cget("text") == "Counting system: Knock-Out (KO)."

    def test_start_with_a_system(self, make_app: MakeApp) -> None:
        """App(counting="zen") counts Zen from the start, and the menu shows it chosen."""
        app = make_app(stack="7s 9d 8h Th", counting="zen")
        deal(app)
        assert app.counting.get() == "zen" and "running count   +1" in app.count_panel.text

    def test_insurance_line_only_for_systems_with_an_index(self, make_app: MakeApp) -> None:
        """T, A, 9 seen against the dealer's ace: Hi-Lo (-2) and KO (-22) say decline, each by its own index;
        Hi-Opt I, Omega II and Zen have no index, so the panel says nothing of insurance."""
        app = make_app(stack="Ts As 9h 7c")
        deal(app)
        assert "insurance       decline\n  (index: true count +3)" in app.count_panel.text
        choose_counting(app, "Knock-Out (KO)")
        assert "insurance       decline\n  (index: running count +3)" in app.count_panel.text
        for name in ("Hi-Opt I", "Omega II", "Zen Count"):
            choose_counting(app, name)
            assert name in app.count_panel.text and "insurance" not in app.count_panel.text

    def test_insurance_take_it_at_a_high_count(self, make_app: MakeApp) -> None:
        """One deck, three seats, 2 3 4 A 5 6 2 seen: Hi-Lo +5 over 45 cards left is a true count above +3."""
        app = make_app(["Ann", "Bob", "Cy"], "single_deck", stack="2s 3s 4s As 5s 6s 2h Kc")
        for seat in range(3):
            app.place_bet(seat, 10)
        app.buttons["deal"].invoke()
        app.settle()
        assert "insurance       take it" in app.count_panel.text

    def test_no_insurance_line_where_the_rules_offer_none(self, make_app: MakeApp) -> None:
        """Thunderjack has no insurance: against an ace the panel counts but says nothing of insurance."""
        app = make_app(rules="thunderjack", stack="Ts As 9h 7c")
        deal(app)
        assert "running count" in app.count_panel.text and "insurance" not in app.count_panel.text

    def test_no_insurance_line_without_an_ace(self, make_app: MakeApp) -> None:
        """Against a 6 there is nothing to insure: no insurance line, even for Hi-Lo."""
        app = make_app(stack="8s 6d 8h Th")
        deal(app)
        assert "insurance" not in app.count_panel.text


class TestCoachAndDrills:
    def test_coach_flags_a_departure_and_its_cost(self, make_app: MakeApp) -> None:
        """Standing on 8-8 against a 6 in coach mode is flagged: strategy says split; score 0 of 1."""
        app = make_app(stack="8s 6d 8h Th")
        app.coach_panel.enabled.set(True)
        deal(app)
        app.buttons["stand"].invoke()
        app.settle()
        assert app.coach_panel.verdict.cget("text").startswith("Ann: Basic strategy says split, you chose stand; it cost")
        assert app.coach_panel.score.cget("text").startswith("Score: 0 of 1 decisions right")

    def test_coach_counts_a_right_play(self, make_app: MakeApp) -> None:
        """Splitting 8-8 against a 6 in coach mode scores 1 of 1."""
        app = make_app(stack="8s 6d 8h Th")
        app.coach_panel.enabled.set(True)
        deal(app)
        app.buttons["split"].invoke()
        app.settle()
        assert app.coach_panel.score.cget("text").startswith("Score: 1 of 1 decisions right (100%)")

    def test_no_decision_view_without_the_coach(self, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
        """With coach mode off a decision takes no view of the table beforehand (only the coach judges it)."""
        app = make_app(stack="8s 6d 8h Th")
        deal(app)
        calls: list[Round] = []
        original = Round.view

        def counted(rnd: Round) -> Any:
            calls.append(rnd)
            return original(rnd)

        monkeypatch.setattr(Round, "view", counted)
        monkeypatch.setattr(app.animator, "start", lambda: None)  # no redraw: only act's own views are counted
        app.act(Action.STAND)
        assert calls == [] and app.round_view.phase.value == "settled"

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
        canvas = app.study.chart_window.canvas
        assert "cell_pairs_8,8_4" in canvas.gettags(canvas.find_withtag("highlight")[0])

    def test_strategy_chart_is_not_redrawn_on_refresh(self, make_app: MakeApp) -> None:
        """Refreshes with the chart open keep its canvas items; a hit only moves the highlight (8,8 to hard 18)."""
        app = make_app(stack="8s 6d 8h Th 2c")
        deal(app)
        app.open_chart()
        app.settle()
        canvas = app.study.chart_window.canvas
        items = sorted(canvas.find_all())  # find_all is in stacking order, which the highlight changes
        for _ in range(3):
            app.refresh()
        app.buttons["hit"].invoke()
        app.settle()
        assert sorted(canvas.find_all()) == items
        assert [canvas.gettags(i) for i in canvas.find_withtag("highlight")] == [("cell", "cell_hard_18_4",
                                                                                   "highlight")]
        assert canvas.itemcget("cell_pairs_8,8_4", "width") == "1.0"

    def test_session_chart_and_ledger(self, make_app: MakeApp) -> None:
        """After a lost round the session window lists it and draws Ann's bankroll line."""
        app = make_app(stack="Ts 9d 6h 8c Kd")
        deal(app)
        app.buttons["hit"].invoke()
        app.buttons["new_round"].invoke()
        app.open_session()
        window = app.study.session_window
        window.update()
        rows = [window.ledger.item(row, "values") for row in window.ledger.get_children()]
        assert rows == [("1", "Ann", "BUST", "-10", "990")] and window.chart.find_withtag("line_0")


def test_hint_cleared_when_the_round_ends(make_app: MakeApp) -> None:
    """A hint still being worked out when the round settles is dropped: the panel says no decision is pending."""
    app = make_app(stack="Ts 9d 9h 8c", hints=True)
    deal(app)
    app.buttons["stand"].invoke()
    app.settle()
    assert app.hint_panel.action.cget("text") == "" and app.hint_panel.reason.cget("text").startswith("No decision pending.")


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
