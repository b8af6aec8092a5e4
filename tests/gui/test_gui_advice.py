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
        """Seen 8, 6, 8 of 312 cards: 309 unseen (308 in the shoe and the hole card) is 309/52 decks, so the
        true count is 52/309."""
        info = advice.count(view_of("8s 6d 8h Th"))
        assert (info.unseen, info.in_shoe, info.true) == (309, 308, pytest.approx(52 / 309))

    def test_tens_and_aces_count_minus_one(self) -> None:
        """A, K against a Q: three cards tagged -1, running count -3."""
        assert advice.count(view_of("As Qd Kh 7c")).running == -3

    def test_bet_suggestion_is_table_minimum_at_low_counts(self) -> None:
        """At a true count near 0 the suggestion is one unit, the table minimum."""
        assert advice.count(view_of("8s 6d 8h Th")).suggestion == VEGAS.min_bet


class TestCountingSystems:
    """The count in each system of ``counting.toml``; the tags and indices are the hints library's."""

    def test_every_system_can_be_chosen(self) -> None:
        """The choices are the five systems of counting.toml, by key, with their display names."""
        assert advice.counting_systems() == {"hi_lo": "Hi-Lo", "ko": "Knock-Out (KO)", "hi_opt_1": "Hi-Opt I",
                                             "omega_2": "Omega II", "zen": "Zen Count"}

    def test_zen_counts_a_seven_where_hi_lo_does_not(self) -> None:
        """7, 9 and 8 seen: Hi-Lo tags them 0, 0, 0; Zen tags the 7 +1."""
        view = view_of("7s 9d 8h Th")
        assert (advice.count(view, "hi_lo").running, advice.count(view, "zen").running) == (0, 1)
        assert advice.count(view, "zen").system == "Zen Count"

    def test_ko_is_unbalanced_no_true_count_or_bet(self) -> None:
        """KO starts 6 decks at 4 - 4 x 6 = -20 and counts the 6 +1: -19; no true count, no bet, key count +4."""
        info = advice.count(view_of("8s 6d 8h Th"), "ko")
        assert (info.running, info.true, info.suggestion, info.balanced, info.key_count) == (-19, None, None, False, 4)

    def test_balanced_systems_have_a_true_count_and_bet(self) -> None:
        """Omega II tags the 8s 0 and the 6 +2: running +2, true count 2 x 52/309, bet one unit."""
        info = advice.count(view_of("8s 6d 8h Th"), "omega_2")
        assert (info.running, info.true, info.suggestion) == (2, pytest.approx(104 / 309), VEGAS.min_bet)

    def test_unknown_system_is_unavailable(self) -> None:
        """A key that names no system is reported, not a crash."""
        with pytest.raises(advice.HintsUnavailable, match="unknown counting system"):
            advice.count(view_of("8s 6d 8h Th"), "red_seven")


class TestInsuranceByCount:
    """Against an ace, the count's insurance decision, for Hi-Lo (true count +3) and KO (running count +3) only."""

    def test_hi_lo_declines_at_a_low_true_count(self) -> None:
        """T, A, 9 seen from 6 decks: Hi-Lo -2, far below a true count of +3: decline."""
        info = advice.count(view_of("Ts As 9h 7c"))
        assert (info.insurance, info.insurance_index) == (False, "true count +3")

    def test_ko_declines_below_running_count_three(self) -> None:
        """KO: -20 - 2 = -22, below +3: decline, by the running count."""
        info = advice.count(view_of("Ts As 9h 7c"), "ko")
        assert (info.insurance, info.insurance_index) == (False, "running count +3")

    @pytest.mark.parametrize("key", ["hi_opt_1", "omega_2", "zen"])
    def test_systems_without_an_index_say_nothing(self, key: str) -> None:
        """Hi-Opt I, Omega II and Zen have no insurance index in the kit: no decision."""
        info = advice.count(view_of("Ts As 9h 7c"), key)
        assert (info.insurance, info.insurance_index) == (None, None)

    def test_no_decision_without_an_ace(self) -> None:
        """Against a 6 there is no insurance to decide."""
        assert advice.count(view_of("8s 6d 8h Th")).insurance is None

    @pytest.mark.parametrize("key", ["hi_lo", "ko"])
    def test_take_it_at_a_high_count(self, key: str) -> None:
        """One deck, three seats: 2 3 4, the ace, 5 6 2 seen: +5 in both (KO starts one deck at 0);
        Hi-Lo's true count is 5 x 52/45 > 3 and KO's running count 5 >= 3: take it."""
        rules = Rules.preset("single_deck")
        info = advice.count(view_of("2s 3s 4s As 5s 6s 2h Kc", rules, bets=[10, 10, 10]), key)
        assert (info.running, info.insurance) == (5, True)


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

    def test_the_panel_gets_the_exact_evs(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Computed off the Tk thread, the hint needs no work budget: its EVs are exact even where hint()'s
        default would fall back (here a budget of 0 units)."""
        from blackjack.hints import advice as hint_advice
        from blackjack.hints import expected_values
        monkeypatch.setattr(hint_advice, "EXACT_WORK_BUDGET", 0)
        view = view_of("2s 2d 2h Th")
        hand = view.current_hand
        assert hand is not None
        want = expected_values(list(hand.cards), 2, view.unseen_counts, view.rules)
        assert advice.advise(view).evs == {a: v for a, v in want.items() if a in view.legal_actions}

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
