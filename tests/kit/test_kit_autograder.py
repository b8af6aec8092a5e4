"""The Gradescope autograder zip: its layout, and a Gradescope run simulated on this machine.

The simulation unzips the built zip to ``tmp/autograder/source`` (keeping the zip's
permissions, as Gradescope's unzip does), copies a sample submission to
``tmp/autograder/submission`` and runs ``run_autograder`` with ``AUTOGRADER_ROOT``
pointing there and ``AUTOGRADER_PYTHON`` set to this interpreter, which already has
the kit's test tools: ``setup.sh`` is not run and nothing needs the network.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import write_course

from milestones import REPO_ROOT
from milestones.__main__ import main
from milestones.autograder import build_autograder, run_script
from milestones.regions import FUNCTIONS_FILE, scan, split_functions
from milestones.grader.runner import Limits

POSIX = pytest.mark.skipif(os.name != "posix", reason="run_autograder is a POSIX shell script")


def _mode(info: zipfile.ZipInfo) -> int:
    return info.external_attr >> 16


def _unzip(archive: Path, into: Path) -> None:
    """Unzip like Gradescope does: files get the permissions stored in the zip."""
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            target = zf.extract(info, into)
            if _mode(info) & 0o777:
                os.chmod(target, _mode(info) & 0o777)


@pytest.fixture(scope="module")
def kit_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The milestone-1 autograder zip of this repository, built with the command line."""
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    assert main(["autograder", "--milestone", "1", "--output", str(out)]) == 0
    return out


def test_scripts_are_at_the_root_and_executable(kit_zip: Path) -> None:
    """setup.sh and run_autograder sit at the zip's root as regular files with rwxr-xr-x."""
    with zipfile.ZipFile(kit_zip) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        for name in ("setup.sh", "run_autograder"):
            mode = _mode(infos[name])
            assert stat.S_ISREG(mode) and stat.S_IMODE(mode) == 0o755, (name, oct(mode))
            assert zf.read(name).startswith(b"#!/bin/sh\n")
        assert stat.S_IMODE(_mode(infos["blackjack/hand.py"])) == 0o644


def test_run_autograder_grades_the_submission_as_the_docs_say(kit_zip: Path) -> None:
    """run_autograder runs `milestones grade` on the submission into results/results.json, paths overridable."""
    with zipfile.ZipFile(kit_zip) as zf:
        script = zf.read("run_autograder").decode("utf-8")
        setup = zf.read("setup.sh").decode("utf-8")
    assert 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in script
    assert 'cd "$SOURCE"' in script
    assert '-m milestones grade "$SUBMISSION" --single --milestone 1 ' in script
    assert '--inventory "$SOURCE/inventory.json" --format gradescope --output "$RESULTS"' in script
    assert "--layered" not in script  # milestone 1 has nothing earlier to layer on
    assert 'pip install --require-hashes -r "$SOURCE/requirements.txt"' in setup and "DISPLAY_NEEDED=no" in setup
    assert "--upgrade" not in setup, "setup.sh installs only pinned tools, with the pip the virtualenv brings"


def test_later_milestones_are_graded_layered_with_the_limits_given() -> None:
    """Milestone 2's script passes --layered (unless turned off) and the run's limits."""
    script = run_script(2, limits=Limits(timeout=90, test_timeout=5, memory_mb=1024))
    assert "--milestone 2 --layered --timeout 90 --test-timeout 5 --memory 1024" in script
    assert "--layered" not in run_script(2, layered=False)


def test_the_kit_is_inside_with_its_hidden_tests_but_not_the_solution(kit_zip: Path) -> None:
    """The packages (as the milestone-1 starter: no solution bodies), milestones/, tests/ (hidden tests too),
    pyproject.toml, README.md and the inventory of milestone 1's tests are packed. The reference solution used
    to be packed, where the students' code could read it and print it into a test's message."""
    suites = sorted(p for p in (REPO_ROOT / "tests").glob("milestone1/*.py"))
    with zipfile.ZipFile(kit_zip) as zf:
        names = set(zf.namelist())
        packages = {n: zf.read(n).decode("utf-8") for n in names if n.startswith(("blackjack/", "gui/"))
                    and n.endswith(".py")}
        packed = {p: zf.read(p.relative_to(REPO_ROOT).as_posix()) for p in suites}
        inventory = json.loads(zf.read("inventory.json"))
    for name in ("blackjack/__init__.py", "blackjack/presets.toml", "gui/__init__.py", "milestones/__main__.py",
                 "milestones/points.toml", "milestones/grader/_sandbox.py", "tests/conftest.py", "pyproject.toml",
                 "README.md", "inventory.json"):
        assert name in names, name
    assert not [n for n, text in packages.items() if "# BEGIN SOLUTION" in text]  # no reference body at all
    assert "raise NotImplementedError" in packages["blackjack/hand.py"]
    assert suites and all(packed[p] == p.read_bytes() for p in suites)  # as they are: hidden tests not stripped
    tests = inventory["milestones"]["1"]
    assert len(tests) > 20 and sum(Fraction(t["points"]) for t in tests) == 25
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or n.startswith((".", "test-output/"))
                or "/." in n or ".egg-info" in n]


def test_the_milestone_1_zip_holds_no_later_milestones_tests(kit_zip: Path) -> None:
    """Listed, the milestone-1 zip has no file of tests/milestone2/ or tests/milestone3/, hidden or not, under
    any name (it used to carry every suite, milestone 2's hidden tests included)."""
    later = [p for p in sorted((REPO_ROOT / "tests").glob("milestone[23]/**/*")) if p.is_file()]
    with zipfile.ZipFile(kit_zip) as zf:
        names = zf.namelist()
        contents = {zf.read(n) for n in names}
    assert later and any(n.startswith("tests/milestone1/") for n in names)
    assert [n for n in names if n.startswith("tests/")] == sorted(
        n for n in names if n == "tests/conftest.py" or n.startswith("tests/milestone1/"))
    assert not [n for n in names if "milestone2/" in n or "milestone3/" in n]
    assert not [p for p in later if p.read_bytes() in contents], "a later milestone's test file, renamed"


def test_a_later_milestones_zip_holds_only_its_own_suite(tmp_path: Path) -> None:
    """Milestone 2's zip (layered: it grades milestone 2's suite on milestone 1's reference bodies) packs
    tests/milestone2/ and tests/conftest.py, and no milestone-1 test."""
    root = write_course(tmp_path / "kit")
    shutil.copytree(REPO_ROOT / "milestones", root / "milestones", ignore=shutil.ignore_patterns("__pycache__"))
    build_autograder(tmp_path / "m2.zip", 2, root=root)
    with zipfile.ZipFile(tmp_path / "m2.zip") as zf:
        tests = sorted(n for n in zf.namelist() if n.startswith("tests/"))
    assert tests == ["tests/conftest.py", "tests/milestone2/observe_mini.py", "tests/milestone2/test_mini.py"]


def test_the_zip_lists_the_students_functions(kit_zip: Path) -> None:
    """milestones/functions.json in the zip names the functions students write and the engine's, as the
    reference marks them (the zip's stubbed packages have lost the markers the plugin would read)."""
    with zipfile.ZipFile(kit_zip) as zf:
        listed = json.loads(zf.read(f"milestones/{FUNCTIONS_FILE}"))
    student, engine = split_functions(REPO_ROOT)
    assert {tuple(f) for f in listed["student"]} == student == {(r.module, r.qualname) for r in scan(REPO_ROOT)}
    assert {tuple(f) for f in listed["engine"]} == engine and ("blackjack/hand.py", "Hand.add_card") in engine


def test_junk_is_left_out(tmp_path: Path) -> None:
    """Version control, caches, build output, virtualenvs and test output stay out; the output zip too."""
    root = write_course(tmp_path / "kit")
    shutil.copytree(REPO_ROOT / "milestones", root / "milestones",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "README.md").write_text("# kit\n", encoding="utf-8")
    junk = [".git/HEAD", "blackjack/__pycache__/hand.cpython-311.pyc", "blackjack/hand.pyc",
            "tests/.pytest_cache/v/cache/lastfailed", "tests/milestone1/__pycache__/x.pyc",
            "milestones/.mypy_cache/3.11/x.json", "tests/.hypothesis/examples/x", "tests/test-output/shot.png",
            "gui/.DS_Store", "tests/venv/pyvenv.cfg", "tests/myenv/pyvenv.cfg", "tests/myenv/lib/site.py",
            "blackjack/build/lib/x.py", "blackjack/blackjack_kit.egg-info/PKG-INFO", ".venv/bin/python",
            "test-output/screenshots/table.png", "blackjack_kit.egg-info/PKG-INFO", "docs/notes.md"]
    for name in junk:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("junk\n", encoding="utf-8")
    tool = root / "tests" / "milestone1" / "tool.sh"
    tool.write_text("#!/bin/sh\n", encoding="utf-8")
    tool.chmod(0o755)
    (root / "tests" / "kit_only.py").write_text("# a kit test, not a course suite\n", encoding="utf-8")
    out = root / "tests" / "autograder.zip"
    out.write_bytes(b"an old zip")
    summary = build_autograder(out, 1, root=root)
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        tool_mode = stat.S_IMODE(_mode(zf.getinfo("tests/milestone1/tool.sh")))
        mini_suite = zf.read("tests/milestone1/test_mini.py").decode("utf-8")
    assert not names & set(junk)
    assert "tests/autograder.zip" not in names
    assert {"blackjack/hand.py", "tests/milestone1/test_mini.py", "milestones/grading.py", "README.md"} <= names
    assert "def test_hidden_bust" in mini_suite  # the instructor's copy, hidden tests and all
    assert names == {"setup.sh", "run_autograder", "inventory.json", f"milestones/{FUNCTIONS_FILE}",
                     *(f.as_posix() for f in summary.files)}
    assert "tests/kit_only.py" not in names, "only the suites (conftest.py, milestoneN/) go in as tests/"
    assert tool_mode == 0o755
    assert not list(out.parent.glob(".autograder.zip.*"))


@pytest.mark.parametrize("argv, words", [
    (["--milestone", "9"], "error: no milestone 9; choose from: 1, 2, 3"),
    (["--milestone", "1", "--output", "{tmp}"], "is a folder"),
    (["--milestone", "1", "--output", "{tmp}/file.txt/autograder.zip"], "error: cannot write"),
])
def test_bad_input_is_one_line_and_status_2(argv: list[str], words: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A bad milestone, a folder as output or an output that cannot be written: one line, status 2, no zip."""
    (tmp_path / "file.txt").write_text("not a folder\n", encoding="utf-8")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "--output" not in argv:
        argv += ["--output", str(tmp_path / "autograder.zip")]
    assert main(["autograder", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
    assert not list(tmp_path.rglob("*.zip"))


def test_an_incomplete_kit_is_refused(tmp_path: Path) -> None:
    """A kit folder without the milestone's tests is named as incomplete."""
    with pytest.raises(ValueError, match=r"not a complete kit: missing .*tests/milestone1/"):
        build_autograder(tmp_path / "autograder.zip", 1, root=tmp_path)


def _run_on_gradescope(kit_zip: Path, submission: Path, tmp: Path, points: int = 25,
                       nested: bool = False) -> dict[str, Any]:
    """Lay out /autograder under ``tmp`` as Gradescope does, run run_autograder, return results.json.

    ``points`` other than 25 rewrites milestone 1's worth in the unzipped ``points.toml``,
    so a run that shows it graded with the unzipped kit and not the one installed here.
    """
    root = tmp / "autograder"
    _unzip(kit_zip, root / "source")
    if points != 25:
        toml = root / "source" / "milestones" / "points.toml"
        text = toml.read_text(encoding="utf-8")
        assert text.count("points = 25\n") == 1
        toml.write_text(text.replace("points = 25\n", f"points = {points}\n"), encoding="utf-8")
    if nested:  # an upload of the whole project folder, next to other folders
        shutil.copytree(submission, root / "submission" / "my-project")
        (root / "submission" / "notes").mkdir()
        (root / "submission" / "notes" / "todo.txt").write_text("split aces\n", encoding="utf-8")
    else:
        shutil.copytree(submission, root / "submission")
    return run_autograder(root, tmp)


def run_autograder(root: Path, tmp: Path) -> dict[str, Any]:
    """Run the ``run_autograder`` of an /autograder laid out under ``root`` as Gradescope does (it must exit 0
    and print no traceback); return its results.json."""
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "AUTOGRADER_", "PYTHONPATH"))}
    env.update(AUTOGRADER_ROOT=str(root), AUTOGRADER_PYTHON=sys.executable)
    done = subprocess.run([str(root / "run_autograder")], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    results: dict[str, Any] = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    return results


@POSIX
def test_gradescope_run_gives_the_reference_full_marks(kit_zip: Path, samples: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """The reference solution, graded by the unzipped autograder, gets 25 / 25 with every test passed."""
    results = _run_on_gradescope(kit_zip, samples["full"], tmp_path)
    assert results["score"] == 25
    assert results["output"].startswith("milestone 1: 25 / 25")
    assert results["tests"] and all(t["status"] == "passed" for t in results["tests"])
    assert sum(t["max_score"] for t in results["tests"]) == pytest.approx(25, abs=0.05)


@POSIX
def test_gradescope_run_gives_the_starter_nothing(kit_zip: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """The bare starter gets 0 points and each test says what to write; the unzipped kit's points.toml counts."""
    results = _run_on_gradescope(kit_zip, samples["starter"], tmp_path, points=30)
    assert results["score"] == 0
    assert results["output"].startswith("milestone 1: 0 / 30")
    graded = [t for t in results["tests"] if t["max_score"] > 0]
    assert graded and all(t["status"] == "failed" and t["score"] == 0 for t in graded)
    assert any("not written yet" in t["output"] for t in graded)


@POSIX
def test_gradescope_run_grades_a_nested_upload_as_one_submission(kit_zip: Path, samples: dict[str, Path],
                                                                 tmp_path: Path) -> None:
    """An upload with the project one folder down beside other folders is still one student's work (--single)."""
    results = _run_on_gradescope(kit_zip, samples["full"], tmp_path, nested=True)
    assert results["score"] == 25 and results["output"].startswith("milestone 1: 25 / 25")


@POSIX
def test_a_later_milestone_is_graded_layered_without_its_solution(samples: dict[str, Path], tmp_path: Path) -> None:
    """Milestone 2's zip holds milestone 1's solution (for --layered) but none of milestone 2's, and grades a
    submission whose week-1 code is broken layered, with the tests and weights collected when it was built."""
    root = write_course(tmp_path / "kit")
    shutil.copytree(REPO_ROOT / "milestones", root / "milestones", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "m2.zip"
    summary = build_autograder(out, 2, root=root)
    _unzip(out, tmp_path / "unzipped")
    shipped = scan(tmp_path / "unzipped")
    assert summary.stubbed > 0 and shipped and {r.milestone for r in shipped} == {1}
    results = _run_on_gradescope(out, samples["week2_only"], tmp_path / "gs")
    assert results["score"] == 20


@pytest.mark.parametrize("content, words", [
    (None, "cannot read the inventory"),
    ("[1, 2]", "is not a test inventory written by the autograder command"),
    ('{"format": 1, "milestones": {"1": [{"nodeid": "x"}]}}', "is not a test inventory"),
])
def test_a_bad_inventory_is_one_line(content: str | None, words: str, samples: dict[str, Path], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """grade --inventory with a missing or wrong file stops in one line with status 2."""
    inventory = tmp_path / "inventory.json"
    if content is not None:
        inventory.write_text(content, encoding="utf-8")
    assert main(["grade", str(samples["full"]), "--inventory", str(inventory)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_installed_kit_builds_the_same_zip_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From site-packages (suites in milestones/suites, the pins in milestones/pins, no pyproject.toml) the zip
    still has tests/, a pyproject.toml with pytest's settings and the pinned requirements.txt; the installed
    suites folder is not packed twice."""
    site = tmp_path / "site-packages"
    course = write_course(tmp_path / "kit")
    for package in ("blackjack", "gui"):
        shutil.copytree(course / package, site / package)
    shutil.copytree(REPO_ROOT / "milestones", site / "milestones", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(course / "tests", site / "milestones" / "suites")
    (site / "milestones" / "pins").mkdir(exist_ok=True)
    shutil.copy2(REPO_ROOT / "requirements" / "test.txt", site / "milestones" / "pins" / "test.txt")
    out = tmp_path / "ag.zip"
    build_autograder(out, 1, root=site)
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        requirements = zf.read("requirements.txt").decode("utf-8")
        settings = tomllib.loads(zf.read("pyproject.toml").decode("utf-8"))
    assert {"tests/conftest.py", "tests/milestone1/test_mini.py", "pyproject.toml", "requirements.txt"} <= names
    assert not [n for n in names if n.startswith("milestones/suites/")], "the suites go in once, as tests/"
    assert "--strict-markers" in settings["tool"]["pytest"]["ini_options"]["addopts"]
    assert requirements == (REPO_ROOT / "requirements" / "test.txt").read_text(encoding="utf-8"), \
        "the installed kit's pinned test tools"


def test_the_zip_installs_the_pinned_test_tools(kit_zip: Path) -> None:
    """The zip's requirements.txt is requirements/test.txt, the file README.md's test command installs: every
    tool of the test extra pinned with == and hashes, so a Gradescope image gets the tools CI tested."""
    with zipfile.ZipFile(kit_zip) as zf:
        requirements = zf.read("requirements.txt").decode("utf-8")
    assert requirements == (REPO_ROOT / "requirements" / "test.txt").read_text(encoding="utf-8")
    extra = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]["test"]
    for tool in extra:
        name = re.split(r"[<>=\[ ;]", tool, maxsplit=1)[0]
        assert re.search(rf"^{re.escape(name)}(\[[a-z,]+\])?==[^ ]+ \\\n\s+--hash=sha256:", requirements,
                         re.MULTILINE | re.IGNORECASE), f"{name} is not pinned with a hash in the zip"


def test_a_kit_without_its_pins_is_refused(tmp_path: Path) -> None:
    from milestones.autograder import pinned_requirements
    with pytest.raises(ValueError, match="requirements/test.txt"):
        pinned_requirements(tmp_path)


@POSIX
@pytest.mark.parametrize("display", [False, True])
def test_the_scripts_are_valid_shell(display: bool) -> None:
    """setup.sh (with its sandbox users and chmod lines) and run_autograder parse as POSIX sh."""
    from milestones.autograder import setup_script  # noqa: PLC0415

    for text in (setup_script(display=display), run_script(2)):
        done = subprocess.run(["sh", "-n"], input=text, capture_output=True, text=True, check=False, timeout=30)
        assert done.returncode == 0, done.stderr
    assert "sandbox_user(0); sandbox_user(1)" in setup_script() and 'chmod -R go-rwx "$SOURCE"' in setup_script()
