"""Milestone 2c, basic hints: your own strategy, held to legal moves, a one-line reason, no indefensible play, and
a measure of how defensible it is (5 points).

``blackjack.hints.basic_advice(player_cards, upcard, rules=None, *, legal=None)`` returns
``(action, reason)``. The strategy is yours ("you can use any strategy you choose, but be
prepared to defend your decision!": ``python -m milestones defend`` gives you the numbers).
What is graded is what every strategy worth defending does:

* every hint is one of the ``legal`` moves, with a reason of one line (1 point);
* it never hits (or doubles) a hard 17 or more, never stands on 11 or less, never splits
  5s and never splits tens (0.5 each);
* it gives away little against basic strategy (2 points): over a fixed set of decisions
  (:func:`observe_odds.decisions`: 3000 deals of seed 2026 from an infinite deck under
  ``Rules()``, played on by basic strategy, about 4000 decisions), the EV lost per decision
  (the best play's EV minus the EV of the play advised, in initial bets, as
  ``observe_odds.Odds`` works it out here, in the grader) is at most 0.04 for 1 point and at
  most 0.02 for the other. Basic strategy loses 0; mimicking the dealer about 0.032;
  standing on 12 or more and never doubling or splitting about 0.060.

Cards may be point values (ace 1) or Cards. The default rules are ``Rules()``: 6 decks,
dealer stands on soft 17, double any two cards, double after split, no surrender. The
reason's chances come from the suite's given probabilities (``observe_given.py``), not yours:
a mistake there costs the probabilities' points.
"""

from __future__ import annotations

from typing import Any

import pytest

from m2_judge_hints import check_quiet, shown
from observe_odds import Decision, decisions, odds
from milestones.grader.judge import Student

PART = "hints"

#: Dealer upcards, ace (1) first.
UPCARDS = tuple(range(1, 11))
#: A case as the observation takes it: ``[cards, upcard, rules or None, legal move names or None]``.
Case = list[Any]


def _name(card: int | str) -> str:
    if isinstance(card, str):
        return card
    return {1: "A", 10: "T"}.get(card, str(card))


def _call(case: Case) -> str:
    """The call a case makes, as a message shows it."""
    cards, up, rules, legal = case
    args = [f"[{', '.join(_name(c) for c in cards)}]", _name(up)]
    if rules is not None:
        args.append(f"{rules['preset']} rules" if set(rules) == {"preset"}
                    else "Rules(" + ", ".join(f"{key}={value!r}" for key, value in rules.items()) + ")")
    if legal is not None:
        args.append("legal={" + ", ".join(sorted(legal)) + "}")
    return f"basic_advice({', '.join(args)})"


#: How many cases one call of the student's process answers (each call has its own time limit).
CHUNK = 400


def hints(student: Student, cases: list[Case]) -> list[tuple[str, str]]:
    """Each case's ``(action name, reason)``, each checked to be an ``(Action, reason in words)`` pair, and
    nothing printed."""
    replies = [reply for start in range(0, len(cases), CHUNK) for reply in student("advices", cases[start:start + CHUNK])]
    out = []
    printed = []
    for case, got in zip(cases, replies, strict=True):
        call = _call(case)
        printed.append(got["printed"])
        assert got["pair"], f"{call} should return a pair (action, reason); got {shown(got['got'])}"
        action, reason = got["action"], got["reason"]
        assert action is not None, \
            f"{call} should return an Action first (Action.STAND ...); got {shown(got['action_data'])}"
        assert isinstance(reason, str) and reason.strip(), \
            f"{call} should return a reason in plain words second; got {shown(reason)}"
        out.append((action, reason))
    check_quiet("".join(printed), "basic_advice")
    return out


def _wrong(cases: list[Case], answers: list[tuple[str, str]], bad: set[str]) -> list[str]:
    """``"<call> said HIT"`` for each case answered with one of ``bad``, at most four."""
    found = [f"{_call(case)} said {action}" for case, (action, _reason) in zip(cases, answers, strict=True)
             if action in bad]
    return found[:4] + ([f"and {len(found) - 4} more"] if len(found) > 4 else [])


def _two_card_moves(a: int, b: int, *, surrender: bool = False, split: bool = True) -> list[str]:
    """The moves ``Rules()`` (``surrender``: and late surrender) offers a fresh hand of point values ``a``, ``b``."""
    moves = ["HIT", "STAND", "DOUBLE"] + (["SURRENDER"] if surrender else [])
    return moves + (["SPLIT"] if a == b and split else [])


def _legal_cases() -> list[Case]:
    """Every two-card hand against every upcard under Rules() and vegas, and hands where fewer moves are legal."""
    cases: list[Case] = []
    for up in UPCARDS:
        for a in range(1, 11):
            for b in range(a, 11):
                cases.append([[a, b], up, None, _two_card_moves(a, b)])
        for cards in ([10, 6], [8, 8], [9, 7], [5, 5], [1, 7]):
            cases.append([cards, up, {"preset": "vegas"}, _two_card_moves(*cards, surrender=True)])
        for cards in ([2, 3, 4], [5, 4, 2], [10, 2, 4], [1, 2, 5], [3, 3, 3]):  # after a hit: hit or stand
            cases.append([cards, up, None, ["HIT", "STAND"]])
        cases.append([[5, 6], up, None, ["HIT", "STAND"]])  # a split hand without double after split
        cases.append([[8, 8], up, None, ["HIT", "STAND", "DOUBLE"]])  # no more splits allowed
        cases.append([["Ks", "Qd"], up, None, ["HIT", "STAND", "DOUBLE"]])  # no pair under rank rules
    cases.append([[10, 6], 1, None, ["INSURANCE", "DECLINE"]])  # the insurance offer
    cases.append([[1, 10], 1, None, ["INSURANCE", "DECLINE"]])  # even money
    return cases


@pytest.mark.points(1)
def test_every_hint_is_a_legal_move_with_a_one_line_reason(student: Student) -> None:
    """Every two-card hand against every upcard, and hands with fewer moves allowed (after a hit, no double after
    a split, no more splits, the insurance offer): the hint is one of the legal moves, with a one-line reason."""
    cases = _legal_cases()
    answers = hints(student, cases)
    wrong = [f"{_call(case)} said {action}" for case, (action, _r) in zip(cases, answers, strict=True)
             if action not in case[3]]
    assert not wrong, ("; ".join(wrong[:3]) + (f" (and {len(wrong) - 3} more)" if len(wrong) > 3 else "")
                       + ": a hint must be one of the legal moves it is given (legal=...): a player cannot take "
                         "any other, and on an insurance offer the answer is INSURANCE or DECLINE")
    long = [f"{_call(case)} gave {reason!r}" for case, (_a, reason) in zip(cases, answers, strict=True)
            if "\n" in reason.strip()]
    assert not long, f"{long[0]}: the reason is one line (no line break), for the hint panel and the text game"


@pytest.mark.points(0.5)
def test_hint_never_hits_a_hard_17_or_more(student: Student) -> None:
    """A hard 17 to 20 (no ace counted as 11), of two or three cards, against every upcard: never HIT or DOUBLE."""
    hands = ([10, 7], [9, 8], ["Ts", "7d"], [10, 8], [9, 9], [10, 9], [10, 10], [5, 2, 10], [10, 4, 3], [6, 6, 6],
             [1, 6, 10], [2, 10, 8])
    cases: list[Case] = []
    for up in UPCARDS:
        for cards in hands:
            values = [10 if isinstance(c, str) and c[0] in "TJQK" else int(c[0]) if isinstance(c, str) else c
                      for c in cards]
            legal = _two_card_moves(*values) if len(cards) == 2 else ["HIT", "STAND"]
            cases.append([cards, up, None, legal])
    wrong = _wrong(cases, hints(student, cases), {"HIT", "DOUBLE"})
    assert not wrong, "; ".join(wrong) + (
        ": no defensible strategy takes a card on a hard 17 or more. One more card busts a hard 17 9 times in 13 "
        "(any 5 or higher) and a hard 20 12 times in 13, while standing wins whenever the dealer busts or ends lower")


@pytest.mark.points(0.5)
def test_hint_never_stands_on_11_or_less(student: Student) -> None:
    """A hard 11 or less, of two or three cards, with or without double and split allowed: never STAND."""
    cases: list[Case] = []
    for up in UPCARDS:
        for cards in ([2, 3], [2, 2], [3, 4], [4, 4], [2, 7], [4, 5], [3, 7], [6, 4], [5, 6], [2, 9], [5, 5], [3, 8]):
            cases.append([cards, up, None, _two_card_moves(*cards)])
            cases.append([cards, up, None, ["HIT", "STAND"]])
        for cards in ([2, 2, 2], [2, 3, 4], [3, 3, 5], [2, 4, 5]):
            cases.append([cards, up, None, ["HIT", "STAND"]])
    wrong = _wrong(cases, hints(student, cases), {"STAND"})
    assert not wrong, "; ".join(wrong) + (
        ": no defensible strategy stands on 11 or less. No card can bust it (a ten makes 21 at most), so one more "
        "card costs nothing and can only help, while a dealer who stands always beats 11")


@pytest.mark.points(0.5)
def test_hint_never_splits_fives(student: Student) -> None:
    """A pair of 5s against every upcard, with SPLIT allowed: never SPLIT (a 10 is a hand to double or hit)."""
    cases: list[Case] = []
    for up in UPCARDS:
        cases.append([[5, 5], up, None, _two_card_moves(5, 5)])
        cases.append([["5h", "5d"], up, {"preset": "vegas"}, _two_card_moves(5, 5, surrender=True)])
    wrong = _wrong(cases, hints(student, cases), {"SPLIT"})
    assert not wrong, "; ".join(wrong) + (
        ": no defensible strategy splits 5s. Together they are a 10, one of the best totals to double; split, each "
        "hand starts from a 5, one of the worst cards to start with")


@pytest.mark.points(0.5)
def test_hint_never_splits_tens(student: Student) -> None:
    """A pair of tens (T-T, K-K, and K-Q where any two tens are a pair) against every upcard: never SPLIT."""
    cases: list[Case] = []
    for up in UPCARDS:
        cases.append([[10, 10], up, None, _two_card_moves(10, 10)])
        cases.append([["Ks", "Kd"], up, None, _two_card_moves(10, 10)])
        cases.append([["Ks", "Qd"], up, {"split_by": "value"}, _two_card_moves(10, 10)])
    wrong = _wrong(cases, hints(student, cases), {"SPLIT"})
    assert not wrong, "; ".join(wrong) + (
        ": no defensible strategy splits tens without counting. A 20 wins about 4 times in 5; two hands starting "
        "from a ten are worth less than the 20 you hold")


#: The defensibility measure's decisions: deals of this seed, this many (milestones/specs/milestone2.md).
SEED, DEALS = 2026, 3000
#: EV lost per decision against basic strategy, in initial bets, at most: defensible, and close to basic strategy.
DEFENSIBLE, CLOSE = 0.04, 0.02


def _hand(decision: Decision) -> str:
    return f"[{', '.join(_name(c) for c in decision.cards)}] against {_name(decision.upcard)}"


def ev_lost(student: Student) -> tuple[float, int, list[str]]:
    """The student's basic_advice on the measure's decisions: the EV lost per decision against basic strategy, the
    number of decisions, and the costliest differences in words (at most three). Each test asks the student's
    process again (one call for every decision): a judge decides from the answers it was given, never from a
    measure it kept from another test."""
    return _measure(student)


def _measure(student: Student) -> tuple[float, int, list[str]]:
    chosen = decisions(SEED, DEALS)
    answers = hints(student, [[list(d.cards), d.upcard, None, list(d.legal)] for d in chosen])
    lost = 0.0
    costs: list[tuple[float, str]] = []
    for decision, (action, _reason) in zip(chosen, answers, strict=True):
        evs = odds(decision.upcard).evs(decision.cards, decision.legal)
        best = max(evs, key=lambda play: evs[play])
        each = evs[best] - evs.get(action, min(evs.values()))  # a move that is not legal counts as the worst one
        lost += each * decision.times
        if each > 1e-9:
            costs.append((each * decision.times,
                          f"{_hand(decision)} ({'first decision' if len(decision.legal) > 2 else 'after a hit'}): "
                          f"{action} where basic strategy says {best}, {each:.3f} of a bet each time, "
                          f"{decision.times} times"))
    total = sum(d.times for d in chosen)
    costs.sort(key=lambda cost: -cost[0])
    return lost / total, total, [text for _, text in costs[:3]]


def check_defensible(student: Student, most: float, words: str) -> None:
    """basic_advice loses at most ``most`` per decision against basic strategy; the message says what it lost and
    where."""
    lost, total, costliest = ev_lost(student)
    assert lost <= most, (
        f"your hints lose {lost:.4f} of a bet per decision against basic strategy, over {total} decisions of "
        f"{DEALS} seeded deals (Rules(), infinite deck); {words} loses at most {most:.2f}. The costliest "
        f"differences: {'; '.join(costliest)}. Basic strategy plays each hand by the best EV of its moves "
        f"(expected_values, or python -m milestones defend, shows them): a strategy you can defend stays close to it")


@pytest.mark.points(1)
def test_hints_are_defensible_against_basic_strategy(student: Student) -> None:
    """Over about 4000 decisions of 3000 seeded deals, the hints lose at most 0.04 of a bet per decision against
    basic strategy (mimicking the dealer loses about 0.032; never busting, standing on 12 or more, about 0.060)."""
    check_defensible(student, DEFENSIBLE, "a strategy you can defend")


@pytest.mark.points(1)
def test_hints_stay_close_to_basic_strategy(student: Student) -> None:
    """Over the same decisions, the hints lose at most 0.02 of a bet per decision against basic strategy (a chart
    that doubles 10 and 11 and hits stiff hands against 7 to ace does; never doubling loses about 0.010)."""
    check_defensible(student, CLOSE, "a strategy close to basic strategy")
