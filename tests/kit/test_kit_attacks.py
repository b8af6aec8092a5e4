"""Hostile submissions that want the points: each attack of issue 16, built as a real submission.

Every attack is the bare starter (honest score: 0) with a payload at the end of its
``blackjack/__init__.py``. Graded in local ``grade`` mode (the grader not root: fresh private
copies, Landlock, the supervisor) and as root (the code runs as a sandbox user), each must
report 0 or mark the run tampered, leave no process of its own running, and change no file
outside the submission. The local mode is reached as root by making the grader believe it is
not root (``isolation.is_root``); everything else is real.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import write_course

from milestones.grader import isolation
from milestones.__main__ import main
from milestones.grader._sandbox import landlock_abi
from milestones.grader.grading import TAMPERED, Grader, SubmissionGrade, find_submissions
from milestones.report import gradescope_results
from milestones.grader.runner import GraderError, Limits, run_suite

LIMITS = Limits(timeout=60, test_timeout=5)
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="the sandbox user needs root (CI runs as root)")
needs_linux = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
needs_landlock = pytest.mark.skipif(landlock_abi() < 1, reason="needs Linux Landlock (kernel 5.13+)")

#: The attack battery runs many sandboxed grader runs (about 75 s): CI's second command, ``pytest -m slow``.
pytestmark = pytest.mark.slow

#: Patch pytest so every test passes: the body is never run.
RUNTEST = '''
import _pytest.python as _pp
_pp.Function.runtest = lambda self: None
'''

#: Patch the grading plugin's writer so every result it writes says "passed".
RECORDER = '''
import milestones.grader.plugin as _mp
_write = _mp._Recorder.write
def _forged(self, kind, **fields):
    if kind == "result":
        fields = {**fields, "outcome": "passed", "message": ""}
    _write(self, kind, **fields)
_mp._Recorder.write = _forged
'''

#: Every result forged as passed with a message the old canary check let through ("took longer than").
TIMEOUT_WORDS = '''
import milestones.grader.plugin as _mp
_mp.student_message = lambda *a, **k: "took longer than 10 s and was stopped"
_write = _mp._Recorder.write
def _forged(self, kind, **fields):
    if kind == "result":
        fields = {**fields, "outcome": "passed", "message": "took longer than 10 s"}
    _write(self, kind, **fields)
_mp._Recorder.write = _forged
'''

#: Patch the student's side of the channel: every observation answers 21, "Kh" and True in turn.
OBSERVER = '''
import itertools as _it
import milestones.grader.observer as _mo
_answers = _it.cycle([21, "Kh", True, 17])
_mo._answer = lambda *a, **k: {"value": next(_answers)}
'''

#: Stubs that return an object equal to everything (and a subclass of int and str, to pass type checks).
ALWAYS_EQUAL = '''
class _Any(int):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    __hash__ = int.__hash__
    def __str__(self): return "Kh"
from .hand import Hand as _H
from .deck import Deck as _D
_H.get_score = lambda self: _Any(21)
_H.is_bust = lambda self: _Any(1)
_D.deal = lambda self: _Any(0)
'''

#: Rewrite the test modules it can find (the one importing it, and the instructor's folder) so tests return at once.
REWRITE = '''
import sys as _s, pathlib as _p
_folders = {_p.Path(@ORIGINAL@)}
for _m in list(_s.modules.values()):
    _f = getattr(_m, "__file__", None) or ""
    if "milestone" in _f and _p.Path(_f).name.startswith("test_"):
        _folders.add(_p.Path(_f).parent)
for _folder in _folders:
    for _t in _folder.glob("test_*.py"):
        try:
            _t.write_text(_t.read_text().replace("    got = ", "    return\\n    got = "))
        except OSError:
            pass
'''

#: Load the reference solution from any other blackjack/ on sys.path or PYTHONPATH in place of its own.
COPY_REFERENCE = '''
import os as _os, sys as _s, importlib.util as _iu, pathlib as _p
_mine = _p.Path(__file__).resolve().parent
for _d in [*_s.path, *_os.environ.get("PYTHONPATH", "").split(_os.pathsep)]:
    _pkg = _p.Path(_d or ".").resolve() / "blackjack"
    try:
        _solved = _pkg.resolve() != _mine and "BEGIN SOLUTION" in (_pkg / "hand.py").read_text()
    except OSError:
        continue
    if _solved:
        _spec = _iu.spec_from_file_location("blackjack", _pkg / "__init__.py", submodule_search_locations=[str(_pkg)])
        _ref = _iu.module_from_spec(_spec)
        for _name in [n for n in _s.modules if n.startswith("blackjack.")]:
            del _s.modules[_name]
        _s.modules["blackjack"] = _ref
        _spec.loader.exec_module(_ref)
        break
'''

#: setsid + double fork + execve with an empty environment: a daemon that rewrites the results file for ever.
DAEMON = '''
import os as _os
if _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        _os.execve("/bin/sh", ["sh", "-c", "while :; do echo '{\\"score\\": 99, \\"output\\": \\"FORGED\\"}' "
                   "> @TARGET@ 2>/dev/null; sleep 0.05; done # @TOKEN@"], {})
    _os._exit(0)
'''

#: Delete a folder outside the submission.
DELETE = '''
import shutil as _sh
_sh.rmtree(@PRECIOUS@, ignore_errors=True)
'''


def _attack(samples: dict[str, Path], into: Path, payload: str, **values: Any) -> Path:
    """The starter with ``payload`` (its ``@NAME@`` holes filled with ``repr(values[name])``) appended."""
    folder = into / "mallory"
    shutil.copytree(samples["starter"], folder)
    for name, value in values.items():
        payload = payload.replace(f"@{name.upper()}@", value if name in ("target", "token") else repr(str(value)))
    init = folder / "blackjack" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + payload, encoding="utf-8")
    return folder


def _tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and its hash (what must not change)."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def _survivors(token: str, wait: float = 1.0) -> list[int]:
    """Processes whose command line holds ``token``, after ``wait`` seconds to let killed ones go."""
    time.sleep(wait)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if token.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                state = Path(f"/proc/{entry}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry))
        except OSError:
            continue
    for pid in found:
        os.kill(pid, 9)
    return found


@pytest.fixture(params=["local", "root"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Grade as local ``grade`` does (not root) or as root with the sandbox user."""
    if request.param == "root" and not ROOT:
        pytest.skip("the sandbox user needs root (CI runs as root)")
    if request.param == "local":
        if landlock_abi() < 1 and ROOT:
            pytest.skip("as root, local mode is only safe to try with Landlock")
        monkeypatch.setattr(isolation, "is_root", lambda: False)
    return str(request.param)


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A mini course of its own (an attack may try to change it)."""
    return write_course(tmp_path / "course")


def _grade(course: Path, submission: Path, scratch: Path) -> SubmissionGrade:
    [grade] = Grader(tests=course / "tests", limits=LIMITS).grade(find_submissions([submission], scratch), [1])
    return grade


def _honest_or_tampered(grade: SubmissionGrade) -> None:
    milestone = grade.milestones[0]
    tampered = any(note.startswith(TAMPERED) for note in milestone.notes)
    assert grade.regular == 0 or tampered, (grade.regular, milestone.notes)
    assert grade.regular == 0 and grade.extra == 0


@needs_linux
@pytest.mark.parametrize("payload", [RUNTEST, RECORDER, TIMEOUT_WORDS, OBSERVER, ALWAYS_EQUAL],
                         ids=["runtest", "recorder", "timeout-words", "observer", "always-equal"])
def test_forging_in_the_students_process_earns_only_what_its_functions_earn(
        payload: str, mode: str, course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """Issue 26's forgeries scored full marks when the verdict was reached in the student's interpreter:
    patching pytest's Function.runtest or the plugin's result writer, results whose message says "took longer
    than", replies forged by patching the student's side of the channel, objects equal to everything. The
    judge never imports the submission and reads only JSON data, so each earns the starter's honest 0, with
    no canary and no flag, isolated or not; the instructor's tests are untouched."""
    submission = _attack(samples, tmp_path, payload)
    unprotected = run_suite(course / "tests" / "milestone1", submission, limits=LIMITS)
    assert unprotected.finished and unprotected.results
    assert all(outcome == "failed" for outcome, _ in unprotected.results.values()), unprotected.results
    before = _tree(course)
    grade = _grade(course, submission, tmp_path / "scratch")
    assert grade.regular == 0 and grade.extra == 0
    assert not any(note.startswith(TAMPERED) for note in grade.milestones[0].notes), grade.milestones[0].notes
    assert _tree(course) == before


@needs_linux
def test_rewriting_the_tests_changes_nothing_and_carries_nothing_over(mode: str, course: Path,
                                                                      samples: dict[str, Path],
                                                                      tmp_path: Path) -> None:
    """A submission that rewrites the test files it finds (its run's copy, and the instructor's folder) earns
    0 or is marked tampered; the instructor's tests are untouched, so the next submission gets its own score."""
    original = course / "tests" / "milestone1"
    submission = _attack(samples, tmp_path, REWRITE, original=original)
    before = _tree(course)
    _honest_or_tampered(_grade(course, submission, tmp_path / "scratch"))
    assert _tree(course) == before
    assert _grade(course, samples["full"], tmp_path / "scratch2").regular == 25


@needs_linux
def test_the_reference_is_not_on_the_path(mode: str, course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """Loading the reference found on sys.path or PYTHONPATH used to earn the reference's marks; the isolated
    run's path holds the submission and a copy of the grading package only."""
    submission = _attack(samples, tmp_path, COPY_REFERENCE)
    fooled = run_suite(course / "tests" / "milestone1", submission, limits=LIMITS)
    assert any(outcome == "passed" for outcome, _ in fooled.results.values())  # the attack works unprotected
    _honest_or_tampered(_grade(course, submission, tmp_path / "scratch"))


@needs_linux
def test_a_daemon_that_forges_the_results_file_does_not_outlive_the_run(mode: str, course: Path,
                                                                        samples: dict[str, Path],
                                                                        tmp_path: Path) -> None:
    """setsid + double fork + execve with an empty environment, then rewriting the results file in a loop: the
    daemon is killed with the run (the supervisor reaps orphans; as root every process of the sandbox user
    goes), so results.json keeps the honest 0."""
    out = tmp_path / "results" / "results.json"
    out.parent.mkdir()
    out.parent.chmod(0o777)  # even a folder anyone may write to is out of the run's reach
    token = uuid.uuid4().hex
    submission = _attack(samples, tmp_path, DAEMON, target=str(out), token=token)
    status = main(["grade", str(submission), "--tests", str(course / "tests"), "--milestone", "1", "--single",
                   "--format", "gradescope", "--output", str(out), "--timeout", "60", "--test-timeout", "5"])
    assert status == 0
    assert _survivors(token) == []
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["score"] == 0 and "FORGED" not in out.read_text(encoding="utf-8")


@needs_linux
@needs_landlock
def test_a_folder_outside_the_submission_cannot_be_deleted(mode: str, course: Path, samples: dict[str, Path],
                                                           tmp_path: Path) -> None:
    """shutil.rmtree of a folder outside the submission (here one anyone may write to) deletes nothing: the
    run may write only in its own copy of the submission and its temporary folder."""
    precious = Path("/tmp") / f"bj-precious-{uuid.uuid4().hex}"
    (precious / "inner").mkdir(parents=True)
    (precious / "inner" / "notes.txt").write_text("keep me\n", encoding="utf-8")
    for path in (precious, precious / "inner"):
        path.chmod(0o777)
    try:
        before = _tree(precious)
        submission = _attack(samples, tmp_path, DELETE, precious=precious)
        _honest_or_tampered(_grade(course, submission, tmp_path / "scratch"))
        assert _tree(precious) == before
    finally:
        shutil.rmtree(precious, ignore_errors=True)


@needs_root
@needs_linux
def test_as_root_the_student_code_runs_as_the_sandbox_user(course: Path, samples: dict[str, Path],
                                                           tmp_path: Path) -> None:
    """Graded as root, the submission's code runs as an unprivileged bjgrade user, in a copy of the submission
    (not the folder handed in), and nothing of that user runs once the run is over."""
    submission = _attack(samples, tmp_path, '''
import os as _os
from .hand import Hand
def _get_score(self):
    raise RuntimeError(f"uid={_os.getuid()} euid={_os.geteuid()} cwd={_os.getcwd()}")
Hand.get_score = _get_score
''')
    grade = _grade(course, submission, tmp_path / "scratch")
    [message] = [t.message for t in grade.milestones[0].tests if t.record.name == "test_mini.py::test_two_aces_and_nine"]
    uid = int(message.split("uid=")[1].split()[0])
    assert uid != 0 and f"euid={uid}" in message
    assert str(submission) not in message
    assert isolation._user_processes(uid) == []


@needs_root
@needs_linux
@pytest.mark.skipif(not shutil.which("sh"), reason="run_autograder is a POSIX shell script")
def test_the_daemon_attack_in_a_faithful_gradescope_layout(samples: dict[str, Path], tmp_path: Path) -> None:
    """The issue's daemon, aimed at /autograder/results/results.json of a Gradescope layout run as root, with
    the real milestone-1 zip, and pytest patched too: results.json holds the honest 0 and nothing of the run
    survives."""
    from test_kit_autograder import _run_on_gradescope  # noqa: PLC0415 - shares that module's simulation

    zip_path = tmp_path / "autograder.zip"
    assert main(["autograder", "--milestone", "1", "--output", str(zip_path)]) == 0
    token = uuid.uuid4().hex
    target = tmp_path / "gs" / "autograder" / "results" / "results.json"
    submission = _attack(samples, tmp_path, DAEMON + RUNTEST, target=str(target), token=token)
    results = _run_on_gradescope(zip_path, submission, tmp_path / "gs")
    assert _survivors(token) == []
    assert results["score"] == 0
    assert "FORGED" not in target.read_text(encoding="utf-8")


def test_a_run_of_the_unprotected_runner_is_still_possible(course: Path, samples: dict[str, Path]) -> None:
    """The honesty check and the student's check run without isolation: the reference scores as before."""
    run = run_suite(course / "tests" / "milestone1", samples["full"], limits=LIMITS)
    assert run.finished and run.results and all(outcome == "passed" for outcome, _ in run.results.values())



def test_a_change_to_the_tests_while_grading_stops_the_batch(samples: dict[str, Path], tmp_path: Path) -> None:
    """The grader hashes the instructor's tests when it starts and checks them before and after every run:
    changed tests stop grading with one line, so no later submission is graded on them."""
    course = write_course(tmp_path / "course")
    grader = Grader(tests=course / "tests", limits=LIMITS)
    grader.inventory(1)
    test_file = course / "tests" / "milestone1" / "test_mini.py"
    test_file.write_text(test_file.read_text(encoding="utf-8").replace("    got = ", "    return\n    got = "),
                         encoding="utf-8")
    with pytest.raises(GraderError, match=r"changed while grading \(test_mini.py\); restore them"):
        grader.grade(find_submissions([samples["starter"]], tmp_path / "scratch"), [1])


def test_hidden_results_do_not_show_in_the_total_before_their_time(samples: dict[str, Path], tmp_path: Path) -> None:
    """With hidden tests graded, results.json's top-level visibility is the hidden tests' (the total holds
    their points), visible tests stay visible, and the summary counts the visible tests only."""
    course = write_course(tmp_path / "course")
    [grade] = Grader(tests=course / "tests", limits=LIMITS).grade(
        find_submissions([samples["full"]], tmp_path / "scratch"), [1])
    data = json.loads(gradescope_results(grade, "after_published"))
    assert data["visibility"] == "after_published" and data["score"] == 25
    assert data["output"].startswith("milestone 1: visible tests ")
    assert "shown once the grades are published" in data["output"]
    assert {t["visibility"] for t in data["tests"]} == {"visible", "after_published"}
    shown = json.loads(gradescope_results(grade, "visible"))
    assert "visibility" not in shown and shown["output"].startswith("milestone 1: 25 / 25")


@pytest.mark.parametrize("problem", ["inventory", "tests"])
def test_a_broken_autograder_still_writes_results_json(problem: str, samples: dict[str, Path], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A missing or broken inventory, or missing tests, still leave a valid results.json: score 0, no tests,
    and the reason; the command says it on stderr in one line and exits with status 2."""
    course = write_course(tmp_path / "course")
    inventory = tmp_path / "inventory.json"
    tests = course / "tests"
    if problem == "inventory":
        inventory.write_text("[1, 2]", encoding="utf-8")
    else:
        assert main(["autograder", "--milestone", "1", "--output", str(tmp_path / "ag.zip")]) == 0
        import zipfile  # noqa: PLC0415

        with zipfile.ZipFile(tmp_path / "ag.zip") as zf:
            inventory.write_bytes(zf.read("inventory.json"))
        tests = tmp_path / "no-tests-here"
    out = tmp_path / "results" / "results.json"
    status = main(["grade", str(samples["full"]), "--single", "--milestone", "1", "--tests", str(tests),
                   "--inventory", str(inventory), "--format", "gradescope", "--output", str(out)])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m milestones: error: ") and err.count("\n") == 1
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["score"] == 0 and data["tests"] == []
    assert data["output"].startswith("The autograder could not grade this submission")
    assert err.removeprefix("python -m milestones: error: ").strip() in data["output"]


def test_the_per_test_summary_goes_to_stdout(samples: dict[str, Path], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """grade --format gradescope --output FILE prints the text report (Gradescope shows stdout to instructors)."""
    course = write_course(tmp_path / "course")
    out = tmp_path / "results.json"
    assert main(["grade", str(samples["starter"]), "--single", "--milestone", "1", "--tests", str(course / "tests"),
                 "--format", "gradescope", "--output", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "Milestone 1:" in stdout and "test_mini.py::test_two_aces_and_nine" in stdout and "FAIL" in stdout
    assert json.loads(out.read_text(encoding="utf-8"))["score"] == 0


@needs_linux
def test_a_pytest_of_its_own_stands_in_for_nothing(mode: str, course: Path, samples: dict[str, Path],
                                                   tmp_path: Path) -> None:
    """A pytest.py and a milestones/ package next to blackjack/ (the run's working folder) would be imported
    in place of the real ones if that folder came first on sys.path; they are never imported."""
    submission = _attack(samples, tmp_path, "")
    (submission / "pytest.py").write_text("raise SystemExit(0)\n", encoding="utf-8")
    (submission / "milestones").mkdir()
    (submission / "milestones" / "__init__.py").write_text("raise SystemExit(0)\n", encoding="utf-8")
    grade = _grade(course, submission, tmp_path / "scratch")
    assert grade.regular == 0
    assert all(t.message.startswith("not written yet") for t in grade.milestones[0].tests)


def test_an_installed_reference_is_replaced_by_a_mirror_without_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With the kit pip-installed, site-packages holds the reference blackjack next to pytest: the isolated
    student process's sys.path gets a mirror of it without blackjack, gui and milestones (the rest stays
    importable), and an editable install's path to the kit is dropped; the submission's own folder stays."""
    from milestones.grader import observer  # noqa: PLC0415

    site_packages = tmp_path / "lib" / "site-packages"
    for package in ("blackjack", "gui", "milestones", "pytest"):
        (site_packages / package).mkdir(parents=True)
        (site_packages / package / "__init__.py").write_text("", encoding="utf-8")
    (site_packages / "kit.pth").write_text(str(tmp_path / "repo") + "\n", encoding="utf-8")
    repo, submission = tmp_path / "repo", tmp_path / "sub"
    for folder in (repo, submission):
        (folder / "blackjack").mkdir(parents=True)
        (folder / "blackjack" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(isolation.site, "getsitepackages", lambda: [str(site_packages)])
    isolation.site_mirrors(tmp_path / "mirrors")
    monkeypatch.setenv("MILESTONES_SITE_MIRRORS", str(tmp_path / "mirrors"))
    monkeypatch.setattr(sys, "path", [str(submission), str(repo), "/usr/lib/python3", str(site_packages)])
    observer._drop_other_packages(submission)
    [mirror] = [Path(p) for p in sys.path if "mirrors" in p]
    assert sys.path == [str(submission), "/usr/lib/python3", str(mirror)]
    assert sorted(p.name for p in mirror.iterdir()) == ["pytest"]


#: At import (which happens while the student's process answers its first question, id 1), find the process's
#: answer channel and write the hostile text @REPLY@ on it (``ID`` in it becomes 1) before the real answer.
CHANNEL = """
import gc as _gc, io as _io
for _o in _gc.get_objects():
    if isinstance(_o, _io.TextIOWrapper) and "w" in getattr(_o, "mode", "") and _o.fileno() > 2:
        _o.write((@REPLY@).replace("ID", "1") + chr(10))
        _o.flush()
"""


@needs_linux
@pytest.mark.parametrize(("reply", "words"), [
    ('"[" * 100_000', "nested"),
    ("'{\"id\": ID, \"value\": 1' + '0' * 5000 + '}'", "more than 100 digits"),
    ("'{\"id\": ID, \"value\": NaN}'", "not a number a test can use"),
    ("'{\"id\": ID, \"value\": 1e400}'", "not a number a test can use"),
    ("'x' * (2 * 1024 * 1024)", "your code's process"),
    ("'{\"id\": 999999, \"value\": 21}'", "answered a question it was not asked"),
    ("'{\"id\": ID, \"nothing\": 21}'", "neither a value nor an exception"),
], ids=["deep", "huge-int", "nan", "infinity", "long-line", "wrong-id", "no-value"])
def test_a_hostile_answer_on_the_student_channel_fails_the_test_not_the_grader(
        reply: str, words: str, course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """The student's process may write anything on its answer channel: nesting 100,000 deep, a number past
    int's digit limit, NaN, 1e400 (which Python reads as an infinity), a 2 MiB line, an answer to another
    question, an answer with no value. The judge reads each as a broken rule of the channel, ends that process and fails the test with words saying so;
    the run finishes, and a reference graded in the same batch keeps its full score."""
    submission = _attack(samples, tmp_path, CHANNEL.replace("@REPLY@", reply))
    run = run_suite(course / "tests" / "milestone1", submission, limits=LIMITS)
    assert run.finished and not run.tampered, run.stop_reason(LIMITS)
    assert all(outcome == "failed" for outcome, _ in run.results.values()), run.results
    messages = [m for _, m in run.results.values()] + [m for _, m in run.collect_errors]
    assert any(words in message for message in messages), messages
    grades = Grader(tests=course / "tests", limits=LIMITS).grade(
        find_submissions([submission, samples["full"]], tmp_path / "scratch"), [1])
    assert [g.regular for g in grades] == [0, 25]


@needs_linux
def test_a_pytest_ini_left_above_the_run_changes_no_grade(course: Path, samples: dict[str, Path],
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Landlock a student process could leave a pytest.ini (and a conftest.py) in the temporary folder
    the grader's runs live in, and the next submission's judge read it (one student dropped from 25 to 0). The
    judge runs with settings of its own (-c): a reference graded after the planted files keeps 25."""
    shared = Path(tempfile.mkdtemp(prefix="bj-shared-tmp-", dir="/tmp"))  # a folder every user may enter, as /tmp
    shared.chmod(0o1777)
    (shared / "pytest.ini").write_text("[pytest]\naddopts = -x --deselect tests\n", encoding="utf-8")
    (shared / "conftest.py").write_text("import pytest\n\n@pytest.fixture(autouse=True)\ndef _sabotage():\n"
                                         "    raise RuntimeError('planted')\n", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    try:
        [grade] = Grader(tests=course / "tests", limits=LIMITS).grade(
            find_submissions([samples["full"]], tmp_path / "scratch"), [1])
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    assert grade.regular == 25, [(t.record.name, t.message) for t in grade.milestones[0].tests]
