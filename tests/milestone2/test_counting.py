"""Milestone 2e (extra credit), card counting and the count put to use (10 points).

* ``running_count(cards, counting="hi_lo", *, decks=None)``: the sum of the tags of the
  cards seen (Hi-Lo: 2-6 count +1, 7-9 count 0, tens and aces -1), from the system's
  start (an unbalanced system such as KO, given ``decks``, starts at 4 - 4 x decks).
* ``true_count(running, cards_remaining)``: the running count per deck left (52 cards).
* ``bet_ramp(true_count, unit, *, spread=8)``: the bet for the count, exact money: the true
  count floored, 1 unit below +2, then 2 units per point above +1, at most ``spread`` units.
* ``count_advice(cards, upcard, true_count, rules=None, *, legal=None)``: your hint at this
  count: take insurance at +3 or more, stand on a hard 16 against a ten at 0 or more.
* ``CountingDrill``: flashes cards and scores the running count a student types.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from m2_judge_hints import check_number, check_quiet, shown
from milestones.grader.judge import Student, as_number

PART = "counting"

#: A whole deck as card codes.
FULL_DECK = " ".join(face + suit for suit in "sdch" for face in "A23456789TJQK")


@pytest.mark.points(2)
def test_hi_lo_running_count(student: Student) -> None:
    """Hi-Lo: 2 3 4 5 6 is +5, 7 8 9 is 0, T J Q K A is -5, and a mix adds up."""
    cases = (("2c 3d 4h 5s 6c", 5), ("7c 8d 9h", 0), ("Tc Jd Qh Ks Ac", -5), ("2c Kd 5h As 9s 3c", 1))
    reply = student("running_counts", [codes for codes, _want in cases], None)
    for (codes, want), got in zip(cases, reply["counts"], strict=True):
        got = as_number(got)
        assert got == want, (f"running_count({codes}) should be {want:+d} (Hi-Lo tags: 2-6 count +1, 7-9 count 0, "
                             f"tens and aces -1); got {shown(got)}")
    check_quiet(reply["printed"], "running_count")


@pytest.mark.points(2)
def test_true_count(student: Student) -> None:
    """The running count per deck left, exactly: +6 with 156 cards (3 decks) is +2, +5 with 104 is +2.5, not 2."""
    cases = ((6, 156, 2.0), (-4, 104, -2.0), (5, 104, 2.5), (-3, 104, -1.5), (3, 78, 2.0))
    reply = student("true_counts", [[running, cards] for running, cards, _want in cases])
    for (running, cards, want), got in zip(cases, reply["counts"], strict=True):
        got = as_number(got)
        decks = cards / 52
        concept = f"{running} / ({cards} / 52 = {decks:g} decks left), the exact quotient"
        floors = {running // decks, running // (cards // 52) if cards >= 52 else None, float(running * 52 // cards)}
        assert not (isinstance(got, (int, float)) and got != want and got in floors), (
            f"true_count({running}, {cards}) should be {want:g} ({concept}); got {shown(got)}, what // gives: floor "
            f"division rounds down, and the spec asks for the exact quotient (divide with /). Players floor the true "
            f"count only when they compare it with an index, after it is computed")
        check_number(f"true_count({running}, {cards})", got, want, concept, tol=1e-12)
    check_quiet(reply["printed"], "true_count")


@pytest.mark.points(0.5)
def test_systems_balanced_as_published(student: Student) -> None:
    """Counting a whole deck gives 0 for Hi-Lo, Hi-Opt I, Omega II and Zen, and +4 for KO."""
    for key in ("hi_lo", "hi_opt_1", "omega_2", "zen"):
        got = as_number(student("running_counts", [FULL_DECK], key)["counts"][0])
        assert got == 0, f"running_count(a full deck, {key!r}) should be 0: {key} is balanced; got {shown(got)}"
    got = as_number(student("running_counts", [FULL_DECK], "ko")["counts"][0])
    assert got == 4, (f"running_count(a full deck, 'ko') should be +4: KO is unbalanced (the 7 counts +1, and with "
                      f"no decks= the count starts at 0); got {shown(got)}")


@pytest.mark.points(0.5)
def test_ko_starts_at_its_initial_running_count(student: Student) -> None:
    """KO is unbalanced, so with decks= its count starts at 4 - 4 x decks (the IRC): -20 for 6 decks before a card
    is seen, -16 once a whole deck has gone; a balanced system (Hi-Lo) starts at 0 whatever decks= says."""
    reply = student("running_counts", ["", FULL_DECK], "ko", 6)
    for seen, want, got in zip(("no card", "a whole deck"), (-20, -16), reply["counts"], strict=True):
        assert as_number(got) == want, (
            f"running_count({seen}, 'ko', decks=6) should be {want:+d}: KO's cards add up to +4 a deck, so its count "
            f"starts at 4 - 4 x 6 = -20 and reaches the key count near the end of the shoe (Vancura and Fuchs, "
            f"Knock-Out Blackjack); got {shown(as_number(got))}")
    [got] = student("running_counts", [FULL_DECK], "hi_lo", 6)["counts"]
    assert as_number(got) == 0, \
        f"running_count(a whole deck, 'hi_lo', decks=6) should be 0: Hi-Lo is balanced and starts at 0; got {shown(got)}"
    check_quiet(reply["printed"], "running_count")


@pytest.mark.points(1)
@pytest.mark.hidden
def test_drill_scores_answers(student: Student) -> None:
    """The drill marks the true running count right and anything else wrong."""
    reply = student("drill_answers", "hi_lo", 2, 6, 4, [0, 1])
    first, second = reply["correct"]
    assert first, "the drill should accept the correct running count"
    assert not second, "the drill should reject a wrong running count"
    score = reply["score"]
    assert score == [1, 2], f"one right out of two; got {tuple(score) if isinstance(score, list) else score}"


def bets(student: Student, cases: list[list[Any]]) -> list[Any]:
    """``bet_ramp`` of each ``[true count, unit, spread or None]`` (a Fraction unit sent as text), nothing printed."""
    reply = student("bet_ramps", [[tc, str(unit) if isinstance(unit, Fraction) else unit, spread]
                                  for tc, unit, spread in cases])
    check_quiet(reply["printed"], "bet_ramp")
    return [got if isinstance(got, dict) and "raised" in got else as_number(got) for got in reply["bets"]]


def _ramp_call(tc: float, unit: int | Fraction, spread: int | None) -> str:
    return f"bet_ramp({tc:g}, {unit}{'' if spread is None else f', spread={spread}'})"


@pytest.mark.points(1)
def test_bet_ramp_follows_the_true_count(student: Student) -> None:
    """Unit 5: 1 unit (5) below +2, 2 units at +2, 4 at +3, 6 at +4, 8 from +5 up (the spread); the count is floored
    (+2.9 bets as +2, -0.5 as -1) and ``spread`` caps the bet."""
    cases = [(-3.5, 5, None, 5), (-0.5, 5, None, 5), (0, 5, None, 5), (1.9, 5, None, 5), (2, 5, None, 10),
             (2.9, 5, None, 10), (3, 5, None, 20), (4.2, 5, None, 30), (5, 5, None, 40), (9, 5, None, 40),
             (5, 5, 4, 20), (3, 1, 2, 2)]
    got = bets(student, [[tc, unit, spread] for tc, unit, spread, _want in cases])
    for (tc, unit, spread, want), bet in zip(cases, got, strict=True):
        call = _ramp_call(tc, unit, spread)
        assert not isinstance(bet, dict), f"{call} should be {want}; it raised {bet['raised']}: {bet['message']}"
        assert isinstance(bet, (int, Fraction)) and not isinstance(bet, bool) and bet == want, (
            f"{call} should be {want} credits: the true count floored to {int(tc // 1):+d} bets "
            f"{want // unit} unit(s) of {unit} (1 unit below +2, then 2 units per point above +1, at most "
            f"{8 if spread is None else spread} units); got {shown(bet)}")


@pytest.mark.points(1)
def test_bet_ramp_is_exact_money_and_refuses_bad_units(student: Student) -> None:
    """A unit of 5/2 credits bets exactly 5/2, 5 and 10 (Fractions, never the float 2.5); a unit of 0 or less, or a
    spread below 1, is refused with ValueError."""
    half = Fraction(5, 2)
    cases = [(0, half, None, half), (2, half, None, Fraction(5)), (3, half, None, Fraction(10))]
    got = bets(student, [[tc, unit, spread] for tc, unit, spread, _want in cases])
    for (tc, unit, spread, want), bet in zip(cases, got, strict=True):
        call = _ramp_call(tc, unit, spread)
        assert not isinstance(bet, float), (f"{call} should be exactly {want} credits, a Fraction: money is exact, "
                                            f"never a float; got {shown(bet)}")
        assert bet == want, f"{call} should be {want} credits ({want / unit} units of {unit}); got {shown(bet)}"
    refused = bets(student, [[1, 0, None], [1, -5, None], [1, 5, 0]])
    for (unit, spread), bet in zip(((0, None), (-5, None), (5, 0)), refused, strict=True):
        call = _ramp_call(1, unit, spread)
        assert isinstance(bet, dict) and bet.get("raised") == "ValueError", \
            f"{call} should raise ValueError: a bet needs a positive unit and a spread of at least 1; got {shown(bet)}"


def count_hints(student: Student, cases: list[list[Any]]) -> list[str]:
    """``count_advice`` of each ``[cards, upcard, true count, legal move names]``: the action names, each checked to
    come with a one-line reason, and nothing printed."""
    replies = student("count_advices", cases)
    actions = []
    for (cards, up, tc, legal), got in zip(cases, replies, strict=True):
        call = f"count_advice({cards}, {up}, {tc:g}, legal={{{', '.join(sorted(legal))}}})"
        assert got["pair"], f"{call} should return a pair (action, reason); got {shown(got['got'])}"
        assert got["action"] is not None, \
            f"{call} should return an Action first (Action.STAND ...); got {shown(got['action_data'])}"
        reason = got["reason"]
        assert isinstance(reason, str) and reason.strip() and "\n" not in reason.strip(), \
            f"{call} should return a one-line reason in plain words second; got {shown(reason)}"
        actions.append(got["action"])
    check_quiet("".join(reply["printed"] for reply in replies), "count_advice")
    return actions


@pytest.mark.points(1)
def test_count_takes_insurance_from_plus_3(student: Student) -> None:
    """On the insurance offer count_advice takes INSURANCE at a true count of +3 or more and DECLINEs below it."""
    offer = ["INSURANCE", "DECLINE"]
    cases = [([10, 6], 1, tc, offer) for tc in (3, 3.4, 6.5, 2.99, 2, 0, -4)] + [([1, 10], 1, 3.0, offer)]
    got = count_hints(student, [list(case) for case in cases])
    for (cards, up, tc, _legal), action in zip(cases, got, strict=True):
        want = "INSURANCE" if tc >= 3 else "DECLINE"
        assert action == want, (
            f"count_advice({cards}, {up}, {tc:g}) on the insurance offer should say {want}; got {action}: the "
            f"insurance index is a true count of +3 (Illustrious 18 no. 1): from there about a third of the unseen "
            f"cards are tens, and the 2:1 side bet stops losing")


@pytest.mark.points(1)
def test_count_stands_on_16_against_a_ten_from_0(student: Student) -> None:
    """A hard 16 (two or three cards) against a ten STANDs at a true count of 0 or more and HITs below it."""
    hands = ([10, 6], [9, 7], ["Ts", "6d"], [10, 4, 2], [5, 5, 6])
    cases = []
    for cards in hands:
        legal = ["HIT", "STAND", "DOUBLE"] if len(cards) == 2 else ["HIT", "STAND"]
        for tc in (0, 0.5, 2.5, -0.1, -1, -3.5):
            cases.append([cards, 10 if isinstance(cards[0], int) else "Kh", tc, legal])
    got = count_hints(student, cases)
    for (cards, up, tc, _legal), action in zip(cases, got, strict=True):
        want = "STAND" if tc >= 0 else "HIT"
        assert action == want, (
            f"count_advice({cards}, {up}, {tc:g}) should say {want}; got {action}: the index for a hard 16 against a "
            f"ten is 0 (Illustrious 18 no. 2): at a true count of 0 or more enough tens are left that hitting busts "
            f"too often, so stand; below 0 hit")
