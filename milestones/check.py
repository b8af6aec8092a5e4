"""The student's progress check, ``python -m milestones check``, and the diary's tables it keeps.

The current milestone is the first one (in course order) whose visible tests do not all pass yet;
``--milestone N`` picks one. The milestones passed on the way there are reported (and logged) as done, so a
student who has just finished a week sees it. A check of one part or one test (``--part``, ``--test``) is
not logged in the diary, which records whole milestones. ``python -m milestones tenrounds``
(:func:`log_ten_rounds`) writes the student's ten rounds into the diary's "Ten rounds" table.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .config import TESTS_DIR, Course, Milestone, load_course, suite_path
from .grader.scores import MilestoneGrade, PartScore, TestScore, score_run
from .grader.hidden import hidden_counts
from .report import points_text, score_text
from .grader.runner import Limits, TestRecord, run_suite
from .ten_rounds import BANKROLL, ROUNDS, SEED, TenRounds, play_ten_rounds

__all__ = ["CheckResult", "append_progress", "append_ten_rounds", "check_diary", "edit_diary", "log_ten_rounds",
           "run_check", "write_whole"]

PROGRESS_HEADING = "## Progress log"
PROGRESS_HEADER = ("| date | milestone | visible points | tests passing | next step |\n"
                   "|---|---|---|---|---|")
TEN_ROUNDS_HEADING = "## Ten rounds"
TEN_ROUNDS_NOTE = ("Written by `python -m milestones tenrounds`: your ten rounds of your course game with money, "
                   "each player's ten rounds, and two bots' at the same table.")
TEN_ROUNDS_HEADER = ("| date | round | player | bet | moves | result | net |\n"
                     "|---|---|---|---|---|---|---|")


@dataclass
class CheckResult:
    """One check: the milestone graded on its visible tests, and the next thing to fix.

    Attributes:
        grade: the milestone's visible-test grade.
        next_test: the first test that does not pass, in the spec's order, if any.
        collect_errors: messages from test modules that could not import the student's code.
        hidden: how many hidden tests the milestone keeps back for grading (None: not known).
        finished: the earlier milestones whose visible tests all passed on the way to this one.
        selection: what a check of part of the milestone ran (``"part wagering"``, ``"test
            test_wagering.py::test_win_pays_one_to_one"``); "" for the whole milestone. The
            grade then holds only the tests run, each worth what it is worth in the milestone.
    """

    grade: MilestoneGrade
    next_test: TestScore | None
    collect_errors: list[str]
    hidden: int | None = None
    finished: list[CheckResult] = field(default_factory=list)
    selection: str = ""

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

    @property
    def points(self) -> str:
        """The visible-test points, ``"25 / 25"`` (``" + 5 / 10 extra credit"`` when the milestone has some)."""
        m = self.grade.milestone
        return (score_text(self.grade.regular, m.regular_points)
                + (f" + {score_text(self.grade.extra, m.extra_points)} extra credit" if m.extra_points else ""))

    def describe(self) -> str:
        """The lines ``check`` prints."""
        m = self.grade.milestone
        graded = [t.outcome == "passed" for t in self.grade.tests if t.max_score > 0]
        if self.selection:
            lines = [f"Milestone {m.number}: {m.title}", f"  checked only the {self.selection} "
                     f"({sum(graded)} of {len(graded)} graded tests pass)" if self.grade.tests
                     else f"  checked only the {self.selection}"]
            for part in self.grade.parts:
                possible = sum((t.max_score for t in part.tests), Fraction(0))
                lines.append(f"  {part.part.key}: {points_text(part.score)} / {points_text(possible)}"
                             + ("" if possible == part.part.points else f" (of the part's {part.part.points})"))
            passed = (f"Every visible test of the {self.selection} passes. Run check without --part or --test "
                      f"for the whole milestone.")
        else:
            lines = [f"Milestone {done.grade.milestone.number} done: {done.points} points, every visible test "
                     f"passes." for done in self.finished]
            ungraded = [t.outcome == "passed" for t in self.grade.tests if t.max_score == 0]
            counts = f"{sum(graded)} of {len(graded)} graded tests pass" if graded or ungraded else "no test ran"
            if ungraded:
                counts += f", and {sum(ungraded)} of {len(ungraded)} ungraded checks"
            lines += [f"Milestone {m.number}: {m.title}", f"  {self.points} points from the visible tests ({counts})"]
            lines += [f"  {part.part.key}: {score_text(part.score, part.part.points)}" for part in self.grade.parts]
            passed = "Every visible test of this milestone passes. " + {
                None: "Hidden tests, if the spec lists any, are graded after the deadline.",
                0: "It has no hidden tests, so these are its full test points.",
                1: "One hidden test is graded after the deadline.",
            }.get(self.hidden, f"{self.hidden} hidden tests are graded after the deadline.")
        lines.extend(f"  note: {n}" for n in self.grade.notes)
        if self.next_test is not None:
            lines.append(f"Next: {self.next_test.record.name}")
            if self.next_test.record.doc:
                lines.append(f"  what it checks: {self.next_test.record.doc}")
            lines.extend(f"  {line}" for line in self.next_test.message.splitlines()[:8])
        else:
            lines.append(passed if self.all_pass else _NO_TEST_RAN)
        return "\n".join(lines)


_NO_TEST_RAN = ("No test ran: the tests could not import your code. Fix the error in the note above "
                "(its file and line), then check again.")


def _next_test(grade: MilestoneGrade) -> TestScore | None:
    """The first test that does not pass: in the spec's module order (``Milestone.order``; an unlisted
    module after the listed ones), point-bearing ones first within a module, then in the suite's order.

    An ungraded test comes up with its module, not after every graded one: it checks what the graded
    tests rely on (a shuffle that replays from its seed), so a failure there explains failures to come.
    """
    order = grade.milestone.order

    def rank(indexed: tuple[int, TestScore]) -> tuple[int, bool, int]:
        index, test = indexed
        module = test.record.nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
        return order.index(module) if module in order else len(order), test.max_score == 0, index

    failing = [(i, t) for i, t in enumerate(grade.tests) if t.outcome != "passed"]
    return min(failing, key=rank)[1] if failing else None


def run_check(root: Path, milestone: int | None = None, *, limits: Limits = Limits(),
              course: Course | None = None, progress: Callable[[str], None] | None = None,
              part: str | None = None, test: str | None = None) -> CheckResult:
    """Check the student's project in ``root`` (the folder holding ``blackjack/`` and ``tests/``).

    Args:
        root: the student's project folder.
        milestone: the milestone to check (default: the first not yet complete; the ones
            passed on the way are in the result's ``finished``; with ``part`` or ``test``,
            the milestone that has it).
        limits: time and memory limits for the test run.
        course: milestones and points (default: ``milestones/points.toml``).
        progress: called with a line before each milestone's tests start (a run that
            loops may take a minute, and a silent terminal looks stuck).
        part: run only this part's visible tests (its key in ``points.toml``: ``"wagering"``).
        test: run only this visible test: its name (``"test_win_pays_one_to_one"``, every
            case of a parametrized test) or its id in the suite (``"test_wagering.py::test_x"``).

    Raises:
        FileNotFoundError: ``root`` has no ``blackjack`` package or no test folder for the milestone.
        KeyError: an unknown milestone number, part or test (the message names the choices).
        ValueError: both ``part`` and ``test``.
    """
    course = course or load_course()
    if not (root / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{root} has no blackjack/__init__.py; run check from your project folder")
    if part is not None and test is not None:
        raise ValueError("check one part or one test, not both")
    if part is not None or test is not None:
        return _check_selection(root, milestone, course, limits, progress, part, test)
    numbers = [milestone] if milestone is not None else list(course.with_suites(root / TESTS_DIR))
    if not numbers or not (root / suite_path(numbers[0])).is_dir():
        raise FileNotFoundError(f"no {suite_path(numbers[0] if numbers else 1)} folder in {root}")
    hidden = hidden_counts(root)
    finished: list[CheckResult] = []
    for number in numbers:
        course.milestone(number)
        if progress is not None:
            progress(f"Running the visible tests of milestone {number} ...")
        run = run_suite(root / suite_path(number), root, limits=limits, hidden=False)
        grade = score_run(course.milestone(number), run.collected, run, limits)
        result = CheckResult(grade, _next_test(grade), [m for _, m in run.collect_errors], hidden.get(number))
        if not result.all_pass or number == numbers[-1]:
            break
        finished.append(result)
    result.finished = finished
    return result


def _matches(record: TestRecord, test: str) -> bool:
    """True when ``test`` names ``record``: its id in the suite, its function, or its module::function."""
    base = record.name.split("[", 1)[0]
    return test in (record.name, base, base.rsplit("::", 1)[-1], record.name.rsplit("::", 1)[-1])


def _check_selection(root: Path, milestone: int | None, course: Course, limits: Limits,
                     progress: Callable[[str], None] | None, part: str | None, test: str | None) -> CheckResult:
    """Run and grade one part's or one test's visible tests (see :func:`run_check`)."""
    if part is not None:
        owners = [m for m in course.milestones if any(p.key == part for p in m.parts)]
        if milestone is not None:
            course.milestone(milestone).part(part)  # KeyError naming the milestone's parts
            owners = [course.milestone(milestone)]
        elif not owners:
            keys = [f"{p.key} (milestone {m.number})" for m in course.milestones for p in m.parts]
            raise KeyError(f"no part {part!r}; choose from: {', '.join(keys)}")
        numbers = [owners[0].number]
    else:
        numbers = [milestone] if milestone is not None else list(course.with_suites(root / TESTS_DIR))
    for number in numbers:
        course.milestone(number)
        if not (root / suite_path(number)).is_dir():
            raise FileNotFoundError(f"no {suite_path(number)} folder in {root}")
    found: dict[int, tuple[dict[str, TestRecord], list[str]]] = {}
    for number in numbers:
        folder = root / suite_path(number)
        collected = run_suite(folder, root, limits=limits, hidden=False, collect_only=True)
        chosen = {nodeid: r for nodeid, r in collected.collected.items()
                  if (r.part == part if part is not None else _matches(r, test or ""))}
        errors = [message for _, message in collected.collect_errors]
        found[number] = (collected.collected, errors)
        if chosen or number == numbers[-1] and errors:
            return _run_selection(root, course.milestone(number), collected.collected, chosen, errors, limits,
                                  progress, f"part {part}" if part is not None else f"test {test}")
    if part is not None:
        raise KeyError(f"part {part} of milestone {numbers[0]} has no visible tests in {suite_path(numbers[0])}")
    names = sorted({r.name.split("[", 1)[0].rsplit("::", 1)[-1] for records, _ in found.values()
                    for r in records.values()})
    close = difflib.get_close_matches(test or "", names, n=3, cutoff=0.5)
    raise KeyError(f"no visible test named {test!r} in {', '.join(suite_path(n) for n in numbers)}"
                   + (f"; did you mean {' or '.join(close)}?" if close else ""))


def _run_selection(root: Path, milestone: Milestone, collected: dict[str, TestRecord],
                   chosen: dict[str, TestRecord], errors: list[str], limits: Limits,
                   progress: Callable[[str], None] | None, selection: str) -> CheckResult:
    """Run the ``chosen`` tests and grade them as part of their milestone (each worth its share of its part)."""
    folder = root / suite_path(milestone.number)
    if progress is not None:
        progress(f"Running the {selection} of milestone {milestone.number} ...")
    run = run_suite(folder, root, limits=limits, hidden=False,
                    select=[str(folder / record.name) for record in chosen.values()]) if chosen else None
    whole = score_run(milestone, collected, run, limits, note="" if chosen else errors[0])
    parts = [PartScore(p.part, tuple(t for t in p.tests if t.record.nodeid in chosen)) for p in whole.parts]
    grade = MilestoneGrade(milestone, [p for p in parts if p.tests], whole.notes)
    collect_errors = [m for _, m in run.collect_errors] if run is not None else errors
    return CheckResult(grade, _next_test(grade), collect_errors, selection=selection)


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ").strip()


def check_diary(diary: Path) -> None:
    """Check that the diary ``diary`` can be read and written, before a check runs the tests for it.

    Nothing is created: a missing diary (and its folders) is made later by :func:`append_progress`.

    Raises:
        OSError: ``diary`` is a folder or not a regular file, a folder on its way is a file,
            or the file or its folder cannot be written; the message names the path and says
            why in words.
    """
    if diary.is_dir():
        raise IsADirectoryError(f"the diary {diary} is a folder; give the diary's file, e.g. {diary / 'diary.md'}")
    if diary.exists() and not diary.is_file():
        raise OSError(f"the diary {diary} is not a regular file")
    existing = next(folder for folder in diary.absolute().parents if folder.exists())
    if not existing.is_dir():
        raise NotADirectoryError(f"cannot write the diary {diary}: {existing} is a file, not a folder")
    if not os.access(diary if diary.exists() else existing, os.R_OK | os.W_OK):
        raise PermissionError(f"cannot write the diary {diary}: permission denied")


@contextmanager
def edit_diary(diary: Path, template: Path | None = None) -> Iterator[list[str]]:
    """The lines of ``diary`` to change in place (a missing diary, its folders made, starts from ``template`` when
    given); written back whole (:func:`write_whole`) when they changed.

    Raises:
        OSError: the diary cannot be read or written (:func:`check_diary` first); the message names it and says
            why in words.
    """
    check_diary(diary)
    try:
        if diary.exists():
            lines = diary.read_text(encoding="utf-8").splitlines()
        else:
            diary.parent.mkdir(parents=True, exist_ok=True)
            lines = (template.read_text(encoding="utf-8") if template and template.is_file()
                     else "# Project diary\n").splitlines()
        before = list(lines)
        yield lines
        if lines != before:
            write_whole(diary, "\n".join(lines) + "\n")
    except OSError as err:
        why = err.strerror[:1].lower() + err.strerror[1:] if err.strerror else str(err)
        raise OSError(f"cannot write the diary {diary}: {why}") from None


def _table(lines: list[str], heading: int, header: str, past: int = 0) -> tuple[int, int]:
    """The first and last line of the table under ``lines[heading]`` (the last at least ``past`` lines down);
    ``header`` is put there first when there is none."""
    start = next((i for i in range(heading + 1, len(lines)) if lines[i].lstrip().startswith("|")), None)
    if start is None:
        lines[heading + 1:heading + 1] = ["", *header.splitlines()]
        start = heading + 2
    end = start + past
    while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("|"):
        end += 1
    return start, end


def append_progress(diary: Path, result: CheckResult, *, template: Path | None = None,
                    now: dt.datetime | None = None) -> list[str]:
    """Log ``result`` in the progress table of ``diary``: one dated row for each milestone
    finished on the way (``result.finished``) and one for the milestone checked.

    The rows go after the last row of the table under the ``## Progress log`` heading; a diary without that
    heading gets the heading and table at its end (a missing diary, :func:`edit_diary`). A row that says the
    same as the milestone's last row, its date aside, is left out, so checking again without a change adds
    nothing.

    Returns:
        The rows added (none when nothing changed).

    Raises:
        OSError: the diary cannot be read or written (:func:`edit_diary`).
    """
    now = now or dt.datetime.now()
    added = []
    with edit_diary(diary, template) as lines:
        heading = next((i for i, line in enumerate(lines) if line.strip().startswith(PROGRESS_HEADING)), None)
        if heading is None:
            lines += ["", PROGRESS_HEADING, ""]
            heading = len(lines) - 2
        start, end = _table(lines, heading, PROGRESS_HEADER)
        for checked in [*result.finished, result]:
            cells = _row_cells(checked)
            last = next((_cells(line)[1:] for line in reversed(lines[start:end + 1])
                         if _cells(line)[1:2] == cells[:1]), None)
            if last == cells:
                continue
            row = f"| {now:%Y-%m-%d %H:%M} | " + " | ".join(cells) + " |"
            end += 1
            lines.insert(end, row)
            added.append(row)
    return added


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: a new file beside it is renamed over it, so a
    process killed while writing leaves the earlier file as it was, never half of the new one.

    Raises:
        OSError: the file cannot be written or renamed (the partial file is removed).
    """
    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def append_ten_rounds(diary: Path, ten: TenRounds, *, template: Path | None = None,
                      now: dt.datetime | None = None) -> list[str]:
    """Write the rows of ``ten`` (:func:`milestones.ten_rounds.play_ten_rounds`) into the diary's "Ten rounds" table.

    The table under the ``## Ten rounds`` heading holds the latest ten rounds: its rows (and an older diary's
    header) are replaced by the new ones, dated, when they say something else, and left as they are when they
    say the same, their dates aside. A diary without the heading gets the section (heading, a line on where
    the rows come from, the table) before its ``## Progress log``, or at its end (a missing diary,
    :func:`edit_diary`). Nothing is written when ``ten`` has no rows.

    Returns:
        The rows written (none when nothing changed).

    Raises:
        OSError: the diary cannot be read or written; the message names it and says why in words.
    """
    if not ten.rows:
        return []
    now = now or dt.datetime.now()
    with edit_diary(diary, template) as lines:
        heading = next((i for i, line in enumerate(lines) if line.strip().startswith(TEN_ROUNDS_HEADING)), None)
        if heading is None:
            at = next((i for i, line in enumerate(lines) if line.strip().startswith(PROGRESS_HEADING)), len(lines))
            section = [TEN_ROUNDS_HEADING, "", TEN_ROUNDS_NOTE, "", *TEN_ROUNDS_HEADER.splitlines()]
            lines[at:at] = [*section, ""] if at < len(lines) else ["", *section]
            heading = lines.index(TEN_ROUNDS_HEADING)
        start, end = _table(lines, heading, TEN_ROUNDS_HEADER, past=1)  # past the header's separator row
        old = [_cells(line)[1:] for line in lines[start + 2:end + 1]]
        header = TEN_ROUNDS_HEADER.splitlines()
        if old == [[_cell(cell) for cell in row] for row in ten.rows] and lines[start:start + 2] == header:
            return []
        lines[start:start + 2] = header  # an older diary's columns
        rows = [f"| {now:%Y-%m-%d %H:%M} | " + " | ".join(_cell(cell) for cell in row) + " |" for row in ten.rows]
        lines[start + 2:end + 1] = rows
    return rows


def log_ten_rounds(project: Path, diary: Path, ask: Callable[[str], str], say: Callable[[str], None], *,
                   names: Sequence[str] = ("You",), template: Path | None = None, timeout: float = 30.0) -> TenRounds:
    """Play the student's ten rounds on ``project``'s code (``python -m milestones tenrounds``), and write the rows
    into ``diary``.

    Args:
        project: the student's project folder.
        diary: the diary to write (see :func:`append_ten_rounds`).
        ask: answers the game's questions (:func:`input`, or a script's lines).
        say: writes one line for the student: the game as it is played, then where the rows went, or one line on
            why there is no table (the code it needs not written, a mistake in it, answers that ran out).
        names: the student's players.
        template: the diary template, for a diary that does not exist yet.
        timeout: seconds the game may take (:func:`~milestones.ten_rounds.play_ten_rounds`).

    Raises:
        OSError: the diary cannot be written.
    """
    say(f"{ROUNDS} rounds of your course game with money (cs111_money, bankroll {BANKROLL}, seed {SEED}), "
        f"for the diary:")
    ten = play_ten_rounds(project, ask, say, names=names, timeout=timeout)
    if ten.problem:
        say(f"(no ten rounds in the diary: {ten.problem})")
    elif append_ten_rounds(diary, ten, template=template):
        say(f"(written in the Ten rounds table of {diary}, with two bots' ten rounds beside yours)")
    else:
        say(f"(the same rounds as in the Ten rounds table of {diary})")
    return ten


def _row_cells(result: CheckResult) -> list[str]:
    """The progress row of ``result`` without its date: milestone, points, tests passing, next step."""
    grade = result.grade
    m = grade.milestone
    points = score_text(grade.regular, m.regular_points)
    if m.extra_points:
        points += f" (+{points_text(grade.extra)} EC)"
    return [str(m.number), points, f"{result.passing} / {len(grade.tests)}", _cell(result.next_step)]


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row, stripped."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
