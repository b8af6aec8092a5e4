"""Prove the graded suites honest: every point test passes on the reference and fails on the starter.

docs/instructor.md section 5 gives the three runs per milestone and why; ``.ci/run`` calls
``python -m milestones honesty``, which exits non-zero on a dishonest test. Also reported (not failures):
parts with no tests yet, and parts whose test weights do not add up to the course points (they are scaled,
see ``milestones/points.toml``).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import REPO_ROOT
from .config import Course, load_course, require_suites, suite_name
from .regions import PACKAGES
from .report import points_text
from .grader.runner import Limits, run_suite
from .starter import write_packages

__all__ = ["HonestyReport", "check_honesty"]


@dataclass
class HonestyReport:
    """The outcome of the honesty check.

    Attributes:
        problems: one line per dishonest or broken test (the check fails when not empty).
        notes: lines worth reading that do not fail the check.
        counted: milestone -> number of point tests checked.
    """

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    counted: dict[int, int] = field(default_factory=dict)

    def describe(self) -> str:
        """The summary printed by ``python -m milestones honesty``."""
        lines = [f"milestone {n}: {count} point tests checked" for n, count in self.counted.items()]
        lines += [f"note: {n}" for n in self.notes]
        lines += [f"DISHONEST: {p}" for p in self.problems]
        lines.append(f"honesty check {'FAILED' if self.problems else 'passed'}: "
                     f"{len(self.problems)} problem(s) in {sum(self.counted.values())} point tests")
        return "\n".join(lines)


def _mypy_errors(folder: Path) -> list[str]:
    packages = [p for p in PACKAGES if (folder / p).is_dir()]
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", *packages], cwd=folder,
                          capture_output=True, text=True, check=False)
    return [line for line in done.stdout.splitlines() if ": error:" in line]


def check_honesty(root: Path = REPO_ROOT, milestones: list[int] | None = None, *, limits: Limits = Limits(),
                  course: Course | None = None, mypy: bool = False) -> HonestyReport:
    """Run each milestone's suite on the reference and on its starter, and compare.

    Args:
        root: the kit (``blackjack/``, ``gui/``, ``milestones/``; the suites in
            :func:`~milestones.config.suites_dir`).
        milestones: which to check (default: every milestone with a test folder).
        limits: per-run limits.
        course: milestones and points (default: ``milestones/points.toml``).
        mypy: also check that the full starter has no more ``mypy --strict`` errors than the reference.

    Raises:
        KeyError: a milestone the course does not have (the message names the course's milestones).
        FileNotFoundError: the kit has no suites (or not the ones named): nothing to check is
            never a pass.
    """
    course = course or load_course()
    for number in milestones or []:  # a number the course does not have is named as such, not as a missing suite
        course.milestone(number)
    report = HonestyReport()
    suites = require_suites(root, milestones or [])
    numbers = milestones or list(course.with_suites(suites))
    for number in numbers:
        milestone = course.milestone(number)
        folder = suites / suite_name(number)
        reference = run_suite(folder, None, limits=limits)
        for nodeid, message in reference.collect_errors:
            report.problems.append(f"{nodeid}: does not import on the reference: {message}")
        with tempfile.TemporaryDirectory(prefix="bj-honesty-") as work:
            stubbed, _kept = write_packages(Path(work), lambda r: r.milestone >= number, root)
            starter = run_suite(folder, Path(work), limits=limits)
        solved = None
        if any(r.milestone > number for r in stubbed):  # later milestones' regions exist
            with tempfile.TemporaryDirectory(prefix="bj-honesty-") as work:
                write_packages(Path(work), lambda r: r.milestone > number, root)
                solved = run_suite(folder, Path(work), limits=limits)
        stopped = starter.stop_reason(limits)
        if stopped or not reference.finished:
            report.problems.append(f"milestone {number}: a run did not finish: "
                                   f"{reference.stop_reason(limits) or stopped}")
        counted = 0
        for nodeid, record in reference.collected.items():
            outcome, message = reference.results.get(nodeid, ("not run", "did not run"))
            if record.part is None:
                report.problems.append(f"{nodeid}: {message}")
                continue
            if record.points == 0:
                continue
            counted += 1
            if outcome != "passed":
                report.problems.append(f"{nodeid}: {outcome} on the reference: {message}")
            if solved is not None and outcome == "passed":
                solved_outcome, solved_message = solved.results.get(nodeid, ("not run", "did not run"))
                if solved_outcome != "passed":
                    report.problems.append(f"{nodeid}: fails when only later milestones are stubbed, so it needs "
                                           f"code the student writes after milestone {number}: {solved_message}")
            starter_outcome = starter.results.get(nodeid, ("not run", ""))[0]
            if starter_outcome == "passed":
                report.problems.append(f"{nodeid}: passes on the milestone-{number} starter, so it does not "
                                       f"test code the student writes in milestone {number}")
        report.counted[number] = counted
        for part in milestone.parts:
            weights = [r.points for r in reference.collected.values() if r.part == part.key]
            total = sum(weights, Fraction(0))
            if not weights:
                report.notes.append(f"milestone {number} part {part.key!r}: no tests yet")
            elif total != part.points:
                report.notes.append(f"milestone {number} part {part.key!r}: test points add up to "
                                    f"{points_text(total)}, scaled to the course's {part.points}")
    if not sum(report.counted.values()):
        report.problems.append(f"no point tests found in {suites}: nothing was checked")
    if mypy:
        with tempfile.TemporaryDirectory(prefix="bj-honesty-") as work:
            write_packages(Path(work), lambda r: True, root)
            starter_errors = _mypy_errors(Path(work))
        reference_errors = _mypy_errors(root)
        if len(starter_errors) > len(reference_errors):
            report.problems.append(f"the starter has {len(starter_errors)} mypy --strict errors, the reference "
                                   f"{len(reference_errors)}: " + "; ".join(starter_errors[:5]))
        else:
            report.notes.append(f"mypy --strict: starter {len(starter_errors)} errors, "
                                f"reference {len(reference_errors)}")
    return report
