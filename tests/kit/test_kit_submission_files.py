"""Hostile files in a submission: links, pipes, devices, hard links, huge and unparsable files (issue 26).

Each attack is a real submission made in a temporary folder (a symbolic link to ``/etc/passwd``,
to ``/dev/zero`` or to a folder, a hard link to a file outside the submission, a named pipe, a
socket, a device, a ``.py`` file over 1 MiB, 100,000 unary minuses under layered grading),
graded in one batch with the reference. Each must get 0 with a one-line reason naming the
file, the reference must keep its full score, and nothing outside the submission may be read:
the secret a link points to appears in no report.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from milestones import REPO_ROOT, starter
from milestones.grader import isolation
from milestones.grader.grading import Grader, SubmissionGrade, find_submissions
from milestones.grader.isolation import MAX_COPIED_MB, MAX_SOURCE_BYTES, SubmissionRefused, copy_submission
from milestones.report import csv_gradebook, gradescope_results, json_report, text_report
from milestones.grader.runner import Limits
from milestones.starter import write_hybrid, write_packages

LIMITS = Limits(timeout=30, test_timeout=2)
POSIX = hasattr(os, "mkfifo") and hasattr(os, "symlink")
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
#: What a secret file outside the submission holds: it must appear in no report.
SECRET = "s3cret-outside-the-submission-7d1f"
#: Put at the top of each attack's ``blackjack/__init__.py``: whatever the planted file holds becomes the import
#: error every test reports, so a file copied from outside the submission would show in the reports.
LEAK = """import pathlib as _pathlib
for _name in ("rules.txt", "secret.py", "notes.txt", "etc/passwd"):
    try:
        _text = (_pathlib.Path(__file__).parent / _name).read_text(errors="replace")
    except OSError:
        continue
    raise ImportError("leaked: " + " ".join(_text.split())[:300])
"""
#: 100,000 unary minuses: compile() raised MemoryError in the grader itself (issue 26).
MINUSES = "\nBOOM = " + "-" * 100_000 + "1\n"

pytestmark = pytest.mark.skipif(not POSIX, reason="needs POSIX links and named pipes")


def _etc_passwd_line() -> str:
    """A line of /etc/passwd (the first one), which no report may contain."""
    with open("/etc/passwd", encoding="utf-8", errors="replace") as file:
        return file.readline().strip()


def _mallory(samples: dict[str, Path], folder: Path) -> Path:
    """A copy of the reference solution at ``folder``: it would score full marks but for what is planted in it."""
    shutil.copytree(samples["full"], folder)
    return folder


def _plant_socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))


#: name -> (what to plant in the copy of the reference (its folder, a folder outside it), the file named)
ATTACKS = {
    "link_to_passwd": (lambda sub, out: (sub / "blackjack" / "rules.txt").symlink_to("/etc/passwd"),
                       "'blackjack/rules.txt' is a symbolic link"),
    "link_to_secret_py": (lambda sub, out: (sub / "blackjack" / "secret.py").symlink_to(out / "secret.txt"),
                          "'blackjack/secret.py' is a symbolic link"),
    "link_to_dev_zero": (lambda sub, out: (sub / "blackjack" / "zeros.bin").symlink_to("/dev/zero"),
                         "'blackjack/zeros.bin' is a symbolic link"),
    "link_to_folder": (lambda sub, out: (sub / "blackjack" / "etc").symlink_to("/etc"),
                       "'blackjack/etc' is a symbolic link"),
    "hard_link": (lambda sub, out: os.link(out / "secret.txt", sub / "blackjack" / "notes.txt"),
                  "'blackjack/notes.txt' is a hard link"),
    "named_pipe": (lambda sub, out: os.mkfifo(sub / "blackjack" / "pipe"), "'blackjack/pipe' is a named pipe"),
    "socket": (lambda sub, out: _plant_socket(sub / "blackjack" / "sock"), "'blackjack/sock' is a socket"),
    "huge_py": (lambda sub, out: (sub / "blackjack" / "table_data.py").write_text(
        "# " + "x" * (MAX_SOURCE_BYTES + 10) + "\n", encoding="utf-8"),
                "'blackjack/table_data.py' holds 1048589 bytes, more than the 1048576"),
}
if ROOT:  # making a device needs root (CAP_MKNOD)
    ATTACKS["device"] = (lambda sub, out: os.mknod(sub / "blackjack" / "null", stat.S_IFCHR | 0o600, os.makedev(1, 3)),
                         "'blackjack/null' is a device")


@pytest.fixture(scope="module")
def hostile(mini_course: Path, samples: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
            ) -> tuple[dict[str, SubmissionGrade], list[str]]:
    """Every attack of :data:`ATTACKS` and the reference, graded on milestone 1 in one batch; and every report
    the grader writes about them (text, JSON, CSV, each results.json)."""
    work = tmp_path_factory.mktemp("hostile")
    outside = work / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    folders = []
    for name, (plant, _words) in ATTACKS.items():
        folder = _mallory(samples, work / "batch" / name)
        init = folder / "blackjack" / "__init__.py"
        init.write_text(LEAK + init.read_text(encoding="utf-8"), encoding="utf-8")
        plant(folder, outside)
        folders.append(folder)
    grader = Grader(tests=mini_course / "tests", limits=LIMITS, jobs=2)
    grades = grader.grade(find_submissions([*folders, samples["full"]], work / "scratch"), [1])
    reports = [text_report(grades), json_report(grades), csv_gradebook(grades), *map(gradescope_results, grades)]
    return {g.submission.name: g for g in grades}, reports


@pytest.mark.parametrize("name", list(ATTACKS))
def test_a_hostile_file_is_a_0_naming_it_in_one_line(hostile: tuple[dict[str, SubmissionGrade], list[str]],
                                                     name: str) -> None:
    """The submission holding the file gets 0, and one note names the file and says what it is."""
    grade = hostile[0][name].milestones[0]
    assert grade.regular == 0 and grade.extra == 0
    [note] = [n for n in grade.notes if "could not be graded" in n]
    assert note.startswith("this submission could not be graded: ") and "\n" not in note, note
    assert ATTACKS[name][1] in note, note
    assert all(t.outcome == "not run" and t.message == note for t in grade.tests)


def test_the_reference_graded_beside_them_keeps_its_full_score(
        hostile: tuple[dict[str, SubmissionGrade], list[str]]) -> None:
    """The reference, graded in the same batch after every attack, earns 25 / 25."""
    assert hostile[0]["full"].regular == 25, hostile[0]["full"].milestones[0].notes


def test_nothing_a_link_points_to_reaches_a_report(hostile: tuple[dict[str, SubmissionGrade], list[str]]) -> None:
    """Neither the secret outside the submission nor a line of /etc/passwd appears in any report, though each
    attack's code raises whatever it can read of them as its import error (:data:`LEAK`)."""
    passwd = _etc_passwd_line()
    assert passwd
    for report in hostile[1]:
        assert SECRET not in report and passwd not in report


def test_a_link_to_a_classmates_project_is_not_followed(samples: dict[str, Path], tmp_path: Path) -> None:
    """A submission holding only a link to a classmate's project folder has no project of its own, a link in a
    folder of many is ungradable, and a submission whose ``blackjack`` is a link to a classmate's package is
    refused by name when copied."""
    alice = _mallory(samples, tmp_path / "alice")
    bob = tmp_path / "bob"
    bob.mkdir()
    (bob / "project").symlink_to(alice, target_is_directory=True)
    carol = tmp_path / "carol"
    carol.mkdir()
    (carol / "blackjack").symlink_to(alice / "blackjack", target_is_directory=True)
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "dave").symlink_to(alice, target_is_directory=True)
    _mallory(samples, batch / "erin")
    found = {s.name: s for s in find_submissions([bob, carol, batch], tmp_path / "scratch")}
    assert found["bob"].folder is None and "no blackjack/__init__.py found" in found["bob"].note
    assert found["dave"].folder is None and found["dave"].note.startswith("dave is a symbolic link")
    assert found["erin"].folder == batch / "erin"
    assert found["carol"].folder is not None
    with pytest.raises(SubmissionRefused, match="^'blackjack' is a symbolic link"):
        copy_submission(found["carol"].folder, tmp_path / "copy")


def test_the_copy_keeps_regular_files_and_leaves_out_caches(samples: dict[str, Path], tmp_path: Path) -> None:
    """What a project holds is copied byte for byte (an executable stays one); caches and .git are left out."""
    source = _mallory(samples, tmp_path / "source")
    (source / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (source / "run.sh").chmod(0o755)
    (source / ".git").mkdir()
    (source / ".git" / "HEAD").write_text("ref\n", encoding="utf-8")
    (source / "blackjack" / "__pycache__").mkdir(exist_ok=True)
    (source / "blackjack" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    copy_submission(source, tmp_path / "copy")
    kept = {p.relative_to(source).as_posix(): p.read_bytes() for p in source.rglob("*") if p.is_file()
            and ".git" not in p.parts and "__pycache__" not in p.parts}
    copied = {p.relative_to(tmp_path / "copy").as_posix(): p.read_bytes()
              for p in (tmp_path / "copy").rglob("*") if p.is_file()}
    assert copied == kept and "blackjack/hand.py" in copied
    assert os.access(tmp_path / "copy" / "run.sh", os.X_OK)


def test_the_copy_stops_at_its_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sparse file that would fill the disk (1 GB that take no space in the submission) and more files than the
    bound (lowered to 20 here, to be quick) are refused before they are copied whole; what was copied is within
    the bounds."""
    sparse = tmp_path / "sparse" / "blackjack"
    sparse.mkdir(parents=True)
    with open(sparse / "data.bin", "wb") as file:
        file.truncate(1024 ** 3)
    with pytest.raises(SubmissionRefused, match=f"more than {MAX_COPIED_MB} MB \\(at 'blackjack/data.bin'\\)"):
        copy_submission(tmp_path / "sparse", tmp_path / "sparse-copy")
    assert sum(p.stat().st_size for p in (tmp_path / "sparse-copy").rglob("*") if p.is_file()) == 0
    monkeypatch.setattr(isolation, "MAX_COPIED_FILES", 20)
    many = tmp_path / "many"
    many.mkdir()
    for number in range(21):
        (many / f"f{number:02}.txt").touch()
    with pytest.raises(SubmissionRefused, match="more than 20 files and folders"):
        copy_submission(many, tmp_path / "many-copy")
    assert len(list((tmp_path / "many-copy").iterdir())) == 20
    (many / "f20.txt").unlink()
    copy_submission(many, tmp_path / "many-copy-2")
    assert len(list((tmp_path / "many-copy-2").iterdir())) == 20


def _no_student_text_parsed_here(monkeypatch: pytest.MonkeyPatch, marker: str) -> list[str]:
    """Make compile() and ast.parse() in this (the grader's) process fail on any text holding ``marker``;
    return the list of attempts, which stays empty when the student's text is parsed elsewhere."""
    attempts: list[str] = []
    real_compile, real_parse = builtins.compile, ast.parse

    def watched_compile(source: object, *args: object, **kwargs: object) -> object:
        if isinstance(source, (str, bytes)) and marker in (source if isinstance(source, str) else source.decode(
                "utf-8", "replace")):
            attempts.append("compile")
            raise AssertionError("the grader compiled the student's module itself")
        return real_compile(source, *args, **kwargs)  # type: ignore[call-overload]

    def watched_parse(source: object, *args: object, **kwargs: object) -> object:
        if isinstance(source, str) and marker in source:
            attempts.append("ast.parse")
            raise AssertionError("the grader parsed the student's module itself")
        return real_parse(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "compile", watched_compile)
    monkeypatch.setattr(ast, "parse", watched_parse)
    return attempts


def test_a_module_of_100000_unary_minuses_is_parsed_in_a_child(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """write_hybrid parses the student's modules in a child process: the module built to exhaust the parser
    is replaced by the reference's with the parser's error as the reason; the other modules get their
    reference bodies back; the grader never compiles the text itself."""
    write_packages(tmp_path / "sub", lambda r: r.milestone >= 1)
    hand = tmp_path / "sub" / "blackjack" / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8") + MINUSES, encoding="utf-8")
    attempts = _no_student_text_parsed_here(monkeypatch, "-" * 1000)
    summary = write_hybrid(tmp_path / "sub", tmp_path / "hybrid", 2)
    assert attempts == []
    assert summary.replaced_modules == ["blackjack/hand.py"]
    reason = summary.reasons["blackjack/hand.py"]
    assert reason.startswith(("MemoryError", "RecursionError", "SyntaxError")) and "\n" not in reason, reason
    assert "blackjack/deck.py:Deck.deal" in summary.restored
    restored_hand = (tmp_path / "hybrid" / "blackjack" / "hand.py").read_text(encoding="utf-8")
    assert "BOOM" not in restored_hand and "NotImplementedError" not in restored_hand


def test_a_parser_child_that_dies_costs_only_its_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the child parsing every module dies (killed at its limits), each module is parsed again alone: the
    one that kills it is replaced by the reference's with the limits as the reason, the others keep their code."""
    killer = ("import io, os, sys; data = sys.stdin.buffer.read(); os._exit(9) if b'KILLS_THE_PARSER' in data "
              "else None; sys.stdin = io.TextIOWrapper(io.BytesIO(data)); " + starter._CHILD.split("; ", 1)[1])
    monkeypatch.setattr(starter, "_CHILD", killer)
    write_packages(tmp_path / "sub", lambda r: r.milestone >= 1)
    deck = tmp_path / "sub" / "blackjack" / "deck.py"
    deck.write_text(deck.read_text(encoding="utf-8") + "\nKILLS_THE_PARSER = 1\n", encoding="utf-8")
    summary = write_hybrid(tmp_path / "sub", tmp_path / "hybrid", 2)
    assert summary.replaced_modules == ["blackjack/deck.py"]
    assert "stopped at the limits" in summary.reasons["blackjack/deck.py"]
    assert "blackjack/hand.py:Hand.get_score" in summary.restored


def test_layered_grading_never_follows_a_link(tmp_path: Path) -> None:
    """write_hybrid (layered grading, run as root) refuses a link in the submission by name and copies nothing
    it points to: neither /dev/zero (which filled the disk) nor a secret file."""
    write_packages(tmp_path / "sub", lambda r: r.milestone >= 2)
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    for target, name in [("/dev/zero", "zeros.py"), (str(tmp_path / "secret.txt"), "secret.py")]:
        link = tmp_path / "sub" / "blackjack" / name
        link.symlink_to(target)
        with pytest.raises(SubmissionRefused, match=f"^'blackjack/{name}' is a symbolic link"):
            write_hybrid(tmp_path / "sub", tmp_path / f"hybrid-{name}", 2)
        link.unlink()
        copied = [p for p in (tmp_path / f"hybrid-{name}").rglob("*") if p.is_file()]
        assert all(SECRET not in p.read_text(encoding="utf-8", errors="replace") for p in copied)
        assert sum(p.stat().st_size for p in copied) < 5 * 1024 * 1024


@pytest.mark.slow  # three submissions graded plainly and layered on milestone 2: 7 to 11 s here
def test_100000_unary_minuses_under_layered_grading_cost_only_their_module(
        mini_course: Path, samples: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file that made compile() raise MemoryError in the grader (and lost the batch) is now parsed in a
    child: its module counts as one that does not compile, exactly like a syntax error, the note names it,
    and the reference in the same batch keeps its full score."""
    mallory = _mallory(samples, tmp_path / "mallory")
    hand = mallory / "blackjack" / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8") + MINUSES, encoding="utf-8")
    attempts = _no_student_text_parsed_here(monkeypatch, "-" * 1000)
    grader = Grader(tests=mini_course / "tests", limits=LIMITS, jobs=2, layered=True)
    subs = find_submissions([mallory, samples["syntax_error"], samples["full"]], tmp_path / "scratch")
    bad, syntax, good = (g.milestones[0] for g in grader.grade(subs, [2]))
    assert attempts == []
    assert good.regular == 20, good.notes
    assert bad.layered and bad.regular == syntax.regular and syntax.layered, (bad.notes, syntax.notes)
    [note] = [n for n in bad.notes if n.startswith("blackjack/hand.py was replaced by the reference's: ")]
    assert "Error" in note and "\n" not in note


def test_long_names_still_get_their_results_json(mini_course: Path, tmp_path: Path) -> None:
    """Two submissions named with 251 characters each: the second's `` (2)`` made its results folder's name too
    long for the file system, and the whole batch's results.json files were lost. Now each gets one."""
    name = "s" * 251
    for parent in ("a", "b"):
        (tmp_path / parent).mkdir()
        (tmp_path / parent / f"{name}.zip").write_text("not a zip\n", encoding="utf-8")
    out = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "milestones", "grade", str(tmp_path / "a"),
                           str(tmp_path / "b"), "--tests", str(mini_course / "tests"), "--milestone", "1",
                           "--format", "gradescope", "--output", str(out)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    written = sorted(out.glob("*/results.json"))
    assert len(written) == 2
    for path in written:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["score"] == 0 and "it is not a readable zip" in data["output"]
        assert len(path.parent.name.encode("utf-8")) <= 255


def test_a_hybrid_that_cannot_be_made_leaves_the_plain_grade(mini_course: Path, samples: dict[str, Path],
                                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When layered grading fails for a submission (here the disk is full while the hybrid is written), its plain
    grade stands, with a one-line note saying why; it is not a 0."""
    import milestones.grading as grading

    def full_disk(*args: object, **kwargs: object) -> object:
        raise OSError(28, "No space left on device\nsecond line")

    monkeypatch.setattr(grading, "write_hybrid", full_disk)
    grader = Grader(tests=mini_course / "tests", limits=LIMITS, layered=True)
    [grade] = grader.grade(find_submissions([samples["week2_only"]], tmp_path / "scratch"), [2])
    milestone = grade.milestones[0]
    assert {p.part.key: p.score for p in milestone.parts}["wagering"] == 10 and not milestone.layered
    assert milestone.notes[-1] == ("layered grading was not done: OSError: [Errno 28] No space left on device "
                                   "second line")


def test_a_name_is_always_a_usable_folder_name(tmp_path: Path) -> None:
    """A zip named ``..zip`` is not named ``.`` (its results.json would land in the output folder itself), and
    bytes of a file name that are not UTF-8 (which no report can write) are dropped from the name."""
    (tmp_path / "..zip").write_bytes(b"not a zip")
    odd = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"st\xffu"))
    os.mkdir(odd)
    found = find_submissions([tmp_path / "..zip", Path(odd)], tmp_path / "scratch")
    assert [s.name for s in found] == ["submission", "stu"]
    assert found[0].folder is None and "not a readable zip" in found[0].note
