"""What the docs say matches the kit: hidden tests in the student documents, and every command in the code blocks
of README.md and docs/instructor.md runs (or the docs say, before its block, why the kit's tests do not run it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

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


#: Put on the line before a code block whose commands the kit's tests cannot run, with the reason.
NOT_RUN = "<!-- not run by the kit's tests: "


def _commands() -> list[tuple[str, str, str]]:
    """``(doc, command, reason not run or "")`` for every command line of the shell code blocks (```sh or bare ```)
    of README.md and docs/instructor.md; a line ending in ``\\`` goes on with the next."""
    found = []
    for doc in ("README.md", "docs/instructor.md"):
        language, reason, before, lines = None, "", "", list[str]()
        for line in (REPO_ROOT / doc).read_text(encoding="utf-8").splitlines():
            fence = line.strip().startswith("```")
            if fence and language is None:
                language, lines = line.strip()[3:], []
                reason = before.removeprefix(NOT_RUN).removesuffix("-->").strip() if before.startswith(NOT_RUN) else ""
            elif fence:
                if language in ("", "sh"):
                    found += [(doc, c.strip(), reason) for c in "\n".join(lines).replace("\\\n", " ").splitlines()
                              if c.strip()]
                language = None
            elif language is not None:
                lines.append(line)
            if line.strip():
                before = line.strip()
    return found


COMMANDS = _commands()


def test_every_doc_command_is_run_or_says_why_not() -> None:
    """The docs' code blocks hold commands; a block the tests do not run says why, on the line before it."""
    assert len(COMMANDS) > 30
    marked = [(doc, c, reason) for doc, c, reason in COMMANDS if reason]
    assert all(len(reason) > 20 for _, _, reason in marked), marked
    assert len(marked) < len(COMMANDS) / 2, marked


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where the docs' commands run: an untouched copy of the reference (``blackjack/``, ``gui/``), and
    ``submissions/`` (a student folder and a zip of ``blackjack/``), ``alice/`` and ``bob.zip`` made of it."""
    work = tmp_path_factory.mktemp("docs")
    for package in ("blackjack", "gui"):
        shutil.copytree(REPO_ROOT / package, work / package, ignore=shutil.ignore_patterns("__pycache__"))
    for student in (work / "alice", work / "submissions" / "ann"):
        for package in ("blackjack", "gui"):
            shutil.copytree(work / package, student / package)
    for archive in (work / "bob.zip", work / "submissions" / "bob.zip"):
        with zipfile.ZipFile(archive, "w") as zf:
            for path in sorted((work / "blackjack").rglob("*.py")):
                zf.write(path, path.relative_to(work).as_posix())
    return work


@pytest.mark.slow  # every command of the docs: grading, the autograder zip, the simulator (about 3 minutes)
@pytest.mark.parametrize(("doc", "command"), [(d, c) for d, c, reason in COMMANDS if not reason])
def test_a_doc_command_runs(doc: str, command: str, class_folder: Path, tmp_path: Path) -> None:
    """The command runs in a copy of the class folder (``python``/``python3`` being this Python, ``KIT`` the kit,
    nothing typed at its prompts, grades kept in one cache for all) and ends with status 0 and no traceback; a
    grep or diff for suspect lines prints nothing on the untouched reference."""
    work = shutil.copytree(class_folder, tmp_path / "work")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "XDG_CACHE_HOME": str(class_folder.parent / "cache")}
    done = subprocess.run(["bash", "-c", command.replace("KIT", str(REPO_ROOT))], cwd=work, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, (doc, done.stdout[-2000:], done.stderr[-2000:])
    if command.startswith(("grep", "diff")):
        assert done.stdout == "", done.stdout


def test_the_code_review_grep_finds_only_the_front_ends() -> None:
    """docs/instructor.md's grep for print( and input( finds, on the reference, only the lines its sentence names."""
    text = (REPO_ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    [command] = re.findall(r"`(grep -nP [^`]*print[^`]*)`", text.replace("\n      ", " "))
    done = subprocess.run(["bash", "-c", command], cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert {line.split(":", 1)[0] for line in done.stdout.splitlines()} == {
        "blackjack/__main__.py", "blackjack/cli.py", "blackjack/hints/_build.py"}, done.stdout
