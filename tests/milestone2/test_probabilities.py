"""Milestone 2d, static probabilities: dealer outcomes, bust chances and expected values (20 points).

* ``dealer_probabilities(upcard, shoe=None, rules=None)`` -> ``{"17", "18", "19", "20",
  "21", "bust", "blackjack": probability}`` summing to 1. ``shoe=None`` is an infinite
  deck; a dict ``{point value: count}`` is the cards still unseen.
* ``bust_probability(player_cards, shoe=None)`` -> the chance one more card busts.
* ``expected_values(player_cards, upcard, shoe=None, rules=None)`` -> ``{Action: EV}`` per
  unit of the initial bet, conditioned on the dealer not having blackjack when the
  dealer peeks, for exactly the actions the hand is offered.

The dealer tests block the hint engine's dealer code (``dealer_float``, ``dealer_numerators``
and ``_table`` in ``blackjack/hints/_dealer.py``): ``dealer_probabilities`` must enumerate
the dealer's draws itself.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from m2_judge_hints import OUTCOMES, check_number, check_quiet, check_type, dealer_distribution, fixed, shown
from milestones.grader.judge import Student, as_number

PART = "probabilities"

#: Rules as the observations build them: None (``Rules()``), or ``{"preset": name, field: value, ...}``.
RulesSpec = dict[str, Any] | None
NUMBER = (int, float, Fraction)


def _pairs(shoe: dict[int, int] | None) -> list[list[int]] | None:
    """A shoe as the observations take it: ``[[point value, count], ...]`` (JSON keys are text)."""
    return None if shoe is None else [[value, count] for value, count in shoe.items()]


def _rules_text(spec: RulesSpec) -> str:
    """Rules as a message shows them: ``Rules()``, ``vegas``, ``Rules(dealer_peeks=False)``."""
    if spec is None:
        return "Rules()"
    changes = {key: value for key, value in spec.items() if key != "preset"}
    fields = ", ".join(f"{key}={value!r}" for key, value in changes.items())
    if "preset" not in spec:
        return f"Rules({fields})"
    return str(spec["preset"]) + (f" with {fields}" if fields else "")


def dealer_chances(student: Student, up: int, shoe: dict[int, int] | None = None, rules: RulesSpec = None,
                   printed: list[str] | None = None, **keywords: object) -> dict[str, Any]:
    """``dealer_probabilities(up, shoe, rules=rules, **keywords)`` with the engine's dealer code blocked, checked to be
    a dict with the seven outcome keys; what it printed goes to ``printed``."""
    shown_args = [str(up), *([repr(shoe)] if shoe is not None else []),
                  *([f"rules={_rules_text(rules)}"] if rules is not None else []),
                  *(f"{k}={v!r}" for k, v in keywords.items())]
    call = f"dealer_probabilities({', '.join(shown_args)})"
    reply = student("dealer", up, _pairs(shoe), rules, keywords)
    if reply["engine"]:
        raise AssertionError(f"dealer_probabilities must enumerate the draws itself, not call the hint engine's "
                             f"{reply['engine']} (blackjack/hints/_dealer.py)")
    if printed is not None:
        printed.append(reply["printed"])
    got = reply["got"]
    if "dict" not in got:
        check_type(call, as_number(got["other"]), dict, 'a dict {"17", ..., "21", "bust", "blackjack": chance}')
    keys = [key for key, _is_text, _chance in got["dict"]]
    assert all(is_text for _key, is_text, _chance in got["dict"]) and set(keys) == set(OUTCOMES), \
        f"{call} should have exactly the keys 17, 18, 19, 20, 21, bust, blackjack (strings); got {sorted(keys)}"
    return {key: as_number(chance) for key, _is_text, chance in got["dict"]}


def evs_of(student: Student, call: str, cards: list[int] | list[str], up: int, shoe: dict[int, int] | None = None,
           rules: RulesSpec = None, printed: list[str] | None = None, **keywords: object) -> dict[str, Any]:
    """``expected_values(cards, up, shoe, rules, **keywords)`` (shown as ``call``), checked to be a dict keyed by
    Action: ``{action name: EV}``; what it printed goes to ``printed``."""
    reply = student("evs", cards, up, _pairs(shoe), rules, keywords)
    if printed is not None:
        printed.append(reply["printed"])
    got = reply["got"]
    if "dict" not in got:
        check_type(call, as_number(got["other"]), dict, "a dict {Action: EV}")
    assert all(is_action for _key, is_action, _ev in got["dict"]), \
        f"{call} should key its dict by Action (Action.STAND ...); got keys " \
        f"{sorted(f'Action.{key}' if is_action else key for key, is_action, _ev in got['dict'])}"
    return {key: as_number(ev) for key, _is_action, ev in got["dict"]}


def _arg(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return repr(value)


def _rules_arg(spec: RulesSpec) -> str:
    """Rules as evs_for's messages show them: ``vegas rules``, ``Rules(hit_split_aces=True)``."""
    if spec is None:
        return "None"
    return f"{spec['preset']} rules" if set(spec) == {"preset"} else _rules_text(spec)


def evs_for(student: Student, cards: list[int] | list[str], up: int, *args: Any, **keywords: Any) -> dict[str, Any]:
    """``expected_values(cards, up, *args, **keywords)`` (args: the shoe, then the rules), checked to be a dict keyed
    by Action."""
    shoe, rules = (list(args) + [None, None])[:2]
    shown_args = [_arg(cards), _arg(up), *(["a shoe" if shoe is not None else "None"] if args else []),
                  *([_rules_arg(rules)] if len(args) > 1 else []), *(f"{k}={_arg(v)}" for k, v in keywords.items())]
    call = "expected_values(" + ", ".join(shown_args) + ")"
    return evs_of(student, call, cards, up, shoe, rules, **keywords)


def offered(evs: dict[str, Any]) -> list[str]:
    """The actions of an EV dict, by name, for a message."""
    return sorted(name.lower() for name in evs)


def one_deck_without(*values: int) -> dict[int, int]:
    counts = {v: 4 for v in range(1, 10)}
    counts[10] = 16
    for v in values:
        counts[v] -= 1
    return counts


@pytest.mark.points(2)
def test_dealer_probabilities_sum_to_one(student: Student) -> None:
    """For every upcard the dealer's outcomes add up to 1 (infinite deck and one deck), and nothing is printed."""
    printed: list[str] = []
    for up in range(1, 11):
        for shoe in (None, one_deck_without(up)):
            got = dealer_chances(student, up, shoe, printed=printed)
            what = f"dealer_probabilities({up}, {'one deck' if shoe else 'None'})"
            for outcome, chance in got.items():
                check_type(f"{what}[{outcome!r}]", chance, NUMBER, "a number (a chance between 0 and 1)")
            check_number(f"the chances of {what} added up",
                         sum(got.values()), 1, "every dealer hand ends in exactly one of the outcomes")
    check_quiet("".join(printed), "dealer_probabilities")


@pytest.mark.points(2)
def test_dealer_bust_infinite_deck(student: Student) -> None:
    """Infinite deck, dealer stands on soft 17: a 6 busts 42.32%, a 10 21.21% (Wizard of Odds)."""
    check_number('dealer_probabilities(6)["bust"]', dealer_chances(student, 6)["bust"], 0.4232,
                 "an infinite deck, dealer stands on soft 17 (Wizard of Odds)", tol=1e-4)
    check_number('dealer_probabilities(10, rules=Rules(dealer_peeks=False))["bust"]',
                 dealer_chances(student, 10, rules={"dealer_peeks": False})["bust"], 0.2121,
                 "a 10 up without a peek, infinite deck (Wizard of Odds)", tol=1e-4)


@pytest.mark.points(2)
def test_dealer_tens_and_sixes(student: Student) -> None:
    """Upcard 6 with two 6s and two tens left: the dealer makes 18 one time in 6 and busts otherwise."""
    got = dealer_chances(student, 6, {6: 2, 10: 2})
    check_number('dealer_probabilities(6, {6: 2, 10: 2})["18"]', got["18"], 1 / 6,
                 "the hole card is a 6 (2 of the 4 cards) and the next card the last 6 (1 of the 3 left): "
                 "2/4 x 1/3, because cards are drawn without replacement", tol=1e-12)
    check_number('dealer_probabilities(6, {6: 2, 10: 2})["bust"]', got["bust"], 5 / 6,
                 "every other way the dealer draws past 21", tol=1e-12)


@pytest.mark.points(1)
def test_dealer_peeked_ace_has_no_blackjack(student: Student) -> None:
    """After the peek, an ace up has blackjack 0; without it the chance is 4/13 (infinite deck)."""
    got = dealer_chances(student, 1, peeked=True)["blackjack"]
    assert got == 0, \
        f'dealer_probabilities(1, peeked=True)["blackjack"] should be 0: the peek found no natural; got {shown(got)}'
    check_number('dealer_probabilities(1, peeked=False)["blackjack"]',
                 dealer_chances(student, 1, peeked=False)["blackjack"],
                 4 / 13, "before the peek, an ace up makes a natural when the hole card is one of the 4 ten-values "
                 "of 13 ranks", tol=1e-12)


def bust_chance(student: Student, cards: list[int], shoe: dict[int, int] | None = None,
                printed: list[str] | None = None, **keywords: object) -> Any:
    """``bust_probability(cards, shoe, **keywords)`` as a number (or what came back); what it printed goes to
    ``printed``."""
    reply = student("bust", cards, _pairs(shoe), keywords)
    if printed is not None:
        printed.append(reply["printed"])
    return as_number(reply["got"])


@pytest.mark.points(1)
def test_bust_probability_infinite(student: Student) -> None:
    """Hard 16 busts on a 6, 7, 8, 9 or ten-card: 8/13; a soft 17 cannot bust."""
    printed: list[str] = []
    check_number("bust_probability([10, 6])", bust_chance(student, [10, 6], printed=printed), 8 / 13,
                 "16 busts on a 6, 7, 8, 9 or ten-card: 8 of 13 ranks, infinite deck", tol=1e-12)
    got = bust_chance(student, [1, 6], printed=printed)
    check_number("bust_probability([1, 6])", got, 0, "a soft 17 (ace-6) counts the ace as 1 when it must, "
                 "so one card cannot bust it", tol=0)
    check_quiet("".join(printed), "bust_probability")


@pytest.mark.points(1)
def test_bust_probability_from_the_shoe(student: Student) -> None:
    """With three tens and a five left, 16 busts 3 times in 4."""
    check_number("bust_probability([10, 6], {10: 3, 5: 1})", bust_chance(student, [10, 6], {10: 3, 5: 1}), 0.75,
                 "3 of the 4 cards left are tens, which bust 16", tol=1e-12)


@pytest.mark.points(1)
def test_bust_probability_after_the_peek(student: Student) -> None:
    """16 against a ten from one deck (T, 6, T out) after the peek: 0.590741, not 0.591837.

    The dealer peeked and has no natural, so the hole card is not an ace: one of the 50 unseen
    cards is known to be a non-ace, which makes the next card an ace a little more often
    (and a busting card a little less). ``draws(counts, game_for(upcard, rules))`` in
    ``_player.py`` gives each next card's chance with this conditioning.
    """
    shoe = one_deck_without(10, 6, 10)
    got = bust_chance(student, [10, 6], shoe, upcard=10, rules={})
    check_number("bust_probability([10, 6], one deck without T 6 T, upcard=10, rules=Rules())", got, 0.590741,
                 "the dealer peeked under the ten and found no ace in the hole, so the next card's chances are "
                 "conditioned on that; ignoring the peek gives 0.591837", tol=1e-6)
    got = bust_chance(student, [10, 6], shoe, upcard=10, rules={"dealer_peeks": False})
    check_number("bust_probability([10, 6], one deck without T 6 T, upcard=10, rules=Rules(dealer_peeks=False))",
                 got, 0.591837, "without a peek nothing is known about the hole card: 29 busting cards of 49", tol=1e-6)


@pytest.mark.points(2)
def test_stand_20_against_6_by_enumeration(student: Student) -> None:
    """Standing on 10-10 against a 6 from one deck: EV = P(dealer < 20 or bust) - P(dealer 21)."""
    shoe = one_deck_without(10, 10, 6)
    dealer = dealer_distribution(6, shoe)  # the judge's own enumeration, exact
    want = dealer["17"] + dealer["18"] + dealer["19"] + dealer["bust"] - dealer["21"]
    evs = evs_of(student, "expected_values([10, 10], 6, one deck)", [10, 10], 6, shoe)
    assert "STAND" in evs, f"expected_values([10, 10], 6, one deck) should offer STAND; got {offered(evs)}"
    got = evs["STAND"]
    check_number("expected_values([10, 10], 6, one deck)[Action.STAND]", got, float(want),
                 "standing wins +1 when the dealer ends under 20 or busts, pushes on 20, loses -1 on 21", tol=1e-12)
    assert 0.6 < got < 0.8, f"standing on 20 vs 6 wins most of the time (EV ≈ +0.70); got {fixed(got)}"


@pytest.mark.points(1)
@pytest.mark.hidden
def test_16_against_10_infinite_deck(student: Student) -> None:
    """16 vs 10, infinite deck: stand -0.5404, hit -0.5398, so hitting is (barely) better."""
    evs = evs_of(student, "expected_values([10, 6], 10)", [10, 6], 10)
    assert {"STAND", "HIT"} <= set(evs), f"16 vs 10 should offer STAND and HIT; got {offered(evs)}"
    check_number("expected_values([10, 6], 10)[Action.STAND]", evs["STAND"], -0.5404,
                 "16 wins only when the dealer busts, infinite deck", tol=1e-4)
    check_number("expected_values([10, 6], 10)[Action.HIT]", evs["HIT"], -0.5398,
                 "hit once, then play on optimally, infinite deck", tol=1e-4)


@pytest.mark.points(1)
def test_surrender_and_legal_actions(student: Student) -> None:
    """Under late surrender, 16 vs 10 lists stand, hit, double and surrender (-0.5); no split for 10-6."""
    printed: list[str] = []
    evs = evs_of(student, "expected_values([10, 6], 10, None, vegas)", [10, 6], 10, None, {"preset": "vegas"},
                 printed=printed)
    assert set(evs) == {"STAND", "HIT", "DOUBLE", "SURRENDER"}, \
        f"10-6 vs 10 under vegas rules should offer stand, hit, double, surrender; got {offered(evs)}"
    check_number("expected_values([10, 6], 10, None, vegas)[Action.SURRENDER]", evs["SURRENDER"], -0.5,
                 "surrender gives back half the bet", tol=0)
    assert evs["DOUBLE"] < evs["HIT"], \
        f"doubling 16 vs 10 should be worse than hitting (twice the bet on one card); got double " \
        f"{fixed(evs['DOUBLE'])}, hit {fixed(evs['HIT'])}"
    check_quiet("".join(printed), "expected_values")


@pytest.mark.points(1)
def test_natural_only_stands_and_is_paid(student: Student) -> None:
    """A natural (A + ten) is offered only STAND, worth 3:2; against an unpeeked ten it pushes 1 time in 13."""
    evs = evs_for(student, [1, 10], 6)
    assert set(evs) == {"STAND"}, \
        f"a natural takes no decision: only STAND should be offered; got {offered(evs)}"
    assert evs["STAND"] == pytest.approx(1.5), \
        f"a natural against a 6 is paid 3:2, so STAND is worth 1.5; got {shown(evs['STAND'])}"
    evs = evs_for(student, [1, 10], 1)
    assert set(evs) == {"INSURANCE", "STAND"}, \
        f"a natural against an ace is offered insurance and STAND only; got {offered(evs)}"
    assert evs["STAND"] == pytest.approx(1.5), \
        f"after the dealer peeks there is no dealer natural: STAND is worth 1.5; got {shown(evs['STAND'])}"
    got = evs_for(student, [1, 10], 10, None, {"dealer_peeks": False})["STAND"]
    assert got == pytest.approx(1.5 * 12 / 13), \
        f"without a peek a dealer natural (ace in the hole, 1/13) pushes: 1.5 x 12/13 ≈ 1.3846; got {shown(got)}"


@pytest.mark.points(1)
def test_21_takes_no_more_cards(student: Student) -> None:
    """A 21 of three cards, or of two cards after a split, is offered only STAND (and a split 21 is no natural)."""
    evs = evs_for(student, [5, 6, 10], 6)
    assert set(evs) == {"STAND"}, \
        f"a 21 takes no more cards: only STAND should be offered for 5-6-T; got {offered(evs)}"
    evs = evs_for(student, [10, 1], 6, from_split=True, hands=2)
    assert set(evs) == {"STAND"}, \
        f"a split hand T-A is a 21: only STAND should be offered; got {offered(evs)}"
    assert evs["STAND"] < 1, \
        f"a 21 after a split is not a natural: it wins 1:1 at most, not 3:2; got {fixed(evs['STAND'])}"


@pytest.mark.points(1)
def test_split_aces_take_one_card(student: Student) -> None:
    """Split aces stand on one card: no hit (unless hit_split_aces), no double, no resplit (unless resplit_aces)."""
    evs = evs_for(student, [1, 6], 10, from_split=True, hands=2)
    assert set(evs) == {"STAND"}, \
        f"a split ace takes one card: only STAND should be offered for A-6 after splitting aces; " \
        f"got {offered(evs)}"
    evs = evs_for(student, [1, 6], 10, None, {"hit_split_aces": True}, from_split=True, hands=2)
    assert set(evs) == {"STAND", "HIT"}, \
        f"with hit_split_aces a split ace may hit (but never double); got {offered(evs)}"
    evs = evs_for(student, [1, 1], 10, from_split=True, hands=2)
    assert "SPLIT" not in evs, "split aces may not be split again unless rules.resplit_aces"
    evs = evs_for(student, [1, 1], 10, None, {"resplit_aces": True}, from_split=True, hands=2)
    assert "SPLIT" in evs, "with rules.resplit_aces, a second ace on a split ace may be split again"


@pytest.mark.points(1)
def test_insurance_only_on_an_ace(student: Student) -> None:
    """Insurance is offered on the first two cards against an ace, worth (3p - 1)/2 (infinite deck: -1/26)."""
    evs = evs_for(student, [10, 6], 1)
    assert "INSURANCE" in evs, "insurance should be offered when the dealer shows an ace"
    assert evs["INSURANCE"] == pytest.approx(-1 / 26), \
        f"insurance wins 2:1 with chance 4/13: (3 x 4/13 - 1)/2 = -1/26 ≈ -0.0385; got {shown(evs['INSURANCE'])}"
    assert "INSURANCE" not in evs_for(student, [10, 6], 10), "insurance is offered only against an ace"
    assert "INSURANCE" not in evs_for(student, [10, 2, 4], 1), \
        "insurance is offered before the first decision only, not after a hit"
    assert "INSURANCE" not in evs_for(student, [10, 6], 1, from_split=True, hands=2), \
        "insurance is not offered on a split hand"
    assert "INSURANCE" not in evs_for(student, [10, 6], 1, None, {"insurance": False}), \
        "rules.insurance False: no insurance"


@pytest.mark.points(1)
def test_surrender_only_on_the_first_two_cards(student: Student) -> None:
    """Surrender is offered only on the first two cards of an unsplit hand, and only when the rules allow it."""
    vegas = {"preset": "vegas"}
    assert "SURRENDER" not in evs_for(student, [10, 4, 2], 10, None, vegas), \
        "surrender is offered on the first two cards only, not after a hit"
    assert "SURRENDER" not in evs_for(student, [10, 6], 10, None, vegas, from_split=True, hands=2), \
        "surrender is not offered on a hand from a split"
    assert "SURRENDER" not in evs_for(student, [10, 6], 10, None, {}), \
        "Rules() has surrender 'none': no surrender"


@pytest.mark.points(1)
def test_split_hands_follow_the_rules(student: Student) -> None:
    """A pair is split again only while the seat has fewer than max_split_hands; double after split needs DAS."""
    vegas = {"preset": "vegas"}  # split to 4 hands, double after split
    evs = evs_for(student, [8, 8], 10, None, vegas, from_split=True, hands=3)
    assert "SPLIT" in evs, "with 3 hands of at most 4, a pair of 8s may be split again"
    evs = evs_for(student, [8, 8], 10, None, vegas, from_split=True, hands=4)
    assert "SPLIT" not in evs, "the seat already holds max_split_hands (4) hands: no more splits"
    assert "DOUBLE" in evs_for(student, [8, 3], 6, None, vegas, from_split=True, hands=2), \
        "vegas doubles after a split: 8-3 from a split may double"
    no_das = {"preset": "single_deck"}
    assert "DOUBLE" not in evs_for(student, [8, 3], 6, None, no_das, from_split=True, hands=2), \
        "single_deck has no double after split: 8-3 from a split may not double"
    kings_queens = ["Kd", "Qc"]
    assert "SPLIT" not in evs_for(student, kings_queens, 6), "K-Q is no pair when split_by is 'rank'"
    assert "SPLIT" in evs_for(student, kings_queens, 6, None, {"split_by": "value"}), \
        "K-Q is a pair when split_by is 'value'"


@pytest.mark.points(0)
def test_exact_fractions_are_available(student: Student) -> None:
    """(Ungraded) exact=True returns fractions."""
    got = dealer_chances(student, 6, {6: 2, 10: 2}, exact=True)
    assert got["18"] == Fraction(1, 6)
