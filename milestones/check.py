"""The student's progress check: ``python -m milestones check``.

Runs the visible tests of the current milestone against the student's own packages,
prints the points so far and the next failing test's message, and appends a dated line
to the progress table of the student's diary (``docs/diary.md``).

The current milestone is the first one (in course order) whose visible tests do not
all pass yet; ``--milestone N`` picks one.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from .config import TESTS_DIR, Course, load_course, suite_path
from .grading import MilestoneGrade, TestScore, score_run
from .report import points_text, score_text
from .runner import Limits, run_suite

__all__ = ["CheckResult", "append_progress", "run_check"]

PROGRESS_HEADING = "## Progress log"
PROGRESS_HEADER = ("| date | milestone | visible points | tests passing | next step |\n"
                   "|---|---|---|---|---|")


@dataclass
class CheckResult:
    """One check: the milestone graded on its visible tests, and the next thing to fix.

    Attributes:
        grade: the milestone's visible-test grade.
        next_test: the first test that does not pass, in the spec's order, if any.
        collect_errors: messages from test modules that could not import the student's code.
    """

    grade: MilestoneGrade
    next_test: TestScore | None
    collect_errors: list[str]

    @property
    def passing(self) -> int:
        """Tests that pass."""
        return sum(t.outcome == "passed" for t in self.grade.tests)

    @property
    def all_pass(self) -> bool:
        """True when tests ran and every visible one passed (False when the code did not even import)."""
        return self.next_test is None and not self.collect_errors and bool(self.grade.tests)

    @property
    def next_step(self) -> str:
        """What to do next, in a few words: the first failing test's name, or why no test ran."""
        if self.next_test is not None:
            return self.next_test.record.name
        if self.all_pass:
            return "all visible tests pass"
        return "fix the import error: no test ran"

    def describe(self) -> str:
        """The lines ``check`` prints."""
        m = self.grade.milestone
        lines = [f"Milestone {m.number}: {m.title}",
                 f"  {score_text(self.grade.regular, m.regular_points)} points"
                 + (f" + {score_text(self.grade.extra, m.extra_points)} extra credit" if m.extra_points else "")
                 + f" from the visible tests ({self.passing} of {len(self.grade.tests)} pass)"]
        for part in self.grade.parts:
            lines.append(f"  {part.part.key}: {score_text(part.score, part.part.points)}")
        lines.extend(f"  note: {n}" for n in self.grade.notes)
        if self.next_test is not None:
            lines.append(f"Next: {self.next_test.record.name}")
            if self.next_test.record.doc:
                lines.append(f"  what it checks: {self.next_test.record.doc}")
            lines.extend(f"  {line}" for line in self.next_test.message.splitlines()[:8])
        elif self.all_pass:
            lines.append("Every visible test of this milestone passes. Hidden tests are graded after the deadline.")
        else:
            lines.append("No test ran: the tests could not import your code. Fix the error in the note above "
                         "(its file and line), then check again.")
        return "\n".join(lines)


def _check_one(root: Path, number: int, course: Course, limits: Limits) -> CheckResult:
    run = run_suite(root / suite_path(number), root, limits=limits, hidden=False)
    grade = score_run(course.milestone(number), run.collected, run, limits)
    return CheckResult(grade, _next_test(grade), [m for _, m in run.collect_errors])


def _next_test(grade: MilestoneGrade) -> TestScore | None:
    """The first test that does not pass: point-bearing ones first, then in the spec's module order
    (``Milestone.order``; an unlisted module after the listed ones), then in the suite's order."""
    order = grade.milestone.order

    def rank(indexed: tuple[int, TestScore]) -> tuple[bool, int, int]:
        index, test = indexed
        module = test.record.nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
        return test.max_score == 0, order.index(module) if module in order else len(order), index

    failing = [(i, t) for i, t in enumerate(grade.tests) if t.outcome != "passed"]
    return min(failing, key=rank)[1] if failing else None


def run_check(root: Path, milestone: int | None = None, *, limits: Limits = Limits(),
              course: Course | None = None) -> CheckResult:
    """Check the student's project in ``root`` (the folder holding ``blackjack/`` and ``tests/``).

    Args:
        root: the student's project folder.
        milestone: the milestone to check (default: the first not yet complete).
        limits: time and memory limits for the test run.
        course: milestones and points (default: ``milestones/points.toml``).

    Raises:
        FileNotFoundError: ``root`` has no ``blackjack`` package or no test folder for the milestone.
        KeyError: an unknown milestone number.
    """
    course = course or load_course()
    if not (root / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{root} has no blackjack/__init__.py; run check from your project folder")
    numbers = [milestone] if milestone is not None else list(course.with_suites(root / TESTS_DIR))
    if not numbers or not (root / suite_path(numbers[0])).is_dir():
        raise FileNotFoundError(f"no {suite_path(numbers[0] if numbers else 1)} folder in {root}")
    result = None
    for number in numbers:
        course.milestone(number)
        result = _check_one(root, number, course, limits)
        if not result.all_pass:
            break
    assert result is not None
    return result


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ").strip()


def append_progress(diary: Path, result: CheckResult, *, template: Path | None = None,
                    now: dt.datetime | None = None) -> str:
    """Append one dated row for ``result`` to the progress table in ``diary`` and return the row.

    The row goes after the last row of the table under the ``## Progress log`` heading;
    a diary without that heading gets the heading and table at its end. A missing diary
    is created from ``template`` (when given) first.
    """
    now = now or dt.datetime.now()
    grade = result.grade
    m = grade.milestone
    points = score_text(grade.regular, m.regular_points)
    if m.extra_points:
        points += f" (+{points_text(grade.extra)} EC)"
    row = (f"| {now:%Y-%m-%d %H:%M} | {m.number} | {points} | {result.passing} / {len(grade.tests)} "
           f"| {_cell(result.next_step)} |")
    if not diary.exists():
        diary.parent.mkdir(parents=True, exist_ok=True)
        text = template.read_text(encoding="utf-8") if template and template.is_file() else "# Project diary\n"
    else:
        text = diary.read_text(encoding="utf-8")
    lines = text.splitlines()
    heading = next((i for i, line in enumerate(lines) if line.strip().startswith(PROGRESS_HEADING)), None)
    if heading is None:
        lines += ["", PROGRESS_HEADING, "", *PROGRESS_HEADER.splitlines(), row]
    else:
        start = next((i for i in range(heading + 1, len(lines)) if lines[i].lstrip().startswith("|")), None)
        if start is None:
            lines[heading + 1:heading + 1] = ["", *PROGRESS_HEADER.splitlines(), row]
        else:
            end = start
            while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("|"):
                end += 1
            lines.insert(end + 1, row)
    diary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return row
