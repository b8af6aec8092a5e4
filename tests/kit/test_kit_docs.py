"""What the student documents say about hidden tests matches the suites."""

from __future__ import annotations

import re

import pytest

from milestones import REPO_ROOT
from milestones.config import TESTS_DIR, load_course, suite_path
from milestones.grader.runner import run_suite

COURSE = load_course()
NUMBERS = COURSE.with_suites(REPO_ROOT / TESTS_DIR)


def _hidden(number: int) -> int:
    run = run_suite(REPO_ROOT / suite_path(number), None, collect_only=True)
    return sum(record.hidden for record in run.collected.values())


@pytest.fixture(scope="module")
def hidden() -> dict[int, int]:
    """Milestone -> number of hidden tests in its suite."""
    return {number: _hidden(number) for number in NUMBERS}


@pytest.mark.parametrize("number", NUMBERS)
def test_each_spec_tells_whether_the_milestone_has_hidden_tests(number: int, hidden: dict[int, int]) -> None:
    """A spec that mentions hidden tests belongs to a milestone that has some; one without says so if it
    talks about hidden tests at all (milestone 1's spec promised hidden tests it does not have)."""
    text = (REPO_ROOT / "milestones" / "specs" / COURSE.milestone(number).spec).read_text(encoding="utf-8").lower()
    says_none = f"milestone {number} has no hidden tests" in text
    if hidden[number]:
        assert "hidden tests" in text and not says_none
    else:
        assert says_none or "hidden" not in text


def test_the_student_guide_names_the_milestones_with_hidden_tests(hidden: dict[int, int]) -> None:
    """docs/student.md names exactly the milestones that have hidden tests."""
    text = (REPO_ROOT / "docs" / "student.md").read_text(encoding="utf-8")
    named = {int(n) for n in re.findall(r"hidden ones in milestones? (\d+)", text)}
    assert named == {n for n, count in hidden.items() if count}
