"""Milestone 2e (extra credit), card counting: running count, true count, the drill (10 points).

* ``running_count(cards, counting="hi_lo", *, decks=None)``: the sum of the tags of the
  cards seen (Hi-Lo: 2-6 count +1, 7-9 count 0, tens and aces -1).
* ``true_count(running, cards_remaining)``: the running count per deck left (52 cards).
* ``CountingDrill``: flashes cards and scores the running count a student types.
"""

from __future__ import annotations

import pytest

from blackjack import create_card_array, parse_cards
from blackjack.hints import CountingDrill, running_count, true_count

PART = "counting"


@pytest.mark.points(3)
def test_hi_lo_running_count() -> None:
    """Hi-Lo: 2 3 4 5 6 is +5, 7 8 9 is 0, T J Q K A is -5, and a mix adds up."""
    for codes, want in (("2c 3d 4h 5s 6c", 5), ("7c 8d 9h", 0), ("Tc Jd Qh Ks Ac", -5), ("2c Kd 5h As 9s 3c", 1)):
        got = running_count(parse_cards(codes))
        assert got == want, f"running_count({codes!r}) should be {want:+d}; got {got}"


@pytest.mark.points(3)
def test_true_count() -> None:
    """A running count of +6 with 3 decks (156 cards) left is a true count of +2."""
    got = true_count(6, 156)
    assert abs(got - 2.0) < 1e-12, f"true_count(6, 156) should be +2.0 (6 / 3 decks); got {got}"
    got = true_count(-4, 104)
    assert abs(got - -2.0) < 1e-12, f"true_count(-4, 104) should be -2.0; got {got}"


@pytest.mark.points(2)
def test_systems_balanced_as_published() -> None:
    """Counting a whole deck gives 0 for Hi-Lo, Hi-Opt I, Omega II and Zen, and +4 for KO."""
    deck = create_card_array()
    for key in ("hi_lo", "hi_opt_1", "omega_2", "zen"):
        got = running_count(deck, key)
        assert got == 0, f"{key} is balanced: a full deck should count 0; got {got}"
    got = running_count(deck, "ko")
    assert got == 4, f"KO is unbalanced (the 7 counts +1): a full deck should count +4; got {got}"


@pytest.mark.points(2)
@pytest.mark.hidden
def test_drill_scores_answers() -> None:
    """The drill marks the true running count right and anything else wrong."""
    drill = CountingDrill("hi_lo", rounds=2, cards_per_round=6, seed=4)
    cards = drill.next_cards()
    want = running_count(cards)
    assert drill.answer(want).correct, "the drill should accept the correct running count"
    more = drill.next_cards()
    result = drill.answer(want + running_count(more) + 1)
    assert not result.correct, "the drill should reject a wrong running count"
    assert drill.score == (1, 2), f"one right out of two; got {drill.score}"
