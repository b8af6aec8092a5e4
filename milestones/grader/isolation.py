"""A submission's graded run, isolated: the judge apart from the student's process, private copies, least privilege.

Each run (:func:`run_isolated`) works in a new private folder outside the submission:

* ``judge``: the judge's copy of the milestone's tests. The visible run's copy has no hidden tests
  (:func:`milestones.grader.hidden.strip_hidden`); the hidden tests run afterwards from a copy of their own,
  whose student process's output is never shown. As root, only root can read it;
* ``student``: what the student's process may read besides the system's and Python's folders
  (:func:`read_rules`): a copy of the grading package (never the reference packages), the suite's
  ``observe*.py`` and the mirrors of ``site-packages`` without the kit (:func:`site_mirrors`);
* ``sub`` (the submission's copy, the student's process's working folder) and ``tmp`` (its ``$TMPDIR``,
  ``$HOME`` and ``output.txt``): the only folders it may write to (Landlock, :mod:`milestones.grader._sandbox`),
  on a private ``tmpfs`` of :func:`space_mb` MiB where a mount namespace is allowed; as root, both ``0700`` and
  owned by the run's sandbox user (``bjgrade<slot>``), every process of whom is killed when a student process
  and the run end;
* ``judge-tmp``: the judge's ``$TMPDIR``.

Every file under ``judge`` and ``student`` is hashed before and after the run: a difference marks the run
tampered. The protections unavailable here (:func:`unprotected`) are recorded on
:attr:`milestones.grader.runner.RunResult.unprotected`; what each one prevents: docs/instructor.md section 7.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import shutil
import signal
import site
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import REPO_ROOT
from ._sandbox import NAMESPACES, STAGING_ENV, landlock_abi, proc_statuses
from ..config import ISOLATED_ENV, OBSERVATIONS_PREFIX, SITE_MIRRORS_ENV, mirror_name
from .hidden import HiddenStripError, strip_hidden
from ..regions import FUNCTIONS_FILE, PACKAGES, functions_json
from .xvfb import NoDisplay, xvfb
from .runner import (GraderError, Limits, RunResult, checked_paths, execute, judge_command, judge_env, sandbox_limits,
                     started)

__all__ = ["MAX_COPIED_FILES", "MAX_COPIED_MB", "MAX_SOURCE_BYTES", "SANDBOX_USER_PREFIX", "SubmissionRefused",
           "copy_submission", "digest", "kill_user", "namespaces", "run_isolated", "sandbox_user", "space_mb",
           "unprotected"]

#: The sandbox users are this prefix and a slot number: ``bjgrade0``, ``bjgrade1`` ...
SANDBOX_USER_PREFIX = "bjgrade"
_SLOTS = 64
#: The kit's ``milestones`` package, which the student's process gets a copy of.
_PACKAGE = Path(__file__).resolve().parents[1]
#: Environment variables the child keeps from the grader's (everything else, tokens included, stays out).
_KEPT_ENV = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "CI", "SYSTEMROOT")
#: Folders of a submission never copied.
_JUNK = shutil.ignore_patterns(".git", ".hg", ".svn", "__pycache__", "*.pyc", ".venv", "venv", "node_modules",
                               ".mypy_cache", ".pytest_cache", ".hypothesis")
_useradd_lock = threading.Lock()

if TYPE_CHECKING:
    import pwd


def digest(folder: Path) -> dict[str, str]:
    """``relative path -> SHA-256`` of every file under ``folder`` (symbolic links by their target's name),
    except Python's and pytest's caches (``__pycache__``, ``*.pyc``, ``.pytest_cache``)."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if "__pycache__" in relative.parts or path.suffix == ".pyc" or relative.parts[0] == ".pytest_cache":
            continue  # written by Python and pytest themselves, not the tests
        name = relative.as_posix()
        if path.is_symlink():
            found[name] = "link:" + os.readlink(path)
        elif path.is_file():
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _changed(before: dict[str, str], after: dict[str, str]) -> str:
    """The first file that differs between two digests, in words ("" if none)."""
    for name in sorted(before.keys() | after.keys()):
        if name not in after:
            return f"{name} was deleted"
        if name not in before:
            return f"{name} was added"
        if before[name] != after[name]:
            return f"{name} was changed"
    return ""


def is_root() -> bool:
    """The grader runs as root (POSIX): student code must then run as a sandbox user."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def sandbox_user(slot: int) -> pwd.struct_passwd:
    """The sandbox user of ``slot`` (``bjgrade<slot>``), created as a system user without a home or a shell.

    Raises:
        GraderError: the user does not exist and ``useradd`` cannot make it.
    """
    import pwd  # POSIX only, like the root mode

    name = f"{SANDBOX_USER_PREFIX}{slot}"
    with _useradd_lock:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            pass
        useradd = shutil.which("useradd") or "/usr/sbin/useradd"
        shell = "/usr/sbin/nologin" if Path("/usr/sbin/nologin").exists() else "/bin/false"
        why = ""
        try:
            done = subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent",
                                   "--shell", shell, "--user-group", name],
                                  capture_output=True, text=True, timeout=60, check=False)
            why = done.stderr.strip() or str(done.returncode)
            entry = pwd.getpwnam(name)
        except (OSError, KeyError) as err:
            raise GraderError(f"grading as root runs student code as the user {name}, and useradd cannot "
                              f"create it: {why or err}") from None
    if entry.pw_uid == 0 or entry.pw_gid == 0:
        raise GraderError(f"the sandbox user {name} has uid or gid 0; delete it so it is made again")
    return entry


@contextmanager
def _user_slot() -> Iterator[pwd.struct_passwd]:
    """A sandbox user no other run (of this grader or another one on the machine) uses now."""
    import fcntl  # POSIX only, like the root mode

    folder = next((p for p in (Path("/run/lock"), Path("/run")) if p.is_dir()), Path(tempfile.gettempdir()))
    for slot in range(_SLOTS):
        lock = open(folder / f"milestones-{SANDBOX_USER_PREFIX}{slot}.lock", "a+b")  # noqa: SIM115
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        try:
            entry = sandbox_user(slot)
            kill_user(entry.pw_uid)  # nothing of an earlier, interrupted run
            yield entry
        finally:
            lock.close()
        return
    raise GraderError(f"all {_SLOTS} sandbox users are busy")


def _user_processes(uid: int, proc: str = "/proc") -> list[int]:
    """The live (not zombie) processes whose real, effective or saved uid is ``uid``."""
    return [pid for pid, fields in proc_statuses(proc)
            if str(uid) in fields.get("Uid", "").split()[:3] and not fields.get("State", "").strip().startswith("Z")]


def kill_user(uid: int) -> int:
    """SIGKILL every process of ``uid`` (root only; Linux ``/proc``) until none is left; return how many rounds.

    Each round stops them all first (a stopped process cannot fork) and then kills them, so a
    fork loop cannot outrun it; ``RLIMIT_NPROC`` bounds how many there can be.
    """
    rounds = 0
    for rounds in range(1, 101):
        pids = _user_processes(uid)
        if not pids:
            return rounds - 1
        for number in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                with suppress(OSError):
                    os.kill(pid, number)
        time.sleep(0.01 * min(rounds, 10))
    return rounds


@functools.cache
def namespaces() -> frozenset[str]:
    """The namespaces (:data:`milestones.grader._sandbox.NAMESPACES`) a supervisor started by this grader may take:
    ``python milestones/grader/_sandbox.py --probe`` in a process of its own, once per grader process.
    Empty where it cannot run (not Linux) or fails."""
    if os.name != "posix":
        return frozenset()
    try:
        sandbox = str(Path(__file__).with_name("_sandbox.py"))
        done = subprocess.run([sys.executable, "-P", "-s", "-B", sandbox, "--probe"],
                              capture_output=True, text=True, timeout=60, check=False)
        names = json.loads(done.stdout) if done.returncode == 0 else []
    except (OSError, ValueError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(n for n in names if n in NAMESPACES) if isinstance(names, list) else frozenset()


def unprotected(root: bool) -> list[str]:
    """The protections of :data:`milestones.grader._sandbox.PROTECTIONS` a graded run goes without here, by short name:
    ``sandbox-user`` when the grader is not ``root``, ``landlock`` without Linux Landlock (not root,
    ``landlock-scopes`` before its ABI 6), each namespace the kernel refuses (:func:`namespaces`), everything
    but the sandbox user where the sandbox cannot run (Windows)."""
    if os.name != "posix":
        return ["rlimits", "sandbox-user", "landlock", *NAMESPACES]
    missing = [] if root else ["sandbox-user"]
    abi = landlock_abi()
    if abi < 1 or (abi < 6 and not root):  # as root, its own user may signal no process of another
        missing.append("landlock" if abi < 1 else "landlock-scopes")
    found = namespaces()
    return missing + [name for name in NAMESPACES if name not in found]


def space_mb(limits: Limits) -> int:
    """The MiB a run may write in its folders (the private ``tmpfs`` of :mod:`milestones.grader._sandbox`'s
    ``--space``): four of its largest files (``Limits.file_mb``), at least 16."""
    return max(4 * limits.file_mb, 16)


@functools.cache
def _functions_json() -> str:
    """The student's and the engine's functions (:data:`FUNCTIONS_FILE`), for a kit copy without the reference."""
    listed = _PACKAGE / FUNCTIONS_FILE
    return listed.read_text(encoding="utf-8") if listed.is_file() else functions_json(REPO_ROOT)


def _copy_suite(folder: Path, target_root: Path, visible: bool) -> Path:
    """Copy the suite root's files and the milestone ``folder`` under ``target_root``; strip hidden tests if
    ``visible``. Return the copied milestone folder."""
    target_root.mkdir(parents=True, exist_ok=True)
    for item in folder.parent.iterdir():
        if item.is_file() and not item.name.startswith("."):
            shutil.copy2(item, target_root / item.name)
    target = target_root / folder.name
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if "__pycache__" in relative.parts or any(p.startswith(".") for p in relative.parts):
            continue
        destination = target / relative
        if path.is_dir():
            destination.mkdir(parents=True, exist_ok=True)
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        if visible and path.suffix == ".py":
            try:
                public, _removed = strip_hidden(path.read_text(encoding="utf-8"), str(relative))
            except (HiddenStripError, SyntaxError, UnicodeDecodeError) as err:
                raise GraderError(f"cannot take the hidden tests out of {path}: {err}") from None
            if public is not None:
                destination.write_text(public, encoding="utf-8")
        else:
            shutil.copy2(path, destination)
    target.mkdir(parents=True, exist_ok=True)
    return target


def has_hidden(folder: Path) -> bool:
    """The suite in ``folder`` holds at least one hidden test (or hidden case)."""
    for path in folder.rglob("*.py"):
        try:
            if strip_hidden(path.read_text(encoding="utf-8"), path.name)[1]:
                return True
        except (HiddenStripError, SyntaxError, UnicodeDecodeError, OSError):
            return True  # cannot tell: keep the hidden run (and its own errors) apart
    return False


def _interpreter_folders() -> list[str]:
    """The folders the child's Python needs: its prefixes and the site-packages on this ``sys.path``."""
    found = []
    for path in [sys.base_prefix, sys.prefix, sys.exec_prefix,
                 *(p for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages")))]:
        real = os.path.realpath(path)
        if os.path.isdir(real) and real not in found:
            found.append(real)
    return [f for f in found if not any(f != o and f.startswith(o + os.sep) for o in found)]


def _kit_entry(name: str) -> bool:
    """An entry of ``site-packages`` that is the kit or leads to it: its packages, its ``dist-info``, a ``.pth``
    file (an editable install's path), an editable install's finder."""
    return (name in PACKAGES or name == "milestones" or name.endswith(".pth") or name.startswith("__editable__")
            or name.lower().startswith("blackjack_kit"))


def _kit_sites() -> list[Path]:
    """Each ``site-packages`` of this interpreter that holds an entry of the kit (:func:`_kit_entry`)."""
    folders = {Path(p).resolve() for p in [*site.getsitepackages(), *sys.path]
               if p.rstrip("/").endswith(("site-packages", "dist-packages"))}
    return sorted(f for f in folders if f.is_dir() and any(_kit_entry(e.name) for e in f.iterdir()))


def site_mirrors(into: Path) -> None:
    """Mirror under ``into`` each ``site-packages`` of this interpreter that holds the kit (:func:`_kit_sites`):
    a folder of symbolic links to everything in it but the kit's entries (:func:`_kit_entry`), named
    :func:`~milestones.config.mirror_name`, which the observer puts on the isolated run's ``sys.path`` in its
    place, so pytest and the rest stay importable and the installed reference does not."""
    for folder in _kit_sites():
        mirror = into / mirror_name(folder)
        mirror.mkdir(parents=True, exist_ok=True)
        for entry in folder.iterdir():
            if not _kit_entry(entry.name):
                (mirror / entry.name).symlink_to(entry)


#: Folders of the system the student's process may read (Landlock), beside its Python and its run's folders.
_SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/dev", "/proc", "/sys",
           "/var/cache/fontconfig", "/tmp/.X11-unix")


def _reachable(folder: Path, hidden: frozenset[Path]) -> tuple[list[str], list[str]]:
    """``(readable, listable)``: the paths under ``folder`` the student's process may read, all but ``hidden``
    and what they hold, and the folders on the way to a hidden one, which it may only list."""
    if folder in hidden or not folder.exists():
        return [], []
    if not any(folder in h.parents for h in hidden):
        return [str(folder)], []
    readable, listable = [], [str(folder)]
    for child in sorted(folder.iterdir()):
        more, listed = _reachable(child, hidden)
        readable += more
        listable += listed
    return readable, listable


@functools.cache
def read_rules(tests: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(readable, listable)`` for the student's process's Landlock (:func:`milestones.grader._sandbox.confine`):
    the system's folders and its Python's, without the kit (its packages wherever they are, its entries in
    ``site-packages``) and the milestone suites in ``tests``."""
    hidden = {e.resolve() for site_folder in _kit_sites() for e in site_folder.iterdir() if _kit_entry(e.name)}
    hidden |= {(_PACKAGE.parent / name).resolve() for name in (*PACKAGES, "milestones")} | {tests.resolve()}
    readable: list[str] = []
    listable: list[str] = []
    venv = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))  # its pyvenv.cfg
    for root in [*_SYSTEM, venv, *_interpreter_folders(), *filter(None, [os.environ.get("XAUTHORITY")])]:
        more, listed = _reachable(Path(os.path.realpath(root)), frozenset(hidden))
        readable += [p for p in more if p not in readable]
        listable += [p for p in listed if p not in listable]
    return tuple(readable), tuple(listable)


def _chown_tree(folder: Path, uid: int, gid: int) -> None:
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, uid, gid)


def _open_up(folder: Path) -> None:
    """Make ``folder`` readable (not writable) by every user: folders 755, files 644 (or 755 when executable)."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        path.chmod(0o755 if path.is_dir() or mode & 0o111 else 0o644)


class SubmissionRefused(Exception):
    """A submission whose files are not copied: its one-line message names the file and says why.

    Raised by :func:`copy_submission`; the grader gives that submission a 0 with the message as
    the reason, and the batch goes on.
    """


#: Most files and folders a submission's copy may hold, and most megabytes all its files together: the
#: bounds of an unpacked zip (:data:`milestones.grader.grading.MAX_ZIP_ENTRIES`, ``MAX_UNZIPPED_MB``); a project
#: is well under 1 MB and 200 files, and a sparse or endless file never fills the disk.
MAX_COPIED_FILES = 5000
MAX_COPIED_MB = 50
#: Most bytes one ``.py`` file of a submission may hold (1 MiB). The whole reference engine is about
#: 200 kB of Python; a bigger source file is a way to make a parser or the grader run out of memory.
MAX_SOURCE_BYTES = 1024 * 1024
_MB = 1024 * 1024
_CHUNK = 64 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: Walk folders by descriptor (``openat``): a folder swapped for a link during the copy is still never followed.
_BY_DESCRIPTOR = (os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd and os.scandir in os.supports_fd
                  and bool(_NOFOLLOW) and hasattr(os, "O_DIRECTORY"))


#: What a file that is neither a folder nor a regular file is, in words, by the ``stat`` test that tells.
_KINDS = ((stat.S_ISLNK, "a symbolic link; hand in the file or folder itself, not a link"),
          (stat.S_ISFIFO, "a named pipe, not a regular file"), (stat.S_ISSOCK, "a socket, not a regular file"),
          (stat.S_ISCHR, "a device, not a regular file"), (stat.S_ISBLK, "a device, not a regular file"))


def _kind(mode: int) -> str:
    """What a file of ``mode`` that is neither a folder nor a regular file is, in words (:data:`_KINDS`)."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


@dataclass
class _CopyBudget:
    """What a submission's copy may still take: files and folders, and bytes."""

    entries: int = field(default_factory=lambda: MAX_COPIED_FILES)
    size: int = field(default_factory=lambda: MAX_COPIED_MB * _MB)


def copy_submission(source: Path, target: Path, *, label: str = "") -> None:
    """Copy the submission folder ``source`` to the new folder ``target``, never following a link.

    A symbolic link (a project needs none), a named pipe, a socket, a device and a hard link (which may be a
    file the student cannot read, such as ``/etc/shadow``) is refused by name; a regular file is checked again
    once open, and copied in chunks within :data:`MAX_COPIED_MB`, :data:`MAX_COPIED_FILES` and, for a ``.py``
    file, :data:`MAX_SOURCE_BYTES`. Caches, version control and virtualenv folders are left out (``_JUNK``).
    The copies are private to the grader's user (folders 700, files 600, or 700 when executable).

    Args:
        source: the submission's folder (itself not a link).
        target: the folder to make (it must not exist).
        label: put before each name in a refusal (``blackjack`` when copying one package).

    Raises:
        SubmissionRefused: one line naming the first file refused and why.
        OSError: a file cannot be read or written for another reason.
    """
    budget = _CopyBudget()
    name = label or source.name
    try:
        mode = os.lstat(source).st_mode
    except FileNotFoundError:
        raise SubmissionRefused(f"{name!r} does not exist") from None
    if not stat.S_ISDIR(mode):
        raise SubmissionRefused(f"{name!r} is {_kind(mode) if not stat.S_ISREG(mode) else 'a file, not a folder'}")
    with _folder(str(source), None, name) as top:
        _copy_folder(top, target, label, budget)


@contextmanager
def _folder(path: str, at: int | None, shown: str) -> Iterator[int | str]:
    """The folder ``path`` (in the folder open as ``at``) for :func:`_copy_folder`: where folders are walked by
    descriptor, opened without following a link (a link is refused); elsewhere its path."""
    if not _BY_DESCRIPTOR:
        yield path
        return
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=at)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENOTDIR):
            raise SubmissionRefused(f"{shown!r} is not a folder any more (a symbolic link?)") from None
        raise
    try:
        yield descriptor
    finally:
        os.close(descriptor)


def _copy_folder(folder: int | str, target: Path, relative: str, budget: _CopyBudget) -> None:
    """Copy the entries of ``folder`` (an open folder's descriptor, or a path where there are none) to
    ``target``; ``relative`` is its name in refusals."""
    target.mkdir(mode=0o700)
    with os.scandir(folder) as entries:
        names = sorted(entry.name for entry in entries)
    skipped = _JUNK("", names)
    for name in names:
        if name in skipped:
            continue
        shown = f"{relative}/{name}" if relative else name
        if budget.entries <= 0:
            raise SubmissionRefused(f"it holds more than {MAX_COPIED_FILES} files and folders "
                                    f"(leave out virtualenvs and data)")
        budget.entries -= 1
        path, at = (name, folder) if isinstance(folder, int) else (os.path.join(folder, name), None)
        mode = os.stat(path, dir_fd=at, follow_symlinks=False).st_mode
        if stat.S_ISDIR(mode):
            with _folder(path, at, shown) as inner:
                _copy_folder(inner, target / name, shown, budget)
        elif stat.S_ISREG(mode):
            _copy_file(path, at, target / name, shown, budget)
        else:
            raise SubmissionRefused(f"{shown!r} is {_kind(mode)}")


def _copy_file(path: str, at: int | None, target: Path, shown: str, budget: _CopyBudget) -> None:
    """Copy the regular file ``path`` (in the folder open as ``at``): opened without following a link or
    blocking, checked again once open (a regular file with one name), and within the budget."""
    flags = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags, dir_fd=at)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise SubmissionRefused(f"{shown!r} is {_kind(stat.S_IFLNK)}") from None
        raise
    with os.fdopen(fd, "rb") as source:
        status = os.fstat(source.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise SubmissionRefused(f"{shown!r} is {_kind(status.st_mode)}")
        if status.st_nlink > 1:
            raise SubmissionRefused(f"{shown!r} is a hard link (one file under {status.st_nlink} names, maybe one "
                                    f"outside the submission); hand in a copy of the file")
        limit = min(MAX_SOURCE_BYTES, budget.size) if path.endswith(".py") else budget.size
        if status.st_size > limit:
            raise SubmissionRefused(_too_big(shown, status.st_size))
        mode = 0o700 if status.st_mode & stat.S_IXUSR else 0o600
        created = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0), mode)
        with os.fdopen(created, "wb") as out:  # a new file: never through a link
            written = 0
            while chunk := source.read(_CHUNK):
                written += len(chunk)
                if written > limit:  # it grew while copied
                    raise SubmissionRefused(_too_big(shown, written))
                out.write(chunk)
        budget.size -= written


def _too_big(shown: str, size: int) -> str:
    """Why the file ``shown`` is refused at ``size`` bytes: over the ``.py`` bound, or over the whole copy's."""
    if shown.endswith(".py") and size > MAX_SOURCE_BYTES:
        return (f"{shown!r} holds {size} bytes, more than the {MAX_SOURCE_BYTES} a Python file of a project may "
                f"hold")
    return f"the submission holds more than {MAX_COPIED_MB} MB (at {shown!r}); leave out virtualenvs and data"


def _student_kit(kit: Path, milestone: Path) -> Path:
    """Fill ``kit`` with what the student's process reads: the grading package and the milestone's observation
    modules (in ``kit/observe``); return that folder."""
    def ignore(where: str, names: list[str]) -> set[str]:  # never the suites an installed kit holds
        dropped = {n for n in names if n == "__pycache__" or n.endswith((".pyc", ".pyo")) or n.startswith(".")}
        return dropped | ({"suites"} if Path(where) == _PACKAGE else set())

    shutil.copytree(_PACKAGE, kit / "milestones", ignore=ignore)
    (kit / "milestones" / FUNCTIONS_FILE).write_text(_functions_json(), encoding="utf-8")
    observe = kit / "observe"
    observe.mkdir()
    for path in sorted(milestone.glob(f"{OBSERVATIONS_PREFIX}*.py")):
        shutil.copy2(path, observe / path.name)
    return observe


def _grading_files(kit: Path, judge: Path) -> dict[str, str]:
    """The digest of a run's grading files: the student's kit and (under ``judge/``) the judge's copy."""
    return {**digest(kit), **{f"judge/{name}": sha for name, sha in digest(judge).items()}}


def _one_run(folder: Path, impl: Path, limits: Limits, *, part: str) -> RunResult:
    """One run of an isolated grading: ``part`` is ``"visible"`` (hidden tests stripped, ``-m "not hidden"``),
    ``"hidden"`` (``-m hidden``) or ``"all"`` (a suite with no hidden tests)."""
    result = RunResult()
    root = is_root()
    with tempfile.TemporaryDirectory(prefix="bj-grade-") as temporary:
        work = Path(temporary)
        judge, kit, sub, tmp, staging = work / "judge", work / "student", work / "sub", work / "tmp", work / "mnt"
        judge.mkdir(mode=0o700)
        # the judge's own settings (-c), so a pytest.ini or conftest.py a student process leaves in a shared
        # folder above the run (/tmp without Landlock) is never read
        (judge / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        milestone = _copy_suite(folder, judge / folder.parent.name, visible=part == "visible")
        observe = _student_kit(kit, milestone)
        copy_submission(impl, sub)
        sub.chmod(0o700)  # with the run's user as owner (root): no other run's user can list or read it
        tmp.mkdir(mode=0o700)
        staging.mkdir(mode=0o711)
        (work / "output.txt").touch(mode=0o600)  # the judge's output names the tests (hidden ones too)
        result.unprotected = unprotected(root)
        site_mirrors(kit / "site")
        before = _grading_files(kit, judge)
        env = {k: os.environ[k] for k in _KEPT_ENV if k in os.environ}
        if not root:
            env.update({k: os.environ[k] for k in ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY") if k in os.environ})
        env.update({"HOME": str(tmp), "TMPDIR": str(tmp), "PYTHONPATH": str(kit), "PYTHONDONTWRITEBYTECODE": "1",
                    "PYTHONHASHSEED": "0", "PYTHONNOUSERSITE": "1", ISOLATED_ENV: "1",
                    SITE_MIRRORS_ENV: str(kit / "site"), STAGING_ENV: str(staging)})
        observer = [sys.executable, "-P", "-s", "-B", "-m", "milestones.grader.observer", "--impl", str(sub),
                    "--isolated"]
        readable, listable = read_rules(folder.parent)
        sandbox = [sys.executable, "-P", "-s", "-B", str(kit / "milestones" / "grader" / "_sandbox.py"),
                   *sandbox_limits(limits), "--write", str(sub), "--write", str(tmp), "--read", str(kit),
                   *_options("--read", readable), *_options("--list", listable), "--output", str(tmp / "output.txt")]
        if limits.file_mb:  # where a private mount namespace is allowed: what the run writes, in MiB
            sandbox += ["--space", str(space_mb(limits))]
        judge_args = [*judge_command([str(milestone)], milestone.parent.parent, limits, "-P", "-B"),
                      "-c", str(judge / "pytest.ini"), "--student-spec", str(work / "student.json")]
        if part != "all":
            judge_args += ["-m", "hidden" if part == "hidden" else "not hidden"]
        with _user_slot() if root else nullcontext() as user, _display(needs_display(folder)) as display:
            if display is not None:
                env["DISPLAY"] = display
            after: Callable[[], object] | None = None
            uid = None
            if user is not None:
                work.chmod(0o711)
                _open_up(kit)
                _chown_tree(sub, user.pw_uid, user.pw_gid)
                _chown_tree(tmp, user.pw_uid, user.pw_gid)
                sandbox += ["--user", user.pw_name, *_options("--expose", _interpreter_folders())]
                uid = user.pw_uid
                after = functools.partial(kill_user, uid)
            command = [*sandbox, "--", *observer] if os.name == "posix" else observer
            spec = {"command": command, "env": env, "cwd": str(sub), "observations": str(observe), "user_uid": uid}
            spec_file = work / "student.json"
            spec_file.write_text(json.dumps(spec), encoding="utf-8")
            spec_file.chmod(0o600)
            judge_tmp = work / "judge-tmp"  # the judge's own temporary files, out of every other run's reach
            judge_tmp.mkdir(mode=0o700)
            judge_environment = {**judge_env(), "TMPDIR": str(judge_tmp)} if os.name == "posix" else judge_env()
            execute(judge_args, cwd=judge, env=judge_environment, limits=limits, result=result,
                    output_file=work / "output.txt", after=after)
        if not result.tampered:
            changed = _changed(before, _grading_files(kit, judge))
            if changed:
                result.tampered = f"the grading files changed during the run: {changed}"
    return started(result)


def _options(name: str, values: Iterable[str]) -> list[str]:
    """``[name, value]`` for each of ``values``, as one list of arguments."""
    return [item for value in values for item in (name, value)]


def needs_display(folder: Path) -> bool:
    """The suite in ``folder`` opens Tk windows: a module of it (or its ``conftest.py``) uses tkinter or ``gui``."""
    words = ("import tkinter", "from tkinter", "from gui", "import gui")
    return any(any(w in p.read_text(encoding="utf-8", errors="replace") for w in words)
               for p in sorted(folder.rglob("*.py")))


@contextmanager
def _display(wanted: bool) -> Iterator[str | None]:
    """An X display for a run that opens windows: a private ``Xvfb`` the grader starts (outside the run's
    confinement, which would refuse its files in ``/tmp``) and stops afterwards; ``None`` when not
    ``wanted``, when ``$DISPLAY`` is set (and usable by the run), or without Xvfb."""
    if not wanted or (os.environ.get("DISPLAY") and not is_root()):
        yield None
        return
    with ExitStack() as stack:
        try:
            name: str | None = stack.enter_context(xvfb())
        except NoDisplay:
            name = None
        yield name


def run_isolated(folder: Path, impl: Path, *, limits: Limits = Limits(), hidden: bool = True) -> RunResult:
    """Grade the submission in ``impl`` on the suite in ``folder``, isolated (see the module docstring).

    The visible tests run first, from a copy without the hidden tests; then, if ``hidden``
    and the suite has hidden tests, the hidden tests alone in a second process. The
    returned result holds both runs' tests and results; the second run is also kept as
    :attr:`RunResult.hidden_run` (its output and stop reason are not for the student), and a
    run tampered with in either process marks the whole result tampered.

    Raises:
        GraderError: ``folder`` or ``impl`` is missing, the grader cannot run (see
            :func:`milestones.grader.runner.run_suite`), or as root, the sandbox user cannot be made.
    """
    folder, checked = checked_paths(folder, impl)
    assert checked is not None
    impl = checked
    split = hidden and has_hidden(folder)
    visible = _one_run(folder, impl, limits, part="visible" if split or not hidden else "all")
    if not split:
        return visible
    secret = _one_run(folder, impl, limits, part="hidden")
    visible.hidden_run = secret
    visible.unprotected = [*visible.unprotected, *(n for n in secret.unprotected if n not in visible.unprotected)]
    visible.collected.update(secret.collected)
    visible.results.update(secret.results)
    if secret.tampered and not visible.tampered:  # its details may name a hidden test: not in the notes
        how = "a check test was reported wrongly" if "check test" in secret.tampered else "its results stream broke"
        visible.tampered = f"in the hidden tests' run, {how}: the results were forged inside the test process"
    return visible
