"""An instructor's class folder (issue 39: sections at any depth, one run for every format, a cache of grades, a
progress line, a bounded table; issue 35: names shown safely, one row per submission with its id and source)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
import time
import unicodedata
import zipfile
from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.__main__ import main
from milestones.config import load_course
from milestones.grader.intake import Submission, find_submissions
from milestones.grader.scores import SubmissionGrade
from milestones.report import text_report


def _zip(project: Path, archive: Path) -> Path:
    """``archive`` holding ``project``'s ``blackjack/`` package."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((project / "blackjack").rglob("*.py")):
            zf.write(path, path.relative_to(project).as_posix())
    return archive


def _width(text: str) -> int:
    """Terminal columns of ``text``: two for each wide character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_sections_are_graded_as_students_named_by_their_path(mini_course: Path, samples: dict[str, Path],
                                                              tmp_path: Path) -> None:
    """`grade secs/` on secs/sec1/sam.zip, secs/sec2/sam.zip, secs/sec2/tim.zip: three rows named sec1/sam, sec2/sam,
    sec2/tim, each with its id and source, from one run writing text, CSV and JSON (it was one student 'secs', 0)."""
    secs = tmp_path / "secs"
    for where in ("sec1/sam.zip", "sec2/sam.zip", "sec2/tim.zip"):
        _zip(samples["full"], secs / where)
    out = tmp_path / "out"
    assert main(["grade", str(secs), "--tests", str(mini_course / "tests"), "--milestone", "1",
                 "--format", "text,csv,json", "-o", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    assert [(r["student"], r["source"], r["regular (of 25)"]) for r in rows] == [
        ("sec1/sam", str(secs / "sec1" / "sam.zip"), "25"), ("sec2/sam", str(secs / "sec2" / "sam.zip"), "25"),
        ("sec2/tim", str(secs / "sec2" / "tim.zip"), "25")]
    assert len({r["id"] for r in rows}) == 3
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert [(d["student"], d["regular"]) for d in data] == [("sec1/sam", 25), ("sec2/sam", 25), ("sec2/tim", 25)]
    assert [d["id"] for d in data] == [r["id"] for r in rows]
    assert "== sec2/tim (" in (out / "grades.txt").read_text(encoding="utf-8")


def test_student_folders_holding_a_zip_or_a_nested_project_are_students(samples: dict[str, Path],
                                                                        tmp_path: Path) -> None:
    """class/sam/sam.zip, class/tim/project/blackjack/ and class/ann.zip are three students; a student's folder
    with its project beside an old zip stays one student (loose files win)."""
    klass = tmp_path / "class"
    _zip(samples["full"], klass / "sam" / "sam.zip")
    shutil.copytree(samples["full"], klass / "tim" / "project")
    _zip(samples["full"], klass / "tim" / "old.zip")
    _zip(samples["full"], klass / "ann.zip")
    found = find_submissions([klass], tmp_path / "scratch")
    assert [(s.name, s.folder is not None) for s in found] == [("ann", True), ("sam", True), ("tim", True)]


def test_a_folder_with_no_submission_is_one_line_and_a_non_zero_exit(mini_course: Path, samples: dict[str, Path],
                                                                    tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A class folder holding no blackjack/ and no zip at any depth is a mistake, not a student with 0; given beside
    a submission, it is listed with 0 and the reason."""
    (tmp_path / "empty" / "notes").mkdir(parents=True)
    (tmp_path / "empty" / "notes" / "readme.txt").write_text("nothing\n", encoding="utf-8")
    status = main(["grade", str(tmp_path / "empty"), "--tests", str(mini_course / "tests"), "--milestone", "1"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and "holds no submission" in captured.err
    assert main(["grade", str(tmp_path / "empty"), str(samples["full"]), "--tests", str(mini_course / "tests"),
                 "--milestone", "1", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["student"], r["regular (of 25)"]) for r in rows] == [("empty", "0"), ("full", "25")]
    assert "no blackjack/__init__.py found" in rows[0]["notes"]


def test_names_differing_by_case_or_zip_keep_their_own_rows(samples: dict[str, Path], tmp_path: Path) -> None:
    """bbb/ (a folder) and Bbb.zip beside it: the folder keeps 'bbb' and the zip is 'Bbb.zip', whatever sorts
    first; names sort ignoring case (adam, Bbb.zip, bbb, Zed)."""
    klass = tmp_path / "class"
    shutil.copytree(samples["full"], klass / "bbb")
    for name in ("Bbb.zip", "Zed.zip", "adam.zip"):
        _zip(samples["partial"], klass / name)
    found = {s.name: s for s in find_submissions([klass], tmp_path / "scratch")}
    assert list(found) == ["adam", "bbb", "Bbb.zip", "Zed"]
    assert found["bbb"].source == klass / "bbb" and found["Bbb.zip"].source == klass / "Bbb.zip"
    assert found["bbb"].id != found["Bbb.zip"].id
    again = find_submissions([klass / "Bbb.zip", klass / "bbb"], tmp_path / "scratch2")
    assert [s.name for s in again] == ["Bbb.zip", "bbb"]


def test_a_line_break_in_a_name_cannot_forge_a_row(samples: dict[str, Path], tmp_path: Path) -> None:
    """A zip named 'eve\\n== mallory ==\\x1b[2J.zip' is shown on one line, its control characters escaped, in its
    name and its source; no line of the text report starts with a forged header."""
    klass = tmp_path / "class"
    _zip(samples["partial"], klass / "eve\n== mallory ==\x1b[2J.zip")
    _zip(samples["full"], klass / "sam.zip")
    found = find_submissions([klass], tmp_path / "scratch")
    assert [s.name for s in found] == ["eve\\n== mallory ==\\x1b[2J", "sam"]
    text = text_report([SubmissionGrade(s) for s in found])
    assert not any(line.startswith("== mallory") for line in text.splitlines())
    assert "\x1b" not in text


def test_wide_characters_keep_the_summary_table_aligned() -> None:
    """李雷 takes four columns on a terminal: the totals column stays aligned under the header."""
    grades = [SubmissionGrade(Submission(name, None, "no code")) for name in ("李雷", "sam", "Élodie")]
    summary = text_report(grades).split("Summary\n", 1)[1].splitlines()
    assert len({_width(line) for line in summary}) == 1, summary


def test_points_toml_cites_no_path_outside_the_kit() -> None:
    """Every path milestones/points.toml names is inside the kit (no ../, no absolute path) and exists."""
    text = (REPO_ROOT / "milestones" / "points.toml").read_text(encoding="utf-8")
    assert "../" not in text and not re.search(r"(?<![\w.])/(?:work|home|tmp|usr)/", text)
    for path in re.findall(r"[\w./-]+/[\w.-]+\.(?:md|txt|py|toml)\b", text):  # a path with a folder
        assert (REPO_ROOT / path).exists(), path


@pytest.mark.slow  # grades a class of three twice on milestone 1 (about 30 s)
def test_an_unchanged_class_is_graded_again_in_a_quarter_of_the_time(samples: dict[str, Path],
                                                                     tmp_path: Path) -> None:
    """A second run of an unchanged class, same kit and options, takes at most 25% of the first and gives the same
    reports (grades reused from the cache); --fresh grades again; a changed submission is graded again."""
    klass = tmp_path / "class"
    for name in ("ann", "bob"):
        shutil.copytree(REPO_ROOT / "blackjack", klass / name / "blackjack")
    _zip(samples["partial"], klass / "cat.zip")

    def run(out: str, *options: str) -> float:
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "milestones", "grade", str(klass), "--milestone", "1",
                               "--format", "csv,json", "-o", str(tmp_path / out), *options],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0 and done.stderr == "", done.stderr  # no progress line in a pipe
        return time.monotonic() - start

    first, second = run("one"), run("two")
    assert second <= 0.25 * first, (first, second)
    for name in ("grades.csv", "grades.json"):
        assert (tmp_path / "one" / name).read_text(encoding="utf-8") == (tmp_path / "two" / name).read_text(
            encoding="utf-8")
    hand = klass / "bob" / "blackjack" / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8").replace("def get_score(self) -> int:",
                                                             "def get_score(self) -> int:\n        return 0",
                                                             1), encoding="utf-8")
    run("three")
    scores = {d["student"]: d["regular"] for d in json.loads((tmp_path / "three" / "grades.json").read_text())}
    assert scores["ann"] == load_course().milestone(1).regular_points and scores["bob"] < scores["ann"]
    assert run("four", "--fresh") > 2 * second


def test_a_terminal_gets_a_progress_line_and_a_pipe_nothing(mini_course: Path, samples: dict[str, Path],
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """On a terminal, stderr shows gradings done of all, the time taken and the student being graded, rewritten in
    place; in a pipe, stderr stays empty."""
    command = ["grade", str(samples["full"]), str(samples["partial"]), "--tests", str(mini_course / "tests"),
               "--milestone", "1", "--format", "csv"]
    assert main(command) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main([*command, "--fresh"]) == 0
    err = capsys.readouterr().err
    assert "\rgraded 0/2, 0:0" in err and ": full" in err and "\rgraded 2/2, " in err and err.endswith("\n"), err
    assert re.search(r"graded 1/2, \d:\d\d, about \d:\d\d left", err), err


def test_no_grade_is_kept_where_a_submission_could_write_the_cache(mini_course: Path, samples: dict[str, Path],
                                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Not root and without Landlock, a submission's code runs as the grader's user and could write a grade into the
    cache: grading says so in one line and keeps nothing, so nothing a submission writes there is ever reused."""
    from milestones.grader import cache, isolation  # noqa: PLC0415

    monkeypatch.setattr(isolation, "is_root", lambda: False)
    monkeypatch.setattr(cache, "is_root", lambda: False)
    monkeypatch.setattr(cache, "landlock_abi", lambda: 0)
    kept = tmp_path / "kept"
    command = ["grade", str(samples["full"]), "--tests", str(mini_course / "tests"), "--milestone", "1",
               "--format", "csv", "--cache", str(kept)]
    assert main(command) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not kept" in err and "Landlock" in err, err
    assert not kept.exists() or not any(kept.iterdir())
    monkeypatch.setattr(cache, "landlock_abi", lambda: 7)  # with Landlock, the same run keeps its grade
    assert main(command) == 0
    assert capsys.readouterr().err == "" and any(kept.iterdir())
