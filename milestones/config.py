"""The course's milestones and points, read from ``milestones/points.toml``.

Points are whole course points (CS111: 25 for week 1, 20 + 20 + 5 + 20 for weeks 2-3
plus 10 extra credit, 15 extra credit for the GUI).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_POINTS_FILE", "GRADING_MARKERS", "ISOLATED_ENV", "KIT_TEST_INSTALL", "OBSERVATIONS_PREFIX", "SITE_MIRRORS_ENV",
           "STUDENT_INSTALL", "SUITE_PREFIX", "TESTS_DIR", "Course", "Milestone", "Part", "handout_dir", "load_course", "mirror_name",
           "require_suites", "suite_name", "suite_number", "suite_path", "suites_dir"]

DEFAULT_POINTS_FILE = Path(__file__).with_name("points.toml")

#: The folder holding the milestone suites, relative to the kit's (or a student project's) root.
TESTS_DIR = "tests"
#: ``test_hand.py``'s observations are in ``observe_hand.py`` beside it: every file of a suite whose name starts
#: so is the student's side of the tests (:mod:`milestones.grader.observer`), the only part the student's process reads.
OBSERVATIONS_PREFIX = "observe"
#: A suite's folder name is this prefix and the milestone's number (``milestone3``).
SUITE_PREFIX = "milestone"
_SUITE_NAME = re.compile(rf"^{SUITE_PREFIX}(\d+)$")

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
#: The Gradescope visibility of hidden tests unless points.toml says otherwise: shown after the due date.
DEFAULT_HIDDEN_VISIBILITY = "after_due_date"

#: Set in the environment of an isolated graded run: the plugin takes every other copy of the packages off sys.path.
ISOLATED_ENV = "MILESTONES_ISOLATED"
#: In an isolated run: the folder of filtered mirrors of the site-packages that hold the kit's packages.
SITE_MIRRORS_ENV = "MILESTONES_SITE_MIRRORS"


def mirror_name(folder: Path) -> str:
    """The name of the mirror of ``folder`` (a resolved ``site-packages``) in the folder of mirrors."""
    return hashlib.sha256(str(folder).encode()).hexdigest()[:16]

#: The pytest markers of the grading plugin, as ``"name: description"`` lines for ``markers``.
GRADING_MARKERS = ("points(n): points this test is worth in the course grader",
                   "hidden: a hidden grading test; left out of the student copy")


def suite_name(number: int) -> str:
    """Return the folder name of milestone ``number``'s suite: ``3`` -> ``"milestone3"``."""
    return f"{SUITE_PREFIX}{number}"


def suite_number(name: str) -> int | None:
    """Return the milestone number in a suite's folder name (``"milestone3"`` -> 3), ``None`` for another name."""
    match = _SUITE_NAME.match(name)
    return int(match[1]) if match else None


#: What a student runs, in the starter folder's virtual environment, so that ``check`` (pytest) and
#: ``python -m mypy`` work: the starter is not a package to ``pip install``, so no extra applies.
#: ``docs/student.md`` (the starter's README.md), the starter's pyproject.toml and ``check``'s
#: message when pytest is missing all give this command.
STUDENT_INSTALL = "python -m pip install pytest mypy"

#: What an instructor runs in the kit's folder for ``grade``, ``autograder`` and ``honesty`` (the ``test`` extra).
KIT_TEST_INSTALL = 'python -m pip install -e ".[test]"'

#: Where an installed kit (the wheel) keeps the suites and the handout: ``pyproject.toml`` maps the
#: clone's ``tests/`` to the package ``milestones.suites`` and ``docs/`` to ``milestones.handout``.
INSTALLED_SUITES = ("milestones", "suites")
INSTALLED_HANDOUT = ("milestones", "handout")


def suites_dir(root: Path) -> Path:
    """Return the folder holding the milestone suites (``conftest.py``, ``milestone1/`` ...) of the kit at ``root``.

    ``root`` is the folder holding ``blackjack/`` and ``milestones/``: a clone of the kit or a
    student's starter keeps the suites in ``root/tests``; an installed kit (``root`` is
    site-packages) in ``root/milestones/suites``. The folder may not exist: callers that need
    suites say so with :func:`require_suites`.
    """
    installed = root.joinpath(*INSTALLED_SUITES)
    return installed if installed.is_dir() else root / TESTS_DIR


def require_suites(root: Path, numbers: tuple[int, ...] | list[int] = ()) -> Path:
    """Return :func:`suites_dir` of ``root`` when it holds the suites named, else raise.

    Args:
        root: the kit's (or a starter's) root folder.
        numbers: milestone numbers whose suite folders must be there; none: at least one suite.

    Raises:
        FileNotFoundError: no suites at all, or one named is missing; the message names the
            folder, so a kit installed or copied without its suites fails here instead of
            passing on nothing.
    """
    folder = suites_dir(root)
    found = sorted(p.name for p in folder.glob(f"{SUITE_PREFIX}*") if p.is_dir()) if folder.is_dir() else []
    missing = [suite_name(n) for n in numbers if suite_name(n) not in found]
    if not found or missing:
        what = ", ".join(missing) if missing else "no milestone suites"
        raise FileNotFoundError(f"{folder}: {what} (the course's test suites are missing; reinstall the kit "
                                f"or run from a complete copy)")
    return folder


def handout_dir(root: Path) -> Path:
    """Return the folder holding the student guide (``student.md``) and ``diary_template.md`` of the kit at ``root``.

    ``root/docs`` in a clone of the kit, ``root/milestones/handout`` in an installed kit.
    """
    installed = root.joinpath(*INSTALLED_HANDOUT)
    return installed if installed.is_dir() else root / "docs"


def suite_path(number: int) -> str:
    """Return milestone ``number``'s suite folder relative to the kit's root: ``3`` -> ``"tests/milestone3"``."""
    return f"{TESTS_DIR}/{suite_name(number)}"


@dataclass(frozen=True, slots=True)
class Part:
    """One line of the course rubric.

    Attributes:
        key: the name a test module gives in ``PART = "<key>"``.
        title: what the student builds, as the course words it.
        points: course points the part is worth (whole points).
        extra_credit: counted apart from the regular total.
    """

    key: str
    title: str
    points: int
    extra_credit: bool = False


@dataclass(frozen=True, slots=True)
class Milestone:
    """One week's hand-in, graded by the tests in ``tests/milestone<number>/`` (:func:`suite_path`).

    Attributes:
        number: 1, 2, 3 ...
        title: the course's title for the week.
        spec: file name of the spec in ``milestones/specs/``.
        parts: the rubric lines, in course order.
        order: the suite's test modules (file names) in the order the spec teaches them;
            ``check`` names the next failing test in this order (modules not listed
            come after, by name).
    """

    number: int
    title: str
    spec: str
    parts: tuple[Part, ...]
    order: tuple[str, ...] = ()

    @property
    def regular_points(self) -> int:
        """Points of the parts that are not extra credit."""
        return sum(p.points for p in self.parts if not p.extra_credit)

    @property
    def extra_points(self) -> int:
        """Points of the extra-credit parts."""
        return sum(p.points for p in self.parts if p.extra_credit)

    def part(self, key: str | None) -> Part:
        """Return the part named ``key``; ``None`` means the only part of a one-part milestone.

        Raises:
            KeyError: no such part, or ``None`` for a milestone with several parts
                (the message names the choices).
        """
        if key is None:
            if len(self.parts) == 1:
                return self.parts[0]
            raise KeyError(f"milestone {self.number} has several parts; a test module must set "
                           f"PART to one of: {', '.join(p.key for p in self.parts)}")
        for part in self.parts:
            if part.key == key:
                return part
        raise KeyError(f"milestone {self.number} has no part {key!r}; choose from: "
                       f"{', '.join(p.key for p in self.parts)}")


@dataclass(frozen=True, slots=True)
class Course:
    """All milestones of the course, and Gradescope settings.

    Attributes:
        milestones: in course order.
        hidden_visibility: Gradescope visibility given to hidden tests.
    """

    milestones: tuple[Milestone, ...]
    hidden_visibility: str = DEFAULT_HIDDEN_VISIBILITY

    def milestone(self, number: int) -> Milestone:
        """Return milestone ``number``.

        Raises:
            KeyError: no such milestone (the message names the choices).
        """
        for milestone in self.milestones:
            if milestone.number == number:
                return milestone
        raise KeyError(f"no milestone {number}; choose from: "
                       f"{', '.join(str(m.number) for m in self.milestones)}")

    @property
    def numbers(self) -> tuple[int, ...]:
        """The milestone numbers, in course order."""
        return tuple(m.number for m in self.milestones)

    def with_suites(self, tests: Path) -> tuple[int, ...]:
        """Return the numbers of the milestones that have a suite folder in ``tests`` (a root's ``tests/``, holding
        ``milestone1/`` ...), in course order."""
        return tuple(n for n in self.numbers if (tests / suite_name(n)).is_dir())


def load_course(path: Path | str | None = None) -> Course:
    """Read the course's milestones and points from a TOML file (default ``milestones/points.toml``).

    Raises:
        OSError: the file cannot be read.
        ValueError: the file is not valid TOML or a field is missing or wrong
            (``tomllib.TOMLDecodeError`` is a ``ValueError``).
    """
    file = Path(path) if path is not None else DEFAULT_POINTS_FILE
    data = tomllib.loads(file.read_text(encoding="utf-8"))
    milestones = []
    try:
        for raw in data["milestone"]:
            parts = tuple(Part(key=str(p["key"]), title=str(p["title"]), points=int(p["points"]),
                               extra_credit=bool(p.get("extra_credit", False)))
                          for p in raw["part"])
            if not parts:
                raise ValueError(f"milestone {raw['number']} has no parts")
            order = raw.get("order", [])
            if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
                raise ValueError(f"milestone {raw['number']}: order must be a list of test file names")
            milestones.append(Milestone(number=int(raw["number"]), title=str(raw["title"]),
                                        spec=str(raw["spec"]), parts=parts, order=tuple(order)))
    except KeyError as err:
        raise ValueError(f"{file}: missing field {err}") from None
    visibility = str(data.get("gradescope", {}).get("hidden_visibility", DEFAULT_HIDDEN_VISIBILITY))
    if visibility not in VISIBILITIES:
        raise ValueError(f"{file}: hidden_visibility must be one of {', '.join(VISIBILITIES)}, "
                         f"got {visibility!r}")
    return Course(milestones=tuple(milestones), hidden_visibility=visibility)
