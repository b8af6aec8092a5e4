"""One mistake costs its own points (issue 29): a deck with a duplicated suit loses the deck's tests, not the course."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.grader.grading import Grader, find_submissions
from milestones.grader.runner import Limits
from milestones.starter import write_packages


@pytest.mark.slow  # grades every milestone of one submission (about 7 s)
def test_a_deck_with_clubs_twice_and_no_hearts_loses_only_the_decks_points(tmp_path: Path) -> None:
    """create_card_array with clubs twice and no hearts cost 42 + 14 extra-credit points when every stacked
    shoe was built from the student's deck ("cannot stack Th" in about 40 tests). The tests that do not grade
    the deck now stack a shoe of given cards, so the mistake loses at most 10 of the 115 points, and every test
    it fails is a deck test whose message names create_card_array."""
    submission = tmp_path / "dupsuit"
    write_packages(submission, lambda region: False, REPO_ROOT)
    replace_body(submission, "blackjack/cards.py", "create_card_array",
                 ["suits = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.CLUBS]",
                  "return [Card(suit, face) for suit in suits for face in range(1, 14)]"])
    [grade] = Grader(tests=REPO_ROOT / "tests", limits=Limits(timeout=300, test_timeout=10)).grade(
        find_submissions([submission], tmp_path / "scratch"), [1, 2, 3])
    lost = grade.regular_max + grade.extra_max - grade.regular - grade.extra
    failed = [t for mg in grade.milestones for t in mg.tests if t.outcome != "passed"]
    assert 0 < lost <= 10, (lost, [(t.record.name, t.message[:100]) for t in failed])
    assert all(t.record.name.startswith("test_deck.py::") and "create_card_array" in t.message for t in failed), \
        [(t.record.name, t.message[:100]) for t in failed]
    shutil.rmtree(submission)
