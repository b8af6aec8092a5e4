"""simulate(): agreement with the exact house edge, reproducibility, and the statistics."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction
import json
import math
import random
from typing import Any

import pytest

from blackjack import Rules
from blackjack.sim import basic_strategy_edge, simulate
from blackjack.sim.__main__ import main
from blackjack.sim.stats import hand_type
from blackjack.sim.strategies import ChartStrategy

# About 6 s per preset at ~25k hands/s on one core; SE ~0.29% of a bet, so 4 SE ~1.2%.
HANDS = 150_000


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["vegas", "single_deck"])
def test_basic_strategy_ev_agrees_with_hint_library(preset: str) -> None:
    """The simulated basic-strategy EV is within 4 standard errors of the hint library's exact EV."""
    rules = Rules.preset(preset)
    exact = basic_strategy_edge(rules)
    report = simulate("basic", rules, hands=HANDS, seed=2024)[0]
    assert abs(report.ev - exact) < 4 * report.se, \
        f"{preset}: simulated EV {report.ev:+.4%} +/- {report.se:.4%}, exact {exact:+.4%}"


def test_exact_edges_reflect_the_payout() -> None:
    """A 6:5 single deck is at least 1% worse for the player than the 3:2 six-deck vegas game."""
    assert basic_strategy_edge(Rules.preset("single_deck")) < basic_strategy_edge(Rules.preset("vegas")) - 0.01


def test_same_seed_same_result_for_any_jobs() -> None:
    """jobs=1 and jobs=2 give identical reports for the same seed."""
    one = simulate(["basic", "never-bust"], "vegas", hands=12_000, seed=9, jobs=1)
    two = simulate(["basic", "never-bust"], "vegas", hands=12_000, seed=9, jobs=2)
    assert [r.as_dict() for r in one] == [r.as_dict() for r in two]


def test_different_seeds_differ() -> None:
    """Two seeds play different shoes."""
    assert simulate("basic", hands=3000, seed=1)[0].net_credits != simulate("basic", hands=3000, seed=2)[0].net_credits


def test_flat_bet_standard_error_is_sd_over_root_n() -> None:
    """With one seat and flat bets the EV's standard error is the per-hand sd / sqrt(n)."""
    report = simulate("basic", hands=8000, seed=3)[0]
    assert report.se == pytest.approx(report.sd_per_hand / math.sqrt(report.rounds), rel=1e-3)


def test_ev_equals_exact_net_over_wagered() -> None:
    """The EV is the exact net result divided by the initial bets (flat betting)."""
    report = simulate("never-bust", hands=5000, seed=4)[0]
    assert report.ev == pytest.approx(float(report.net_credits / report.wagered_credits), rel=1e-9)


def test_player_error_costs_money() -> None:
    """Half the decisions at random lose more than basic strategy on the same shoes."""
    clean = simulate("basic", hands=20_000, seed=5)[0]
    sloppy = simulate("basic", hands=20_000, seed=5, player_error=0.5)[0]
    assert sloppy.ev < clean.ev - 0.02, f"basic {clean.ev:+.3%} vs 50% errors {sloppy.ev:+.3%}"


def test_hi_lo_spreads_bets_and_splits_results_by_count() -> None:
    """hi-lo bets more than one unit on average and reports rows by true count."""
    report = simulate("hi-lo", hands=10_000, seed=6)[0]
    assert report.average_bet > 1
    assert sum(int(row["rounds"]) for row in report.by_true_count) == report.rounds


def test_risk_of_ruin_is_reported_per_session() -> None:
    """A 5-unit bankroll over 100 sessions of 200 rounds is ruined in most sessions."""
    report = simulate("basic", hands=20_000, seed=7, bankroll=5, sessions=100)[0]
    assert report.risk_of_ruin is not None
    assert report.risk_of_ruin["sessions"] == 100
    assert report.risk_of_ruin["risk"] > 0.5


@pytest.mark.parametrize(("cards", "kind"), [((1, 10), "natural"), ((8, 8), "pair"), ((1, 6), "soft"),
                                             ((2, 3), "hard 5-8"), ((4, 7), "hard 9-11"),
                                             ((10, 6), "hard 12-16"), ((10, 9), "hard 17-20")])
def test_hand_type(cards: tuple[int, int], kind: str) -> None:
    """Initial hands are classed as natural, pair, soft or a band of hard totals."""
    assert hand_type(*cards) == kind


class _Legal:
    """Stands in for a round: only is_legal is asked."""

    def __init__(self, legal: set[object]) -> None:
        self.legal = legal

    def is_legal(self, action: object) -> bool:
        return action in self.legal


@pytest.mark.parametrize("preset", ["vegas", "single_deck", "european"])
def test_basic_reads_a_live_hand_as_chart_action_reads_cards(preset: str) -> None:
    """The simulator's basic strategy (total, softness and pair read off a live Hand, legality asked of the
    round) gives Chart.action's move for every hand, upcard and legal set."""
    from blackjack import Action, Card, Hand, Suit
    rules = Rules.preset(preset)
    strategy = ChartStrategy("basic", rules)
    rng = random.Random(1)
    legal_sets = [{Action.HIT, Action.STAND}, {Action.HIT, Action.STAND, Action.DOUBLE},
                  {Action.HIT, Action.STAND, Action.SPLIT}, {Action.HIT, Action.STAND, Action.SURRENDER},
                  {Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER}, {Action.STAND}]
    for a in range(1, 11):
        for b in range(a, 11):
            for extra in ([], [rng.randint(1, 4)]):
                hand = Hand([Card(Suit.SPADES, v) for v in (a, b, *extra)])
                if hand.get_score() > 21:
                    continue
                for up in range(1, 11):
                    for legal in legal_sets:
                        got = strategy.decide(hand, up, _Legal(legal), 0.0)  # type: ignore[arg-type]
                        want = strategy.chart.action([a, b, *extra], up, legal=legal)
                        assert got is want, f"{hand} vs {up} legal {sorted(x.value for x in legal)}"


def test_cli_writes_json(tmp_path: object) -> None:
    """blackjack-kit-sim --json PATH writes one report per strategy."""
    from pathlib import Path
    out = Path(str(tmp_path)) / "r.json"
    assert main(["--strategy", "basic", "always-stand", "--hands", "2000", "--quiet", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [r["strategy"] for r in data["reports"]] == ["basic", "always-stand"]


def test_cli_bad_preset_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown preset is a usage mistake: exit 2 with a one-line message naming --rules and the choices."""
    with pytest.raises(SystemExit) as done:
        main(["--rules", "vegs", "--hands", "10", "--quiet"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rules: unknown preset" in err and "vegas" in err and "(see --help)" in err


def test_blocks_carry_the_chart_so_worker_processes_need_not_derive_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate() derives the basic-strategy chart once and hands it to every block; a block with a
    chart never derives it (a spawned worker would otherwise spend a second on it)."""
    import blackjack.hints.strategy as hint_strategy
    from blackjack.sim import runner

    rules = Rules.preset("vegas")
    chart = hint_strategy.basic_strategy(rules)
    seen: list[runner.Block] = []
    real_run = runner._run

    def spy(blocks: Iterable[runner.Block], total: int, jobs: int, progress: object, merged: Any,
            executor: object = None) -> None:
        listed = list(blocks)
        seen.extend(listed)
        real_run(listed, total, jobs, None, merged)
    monkeypatch.setattr(runner, "_run", spy)
    simulate(["basic", "hi-lo", "never-bust"], rules, hands=300, seed=1)
    assert {b.strategy: b.chart is chart for b in seen} == {"basic": True, "hi-lo": True, "never-bust": False}

    def refuse(_rules: Rules) -> object:
        raise AssertionError("the chart was derived again")
    monkeypatch.setattr(hint_strategy, "basic_strategy", refuse)
    assert runner.run_block(runner.Block(rules, "basic", 0, 200, 1, chart=chart)).rounds == 200
    with pytest.raises(AssertionError, match="derived again"):
        runner.run_block(runner.Block(rules, "basic", 0, 200, 1))


@pytest.mark.slow  # 15-16 s alone (tests/README.md: a test over about 10 s is slow)
def test_cli_rule_switches_change_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Each rule switch reaches the Rules the simulation plays (read back from the JSON report's rules line)."""
    assert main(["--hands", "300", "--quiet", "--json", "-", "--decks", "2", "--h17", "--blackjack-pays", "6/5",
                 "--surrender", "none", "--double-on", "10-11", "--no-das", "--max-split-hands", "2"]) == 0
    rules = json.loads(capsys.readouterr().out)["reports"][0]["rules"]
    assert rules.startswith("vegas*: 2D H17 6:5 D10-11") and "DAS" not in rules and "LS" not in rules


@pytest.mark.parametrize("strategy", ["basic", "hi-lo"])
def test_hand_type_contributions_add_up_to_the_ev(strategy: str) -> None:
    """The rows of "result by initial hand" add up to the EV, also for hi-lo's bet spread (they used to
    sum net/bet per hand over the total bet in units, which is right only for flat bets)."""
    report = simulate(strategy, "vegas", hands=20_000, seed=0, players=2)[0]
    total = sum(float(row["contribution"]) for row in report.by_hand_type)
    assert total == pytest.approx(report.ev, rel=1e-9, abs=1e-12)
    assert sum(float(row["share"]) for row in report.by_hand_type) == pytest.approx(1.0)


@pytest.mark.parametrize("preset", ["vegas", "european"])
def test_natural_rate_is_the_natural_row_of_the_hand_types(preset: str) -> None:
    """The natural rate counts every initial hand dealt A+10, also those pushed by a dealer natural (it used
    to count only the paid ones), so it equals the share of the natural row of "result by initial hand"."""
    report = simulate("basic", preset, hands=20_000, seed=0, players=2)[0]
    row = next(row for row in report.by_hand_type if row["type"] == "natural")
    assert report.frequencies["natural"] == row["share"]
    assert report.frequencies["natural"] > 0.04


def test_natural_rate_is_labelled_as_dealt(capsys: pytest.CaptureFixture[str]) -> None:
    """The text report says what the natural rate counts."""
    assert main(["--hands", "2000", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "natural rate (A+10 dealt)" in out
    assert "natural: A+10 dealt, whatever the dealer had" in out


def test_no_money_table_is_settled_at_even_money() -> None:
    """cs111 plays for no money; the simulator settles each hand as a one-unit bet at even money and says
    so (it used to report an EV, standard error and house edge of exactly 0)."""
    for report in simulate(["basic", "always-stand"], "cs111", hands=2000, seed=0):
        win, loss = report.frequencies["win"], report.frequencies["loss"]
        assert report.ev == pytest.approx(win - loss)  # one final hand per initial hand: no splits
        assert report.ev < 0 < report.se
        assert report.average_bet == 1
        assert report.net_credits == round((win - loss) * report.hands)
        assert "settled as one-unit bets at even money" in report.rules


@pytest.mark.slow  # 15-16 s alone (tests/README.md: a test over about 10 s is slow)
def test_no_money_table_with_a_shoe_bets_flat() -> None:
    """On a no-money table with a shoe and doubling, hi-lo still counts but bets one unit, at the table's payouts."""
    rules = dataclasses.replace(Rules.preset("cs111"), reshuffle_every_round=False, double_on="any", decks=6)
    report = simulate("hi-lo", rules, hands=5000, seed=1)[0]
    assert report.average_bet == 1
    assert report.ev != 0 and report.frequencies["double"] > 0
    assert "settled as one-unit bets at the table's payouts" in report.rules


def test_no_money_table_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """The text report of a cs111 run says how it was settled and shows a non-zero EV."""
    assert main(["--rules", "cs111", "--strategy", "basic", "always-stand", "--hands", "2000", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rules: cs111:") and "(settled as one-unit bets at even money)" in out.splitlines()[0]
    assert "+0.000%" not in out


def test_hi_lo_bets_count_what_the_table_maximum_lets_it_stake() -> None:
    """With a table maximum of 3 units, hi-lo's 8-unit ramp is capped at 3, and the average bet, the rows by
    true count and the credits wagered count the 3 units staked (they counted the uncapped ramp, so EV per
    unit wagered and the bet-weighted rows were off)."""
    vegas = Rules.preset("vegas")
    rules = dataclasses.replace(vegas, max_bet=3 * vegas.min_bet)
    report = simulate("hi-lo", rules, hands=20_000, seed=6, players=2)[0]
    assert 1 * 2 < report.average_bet < 3 * 2  # per round of two seats
    assert max(float(row["average_bet"]) for row in report.by_true_count) == 3 * 2
    wagered = Fraction(report.average_bet).limit_denominator(10**6) * report.rounds * vegas.min_bet
    assert report.wagered_credits == wagered
    total = sum(float(row["contribution"]) for row in report.by_hand_type)
    assert total == pytest.approx(report.ev, rel=1e-9, abs=1e-12)


def test_strategies_meet_the_same_shoes_on_one_seed() -> None:
    """cs111 reshuffles every round, so on one seed every strategy is dealt the same starting hands: the shares
    of "result by initial hand" agree exactly (each shuffle used to permute the order the last round's play
    left, so the strategies' cards parted after the first round)."""
    reports = simulate(["basic", "always-stand", "never-bust"], "cs111", hands=3000, seed=4)
    shares = [[row["share"] for row in report.by_hand_type] for report in reports]
    assert shares[0] == shares[1] == shares[2]


@pytest.mark.parametrize("preset", ["vegas", "single_deck", "european", "atlantic_city"])
def test_chart_play_tree_is_chart_play_for_every_set_of_legal_moves(preset: str) -> None:
    """The basic strategy's decision trees (derived once per hand from Chart.play) give Chart.play's move for
    every total, softness, pair, upcard and each of the 16 sets of optional moves allowed (stand always is)."""
    import itertools
    from blackjack import Action
    from blackjack.sim.strategies import chart_play
    chart = ChartStrategy("basic", Rules.preset(preset)).chart
    moves = (Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
    keys = [(total, False, None) for total in range(4, 21)] + [(total, True, None) for total in range(12, 21)]
    keys += [(12, True, 1)] + [(2 * value, False, value) for value in range(2, 11)]
    checked = 0
    for (total, soft, pair), up in itertools.product(keys, range(1, 11)):
        tree = chart_play(chart, total, soft, pair, up)
        for n in range(len(moves) + 1):
            for allowed in itertools.combinations(moves, n):
                legal = {Action.STAND, *allowed}
                node = tree
                while isinstance(node, tuple):
                    node = node[1] if node[0] in legal else node[2]
                assert node is chart.play(total, soft, pair, up, legal.__contains__), (total, soft, pair, up, legal)
                checked += 1
    assert checked == len(keys) * 10 * 16
