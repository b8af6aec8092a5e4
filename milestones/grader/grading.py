"""Grade submissions: ``Grader`` runs each milestone's suite on each submission, isolated, and scores the runs.

Orchestration only: the submissions come from :mod:`.intake`, each run from :func:`.isolation.run_isolated`
(the reference's collection from :func:`.runner.run_suite`), the points from :mod:`.scores`; their public
names are importable from here too. Layered grading (docs/instructor.md section 2) makes its hybrid with
:func:`milestones.starter.write_hybrid`, which parses the student's modules in a child process, never in the
grader; the better total counts, and a hybrid that cannot be made or run leaves the plain grade, noted.
Whatever a submission makes the grader raise (a file :func:`.isolation.copy_submission` refuses, or anything
else) is that submission's 0 for the milestone, with a one-line reason; the batch goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import astuple
from pathlib import Path

from .. import REPO_ROOT
from ..config import Course, Milestone, load_course, suite_name, suite_path, suites_dir
from ..check import write_whole
from ..starter import write_hybrid
from . import cache
from .cache import untrusted
from .intake import MAX_NESTED_ZIPS, MAX_UNZIPPED_MB, MAX_ZIP_ENTRIES, MAX_ZIP_MB, Submission, find_submissions
from .isolation import SubmissionRefused, digest, run_isolated
from .runner import GraderError, Limits, TestRecord, run_suite
from .scores import (TAMPERED, MilestoneGrade, PartScore, SubmissionGrade, TestScore, inventory_json, read_inventory,
                     score_run)

__all__ = ["DEFAULT_JOBS", "MAX_NESTED_ZIPS", "MAX_UNZIPPED_MB", "MAX_ZIP_ENTRIES", "MAX_ZIP_MB", "TAMPERED", "Grader",
           "MilestoneGrade", "PartScore", "Submission", "SubmissionGrade", "TestScore", "find_submissions",
           "inventory_json", "read_inventory", "score_run"]

#: Submissions graded at the same time by default: two, or one on a single-core machine.
DEFAULT_JOBS = min(2, os.cpu_count() or 1)


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` as one line of printable characters (others become spaces), at most ``limit`` of them."""
    shown = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(shown.split())[:limit]


class Grader:
    """Grades submissions milestone by milestone.

    Args:
        course: milestones and points (default: ``milestones/points.toml``).
        tests: the folder holding ``milestone1/``, ``milestone2/`` ... (default: the repo's ``tests/``).
        reference: the folder holding the reference packages, for layered grading.
        limits: per-run limits.
        jobs: runs at the same time (default :data:`DEFAULT_JOBS`).
        layered: grade later milestones on top of the reference's earlier ones too.
        hidden: include hidden tests (the instructor's grade); False grades visible ones only.
        inventories: the tests of some milestones as collected earlier on the reference
            (:func:`read_inventory`), so these are not collected again here (the autograder
            zip ships them instead of the reference solution).
        cache: a folder of grades kept between runs (:mod:`.cache`): a grade is reused when
            the submission, the suite, the kit and the options are unchanged (None: none kept; none kept either
            where a submission could write the folder, :func:`.cache.untrusted`).
        fresh: grade again whatever the cache holds (and keep the new grades).
    """

    def __init__(self, *, course: Course | None = None, tests: Path = suites_dir(REPO_ROOT),
                 reference: Path = REPO_ROOT, limits: Limits = Limits(), jobs: int = DEFAULT_JOBS,
                 layered: bool = False, hidden: bool = True,
                 inventories: dict[int, dict[str, TestRecord]] | None = None, cache: Path | None = None,
                 fresh: bool = False) -> None:
        self.course = course or load_course()
        self.tests = tests
        self.reference = reference
        self.limits = limits
        self.jobs = max(1, jobs)
        self.layered = layered
        self.hidden = hidden
        self.cache = None if untrusted() else cache  # a submission could write it: nothing is kept (see untrusted)
        self.fresh = fresh
        self._kit: str | None = None
        self._digests: dict[int, dict[str, str]] = {}
        self._lock = threading.Lock()
        self._inventory: dict[int, dict[str, TestRecord]] = {
            number: {nodeid: r for nodeid, r in records.items() if hidden or not r.hidden}
            for number, records in (inventories or {}).items()}

    def folder(self, number: int) -> Path:
        """The test folder of milestone ``number``."""
        return self.tests / suite_name(number)

    def inventory(self, number: int) -> dict[str, TestRecord]:
        """The tests of milestone ``number`` and their weights, collected on the reference (cached).

        Raises:
            FileNotFoundError: the milestone has no suite folder (nothing to grade is never full marks).
            RuntimeError: the suite does not collect cleanly on the reference.
        """
        if number not in self._inventory:
            if not self.folder(number).is_dir():
                raise FileNotFoundError(f"{self.folder(number)}: no such suite (the course's test suites are "
                                        f"missing; reinstall the kit or pass --tests)")
            self._unchanged(number)
            kept = None if self.cache is None else self.cache / f"{self._key(number, 'inventory')}.json"
            if kept is not None and kept.is_file() and not self.fresh:
                with contextlib.suppress(ValueError):
                    self._inventory[number] = read_inventory(kept)[number]
                    return self._inventory[number]
            run = run_suite(self.folder(number), None, limits=self.limits, hidden=self.hidden, collect_only=True)
            if run.collect_errors or not run.finished:
                problems = "; ".join(m for _, m in run.collect_errors) or run.output[-2000:]
                raise RuntimeError(f"{suite_path(number)} does not collect on the reference: {problems}")
            self._inventory[number] = run.collected
            if kept is not None:
                with contextlib.suppress(OSError):
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    write_whole(kept, inventory_json({number: run.collected}))
        return self._inventory[number]

    def _unchanged(self, number: int) -> None:
        """GraderError when a file of milestone ``number``'s tests changed since grading started (a submission's
        code wrote to them, or someone edited them): no later submission is graded on changed tests."""
        folder = self.folder(number)
        now = {**digest(folder), **{f"../{p.name}": d for p in folder.parent.glob("*.py")
                                    for d in [hashlib.sha256(p.read_bytes()).hexdigest()]}}
        with self._lock:
            before = self._digests.setdefault(number, now)
        if now != before:
            changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
            raise GraderError(f"the tests in {folder} changed while grading ({', '.join(changed[:3])}); "
                              f"restore them and grade again")

    def _grade_one(self, submission: Submission, milestone: Milestone) -> MilestoneGrade:
        inventory = self.inventory(milestone.number)
        if submission.folder is None:
            return score_run(milestone, inventory, None, self.limits, submission.note)
        try:
            name = self._cache_name(submission, milestone.number)
            kept = None if name is None or self.fresh else cache.load(self.cache or Path(), name, milestone, inventory)
            if kept is not None:
                return kept
            grade = self._grade_folder(submission, milestone, inventory)
            if name is not None:
                cache.store(self.cache or Path(), name, grade)
            return grade
        except GraderError:
            raise  # the grader's own fault (a suite that changed, one that cannot run): the batch stops
        except Exception as err:  # noqa: BLE001 - the submission could not be copied, compiled or run:
            # a 0 with the reason, and the batch goes on; a refused copy names the file in its own words
            reason = str(err) if isinstance(err, SubmissionRefused) else f"{type(err).__name__}: {err}"
            return score_run(milestone, inventory, None, self.limits,
                             f"this submission could not be graded: {_one_line(reason)}")

    def _cache_name(self, submission: Submission, number: int) -> str | None:
        """The cache's name for ``submission``'s grade on milestone ``number`` (:meth:`_key`); None when nothing is
        kept."""
        project = cache.fingerprint(submission.folder) if self.cache and submission.folder else None
        return None if project is None else self._key(number, project)

    def _key(self, number: int, what: str) -> str:
        """A cache key for ``what`` on milestone ``number``: the digests of the suite, the kit, the reference and
        the options."""
        if self._kit is None:
            self._kit = cache.key(cache.fingerprint(Path(__file__).parents[1]),
                                  cache.fingerprint(self.reference / "blackjack"))
        self._unchanged(number)
        return cache.key(self._kit, what, sorted(self._digests[number].items()), number,
                         astuple(self.limits), self.hidden, self.layered)

    def _grade_folder(self, submission: Submission, milestone: Milestone,
                      inventory: dict[str, TestRecord]) -> MilestoneGrade:
        """Grade ``submission``'s folder on ``milestone``, layered on the reference's earlier code when that
        scores higher (see :class:`Grader`); a layered grading that fails leaves the plain grade, noted."""
        assert submission.folder is not None
        self._unchanged(milestone.number)
        run = run_isolated(self.folder(milestone.number), submission.folder, limits=self.limits, hidden=self.hidden)
        self._unchanged(milestone.number)
        grade = score_run(milestone, inventory, run, self.limits)
        if self.layered and milestone.number > 1 and not grade.full_marks and not run.tampered:
            try:
                layered = self._grade_layered(submission.folder, milestone, inventory)
            except GraderError:
                raise
            except Exception as err:  # noqa: BLE001 - whatever the hybrid cannot hold: the plain grade stands
                grade.notes.append(f"layered grading was not done: {_one_line(f'{type(err).__name__}: {err}')}")
                return grade
            if layered.regular + layered.extra > grade.regular + grade.extra:
                return layered
        return grade

    def _grade_layered(self, folder: Path, milestone: Milestone, inventory: dict[str, TestRecord]) -> MilestoneGrade:
        """Grade the hybrid of ``folder`` (:func:`~milestones.starter.write_hybrid`) on ``milestone``; its notes
        say what was put back and which modules were replaced, and why."""
        with tempfile.TemporaryDirectory(prefix="bj-layered-") as work:
            hybrid = write_hybrid(folder, Path(work), milestone.number, self.reference)
            layered_run = run_isolated(self.folder(milestone.number), Path(work), limits=self.limits,
                                       hidden=self.hidden)
        self._unchanged(milestone.number)
        layered = score_run(milestone, inventory, layered_run, self.limits)
        layered.layered = True
        put_back = len(hybrid.restored) + len(hybrid.replaced_modules)
        notes = [f"graded with the reference's code of milestones before {milestone.number} under yours "
                 f"({put_back} functions or modules put back), because that scored higher than your own earlier code"]
        notes += [f"{module} was replaced by the reference's: {reason}" for module, reason in hybrid.reasons.items()
                  if reason != "the module is missing"]
        layered.notes[:0] = notes
        return layered

    def grade(self, submissions: list[Submission], milestones: list[int] | None = None,
              progress: Callable[[int, int, float, str], None] | None = None) -> list[SubmissionGrade]:
        """Grade every submission on every chosen milestone (default: all with a test folder).

        ``progress``, if given, is called as each grading starts and ends with the gradings done, their number,
        the seconds since the start and the names of the submissions being graded (``"sec1/sam, sec2/tim"``).

        Raises:
            KeyError: an unknown milestone number.
            ValueError: no milestone is chosen and ``tests`` has no milestone folder.
            RuntimeError: a suite does not collect on the reference, or the grader cannot run
                a suite at all (:class:`milestones.grader.runner.GraderError`).
        """
        numbers = milestones or self.course.with_suites(self.tests)
        if not numbers:
            raise ValueError(f"{self.tests} holds no milestone test folder ({suite_name(1)}/, {suite_name(2)}/ ...)")
        chosen = [self.course.milestone(n) for n in numbers]
        for milestone in chosen:
            self.inventory(milestone.number)
        jobs = [(s, m) for s in submissions for m in chosen]
        start, done, running = time.monotonic(), 0, list[str]()
        lock = threading.Lock()

        def tell() -> None:
            if progress is not None:
                progress(done, len(jobs), time.monotonic() - start, ", ".join(running))

        def one(submission: Submission, milestone: Milestone) -> MilestoneGrade:
            with lock:
                running.append(submission.name)
                tell()
            try:
                return self._grade_one(submission, milestone)
            finally:
                with lock:
                    running.remove(submission.name)

        pool = ThreadPoolExecutor(max_workers=self.jobs)
        try:
            futures = [pool.submit(one, *job) for job in jobs]
            for future in as_completed(futures):
                future.result()
                with lock:
                    done += 1
                    tell()
            results = [future.result() for future in futures]
        finally:  # a GraderError stops the batch without running the jobs not started yet
            pool.shutdown(wait=True, cancel_futures=True)
        grades = {id(s): SubmissionGrade(s) for s in submissions}
        for (submission, _), result in zip(jobs, results, strict=True):
            grades[id(submission)].milestones.append(result)
        return [grades[id(s)] for s in submissions]
