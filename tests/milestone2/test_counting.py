"""Milestone 2e (extra credit), card counting: running count, true count, the drill (10 points).

* ``running_count(cards, counting="hi_lo", *, decks=None)``: the sum of the tags of the
  cards seen (Hi-Lo: 2-6 count +1, 7-9 count 0, tens and aces -1).
* ``true_count(running, cards_remaining)``: the running count per deck left (52 cards).
* ``CountingDrill``: flashes cards and scores the running count a student types.
"""

from __future__ import annotations

import pytest

from m2_judge_hints import check_number, check_quiet, shown
from milestones.judge import Student, as_number

PART = "counting"

#: A whole deck as card codes.
FULL_DECK = " ".join(face + suit for suit in "sdch" for face in "A23456789TJQK")


@pytest.mark.points(3)
def test_hi_lo_running_count(student: Student) -> None:
    """Hi-Lo: 2 3 4 5 6 is +5, 7 8 9 is 0, T J Q K A is -5, and a mix adds up."""
    cases = (("2c 3d 4h 5s 6c", 5), ("7c 8d 9h", 0), ("Tc Jd Qh Ks Ac", -5), ("2c Kd 5h As 9s 3c", 1))
    reply = student("running_counts", [codes for codes, _want in cases], None)
    for (codes, want), got in zip(cases, reply["counts"], strict=True):
        got = as_number(got)
        assert got == want, (f"running_count({codes}) should be {want:+d} (Hi-Lo tags: 2-6 count +1, 7-9 count 0, "
                             f"tens and aces -1); got {shown(got)}")
    check_quiet(reply["printed"], "running_count")


@pytest.mark.points(3)
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


@pytest.mark.points(2)
def test_systems_balanced_as_published(student: Student) -> None:
    """Counting a whole deck gives 0 for Hi-Lo, Hi-Opt I, Omega II and Zen, and +4 for KO."""
    for key in ("hi_lo", "hi_opt_1", "omega_2", "zen"):
        got = as_number(student("running_counts", [FULL_DECK], key)["counts"][0])
        assert got == 0, f"running_count(a full deck, {key!r}) should be 0: {key} is balanced; got {shown(got)}"
    got = as_number(student("running_counts", [FULL_DECK], "ko")["counts"][0])
    assert got == 4, (f"running_count(a full deck, 'ko') should be +4: KO is unbalanced (the 7 counts +1, and with "
                      f"no decks= the count starts at 0); got {shown(got)}")


@pytest.mark.points(2)
@pytest.mark.hidden
def test_drill_scores_answers(student: Student) -> None:
    """The drill marks the true running count right and anything else wrong."""
    reply = student("drill_answers", "hi_lo", 2, 6, 4, [0, 1])
    first, second = reply["correct"]
    assert first, "the drill should accept the correct running count"
    assert not second, "the drill should reject a wrong running count"
    score = reply["score"]
    assert score == [1, 2], f"one right out of two; got {tuple(score) if isinstance(score, list) else score}"
