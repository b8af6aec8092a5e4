"""Build the Gradescope autograder zip for one milestone: ``python -m milestones autograder``.

The zip follows Gradescope's layout (https://gradescope-autograders.readthedocs.io/en/latest/specs/);
``docs/instructor.md`` section 3 says what each script does and which ``AUTOGRADER_*`` variables move
its ``/autograder`` paths for a try on a laptop.
"""

from __future__ import annotations

import os
import shlex
import stat
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import REPO_ROOT
from .config import (INSTALLED_HANDOUT, INSTALLED_SUITES, SUITE_PREFIX, TESTS_DIR, Course, load_course, suite_name,
                     suite_path, suites_dir)
from .regions import FUNCTIONS_FILE, PACKAGES, functions_json
from .grader.grading import Grader
from .grader.scores import inventory_json
from .grader.runner import Limits
from .starter import _student_pyproject, write_packages

__all__ = ["INVENTORY", "KIT_ENTRIES", "REQUIREMENTS", "AutograderSummary", "build_autograder", "kit_files",
           "pinned_requirements", "run_script", "setup_script"]

#: What of the kit goes into the zip, relative to its root (``gui`` and ``README.md`` if present).
#: The packages go in as the milestone's starter: its regions and later ones stubbed. The
#: suite goes in as ``tests/`` (``conftest.py`` and the milestone's own ``milestoneN/`` folder,
#: hidden tests too; no other milestone's) from wherever the kit keeps it: ``tests/`` in a
#: clone, ``milestones/suites/`` installed.
KIT_ENTRIES = (*PACKAGES, "milestones", "README.md")
#: The zip's list of what ``setup.sh`` pip-installs (the kit's ``test`` extra).
REQUIREMENTS = "requirements.txt"
#: The zip's file of the milestone's tests and weights, collected on the reference when it is built.
INVENTORY = "inventory.json"

#: Folder names never packed: version control, caches, build output, virtualenvs, test output.
_SKIP_DIRS = frozenset({"__pycache__", "build", "dist", "htmlcov", "test-output", "venv"})
#: File name endings never packed.
_SKIP_SUFFIXES = (".pyc", ".pyo", ".swp", "~")

_FILE_MODE = 0o644
_SCRIPT_MODE = 0o755


def _skipped_dir(folder: Path) -> bool:
    """A folder of junk: hidden (``.git``, ``.mypy_cache``, ``.venv`` ...), a cache, build output, a virtualenv."""
    return (folder.name.startswith(".") or folder.name in _SKIP_DIRS or folder.name.endswith(".egg-info")
            or (folder / "pyvenv.cfg").is_file())


def _skipped_file(file: Path) -> bool:
    """A junk file: hidden (``.coverage``, ``.DS_Store``), compiled Python, an editor's backup."""
    return file.name.startswith(".") or file.name.endswith(_SKIP_SUFFIXES)


def _walk(path: Path, skip: frozenset[Path] = frozenset()) -> list[Path]:
    """The files under ``path`` (or ``path`` itself), sorted, junk and the folders in ``skip`` left out."""
    if path.is_file():
        return [path]
    found: list[Path] = []
    for folder, dirs, files in os.walk(path):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not _skipped_dir(here / d) and here / d not in skip)
        found.extend(here / f for f in files if not _skipped_file(here / f))
    return sorted(found)


def kit_files(root: Path = REPO_ROOT, milestone: int | None = None) -> Iterator[tuple[Path, Path]]:
    """List the kit's files that belong in the autograder zip, sorted by their name in the zip.

    Args:
        root: the instructor's kit: a clone (the folder holding ``blackjack/``), or the
            site-packages folder of an installed kit.
        milestone: pack only this milestone's suite (``tests/milestoneN/``, the one its
            autograder grades, layered or not) besides ``tests/conftest.py``; ``None``: every suite.

    Yields:
        ``(name in the zip, file on disk)``: everything under the :data:`KIT_ENTRIES` that
        exist, and the suites (:func:`~milestones.config.suites_dir`) as ``tests/conftest.py``
        and ``tests/milestoneN/...``; junk (:func:`_skipped_dir`, :func:`_skipped_file`) left out.
        Symbolic links to folders are not followed.
    """
    pairs: list[tuple[Path, Path]] = []
    installed = frozenset({root.joinpath(*INSTALLED_SUITES), root.joinpath(*INSTALLED_HANDOUT)})
    for entry in KIT_ENTRIES:
        pairs.extend((p.relative_to(root), p) for p in _walk(root / entry, installed))
    suites = suites_dir(root)
    chosen = sorted(suites.glob(f"{SUITE_PREFIX}*")) if milestone is None else [suites / suite_name(milestone)]
    for path in [suites / "conftest.py", *chosen]:
        if path.exists() and (path.is_file() or not _skipped_dir(path)):
            pairs.extend((TESTS_DIR / p.relative_to(suites), p) for p in _walk(path))
    yield from sorted(pairs)


#: Where the hash-pinned test tools are: in a clone, and in an installed kit (``pyproject.toml`` maps the
#: clone's ``requirements/`` to the package ``milestones.pins``).
PINS = (Path("requirements", "test.txt"), Path("milestones", "pins", "test.txt"))


def pinned_requirements(root: Path = REPO_ROOT) -> str:
    """Return the text of the hash-pinned test tools (``requirements/test.txt``), which ``setup.sh`` installs
    on Gradescope with ``pip install --require-hashes``: the same tools, at the same versions and hashes, that
    README.md's test command installs and CI tests.

    Args:
        root: a clone or an installed kit's site-packages (:data:`PINS`).

    Raises:
        ValueError: neither file is there, or it pins nothing with a hash.
    """
    for relative in PINS:
        path = root / relative
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            if "--hash=sha256:" not in text:
                raise ValueError(f"{path} pins no test tool with a hash")
            return text
    raise ValueError(f"{root} is not a complete kit: missing {PINS[0]} (the pinned test tools)")


def _needs_display(tests: Path) -> bool:
    """True when a milestone's suite opens Tk windows (a test module imports ``tkinter`` or ``gui``)."""
    texts = (file.read_text(encoding="utf-8", errors="replace") for file in sorted(tests.rglob("*.py")))
    return any(word in text for text in texts for word in ("import tkinter", "from tkinter", "from gui", "import gui"))


_SETUP = """\
#!/bin/sh
# Gradescope runs this once, as root, in /autograder/source when it builds the autograder
# image (made by `python -m milestones autograder`). It finds Python 3.11 or newer
# (installing python3.11 with apt-get when there is none), makes a virtualenv in
# $AUTOGRADER_VENV (default /autograder/venv) and pip-installs requirements.txt, the kit's
# test tools pinned with their hashes (the file README.md's test command installs), with the
# pip that virtualenv brings; the kit itself runs from the source folder. It creates
# the sandbox users and makes the kit root's alone. Needs network access (Gradescope gives
# it); run_autograder then needs none.
set -eu
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="${AUTOGRADER_SOURCE:-$ROOT/source}"
VENV="${AUTOGRADER_VENV:-$ROOT/venv}"
DISPLAY_NEEDED=@DISPLAY@
export DEBIAN_FRONTEND=noninteractive

recent() {  # is $1 a Python 3.11 or newer?
    command -v "$1" >/dev/null 2>&1 && "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

PYTHON=""
for name in python3 python3.13 python3.12 python3.11; do
    if recent "$name"; then PYTHON="$(command -v "$name")"; break; fi
done
if [ -z "$PYTHON" ]; then
    apt-get update
    if ! apt-get install -y python3.11 python3.11-venv; then
        apt-get install -y software-properties-common
        add-apt-repository -y ppa:deadsnakes/ppa
        apt-get update
        apt-get install -y python3.11 python3.11-venv
    fi
    PYTHON="$(command -v python3.11)"
fi
VERSION="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
echo "setup.sh: grading with $PYTHON (Python $VERSION)"

if ! "$PYTHON" -m venv "$VENV"; then
    rm -rf "$VENV"
    apt-get update
    apt-get install -y "python$VERSION-venv" || apt-get install -y python3-venv
    "$PYTHON" -m venv "$VENV"
fi
if [ "$DISPLAY_NEEDED" = yes ]; then
    # the milestone's tests open Tk windows: tkinter, and Xvfb for a display
    apt-get update
    apt-get install -y xvfb "python$VERSION-tk" || apt-get install -y xvfb python3-tk
    "$VENV/bin/python" -c 'import tkinter' || { echo "setup.sh: tkinter is missing" >&2; exit 1; }
    command -v Xvfb >/dev/null || { echo "setup.sh: Xvfb is missing" >&2; exit 1; }
fi
"$VENV/bin/python" -m pip install --require-hashes -r "$SOURCE/requirements.txt"

# Student code runs as the unprivileged users bjgrade0, bjgrade1 (made here, or on first use):
# the kit's files (hidden tests, inventory, the packages installed in the virtualenv) are
# root's alone, so that code cannot read them; Python and the test tools stay readable.
(cd "$SOURCE" && "$VENV/bin/python" -c 'from milestones.grader.isolation import sandbox_user; sandbox_user(0); sandbox_user(1)')
chmod -R go-rwx "$SOURCE"
for package in milestones blackjack gui; do
    folder="$(cd / && "$VENV/bin/python" -c 'import importlib.util as u, os, sys
s = u.find_spec(sys.argv[1])
print(os.path.dirname(s.origin) if s and s.origin else "")' "$package")"
    if [ -n "$folder" ]; then chmod -R go-rwx "$folder"; fi
done
"""

_RUN = """\
#!/bin/sh
# Gradescope runs this for every submission (made by `python -m milestones autograder`):
# it grades /autograder/submission on milestone @MILESTONE@ and writes
# /autograder/results/results.json. Set AUTOGRADER_ROOT (and AUTOGRADER_SOURCE,
# AUTOGRADER_SUBMISSION, AUTOGRADER_RESULTS, AUTOGRADER_PYTHON) to try it elsewhere.
set -eu
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="${AUTOGRADER_SOURCE:-$ROOT/source}"
SUBMISSION="${AUTOGRADER_SUBMISSION:-$ROOT/submission}"
RESULTS="${AUTOGRADER_RESULTS:-$ROOT/results/results.json}"
VENV="${AUTOGRADER_VENV:-$ROOT/venv}"
PYTHON="${AUTOGRADER_PYTHON:-}"
if [ -z "$PYTHON" ]; then
    if [ -x "$VENV/bin/python" ]; then PYTHON="$VENV/bin/python"; else PYTHON=python3; fi
fi
mkdir -p "$(dirname "$RESULTS")"
chmod -R go-rwx "$SOURCE" 2>/dev/null || true  # the hidden tests are root's alone (setup.sh did it too)
cd "$SOURCE"
exec "$PYTHON" -m milestones grade "$SUBMISSION" --single @OPTIONS@ \\
    --inventory "$SOURCE/@INVENTORY@" --format gradescope --output "$RESULTS"
"""


def setup_script(*, display: bool = False) -> str:
    """Return the text of ``setup.sh`` (POSIX ``sh``; see the module docstring for what it does).

    Args:
        display: also install ``xvfb`` and Tk, and fail the image build without them
            (for a milestone whose tests open windows).
    """
    return _SETUP.replace("@DISPLAY@", "yes" if display else "no")


def run_script(milestone: int, *, layered: bool = True, limits: Limits = Limits()) -> str:
    """Return the text of ``run_autograder`` for ``milestone``.

    Args:
        milestone: the milestone number it grades (not checked here).
        layered: pass ``--layered`` (only for milestones after the first, where it matters).
        limits: the run's ``--timeout``, ``--test-timeout`` and ``--memory``.
    """
    options = ["--milestone", str(milestone)]
    if layered and milestone > 1:
        options.append("--layered")
    options += ["--timeout", f"{limits.timeout:g}", "--test-timeout", f"{limits.test_timeout:g}",
                "--memory", str(limits.memory_mb)]
    return (_RUN.replace("@MILESTONE@", str(milestone)).replace("@OPTIONS@", shlex.join(options))
            .replace("@INVENTORY@", INVENTORY))


@dataclass
class AutograderSummary:
    """What :func:`build_autograder` wrote.

    Attributes:
        output: the zip.
        milestone: the milestone ``run_autograder`` grades.
        files: the kit's files packed (relative paths), besides the two scripts.
        layered: ``run_autograder`` grades with ``--layered``.
        display: ``setup.sh`` installs Xvfb and Tk.
        stubbed: solution regions left out (the milestone's and later ones).
    """

    output: Path
    milestone: int
    files: list[Path] = field(default_factory=list)
    layered: bool = False
    display: bool = False
    stubbed: int = 0

    def describe(self) -> str:
        """A few lines for the terminal."""
        how = ", layered" if self.layered else ""
        gui = "; setup.sh also installs Xvfb and Tk" if self.display else ""
        return (f"wrote {self.output}: setup.sh, run_autograder (milestone {self.milestone}{how}), "
                f"{INVENTORY} and {len(self.files)} files of the kit{gui}\n"
                f"  the packages are the milestone-{self.milestone} starter: {self.stubbed} solution bodies of "
                f"milestone {self.milestone} and later left out, earlier milestones' solutions included\n"
                f"  upload it as the assignment's autograder on Gradescope (Configure Autograder -> Zip file)")


def _date_time(seconds: float) -> tuple[int, int, int, int, int, int]:
    """A zip entry's date for a time stamp (zip dates start in 1980)."""
    year, month, day, hour, minute, second = time.localtime(seconds)[:6]
    return max((year, month, day, hour, minute, second), (1980, 1, 1, 0, 0, 0))


def _info(name: str, mode: int, date_time: tuple[int, int, int, int, int, int]) -> zipfile.ZipInfo:
    """A zip entry for a regular file with Unix permissions ``mode``."""
    info = zipfile.ZipInfo(name, date_time)
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.create_system = 3  # Unix, so unzip and Gradescope honour the permissions
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def build_autograder(output: Path, milestone: int, *, root: Path = REPO_ROOT, course: Course | None = None,
                     layered: bool = True, limits: Limits = Limits()) -> AutograderSummary:
    """Write the Gradescope autograder zip for ``milestone`` to ``output``.

    The zip holds ``setup.sh`` and ``run_autograder`` (mode 755) and :data:`INVENTORY` (the milestone's tests
    and weights, collected on the reference now) at its root, the kit's :func:`kit_files` (mode 644, or 755 for
    an executable file), a ``pyproject.toml`` with pytest's settings for the suites and :data:`REQUIREMENTS`
    (:func:`pinned_requirements`). The packages go in as the milestone's starter, this milestone's solution
    regions and later ones stubbed, so the solution students are writing is not where their code could read
    it (docs/instructor.md section 3); ``milestones/`` :data:`~.regions.FUNCTIONS_FILE` lists the functions
    students write. It is written to a temporary file next to ``output`` and renamed, so a failed build leaves
    no zip behind.

    Args:
        output: the zip to write, in a folder that exists (an old zip is replaced).
        milestone: the milestone to grade.
        root: the instructor's copy of the kit.
        course: milestones and points (default: ``milestones/points.toml``).
        layered: grade with ``--layered`` (milestones after the first).
        limits: the limits ``run_autograder`` passes to ``grade``.

    Raises:
        KeyError: no such milestone.
        ValueError: the kit lacks what grading needs, or ``output`` is a folder.
        RuntimeError: the milestone's suite does not collect on the reference.
        RegionError, SyntaxError: a solution marker in the reference is malformed.
        FileNotFoundError: the folder of ``output`` does not exist (nothing is made).
        OSError: a file cannot be read or the zip cannot be written.
    """
    number = (course or load_course()).milestone(milestone).number
    suites = suites_dir(root)
    tests = suites / suite_name(number)
    needed = [root / "blackjack" / "__init__.py", root / "milestones" / "__main__.py", suites / "conftest.py"]
    missing = [str(p.relative_to(root)) for p in needed if not p.is_file()]
    if not tests.is_dir():
        missing.append(f"{suite_path(number)}/")
    if missing:
        raise ValueError(f"{root} is not a complete kit: missing {', '.join(missing)}")
    if output.is_dir():
        raise ValueError(f"{output} is a folder; give the zip's file name, e.g. {output / 'autograder.zip'}")
    if not output.parent.is_dir():  # nothing is made for a mistyped folder
        raise FileNotFoundError(f"cannot write {output}: there is no folder {output.parent}")
    requirements = pinned_requirements(root)
    display = _needs_display(tests)
    summary = AutograderSummary(output=output, milestone=number, layered=layered and number > 1, display=display)
    skip = output.resolve()
    listed = Path("milestones", FUNCTIONS_FILE)  # written fresh below, from the reference's regions
    files = {name: path for name, path in kit_files(root, number) if path.resolve() != skip and name != listed}
    summary.files = [*files, Path("pyproject.toml"), Path(REQUIREMENTS)]
    inventory = Grader(course=course, tests=suites, reference=root, limits=limits).inventory(number)
    temporary = output.with_name(f".{output.name}.{os.getpid()}.part")
    with tempfile.TemporaryDirectory(prefix="bj-autograder-") as work:
        starter = Path(work)
        summary.stubbed = len(write_packages(starter, lambda r: r.milestone >= number, root)[0])
        try:
            file = open(temporary, "xb")
        except OSError as err:
            raise OSError(f"cannot write {output}: {err.strerror or err}") from None
        try:
            with file, zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as zf:
                now = _date_time(time.time())
                zf.writestr(_info("setup.sh", _SCRIPT_MODE, now), setup_script(display=display))
                zf.writestr(_info("run_autograder", _SCRIPT_MODE, now),
                            run_script(number, layered=layered, limits=limits))
                zf.writestr(_info(INVENTORY, _FILE_MODE, now), inventory_json({number: inventory}))
                zf.writestr(_info(f"milestones/{FUNCTIONS_FILE}", _FILE_MODE, now), functions_json(root))
                zf.writestr(_info("pyproject.toml", _FILE_MODE, now), _student_pyproject(root, setup=False))
                zf.writestr(_info(REQUIREMENTS, _FILE_MODE, now), requirements)
                for name, path in files.items():
                    status = path.stat()
                    source = starter / name if name.parts[0] in PACKAGES and (starter / name).is_file() else path
                    mode = _SCRIPT_MODE if status.st_mode & 0o111 else _FILE_MODE
                    zf.writestr(_info(name.as_posix(), mode, _date_time(status.st_mtime)), source.read_bytes())
            os.replace(temporary, output)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    return summary
