"""hint(view) (blackjack.hints.table_hint), basic_advice and first-time tips (blackjack.hints.advice)."""

from __future__ import annotations

import dataclasses
import gc
import time
from typing import Any

import pytest

from blackjack import Action, Blackjack, IllegalActionError, Phase, Rules
from blackjack.hints import TipBook, _player, _work, advice, basic_advice, expected_values, hint, table_hint
from blackjack.hints.probability import full_shoe, without

VEGAS = Rules.preset("vegas")
#: hint()'s work budget as shipped (TestHint's fixture replaces it with one nothing reaches).
DEFAULT_BUDGET = advice.EXACT_WORK_BUDGET


def view_for(codes: str, rules: Rules = VEGAS, seed: int = 1):  # type: ignore[no-untyped-def]
    """A one-seat round dealt from a stacked shoe: player, upcard, player, hole card."""
    game = Blackjack(["Ann"], rules, seed=seed)
    game.shoe.stack(codes.split())
    rnd = game.start_round([10])
    return rnd, rnd.view()


class TestBasicAdvice:
    """basic_advice: the kit's own hand-written strategy, in words."""

    def test_stand_on_stiff_against_six(self) -> None:
        """16 vs 6: stand, because the dealer is likely to bust."""
        action, reason = basic_advice([10, 6], 6)
        assert action is Action.STAND
        assert "6" in reason and "bust" in reason

    def test_other_plays(self) -> None:
        """11 vs 6 doubles, 8-8 splits, 16 vs 10 hits without surrender and surrenders with it."""
        assert basic_advice([5, 6], 6)[0] is Action.DOUBLE
        assert basic_advice([8, 8], 10)[0] is Action.SPLIT
        assert basic_advice([10, 6], 10)[0] is Action.HIT
        assert basic_advice([10, 6], 10, VEGAS)[0] is Action.SURRENDER
        assert basic_advice([10, 6], 10, VEGAS, legal={Action.HIT, Action.STAND})[0] is Action.HIT

    @pytest.mark.parametrize("rules", [Rules(), VEGAS, Rules.preset("atlantic_city"), Rules.preset("european"),
                                       Rules.preset("justblackjack"), Rules(double_after_split=False),
                                       Rules(dealer_hits_soft_17=True, surrender="late")], ids=lambda r: r.summary())
    def test_the_written_rules_are_the_derived_chart(self, rules: Rules) -> None:
        """On every two-card hand against every upcard, for the shipped 6- and 8-deck charts (S17 and H17, with and
        without DAS, late surrender, no hole card), the hand-written rules give the chart's play."""
        from blackjack.hints import basic_strategy
        chart = basic_strategy(rules)
        differ = [(a, b, up) for up in range(1, 11) for a in range(1, 11) for b in range(a, 11)
                  if basic_advice([a, b], up, rules)[0] is not chart.action([a, b], up)]
        assert differ == []

    def test_fewer_decks_differ_from_their_chart_in_a_few_cells(self) -> None:
        """The written rules are a multi-deck strategy: one and two decks have cells of their own (9 v 2 doubles)."""
        from blackjack.hints import basic_strategy
        for name, most in (("downtown", 6), ("single_deck", 16)):
            rules = Rules.preset(name)
            chart = basic_strategy(rules)
            differ = [(a, b, up) for up in range(1, 11) for a in range(1, 11) for b in range(a, 11)
                      if basic_advice([a, b], up, rules)[0] is not chart.action([a, b], up)]
            assert 0 < len(differ) <= most and (4, 5, 2) in differ, (name, differ)

    def test_every_hint_is_legal_with_a_one_line_reason(self) -> None:
        """Every hand of two or three cards, each set of legal moves a round can offer it: a legal move, one line."""
        from itertools import combinations
        moves = [Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER]
        for rules in (Rules(), VEGAS, Rules.preset("single_deck")):
            for cards in [[a, b] for a in range(1, 11) for b in range(a, 11)] + [[2, 3, 4], [10, 2, 4], [1, 2, 3]]:
                for up in range(1, 11):
                    for extra in range(4):
                        for chosen in combinations(moves[2:], extra if extra < 3 else 3):
                            legal = frozenset({Action.HIT, Action.STAND, *chosen})
                            action, reason = basic_advice(cards, up, rules, legal=legal)
                            assert action in legal and reason.strip() and "\n" not in reason, (cards, up, legal)
        assert basic_advice([10, 6], 1, legal={Action.INSURANCE, Action.DECLINE})[0] is Action.DECLINE

    def test_fresh_moves(self) -> None:
        """The default legal moves: double and surrender on two cards as the rules allow, split on a pair by rank."""
        from blackjack import parse_cards
        from blackjack.hints import fresh_moves
        H, S, D, P, R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER
        assert fresh_moves([8, 8]) == {H, S, D, P} and fresh_moves([10, 2, 4]) == {H, S}
        assert fresh_moves([10, 6], VEGAS) == {H, S, D, R}
        assert fresh_moves(parse_cards("Kd Qs")) == {H, S, D} and fresh_moves([10, 10]) == {H, S, D, P}
        assert fresh_moves([5, 4], Rules.preset("european")) == {H, S, D}
        assert fresh_moves([5, 3], Rules.preset("european")) == {H, S}


class TestHint:
    """hint(view) on real rounds (with a work budget no computation here reaches, unless a test sets one)."""

    @pytest.fixture(autouse=True)
    def _no_budget_limit(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(advice, "EXACT_WORK_BUDGET", 10 ** 15)

    def test_player_turn(self) -> None:
        """T-6 vs 6: stand, with EVs equal to expected_values on the view's unseen cards."""
        _rnd, view = view_for("Th 6c 6d 9s")
        got = hint(view)
        assert got.action is Action.STAND and got.exact
        want = expected_values(list(view.current_hand.cards), 6, view.unseen_counts, VEGAS)
        assert got.evs == {a: v for a, v in want.items() if a in view.legal_actions}
        assert got.bust_chance == pytest.approx(sum(view.unseen_counts[v] for v in (6, 7, 8, 9, 10))
                                                / sum(view.unseen_counts.values()))
        assert abs(sum(got.dealer.values()) - 1) < 1e-12
        assert any("EV" in line for line in got.lines())

    def test_hole_card_not_used(self) -> None:
        """Two rounds that differ only in the hole card give the same hint."""
        one = hint(view_for("Th 6c 6d 9s")[1])
        two = hint(view_for("Th 6c 6d 5s")[1])
        assert one == two

    def test_insurance_offer(self) -> None:
        """With an ace up the hint declines insurance (a fresh shoe has too few tens)."""
        rnd, view = view_for("8h As 8d 9s")
        assert view.phase is Phase.INSURANCE
        got = hint(view)
        assert got.action is Action.DECLINE and got.evs[Action.INSURANCE] < 0
        rnd.apply(Action.DECLINE)
        assert hint(rnd.view()).action is Action.SPLIT

    def test_no_decision(self) -> None:
        """A settled round has nothing to hint."""
        rnd, _view = view_for("Th 6c 6d 9s")
        rnd.apply(Action.STAND)
        with pytest.raises(IllegalActionError):
            hint(rnd.view())

    def test_stand_in_view(self) -> None:
        """hint() accepts any object with the TableView attributes."""
        _rnd, view = view_for("Th 6c 6d 9s")

        @dataclasses.dataclass(frozen=True)
        class StandIn:
            phase: Phase
            rules: Rules
            dealer: object
            seats: tuple[object, ...]
            turn: tuple[int, int] | None
            legal_actions: frozenset[Action]
            unseen_counts: dict[int, int]
            cards_remaining: int

        fake = StandIn(view.phase, view.rules, view.dealer, view.seats, view.turn, view.legal_actions,
                       dict(view.unseen_counts), view.cards_remaining)
        assert hint(fake).action is Action.STAND  # type: ignore[arg-type]

    def test_budget_zero_falls_back_large_is_exact(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With no work units a hard 5 against a 2 falls back to the approximation and says so; a large budget is exact."""
        _rnd, view = view_for("2h 2c 3d 9s")
        cold()
        monkeypatch.setattr(advice, "EXACT_WORK_BUDGET", 0)  # the first memo miss passes the budget
        got = hint(view)
        assert not got.exact and got.action is Action.HIT
        rough = expected_values(list(view.current_hand.cards), 2, view.unseen_counts, VEGAS, exact=False)
        assert got.evs == {a: v for a, v in rough.items() if a in view.legal_actions}
        monkeypatch.setattr(advice, "EXACT_WORK_BUDGET", 10 ** 15)
        exact = hint(view)
        assert exact.exact and exact.evs != got.evs
        want = expected_values(list(view.current_hand.cards), 2, view.unseen_counts, VEGAS)
        assert exact.evs == {a: v for a, v in want.items() if a in view.legal_actions}

    def test_budget_leaves_caches_sound(self) -> None:
        """EVs stopped by the work budget leave only finished values memoised: a later exact call agrees with a cold one."""
        counts = without(full_shoe(6), (3, 3, 1))
        cold()
        want = expected_values([3, 3], 1, counts, Rules(decks=6))
        cold()
        with pytest.raises(_work.OutOfWork):
            with _work.work_budget(100_000) as budget:
                expected_values([3, 3], 1, counts, Rules(decks=6))
        assert budget.used > budget.limit
        assert expected_values([3, 3], 1, counts, Rules(decks=6)) == want

    def test_choice_does_not_depend_on_the_clock(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The shipped budget's exact/approximate choice and the hint are the same when every clock jumps an hour per read.

        Cold, T-6 v 6 from a fresh 6-deck shoe needs fewer units than the budget and is
        exact, 2-2 v 2 needs more and falls back; after one exact hint (the memos warm)
        2-2 v 2 is exact by default too: the choice follows the call history, not the machine.
        """
        monkeypatch.setattr(advice, "EXACT_WORK_BUDGET", DEFAULT_BUDGET)
        cases = [view_for(codes)[1] for codes in ("Th 6c 6d 9s", "2h 2c 2d 9s")]

        def run() -> list[tuple[object, ...]]:
            out: list[tuple[object, ...]] = []
            for view in cases:
                cold()
                with _work.work_budget(10 ** 15) as meter:
                    expected_values(list(view.current_hand.cards), view.dealer.upcard.get_value(),
                                    view.unseen_counts, VEGAS)
                cold()
                first = hint(view)
                forced = hint(view, exact=True)
                again = hint(view)
                out.append((meter.used, first, forced, again))
            return out

        steady = run()
        ticks = iter(range(10 ** 9))

        def jumping() -> float:
            return 3600.0 * next(ticks)  # a machine so slow that every read is an hour later

        for clock in ("thread_time", "perf_counter", "process_time", "monotonic", "time"):
            monkeypatch.setattr(time, clock, jumping)
        slow = run()
        monkeypatch.undo()
        assert slow == steady
        (easy_units, easy, _, _), (hard_units, hard, hard_exact, hard_again) = steady
        assert easy_units <= DEFAULT_BUDGET < hard_units
        assert easy.exact and not hard.exact
        assert hard_again.exact and hard_again == hard_exact


def cold() -> None:
    """Forget every memo of the EV engine, so the next computation starts cold."""
    _player.clear_caches()


class TestTips:
    """TipBook shows each tip once."""

    def test_first_time_only(self) -> None:
        """The pair tip appears on the first pair, not the second."""
        book = TipBook()
        _rnd, view = view_for("8h 6s 8d 9s")
        keys = [tip.key for tip in book.check(view)]
        assert "pair" in keys and "stiff" in keys
        _rnd, again = view_for("8h 6s 8d 9s", seed=2)
        assert book.check(again) == ()
        book.reset()
        assert book.check(again)

    def test_insurance_and_disabled(self) -> None:
        """The insurance tip comes with the offer; a disabled book is silent."""
        _rnd, view = view_for("8h As 8d 9s")
        assert "insurance" in [t.key for t in TipBook().check(view)]
        assert TipBook(enabled=False).check(view) == ()


class TestIndexNotes:
    """hint() shows an index play only under the rules it was derived for."""

    def test_shown_in_a_six_deck_s17_game(self) -> None:
        """16 v 10 in the vegas game (6 decks, S17, peek): the I18 note appears."""
        _rnd, view = view_for("Th Tc 6d 9s")
        assert "16 vs 10" in hint(view).index_note

    def test_not_shown_under_h17_or_two_decks(self) -> None:
        """The same hand under H17 or in the 2-deck downtown game: no note (other indices hold there)."""
        h17 = dataclasses.replace(VEGAS, dealer_hits_soft_17=True)
        for rules in (h17, Rules.preset("downtown")):
            _rnd, view = view_for("Th Tc 6d 9s", rules)
            assert hint(view).index_note == "", rules.name

    def test_split_pair_gets_no_total_index(self) -> None:
        """6,6 v 4 splits by basic strategy, so the '12 vs 4' index is not shown."""
        _rnd, view = view_for("6h 4c 6d 9s")
        assert hint(view).index_note == ""


def test_approximate_evs_say_so() -> None:
    """A hint from the fallback says under its EVs that they are approximate; an exact one does not."""
    _rnd, view = view_for("Th 6c 6d 9s")
    assert table_hint.APPROXIMATE_NOTE in hint(view, exact=False).lines()
    assert table_hint.APPROXIMATE_NOTE not in hint(view, exact=True).lines()


def test_split_model_is_stated_with_the_evs() -> None:
    """A pair's hint says how its SPLIT EV was computed (CDP1, resplits, rank pairs); a non-pair's does not."""
    _rnd, view = view_for("8h Tc 8d 9s")
    got = hint(view, exact=True)
    assert Action.SPLIT in got.evs
    assert "CDP1" in got.split_model and "4 hands" in got.split_model and "rank" in got.split_model
    assert got.split_model in got.lines()
    assert "approximate" in hint(view, exact=False).split_model
    assert hint(view_for("Th Tc 6d 9s")[1]).split_model == ""


class TestCollectorPaused:
    """hint() pauses the cyclic garbage collector while it computes, and restores it after."""

    def test_paused_inside_restored_after(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Inside hint() the collector is off; after it, on again; nested pauses restore it only at the end."""
        seen: list[bool] = []
        real = table_hint.hint_evs

        def spy(*args: Any, **kwargs: Any) -> tuple[dict[Action, float], bool]:
            seen.append(gc.isenabled())
            return real(*args, **kwargs)

        monkeypatch.setattr(table_hint, "hint_evs", spy)
        assert gc.isenabled()
        hint(view_for("Th 6c 6d 9s")[1])
        assert seen == [False] and gc.isenabled()
        with _work.collector_paused():
            with _work.collector_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled()

    def test_a_collector_that_was_off_stays_off(self) -> None:
        """An application that turned the collector off keeps it off after a hint."""
        gc.disable()
        try:
            hint(view_for("Th 6c 6d 9s")[1])
            assert not gc.isenabled()
        finally:
            gc.enable()


class TestEarlySurrender:
    """The early-surrender hint comes before the peek: its words, EV and dealer odds say so."""

    @staticmethod
    def offer(rules: Rules):  # type: ignore[no-untyped-def]
        _rnd, view = view_for("Th As 6d 9s", rules)
        if view.phase is Phase.INSURANCE:
            _rnd.apply(Action.DECLINE)
            view = _rnd.view()
        assert view.phase is Phase.EARLY_SURRENDER
        return view

    def test_with_a_peek_the_odds_include_the_dealer_blackjack(self) -> None:
        rules = dataclasses.replace(VEGAS, surrender="early", insurance=False)
        got = hint(self.offer(rules))
        assert "before the dealer checks for blackjack" in got.reason
        assert got.dealer["blackjack"] > 0

    def test_without_a_peek_it_does_not_speak_of_one(self) -> None:
        rules = dataclasses.replace(VEGAS, surrender="early", insurance=False, dealer_peeks=False)
        got = hint(self.offer(rules))
        assert "checks" not in got.reason and "counting a dealer blackjack" in got.reason


class TestChartIfReady:
    """A hint never derives a chart (seconds of work): it names basic strategy's play only when one is at hand."""

    def test_no_chart_no_basic_play_then_one(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from blackjack.hints import strategy
        monkeypatch.setattr(strategy, "_DERIVED", {})
        strategy.basic_strategy.cache_clear()
        four_decks = dataclasses.replace(VEGAS, decks=4)
        assert strategy.chart_if_ready(four_decks) is None

        def no_derivation(rules: Rules) -> strategy.Chart:
            raise AssertionError("a hint derived a chart")

        monkeypatch.setattr(strategy, "derive_chart", no_derivation)
        _rnd, view = view_for("Th 9c 6d 8s", four_decks)
        assert hint(view).basic is None
        shipped = strategy.basic_strategy(VEGAS)
        monkeypatch.setattr(strategy, "derive_chart",
                            lambda rules: strategy.Chart(rules, shipped.hard, shipped.soft, shipped.pairs))
        strategy.basic_strategy(four_decks)  # derived once (here: a stand-in), kept
        assert hint(view).basic is Action.SURRENDER
        strategy.basic_strategy.cache_clear()

    def test_a_shipped_chart_is_at_hand(self) -> None:
        from blackjack.hints import strategy
        assert strategy.chart_if_ready(VEGAS) is strategy.basic_strategy(VEGAS)
