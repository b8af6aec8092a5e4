"""Write grades as a rubric table, JSON, Gradescope's ``results.json``, or a CSV gradebook."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .grader._sandbox import PROTECTIONS
from .config import DEFAULT_HIDDEN_VISIBILITY
from .grader.scores import MilestoneGrade, SubmissionGrade, TestScore

__all__ = ["csv_gradebook", "gradescope_failure", "gradescope_results", "json_report", "points_text", "score_text", "shown",
           "spreadsheet_cell", "text_report", "unprotected"]

_MARK = {"passed": "PASS", "failed": "FAIL", "error": "ERROR", "skipped": "SKIP", "not run": "NOT RUN"}


def _decimal(points: Fraction) -> Decimal:
    return (Decimal(points.numerator) / Decimal(points.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def points_text(points: Fraction) -> str:
    """Format points for people: ``Fraction(37, 2)`` -> ``"18.5"``, ``Fraction(25)`` -> ``"25"``."""
    text = str(_decimal(points))
    return text.rstrip("0").rstrip(".") if "." in text else text


def score_text(earned: Fraction, possible: int) -> str:
    """Format points earned out of points possible: ``(Fraction(37, 2), 25)`` -> ``"18.5 / 25"``.

    Args:
        earned: the points scored (shown as :func:`points_text` shows them).
        possible: the whole course points that could be scored.
    """
    return f"{points_text(earned)} / {possible}"


def _number(points: Fraction) -> float | int:
    """Points as a JSON number (two decimals; Gradescope needs numbers)."""
    value = _decimal(points)
    return int(value) if value == value.to_integral_value() else float(value)


def shown(text: str) -> str:
    """``text`` from a submission (its name, a note, a test's message) safe to print on a terminal: every
    control character but the newline written as an escape (``\\x1b``), so a submission cannot drive the
    instructor's terminal."""
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def _line(text: str) -> str:
    """:func:`shown` on one line: a line break is written as ``\\n`` too (a name cannot forge a report's row)."""
    return shown(text.replace("\r", "\\r").replace("\n", "\\n"))


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal: two for a wide character (``李``, Unicode's East Asian Width W or F)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def spreadsheet_cell(text: str) -> str:
    """``text`` from a submission as a CSV cell a spreadsheet will not run: on one line, control characters
    escaped, and a leading ``=``, ``+``, ``-`` or ``@`` (a formula to Excel, LibreOffice and Sheets) quoted
    with ``'``."""
    cell = shown(text.replace("\r\n", " ").replace("\n", " "))
    return "'" + cell if cell[:1] in ("=", "+", "-", "@") else cell


def _test_line(test: TestScore) -> list[str]:
    hidden = " [hidden]" if test.record.hidden else ""
    lines = [f"    {_MARK.get(test.outcome, test.outcome.upper()):<7} "
             f"{points_text(test.score):>5} / {points_text(test.max_score):<5} {test.record.name}{hidden}"]
    if test.message:
        lines.extend(f"{'':20}{line}" for line in shown(test.message).splitlines()[:6])
    return lines


def unprotected(grades: list[SubmissionGrade]) -> list[str]:
    """The sandbox's protections (:data:`milestones.grader._sandbox.PROTECTIONS`) that any run of ``grades`` went
    without, by short name, in the order they were first met."""
    found: list[str] = []
    for grade in grades:
        for mg in grade.milestones:
            found.extend(name for name in mg.unprotected if name not in found)
    return found


def text_report(grades: list[SubmissionGrade], *, passed_tests: bool = True) -> str:
    """A rubric table per student, for several students a summary table, and, when a run went without some of
    the sandbox's protections (no Landlock, no namespaces, not root), which ones and what that leaves open.

    Args:
        grades: the graded submissions.
        passed_tests: list passed tests too (False lists only the ones that lost points).
    """
    out: list[str] = []
    for grade in grades:
        origin = grade.submission.origin
        out.append(f"== {_line(grade.submission.name)}" + (f" ({_line(origin)})" if origin else "") + " ==")
        for mg in grade.milestones:
            m = mg.milestone
            extra = f", extra credit {score_text(mg.extra, m.extra_points)}" if m.extra_points else ""
            layered = " (layered)" if mg.layered else ""
            out.append(f"Milestone {m.number}: {m.title}: {score_text(mg.regular, m.regular_points)}"
                       f"{extra}{layered}")
            for note in mg.notes:
                out.append(f"  note: {shown(note)}")
            for part in mg.parts:
                ec = " (extra credit)" if part.part.extra_credit else ""
                out.append(f"  {part.part.key}: {part.part.title}{ec}: {score_text(part.score, part.part.points)}")
                if not part.tests:
                    out.append("    (no tests yet)")
                for test in part.tests:
                    if passed_tests or test.outcome != "passed":
                        out.extend(_test_line(test))
        out.append(f"Total: {score_text(grade.regular, grade.regular_max)} regular points, "
                   f"{score_text(grade.extra, grade.extra_max)} extra credit")
        out.append("")
    if len(grades) > 1:
        numbers = [mg.milestone.number for mg in grades[0].milestones]
        header = ["student", *(f"M{n}" for n in numbers), "regular", "extra"]
        rows = [[_line(g.submission.name), *(points_text(mg.regular + mg.extra) for mg in g.milestones),
                 points_text(g.regular), points_text(g.extra)] for g in grades]
        widths = [max(_width(r[i]) for r in [header, *rows]) for i in range(len(header))]
        out.append("Summary")
        for row in [header, *rows]:
            out.append("  ".join(cell + " " * (w - _width(cell)) if i == 0 else " " * (w - _width(cell)) + cell
                                 for i, (cell, w) in enumerate(zip(row, widths, strict=True))))
    if missing := unprotected(grades):
        out += ["", "Graded without these protections (docs/instructor.md section 7 says what each leaves open):",
                *(f"  {name}: {PROTECTIONS.get(name, 'unknown')}" for name in missing)]
    return "\n".join(out).rstrip() + "\n"


def _test_dict(test: TestScore) -> dict[str, Any]:
    return {"name": test.record.name, "nodeid": test.record.nodeid, "doc": test.record.doc,
            "part": test.record.part, "hidden": test.record.hidden, "outcome": test.outcome,
            "message": test.message, "score": _number(test.score), "max_score": _number(test.max_score)}


def json_report(grades: list[SubmissionGrade]) -> str:
    """Every student's milestones, parts and tests as JSON (points as numbers, two decimals at most).

    Each student has ``id`` (:attr:`~milestones.grader.intake.Submission.id`), ``student`` (the unique name),
    ``source`` (the zip given, or the folder
    holding ``blackjack/``), ``folder`` (the folder holding ``blackjack/``; ``null`` for a
    zip, whose unpacked folder is gone), the totals and the milestones; each milestone's
    ``unprotected`` lists the sandbox's protections its run went without.
    """
    data = [{"id": g.submission.id, "student": g.submission.name, "source": g.submission.origin or None,
             "folder": str(g.submission.folder) if g.submission.folder and not g.submission.unzipped else None,
             "regular": _number(g.regular), "extra": _number(g.extra),
             "milestones": [{"number": mg.milestone.number, "title": mg.milestone.title,
                             "regular": _number(mg.regular), "regular_max": mg.milestone.regular_points,
                             "extra": _number(mg.extra), "extra_max": mg.milestone.extra_points,
                             "layered": mg.layered, "notes": mg.notes, "unprotected": mg.unprotected,
                             "parts": [{"key": p.part.key, "title": p.part.title, "points": p.part.points,
                                        "extra_credit": p.part.extra_credit, "score": _number(p.score),
                                        "tests": [_test_dict(t) for t in p.tests]} for p in mg.parts]}
                            for mg in g.milestones]} for g in grades]
    return json.dumps(data, indent=2) + "\n"


def gradescope_results(grade: SubmissionGrade, hidden_visibility: str = DEFAULT_HIDDEN_VISIBILITY) -> str:
    """One submission's grade in Gradescope's ``results.json`` format.

    The format (https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output
    format"): a top-level ``score``, ``output`` and ``tests``, each test with ``name``,
    ``score``, ``max_score``, ``status`` (``"passed"``/``"failed"``), ``output`` and
    ``visibility`` (``"hidden"``, ``"after_due_date"``, ``"after_published"`` or
    ``"visible"``). Hidden tests get ``hidden_visibility``. Extra-credit tests carry the
    tag ``"extra credit"``; set the assignment's total on Gradescope to the regular points.

    When hidden tests were graded and ``hidden_visibility`` is not ``"visible"``, the total
    would give their results away: the top-level ``visibility`` (the spec's setting for the
    whole result, total included) is ``hidden_visibility`` too, each visible test keeps its
    own ``"visible"``, and the summary in ``output`` counts the visible tests only.

    The sandbox's protections a run went without (no Landlock, no namespaces, not root) are
    for the instructor: they go in ``extra_data`` (``{"unprotected": ["landlock"]}``, the
    spec's "extra data to be stored"), not in ``output``, the text the student reads.
    """
    tests = []
    for mg in grade.milestones:
        for part in mg.parts:  # the order of mg.tests: part by part
            for test in part.tests:
                tests.append({
                    "name": f"M{mg.milestone.number} {test.record.part}: {test.record.name}",
                    "score": _number(test.score), "max_score": _number(test.max_score),
                    "status": "passed" if test.outcome == "passed" else "failed",
                    "output": test.message or test.record.doc,
                    "visibility": hidden_visibility if test.record.hidden else "visible",
                    "tags": [str(test.record.part)] + (["extra credit"] if part.part.extra_credit else []),
                })
    notes = [f"Milestone {mg.milestone.number}: {note}" for mg in grade.milestones for note in mg.notes]
    secret = hidden_visibility != "visible" and any(t.record.hidden for mg in grade.milestones for t in mg.tests)
    if secret:  # the summary a student sees at once counts the visible tests only
        summary = "; ".join(f"milestone {mg.milestone.number}: visible tests {_visible_text(mg)}"
                            for mg in grade.milestones)
        summary += f" (the hidden tests and the total are shown {_WHEN[hidden_visibility]})"
    else:
        summary = "; ".join(f"milestone {mg.milestone.number}: {score_text(mg.regular, mg.milestone.regular_points)}"
                            + (f" + {points_text(mg.extra)} extra credit" if mg.milestone.extra_points else "")
                            for mg in grade.milestones)
    results: dict[str, Any] = {"score": _number(grade.regular + grade.extra),
                               "output": "\n".join([summary, *notes]),
                               "stdout_visibility": "hidden",
                               "tests": tests}
    if secret:  # the total holds the hidden tests' points: it is shown when they are
        results["visibility"] = hidden_visibility
    missing = unprotected([grade])
    if missing:
        results["extra_data"] = {"unprotected": missing}
    return json.dumps(results, indent=2) + "\n"


#: When Gradescope shows what has a visibility, in words.
_WHEN = {"hidden": "to the instructor only", "after_due_date": "after the due date",
         "after_published": "once the grades are published"}


def _visible_text(grade: MilestoneGrade) -> str:
    """``"12 / 20"``: points earned in the visible tests out of the points they are worth."""
    visible = [t for t in grade.tests if not t.record.hidden]
    return f"{points_text(sum((t.score for t in visible), Fraction(0)))} / " \
           f"{points_text(sum((t.max_score for t in visible), Fraction(0)))}"


def gradescope_failure(reason: str) -> str:
    """A ``results.json`` for a run that could not grade at all (a broken autograder): score 0 and the reason.

    Gradescope's documentation asks for a results file whatever happens; this one tells the
    student the grading failed and that it is not their fault, and gives the reason.
    """
    return json.dumps({"score": 0, "output": f"The autograder could not grade this submission (not your fault; "
                                             f"tell your instructor): {reason}",
                       "stdout_visibility": "hidden", "tests": []}, indent=2) + "\n"


def csv_gradebook(grades: list[SubmissionGrade]) -> str:
    """A gradebook: one row per submission (its name, :attr:`~milestones.grader.intake.Submission.id` and source
    path), one column per rubric part, then totals and notes (text as :func:`spreadsheet_cell` makes it safe)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if not grades:
        return ""
    columns = [(mg.milestone.number, p.part.key) for mg in grades[0].milestones for p in mg.parts]
    writer.writerow(["student", "id", "source", *(f"m{n}_{key}" for n, key in columns),
                     f"regular (of {grades[0].regular_max})", f"extra credit (of {grades[0].extra_max})", "notes"])
    for grade in grades:
        scores = {(mg.milestone.number, p.part.key): p.score for mg in grade.milestones for p in mg.parts}
        notes = " | ".join(f"M{mg.milestone.number}: {n}" for mg in grade.milestones for n in mg.notes)
        writer.writerow([spreadsheet_cell(grade.submission.name), grade.submission.id,
                         spreadsheet_cell(grade.submission.origin),
                         *(points_text(scores.get(c, Fraction(0))) for c in columns),
                         points_text(grade.regular), points_text(grade.extra), spreadsheet_cell(notes)])
    return buffer.getvalue()
