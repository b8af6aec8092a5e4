"""Milestone 2's planted mistakes: each costs points in its own part only, at most its function's share plus one.

Issue 37 planted realistic week 2-3 mistakes, one at a time, in the reference laid out as
a submission, graded each copy with the kit's grader (hidden tests included) and found
eleven priced wrongly: rules worth nothing (resplit aces, surrender's payout, the summary's
plus sign, KO's start count), and money bugs charged again in advanced play (a
``take_stake`` that never took the stake lost 17.5 points for a 3-point function). This
module is that table: every mistake, the part and the function it belongs to, and what
it must cost:

* some points (for the never-bust strategy, at least 2 of hints' 5);
* all of them in the mistake's own part;
* at most the function's share of its part (:data:`SHARES`) plus one point: the whole-game
  tests (the ledger, the conservation of money) or a test of another function of the part
  that calls it (``deal_split_card`` asks ``why_not_split``) may add that much.

All copies are graded in one batch: 53 grades of milestone 2 took 8 to 14 minutes of wall time on the
kit's busy two-core test machine.
``python tests/kit/test_kit_m2_mistakes.py [--tests FOLDER]`` prints the table of points
lost per part, with another kit's suites when ``--tests`` names its ``tests/`` folder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "submissions"))

from make_samples import replace_body
from test_kit_course_rules import planted_body  # the same plants: a body of its own, or the reference's edited

from milestones import REPO_ROOT
from milestones.grading import Grader, MilestoneGrade, find_submissions
from milestones.runner import Limits
from milestones.starter import write_packages

pytestmark = pytest.mark.slow

#: An edit of the reference body: ``(old, new)``, ``old`` found exactly once in the region's body.
Edit = tuple[str, str]

#: Each function's points in its part (milestones/specs/milestone2.md): ``function -> (part, points)``. The two
#: ``why_not_*`` share the 5 points of "when a hand may double or split", ``split`` and ``deal_split_card`` split's
#: 6, the insurance pair insurance's 5; ``running_count`` has the counting drill's point too (the drill is answered
#: with it).
SHARES: dict[str, tuple[str, float]] = {
    "Player.check_bet": ("wagering", 4), "take_stake": ("wagering", 2.5), "payout": ("wagering", 4.5),
    "pay": ("wagering", 2.5), "summary_lines": ("wagering", 3.5), "ask_bet": ("wagering", 1), "take_bets": ("wagering", 1),
    "why_not_double": ("advanced", 4.5), "why_not_split": ("advanced", 4.5), "double_down": ("advanced", 3.5),
    "split": ("advanced", 5), "deal_split_card": ("advanced", 5), "insurance_limit": ("advanced", 4),
    "insurance_net": ("advanced", 4), "ask_move": ("advanced", 1), "play_money_round": ("advanced", 2),
    "basic_advice": ("hints", 5),
    "dealer_probabilities": ("probabilities", 7), "bust_probability": ("probabilities", 3),
    "expected_values": ("probabilities", 10),
    "running_count": ("counting", 4), "true_count": ("counting", 2), "bet_ramp": ("counting", 2),
    "count_advice": ("counting", 2),
}


#: The functions graded together, by the name of their group.
GROUPS = {"why_not_double": "why_not", "why_not_split": "why_not", "split": "split", "deal_split_card": "split",
          "insurance_limit": "insurance", "insurance_net": "insurance"}


class Plant(NamedTuple):
    """A mistake planted in ``module``'s ``function``: its body replaced by ``body`` (lines, unindented), or the
    reference body with the one ``edit`` made. ``least``: the points it must lose at least (0: some, more than 0);
    ``issue``: one of the eleven issue 37 found priced wrongly (and the never-bust hints)."""

    module: str
    function: str
    body: tuple[str, ...] = ()
    edit: Edit | None = None
    least: float = 0
    issue: bool = False


WAGERS, PLAYS, ADVICE = "blackjack/wagers.py", "blackjack/plays.py", "blackjack/hints/advice.py"
PROBABILITY, COUNTING, GAME = "blackjack/hints/probability.py", "blackjack/hints/counting.py", "blackjack/course_game.py"
NATURAL = "return bet * rules.blackjack_pays"
SIGNED = 'signed = ("+" if net > 0 else "") + format_money(net)'
#: A hint body's start: the hand's total, and the insurance offer declined.
HINT = ("values = [card_value(c) for c in player_cards]", "total = total_of(sum(values), 1 in values)",
        "if legal is not None and Action.DECLINE in legal:", "    return Action.DECLINE, 'No insurance.'")

PLANTS: dict[str, Plant] = {
    # ---- the eleven issue 37 found, and the strategy nobody can defend
    "surrender loses the whole bet": Plant(WAGERS, "payout", edit=(
        "return -Fraction(bet) / 2  # SURRENDER", "return -bet  # SURRENDER"), issue=True),
    "a bust paid like a surrender": Plant(WAGERS, "payout", edit=(
        "if result is _LOSE or result is _BUST:", "if result is _LOSE:"), issue=True),
    "a natural paid 1:1": Plant(WAGERS, "payout", edit=(NATURAL, "return bet"), issue=True),
    "a natural paid 2:1": Plant(WAGERS, "payout", edit=(NATURAL, "return bet * 2"), issue=True),
    "a natural paid 3:2 as a float": Plant(WAGERS, "payout", edit=(NATURAL, "return bet * 1.5"), issue=True),
    "take_stake that does not reduce the bankroll": Plant(WAGERS, "take_stake", edit=(
        "player.bankroll -= amount", "player.bankroll - amount"), issue=True),
    "pay that returns a float": Plant(WAGERS, "pay", ("player.bankroll = float(player.bankroll + stake + net)",),
                                      issue=True),
    "pay that forgets the stake": Plant(WAGERS, "pay", ("player.bankroll += net",), issue=True),
    "the summary's net without its plus sign": Plant(GAME, "summary_lines", edit=(SIGNED, "signed = format_money(net)"),
                                                     issue=True),
    "resplitting aces without the rule allowing it": Plant(PLAYS, "why_not_split", edit=(
        'if split_aces(hand) and not rules.resplit_aces:\n    return "these rules do not allow resplitting aces"\n', ""),
        issue=True),
    "a KO count that starts at 0": Plant(COUNTING, "running_count", edit=(
        "start = chosen.initial_count(decks) if decks is not None and not chosen.balanced else 0", "start = 0"),
        issue=True),
    "hints that never bust: stand on 12 or more, hit below, never double or split": Plant(ADVICE, "basic_advice", (
        *HINT, "return (Action.STAND if total >= 12 else Action.HIT), 'Never bust: stand on 12 or more.'"),
        least=2, issue=True),
    # ---- the course game with money
    "a bet question that takes any bet": Plant(GAME, "ask_bet", ("return parse_bet(ask('bet? '))",)),
    "a player under the minimum asked anyway": Plant(GAME, "take_bets", (
        "return {seat: ask_bet(player, game.rules, ask, say) for seat, player in enumerate(game.players)}",)),
    "a move question that offers hit and stand only": Plant(GAME, "ask_move", (
        "return ask_hit_or_stand(name, ask, say)",)),
    "a round with money that stands on every hand": Plant(GAME, "play_money_round", (
        "rnd = game.start_round(take_bets(game, ask, say))", "while rnd.turn is not None:",
        "    rnd.apply(Action.DECLINE if Action.DECLINE in rnd.legal_actions() else Action.STAND)",
        "return game.finish_round()")),
    # ---- wagering
    "a surrender paid as -bet / 2.0": Plant(WAGERS, "payout", edit=("return -Fraction(bet) / 2", "return -bet / 2.0")),
    "a push paid like a win": Plant(WAGERS, "payout", edit=("return _ZERO", "return bet")),
    "a natural paid 3:2 at a 6:5 table": Plant(WAGERS, "payout", edit=(NATURAL, "return bet * Fraction(3, 2)")),
    "a stake taken before it is checked": Plant(WAGERS, "take_stake", (
        "player.bankroll -= amount", "if amount <= 0 or player.bankroll < 0:",
        "    raise InvalidBetError(f'{player.name} cannot stake {amount}', amount)")),
    "a stake of the whole bankroll refused": Plant(WAGERS, "take_stake", edit=(
        "if amount > player.bankroll:", "if amount >= player.bankroll:")),
    "a bet under the minimum accepted": Plant("blackjack/player.py", "Player.check_bet", (
        "amount = to_money(bet)", "if amount > self.bankroll:", "    raise InvalidBetError('too much', bet)",
        "return amount")),
    "a float bet lets to_money's TypeError out": Plant("blackjack/player.py", "Player.check_bet", (
        "amount = to_money(bet)", "if amount < rules.min_bet:", "    raise InvalidBetError('under the minimum', bet)",
        "if amount > rules.max_bet:", "    raise InvalidBetError('over the maximum', bet)",
        "if amount > self.bankroll:", "    raise InvalidBetError('too much', bet)", "return amount")),
    "a bet over the maximum accepted": Plant("blackjack/player.py", "Player.check_bet", edit=(
        "if amount > rules.max_bet:", "if amount > rules.max_bet and False:")),
    "a summary that counts a push as a loss": Plant(GAME, "summary_lines", (
        "lines = [f'Session summary: {game.rounds_played} rounds played.', '  player rounds won lost pushed net']",
        "for player in game.players:", "    ledger = player.ledger", "    lost = ledger.rounds - ledger.wins",
        "    sign = '+' if ledger.net > 0 else ''",
        "    lines.append(f'  {player.name} {ledger.rounds} {ledger.wins} {lost} {ledger.pushes} {sign}{ledger.net}')",
        "return lines")),
    "a summary with result words on a player's line": Plant(GAME, "summary_lines", (
        "lines = [f'Session summary: {game.rounds_played} rounds played.']", "for player in game.players:",
        "    ledger = player.ledger",
        "    lines.append(f'  {player.name}: {ledger.rounds} rounds, won {ledger.wins}, lost {ledger.losses}, '",
        "                 f'pushed {ledger.pushes}, net {ledger.net}')", "return lines")),
    "a summary net rounded to whole credits": Plant(GAME, "summary_lines", edit=(
        SIGNED, 'signed = ("+" if net > 0 else "") + str(round(net))')),
    # ---- advanced play
    "a double offered with no bankroll left": Plant(PLAYS, "why_not_double", edit=(
        'if bankroll < bet:\n    return f"doubling', 'if False:\n    return f"doubling')),
    "a K-Q split under rank rules": Plant(PLAYS, "why_not_split", edit=(
        "if not hand.is_pair(by=rules.split_by):", "if hand[0].value != hand[1].value:")),
    "why_not_split allows every split": Plant(PLAYS, "why_not_split", ("return None",)),
    "a double after a split without double_after_split": Plant(PLAYS, "why_not_double", edit=(
        '    if not rules.double_after_split:\n        return "these rules do not allow doubling after a split"\n',
        "")),
    "a three-card hand doubles as far as why_not_double says": Plant(PLAYS, "why_not_double", edit=(
        'if len(hand) != 2:\n    return f"this hand has {len(hand)} cards; only a two-card hand may double"\n', "")),
    "a seat that splits without limit": Plant(PLAYS, "why_not_split", edit=(
        "if play.seat_hands >= most:", "if play.seat_hands >= most and False:")),
    "a double that does not double the stake": Plant(PLAYS, "double_down", ("play.draw()", "play.end_hand()")),
    "a doubled hand that plays on": Plant(PLAYS, "double_down", ("play.take_stake(play.bet)", "play.draw()")),
    "a split hand that never gets its second card": Plant(PLAYS, "deal_split_card", (
        "if split_aces(play.hand) and not play.rules.hit_split_aces and why_not_split(play) is not None:",
        "    play.end_hand()")),
    "an ace and a ten after a split paid as a natural": Plant(PLAYS, "split", (
        "first, second = play.hand.cards", "play.replace_hand(Hand([first], from_split=True))",
        "play.add_hand(Hand([second]), play.bet)")),
    "insurance paid 3:2": Plant(PLAYS, "insurance_net", ("return stake * 3 / 2 if dealer_natural else -stake",)),
    "insurance beyond the bankroll": Plant(PLAYS, "insurance_limit", ("return match_stake(Fraction(bet) / 2, bet)",)),
    "an insurance limit in floats": Plant(PLAYS, "insurance_limit", ("return min(bet / 2, bankroll)",)),
    # ---- hints
    "a hint that hits a hard 17": Plant(ADVICE, "basic_advice", edit=(
        "elif total >= 17:\n    action = Action.STAND\n",
        "elif total >= 17:\n    action = Action.HIT if total == 17 else Action.STAND\n")),
    "a hint that doubles where doubling is not allowed": Plant(ADVICE, "basic_advice", (
        *HINT, "if total in (10, 11):", "    return Action.DOUBLE, 'Double on 10 or 11.'",
        "return (Action.HIT if total < 17 else Action.STAND), 'Like the dealer.'")),
    "a hint that stands on anything against a 2 to 6": Plant(ADVICE, "basic_advice", edit=(
        "elif total >= 17:\n    action = Action.STAND\n", "elif total >= 17 or 2 <= up <= 6:\n    action = Action.STAND\n")),
    "a hint that splits tens against a 5 or 6": Plant(ADVICE, "basic_advice", edit=(
        "splits = {1: range(1 if peek else 2, 11),", "splits = {10: (5, 6), 1: range(1 if peek else 2, 11),")),
    "hints that mimic the dealer": Plant(ADVICE, "basic_advice", (
        *HINT, "return (Action.HIT if total < 17 else Action.STAND), 'Like the dealer: hit below 17.'")),
    # ---- probabilities
    "bust_probability ignores the peek": Plant(PROBABILITY, "bust_probability", (
        "values = [card_value(c) for c in player_cards]", "hard, ace = sum(values), 1 in values",
        "counts = counts_from(shoe)", "chance = 0.0", "for v, p, _after in draws(counts, game_for(2, _DEFAULT_RULES)):",
        "    if total_of(hard + v, ace or v == 1) > 21:", "        chance += p", "return chance")),
    "dealer_probabilities prints": Plant(PROBABILITY, "dealer_probabilities", edit=(
        "rules = _DEFAULT_RULES if rules is None else rules\n",
        "print('thinking about', upcard)\nrules = _DEFAULT_RULES if rules is None else rules\n")),
    "the dealer draws from a shoe with replacement": Plant(PROBABILITY, "dealer_probabilities", edit=(
        "after = left if infinite else left[:value - 1] + (count - 1,) + left[value:]", "after = left")),
    "a peeked dealer still has naturals": Plant(PROBABILITY, "dealer_probabilities", edit=(
        "peek = natural_maker is not None and (rules.dealer_peeks if peeked is None else bool(peeked))",
        "peek = False")),
    "surrender offered after a hit": Plant(PROBABILITY, "expected_values", edit=(
        'if first_decision and rules.surrender != "none":', 'if rules.surrender != "none":')),
    "insurance offered against any upcard": Plant(PROBABILITY, "expected_values", edit=(
        "if first_decision and up == 1 and rules.insurance:", "if first_decision and rules.insurance:")),
    "a natural's EV paid 1:1": Plant(PROBABILITY, "expected_values", edit=(
        "evs[Action.STAND] = float(rules.blackjack_pays) * (1.0 - dealer_natural)",
        "evs[Action.STAND] = 1.0 - dealer_natural")),
    # ---- counting
    "true_count floors with //": Plant(COUNTING, "true_count", ("return running // (cards_remaining / 52)",)),
    "insurance taken from a true count of +2": Plant(COUNTING, "count_advice", (
        "moves = fresh_moves(player_cards, rules) if legal is None else frozenset(legal)",
        "if Action.INSURANCE in moves:",
        "    return (Action.INSURANCE if true_count_value >= 2 else Action.DECLINE), 'By the count.'",
        "return basic_advice(player_cards, upcard, rules, legal=moves)")),
    "bet_ramp rounds the true count": Plant(COUNTING, "bet_ramp", (
        "if unit <= 0 or spread < 1:", "    raise ValueError('a bad unit or spread')",
        "tc = round(true_count_value)", "units = 1 if tc < 2 else min(spread, 2 * (tc - 1))",
        "return Fraction(unit) * units")),
    "bet_ramp bets a float": Plant(COUNTING, "bet_ramp", (
        "if unit <= 0 or spread < 1:", "    raise ValueError('a bad unit or spread')",
        "tc = math.floor(true_count_value)", "units = 1 if tc < 2 else min(spread, 2 * (tc - 1))",
        "return float(unit) * units")),
    "running_count always counts Hi-Lo": Plant(COUNTING, "running_count", (
        "return sum(system('hi_lo').tag(card) for card in cards)",)),
}


def lost_by_part(grade: MilestoneGrade) -> dict[str, Fraction]:
    """Points lost in each part of the milestone (parts that lost none left out)."""
    lost: dict[str, Fraction] = {}
    for part in grade.parts:
        missing = sum((t.max_score - t.score for t in part.tests), Fraction(0))
        if missing:
            lost[part.part.key] = missing
    return lost


def grade_plants(work: Path, tests: Path = REPO_ROOT / "tests", names: list[str] | None = None,
                 ) -> dict[str, MilestoneGrade]:
    """Plant each mistake (default: all) in a copy of the reference under ``work`` and grade the copies on the
    milestone-2 suite of ``tests`` in one batch: ``name -> grade``."""
    chosen = names or list(PLANTS)
    folders = []
    for index, name in enumerate(chosen):
        folder = work / f"plant{index:02d}"
        write_packages(folder, lambda region: False, REPO_ROOT)
        replace_body(folder, PLANTS[name].module, PLANTS[name].function, planted_body(PLANTS[name]))
        folders.append(folder)
    grader = Grader(tests=tests, limits=Limits(timeout=300, test_timeout=20), jobs=2)
    grades = grader.grade(find_submissions(folders, work / "scratch"), [2])
    by_folder = {grade.submission.folder: grade.milestones[0] for grade in grades}
    return {name: by_folder[folder] for name, folder in zip(chosen, folders, strict=True)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, MilestoneGrade]:
    """Every plant graded once for the module."""
    return grade_plants(tmp_path_factory.mktemp("m2-plants"))


@pytest.mark.parametrize("name", PLANTS)
def test_a_mistake_costs_its_own_points_only(name: str, graded: dict[str, MilestoneGrade]) -> None:
    """The mistake loses points, all of them in its own part, at most its function's share plus one."""
    plant = PLANTS[name]
    part, share = SHARES[plant.function]
    lost = lost_by_part(graded[name])
    failed = [(t.record.name, t.message[:160]) for p in graded[name].parts for t in p.tests if t.score < t.max_score]
    assert lost.get(part, 0) > 0 and lost.get(part, 0) >= plant.least, \
        f"{name} should lose points in {part}, at least {plant.least}: {lost} {failed}"
    assert set(lost) == {part}, f"{name} is a {part} mistake but cost points in {sorted(set(lost) - {part})}: {failed}"
    assert lost[part] <= share + 1, f"{name} cost {lost[part]} in {part}, over {plant.function}'s {share} + 1: {failed}"


def test_every_function_with_a_share_is_planted_and_the_shares_add_up() -> None:
    """Each student function of milestone 2 has a share and at least one plant; the shares (a group's counted once)
    add up to each part's points, but wagering's whole-game point (the ledger and conservation)."""
    assert set(SHARES) == {plant.function for plant in PLANTS.values()}
    totals: dict[str, float] = {}
    for part, points in {(function if function not in GROUPS else GROUPS[function]): SHARES[function]
                         for function in SHARES}.values():
        totals[part] = totals.get(part, 0) + points
    assert totals == {"wagering": 19, "advanced": 20, "hints": 5, "probabilities": 20, "counting": 10}, totals


def main() -> int:
    """Print the table of points lost per part, for this kit's suites or another kit's (``--tests``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=Path, default=REPO_ROOT / "tests", help="the tests/ folder to grade with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bj-m2-plants-") as work:
        graded = grade_plants(Path(work), args.tests.resolve())
    print("| mistake | part | lost | where |")
    print("|---|---|---|---|")
    for name, grade in graded.items():
        lost = lost_by_part(grade)
        where = ", ".join(f"{part} {float(points):g}" for part, points in lost.items()) or "-"
        print(f"| {name} | {SHARES[PLANTS[name].function][0]} | {float(sum(lost.values(), Fraction(0))):g} | {where} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
