"""Grade submissions: run each milestone's suite against each one and total the rubric.

=================================  ==================================================
name                               what it is
=================================  ==================================================
``Submission``                     a student's name and the folder holding ``blackjack/``
``find_submissions(paths)``        folders, zips, or a folder of many -> submissions
``TestScore``                      one test's outcome, message and course points
``PartScore``, ``MilestoneGrade``  totals per rubric part and per milestone
``SubmissionGrade``                one student's grades; regular and extra credit
``Grader``                         runs the suites (in parallel) and scores them
``inventory_json(...)``            the tests and weights collected on the reference, as JSON
``read_inventory(path)``           ... and read back (the autograder zip ships them)
=================================  ==================================================

Scoring: a part earns ``part.points * passed weight / total weight`` where the weights
are the tests' ``@pytest.mark.points`` (``milestones/points.toml`` gives the parts'
course points). A test that did not run (its module failed to import, or the run was
stopped) earns nothing and says why. A run whose results stream the submission's code
wrote to (:attr:`milestones.runner.RunResult.tampered`) earns nothing at all: every test
says :data:`TAMPERED` and how.

Layered grading (``layered=True``): milestone N (N > 1) is graded a second time on a
hybrid of the submission with the reference's bodies of milestones 1..N-1 put back
(:func:`milestones.starter.write_hybrid`, which parses the student's modules in a child
process, never in the grader), unless the submission already has full marks; the better
total counts, so one bug in week 1 is not charged again in week 2. A hybrid that cannot be
made or run leaves the plain grade, with a note saying why.

Whatever a submission makes the grader raise (a file :func:`milestones.isolation.copy_submission`
refuses: a link, a named pipe, a device, a hard link, a file over the bounds; or anything
else) is that submission's 0 for the milestone, with a one-line reason; the batch goes on.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import stat
import struct
import tempfile
import threading
import zipfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from . import REPO_ROOT
from .config import Course, Milestone, Part, load_course, suite_name, suite_path, suites_dir
from .isolation import SubmissionRefused, digest
from .runner import GraderError, Limits, RunResult, TestRecord, run_suite
from .starter import write_hybrid

#: Submissions graded at the same time by default: two, or one on a single-core machine.
DEFAULT_JOBS = min(2, os.cpu_count() or 1)

#: The note (and every test's message) of a run whose results the submission's code wrote to.
TAMPERED = "results were tampered with"

#: Most megabytes a submission's zips may unpack to, and most entries they may hold, all its zips
#: together (a zip bomb is refused; a project is well under 1 MB and 200 files).
MAX_UNZIPPED_MB = 50
MAX_ZIP_ENTRIES = 5000
#: Most megabytes a zip file itself may be: opening a zip reads its whole list of entries into memory.
MAX_ZIP_MB = 100
#: Zips inside the zip handed in that are unpacked when it holds no project (a zip of a zip): one.
MAX_NESTED_ZIPS = 1
#: Folders never unpacked from a zip (besides hidden ones): caches, virtualenvs, macOS metadata.
_JUNK_DIRS = frozenset({"__pycache__", "__MACOSX", "venv", "node_modules", "site-packages"})
_MB = 1024 * 1024
_CHUNK = 64 * 1024
#: What :mod:`zipfile` raises on a damaged or unusual zip (besides BadZipFile): a broken compressed
#: stream, a truncated entry, a compression method or encryption it cannot read.
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, lzma.LZMAError, struct.error, EOFError,
               NotImplementedError, RuntimeError, ValueError, OSError)

__all__ = ["MAX_NESTED_ZIPS", "MAX_UNZIPPED_MB", "MAX_ZIP_ENTRIES", "MAX_ZIP_MB", "TAMPERED", "Grader",
           "MilestoneGrade", "PartScore", "Submission", "SubmissionGrade", "TestScore", "find_submissions",
           "inventory_json", "read_inventory"]


@dataclass(frozen=True, slots=True)
class Submission:
    """One student's work.

    Attributes:
        name: the student's label in reports: the folder or zip name, made unique in a
            batch by adding `` (2)``, `` (3)`` ... (``sam``, ``sam (2)``).
        folder: the folder holding ``blackjack/`` (``None`` when none was found).
        note: why the submission could not be graded, if it cannot.
        source: the path it came from: the folder or zip given (or found in a folder of many).
    """

    name: str
    folder: Path | None
    note: str = ""
    source: Path | None = None

    @property
    def unzipped(self) -> bool:
        """The work came as a file (a zip), unpacked into a temporary folder."""
        return self.source is not None and self.source.is_file()

    @property
    def origin(self) -> str:
        """Where the work came from, for reports: the zip given, else the folder holding ``blackjack/``."""
        if self.source is not None and (self.folder is None or self.unzipped):
            return str(self.source)
        return str(self.folder) if self.folder is not None else ""


def _package_root(folder: Path, depth: int = 3) -> Path | None:
    """The shallowest folder at or under ``folder`` that holds ``blackjack/__init__.py``."""
    level = [folder]
    for _ in range(depth):
        for candidate in level:
            if (candidate / "blackjack" / "__init__.py").is_file():
                return candidate
        level = sorted(c for f in level for c in _subfolders(f))
    return next((c for c in level if (c / "blackjack" / "__init__.py").is_file()), None)


def _subfolders(folder: Path) -> list[Path]:
    """The folders in ``folder`` that may hold a project (not hidden, not ``__pycache__``, not a symbolic link,
    which could lead to another student's project); none if unreadable."""
    try:
        return [c for c in folder.iterdir()
                if not c.is_symlink() and c.is_dir() and not c.name.startswith((".", "__"))]
    except OSError:
        return []


class _Ungradable(Exception):
    """A submission that cannot be graded; its one-line message says why (it becomes the submission's note)."""


class _Refused(_Ungradable):
    """A zip refused before or while unpacking (unsafe, too big, encrypted, damaged)."""


@dataclass
class _Budget:
    """What one submission's zips may still unpack, all of them together: entries and bytes."""

    entries: int = field(default_factory=lambda: MAX_ZIP_ENTRIES)
    size: int = field(default_factory=lambda: MAX_UNZIPPED_MB * _MB)

    def take_entries(self, count: int) -> None:
        """Count ``count`` more entries. Raises _Refused: more than :data:`MAX_ZIP_ENTRIES` in all."""
        if count > self.entries:
            raise _Refused(f"it holds {MAX_ZIP_ENTRIES - self.entries + count} files and folders, more than the "
                           f"{MAX_ZIP_ENTRIES} allowed (leave out virtualenvs and data)")
        self.entries -= count

    def check_size(self, declared: int) -> None:
        """Refuse ``declared`` bytes (the zip's own sizes) if they exceed what is left, spending nothing."""
        if declared > self.size:
            used = MAX_UNZIPPED_MB * _MB - self.size
            raise _Refused(f"it would unpack to {(used + declared) / _MB:.0f} MB, more than the {MAX_UNZIPPED_MB} MB "
                           f"allowed (a zip bomb, or data that does not belong in the hand-in?)")

    def spend(self, count: int) -> None:
        """Spend ``count`` bytes actually unpacked. Raises _Refused: more than :data:`MAX_UNZIPPED_MB` in all."""
        if count > self.size:
            raise _Refused(f"while unpacking, it grew past the {MAX_UNZIPPED_MB} MB allowed, more than its entries "
                           f"declare (a zip bomb)")
        self.size -= count


def _parts(member: zipfile.ZipInfo) -> list[str]:
    """The folders and name of a zip entry (``/`` or ``\\`` between them; empty and ``.`` parts dropped)."""
    return [p for p in member.filename.replace("\\", "/").split("/") if p not in ("", ".")]


def _kept(member: zipfile.ZipInfo) -> bool:
    """A zip entry worth unpacking: not inside a hidden folder, a cache or a virtualenv (never graded)."""
    folders = _parts(member)[:-1]
    return not any(f.startswith(".") or f in _JUNK_DIRS for f in folders)


def _check_member(member: zipfile.ZipInfo) -> None:
    """Refuse an entry that is encrypted or a symbolic link (Unix mode ``S_IFLNK`` in its external attributes).

    Raises:
        _Refused: with the entry's name.
    """
    if member.flag_bits & 0x1:
        raise _Refused(f"{member.filename!r} is encrypted; zip the project without a password")
    if stat.S_ISLNK(member.external_attr >> 16):
        raise _Refused(f"{member.filename!r} is a symbolic link; zip the files themselves")


def _extract(archive: Path, into: Path, budget: _Budget | None = None) -> Path:
    """Unzip ``archive`` into a new folder of its own under ``into`` and return that folder.

    Entries in hidden folders, caches and virtualenvs are left out; the rest count against
    ``budget`` (default: a fresh one, :data:`MAX_ZIP_ENTRIES` entries and
    :data:`MAX_UNZIPPED_MB` MB): their number and the sizes the zip declares are checked
    before anything is written, and the bytes actually unpacked while writing, so a zip bomb
    stops at the bound whatever it declares.

    Raises:
        _Refused: ``archive`` is a symbolic link or over :data:`MAX_ZIP_MB`; an entry's path
            leaves the folder (absolute, ``..``, a drive); an entry kept is encrypted or a
            symbolic link; too many entries or bytes; or the file is not a readable zip
            (damaged, truncated, an unknown compression): one line saying which.
    """
    budget = budget if budget is not None else _Budget()
    try:
        if archive.is_symlink():
            raise _Refused("it is a symbolic link, not a zip file")
        size = archive.stat().st_size
        if size > MAX_ZIP_MB * _MB:
            raise _Refused(f"the zip is {size / _MB:.0f} MB, more than the {MAX_ZIP_MB} MB allowed "
                           f"(leave out virtualenvs and data)")
        with zipfile.ZipFile(archive) as zf:
            for member in zf.infolist():  # every entry, also those left out below (``../`` starts with a dot)
                parts = member.filename.replace("\\", "/").split("/")
                if member.filename.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
                    raise _Refused(f"unsafe path in zip: {member.filename!r}")
            members = [m for m in zf.infolist() if _kept(m) and _parts(m)]
            for member in members:
                _check_member(member)
            budget.take_entries(len(members))
            budget.check_size(sum(m.file_size for m in members))
            into.mkdir(parents=True, exist_ok=True)
            target = Path(tempfile.mkdtemp(prefix=f"{archive.stem[:40]}-", dir=into))
            for member in members:
                destination = target.joinpath(*_parts(member))
                if not destination.resolve().is_relative_to(target.resolve()):
                    raise _Refused(f"unsafe path in zip: {member.filename!r}")
                if member.is_dir():
                    destination.mkdir(parents=True, exist_ok=True)
                    continue
                destination.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(member) as source, open(destination, "wb") as out:
                    while chunk := source.read(_CHUNK):
                        budget.spend(len(chunk))
                        out.write(chunk)
    except _Refused:
        raise
    except _ZIP_ERRORS as err:
        reason = str(err.strerror if isinstance(err, OSError) and err.strerror else err).splitlines()
        raise _Refused(f"it is not a readable zip ({type(err).__name__}: {reason[0] if reason else 'no detail'})"
                       ) from None
    return target


def _zips_in(folder: Path) -> list[Path]:
    """The zip files directly in ``folder`` (any case; not hidden, not symbolic links), sorted; none if unreadable."""
    try:
        return sorted(c for c in folder.iterdir() if _is_zip(c) and not c.name.startswith((".", "__"))
                      and not c.is_symlink() and c.is_file())
    except OSError:
        return []


def _find_project(path: Path, scratch: Path) -> tuple[Path, Path]:
    """Find the project (the folder holding ``blackjack/__init__.py``) of the submission ``path``.

    The rule, for a folder (Gradescope's ``submission/`` too) and for a zip alike:

    1. loose files win: a folder holding ``blackjack/__init__.py``, at its top or up to three
       folders down (a project one folder down is found), is graded, whatever zips lie beside it;
    2. else the zip directly in the folder is unpacked (under ``scratch``) and searched the same
       way; a folder with several zips and no loose project is ungradable (which one is it?);
    3. a zip handed in (or found in 2) is searched the same way, so a zip holding only a zip
       (a zip of a zip) is unpacked too, up to :data:`MAX_NESTED_ZIPS` inside the first; deeper is refused.

    All the zips of one submission share one :class:`_Budget`.

    Returns:
        ``(project folder, source)``: ``source`` is the zip the work came from when it was
        unpacked from a zip found in the folder ``path``, else ``path``.

    Raises:
        _Ungradable: no project, several zips, nesting too deep, or a zip refused (one line).
    """
    budget = _Budget()
    folder, source, unpacked = path, path, 0
    if _is_zip(path) and not path.is_dir():
        folder, unpacked = _unzip(path, scratch, budget), 1
    while (root := _package_root(folder)) is None:
        zips = _zips_in(folder)
        where = f"in {source.name}" if unpacked else "in the submission"
        if not zips:
            raise _Ungradable(f"no blackjack/__init__.py found {where}")
        if len(zips) > 1:
            raise _Ungradable(f"no blackjack/__init__.py found {where}, and {len(zips)} zips beside it "
                              f"({', '.join(z.name for z in zips[:4])}): hand in one zip, or the project folder")
        if unpacked > MAX_NESTED_ZIPS:
            raise _Ungradable(f"cannot unzip {zips[0].name}: a zip inside a zip inside a zip; at most "
                              f"{MAX_NESTED_ZIPS} zip inside the zip handed in is unpacked")
        if not unpacked:
            source = zips[0]
        folder, unpacked = _unzip(zips[0], scratch, budget), unpacked + 1
    return root, source


def _unzip(archive: Path, scratch: Path, budget: _Budget) -> Path:
    """:func:`_extract`, its refusal worded for the student. Raises _Refused: ``cannot unzip NAME: reason``."""
    try:
        return _extract(archive, scratch, budget)
    except _Refused as err:
        raise _Refused(f"cannot unzip {archive.name}: {err}") from None


#: Most bytes (UTF-8) of a submission's name: with `` (2)`` added it stays a valid file name (at most 255
#: bytes on Linux, macOS and Windows), since Gradescope's output for many is ``FOLDER/<name>/results.json``.
MAX_NAME_BYTES = 200


def _clip(name: str) -> str:
    """``name`` cut to at most :data:`MAX_NAME_BYTES` bytes of UTF-8 (whole characters; bytes of a file name that
    are not UTF-8 are dropped), and never empty, ``.`` or ``..`` (``submission`` instead): a folder's name."""
    clipped = name.encode("utf-8", errors="surrogateescape")[:MAX_NAME_BYTES].decode("utf-8", errors="ignore")
    return clipped if clipped not in ("", ".", "..") else "submission"


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` as one line of printable characters (others become spaces), at most ``limit`` of them."""
    shown = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(shown.split())[:limit]


def _unique_names(submissions: list[Submission]) -> list[Submission]:
    """Give every submission a name no other has (ignoring case): the second ``sam`` becomes ``sam (2)``; a name is
    cut to :data:`MAX_NAME_BYTES` first."""
    taken: set[str] = set()
    unique = []
    for submission in submissions:
        name, count = _clip(submission.name), 1
        while name.casefold() in taken:
            count += 1
            name = f"{_clip(submission.name)} ({count})"
        taken.add(name.casefold())
        unique.append(replace(submission, name=name))
    return unique


def _is_zip(path: Path) -> bool:
    """A path named like a zip: ``.zip`` in any case (``Bob.ZIP`` too)."""
    return path.suffix.lower() == ".zip"


def _label(path: Path) -> str:
    """A submission's name from its path: a file's stem or the folder's name (``.`` -> the folder's real name)."""
    path = Path(os.path.abspath(path))
    return (path.stem if path.is_file() or _is_zip(path) else path.name) or "submission"


def find_submissions(paths: list[Path], scratch: Path, *, single: bool = False) -> list[Submission]:
    """Turn command-line paths into submissions.

    A path may be a submission folder (holding ``blackjack/``, possibly a few folders
    down), a ``.zip`` of one (any case: ``.ZIP``), or a folder of many submissions (each
    sub-folder or zip one student, named after it). Any other file (``.rar``, ``.py`` ...)
    is an ungradable submission with a note saying so; the others are still graded. Each
    submission's project is found by one rule (:func:`_find_project`): loose files holding
    ``blackjack/__init__.py`` win, else the one zip in the folder is unpacked (several zips
    are ungradable), and a zip holding only a zip is unpacked once more. Each zip is
    unpacked into a folder of its own under ``scratch``, within bounds
    (:data:`MAX_ZIP_ENTRIES`, :data:`MAX_UNZIPPED_MB`, :data:`MAX_ZIP_MB`,
    :data:`MAX_NESTED_ZIPS`); a zip that breaks them, has an unsafe path (absolute, ``..``),
    a symbolic link or an encrypted entry, or is damaged is ungradable with a one-line
    note, never an exception. Symbolic links under the paths given lead nowhere (they may
    lead to a classmate's work): a link in a folder of many is ungradable with a note, the
    search for a project does not enter linked folders, and the copy of a submission
    refuses any link in it (:func:`milestones.isolation.copy_submission`). Two submissions
    with the same name are told apart as ``sam``, ``sam (2)``; names are cut to
    :data:`MAX_NAME_BYTES`.

    Args:
        paths: the paths given.
        scratch: a folder to unzip into.
        single: every path is one student's submission, never a folder of many
            (Gradescope's ``/autograder/submission``, where an upload may hold
            ``project/blackjack/`` next to other folders, or a ``.zip`` kept unextracted).

    Returns:
        Submissions in the order given (a folder of many: sorted by name); one that holds
        no ``blackjack`` package comes back with ``folder=None`` and a note.
    """
    found: list[Submission] = []

    def one(path: Path, given: bool = True) -> Submission:
        name = _label(path)
        if not given and path.is_symlink():  # in a folder of many: it may lead to another student's work
            return Submission(name, None, f"{path.name} is a symbolic link; hand in the project folder or a zip of "
                                          f"it, not a link", path)
        if not path.is_dir() and not _is_zip(path):
            return Submission(name, None, f"{path.name} is neither a folder nor a .zip file; "
                                          f"hand in the project folder or a zip of it", path)
        try:
            root, source = _find_project(path, scratch)
        except _Ungradable as err:  # one line, even when a file's name holds a line break
            return Submission(name, None, " ".join(str(err).splitlines()), path)
        return Submission(name, root, source=source)

    for path in paths:
        if not path.exists():
            found.append(Submission(_label(path), None, f"{path} does not exist", path))
        elif not single and path.is_dir() and _package_root(path, depth=0) is None:
            children = sorted(c for c in path.iterdir() if not c.name.startswith((".", "__")))
            if any(not c.is_symlink() and (_is_zip(c) or (c.is_dir() and _package_root(c) is not None))
                   for c in children):
                found.extend(one(c, given=False) for c in children)  # a file not a zip, a link: ungradable
            else:
                found.append(one(path))
        else:
            found.append(one(path))
    return _unique_names(found)


@dataclass(frozen=True, slots=True)
class TestScore:
    """One test's result in course points.

    Attributes:
        record: the test.
        outcome: ``passed``, ``failed``, ``error``, ``skipped`` or ``not run``.
        message: for the student ("" when passed).
        score: course points earned.
        max_score: course points possible (the test's weight scaled to its part).
    """

    __test__ = False

    record: TestRecord
    outcome: str
    message: str
    score: Fraction
    max_score: Fraction


@dataclass(frozen=True, slots=True)
class PartScore:
    """A rubric part's total: ``part.points`` times the share of test weight passed."""

    part: Part
    tests: tuple[TestScore, ...]

    @property
    def score(self) -> Fraction:
        """Course points earned in this part."""
        return sum((t.score for t in self.tests), Fraction(0))


@dataclass
class MilestoneGrade:
    """One milestone's grade for one submission.

    Attributes:
        milestone: the course milestone.
        parts: a score per rubric part, in course order.
        notes: what went wrong with the run, for the student and the instructor.
        layered: the counted score comes from the layered (hybrid) run.
        unprotected: the sandbox's protections the run went without (the short names of
            :data:`milestones._sandbox.PROTECTIONS`), for the instructor only.
    """

    milestone: Milestone
    parts: list[PartScore]
    notes: list[str] = field(default_factory=list)
    layered: bool = False
    unprotected: list[str] = field(default_factory=list)

    @property
    def regular(self) -> Fraction:
        """Points earned in the parts that are not extra credit."""
        return sum((p.score for p in self.parts if not p.part.extra_credit), Fraction(0))

    @property
    def extra(self) -> Fraction:
        """Points earned in the extra-credit parts."""
        return sum((p.score for p in self.parts if p.part.extra_credit), Fraction(0))

    @property
    def tests(self) -> list[TestScore]:
        """Every test, part by part."""
        return [t for p in self.parts for t in p.tests]

    @property
    def full_marks(self) -> bool:
        """Every test passed."""
        return all(t.outcome == "passed" for t in self.tests)


@dataclass
class SubmissionGrade:
    """All graded milestones of one submission."""

    submission: Submission
    milestones: list[MilestoneGrade] = field(default_factory=list)

    @property
    def regular(self) -> Fraction:
        """Regular points over the graded milestones."""
        return sum((m.regular for m in self.milestones), Fraction(0))

    @property
    def extra(self) -> Fraction:
        """Extra-credit points over the graded milestones."""
        return sum((m.extra for m in self.milestones), Fraction(0))

    @property
    def regular_max(self) -> int:
        """Regular points possible over the graded milestones."""
        return sum(m.milestone.regular_points for m in self.milestones)

    @property
    def extra_max(self) -> int:
        """Extra-credit points possible over the graded milestones."""
        return sum(m.milestone.extra_points for m in self.milestones)


def score_run(milestone: Milestone, inventory: dict[str, TestRecord], run: RunResult | None, limits: Limits,
              note: str = "") -> MilestoneGrade:
    """Score one run of a milestone's suite against the reference's list of tests.

    Args:
        milestone: the course milestone.
        inventory: the tests and weights, collected on the reference.
        run: the submission's run (``None``: it could not run; ``note`` says why); a run
            that was tampered with counts as none, with a :data:`TAMPERED` note.
        limits: for the message of a stopped run.
        note: why there is no run.
    """
    notes = [note] if note else []
    errors: list[tuple[str, str]] = []
    stopped = ""
    secret: RunResult | None = None
    unprotected = list(run.unprotected) if run is not None else []
    if run is not None and run.tampered:  # the submission's code wrote to the results: none of them count
        note = f"{TAMPERED}: {run.tampered}"
        notes.append(note)
        run = None
    if run is not None:
        errors = run.collect_errors
        stopped = run.stop_reason(limits)
        secret = run.hidden_run
        for message in [*(message for _, message in errors), stopped]:
            if message and message not in notes:  # one import error breaks every module: say it once
                notes.append(message)
        if secret is not None and not secret.finished:  # its reason may name a hidden test: not in the notes
            notes.append("the run of the hidden tests ended early; their own messages say why")
    parts = []
    for part in milestone.parts:
        records = [r for r in inventory.values() if r.part == part.key]
        weight = sum((r.points for r in records), Fraction(0))
        scale = Fraction(part.points) / weight if weight else Fraction(0)
        tests = []
        for record in records:
            if run is not None and record.nodeid in run.results:
                outcome, message = run.results[record.nodeid]
            else:
                outcome = "not run"
                module = record.nodeid.split("::", 1)[0]
                source_errors, source_stopped = errors, stopped
                if secret is not None and record.hidden:  # from the hidden tests' own run
                    source_errors, source_stopped = secret.collect_errors, secret.stop_reason(limits)
                module_errors = [m for nid, m in source_errors if nid == module or module.startswith(nid)]
                message = (module_errors[0] if module_errors else source_stopped or note
                           or "the test did not run (is its name different in your code?)")
            possible = record.points * scale
            tests.append(TestScore(record, outcome, message, possible if outcome == "passed" else Fraction(0),
                                   possible))
        parts.append(PartScore(part, tuple(tests)))
    return MilestoneGrade(milestone, parts, notes, unprotected=unprotected)


_INVENTORY_FORMAT = 1


def inventory_json(inventories: dict[int, dict[str, TestRecord]]) -> str:
    """The tests and weights of some milestones as JSON, for :func:`read_inventory`."""
    data = {"format": _INVENTORY_FORMAT,
            "milestones": {str(number): [r.to_json() for r in records.values()]
                           for number, records in inventories.items()}}
    return json.dumps(data, indent=1) + "\n"


def read_inventory(path: Path) -> dict[int, dict[str, TestRecord]]:
    """Read what :func:`inventory_json` wrote: milestone -> node id -> test.

    Raises:
        ValueError: the file cannot be read or is not an inventory (one line saying so).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != _INVENTORY_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {_INVENTORY_FORMAT}")
        return {int(number): {str(r["nodeid"]): TestRecord.from_json(r) for r in records}
                for number, records in data["milestones"].items()}
    except OSError as err:
        raise ValueError(f"cannot read the inventory {path}: {err.strerror or err}") from None
    except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError) as err:
        raise ValueError(f"{path} is not a test inventory written by the autograder command: {err}") from None


class Grader:
    """Grades submissions milestone by milestone.

    Args:
        course: milestones and points (default: ``milestones/points.toml``).
        tests: the folder holding ``milestone1/``, ``milestone2/`` ... (default: the repo's ``tests/``).
        reference: the folder holding the reference packages, for layered grading.
        limits: per-run limits.
        jobs: runs at the same time (default :data:`DEFAULT_JOBS`).
        layered: grade later milestones on top of the reference's earlier ones too.
        hidden: include hidden tests (the instructor's grade); False grades visible ones only.
        inventories: the tests of some milestones as collected earlier on the reference
            (:func:`read_inventory`), so these are not collected again here (the autograder
            zip ships them instead of the reference solution).
    """

    def __init__(self, *, course: Course | None = None, tests: Path = suites_dir(REPO_ROOT),
                 reference: Path = REPO_ROOT, limits: Limits = Limits(), jobs: int = DEFAULT_JOBS,
                 layered: bool = False, hidden: bool = True,
                 inventories: dict[int, dict[str, TestRecord]] | None = None) -> None:
        self.course = course or load_course()
        self.tests = tests
        self.reference = reference
        self.limits = limits
        self.jobs = max(1, jobs)
        self.layered = layered
        self.hidden = hidden
        self._digests: dict[int, dict[str, str]] = {}
        self._lock = threading.Lock()
        self._inventory: dict[int, dict[str, TestRecord]] = {
            number: {nodeid: r for nodeid, r in records.items() if hidden or not r.hidden}
            for number, records in (inventories or {}).items()}

    def folder(self, number: int) -> Path:
        """The test folder of milestone ``number``."""
        return self.tests / suite_name(number)

    def inventory(self, number: int) -> dict[str, TestRecord]:
        """The tests of milestone ``number`` and their weights, collected on the reference (cached).

        Raises:
            FileNotFoundError: the milestone has no suite folder (nothing to grade is never full marks).
            RuntimeError: the suite does not collect cleanly on the reference.
        """
        if number not in self._inventory:
            if not self.folder(number).is_dir():
                raise FileNotFoundError(f"{self.folder(number)}: no such suite (the course's test suites are "
                                        f"missing; reinstall the kit or pass --tests)")
            self._unchanged(number)
            run = run_suite(self.folder(number), None, limits=self.limits, hidden=self.hidden, collect_only=True)
            if run.collect_errors or not run.finished:
                problems = "; ".join(m for _, m in run.collect_errors) or run.output[-2000:]
                raise RuntimeError(f"{suite_path(number)} does not collect on the reference: {problems}")
            self._inventory[number] = run.collected
        return self._inventory[number]

    def _unchanged(self, number: int) -> None:
        """Check that milestone ``number``'s tests are as they were when grading started.

        Raises:
            GraderError: a file of the suite changed (a submission's code wrote to them, or
                someone edited them): no later submission is graded on changed tests.
        """
        folder = self.folder(number)
        now = {**digest(folder), **{f"../{p.name}": d for p in folder.parent.glob("*.py")
                                    for d in [hashlib.sha256(p.read_bytes()).hexdigest()]}}
        with self._lock:
            before = self._digests.setdefault(number, now)
        if now != before:
            changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
            raise GraderError(f"the tests in {folder} changed while grading ({', '.join(changed[:3])}); "
                              f"restore them and grade again")

    def _grade_one(self, submission: Submission, milestone: Milestone) -> MilestoneGrade:
        inventory = self.inventory(milestone.number)
        if submission.folder is None:
            return score_run(milestone, inventory, None, self.limits, submission.note)
        try:
            return self._grade_folder(submission, milestone, inventory)
        except GraderError:
            raise  # the grader's own fault (a suite that changed, one that cannot run): the batch stops
        except SubmissionRefused as err:  # a link, a named pipe, a hard link, a file too big: named in one line
            return score_run(milestone, inventory, None, self.limits,
                             f"this submission could not be graded: {_one_line(str(err))}")
        except Exception as err:  # noqa: BLE001 - the submission could not be copied, compiled or run:
            # a 0 with the reason, and the batch goes on (a named pipe, a file compile() cannot hold ...)
            reason = _one_line(f"{type(err).__name__}: {err}")
            return score_run(milestone, inventory, None, self.limits, f"this submission could not be graded: {reason}")

    def _grade_folder(self, submission: Submission, milestone: Milestone,
                      inventory: dict[str, TestRecord]) -> MilestoneGrade:
        """Grade ``submission``'s folder on ``milestone``, layered on the reference's earlier code when that
        scores higher (see :class:`Grader`); a layered grading that fails leaves the plain grade, noted."""
        assert submission.folder is not None
        self._unchanged(milestone.number)
        run = run_suite(self.folder(milestone.number), submission.folder, limits=self.limits, hidden=self.hidden,
                        isolate=True)
        self._unchanged(milestone.number)
        grade = score_run(milestone, inventory, run, self.limits)
        if self.layered and milestone.number > 1 and not grade.full_marks and not run.tampered:
            try:
                layered = self._grade_layered(submission.folder, milestone, inventory)
            except GraderError:
                raise
            except Exception as err:  # noqa: BLE001 - whatever the hybrid cannot hold: the plain grade stands
                grade.notes.append(f"layered grading was not done: {_one_line(f'{type(err).__name__}: {err}')}")
                return grade
            if layered.regular + layered.extra > grade.regular + grade.extra:
                return layered
        return grade

    def _grade_layered(self, folder: Path, milestone: Milestone, inventory: dict[str, TestRecord]) -> MilestoneGrade:
        """Grade the hybrid of ``folder`` (:func:`~milestones.starter.write_hybrid`) on ``milestone``; its notes
        say what was put back and which modules were replaced, and why."""
        with tempfile.TemporaryDirectory(prefix="bj-layered-") as work:
            hybrid = write_hybrid(folder, Path(work), milestone.number, self.reference)
            layered_run = run_suite(self.folder(milestone.number), Path(work), limits=self.limits,
                                    hidden=self.hidden, isolate=True)
        self._unchanged(milestone.number)
        layered = score_run(milestone, inventory, layered_run, self.limits)
        layered.layered = True
        put_back = len(hybrid.restored) + len(hybrid.replaced_modules)
        notes = [f"graded with the reference's code of milestones before {milestone.number} under yours "
                 f"({put_back} functions or modules put back), because that scored higher than your own earlier code"]
        notes += [f"{module} was replaced by the reference's: {reason}" for module, reason in hybrid.reasons.items()
                  if reason != "the module is missing"]
        layered.notes[:0] = notes
        return layered

    def grade(self, submissions: list[Submission], milestones: list[int] | None = None) -> list[SubmissionGrade]:
        """Grade every submission on every chosen milestone (default: all with a test folder).

        Raises:
            KeyError: an unknown milestone number.
            ValueError: no milestone is chosen and ``tests`` has no milestone folder.
            RuntimeError: a suite does not collect on the reference, or the grader cannot run
                a suite at all (:class:`milestones.runner.GraderError`).
        """
        numbers = milestones or self.course.with_suites(self.tests)
        if not numbers:
            raise ValueError(f"{self.tests} holds no milestone test folder ({suite_name(1)}/, {suite_name(2)}/ ...)")
        chosen = [self.course.milestone(n) for n in numbers]
        for milestone in chosen:
            self.inventory(milestone.number)
        jobs = [(s, m) for s in submissions for m in chosen]
        pool = ThreadPoolExecutor(max_workers=self.jobs)
        try:
            futures = [pool.submit(self._grade_one, *job) for job in jobs]
            results = [future.result() for future in futures]
        finally:  # a GraderError stops the batch without running the jobs not started yet
            pool.shutdown(wait=True, cancel_futures=True)
        grades = {id(s): SubmissionGrade(s) for s in submissions}
        for (submission, _), result in zip(jobs, results, strict=True):
            grades[id(submission)].milestones.append(result)
        return [grades[id(s)] for s in submissions]
