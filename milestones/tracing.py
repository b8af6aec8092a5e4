"""Where in a student's code an exception came from, in words: the student's side of a failure message.

Runs in the student's process (:mod:`milestones.grader.observer`), which has the traceback; the
judge only ever receives the finished text. ``engine`` is the set of the kit's own
functions (:func:`milestones.regions.split_functions`): every other function of the
packages is the student's (the ones they write and any they add).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, TracebackType

from .config import TESTS_DIR
from .regions import PACKAGES, Function

__all__ = ["Place", "places", "recursion", "student_place", "where"]


@dataclass(frozen=True, slots=True)
class Place:
    """One frame of the student's packages: ``function`` is ``("blackjack/hand.py", "Hand.get_score")``
    (the qualname as :mod:`.regions` writes it: ``<locals>`` dropped, a lambda or comprehension named by the
    function it is in), ``shown`` the name Python gives the code, ``line`` its 1-based line."""

    function: Function
    shown: str
    line: int
    code: CodeType | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.shown}, {self.function[0]}:{self.line}"


def places(traceback: TracebackType | None) -> list[Place]:
    """The frames of ``traceback`` in ``blackjack/`` or ``gui/`` (not in their tests), outermost first."""
    found = []
    while traceback is not None:
        code = traceback.tb_frame.f_code
        parts = Path(code.co_filename).parts
        for package in PACKAGES:
            if package in parts and TESTS_DIR not in parts:
                index = len(parts) - 1 - parts[::-1].index(package)
                qualname = getattr(code, "co_qualname", code.co_name)
                names = [n for n in qualname.split(".") if n != "<locals>"]
                while names and names[-1].startswith("<"):
                    names.pop()
                found.append(Place(("/".join(parts[index:]), ".".join(names)), qualname, traceback.tb_lineno, code))
                break
        traceback = traceback.tb_next
    return found


def _deepest(found: list[Place], engine: frozenset[Function]) -> tuple[Place | None, Place | None]:
    """The deepest frame of the packages, and the deepest one of the student's code (None when there is none)."""
    deepest = found[-1] if found else None
    student = next((p for p in reversed(found) if p.function not in engine), None)
    return deepest, student


def where(found: list[Place], engine: frozenset[Function], *, stopped: bool = False) -> str:
    """Where in the student's packages a call failed: `` (in Hand.get_score, blackjack/hand.py:88)``.

    It names the deepest frame of the student's code; when the exception came from deeper, in the
    engine they were given, both: `` (in Hand.add_card, blackjack/hand.py:40, called from
    Dealer.play_round, blackjack/player.py:120)``. A call ``stopped`` at its time limit names only the
    student's frame (the loop is theirs, wherever the clock stopped it). Empty when no frame is in
    ``blackjack/`` or ``gui/``.
    """
    deepest, student = _deepest(found, engine)
    if deepest is None:
        return ""
    if student is None:
        return f" (in {deepest})"
    if student is deepest or stopped:
        return f" (in {student})"
    return f" (in {deepest}, called from {student})"


def student_place(found: list[Place], engine: frozenset[Function]) -> Place | None:
    """The deepest frame of the student's code among ``found`` (None when there is none)."""
    return _deepest(found, engine)[1]


def recursion(found: list[Place], engine: frozenset[Function]) -> str:
    """The student's functions that kept calling each other (or themselves) in a ``RecursionError``:
    ``"Hand.get_score (blackjack/hand.py) calls itself"``, ``"Hand.get_score (blackjack/hand.py) and
    Hand.is_soft (blackjack/hand.py) call each other"``; "" when no function of theirs repeats."""
    counts = Counter(place.function for place in found if place.function not in engine)
    looping = [f"{name} ({module})" for (module, name), count in counts.items() if count >= 10]
    if not looping:
        return ""
    if len(looping) == 1:
        return f"{looping[0]} calls itself"
    return f"{', '.join(looping[:-1])} and {looping[-1]} call each other"
