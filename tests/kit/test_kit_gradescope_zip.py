"""Submissions uploaded as zips, graded in Gradescope's layout, and the zips the grader refuses.

Gradescope keeps an uploaded ``.zip`` unextracted in ``/autograder/submission``. These tests
build a milestone-1 autograder zip of the mini course (``conftest.write_course``: a few
fast tests worth the real 25 points), lay out ``/autograder`` under a temporary folder as
``test_kit_autograder`` does, put the student's upload in ``submission/`` and run
``run_autograder``. A hostile zip is never graded: it scores 0 and results.json says why in
one line. The rule itself (loose files win, one zip, one zip inside it) is checked on
:func:`~milestones.grader.intake.find_submissions`, the one code path local ``grade`` and
Gradescope share.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import write_course
from test_kit_autograder import _unzip, run_autograder

from milestones import REPO_ROOT
from milestones.autograder import build_autograder
from milestones.grader.grading import MAX_UNZIPPED_MB, MAX_ZIP_ENTRIES, find_submissions

POSIX = pytest.mark.skipif(os.name != "posix", reason="run_autograder is a POSIX shell script")


@pytest.fixture(scope="module")
def mini_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The milestone-1 autograder zip of the mini course (its milestone 1 is worth 25 points)."""
    root = write_course(tmp_path_factory.mktemp("kit"), m2=None)
    shutil.copytree(REPO_ROOT / "milestones", root / "milestones", ignore=shutil.ignore_patterns("__pycache__"))
    out = root.parent / "autograder.zip"
    build_autograder(out, 1, root=root)
    return out


def zip_project(project: Path, archive: Path, *, prefix: str = "",
                extra: dict[str, bytes] | None = None) -> Path:
    """Zip the files of ``project`` as ``prefix + relative path`` into ``archive`` (plus ``extra``: name -> bytes)."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(project.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                zf.write(file, prefix + file.relative_to(project).as_posix())
        for name, content in (extra or {}).items():
            zf.writestr(name, content)
    return archive


def zip_of_zip(inner: Path, archive: Path) -> Path:
    """``archive`` holding only the zip ``inner`` (a student who zipped the zip)."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(inner, inner.name)
    return archive


def with_symlink(archive: Path, name: str, target: str) -> Path:
    """Add to ``archive`` an entry ``name`` that unzips as a symbolic link to ``target`` (Unix S_IFLNK mode)."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(archive, "a") as zf:
        zf.writestr(info, target)
    return archive


def mark_encrypted(archive: Path, name: str) -> Path:
    """Set the 'encrypted' flag of entry ``name`` in ``archive``, in its local header and its central directory
    entry, as a password-protected zip has it (zipfile cannot write encrypted zips)."""
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        data[zf.getinfo(name).header_offset + 6] |= 0x1
    at = data.find(b"PK\x01\x02")
    while at != -1:
        length = int.from_bytes(data[at + 28:at + 30], "little")
        if data[at + 46:at + 46 + length] == name.encode():
            data[at + 8] |= 0x1
            break
        at = data.find(b"PK\x01\x02", at + 4)
    archive.write_bytes(bytes(data))
    with zipfile.ZipFile(archive) as zf:
        assert zf.getinfo(name).flag_bits & 0x1
    return archive


def damage(archive: Path, name: str) -> Path:
    """Overwrite the middle of entry ``name``'s compressed bytes in ``archive`` (the zip's directory stays intact)."""
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo(name)
    header = info.header_offset
    start = header + 30 + int.from_bytes(data[header + 26:header + 28], "little") \
        + int.from_bytes(data[header + 28:header + 30], "little")
    middle = start + info.compress_size // 2
    data[middle:middle + 16] = bytes(255 - b for b in data[middle:middle + 16])
    archive.write_bytes(bytes(data))
    return archive


def run_gradescope(kit_zip: Path, tmp: Path, upload: Callable[[Path], None]) -> dict[str, Any]:
    """Lay out /autograder under ``tmp`` as Gradescope does, let ``upload`` fill ``submission/``, run
    run_autograder (it must exit 0) and return results.json."""
    root = tmp / "autograder"
    _unzip(kit_zip, root / "source")
    (root / "submission").mkdir()
    upload(root / "submission")
    return run_autograder(root, tmp)


@POSIX
@pytest.mark.parametrize("layout", ["flat", "one folder down", "zip of a zip", "upper case, beside notes"])
def test_the_reference_uploaded_as_a_zip_gets_full_marks(layout: str, mini_zip: Path, samples: dict[str, Path],
                                                         tmp_path: Path) -> None:
    """The reference zipped and kept unextracted in submission/ is graded 25 / 25 with every test passed: its
    files at the zip's root, under the zip's single top folder (with a virtualenv's symbolic link, left out
    like the rest of .venv), inside a zip inside the zip, or as PROJECT.ZIP beside a loose notes file. It
    used to score 0 with 'no blackjack/__init__.py found'."""
    def upload(submission: Path) -> None:
        if layout == "flat":
            zip_project(samples["full"], submission / "project.zip")
        elif layout == "one folder down":
            with_symlink(zip_project(samples["full"], submission / "blackjack-kit-main.zip",
                                     prefix="blackjack-kit-main/"), "blackjack-kit-main/.venv/bin/python",
                         "/usr/bin/python3")
        elif layout == "zip of a zip":
            zip_of_zip(zip_project(samples["full"], tmp_path / "inner" / "project.zip"), submission / "outer.zip")
        else:
            zip_project(samples["full"], submission / "PROJECT.ZIP")
            (submission / "notes.txt").write_text("split aces\n", encoding="utf-8")

    results = run_gradescope(mini_zip, tmp_path, upload)
    assert results["score"] == 25, results["output"]
    assert results["tests"] and all(t["status"] == "passed" for t in results["tests"])


def _slip(sub: Path, tmp: Path, full: Path) -> None:  # each of these writes one hostile upload into sub
    zip_project(full, sub / "project.zip", extra={"../evil_slip.py": b"pwned"})


def _absolute(sub: Path, tmp: Path, full: Path) -> None:
    zip_project(full, sub / "project.zip", extra={"/tmp/evil_absolute_gs.py": b"pwned"})


def _symlink(sub: Path, tmp: Path, full: Path) -> None:
    with_symlink(zip_project(full, sub / "project.zip"), "blackjack/notes.py", "/autograder/source/tests")


def _entries(sub: Path, tmp: Path, full: Path) -> None:
    zip_project(full, sub / "project.zip", extra={f"data/{i}.txt": b"" for i in range(MAX_ZIP_ENTRIES)})


def _bomb(sub: Path, tmp: Path, full: Path) -> None:
    zip_project(full, sub / "project.zip", extra={"blob.bin": bytes(MAX_UNZIPPED_MB * 1024 * 1024 + 1)})


def _nested_twice(sub: Path, tmp: Path, full: Path) -> None:
    inner = zip_of_zip(zip_project(full, tmp / "a" / "project.zip"), tmp / "b" / "inner.zip")
    zip_of_zip(inner, sub / "outer.zip")


def _encrypted(sub: Path, tmp: Path, full: Path) -> None:
    mark_encrypted(zip_project(full, sub / "project.zip"), "blackjack/hand.py")


def _not_a_zip(sub: Path, tmp: Path, full: Path) -> None:
    (sub / "project.zip").write_bytes(b"PK\x03\x04 this is not really a zip" * 40)


def _damaged(sub: Path, tmp: Path, full: Path) -> None:
    damage(zip_project(full, sub / "project.zip"), "blackjack/hand.py")


def _several(sub: Path, tmp: Path, full: Path) -> None:
    zip_project(full, sub / "mine.zip")
    zip_project(full, sub / "also-mine.zip")


HOSTILE = [
    (_slip, "cannot unzip project.zip: unsafe path in zip: '../evil_slip.py'"),
    (_absolute, "cannot unzip project.zip: unsafe path in zip: '/tmp/evil_absolute_gs.py'"),
    (_symlink, "cannot unzip project.zip: 'blackjack/notes.py' is a symbolic link"),
    (_entries, f"files and folders, more than the {MAX_ZIP_ENTRIES} allowed"),
    (_bomb, f"MB, more than the {MAX_UNZIPPED_MB} MB allowed (a zip bomb"),
    (_nested_twice, "cannot unzip project.zip: a zip inside a zip inside a zip"),
    (_encrypted, "cannot unzip project.zip: 'blackjack/hand.py' is encrypted"),
    (_not_a_zip, "cannot unzip project.zip: it is not a readable zip (BadZipFile"),
    (_damaged, "cannot unzip project.zip: it is not a readable zip ("),
    (_several, "and 2 zips beside it (also-mine.zip, mine.zip): hand in one zip"),
]
HOSTILE_IDS = ["zip slip", "absolute path", "symlink", "too many entries", "zip bomb", "nested twice", "encrypted",
               "not a zip", "damaged entry", "two zips"]


@POSIX
@pytest.mark.parametrize("upload, reason", HOSTILE, ids=HOSTILE_IDS)
def test_a_hostile_upload_scores_0_with_its_reason(upload: Callable[[Path, Path, Path], None], reason: str,
                                                   mini_zip: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """Each upload below holds the full reference, yet is refused: results.json exists with score 0, the
    reason once in its output and as every test's one-line message, and nothing is written outside."""
    results = run_gradescope(mini_zip, tmp_path, lambda sub: upload(sub, tmp_path, samples["full"]))
    assert results["score"] == 0
    assert results["output"].count(reason) == 1, results["output"]
    assert results["tests"] and all(t["score"] == 0 and reason in t["output"] and "\n" not in t["output"]
                                    for t in results["tests"])
    assert not list(tmp_path.rglob("evil_*.py")) and not Path("/tmp/evil_absolute_gs.py").exists()


@pytest.mark.parametrize("upload, reason", HOSTILE[:-1], ids=HOSTILE_IDS[:-1])
def test_a_hostile_zip_given_to_local_grade_is_refused_the_same_way(
        upload: Callable[[Path, Path, Path], None], reason: str, samples: dict[str, Path], tmp_path: Path) -> None:
    """`grade project.zip` on a laptop goes through the same rule: the same zips are ungradable with the same
    reason (an encrypted entry or a damaged one used to stop the whole batch with a traceback)."""
    (tmp_path / "upload").mkdir()
    upload(tmp_path / "upload", tmp_path, samples["full"])
    [archive] = list((tmp_path / "upload").iterdir())
    scratch = tmp_path / "scratch"
    [found] = find_submissions([archive], scratch)
    assert found.folder is None and reason.split(": ", 1)[-1] in found.note and "\n" not in found.note, found.note
    assert not list(tmp_path.rglob("evil_*.py"))
    assert sum(f.stat().st_size for f in scratch.rglob("*") if f.is_file()) < MAX_UNZIPPED_MB * 1024 * 1024


def test_loose_files_win_over_a_zip_and_a_zip_wins_over_loose_files_without_a_project(
        samples: dict[str, Path], tmp_path: Path) -> None:
    """In a submission folder (Gradescope's, with --single) a loose project is graded and the zip beside it is
    not even opened (a broken one too); loose files without a project leave the one zip to be graded, and the
    report names that zip as the work's source."""
    loose = tmp_path / "loose"
    shutil.copytree(samples["full"], loose / "project")
    (loose / "old.zip").write_bytes(b"not a zip")
    [found] = find_submissions([loose], tmp_path / "scratch", single=True)
    assert found.folder == loose / "project" and not found.note

    zipped = tmp_path / "zipped"
    (zipped / "notes").mkdir(parents=True)
    (zipped / "notes" / "todo.txt").write_text("split aces\n", encoding="utf-8")
    zip_project(samples["starter"], zipped / "handin.zip")
    [found] = find_submissions([zipped], tmp_path / "scratch", single=True)
    assert found.folder is not None and (found.folder / "blackjack" / "hand.py").read_bytes() == \
        (samples["starter"] / "blackjack" / "hand.py").read_bytes()
    assert found.unzipped and found.origin == str(zipped / "handin.zip")


def test_all_zips_of_a_submission_share_one_bound(samples: dict[str, Path], tmp_path: Path) -> None:
    """A zip of 30 MB holding a zip of 30 MB and the project is refused (60 MB > 50 MB in all), though each zip
    alone is within the bound; with a 10 MB outer blob the same submission is graded."""
    blob = bytes(30 * 1024 * 1024)
    inner = zip_project(samples["full"], tmp_path / "in" / "inner.zip", extra={"inner.bin": blob})

    def outer(name: str, size: int) -> Path:
        with zipfile.ZipFile(tmp_path / name, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(inner, inner.name)
            zf.writestr("outer.bin", bytes(size))
        return tmp_path / name

    big, fine = find_submissions([outer("big.zip", len(blob)), outer("fine.zip", 10 * 1024 * 1024)],
                                 tmp_path / "scratch")
    assert big.folder is None and re.match(r"cannot unzip inner\.zip: it would unpack to 6\d MB", big.note), big.note
    assert fine.folder is not None and (fine.folder / "blackjack" / "__init__.py").is_file()


class _EndlessEntry(io.RawIOBase):
    """A stream that yields zeros without end, standing in for an entry that inflates past what it declares."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        buffer[:] = bytes(len(buffer))
        return len(buffer)


def test_unpacking_stops_at_the_bound_whatever_the_zip_declares(samples: dict[str, Path], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry that declares a few bytes but yields more is cut off once the submission's bytes reach the
    bound: refused with a reason, and no more than the bound is written."""
    archive = zip_project(samples["full"], tmp_path / "liar.zip", extra={"blob.bin": b"tiny"})
    real_open = zipfile.ZipFile.open

    def lying_open(self: zipfile.ZipFile, name: Any, *args: Any, **kwargs: Any) -> Any:
        entry = name.filename if isinstance(name, zipfile.ZipInfo) else name
        return io.BufferedReader(_EndlessEntry()) if entry == "blob.bin" else real_open(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", lying_open)
    scratch = tmp_path / "scratch"
    [liar] = find_submissions([archive], scratch)
    assert liar.folder is None and "while unpacking, it grew past the 50 MB allowed" in liar.note, liar.note
    assert sum(f.stat().st_size for f in scratch.rglob("*") if f.is_file()) <= MAX_UNZIPPED_MB * 1024 * 1024


def test_a_zip_file_over_its_own_bound_is_not_opened(samples: dict[str, Path], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A zip file larger than MAX_ZIP_MB is refused before zipfile reads its list of entries."""
    archive = zip_project(samples["full"], tmp_path / "huge.zip", extra={"noise.bin": os.urandom(2 * 1024 * 1024)})
    monkeypatch.setattr("milestones.grader.intake.MAX_ZIP_MB", 1)
    monkeypatch.setattr(zipfile, "ZipFile", None)  # opening it would fail loudly
    [huge] = find_submissions([archive], tmp_path / "scratch")
    assert huge.folder is None and huge.note == "cannot unzip huge.zip: the zip is 2 MB, more than the 1 MB allowed " \
                                               "(leave out virtualenvs and data)"


def test_a_zip_named_with_a_line_break_still_gets_a_one_line_reason(tmp_path: Path) -> None:
    """A damaged zip whose file name holds a line break (submission/'a\\nb.zip') is refused in one line."""
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "a\nb.zip").write_bytes(b"not a zip")
    [found] = find_submissions([tmp_path / "submission"], tmp_path / "scratch", single=True)
    assert found.folder is None and found.note.startswith("cannot unzip a b.zip: it is not a readable zip"), found.note
