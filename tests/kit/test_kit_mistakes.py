"""Common milestone-2 mistakes cost points, with a message that names the concept; the spec's order holds.

Each case is the reference with one student body rewritten the way a student gets it
wrong; the milestone-2 tests that should catch it run on that copy (only those tests, so
each case takes a second or two), and the test's message must name what went wrong.
The order cases stub the regions of the spec's later steps and check that a part's
tests need only the regions of its own step and the steps before it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.config import load_course, suite_path
from milestones.regions import Region, scan
from milestones.grader.runner import Limits, run_suite
from milestones.starter import write_packages

LIMITS = Limits(timeout=120, test_timeout=20)
SUITE = REPO_ROOT / suite_path(2)

#: name -> (module, function, new body ("..." stands for the reference body), tests that must fail, words every
#: failure message must hold)
MISTAKES: dict[str, tuple[str, str, list[str], list[str], list[str]]] = {
    "float money": (
        "blackjack/wagers.py", "payout",
        ["if result is Result.BLACKJACK:", "    return bet * 1.5", "if result is Result.WIN:", "    return bet",
         "if result is Result.PUSH:", "    return 0", "return -bet"],
        ["test_wagering.py::test_natural_pays_three_to_two_exactly"], ["float", "exact"]),
    "a bet under the minimum accepted": (
        "blackjack/player.py", "Player.check_bet",
        ["amount = to_money(bet)", "if amount > self.bankroll:", "    raise InvalidBetError('too much', bet)",
         "return amount"],
        ["test_wagering.py::test_bet_below_table_minimum_is_refused"],
        ["place_bet(0, 4)", "was accepted", "InvalidBetError", "minimum of 5"]),
    "a float bet lets to_money's TypeError out": (
        "blackjack/player.py", "Player.check_bet",
        ["amount = to_money(bet)", "if amount < rules.min_bet:", "    raise InvalidBetError('under the minimum', bet)",
         "if amount > rules.max_bet:", "    raise InvalidBetError('over the maximum', bet)",
         "if amount > self.bankroll:", "    raise InvalidBetError('too much', bet)", "return amount"],
        ["test_wagering.py::test_nonsense_bets_are_refused_and_change_nothing"],
        ["place_bet(0, 2.5), a bet of the float 2.5, raised TypeError", "must refuse it with InvalidBetError",
         "Money is exact, never a float", "an exact number of credits"]),
    "true_count floors with //": (
        "blackjack/hints/counting.py", "true_count",
        ["return running // (cards_remaining / 52)"],
        ["test_counting.py::test_true_count"], ["//", "exact quotient"]),
    "bust_probability ignores the peek": (
        "blackjack/hints/probability.py", "bust_probability",
        ["values = [card_value(c) for c in player_cards]", "hard, ace = sum(values), 1 in values",
         "counts = counts_from(shoe)", "chance = 0.0",
         "for v, p, _after in draws(counts, game_for(2, _DEFAULT_RULES)):",
         "    if total_of(hard + v, ace or v == 1) > 21:", "        chance += p", "return chance"],
        ["test_probabilities.py::test_bust_probability_after_the_peek"], ["peek", "0.591837"]),
    "dealer_probabilities prints": (
        "blackjack/hints/probability.py", "dealer_probabilities", ["print('thinking about', upcard)", "..."],
        ["test_probabilities.py::test_dealer_probabilities_sum_to_one"], ["printed 'thinking about", "never prints"]),
    "payout prints": (
        "blackjack/wagers.py", "payout", ["print('paying', result)", "..."],
        ["test_wagering.py::test_money_is_conserved_over_many_rounds"], ["printed 'paying", "never prints"]),
    "why_not_split allows everything": (
        "blackjack/plays.py", "why_not_split", ["return None"],
        ["test_advanced_play.py::test_split_a_non_pair_is_refused"], ["was accepted", "IllegalActionError", "8-9"]),
    "a stake never taken from the bankroll": (
        "blackjack/wagers.py", "take_stake",
        ["if amount > player.bankroll:", "    raise InvalidBetError('too much', amount)"],
        ["test_wagering.py::test_take_stake_takes_the_stake_off_the_bankroll_exactly_once",
         "test_wagering.py::test_bet_is_exact_and_leaves_the_bankroll_at_the_deal"], ["take_stake", "once", "975"]),
    "a stake taken before it is checked": (
        "blackjack/wagers.py", "take_stake",
        ["player.bankroll -= amount", "if amount <= 0 or player.bankroll < 0:",
         "    raise InvalidBetError('cannot stake that', amount)"],
        ["test_wagering.py::test_take_stake_refuses_what_the_bankroll_cannot_pay_and_changes_nothing"],
        ["a refused stake changes nothing", "should stay 1000", "check before you take"]),
    "a win paid without returning the stake": (
        "blackjack/wagers.py", "pay", ["player.bankroll += net"],
        ["test_wagering.py::test_pay_gives_a_win_back_its_stake_and_its_winnings"],
        ["stake back with the net", "990 + 10 + 10"]),
    "a float payment": (
        "blackjack/wagers.py", "pay", ["player.bankroll = float(player.bankroll + stake + net)"],
        ["test_wagering.py::test_pay_keeps_money_exact"],
        ["the float", "Money must be exact", "2015/2"]),
    "a summary that counts a push as a loss": (
        "blackjack/course_game.py", "summary_lines",
        ["lines = [f'Session summary: {game.rounds_played} rounds played.', '  player rounds won lost pushed net']",
         "for player in game.players:",
         "    ledger = player.ledger",
         "    lost = ledger.rounds - ledger.wins",
         "    lines.append(f'  {player.name} {ledger.rounds} {ledger.wins} {lost} {ledger.pushes} {ledger.net}')",
         "return lines"],
        ["test_wagering.py::test_summary_counts_a_push_as_neither_won_nor_lost"],
        ["a push is neither a win nor a loss", "lost 3 (should be 1)"]),
    "a summary with result words on a player's line": (
        "blackjack/course_game.py", "summary_lines",
        ["lines = [f'Session summary: {game.rounds_played} rounds played.']",
         "for player in game.players:",
         "    ledger = player.ledger",
         "    lines.append(f'  {player.name}: {ledger.rounds} rounds, won {ledger.wins}, lost {ledger.losses}, '",
         "                 f'pushed {ledger.pushes}, net {ledger.net}')",
         "return lines"],
        ["test_wagering.py::test_summary_gives_each_player_rounds_won_lost_pushed_and_net"],
        ["holds a result word", "header line"]),
    "a hint that hits a hard 17 like a dealer who hits soft 17": (
        "blackjack/hints/advice.py", "basic_advice",
        ["values = [card_value(c) for c in player_cards]", "total = total_of(sum(values), 1 in values)",
         "if legal is not None and Action.DECLINE in legal:", "    return Action.DECLINE, 'No insurance.'",
         "return (Action.HIT if total <= 17 else Action.STAND), 'Like the dealer, one card more on 17.'"],
        ["test_hints_basic.py::test_hint_never_hits_a_hard_17_or_more"], ["hard 17", "said HIT", "busts"]),
    "a hint that doubles where doubling is not allowed": (
        "blackjack/hints/advice.py", "basic_advice",
        ["values = [card_value(c) for c in player_cards]", "total = total_of(sum(values), 1 in values)",
         "if legal is not None and Action.DECLINE in legal:", "    return Action.DECLINE, 'No insurance.'",
         "if total in (10, 11):", "    return Action.DOUBLE, 'Double on 10 or 11.'",
         "return (Action.HIT if total < 17 else Action.STAND), 'Like the dealer.'"],
        ["test_hints_basic.py::test_every_hint_is_a_legal_move_with_a_one_line_reason"],
        ["said DOUBLE", "legal={HIT, STAND}", "one of the legal moves"]),
    "insurance taken from a true count of +2": (
        "blackjack/hints/counting.py", "count_advice",
        ["moves = fresh_moves(player_cards, rules) if legal is None else frozenset(legal)",
         "if Action.INSURANCE in moves:",
         "    return (Action.INSURANCE if true_count_value >= 2 else Action.DECLINE), 'By the count.'",
         "return basic_advice(player_cards, upcard, rules, legal=moves)"],
        ["test_counting.py::test_count_takes_insurance_from_plus_3"], ["should say DECLINE", "+3"]),
    "bet_ramp rounds the true count": (
        "blackjack/hints/counting.py", "bet_ramp",
        ["if unit <= 0 or spread < 1:", "    raise ValueError('a bad unit or spread')",
         "tc = round(true_count_value)", "units = 1 if tc < 2 else min(spread, 2 * (tc - 1))",
         "return Fraction(unit) * units"],
        ["test_counting.py::test_bet_ramp_follows_the_true_count"], ["floored", "bet_ramp(1.9, 5)", "got 10"]),
    "bet_ramp bets a float": (
        "blackjack/hints/counting.py", "bet_ramp",
        ["if unit <= 0 or spread < 1:", "    raise ValueError('a bad unit or spread')",
         "tc = math.floor(true_count_value)", "units = 1 if tc < 2 else min(spread, 2 * (tc - 1))",
         "return float(unit) * units"],
        ["test_counting.py::test_bet_ramp_is_exact_money_and_refuses_bad_units"], ["float", "exact", "5/2"]),
    "a double that does not double the stake": (
        "blackjack/plays.py", "double_down", ["play.draw()", "play.end_hand()"],
        ["test_advanced_play.py::test_double_eleven_against_six",
         "test_advanced_play.py::test_a_doubled_hand_that_busts_loses_twice_the_bet"], ["second stake"]),
    "a split hand that never gets its second card": (
        "blackjack/plays.py", "deal_split_card",
        ["if split_aces(play.hand) and not play.rules.hit_split_aces and why_not_split(play) is not None:",
         "    play.end_hand()"],
        ["test_advanced_play.py::test_split_eights_against_ten",
         "test_advanced_play.py::test_each_split_hand_gets_its_second_card_when_play_reaches_it"], ["second card"]),
    "insurance paid 3:2": (
        "blackjack/plays.py", "insurance_net", ["return stake * 3 / 2 if dealer_natural else -stake"],
        ["test_advanced_play.py::test_insurance_against_dealer_natural_pays_two_to_one"], ["2:1"]),
    "an ace and a ten after a split paid 3:2 as a natural": (
        "blackjack/plays.py", "split",
        ["first, second = play.hand.cards", "play.replace_hand(Hand([first], from_split=True))",
         "play.add_hand(Hand([second]), play.bet)"],
        ["test_advanced_play.py::test_an_ace_and_a_ten_after_a_split_is_not_a_natural"], ["never a natural", "+15"]),
}


def _expand(line: str, module: str, function: str) -> list[str]:
    """``line``, or the reference body of ``module``'s ``function`` (unindented) for ``"..."``."""
    if line != "...":
        return [line]
    [region] = [r for r in scan(REPO_ROOT) if r.module == module and r.qualname == function]
    return [text[len(region.indent):] for text in region.body.splitlines()]


def _run(folder: Path, names: list[str]) -> dict[str, tuple[str, str]]:
    """Run the milestone-2 tests ``names`` (``file::test``) on ``folder``; ``name -> (outcome, message)``."""
    run = run_suite(SUITE, folder, limits=LIMITS, select=[f"{SUITE / name}" for name in names])
    return {name: outcome for name in names for nodeid, outcome in run.results.items()
            if nodeid.endswith(name.split("::")[0] + "::" + name.split("::")[1])}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_common_mistake_costs_points_with_a_message_naming_it(mistake: str, tmp_path: Path) -> None:
    """The mistake fails the tests that cover it, and each message names the concept (not a raw diff)."""
    module, function, body, tests, words = MISTAKES[mistake]
    folder = tmp_path / "submission"
    write_packages(folder, lambda r: False)
    replace_body(folder, module, function, [line for part in body for line in _expand(part, module, function)])
    results = _run(folder, tests)
    assert sorted(results) == sorted(tests), f"the tests did not all run: {results}"
    for name, (outcome, message) in results.items():
        assert outcome == "failed", f"{mistake}: {name} should fail; it {outcome}"
        missing = [w for w in words if w not in message]
        assert not missing, f"{mistake}: {name}'s message should say {missing}; it says: {message}"
        assert "\nassert " not in message and "DID NOT RAISE" not in message, message


#: The spec's steps (milestones/specs/milestone2.md, and points.toml's order, which check follows) as regions:
#: a part's tests must pass with its own step and the earlier ones written and every later step stubbed.
STEPS = {
    "wagering": ("test_wagering.py", {"Player.check_bet", "take_stake", "payout", "pay", "summary_lines", "ask_bet",
                                      "take_bets"}),
    "advanced": ("test_advanced_play.py", {"why_not_double", "why_not_split", "double_down", "split",
                                           "deal_split_card", "insurance_limit", "insurance_net", "ask_move",
                                           "play_money_round"}),
    "probabilities": ("test_probabilities.py", {"dealer_probabilities", "bust_probability", "expected_values"}),
    "hints": ("test_hints_basic.py", {"basic_advice"}),  # its reasons quote the given bust_probability, dealer_probabilities
    "counting": ("test_counting.py", {"running_count", "true_count", "bet_ramp", "count_advice"}),
}


@pytest.mark.parametrize("part", STEPS)
def test_a_part_needs_only_the_spec_steps_up_to_it(part: str, tmp_path: Path) -> None:
    """With the spec's steps up to this part written and the later ones stubbed, the part's tests all pass:
    `check` sends a student through the spec in order, and no test there needs a region of a later step
    (test_win_pays_one_to_one used to need Round._why_not, the advanced part's legality, now in blackjack/plays.py)."""
    keys = list(STEPS)
    written = set().union(*(STEPS[k][1] for k in keys[:keys.index(part) + 1]))

    def stub(region: Region) -> bool:
        return region.milestone >= 2 and region.qualname not in written

    folder = tmp_path / "submission"
    write_packages(folder, stub)
    run = run_suite(SUITE / STEPS[part][0], folder, limits=LIMITS)
    failed = {nodeid.split("::")[-1]: message for nodeid, (outcome, message) in run.results.items()
              if outcome != "passed"}
    assert run.results and not failed, f"{part}'s tests need a later step's code: {failed}"


def test_check_follows_the_same_steps() -> None:
    """points.toml's order for milestone 2 (check's Next) is the order of the steps above."""
    assert load_course().milestone(2).order == tuple(module for module, _ in STEPS.values())
