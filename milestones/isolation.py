"""A submission's graded run, isolated: fresh private copies, canaries, hashes, hidden tests apart, least privilege.

==================================  ====================================================
name                                what it is
==================================  ====================================================
``run_isolated(folder, impl, ...)``  grade one submission on one suite (what
                                     ``run_suite(..., isolate=True)`` does)
``SANDBOX_USER_PREFIX``              ``bjgrade``: the users (``bjgrade0`` ...) student code
                                     runs as when the grader is root
``sandbox_user(slot)``               that user's name, created with ``useradd`` if missing
``kill_user(uid)``                   kill every process of a user, until none is left
``digest(folder)``                   the SHA-256 of every file under a folder
==================================  ====================================================

Each run (:func:`run_isolated`) works in a new private folder outside the submission:

* ``kit/milestones``: a copy of the grading package (never the reference packages), the
  only path the child gets on ``PYTHONPATH``;
* ``kit/<suites>/milestoneN``: a copy of the milestone's tests and their ``conftest.py``.
  The run of the visible tests gets a copy **without the hidden tests** (stripped with
  :func:`milestones.hidden.strip_hidden`); the hidden tests run afterwards in a second
  process from a copy of their own, whose output is never shown;
* canaries: a few tests with random names and bodies, written into the copied modules,
  some that must fail and one that must pass. Code that makes pytest or the grading plugin
  report outcomes it did not get cannot tell them from the real tests in advance, and a
  canary reported wrongly marks the run tampered;
* ``sub``: a copy of the submission, the child's working folder, and ``tmp`` (``$TMPDIR``,
  ``$HOME``): the only folders the run may write to (Linux Landlock, see
  :mod:`milestones._sandbox`).

Every file under ``kit`` is hashed before and after the run: a difference marks the run
tampered. When the grader is root, the run's processes belong to a dedicated unprivileged
user (``bjgrade<slot>``, one per run at a time), who owns only ``sub`` and ``tmp``; when the
run ends, every process of that user is killed.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import random
import re
import secrets
import shutil
import signal
import site
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from gui.xvfb import NoDisplay, xvfb

from . import REPO_ROOT
from ._sandbox import STAGING_ENV, proc_statuses
from .config import ISOLATED_ENV, SITE_MIRRORS_ENV, mirror_name
from .hidden import HiddenStripError, strip_hidden
from .regions import FUNCTIONS_FILE, PACKAGES, functions_json
from .runner import GraderError, Limits, RunResult, _last_error, execute, sandbox_limits

__all__ = ["SANDBOX_USER_PREFIX", "digest", "kill_user", "run_isolated", "sandbox_user"]

#: The sandbox users are this prefix and a slot number: ``bjgrade0``, ``bjgrade1`` ...
SANDBOX_USER_PREFIX = "bjgrade"
_SLOTS = 64
_PACKAGE = Path(__file__).resolve().parent
#: Environment variables the child keeps from the grader's (everything else, tokens included, stays out).
_KEPT_ENV = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "CI", "SYSTEMROOT")
#: Folders of a submission never copied.
_JUNK = shutil.ignore_patterns(".git", ".hg", ".svn", "__pycache__", "*.pyc", ".venv", "venv", "node_modules",
                               ".mypy_cache", ".pytest_cache", ".hypothesis")
_TEST_NAME = re.compile(r"^def (test_\w+)\(", re.M)
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
        try:
            done = subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent",
                                   "--shell", shell, "--user-group", name],
                                  capture_output=True, text=True, timeout=60, check=False)
        except OSError as err:
            raise GraderError(f"grading as root runs student code as the user {name}, and useradd cannot "
                              f"create it: {err}") from None
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            raise GraderError(f"grading as root runs student code as the user {name}, and useradd cannot "
                              f"create it: {done.stderr.strip() or done.returncode}") from None
    if entry.pw_uid == 0 or entry.pw_gid == 0:
        raise GraderError(f"the sandbox user {name} has uid or gid 0; delete it so it is made again")
    return entry


@contextmanager
def _user_slot() -> Iterator[pwd.struct_passwd]:
    """A sandbox user no other run (of this grader or another one on the machine) uses now."""
    import fcntl  # POSIX only, like the root mode

    locks = Path("/run/lock") if Path("/run/lock").is_dir() else Path("/run") if Path("/run").is_dir() else None
    folder = locks or Path(tempfile.gettempdir())
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
                try:
                    os.kill(pid, number)
                except OSError:
                    pass
        time.sleep(0.01 * min(rounds, 10))
    return rounds


@functools.cache
def _functions_json() -> str:
    """The student's and the engine's functions (:data:`FUNCTIONS_FILE`), for a kit copy without the reference."""
    listed = _PACKAGE / FUNCTIONS_FILE
    return listed.read_text(encoding="utf-8") if listed.is_file() else functions_json(REPO_ROOT)


def _copy_kit(kit: Path, suite_root: Path) -> Path:
    """Copy the grading package into ``kit/milestones`` and return where the suite root goes under ``kit``."""
    suites_inside = suite_root.is_relative_to(_PACKAGE)
    skipped = suite_root.relative_to(_PACKAGE).parts[0] if suites_inside and suite_root != _PACKAGE else None

    def ignore(folder: str, names: list[str]) -> set[str]:
        dropped = {n for n in names if n == "__pycache__" or n.endswith((".pyc", ".pyo")) or n.startswith(".")}
        if skipped is not None and Path(folder) == _PACKAGE and skipped in names:
            dropped.add(skipped)
        return dropped

    shutil.copytree(_PACKAGE, kit / "milestones", ignore=ignore)
    (kit / "milestones" / FUNCTIONS_FILE).write_text(_functions_json(), encoding="utf-8")
    if suites_inside:
        return kit / "milestones" / suite_root.relative_to(_PACKAGE)
    return kit / suite_root.name


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


def _places(source: str) -> list[int]:
    """Where a canary may go in a test module: before each top-level test (its first decorator's line,
    0-based), and at the end. Nothing before the first test, where the imports and ``PART`` are."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    lines = source.count("\n") + (0 if source.endswith("\n") else 1)
    starts = [min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1 for node in tree.body
              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
              and node.name.lower().startswith("test")]
    return [*starts, lines] if starts else []


def plant_canaries(milestone: Path, rootdir: Path, *, hidden: bool, rng: random.Random | None = None,
                   failing: int = 2, passing: int = 1) -> dict[str, str]:
    """Put canary tests among the tests of the modules under ``milestone``; return ``node id -> outcome it must
    have``.

    Each canary is named from two to four words of the suite's own test names, worth a
    random whole number of points, asserts a random sum, right (must pass) or wrong (must
    fail), and goes before a random test of a random module (or at its end), so a canary
    can come first and code that stops forging at the first name it does not know loses
    the tests after it. In the hidden run they are marked hidden too. Modules that do not
    ``import pytest`` or hold no test are left alone; with none, there are no canaries.
    """
    rng = rng or random.Random(secrets.randbits(64))
    texts = {p: p.read_text(encoding="utf-8") for p in sorted(milestone.rglob("test_*.py"))}
    places = {p: _places(text) for p, text in texts.items() if "import pytest" in text}
    modules = [p for p, found in places.items() if found]
    if not modules:
        return {}
    words = sorted({w for p in modules for name in _TEST_NAME.findall(texts[p])
                    for w in name.split("_")[1:] if w.isalpha()} or {"total", "hand", "card"})
    expected: dict[str, str] = {}
    added: dict[Path, list[tuple[int, str]]] = {}
    for outcome in ["failed"] * failing + ["passed"] * passing:
        module = rng.choice(modules)
        name = ""
        while not name or f"def {name}(" in texts[module] or any(n.endswith(f"::{name}") for n in expected):
            name = "test_" + "_".join(rng.sample(words, min(rng.randrange(2, 5), len(words))))
            words = words if len(words) > 3 else [*words, rng.choice(["total", "hand", "card", "score"])]
        a, b = rng.randrange(2, 40), rng.randrange(2, 40)
        total = a + b if outcome == "passed" else a + b + rng.choice([-2, -1, 1, 2])
        marks = f"@pytest.mark.points({rng.randrange(1, 3)})\n" + ("@pytest.mark.hidden\n" if hidden else "")
        body = (f"{marks}def {name}():\n    \"\"\"{' '.join(name.split('_')[1:]).capitalize()}.\"\"\"\n"
                f"    got = sum([{a}, {b}])\n    assert got == {total}, f\"the total should be {total}; got {{got}}\"\n"
                f"\n\n")
        added.setdefault(module, []).append((rng.choice(places[module]), body))
        expected[f"{module.relative_to(rootdir).as_posix()}::{name}"] = outcome
    for module, bodies in added.items():
        lines = texts[module].splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        for line, body in sorted(bodies, key=lambda b: b[0], reverse=True):
            lines.insert(line, ("\n\n" if line >= len(lines) else "") + body)
        module.write_text("".join(lines), encoding="utf-8")
    return expected


def _check_canaries(result: RunResult, canaries: dict[str, str]) -> None:
    """Mark ``result`` tampered if a canary was reported with the opposite outcome (passed where it must fail,
    or failed where it must pass); then drop the canaries from the result."""
    opposite = {"failed": "passed", "passed": "failed"}
    for nodeid, expected in canaries.items():
        got = result.results.get(nodeid)  # skipped, an error in a fixture, not run: nothing to say
        wrong = got is not None and got[0] == opposite[expected] and "took longer than" not in got[1]
        if wrong and not result.tampered:
            assert got is not None
            result.tampered = (f"a check test the grader slipped in was reported {got[0]} where it must be "
                               f"{expected}: the results were forged inside the test process")
        result.collected.pop(nodeid, None)
        result.results.pop(nodeid, None)
        if nodeid in result.started:
            result.started.remove(nodeid)


def _interpreter_folders() -> list[str]:
    """The folders the child's Python needs: its prefixes and the site-packages on this ``sys.path``."""
    found = []
    for path in [sys.base_prefix, sys.prefix, sys.exec_prefix,
                 *(p for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages")))]:
        real = os.path.realpath(path)
        if os.path.isdir(real) and real not in found:
            found.append(real)
    return [f for f in found if not any(f != o and f.startswith(o + os.sep) for o in found)]


def site_mirrors(into: Path) -> None:
    """Mirror under ``into`` each ``site-packages`` of this interpreter that holds ``blackjack`` or ``gui``
    (the kit installed with pip): a folder of symbolic links to everything in it but those packages, named
    :func:`~milestones.config.mirror_name`, which the plugin puts on the isolated run's ``sys.path`` in its
    place, so pytest and the rest stay importable and the installed reference does not."""
    folders = {Path(p).resolve() for p in [*site.getsitepackages(), *sys.path]
               if p.rstrip("/").endswith(("site-packages", "dist-packages"))}
    for folder in sorted(folders):
        if not any((folder / package / "__init__.py").is_file() for package in PACKAGES):
            continue
        mirror = into / mirror_name(folder)
        mirror.mkdir(parents=True, exist_ok=True)
        for entry in folder.iterdir():
            if entry.name not in PACKAGES and entry.name != "milestones" and entry.suffix != ".pth":
                (mirror / entry.name).symlink_to(entry)


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


def _copy_regular(source: str, target: str) -> str:
    """``copytree``'s copy of one file of a submission: a regular file only (links are copied as links).

    A named pipe would block the copy for ever (the whole batch with it); a socket or a device
    is no part of a project.

    Raises:
        OSError: ``source`` is not a regular file; ``copytree`` gathers these into ``shutil.Error``.
    """
    if not stat.S_ISREG(os.lstat(source).st_mode):
        raise OSError(f"{Path(source).name!r} is not a regular file (a named pipe, socket or device)")
    return str(shutil.copy2(source, target))


def _one_run(folder: Path, impl: Path, limits: Limits, *, part: str) -> RunResult:
    """One process of an isolated run: ``part`` is ``"visible"`` (hidden tests stripped, ``-m "not hidden"``),
    ``"hidden"`` (``-m hidden``) or ``"all"`` (a suite with no hidden tests)."""
    result = RunResult()
    root = is_root()
    with tempfile.TemporaryDirectory(prefix="bj-grade-") as temporary:
        work = Path(temporary)
        kit, sub, tmp, staging = work / "kit", work / "sub", work / "tmp", work / "mnt"
        suite_root = _copy_kit(kit, folder.parent)
        milestone = _copy_suite(folder, suite_root, visible=part == "visible")
        rootdir = suite_root.parent
        canaries = plant_canaries(milestone, rootdir, hidden=part == "hidden")
        shutil.copytree(impl, sub, ignore=_JUNK, symlinks=True, copy_function=_copy_regular)
        tmp.mkdir()
        staging.mkdir()
        site_mirrors(kit / "site")
        before = digest(kit)
        # -P: the working folder (the submission's copy) is not put first on sys.path, where a pytest.py or
        # milestones/ of the submission would stand in for the real ones before any check is in place
        pytest_args = [sys.executable, "-P", "-s", "-B", "-m", "pytest", str(milestone), "-p", "no:cacheprovider", "-q",
                       "--tb=no", "--no-header", "--continue-on-collection-errors",
                       "-o", "console_output_style=classic", f"--rootdir={rootdir}",
                       "--test-timeout", str(limits.test_timeout), f"--impl={sub}"]
        if part != "all":
            pytest_args += ["-m", "hidden" if part == "hidden" else "not hidden"]
        env = {k: os.environ[k] for k in _KEPT_ENV if k in os.environ}
        if not root:
            env.update({k: os.environ[k] for k in ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY") if k in os.environ})
        env.update(HOME=str(tmp), TMPDIR=str(tmp), PYTHONPATH=str(kit), PYTHONDONTWRITEBYTECODE="1",
                   PYTHONHASHSEED="0", PYTHONNOUSERSITE="1")
        env[ISOLATED_ENV] = "1"
        env[SITE_MIRRORS_ENV] = str(kit / "site")
        env[STAGING_ENV] = str(staging)
        sandbox = [sys.executable, "-P", "-s", "-B", str(kit / "milestones" / "_sandbox.py"), *sandbox_limits(limits),
                   "--write", str(sub), "--write", str(tmp)]
        with _user_slot() if root else _no_user() as user, _display(needs_display(folder)) as display:
            if display is not None:
                env["DISPLAY"] = display
            after = None
            if user is not None:
                work.chmod(0o711)
                _open_up(kit)
                _chown_tree(sub, user.pw_uid, user.pw_gid)
                _chown_tree(tmp, user.pw_uid, user.pw_gid)
                sandbox += ["--user", user.pw_name]
                for path in _interpreter_folders():
                    sandbox += ["--expose", path]
                uid = user.pw_uid

                def after() -> None:
                    kill_user(uid)
            if os.name == "posix":
                execute([*sandbox, "--", *pytest_args], cwd=sub, env=env, limits=limits, result=result,
                        output_file=work / "output.txt", after=after)
            else:  # no sandbox, no pipe to pass (Windows): a results file, which the submission can find
                results = work / "results.jsonl"
                execute([*pytest_args, "--results-json", str(results)], cwd=sub, env=env, limits=limits,
                        result=result, output_file=work / "output.txt", results_file=results)
        if not result.tampered:
            changed = _changed(before, digest(kit))
            if changed:
                result.tampered = f"the grading files changed during the run: {changed}"
        _check_canaries(result, canaries)
    if not result.session and not result.tampered:
        raise GraderError(f"pytest stopped before its session started (exit status {result.returncode}), "
                          f"so the grader's own command is wrong: {_last_error(result.output)}")
    return result


@contextmanager
def _no_user() -> Iterator[None]:
    yield None


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
        GraderError: the grader cannot run (see :func:`milestones.runner.run_suite`), or
            as root, the sandbox user cannot be made.
    """
    folder, impl = Path(folder).resolve(), Path(impl).resolve()
    split = hidden and has_hidden(folder)
    visible = _one_run(folder, impl, limits, part="visible" if split or not hidden else "all")
    if not split:
        return visible
    secret = _one_run(folder, impl, limits, part="hidden")
    visible.hidden_run = secret
    visible.collected.update(secret.collected)
    visible.results.update(secret.results)
    if secret.tampered and not visible.tampered:  # its details may name a hidden test: not in the notes
        how = "a check test was reported wrongly" if "check test" in secret.tampered else "its results stream broke"
        visible.tampered = f"in the hidden tests' run, {how}: the results were forged inside the test process"
    return visible
