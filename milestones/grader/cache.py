"""Grades kept between grading runs, one small JSON file per submission and milestone, reused when the submission,
the suite, the kit and the options are all unchanged (the SHA-256 of each is in the key; docs/instructor.md
section 2). Delete the folder at will; ``grade --fresh`` regrades and overwrites.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from fractions import Fraction
from pathlib import Path

from ..check import write_whole
from ..config import Milestone
from ._sandbox import landlock_abi
from .isolation import MAX_COPIED_FILES, MAX_COPIED_MB, digest, is_root
from .runner import TestRecord
from .scores import MilestoneGrade, PartScore, TestScore

__all__ = ["default_folder", "fingerprint", "load", "store", "untrusted"]

_FORMAT = 1


def default_folder() -> Path:
    """``$XDG_CACHE_HOME/blackjack-kit/grades`` (``~/.cache/...`` when ``XDG_CACHE_HOME`` is unset or empty)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "blackjack-kit" / "grades"


def untrusted() -> str | None:
    """Why a cache folder cannot be trusted here, or None when it can: a submission's code runs as the grader's own
    user and Landlock, which keeps its writes inside its run's folders, is missing (a kernel before 5.13), so it
    could write a grade into the cache for a later run to reuse."""
    if is_root() or landlock_abi() >= 1:
        return None
    return "grades are not kept between runs here: without Landlock (and not root) a submission could write to them"


def fingerprint(folder: Path) -> str | None:
    """The SHA-256 of :func:`~.isolation.digest` of ``folder``; None when it holds more than the copy of a
    submission takes (:data:`MAX_COPIED_FILES`, :data:`MAX_COPIED_MB`), which the grade then does not keep."""
    files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    if len(files) > MAX_COPIED_FILES or sum(p.stat().st_size for p in files) > MAX_COPIED_MB * 1024 * 1024:
        return None
    return key(sorted(digest(folder).items()))


def key(*parts: object) -> str:
    """The cache key of ``parts`` (digests, options): a SHA-256 of their text, with Python's version."""
    return hashlib.sha256(repr((_FORMAT, sys.version, *parts)).encode("utf-8", "surrogateescape")).hexdigest()


def load(folder: Path, name: str, milestone: Milestone, inventory: dict[str, TestRecord]) -> MilestoneGrade | None:
    """The grade kept under ``name``, rebuilt on ``inventory``; None when there is none (or it cannot be read)."""
    try:
        data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        tests = data["tests"]
        parts = [PartScore(part, tuple(_test(r, *tests[r.nodeid]) for r in inventory.values() if r.part == part.key))
                 for part in milestone.parts]
        return MilestoneGrade(milestone, parts, list(data["notes"]), bool(data["layered"]), list(data["unprotected"]))
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        return None


def _test(record: TestRecord, outcome: str, message: str, score: str, max_score: str) -> TestScore:
    """A test's score as :func:`store` keeps it. Raises TypeError: a field is not text."""
    if not all(isinstance(field, str) for field in (outcome, message, score, max_score)):
        raise TypeError("a test's fields are text")
    return TestScore(record, outcome, message, Fraction(score), Fraction(max_score))


def store(folder: Path, name: str, grade: MilestoneGrade) -> None:
    """Keep ``grade`` under ``name`` (a file written whole; a cache that cannot be written is left alone)."""
    data = {"notes": grade.notes, "layered": grade.layered, "unprotected": grade.unprotected,
            "tests": {t.record.nodeid: [t.outcome, t.message, str(t.score), str(t.max_score)] for t in grade.tests}}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(folder / f"{name}.json", json.dumps(data))
    except OSError:
        pass
