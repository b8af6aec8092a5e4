"""The grader on the mini course: sample submissions, limits, layered grading, report formats."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import write_course

from milestones import REPO_ROOT
from milestones.__main__ import main
from milestones.grader.grading import MAX_UNZIPPED_MB, MAX_ZIP_ENTRIES, Grader, SubmissionGrade, find_submissions
from milestones.report import csv_gradebook, gradescope_results, text_report
from milestones.grader.runner import GraderError, Limits, run_suite

LIMITS = Limits(timeout=30, test_timeout=1)


@pytest.fixture(scope="module")
def graded(mini_course: Path, samples: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, SubmissionGrade]:
    """Every sample graded on milestone 1 of the mini course, in one batch."""
    grader = Grader(tests=mini_course / "tests", limits=LIMITS, jobs=2)
    names = ["full", "starter", "partial", "infinite_loop", "exit_at_import", "syntax_error", "noisy", "no_package"]
    subs = find_submissions([samples[n] for n in names], tmp_path_factory.mktemp("scratch"))
    return {g.submission.name: g for g in grader.grade(subs, [1])}


def _outcomes(grade: SubmissionGrade) -> dict[str, str]:
    return {t.record.name: t.outcome for t in grade.milestones[0].tests}


def test_full_solution_earns_every_point(graded: dict[str, SubmissionGrade]) -> None:
    """The reference solution gets 25 / 25 on milestone 1, hidden tests included."""
    grade = graded["full"]
    assert grade.regular == 25
    assert len(grade.milestones[0].tests) == 5


def test_bare_starter_earns_nothing(graded: dict[str, SubmissionGrade]) -> None:
    """The starter fails every test with a 'not written yet' message."""
    tests = graded["starter"].milestones[0].tests
    assert graded["starter"].regular == 0
    assert all(t.message.startswith("not written yet:") for t in tests)


def test_partial_submission_earns_the_deck_test_only(graded: dict[str, SubmissionGrade]) -> None:
    """With only deck.py done, the deal test passes (weight 1 of 6 -> 25/6 points) and the rest fail."""
    outcomes = _outcomes(graded["partial"])
    assert outcomes["test_mini.py::test_deal_takes_top_card"] == "passed"
    assert list(outcomes.values()).count("passed") == 1
    assert graded["partial"].regular == Fraction(25, 6)


def test_infinite_loop_costs_only_the_looping_tests(graded: dict[str, SubmissionGrade]) -> None:
    """get_score looping forever fails its tests with a loop message; the deck test still passes."""
    grade = graded["infinite_loop"]
    outcomes = _outcomes(grade)
    assert outcomes["test_mini.py::test_deal_takes_top_card"] == "passed"
    looped = [t for t in grade.milestones[0].tests if t.record.name.startswith("test_mini.py::test_two_aces")]
    assert looped[0].outcome == "failed"
    assert "loop that never ends" in looped[0].message and "Hand.get_score" in looped[0].message


@pytest.mark.parametrize("name, words", [
    ("exit_at_import", "SystemExit"),
    ("syntax_error", "SyntaxError"),
    ("no_package", "no blackjack/__init__.py"),
])
def test_broken_submissions_score_zero_with_a_reason(graded: dict[str, SubmissionGrade], name: str,
                                                      words: str) -> None:
    """A submission that cannot be imported gets 0 and every test says why."""
    grade = graded[name]
    assert grade.regular == 0
    assert all(words in t.message for t in grade.milestones[0].tests), [t.message for t in
                                                                         grade.milestones[0].tests]


def test_megabytes_of_output_do_not_stop_grading(graded: dict[str, SubmissionGrade]) -> None:
    """A submission printing 3 MB at import is graded in full."""
    assert graded["noisy"].regular == 25


def test_run_stopped_at_the_time_limit_keeps_its_reason(mini_course: Path, samples: dict[str, Path]) -> None:
    """A loop at import that its own time limit does not stop first is killed at the run's time limit, and the
    stop reason names the limit."""
    limits = Limits(timeout=3, test_timeout=30)
    run = run_suite(mini_course / "tests" / "milestone1", samples["hang_at_import"], limits=limits)
    assert run.timed_out and not run.finished
    assert "stopped after 3 s" in run.stop_reason(limits)


@pytest.mark.slow  # 10-20 s in the default run on this 2-core machine
def test_layered_grading_does_not_charge_a_week1_bug_twice(mini_course: Path, samples: dict[str, Path],
                                                           tmp_path: Path) -> None:
    """A broken get_score costs milestone-2 points without --layered and none with it."""
    subs = find_submissions([samples["week2_only"]], tmp_path)
    plain = Grader(tests=mini_course / "tests", limits=LIMITS).grade(subs, [2])[0].milestones[0]
    layered = Grader(tests=mini_course / "tests", limits=LIMITS, layered=True).grade(subs, [2])[0].milestones[0]
    wagering = {p.part.key: p.score for p in layered.parts}["wagering"]
    assert {p.part.key: p.score for p in plain.parts}["wagering"] == 10
    assert wagering == 20 and layered.layered
    assert "reference's code of milestones before 2" in layered.notes[0]


def test_folder_of_submissions_and_zip_are_found(samples: dict[str, Path], tmp_path: Path) -> None:
    """A folder of student folders and zips yields one submission per student, named after each."""
    batch = tmp_path / "batch"
    batch.mkdir()
    shutil.copytree(samples["full"], batch / "alice" / "project")
    shutil.make_archive(str(batch / "bob"), "zip", samples["partial"])
    found = find_submissions([batch], tmp_path / "scratch")
    assert [(s.name, s.folder is not None) for s in found] == [("alice", True), ("bob", True)]
    assert found[0].folder == batch / "alice" / "project"


def test_gradescope_results_follow_the_schema(graded: dict[str, SubmissionGrade]) -> None:
    """results.json has score and tests with name, score, max_score, status, output and visibility."""
    data = json.loads(gradescope_results(graded["partial"], "after_due_date"))
    assert data["score"] == pytest.approx(25 / 6, abs=0.01)
    assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(data["tests"][0])
    hidden = [t for t in data["tests"] if "hidden" in t["name"] or "As 6d" in t["name"]]
    assert hidden and all(t["visibility"] == "after_due_date" for t in hidden)
    assert sum(t["max_score"] for t in data["tests"]) == pytest.approx(25, abs=0.02)


def test_csv_gradebook_has_a_row_per_student(graded: dict[str, SubmissionGrade]) -> None:
    """The gradebook has a header and one row per student with its id, source and milestone-1 part score."""
    rows = list(csv.reader(io.StringIO(csv_gradebook(list(graded.values())))))
    assert rows[0][:4] == ["student", "id", "source", "m1_engine"]
    assert {r[0]: r[3] for r in rows[1:]}["full"] == "25"
    assert len({r[1] for r in rows[1:]}) == len(graded) and all(len(r[1]) == 12 for r in rows[1:])
    assert len(rows) == 1 + len(graded)


def test_text_report_shows_rubric_and_messages(graded: dict[str, SubmissionGrade]) -> None:
    """The text report lists each test with points and the student's message, then a summary."""
    text = text_report([graded["starter"], graded["full"]])
    assert "FAIL        0 / 8.33  test_mini.py::test_two_aces_and_nine" in text
    assert "not written yet: add up get_value()" in text
    assert "Summary" in text and "Total: 25 / 25 regular points" in text


def test_grade_command_writes_gradescope_file(mini_course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """`grade --format gradescope --output` writes a results.json for one submission."""
    out = tmp_path / "results" / "results.json"
    status = main(["grade", str(samples["full"]), "--tests", str(mini_course / "tests"), "--milestone", "1",
                   "--format", "gradescope", "--output", str(out)])
    assert status == 0
    assert json.loads(out.read_text(encoding="utf-8"))["score"] == 25


def test_suite_that_does_not_collect_on_the_reference_is_an_error(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A broken milestone suite stops the grade command with one line naming the problem."""
    course = write_course(tmp_path / "course", m1="import nonexistent_module_xyz\n", m2=None)
    status = main(["grade", str(course), "--tests", str(course / "tests"), "--milestone", "1"])
    assert status == 2
    assert "does not collect on the reference" in capsys.readouterr().err


@pytest.mark.parametrize(("option", "value", "words"), [
    ("--jobs", "0", "must be at least 1"), ("--jobs", "two", "not a whole number"),
    ("--memory", "-5", "must be at least 1"), ("--timeout", "nan", "not a number"),
    ("--timeout", "inf", "not a number"), ("--timeout", "-1", "more than 0"), ("--test-timeout", "0", "more than 0"),
    ("--timeout", "x", "not a number"),
])
def test_grade_limits_are_checked(option: str, value: str, words: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A limit that cannot work is refused in one line with exit 2 (``--jobs 0`` and ``--memory -5`` used
    to be taken silently, and an infinite timeout would fail inside every test run)."""
    with pytest.raises(SystemExit) as done:
        main(["grade", option, value, str(tmp_path)])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and words in err and "Traceback" not in err


def test_relative_paths_grade_like_absolute_ones(mini_course: Path, samples: dict[str, Path],
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`grade submissions/ --tests tests` from the kit's folder (relative paths) scores the reference 25, not 0
    (the child runs in a temporary folder, where relative paths used to end in pytest's exit status 4)."""
    shutil.copytree(samples["full"], mini_course.parent / "rel_submissions" / "alice")
    monkeypatch.chdir(mini_course.parent)
    out = tmp_path / "grades.json"
    status = main(["grade", "rel_submissions", "--tests", f"{mini_course.name}/tests", "--milestone", "1",
                   "--format", "json", "-o", str(out)])
    assert status == 0
    [alice] = json.loads(out.read_text(encoding="utf-8"))
    assert (alice["student"], alice["regular"], alice["milestones"][0]["notes"]) == ("alice", 25, [])


def test_a_run_that_never_starts_is_the_graders_error(mini_course: Path, samples: dict[str, Path],
                                                      tmp_path: Path) -> None:
    """A suite pytest cannot even start (here: no tests/conftest.py, so no grading plugin) raises GraderError
    naming pytest's own error; it is not scored as every student's 'exit status 4'."""
    tests = tmp_path / "tests"
    shutil.copytree(mini_course / "tests" / "milestone1", tests / "milestone1")
    with pytest.raises(GraderError, match="grader's own command is wrong: .*unrecognized arguments"):
        run_suite(tests / "milestone1", samples["full"], limits=LIMITS)
    with pytest.raises(GraderError, match="does not exist"):
        run_suite(tmp_path / "nowhere", samples["full"], limits=LIMITS)


def test_grade_stops_in_one_line_when_the_grader_cannot_run(mini_course: Path, samples: dict[str, Path],
                                                            tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A run that fails before pytest's session starts ends the grade command with one line and status 2."""
    status = main(["grade", str(samples["full"]), "--tests", str(mini_course / "tests"), "--milestone", "1",
                   "--memory", "1"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("python -m milestones: error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_a_tests_folder_without_suites_is_refused(samples: dict[str, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`--tests` naming a folder with no milestoneN/ stops with one line instead of grading 0 of 0 points."""
    assert main(["grade", str(samples["full"]), "--tests", str(tmp_path / "nope")]) == 2
    assert "holds no milestone test folder" in capsys.readouterr().err


@pytest.mark.slow  # 10-20 s in the default run on this 2-core machine
def test_same_named_zips_are_graded_apart(mini_course: Path, samples: dict[str, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """sec1/sam.zip and sec2/sam.zip are unpacked apart and reported as 'sam' and 'sam (2)' with their zips'
    paths, and gradescope -o DIR writes one results.json each (the second sam used to be graded on the first's
    code, and its results.json overwrote the first's)."""
    for section, sample in (("sec1", "full"), ("sec2", "starter")):
        (tmp_path / section).mkdir()
        shutil.make_archive(str(tmp_path / section / "sam"), "zip", samples[sample])
    zips = [str(tmp_path / "sec1" / "sam.zip"), str(tmp_path / "sec2" / "sam.zip")]
    common = ["--tests", str(mini_course / "tests"), "--milestone", "1"]
    assert main(["grade", *zips, *common, "--format", "gradescope", "-o", str(tmp_path / "gs")]) == 0
    scores = {d.name: json.loads((d / "results.json").read_text(encoding="utf-8"))["score"]
              for d in (tmp_path / "gs").iterdir()}
    assert scores == {"sam": 25, "sam (2)": 0}
    assert main(["grade", *zips, *common]) == 0
    text = capsys.readouterr().out
    assert f"== sam ({zips[0]}) ==" in text and f"== sam (2) ({zips[1]}) ==" in text


def test_upper_case_zips_and_other_files_in_a_folder_of_many(samples: dict[str, Path], tmp_path: Path) -> None:
    """Bob.ZIP is graded like bob.zip (it used to be skipped without a word), and carol.rar is one ungradable
    submission saying why (it used to stop the batch with '[Errno 20] Not a directory')."""
    batch = tmp_path / "batch"
    batch.mkdir()
    shutil.make_archive(str(batch / "Bob"), "zip", samples["partial"])
    (batch / "Bob.zip").rename(batch / "Bob.ZIP")
    shutil.copytree(samples["full"], batch / "alice")
    (batch / "carol.rar").write_bytes(b"Rar!\x1a\x07\x00")
    found = {s.name: s for s in find_submissions([batch], tmp_path / "scratch")}
    assert sorted(found) == ["Bob", "alice", "carol"]
    assert found["Bob"].folder is not None and found["alice"].folder is not None
    assert found["carol"].folder is None and "carol.rar is neither a folder nor a .zip file" in found["carol"].note


def test_a_plain_file_on_the_command_line_does_not_stop_the_batch(mini_course: Path, samples: dict[str, Path],
                                                                  tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`grade alice/ dave.rar` grades alice and reports dave.rar as ungradable in one line."""
    (tmp_path / "dave.rar").write_bytes(b"Rar!")
    status = main(["grade", str(samples["full"]), str(tmp_path / "dave.rar"), "--tests", str(mini_course / "tests"),
                   "--milestone", "1", "--format", "csv"])
    rows = {row[0]: row for row in csv.reader(io.StringIO(capsys.readouterr().out))}
    assert status == 0
    assert rows["full"][-3] == "25"
    assert rows["dave"][-3] == "0" and "dave.rar is neither a folder nor a .zip file" in rows["dave"][-1]


def _zip_of(sample: Path, archive: Path, extra: dict[str, bytes]) -> Path:
    """``archive``: the folder ``sample`` zipped, plus the entries in ``extra`` (name -> content)."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(sample.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                zf.write(file, file.relative_to(sample).as_posix())
        for name, content in extra.items():
            zf.writestr(name, content)
    return archive


def test_zip_bombs_are_refused_before_unpacking(samples: dict[str, Path], tmp_path: Path) -> None:
    """A zip that would unpack to more than 50 MB, or holds more than 5000 entries, is ungradable with a
    one-line reason and writes nothing (a 300 KB zip used to become 300 MB); a virtualenv or .git inside an
    otherwise fine zip is left out instead of counting."""
    bomb = _zip_of(samples["full"], tmp_path / "zed.zip", {"blob.bin": bytes(MAX_UNZIPPED_MB * 1024 * 1024 + 1)})
    many = _zip_of(samples["full"], tmp_path / "yan.zip", {f"data/{i}.txt": b"" for i in range(MAX_ZIP_ENTRIES)})
    venv = _zip_of(samples["full"], tmp_path / "xia.zip", {f".venv/lib/{i}.py": b"" for i in range(MAX_ZIP_ENTRIES)})
    scratch = tmp_path / "scratch"
    zed, yan, xia = find_submissions([bomb, many, venv], scratch)
    assert zed.folder is None and "more than the 50 MB allowed" in zed.note and "\n" not in zed.note
    assert yan.folder is None and f"more than the {MAX_ZIP_ENTRIES} allowed" in yan.note
    assert xia.folder is not None and not (xia.folder / ".venv").exists()
    assert sum(f.stat().st_size for f in scratch.rglob("*") if f.is_file()) < 10 * 1024 * 1024


def test_an_import_error_is_noted_once_not_once_per_module(samples: dict[str, Path], tmp_path: Path) -> None:
    """A syntax error breaks both test modules of milestone 1; the milestone's notes (text report, CSV and
    Gradescope output) say it once, and every lost test still says why."""
    course = write_course(tmp_path / "course", m2=None)
    (course / "tests" / "milestone1" / "test_more.py").write_text(
        "import pytest\n\n\n@pytest.mark.points(1)\ndef test_empty(student):\n"
        "    '''An empty hand scores 0.'''\n    assert student('empty') == 0\n", encoding="utf-8")
    (course / "tests" / "milestone1" / "observe_more.py").write_text(
        "from blackjack import Hand\n\n\ndef empty():\n    return Hand([]).get_score()\n", encoding="utf-8")
    subs = find_submissions([samples["syntax_error"]], tmp_path / "scratch")
    [grade] = Grader(tests=course / "tests", limits=LIMITS).grade(subs, [1])
    milestone = grade.milestones[0]
    assert len(milestone.notes) == 1 and "SyntaxError" in milestone.notes[0]
    assert len(milestone.tests) == 6 and all("SyntaxError" in t.message for t in milestone.tests)
    assert text_report([grade]).count("SyntaxError") == 1 + len(milestone.tests)
    assert json.loads(gradescope_results(grade))["output"].count("SyntaxError") == 1
    assert csv_gradebook([grade]).count("SyntaxError") == 1


@pytest.mark.parametrize(("options", "words"), [
    (["--format", "gradescope"], "2 submissions in gradescope format need --output FOLDER"),
    (["--format", "gradescope", "-o", "taken.txt"], "is a file; gradescope for 2 submissions needs a folder"),
    (["--format", "text,csv"], "several formats need --output FOLDER (it writes grades.txt, grades.csv there)"),
])
def test_output_options_are_checked_before_grading(options: list[str], words: str, samples: dict[str, Path],
                                                   mini_course: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """An --output that cannot work stops the command in one line before any submission is graded
    (gradescope with several submissions and no -o used to fail only after grading them all)."""
    def no_grading(*args: object, **kwargs: object) -> None:
        raise AssertionError("graded before the options were checked")

    monkeypatch.setattr(Grader, "grade", no_grading)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.txt").write_text("x", encoding="utf-8")
    status = main(["grade", str(samples["full"]), str(samples["partial"]), "--tests", str(mini_course / "tests"),
                   *options])
    err = capsys.readouterr().err
    assert status == 2 and words in err and err.count("\n") == 1


LOOPING_M1 = '''"""Ten tests that loop forever in the infinite_loop sample's get_score, then one that works."""

import pytest


@pytest.mark.points(1)
@pytest.mark.parametrize("n", range(10))
def test_score_loops(student, n):
    """get_score, which loops in this sample."""
    assert student("score", "Kh 7d") == 17


@pytest.mark.points(0)
def test_zero_point_loop(student):
    """An ungraded test that loops too."""
    assert student("score", "Kh 7d") == 17


@pytest.mark.points(1)
def test_deal_takes_top_card(student):
    """deal() returns the top card."""
    assert student("deal", "Kh 2c") == "Kh"
'''


@pytest.mark.slow  # each looping test runs to its own time limit (about 12 s)
def test_each_looping_test_brings_its_own_time(samples: dict[str, Path], tmp_path: Path) -> None:
    """Eleven tests stopped at a 1 s test limit do not use up a 4 s run limit (or its CPU limit): the run gets
    1 s more wall and CPU time per stopped test, so the working test after them still runs and passes
    (it used to be NOT RUN, although it passes alone)."""
    course = write_course(tmp_path / "course", m1=LOOPING_M1, m2=None)
    limits = Limits(timeout=4, test_timeout=1)
    run = run_suite(course / "tests" / "milestone1", samples["infinite_loop"], limits=limits)
    outcomes = {nodeid.split("::")[-1]: outcome for nodeid, (outcome, _) in run.results.items()}
    assert run.finished and not run.timed_out, run.stop_reason(limits)
    assert run.test_timeouts == 11
    assert outcomes["test_deal_takes_top_card"] == "passed"
    assert list(outcomes.values()).count("failed") == 11


def test_a_loop_at_import_is_stopped_and_named(mini_course: Path, samples: dict[str, Path]) -> None:
    """A loop at import (no test to stop it in) is stopped at the test limit and reported as the import's
    error, naming the loop; the run goes on and finishes."""
    limits = Limits(timeout=30, test_timeout=1)
    run = run_suite(mini_course / "tests" / "milestone1", samples["hang_at_import"], limits=limits)
    assert run.finished and not run.timed_out and len(run.collect_errors) == 1
    message = run.collect_errors[0][1]
    assert message.startswith("the tests could not import your code: TestTimeout: took longer than 1 s"), message
    assert "(in <module>, blackjack/hand.py:" in message, message


@pytest.mark.slow  # three loops run to their 2 s limit (about 10 s)
def test_three_stopped_tests_in_a_run_shorten_every_later_call(samples: dict[str, Path], tmp_path: Path) -> None:
    """The three strikes count per run, not per test module: after three tests were stopped at the 2 s test limit in
    Hand.get_score, a later call stopped there (in this module and the next) may run 0.1 s, saying so; the working
    tests still pass."""
    course = write_course(tmp_path / "course", m1=LOOPING_M1, m2=None)
    folder = course / "tests" / "milestone1"
    shutil.copy2(folder / "test_mini.py", folder / "test_mini2.py")
    shutil.copy2(folder / "observe_mini.py", folder / "observe_mini2.py")
    limits = Limits(timeout=30, test_timeout=2)
    run = run_suite(folder, samples["infinite_loop"], limits=limits)
    messages = [message for outcome, message in run.results.values() if outcome == "failed"]
    assert run.finished, run.stop_reason(limits)
    assert len(messages) == 22 and [o for o, _ in run.results.values()].count("passed") == 2
    assert all(m.startswith("took longer than 2 s") for m in messages[:3]), messages
    assert all(m.startswith("took longer than 0.1 s") and "(in Hand.get_score, blackjack/hand.py:" in m
               and m.endswith("(a function stopped before may run 0.1 s once 3 tests were stopped at the full 2 s)")
               for m in messages[3:]), messages


@pytest.mark.parametrize("name", ["../evil.py", "../../../../tmp/evil_abs.py", "/tmp/evil_abs2.py", "a/../../x.py"])
def test_a_zip_with_a_path_leaving_its_folder_is_refused(name: str, samples: dict[str, Path], tmp_path: Path) -> None:
    """An entry like ../evil.py makes the zip ungradable with the path named (leaving out entries whose folder
    starts with a dot must not drop the check for '..'), and nothing is written outside the scratch folder."""
    archive = _zip_of(samples["full"], tmp_path / "ivan.zip", {name: b"pwned"})
    [ivan] = find_submissions([archive], tmp_path / "deep" / "er" / "scratch")
    assert ivan.folder is None and f"unsafe path in zip: {name!r}" in ivan.note
    assert not list(tmp_path.rglob("evil*.py")) and not Path("/tmp/evil_abs2.py").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes (POSIX)")
def test_a_named_pipe_in_a_submission_is_a_0_and_the_batch_goes_on(mini_course: Path, samples: dict[str, Path],
                                                                  tmp_path: Path) -> None:
    """A FIFO in the submission blocked the copy for ever, and the batch with it: now that submission gets 0
    with the reason, and the reference graded in the same batch keeps its full score."""
    mallory = tmp_path / "mallory"
    shutil.copytree(samples["full"], mallory)
    os.mkfifo(mallory / "blackjack" / "pipe\nname")
    grader = Grader(tests=mini_course / "tests", limits=LIMITS, jobs=2)
    grades = grader.grade(find_submissions([mallory, samples["full"]], tmp_path / "scratch"), [1])
    bad, good = (g.milestones[0] for g in grades)
    assert bad.regular == 0 and len(bad.notes) >= 1
    [note] = [n for n in bad.notes if "could not be graded" in n]
    assert "'blackjack/pipe\\nname' is a named pipe" in note and "\n" not in note, note
    assert good.regular == 25, good.notes


def test_a_submission_that_breaks_the_grader_is_a_0_and_the_batch_goes_on(mini_course: Path,
                                                                         samples: dict[str, Path], tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a submission makes the grader raise (here a MemoryError, as compile() raised on a file of
    100,000 unary minuses under layered grading) is that submission's 0 with the reason, not a lost batch."""
    import milestones.grader.grading as grading

    real = grading.run_isolated

    def run(folder: Path, impl: Path, **options: object) -> object:
        if impl.name == "mallory":
            raise MemoryError("\x1b[31mtoo much")
        return real(folder, impl, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(grading, "run_isolated", run)
    mallory = tmp_path / "mallory"
    shutil.copytree(samples["full"], mallory)
    grader = Grader(tests=mini_course / "tests", limits=LIMITS, jobs=2)
    grades = grader.grade(find_submissions([mallory, samples["full"]], tmp_path / "scratch"), [1])
    bad, good = (g.milestones[0] for g in grades)
    assert bad.regular == 0
    [note] = [n for n in bad.notes if "could not be graded" in n]
    assert note.startswith("this submission could not be graded: MemoryError:") and note.endswith("too much"), note
    assert "\x1b" not in note
    assert good.regular == 25, good.notes


@pytest.mark.parametrize(("text", "cell"), [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("+1+1", "'+1+1"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("ann", "ann"), ("two\nlines", "two lines"), ("\x1b[31mred", "\\x1b[31mred"),
], ids=["equals", "plus", "minus", "at", "plain", "newline", "escape"])
def test_gradebook_cells_from_a_submission_are_safe(text: str, cell: str) -> None:
    """A submission's name or a note that starts like a formula is quoted for spreadsheets; control characters
    are escaped (a student's folder named =HYPERLINK(...) ran in the instructor's spreadsheet)."""
    from milestones.report import spreadsheet_cell

    assert spreadsheet_cell(text) == cell


def test_the_text_report_escapes_what_a_submission_wrote(graded: dict[str, SubmissionGrade]) -> None:
    """A test's message holding a terminal escape is shown escaped in the text report."""
    grade = copy.deepcopy(graded["full"])
    milestone = grade.milestones[0]
    part = milestone.parts[0]
    forged = dataclasses.replace(part.tests[0], outcome="failed", message="boom \x1b]0;pwned\x07 done")
    milestone.parts[0] = dataclasses.replace(part, tests=(forged, *part.tests[1:]))
    report = text_report([grade])
    assert "\x1b" not in report and "\x07" not in report
    assert "boom \\x1b]0;pwned\\x07 done" in report


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_a_grader_killed_while_grading_leaves_a_results_json_that_says_so(mini_course: Path,
                                                                          samples: dict[str, Path],
                                                                          tmp_path: Path) -> None:
    """results.json is written before grading starts and replaced, whole, by the grade: a grader killed with
    SIGKILL mid-run (Gradescope's time limit, the out-of-memory killer) leaves score 0 and the reason."""
    out = tmp_path / "results" / "results.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "milestones", "grade", str(samples["infinite_loop"]), "--single", "--tests",
         str(mini_course / "tests"), "--milestone", "1", "--format", "gradescope", "--output", str(out),
         "--test-timeout", "30", "--timeout", "60"],
        cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not out.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(1.0)  # grading under way: the looping sample holds it for 30 s per test
        assert process.poll() is None, "the grader ended before it could be killed"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["score"] == 0 and data["tests"] == []
    assert "grading was stopped before it finished" in data["output"]
    assert [p.name for p in out.parent.iterdir()] == [out.name]  # no half-written file left beside it
