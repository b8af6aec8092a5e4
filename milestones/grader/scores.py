"""The score model: a run's results against the reference's list of tests, in course points.

A part earns ``part.points * passed weight / total weight`` (the weights: tests/README.md). A test that did
not run (its module failed to import, or the run was stopped) earns nothing and says why. A run whose
results stream the submission's code wrote to (:attr:`.runner.RunResult.tampered`) earns nothing at
all: every test says :data:`TAMPERED` and how. :func:`inventory_json` and :func:`read_inventory` keep
the reference's tests and weights for the autograder zip.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..config import Milestone, Part
from .intake import Submission
from .runner import Limits, RunResult, TestRecord

__all__ = ["TAMPERED", "MilestoneGrade", "PartScore", "SubmissionGrade", "TestScore", "inventory_json",
           "read_inventory", "score_run"]

#: The note (and every test's message) of a run whose results the submission's code wrote to.
TAMPERED = "results were tampered with"


@dataclass(frozen=True, slots=True)
class TestScore:
    """One test's result in course points.

    Attributes:
        record: the test.
        outcome: ``passed``, ``failed``, ``error``, ``skipped`` or ``not run``.
        message: for the student ("" when passed).
        score: course points earned.
        max_score: course points possible (the test's weight scaled to its part).
    """

    __test__ = False

    record: TestRecord
    outcome: str
    message: str
    score: Fraction
    max_score: Fraction


@dataclass(frozen=True, slots=True)
class PartScore:
    """A rubric part's total: ``part.points`` times the share of test weight passed."""

    part: Part
    tests: tuple[TestScore, ...]

    @property
    def score(self) -> Fraction:
        """Course points earned in this part."""
        return sum((t.score for t in self.tests), Fraction(0))


@dataclass
class MilestoneGrade:
    """One milestone's grade for one submission.

    Attributes:
        milestone: the course milestone.
        parts: a score per rubric part, in course order.
        notes: what went wrong with the run, for the student and the instructor.
        layered: the counted score comes from the layered (hybrid) run.
        unprotected: the sandbox's protections the run went without (the short names of
            :data:`milestones.grader._sandbox.PROTECTIONS`), for the instructor only.
    """

    milestone: Milestone
    parts: list[PartScore]
    notes: list[str] = field(default_factory=list)
    layered: bool = False
    unprotected: list[str] = field(default_factory=list)

    @property
    def regular(self) -> Fraction:
        """Points earned in the parts that are not extra credit."""
        return sum((p.score for p in self.parts if not p.part.extra_credit), Fraction(0))

    @property
    def extra(self) -> Fraction:
        """Points earned in the extra-credit parts."""
        return sum((p.score for p in self.parts if p.part.extra_credit), Fraction(0))

    @property
    def tests(self) -> list[TestScore]:
        """Every test, part by part."""
        return [t for p in self.parts for t in p.tests]

    @property
    def full_marks(self) -> bool:
        """Every test passed."""
        return all(t.outcome == "passed" for t in self.tests)


@dataclass
class SubmissionGrade:
    """All graded milestones of one submission."""

    submission: Submission
    milestones: list[MilestoneGrade] = field(default_factory=list)

    @property
    def regular(self) -> Fraction:
        """Regular points over the graded milestones."""
        return sum((m.regular for m in self.milestones), Fraction(0))

    @property
    def extra(self) -> Fraction:
        """Extra-credit points over the graded milestones."""
        return sum((m.extra for m in self.milestones), Fraction(0))

    @property
    def regular_max(self) -> int:
        """Regular points possible over the graded milestones."""
        return sum(m.milestone.regular_points for m in self.milestones)

    @property
    def extra_max(self) -> int:
        """Extra-credit points possible over the graded milestones."""
        return sum(m.milestone.extra_points for m in self.milestones)


def score_run(milestone: Milestone, inventory: dict[str, TestRecord], run: RunResult | None, limits: Limits,
              note: str = "") -> MilestoneGrade:
    """Score one run of a milestone's suite against the reference's list of tests.

    Args:
        milestone: the course milestone.
        inventory: the tests and weights, collected on the reference.
        run: the submission's run (``None``: it could not run; ``note`` says why); a run
            that was tampered with counts as none, with a :data:`TAMPERED` note.
        limits: for the message of a stopped run.
        note: why there is no run.
    """
    notes = [note] if note else []
    errors: list[tuple[str, str]] = []
    stopped = ""
    secret: RunResult | None = None
    unprotected = list(run.unprotected) if run is not None else []
    if run is not None and run.tampered:  # the submission's code wrote to the results: none of them count
        note = f"{TAMPERED}: {run.tampered}"
        notes.append(note)
        run = None
    if run is not None:
        errors = run.collect_errors
        stopped = run.stop_reason(limits)
        secret = run.hidden_run
        for message in [*(message for _, message in errors), stopped]:
            if message and message not in notes:  # one import error breaks every module: say it once
                notes.append(message)
        if secret is not None and not secret.finished:  # its reason may name a hidden test: not in the notes
            notes.append("the run of the hidden tests ended early; their own messages say why")
    parts = []
    for part in milestone.parts:
        records = [r for r in inventory.values() if r.part == part.key]
        weight = sum((r.points for r in records), Fraction(0))
        scale = Fraction(part.points) / weight if weight else Fraction(0)
        tests = []
        for record in records:
            if run is not None and record.nodeid in run.results:
                outcome, message = run.results[record.nodeid]
            else:
                outcome = "not run"
                module = record.nodeid.split("::", 1)[0]
                source_errors, source_stopped = errors, stopped
                if secret is not None and record.hidden:  # from the hidden tests' own run
                    source_errors, source_stopped = secret.collect_errors, secret.stop_reason(limits)
                module_errors = [m for nid, m in source_errors if nid == module or module.startswith(nid)]
                message = (module_errors[0] if module_errors else source_stopped or note
                           or "the test did not run (is its name different in your code?)")
            possible = record.points * scale
            tests.append(TestScore(record, outcome, message, possible if outcome == "passed" else Fraction(0),
                                   possible))
        parts.append(PartScore(part, tuple(tests)))
    return MilestoneGrade(milestone, parts, notes, unprotected=unprotected)


_INVENTORY_FORMAT = 1


def inventory_json(inventories: dict[int, dict[str, TestRecord]]) -> str:
    """The tests and weights of some milestones as JSON, for :func:`read_inventory`."""
    data = {"format": _INVENTORY_FORMAT,
            "milestones": {str(number): [r.to_json() for r in records.values()]
                           for number, records in inventories.items()}}
    return json.dumps(data, indent=1) + "\n"


def read_inventory(path: Path) -> dict[int, dict[str, TestRecord]]:
    """Read what :func:`inventory_json` wrote: milestone -> node id -> test.

    Raises:
        ValueError: the file cannot be read or is not an inventory (one line saying so).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != _INVENTORY_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {_INVENTORY_FORMAT}")
        return {int(number): {str(r["nodeid"]): TestRecord.from_json(r) for r in records}
                for number, records in data["milestones"].items()}
    except OSError as err:
        raise ValueError(f"cannot read the inventory {path}: {err.strerror or err}") from None
    except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError) as err:
        raise ValueError(f"{path} is not a test inventory written by the autograder command: {err}") from None
