"""Hostile input to ``python -m milestones`` (issue 28): one line in words, status 2, nothing changed.

Also: Ctrl-C while a check runs, a student's ``sys.exit`` in the demo, and the install
command a student is told when pytest is missing (it is the one docs/student.md gives).
"""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from make_samples import replace_body

import milestones.__main__ as cli
from milestones import REPO_ROOT
from milestones.config import STUDENT_INSTALL, load_course
from milestones.starter import _student_pyproject, write_packages, write_starter

COURSE_NUMBERS = ", ".join(str(n) for n in load_course().numbers)


def milestones_cli(*args: str, cwd: Path = REPO_ROOT, python: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """Run ``python [PYTHON...] -m milestones ARGS`` in a fresh process from ``cwd``."""
    return subprocess.run([sys.executable, *python, "-m", "milestones", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)


def one_line(err: str) -> str:
    """Check ``err`` is one line, no traceback and no raw ``[Errno N]``; return it."""
    assert err.count("\n") == 1 and "Traceback" not in err and "[Errno" not in err, err
    return err


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A milestone-1 starter, as ``python -m milestones starter OUT`` writes it (shared; do not change it)."""
    out = tmp_path_factory.mktemp("starter") / "project"
    write_starter(out)
    return out


def test_grade_refuses_a_missing_submission(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``grade /no/such --milestone 1`` graded it 0/25 and exited 0; a mistyped path is a usage mistake."""
    missing = tmp_path / "no such"
    assert cli.main(["grade", str(missing), "--milestone", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"there is no submission {missing}" in one_line(err)


def test_autograder_refuses_an_output_in_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``autograder -o /nonexistent/x.zip`` created /nonexistent; now it is refused and nothing is made."""
    target = tmp_path / "nonexistent" / "x.zip"
    assert cli.main(["autograder", "--milestone", "1", "-o", str(target)]) == 2
    err = one_line(capsys.readouterr().err)
    assert f"cannot write {target}: there is no folder {target.parent}" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["honesty"], ["grade", "."], ["check"], ["autograder"], ["starter", "{tmp}/s"]])
def test_a_milestone_the_course_lacks_is_named_as_such(command: list[str], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``honesty --milestone 9`` said the suites were missing; every command names the course's milestones."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command]
    assert cli.main([*argv, "--milestone", "9"]) == 2
    assert f"no milestone 9; choose from: {COURSE_NUMBERS}" in one_line(capsys.readouterr().err)
    assert list(tmp_path.iterdir()) == []


def test_starter_into_a_file_is_refused_in_words(tmp_path: Path) -> None:
    """``starter FILE`` and ``starter FILE/sub`` printed a raw [Errno 20]."""
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n", encoding="utf-8")
    done = milestones_cli("starter", str(taken))
    assert done.returncode == 2 and f"{taken} is a file, not a folder" in one_line(done.stderr)
    done = milestones_cli("starter", str(taken / "sub"))
    assert done.returncode == 2 and f"cannot make the folder {taken / 'sub'}: {taken} is a file" in one_line(done.stderr)
    assert taken.read_text(encoding="utf-8") == "mine\n" and list(tmp_path.iterdir()) == [taken]


@pytest.mark.parametrize("diary", ["{tmp}", "{tmp}/notes.txt/diary.md"])
def test_check_refuses_a_bad_diary_before_running_the_tests(diary: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``check --diary DIR`` ran every test, then printed a raw [Errno 21]; now no test runs."""
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    ran: list[object] = []
    monkeypatch.setattr(cli, "run_check", lambda *args, **kwargs: ran.append(args))
    path = diary.replace("{tmp}", str(tmp_path))
    assert cli.main(["check", "--project", str(REPO_ROOT), "--diary", path]) == 2
    assert ran == [], "the tests ran before the diary was refused"
    err = one_line(capsys.readouterr().err)
    assert f"the diary {path} is a folder" in err if diary == "{tmp}" else f"{tmp_path / 'notes.txt'} is a file" in err


@pytest.mark.parametrize("argv", [["bogus"], ["grade"], ["grade", ".", "--format", "pdf"], ["check", "--nope"]])
def test_parser_errors_are_one_line(argv: list[str]) -> None:
    """The usage block (three lines and more) is gone: one line, ``(see --help)``, status 2, as the game's."""
    done = milestones_cli(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert one_line(done.stderr).startswith("python -m milestones") and done.stderr.endswith("(see --help)\n")


MALFORMED = ["_10", "10_", "1__0", "nan", "inf", "-inf", "", " ", "1e", "0x10", ".5", "1 0"]


@pytest.mark.parametrize("text", MALFORMED)
@pytest.mark.parametrize("option", ["--timeout", "--test-timeout", "--jobs", "--memory"])
def test_malformed_numbers_are_refused_in_one_line(option: str, text: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The simulator's grammar: an underscore only between ASCII digits, no nan, inf or empty."""
    with pytest.raises(SystemExit) as done:
        cli.main(["grade", ".", f"{option}={text}"])
    assert done.value.code == 2
    err = one_line(capsys.readouterr().err)
    assert f"argument {option}" in err and "not a" in err and repr(text) in err, err


def test_well_formed_numbers_still_read() -> None:
    assert cli._at_least_one("1_000") == 1000 and cli._at_least_one(" 4 ") == 4
    assert cli._positive("2.5") == 2.5 and cli._positive("1_0.5") == 10.5 and cli._positive("5e-1") == 0.5


def test_demo_reports_a_students_sys_exit(tmp_path: Path) -> None:
    """Student code calling sys.exit(3) ended the demo with status 3 and no word; now the scene says so."""
    project = tmp_path / "exits"
    write_packages(project, lambda r: False)
    replace_body(project, "blackjack/player.py", "Player.check_bet", ["import sys", "sys.exit(3)"])
    done = subprocess.run([sys.executable, "-m", "milestones", "demo", "--project", str(project),
                           "--milestone", "2"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "  stopped: your code called sys.exit(3) (in Player.check_bet, blackjack/player.py:" in done.stdout
    assert "=== Summary ===" in done.stdout and "Traceback" not in done.stdout + done.stderr


def test_ctrl_c_during_a_check_is_one_line_and_status_130(starter: Path) -> None:
    """Ctrl-C while the tests run: one line, status 130, no traceback."""
    process = subprocess.Popen([sys.executable, "-m", "milestones", "check", "--no-diary"], cwd=starter,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal
    assert process.stdout is not None
    assert process.stdout.readline().startswith("Running the visible tests")
    time.sleep(0.5)
    os.kill(process.pid, signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err == "check: stopped (Ctrl-C)\n"


class TestStudentInstall:
    """What a student runs to get ``check`` working is the same command everywhere they are told it."""

    def test_the_guide_and_the_starter_give_the_command(self, starter: Path) -> None:
        assert STUDENT_INSTALL in (REPO_ROOT / "docs" / "student.md").read_text(encoding="utf-8")
        assert STUDENT_INSTALL in (starter / "README.md").read_text(encoding="utf-8")
        assert f"#     {STUDENT_INSTALL}\n" in (starter / "pyproject.toml").read_text(encoding="utf-8")
        assert "[project]" not in _student_pyproject(REPO_ROOT), "the starter is not a package to pip install"

    def test_check_without_pytest_says_the_command(self, starter: Path) -> None:
        """In a starter folder with no site-packages (``python -S``: no pytest), check names the guide's
        command; it said ``pip install 'blackjack-kit[test]'``, which a starter cannot use."""
        done = milestones_cli("check", cwd=starter, python=("-S",))
        assert done.returncode == 2 and STUDENT_INSTALL in one_line(done.stderr), done.stderr

    def test_the_command_installs_what_the_starter_imports(self, starter: Path) -> None:
        """pytest runs the tests (check), mypy the type checks docs/student.md asks for; what check runs (the
        course suites, their conftest and helpers, milestones' tools) imports no other third-party package.
        (The packages' optional extras, the simulator's matplotlib and dask and env.py's gymnasium, are
        imported only by those features, each with its own install line.)"""
        words = STUDENT_INSTALL.split()
        assert words[:4] == ["python", "-m", "pip", "install"]
        local = {p.stem for p in starter.rglob("*.py")} | {p.name for p in starter.rglob("*") if p.is_dir()}
        imported: set[str] = set()
        for file in [*(starter / "tests").rglob("*.py"), *(starter / "milestones").rglob("*.py")]:
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    imported |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    imported.add(node.module.split(".")[0])
        third_party = imported - set(sys.stdlib_module_names) - local - {"_pytest", "pluggy"}
        assert third_party == {"pytest"}, third_party
        assert set(words[4:]) == third_party | {"mypy"}
