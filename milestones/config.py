"""The course's milestones and points, read from ``milestones/points.toml``.

==========================  =======================================================
name                        what it is
==========================  =======================================================
``Part``                    one line of the course rubric: key, title, points
``Milestone``               one week's hand-in: number, title, spec file, parts
``Course``                  all milestones; ``milestone(n)``, ``part(n, key)``
``load_course(path=None)``  read ``points.toml`` (or another file of that shape)
==========================  =======================================================

Points are whole course points (CS111: 25 for week 1, 20 + 20 + 5 + 20 for weeks 2-3
plus 10 extra credit, 15 extra credit for the GUI).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_POINTS_FILE", "Course", "Milestone", "Part", "load_course"]

DEFAULT_POINTS_FILE = Path(__file__).with_name("points.toml")

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")


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
    """One week's hand-in, graded by the tests in ``tests/milestone<number>/``.

    Attributes:
        number: 1, 2, 3 ...
        title: the course's title for the week.
        spec: file name of the spec in ``milestones/specs/``.
        parts: the rubric lines, in course order.
    """

    number: int
    title: str
    spec: str
    parts: tuple[Part, ...]

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
    hidden_visibility: str = "after_due_date"

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
            milestones.append(Milestone(number=int(raw["number"]), title=str(raw["title"]),
                                        spec=str(raw["spec"]), parts=parts))
    except KeyError as err:
        raise ValueError(f"{file}: missing field {err}") from None
    visibility = str(data.get("gradescope", {}).get("hidden_visibility", "after_due_date"))
    if visibility not in VISIBILITIES:
        raise ValueError(f"{file}: hidden_visibility must be one of {', '.join(VISIBILITIES)}, "
                         f"got {visibility!r}")
    return Course(milestones=tuple(milestones), hidden_visibility=visibility)
