"""The grading plugin's checks and messages, the student's check and diary, and the honesty check."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import MINI_M1, write_course

from milestones import REPO_ROOT
from milestones.check import append_progress, run_check
from milestones.config import Course, Milestone, load_course, suite_path
from milestones.grader.hidden import hidden_counts
from milestones.honesty import check_honesty
from milestones.grader.runner import Limits, run_suite
from milestones.starter import write_packages, write_starter

LIMITS = Limits(timeout=60, test_timeout=5)


def test_collected_records_carry_points_part_and_hidden(mini_course: Path) -> None:
    """Collecting milestone 1 lists each test with its weight, part and hidden flag."""
    run = run_suite(mini_course / "tests" / "milestone1", None, limits=LIMITS, collect_only=True)
    records = {r.name: r for r in run.collected.values()}
    assert records["test_mini.py::test_two_aces_and_nine"].points == 2
    assert records["test_mini.py::test_hidden_bust"].hidden
    assert records["test_mini.py::test_totals[As 6d-17]"].hidden
    assert not records["test_mini.py::test_totals[Kh 7d-17]"].hidden
    assert {r.part for r in records.values()} == {"engine"}


def test_visible_only_run_leaves_hidden_tests_out(mini_course: Path) -> None:
    """A run with hidden=False collects no hidden test."""
    run = run_suite(mini_course / "tests" / "milestone1", None, limits=LIMITS, hidden=False, collect_only=True)
    assert run.collected and not any(r.hidden for r in run.collected.values())


def test_tests_without_points_or_part_fail_with_the_fix(tmp_path: Path) -> None:
    """A test with no points marker, and one in a many-part milestone without PART, fail saying what to add."""
    m2 = "import pytest\n\n@pytest.mark.points(1)\ndef test_a():\n    '''No PART.'''\n\ndef test_b():\n    '''No points.'''\n"
    course = write_course(tmp_path / "course", m2=m2)
    run = run_suite(course / "tests" / "milestone2", None, limits=LIMITS)
    messages = {nodeid.split("::")[-1]: result for nodeid, result in run.results.items()}
    assert messages["test_a"][0] == "error" and "must set PART" in messages["test_a"][1]
    assert messages["test_b"][0] == "error" and "@pytest.mark.points(n)" in messages["test_b"][1]


def test_failure_message_is_the_asserts_own_text(mini_course: Path, tmp_path: Path) -> None:
    """A failed assert reports its message without pytest's explanation."""
    write_packages(tmp_path, lambda r: False)
    hand = tmp_path / "blackjack" / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8").replace("total += 10", "total += 20"), encoding="utf-8")
    run = run_suite(mini_course / "tests" / "milestone1", tmp_path, limits=LIMITS)
    outcome, message = run.results["tests/milestone1/test_mini.py::test_two_aces_and_nine"]
    assert outcome == "failed"
    assert message == ("get_score() of [A, A, 9] should be 21: count one ace as 11, the other as 1; got 31")


def test_check_reports_points_and_next_failing_test(tmp_path: Path) -> None:
    """In a fresh starter, check picks milestone 1, scores 0 and names a failing test's fix."""
    project = tmp_path / "project"
    write_course(project, m2=None)
    write_packages(project, lambda r: True)
    result = run_check(project, limits=LIMITS)
    text = result.describe()
    assert result.grade.milestone.number == 1 and result.passing == 0
    assert "0 / 25 points from the visible tests (0 of 3 graded tests pass)" in text and "not written yet:" in text
    assert all(not t.record.hidden for t in result.grade.tests)


def test_check_names_the_next_test_in_the_specs_order(tmp_path: Path) -> None:
    """Next follows the spec's module order (points.toml's order), not file names: a week-1 starter used to be
    sent to test_blackjack.py, the last step of the spec, because it comes first alphabetically."""
    project = tmp_path / "project"
    write_course(project, m2=None)
    write_packages(project, lambda r: True)
    (project / "tests" / "milestone1" / "test_a_round.py").write_text(
        "import pytest\nfrom blackjack import Hand, parse_cards\n\n\n@pytest.mark.points(1)\n"
        "def test_round():\n    'The last step.'\n    assert Hand(parse_cards('Kh 7d')).is_bust() is False\n",
        encoding="utf-8")
    milestone = replace(load_course().milestone(1), order=("test_mini.py", "test_a_round.py"))
    result = run_check(project, 1, limits=LIMITS, course=Course(milestones=(milestone,)))
    assert result.next_test is not None and result.next_test.record.name == "test_mini.py::test_two_aces_and_nine"
    unordered = replace(milestone, order=())
    result = run_check(project, 1, limits=LIMITS, course=Course(milestones=(unordered,)))
    assert result.next_test is not None and result.next_test.record.name == "test_a_round.py::test_round"


def test_check_names_a_failing_ungraded_test_with_its_module(tmp_path: Path) -> None:
    """An ungraded test that fails comes up as Next with its module, before graded tests of later modules:
    a shuffle that ignores its seed failed silently until every graded test passed."""
    m1 = MINI_M1 + '\n\n@pytest.mark.points(0)\ndef test_replays():\n    "Ungraded."\n    assert False, "replay"\n'
    project = write_course(tmp_path / "project", m1=m1, m2=None)
    (project / "tests" / "milestone1" / "test_a_round.py").write_text(
        'import pytest\n\n\n@pytest.mark.points(1)\ndef test_round():\n    "Graded."\n    assert False, "round"\n',
        encoding="utf-8")
    milestone = replace(load_course().milestone(1), order=("test_mini.py", "test_a_round.py"))
    result = run_check(project, 1, limits=LIMITS, course=Course(milestones=(milestone,)))
    assert result.next_test is not None and result.next_test.record.name == "test_mini.py::test_replays"


@pytest.mark.parametrize("milestone", load_course().milestones, ids=lambda m: f"milestone{m.number}")
def test_the_course_orders_every_test_module_of_a_suite(milestone: Milestone) -> None:
    """points.toml's order names each test module of a suite of several exactly once (a renamed or new module
    would otherwise be sent to the end of check's Next without a word)."""
    modules = sorted(p.name for p in (REPO_ROOT / suite_path(milestone.number)).glob("test_*.py"))
    if len(modules) > 1 or milestone.order:
        assert sorted(milestone.order) == modules, f"order = {list(milestone.order)}; the suite has {modules}"


def test_check_moves_on_when_a_milestone_is_complete(mini_course: Path) -> None:
    """With milestone 1's visible tests all passing, check reports it done before the next milestone, whose
    last line says how many hidden tests it keeps back (the mini milestone 2 has none)."""
    lines: list[str] = []
    result = run_check(mini_course, limits=LIMITS, progress=lines.append)
    assert result.grade.milestone.number == 2 and [r.grade.milestone.number for r in result.finished] == [1]
    assert lines == ["Running the visible tests of milestone 1 ...", "Running the visible tests of milestone 2 ..."]
    text = result.describe()
    assert text.startswith("Milestone 1 done: 25 / 25 points, every visible test passes.\nMilestone 2:")
    assert text.endswith("It has no hidden tests, so these are its full test points.")


@pytest.mark.slow  # 10-20 s in the default run on this 2-core machine
def test_check_counts_the_hidden_tests_left(mini_course: Path, tmp_path: Path) -> None:
    """The reference counts its suites' hidden tests (the mini milestone 1 hides a test and a case); a starter,
    whose suites have lost them, reads the counts it was written with."""
    assert hidden_counts(mini_course) == {1: 2, 2: 0}
    result = run_check(mini_course, 1, limits=LIMITS)
    assert result.all_pass and result.describe().endswith("2 hidden tests are graded after the deadline.")
    write_starter(tmp_path / "starter")
    assert hidden_counts(tmp_path / "starter") == hidden_counts(REPO_ROOT) and hidden_counts(REPO_ROOT)[2] > 0


def test_progress_row_goes_under_the_progress_log(tmp_path: Path) -> None:
    """append_progress adds a dated row at the end of the diary's progress table."""
    project = tmp_path / "project"
    write_course(project, m2=None)
    write_packages(project, lambda r: True)
    result = run_check(project, limits=LIMITS)
    diary = tmp_path / "diary.md"
    diary.write_text("# Diary\n\n## Progress log\n\n| date | milestone | visible points | tests passing | next step |\n"
                     "|---|---|---|---|---|\n| old | 1 | 0 / 25 | 0 / 3 | x |\n\n## Later\n", encoding="utf-8")
    [row] = append_progress(diary, result, now=dt.datetime(2024, 9, 30, 14, 5))
    lines = diary.read_text(encoding="utf-8").splitlines()
    assert row.startswith("| 2024-09-30 14:05 | 1 | 0 / 25 | 0 / 3 |")
    assert lines[lines.index("| old | 1 | 0 / 25 | 0 / 3 | x |") + 1] == row
    assert append_progress(diary, result, now=dt.datetime(2024, 9, 30, 15, 0)) == []
    assert diary.read_text(encoding="utf-8").splitlines() == lines


def test_progress_rows_log_a_finished_milestone_once(mini_course: Path, tmp_path: Path) -> None:
    """A check that passes milestone 1 on its way to 2 logs both; checking again with nothing changed logs neither."""
    result = run_check(mini_course, limits=LIMITS)
    diary = tmp_path / "diary.md"
    rows = append_progress(diary, result, now=dt.datetime(2024, 10, 7, 9, 0))
    assert [row.split(" | ")[1:3] for row in rows] == [["1", "25 / 25"], ["2", "20 / 65 (+0 EC)"]]
    assert append_progress(diary, result) == []
    assert diary.read_text(encoding="utf-8").count("| 2024-10-07 09:00 |") == 2


def test_diary_template_has_a_progress_log() -> None:
    """The diary template holds the progress table that check appends to."""
    text = (REPO_ROOT / "docs" / "diary_template.md").read_text(encoding="utf-8")
    assert "## Progress log" in text and "| date | milestone | visible points |" in text


def test_honesty_passes_on_an_honest_suite(mini_course: Path) -> None:
    """Every mini point test passes on the reference and fails on its starter."""
    report = check_honesty(mini_course, [1], limits=LIMITS)
    assert report.problems == [] and report.counted == {1: 5}


@pytest.mark.slow  # 10-20 s in the default run on this 2-core machine
def test_honesty_flags_a_test_that_passes_on_the_starter(tmp_path: Path) -> None:
    """A point test that needs no student code is reported, and the check fails."""
    m1 = MINI_M1 + "\n\n@pytest.mark.points(1)\ndef test_free():\n    '''Free.'''\n    assert True\n"
    course = write_course(tmp_path / "course", m1=m1, m2=None)
    report = check_honesty(course, [1], limits=LIMITS)
    assert len(report.problems) == 1 and "test_free: passes on the milestone-1 starter" in report.problems[0]


@pytest.mark.slow  # 10-20 s in the default run on this 2-core machine
def test_check_command_in_a_starter_logs_to_its_diary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m milestones check --project DIR` prints points and adds a row to DIR/docs/diary.md."""
    from milestones.__main__ import main

    project = tmp_path / "project"
    write_starter(project)
    status = main(["check", "--project", str(project), "--milestone", "1"])
    out = capsys.readouterr().out
    assert status == 0 and "Milestone 1" in out and "Next:" in out
    diary = (project / "docs" / "diary.md").read_text(encoding="utf-8")
    assert diary.count(f"| {dt.date.today():%Y-%m-%d}") == 1


def test_check_on_code_that_does_not_import_says_no_test_ran(tmp_path: Path) -> None:
    """A syntax error stops every test module from importing: check says so, and never 'every test passes'."""
    project = tmp_path / "project"
    write_course(project, m2=None)
    write_packages(project, lambda r: True)
    hand = project / "blackjack" / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8") + "\ndef broken(:\n", encoding="utf-8")
    result = run_check(project, limits=LIMITS)
    text = result.describe()
    assert result.grade.milestone.number == 1 and not result.all_pass
    assert "Every visible test" not in text and "No test ran" in text and "SyntaxError" in text
    assert result.next_step == "fix the import error: no test ran"


def test_an_import_error_names_the_students_file_and_line(tmp_path: Path) -> None:
    """A module the student's code cannot import is reported with the file and line of the import (the note
    once promised a file and line and gave none)."""
    project = tmp_path / "project"
    write_course(project, m2=None)
    write_packages(project, lambda r: True)
    deck = project / "blackjack" / "deck.py"
    lines = deck.read_text(encoding="utf-8").splitlines()
    deck.write_text("\n".join([*lines, "import ranodm"]) + "\n", encoding="utf-8")
    text = run_check(project, limits=LIMITS).describe()
    assert f"No module named 'ranodm' (in <module>, blackjack/deck.py:{len(lines) + 1})" in text
    assert "(no test ran)" in text


def test_plain_pytest_in_the_starter_stops_a_looping_test(tmp_path: Path) -> None:
    """The student's pyproject runs the grader's per-test time limit and short tracebacks by default."""
    import shlex
    import tomllib

    from milestones.starter import _student_pyproject
    options = shlex.split(tomllib.loads(_student_pyproject(REPO_ROOT))["tool"]["pytest"]["ini_options"]["addopts"])
    assert f"--test-timeout={Limits().test_timeout:g}" in options and "--tb=short" in options


def test_check_one_part_runs_only_its_tests(mini_course: Path) -> None:
    """`check --part wagering` runs only that part's visible tests, grades them as they count in the milestone,
    and says what it checked."""
    result = run_check(mini_course, part="wagering", limits=LIMITS)
    assert result.selection == "part wagering" and result.grade.milestone.number == 2
    assert {t.record.part for t in result.grade.tests} == {"wagering"} and result.all_pass
    text = result.describe()
    assert "checked only the part wagering (2 of 2 graded tests pass)" in text and "wagering: 20 / 20" in text
    assert text.endswith("Every visible test of the part wagering passes. Run check without --part or --test "
                         "for the whole milestone.")


@pytest.mark.slow  # 10-20 s in the default run on this 2-core machine
def test_check_one_test_by_its_name(tmp_path: Path) -> None:
    """`check --test NAME` finds the test in whichever suite has it and runs it alone; a parametrized test's
    name runs all its visible cases; a misspelt name gets the closest names."""
    project = tmp_path / "project"
    write_course(project)
    write_packages(project, lambda r: True)
    result = run_check(project, test="test_two_aces_and_nine", limits=LIMITS)
    assert [t.record.name for t in result.grade.tests] == ["test_mini.py::test_two_aces_and_nine"]
    assert result.next_test is result.grade.tests[0] and "not written yet:" in result.describe()
    assert "engine: 0 / 12.5 (of the part's 25)" in result.describe()  # 2 of the 4 visible test weights
    cases = run_check(project, test="test_totals", limits=LIMITS)
    assert [t.record.name for t in cases.grade.tests] == ["test_mini.py::test_totals[Kh 7d-17]"]
    with pytest.raises(KeyError, match="did you mean test_two_aces_and_nine"):
        run_check(project, test="test_two_aces_and_ten", limits=LIMITS)
    with pytest.raises(KeyError, match="no part 'wager'; choose from: engine"):
        run_check(project, part="wager", limits=LIMITS)


@pytest.mark.slow  # check and grade each wait out a loop (about 11 s)
def test_check_shows_an_endless_loop_as_grade_does(mini_course: Path, tmp_path: Path) -> None:
    """A loop that never ends in the student's code gets the same one line in check's Next as in grade's
    report: stopped after N s, in which function, at which file and line."""
    from make_samples import replace_body

    from milestones.grader.grading import Grader, Submission

    project = tmp_path / "project"
    write_course(project)
    replace_body(project, "blackjack/player.py", "Player.check_bet", ["while True:", "    pass"])
    limits = Limits(timeout=60, test_timeout=2)
    result = run_check(project, 2, limits=limits)
    assert result.next_test is not None
    line = result.next_test.message
    assert line.startswith("took longer than 2 s and was stopped: look for a loop that never ends "
                           "(in Player.check_bet, blackjack/player.py:") and "\n" not in line, line
    assert f"  {line}" in result.describe().splitlines()
    [graded] = Grader(tests=project / "tests", limits=limits).grade([Submission("loop", project)], [2])
    messages = {t.record.name: t.message for t in graded.milestones[0].tests}
    assert messages[result.next_test.record.name] == line
