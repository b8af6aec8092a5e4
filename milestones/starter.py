"""Write a student's starter package, and the hybrid packages of layered grading.

Which regions a ``--milestone N`` starter stubs: every region tagged ``mN`` or later. The
regions of earlier milestones ship with the reference code, because the week-N starter
is the catch-up base an instructor hands out after week N-1 is graded (``docs/instructor.md``).
``--milestone 1`` (the default) stubs everything.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import REPO_ROOT
from .config import (GRADING_MARKERS, INSTALLED_HANDOUT, INSTALLED_SUITES, STUDENT_INSTALL, SUITE_PREFIX, TESTS_DIR,
                     handout_dir, require_suites)
from .grader.hidden import HIDDEN_FILE, hidden_counts, hidden_json, strip_hidden
from .grader.isolation import MAX_SOURCE_BYTES, SubmissionRefused, copy_submission
from .regions import FUNCTIONS_FILE, PACKAGES, Region, functions_json, iter_modules, restore_source, scan, stub_source
from .grader.runner import Limits

__all__ = ["LEFT_OUT", "HybridSummary", "StarterSummary", "write_hybrid", "write_packages", "write_public_tests",
           "write_starter"]

_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".mypy_cache", ".pytest_cache", ".hypothesis")

#: Files of the packages the student starter leaves out. ``charts.json`` holds the basic-strategy charts
#: derived from the reference's EVs (the reference's and the GUI's): the student's hints are the student's
#: own rules (``basic_advice``), and in a starter ``basic_strategy(rules)`` derives a chart from the
#: student's ``expected_values`` instead (``blackjack/hints/strategy.py``).
LEFT_OUT = ("blackjack/hints/charts.json",)

_DEFAULT_MARKERS = [
    *GRADING_MARKERS,
    "gui: needs a display (runs under Xvfb in CI)",
    "slow: takes more than a few seconds",
]


@dataclass
class StarterSummary:
    """What :func:`write_starter` wrote.

    Attributes:
        out: the starter's folder.
        milestone: regions tagged this milestone or later were stubbed.
        stubbed: the stubbed regions.
        kept: regions shipped with the reference code (earlier milestones).
        test_files: public test modules written.
        hidden_removed: hidden tests, classes, modules and cases left out.
    """

    out: Path
    milestone: int
    stubbed: list[Region] = field(default_factory=list)
    kept: list[Region] = field(default_factory=list)
    test_files: int = 0
    hidden_removed: int = 0

    def describe(self) -> str:
        """A few lines for the terminal."""
        return (f"wrote the milestone {self.milestone} starter to {self.out}\n"
                f"  {len(self.stubbed)} function bodies to write (milestone {self.milestone} and later), "
                f"{len(self.kept)} given from earlier milestones\n"
                f"  {self.test_files} public test modules, {self.hidden_removed} hidden tests left out")


def _ignore_in_milestones(package: Path) -> Callable[[str, list[str]], set[str]]:
    """``copytree``'s ignore for the ``milestones`` package: caches, and the installed kit's suites and handout."""
    private = {package / INSTALLED_SUITES[1], package / INSTALLED_HANDOUT[1]}

    def ignore(folder: str, names: list[str]) -> set[str]:
        return set(_IGNORE(folder, names)) | {n for n in names if Path(folder, n) in private}
    return ignore


def write_packages(out: Path, stub: Callable[[Region], bool], root: Path = REPO_ROOT) -> tuple[list[Region], list[Region]]:
    """Copy ``blackjack/`` and ``gui/`` from ``root`` to ``out``, stubbing the regions ``stub`` picks.

    Returns:
        ``(stubbed regions, kept regions)``.

    Raises:
        RegionError: a malformed marker in the reference.
        SyntaxError: a reference module does not parse.
    """
    stubbed: list[Region] = []
    kept: list[Region] = []
    for package in PACKAGES:
        if (root / package).is_dir():
            shutil.copytree(root / package, out / package, ignore=_IGNORE, dirs_exist_ok=True)
    for module, file in iter_modules(root):
        source = file.read_text(encoding="utf-8")

        def choose(region: Region) -> bool:
            (stubbed if stub(region) else kept).append(region)
            return stub(region)

        (out / module).write_text(stub_source(source, module, choose), encoding="utf-8")
    return stubbed, kept


def write_public_tests(src: Path, out: Path) -> tuple[int, int]:
    """Copy ``src/conftest.py`` and every ``src/milestone*/`` folder to ``out``, hidden tests removed.

    Returns:
        ``(test modules written, hidden tests removed)``.

    Raises:
        HiddenStripError: a module's hidden tests cannot be removed cleanly.
    """
    out.mkdir(parents=True, exist_ok=True)
    if (src / "conftest.py").is_file():
        shutil.copy2(src / "conftest.py", out / "conftest.py")
    written = removed = 0
    for folder in sorted(src.glob(f"{SUITE_PREFIX}*")):
        if not folder.is_dir():
            continue
        shutil.copytree(folder, out / folder.name, ignore=_IGNORE, dirs_exist_ok=True)
        for file in sorted((out / folder.name).rglob("*.py")):
            text, count = strip_hidden(file.read_text(encoding="utf-8"), file.relative_to(out).as_posix())
            removed += count
            if text is None:
                file.unlink()
                continue
            file.write_text(text, encoding="utf-8")
            if file.name.startswith("test_"):
                written += 1
    return written, removed


def _student_pyproject(root: Path, *, setup: bool = True) -> str:
    """A small pyproject.toml for the student copy: the course's pytest markers and options, and strict mypy.

    It has no ``[project]`` table (the starter is not installed); with ``setup`` (the
    starter's copy; not the autograder's) its first lines give the one command a student
    runs to get ``check`` and mypy working, :data:`~.config.STUDENT_INSTALL`.

    Plain ``pytest`` in the student's folder stops a looping test after the grader's
    per-test time (``--test-timeout``) and shows short tracebacks (``--tb=short``).
    """
    markers = _DEFAULT_MARKERS
    try:
        data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
        markers = list(data["tool"]["pytest"]["ini_options"]["markers"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    quoted = ",\n".join(f'    "{m}"' for m in markers)
    packages = ", ".join(f'"{p}"' for p in (*PACKAGES, "milestones") if (root / p).is_dir())
    note = ("# This folder is not a package to pip install. Set up once, in your virtual environment:\n"
            f"#     {STUDENT_INSTALL}\n") if setup else ""
    return ("# Your project's settings: pytest markers for the course tests, and strict type checks.\n"
            f"{note}\n"
            "[tool.pytest.ini_options]\n"
            f'testpaths = ["{TESTS_DIR}"]\n'
            f'addopts = "-ra --strict-markers --tb=short --test-timeout={Limits().test_timeout:g}"\n'
            f"markers = [\n{quoted},\n]\n\n"
            "[tool.mypy]\n"
            "strict = true\n"
            'python_version = "3.11"\n'
            f"files = [{packages}]\n")


def write_starter(out: Path, *, milestone: int = 1, root: Path = REPO_ROOT, overwrite: bool = False) -> StarterSummary:
    """Write the student starter for ``milestone`` into the folder ``out``.

    The folder gets ``blackjack/`` and ``gui/`` (regions tagged ``milestone`` or later
    replaced by ``raise NotImplementedError("<what to do>")``; without :data:`LEFT_OUT`, the
    shipped basic-strategy charts), ``tests/`` (the visible
    milestone suites and ``conftest.py``), ``milestones/`` (specs, ``check``, the
    plugin, :data:`~.regions.FUNCTIONS_FILE`, which functions the student writes, and
    :data:`~.hidden.HIDDEN_FILE`, how many hidden tests each milestone keeps back),
    ``README.md`` (``docs/student.md``), ``docs/diary.md`` (the diary template) and
    ``pyproject.toml``.

    Raises:
        FileExistsError: ``out`` exists and is not empty (and ``overwrite`` is False), or is a file.
        NotADirectoryError: a folder on the way to ``out`` is a file.
        OSError: ``out`` cannot be made (the message names it and says why in words).
        FileNotFoundError: the kit has no milestone suites to hand out.
        RegionError, HiddenStripError, SyntaxError: the reference breaks a convention.
    """
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out} is a file, not a folder; choose a new folder for the starter")
    existing = next((folder for folder in out.absolute().parents if folder.exists()), None)
    if existing is not None and not existing.is_dir():
        raise NotADirectoryError(f"cannot make the folder {out}: {existing} is a file, not a folder")
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise FileExistsError(f"{out} is not empty; choose a new folder (or pass --force)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        why = err.strerror[:1].lower() + err.strerror[1:] if err.strerror else str(err)
        raise OSError(f"cannot make the folder {out}: {why}") from None
    summary = StarterSummary(out=out, milestone=milestone)
    summary.stubbed, summary.kept = write_packages(out, lambda r: r.milestone >= milestone, root)
    for name in LEFT_OUT:
        (out / name).unlink(missing_ok=True)
    summary.test_files, summary.hidden_removed = write_public_tests(require_suites(root), out / TESTS_DIR)
    if not summary.test_files:
        raise FileNotFoundError(f"{require_suites(root)} holds no test modules to hand out")
    shutil.copytree(Path(__file__).parent, out / "milestones", dirs_exist_ok=True,
                    ignore=_ignore_in_milestones(Path(__file__).parent))
    (out / "milestones" / FUNCTIONS_FILE).write_text(functions_json(root), encoding="utf-8")
    (out / "milestones" / HIDDEN_FILE).write_text(hidden_json(hidden_counts(root)), encoding="utf-8")
    (out / "pyproject.toml").write_text(_student_pyproject(root), encoding="utf-8")
    docs = handout_dir(root)
    if (docs / "student.md").is_file():
        shutil.copy2(docs / "student.md", out / "README.md")
    if (docs / "diary_template.md").is_file():
        (out / "docs").mkdir(exist_ok=True)
        shutil.copy2(docs / "diary_template.md", out / "docs" / "diary.md")
    return summary


@dataclass
class HybridSummary:
    """What :func:`write_hybrid` put back.

    Attributes:
        restored: ``"module:qualname"`` of each reference body put into the student's code.
        replaced_modules: student modules that did not parse (or were missing) and were
            replaced by the reference module with milestone ``n`` and later stubbed.
        missing: reference functions the student's module no longer has.
        reasons: why each replaced module was replaced (``module -> one line``).
    """

    restored: list[str] = field(default_factory=list)
    replaced_modules: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)


#: Bounds of the child process that parses a submission's modules for layered grading: its address space
#: (1 GiB; parsing the biggest module a submission may hold, 1 MiB, takes well under 200 MB), its CPU
#: seconds and the seconds the grader waits for it.
PARSE_MEMORY = 1024 * 1024 * 1024
PARSE_CPU_SECONDS = 30
PARSE_TIMEOUT = 60.0
#: The child's program: the kit's folder is its first argument; :func:`_parse_child` does the work.
_CHILD = "import sys; sys.path.insert(0, sys.argv[1]); from milestones.starter import _parse_child; _parse_child()"
#: What the parser may raise on a student's module (besides SyntaxError): a null byte (ValueError), too
#: deep an expression (RecursionError, MemoryError: 100,000 unary minuses), a number too big (OverflowError).
_PARSE_ERRORS = (SyntaxError, ValueError, MemoryError, RecursionError, OverflowError)


def _one_line(text: str, limit: int = 200) -> str:
    """``text`` on one line of printable characters, at most ``limit`` of them."""
    shown = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(shown.split())[:limit]


def _restore_one(module: str, source: str, regions: list[Region]) -> dict[str, object]:
    """Compile a student's module and put the reference's ``regions`` back into it (in the child process).

    Returns:
        ``{"source": new source, "missing": [qualnames]}``, or ``{"error": why}`` when it does not compile.
    """
    try:
        compile(source, module, "exec", dont_inherit=True)
        new_source, missing = restore_source(source, regions)
    except _PARSE_ERRORS as err:
        detail = str(err) or "the parser gave up on it (nested too deep, or too big)"
        return {"error": _one_line(f"{type(err).__name__}: {detail}")}
    return {"source": new_source, "missing": missing}


def _parse_child() -> None:
    """The child process of :func:`_restore_modules`: set its own limits, then read the jobs (JSON on stdin:
    ``[{"module", "source", "regions"}]``) and write one :func:`_restore_one` answer per job (JSON on stdout).

    Its limits (:data:`PARSE_MEMORY`, :data:`PARSE_CPU_SECONDS`) are set before any student text is read, so a
    module built to exhaust the parser costs this process, never the grader.
    """
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (PARSE_MEMORY, PARSE_MEMORY))
        resource.setrlimit(resource.RLIMIT_CPU, (PARSE_CPU_SECONDS, PARSE_CPU_SECONDS))
    except (ImportError, ValueError, OSError):  # no rlimits (Windows): the parent's time limit still holds
        pass
    jobs = json.loads(sys.stdin.buffer.read())
    answers = [_restore_one(job["module"], job["source"], [Region(**r) for r in job["regions"]]) for job in jobs]
    sys.stdout.write(json.dumps(answers))


def _parse_in_child(jobs: list[dict[str, object]]) -> list[dict[str, object]] | None:
    """Run :func:`_parse_child` on ``jobs``; its answers, or ``None`` when it failed (killed at a limit, crashed)."""
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _CHILD, str(Path(__file__).resolve().parent.parent)],
                              input=json.dumps(jobs).encode("ascii"), capture_output=True, timeout=PARSE_TIMEOUT,
                              check=True)
        answers = json.loads(done.stdout)
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError, ValueError):
        return None
    if not isinstance(answers, list) or len(answers) != len(jobs) or not all(isinstance(a, dict) for a in answers):
        return None
    return answers


def _restore_modules(jobs: list[dict[str, object]]) -> list[dict[str, object]]:
    """Parse the student's modules and restore their regions in a child process (:func:`_parse_child`), never in
    the grader: all at once, and one by one when that child fails, so one hostile module costs only itself.

    Returns:
        one answer per job: ``{"source", "missing"}`` or ``{"error"}``.
    """
    answers = _parse_in_child(jobs) if jobs else []
    if answers is not None:
        return answers
    return [(_parse_in_child([job]) or [{"error": f"parsing it was stopped at the limits ({PARSE_CPU_SECONDS} s "
                                                  f"of CPU, {PARSE_MEMORY // (1024 * 1024)} MB of memory)"}])[0]
            for job in jobs]


def _read_copied(path: Path, shown: str) -> str | None:
    """A module of the hybrid's copy of the submission, read without following a link and at most
    :data:`~.isolation.MAX_SOURCE_BYTES` of it; ``None`` when it is missing or not a regular file.

    Raises:
        SubmissionRefused: it is a link, or bigger than the bound (``shown`` names it).
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise SubmissionRefused(f"{shown!r} is a symbolic link; hand in the file itself, not a link") from None
        raise
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        data = file.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise SubmissionRefused(f"{shown!r} holds more than the {MAX_SOURCE_BYTES} bytes a Python file of a project "
                                f"may hold")
    return data.decode("utf-8", errors="replace")


def _make_room(out: Path, target: Path) -> None:
    """Clear the way to write ``target`` in the hybrid ``out``: a file where a folder of its path should be, or a
    folder where it should be, is removed (the hybrid is the grader's own copy)."""
    for folder in reversed(target.relative_to(out).parents[:-1]):
        where = out / folder
        if where.is_symlink() or (where.exists() and not where.is_dir()):
            where.unlink()
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)


def write_hybrid(submission: Path, out: Path, milestone: int, root: Path = REPO_ROOT) -> HybridSummary:
    """Copy a submission to ``out`` with the reference's bodies of milestones before ``milestone`` put back.

    The submission's packages are copied by :func:`milestones.grader.isolation.copy_submission` (which refuses
    what a submission may not hold). Each earlier-milestone region is matched to the student's function by
    qualname and replaces that function's body; the student's code for ``milestone`` and later is untouched.
    The student's modules are parsed in a child process with memory and time limits (:func:`_restore_modules`),
    never in the grader. A student module that does not compile there (a syntax error, or one built to exhaust
    the parser), or is missing, is replaced by the reference module with regions of ``milestone`` and later
    stubbed; :attr:`HybridSummary.reasons` says why.

    Raises:
        SubmissionRefused: a file of the submission is refused (the message names it).
        RegionError, SyntaxError: the reference breaks the marker convention.
    """
    summary = HybridSummary()
    out.mkdir(parents=True, exist_ok=True)
    for package in PACKAGES:
        try:
            mode = os.lstat(submission / package).st_mode
        except OSError:
            continue  # no such package: its modules are replaced below
        if stat.S_ISDIR(mode) or stat.S_ISLNK(mode):  # a link is refused by name
            copy_submission(submission / package, out / package, label=package)
    by_module: dict[str, list[Region]] = {}
    for region in scan(root):
        if region.milestone < milestone:
            by_module.setdefault(region.module, []).append(region)
    sources = {module: _read_copied(out / module, module) for module in by_module}
    jobs: list[dict[str, object]] = [{"module": module, "source": source,
                                      "regions": [asdict(r) for r in by_module[module]]}
            for module, source in sources.items() if source is not None]
    answers = dict(zip((str(job["module"]) for job in jobs), _restore_modules(jobs), strict=True))
    for module, regions in by_module.items():
        answer = answers.get(module, {"error": "the module is missing"})
        new_source = answer.get("source")
        missing = answer.get("missing")
        if isinstance(new_source, str) and isinstance(missing, list):
            summary.missing.extend(f"{module}:{q}" for q in missing)
            summary.restored.extend(f"{module}:{r.qualname}" for r in regions if r.qualname not in missing)
        else:
            reference = (root / module).read_text(encoding="utf-8")
            new_source = stub_source(reference, module, lambda r: r.milestone >= milestone)
            summary.replaced_modules.append(module)
            summary.reasons[module] = _one_line(str(answer.get("error", "it does not compile")))
        target = out / module
        _make_room(out, target)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(new_source, encoding="utf-8")
    return summary
