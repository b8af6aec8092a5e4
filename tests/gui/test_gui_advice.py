"""What the hint, count, coach and chart panels are given, computed from table views without a display."""

from __future__ import annotations

import pytest

from blackjack import Action, Blackjack, Rules, TableView
from gui import advice
from gui.advice import Verdict
from gui.coach import Score
from gui.testing import Mbox

VEGAS = Rules.preset("vegas")


def view_of(codes: str, rules: Rules = VEGAS, bets: list[int] | None = None) -> TableView:
    """The view after dealing a stacked shoe (codes in deal order)."""
    game = Blackjack([f"P{i}" for i in range(len(bets or [10]))], rules, seed=5)
    game.shoe.stack(codes.split())
    return game.start_round(bets or [10]).view()


class TestCount:
    def test_running_count_of_seen_cards(self) -> None:
        """8-8 against a 6: the 8s count 0 and the 6 counts +1, so Hi-Lo is +1 (hole card unseen)."""
        assert advice.count(view_of("8s 6d 8h Th")).running == 1

    def test_true_count_divides_by_decks_left(self) -> None:
        """Seen 8, 6, 8 of 312 cards: 309 unseen is 309/52 decks, so the true count is 52/309."""
        info = advice.count(view_of("8s 6d 8h Th"))
        assert (info.cards_left, info.true) == (309, pytest.approx(52 / 309))

    def test_tens_and_aces_count_minus_one(self) -> None:
        """A, K against a Q: three cards tagged -1, running count -3."""
        assert advice.count(view_of("As Qd Kh 7c")).running == -3

    def test_bet_suggestion_is_table_minimum_at_low_counts(self) -> None:
        """At a true count near 0 the suggestion is one unit, the table minimum."""
        assert advice.count(view_of("8s 6d 8h Th")).suggestion == VEGAS.min_bet


class TestChartCell:
    def test_pair_row(self) -> None:
        """8-8 against a 6 is the pairs row 8,8, column of the 6 (the fifth)."""
        assert advice.chart_cell(view_of("8s 6d 8h Th")) == ("pairs", "8,8", 4)

    def test_soft_row(self) -> None:
        """A-7 against a 9 is the soft row A,7, column of the 9 (the eighth)."""
        assert advice.chart_cell(view_of("As 9d 7h 8c")) == ("soft", "A,7", 7)

    def test_no_cell_during_an_insurance_offer(self) -> None:
        """While insurance is offered there is no chart cell to highlight."""
        assert advice.chart_cell(view_of("Ts As 9h 7c")) is None

    def test_hard_row_clamps_low_totals(self) -> None:
        """2-3 against a 9 (hard 5) is the hard row 5."""
        assert advice.chart_cell(view_of("2s 9d 3h 8c")) == ("hard", "5", 7)

    def test_no_cell_before_a_decision(self) -> None:
        """In the betting phase there is no hand to highlight."""
        assert advice.chart_cell(Blackjack(["Ann"], VEGAS, seed=1).new_round().view()) is None


class TestCoach:
    def test_right_play_costs_nothing(self) -> None:
        """Splitting 8-8 against a 6 is basic strategy: judged right, cost 0."""
        verdict = advice.judge(view_of("8s 6d 8h Th"), Action.SPLIT)
        assert (verdict.correct, verdict.cost) == (True, 0.0)

    def test_wrong_play_is_flagged_with_its_ev_cost(self) -> None:
        """Standing on 8-8 against a 6 departs from split and gives up EV(split) - EV(stand) > 0."""
        view = view_of("8s 6d 8h Th")
        verdict = advice.judge(view, Action.STAND)
        evs = advice.expected(view)
        assert verdict.recommended is Action.SPLIT and not verdict.correct
        assert verdict.cost == pytest.approx(evs[Action.SPLIT] - evs[Action.STAND]) and verdict.cost > 0

    def test_insurance_is_declined_by_basic_strategy(self) -> None:
        """Basic strategy never takes insurance, so taking it is flagged."""
        assert not advice.judge(view_of("Ts As 9h 7c"), Action.INSURANCE).correct

    def test_verdict_text_names_both_plays_and_cost(self) -> None:
        """A wrong verdict's line says what strategy wanted, what was done and the cost."""
        text = Verdict(Action.STAND, Action.SPLIT, False, 0.25).text()
        assert text == "Basic strategy says split, you chose stand; it cost 0.250 of a bet in EV."

    def test_score_counts_right_and_wrong(self) -> None:
        """Two right and one wrong decision (cost 0.5) score 2 of 3 and 0.5 given up."""
        score = Score()
        for verdict in (Verdict(Action.HIT, Action.HIT, True, 0.0), Verdict(Action.HIT, Action.STAND, False, 0.5),
                        Verdict(Action.STAND, Action.STAND, True, 0.0)):
            score.record(verdict)
        assert (score.correct, score.decisions, score.cost) == (2, 3, 0.5)


class TestAdvice:
    def test_hint_for_eight_eight_against_six_is_split(self) -> None:
        """The hint for 8-8 against a 6 recommends splitting and lists only legal actions' EVs."""
        view = view_of("8s 6d 8h Th")
        found = advice.advise(view)
        assert found.action is Action.SPLIT and set(found.evs) <= view.legal_actions

    def test_dealer_distribution_sums_to_one(self) -> None:
        """The dealer's outcome bars add up to 1."""
        assert sum(advice.advise(view_of("8s 6d 8h Th")).dealer.values()) == pytest.approx(1)

    def test_no_decision_is_unavailable(self) -> None:
        """Asking for a hint while betting raises HintsUnavailable, not a crash."""
        with pytest.raises(advice.HintsUnavailable):
            advice.advise(Blackjack(["Ann"], VEGAS, seed=1).new_round().view())


def test_mbox_records_messages() -> None:
    """The message-box recorder keeps each call's kind, title and text."""
    box = Mbox()
    box.showerror("Bet", "too much")
    assert box.shown == [("showerror", "Bet", "too much")]
