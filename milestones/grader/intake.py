"""Submissions in: folders, zips, or a class folder (sections at any depth), each turned into the folder holding
``blackjack/``.

A zip is unpacked within bounds (:data:`MAX_ZIP_ENTRIES`, :data:`MAX_UNZIPPED_MB` ...): a zip bomb, an unsafe
path, a link or an encrypted entry is refused with one line, never an exception.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import stat
import struct
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

__all__ = ["MAX_NAME_BYTES", "MAX_NESTED_ZIPS", "MAX_UNZIPPED_MB", "MAX_ZIP_ENTRIES", "MAX_ZIP_MB", "Submission",
           "find_submissions", "holds_submission"]

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


@dataclass(frozen=True, slots=True)
class Submission:
    """One student's work.

    Attributes:
        name: the student's label in reports: the folder or zip name, under its sections
            (``sec1/sam``), on one line and unique in a batch (:func:`_unique_names`).
        folder: the folder holding ``blackjack/`` (``None`` when none was found).
        note: why the submission could not be graded, if it cannot.
        source: the path it came from: the folder or zip given (or found in a class folder).
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
    def id(self) -> str:
        """A short id of the submission, the same in every run: 12 hex digits of the SHA-256 of :attr:`origin`."""
        return hashlib.sha256(self.origin.encode("utf-8", "surrogateescape")).hexdigest()[:12]

    @property
    def origin(self) -> str:
        """Where the work came from, for reports: the zip given, else the folder holding ``blackjack/``."""
        if self.source is not None and (self.folder is None or self.unzipped):
            return str(self.source)
        return str(self.folder) if self.folder is not None else ""


def _package_root(folder: Path, depth: int = 3) -> Path | None:
    """The shallowest folder at or under ``folder`` that holds ``blackjack/__init__.py`` (never through a symbolic
    link, which could lead to another student's project, nor a hidden folder or ``__pycache__``)."""
    level = [folder]
    for _ in range(depth):
        for candidate in level:
            if (candidate / "blackjack" / "__init__.py").is_file():
                return candidate
        level = [c for f in level for c in _entries(f) if not c.is_symlink() and c.is_dir()]
    return next((c for c in level if (c / "blackjack" / "__init__.py").is_file()), None)


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
    """_Refused, naming the entry, when it is encrypted or a symbolic link (``S_IFLNK`` in its external
    attributes)."""
    if member.flag_bits & 0x1:
        raise _Refused(f"{member.filename!r} is encrypted; zip the project without a password")
    if stat.S_ISLNK(member.external_attr >> 16):
        raise _Refused(f"{member.filename!r} is a symbolic link; zip the files themselves")


def _unzip(archive: Path, into: Path, budget: _Budget) -> Path:
    """Unzip ``archive`` into a new folder of its own under ``into`` and return that folder.

    Entries in hidden folders, caches and virtualenvs are left out; the rest count against ``budget``: their
    number and the sizes the zip declares before anything is written, the bytes actually unpacked while
    writing, so a zip bomb stops at the bound whatever it declares.

    Raises:
        _Refused: ``cannot unzip NAME: reason``: a link, over :data:`MAX_ZIP_MB`, an unsafe path (absolute,
            ``..``, a drive), an entry kept encrypted or a link, over the budget, or not a readable zip.
    """
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
    except _Refused as err:
        raise _Refused(f"cannot unzip {archive.name}: {err}") from None
    except _ZIP_ERRORS as err:
        reason = str(err.strerror if isinstance(err, OSError) and err.strerror else err).splitlines()
        raise _Refused(f"cannot unzip {archive.name}: it is not a readable zip ({type(err).__name__}: "
                       f"{reason[0] if reason else 'no detail'})") from None
    return target


def _zips_in(folder: Path) -> list[Path]:
    """The zip files directly in ``folder`` (any case; not hidden, not symbolic links), sorted; none if unreadable."""
    return [c for c in _entries(folder) if _is_zip(c) and not c.is_symlink() and c.is_file()]


def _find_project(path: Path, scratch: Path) -> tuple[Path, Path]:
    """Find the project (the folder holding ``blackjack/__init__.py``) of the submission ``path``, a folder
    (Gradescope's ``submission/`` too) or a zip, by the rule of docs/instructor.md section 2: loose files up to
    three folders down win; else the one zip directly in the folder is unpacked under ``scratch`` and searched the
    same way, and so is a zip in that zip (:data:`MAX_NESTED_ZIPS`); all of them share one :class:`_Budget`.

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


#: Most bytes (UTF-8) of a submission's name: with `` (2)`` added it stays a valid file name (at most 255
#: bytes on Linux, macOS and Windows), since Gradescope's output for many is ``FOLDER/<name>/results.json``.
MAX_NAME_BYTES = 200
#: How many folders down a class folder is searched for submissions (sections of sections ...).
MAX_GROUP_DEPTH = 4


def _clip(name: str) -> str:
    """``name`` on one line (control characters and line breaks written as escapes, ``\\n``), cut to at most
    :data:`MAX_NAME_BYTES` bytes of UTF-8 (whole characters; bytes of a file name that are not UTF-8 are dropped),
    and never empty, ``.`` or ``..`` (``submission`` instead): a folder's name."""
    name = "".join(c if c.isprintable() or "\ud800" <= c <= "\udfff" else repr(c)[1:-1] for c in name)
    clipped = name.encode("utf-8", errors="surrogateescape")[:MAX_NAME_BYTES].decode("utf-8", errors="ignore")
    return clipped if clipped not in ("", ".", "..") else "submission"


def _unique_names(submissions: list[Submission]) -> list[Submission]:
    """Give every submission a name no other has (ignoring case): a zip named like a folder keeps its ``.zip``
    (``sam`` and ``Sam.zip``), and a name still taken gets `` (2)``, `` (3)`` ... in the
    order given; a name is made one line and cut to :data:`MAX_NAME_BYTES` first (:func:`_clip`)."""
    zipped = [s.source is not None and _is_zip(s.source) for s in submissions]
    folders = {s.name.casefold() for s, z in zip(submissions, zipped, strict=True) if not z}
    taken: set[str] = set()
    unique = []
    for submission, is_zip in zip(submissions, zipped, strict=True):
        base = submission.name
        if is_zip and base.casefold() in folders and submission.source is not None:
            base = base.removesuffix(submission.source.stem) + submission.source.name
        name, count = _clip(base), 1
        while name.casefold() in taken:
            count += 1
            name = f"{_clip(base)} ({count})"
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


def _entries(folder: Path) -> list[Path]:
    """What ``folder`` holds that may be a submission (not hidden, not ``__pycache__``), sorted; none if
    unreadable."""
    try:
        return sorted((c for c in folder.iterdir() if not c.name.startswith((".", "__"))),
                      key=lambda c: (c.name.casefold(), c.name))
    except OSError:
        return []


def _group(folder: Path, depth: int) -> list[Path] | None:
    """The members (zips, folders that hold a submission) of ``folder`` if it is a group (a section), else None:
    a folder with two members or more, or one that is a group, except that loose files win (``sam/project/``
    beside ``sam/old.zip`` is Sam's project); docs/instructor.md section 2 gives the rule."""
    if depth > MAX_GROUP_DEPTH or (folder / "blackjack" / "__init__.py").is_file():
        return None
    entries = [c for c in _entries(folder) if not c.is_symlink()]
    members = [c for c in entries if (_is_zip(c) and c.is_file()) or (c.is_dir() and holds_submission(c, depth + 1))]
    groups = [c for c in members if c.is_dir() and _group(c, depth + 1) is not None]
    loose = [c for c in members if c.is_dir() and _package_root(c) is not None]
    if groups or len(loose) > 1 or (not loose and len(members) > 1):
        return members
    return None


def holds_submission(folder: Path, depth: int = 0) -> bool:
    """``folder`` holds ``blackjack/__init__.py`` or a zip, at most :data:`MAX_GROUP_DEPTH` folders down (``depth``:
    how far down ``folder`` already is)."""
    if depth > MAX_GROUP_DEPTH:
        return False
    entries = [c for c in _entries(folder) if not c.is_symlink()]
    return ((folder / "blackjack" / "__init__.py").is_file() or any(_is_zip(c) and c.is_file() for c in entries)
            or any(c.is_dir() and holds_submission(c, depth + 1) for c in entries))


def find_submissions(paths: list[Path], scratch: Path, *, single: bool = False) -> list[Submission]:
    """Turn command-line paths into submissions, by the rules of docs/instructor.md section 2.

    A path may be a submission folder (holding ``blackjack/``, possibly a few folders down), a ``.zip`` of one,
    or a class folder: every zip and every folder in it that holds a submission is one student, a folder holding
    several a section (up to :data:`MAX_GROUP_DEPTH` folders down, its students named ``sec1/sam``), anything
    else (a ``.rar``, an empty folder, a symbolic link) an ungradable submission with a note. Each project is
    found by :func:`_find_project`, each zip unpacked under ``scratch`` within bounds (a zip refused is a
    one-line note, never an exception); names are made one line, safe and told apart (:func:`_unique_names`).

    Args:
        paths: the paths given.
        scratch: a folder to unzip into.
        single: every path is one student's submission, never a class folder
            (Gradescope's ``/autograder/submission``, where an upload may hold
            ``project/blackjack/`` next to other folders, or a ``.zip`` kept unextracted).

    Returns:
        Submissions in the order given (a class folder: sorted by path); one that holds no ``blackjack`` package
        (or a folder given that holds no submission at all, :func:`holds_submission`, which the command line
        refuses before this) comes back with ``folder=None`` and a note.
    """
    found: list[Submission] = []

    def one(path: Path, name: str, given: bool = True) -> Submission:
        if not given and path.is_symlink():  # in a class folder: it may lead to another student's work
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

    def group(folder: Path, prefix: str, depth: int) -> None:
        entries = _entries(folder)
        sections = any(c.is_dir() and not c.is_symlink() and _group(c, depth + 1) is not None for c in entries)
        for child in entries:
            name = prefix + _label(child)
            if (not child.is_symlink() and child.is_dir() and holds_submission(child, depth + 1)
                    and (sections or _group(child, depth + 1) is not None)
                    and not (child / "blackjack" / "__init__.py").is_file()):
                group(child, name + "/", depth + 1)
            else:
                found.append(one(child, name, given=False))

    for path in paths:
        if not path.exists():
            found.append(Submission(_label(path), None, f"{path} does not exist", path))
        elif single or not path.is_dir() or (path / "blackjack" / "__init__.py").is_file():
            found.append(one(path, _label(path)))
        elif holds_submission(path):
            group(path, "", 0)
        else:
            found.append(one(path, _label(path)))
    return _unique_names(found)
