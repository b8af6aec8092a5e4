"""Write a student's starter package, and the hybrid packages of layered grading.

===============================  ====================================================
name                             what it does
===============================  ====================================================
``write_starter(out, ...)``      the student copy: stubbed packages, public tests,
                                 the ``milestones`` tools, README, diary, pyproject
``write_packages(out, ...)``     only the packages, with the chosen regions stubbed
``write_public_tests(src, out)`` the milestone suites without their hidden tests
``write_hybrid(sub, out, n)``    a submission with the reference's bodies of
                                 milestones before ``n`` put back (layered grading)
===============================  ====================================================

Which regions a ``--milestone N`` starter stubs: every region tagged ``mN`` or later. The
regions of earlier milestones ship with the reference code, because the week-N starter
is the catch-up base an instructor hands out after week N-1 is graded (``docs/instructor.md``).
``--milestone 1`` (the default) stubs everything.
"""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import REPO_ROOT
from .config import (GRADING_MARKERS, INSTALLED_HANDOUT, INSTALLED_SUITES, STUDENT_INSTALL, SUITE_PREFIX, TESTS_DIR,
                     handout_dir, require_suites)
from .hidden import HIDDEN_FILE, hidden_counts, hidden_json, strip_hidden
from .regions import FUNCTIONS_FILE, PACKAGES, Region, functions_json, iter_modules, restore_source, scan, stub_source
from .runner import Limits

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


def _copy_packages(src: Path, out: Path) -> None:
    """Copy each of the :data:`~milestones.regions.PACKAGES` that ``src`` holds to ``out`` (no caches)."""
    for package in PACKAGES:
        if (src / package).is_dir():
            shutil.copytree(src / package, out / package, ignore=_IGNORE, dirs_exist_ok=True)


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
    _copy_packages(root, out)
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
            # a looping test stops after the grader's per-test time, and a failure shows a short traceback
            f'addopts = "-ra --strict-markers --tb=short --test-timeout={Limits().test_timeout:g}"\n'
            f"markers = [\n{quoted},\n]\n\n"
            "[tool.mypy]\n"
            "strict = true\n"
            'python_version = "3.11"\n'
            f"files = [{packages}]\n")


def _check_out(out: Path) -> None:
    """Refuse an ``out`` that is a file, or whose way down passes through a file, before anything is written.

    Raises:
        FileExistsError: ``out`` is a file (or another thing that is not a folder).
        NotADirectoryError: a folder on the way to ``out`` is a file.
    """
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out} is a file, not a folder; choose a new folder for the starter")
    existing = next((folder for folder in out.absolute().parents if folder.exists()), None)
    if existing is not None and not existing.is_dir():
        raise NotADirectoryError(f"cannot make the folder {out}: {existing} is a file, not a folder")


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
    _check_out(out)
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
    # The installed kit's suites (hidden tests included) and handout are never copied whole.
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
    """

    restored: list[str] = field(default_factory=list)
    replaced_modules: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def write_hybrid(submission: Path, out: Path, milestone: int, root: Path = REPO_ROOT) -> HybridSummary:
    """Copy a submission to ``out`` with the reference's bodies of milestones before ``milestone`` put back.

    Each earlier-milestone region is matched to the student's function by qualname and
    replaces that function's body; the student's code for ``milestone`` and later is
    untouched. A student module that does not parse (or is missing) is replaced by the
    reference module with regions of ``milestone`` and later stubbed.

    Raises:
        RegionError, SyntaxError: the reference breaks the marker convention.
    """
    summary = HybridSummary()
    _copy_packages(submission, out)
    by_module: dict[str, list[Region]] = {}
    for region in scan(root):
        if region.milestone < milestone:
            by_module.setdefault(region.module, []).append(region)
    for module, regions in by_module.items():
        target = out / module
        source = target.read_text(encoding="utf-8", errors="replace") if target.is_file() else None
        new_source: str | None = None
        if source is not None:
            try:
                compile(source, module, "exec")
            except (SyntaxError, ValueError):
                source = None
        if source is not None:
            new_source, missing = restore_source(source, regions)
            summary.missing.extend(f"{module}:{q}" for q in missing)
            summary.restored.extend(f"{module}:{r.qualname}" for r in regions if r.qualname not in missing)
        else:
            reference = (root / module).read_text(encoding="utf-8")
            new_source = stub_source(reference, module, lambda r: r.milestone >= milestone)
            summary.replaced_modules.append(module)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(new_source, encoding="utf-8")
    return summary
