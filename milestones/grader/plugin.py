"""The grading plugin for pytest: points, hidden tests, parts, the student fixture, student messages, results.

Loaded by ``tests/conftest.py`` (``pytest_plugins = ["milestones.grader.plugin"]``). The tests it runs are
judges: they never import the submission, they ask the fixture :func:`student`. For every test under a
``milestone<N>/`` folder it reads ``@pytest.mark.points(n)`` (required; ``points(0)`` for an ungraded test),
``@pytest.mark.hidden`` and the module's ``PART = "<key>"`` (required when the milestone has several parts in
``milestones/points.toml``); a test that breaks these rules fails at set-up with a message saying what to add.
It turns a failure into one line for a student (:func:`student_message`) and writes the results stream
(:func:`.protocol.record`) as the run goes, so a run killed by a time limit keeps what it finished: to the
grader's pipe (:data:`~.protocol.RESULTS_FD_ENV`), or else to ``--results-json PATH``.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Generator, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

import pytest

from .. import REPO_ROOT
from ..config import (GRADING_MARKERS, OBSERVATIONS_PREFIX, Course, load_course, suite_name,
                     suite_number, suite_path)
from ._sandbox import undumpable
from .judge import Launch, Raised, Student, StudentError, StudentTimeout
from .protocol import IMPORTS_CALL, MESSAGE_LIMIT, RESULTS_FD_ENV, RUN_TAG_ENV, clip, record
from .runner import judge_env

__all__ = ["doc_summary", "student", "student_message"]

#: After this many tests of one run were stopped at their time limit, a later call stopped in a function stopped
#: before may run :data:`QUICK_LIMIT` seconds: a submission that loops costs about 3 full limits in all.
RUN_STRIKES = 3
QUICK_LIMIT = 0.1
#: The student's function and file in a stopped call's message: `` (in Hand.get_score, blackjack/hand.py:88)``.
_PLACE = re.compile(r"\(in ([^,()]+, [^:()]+):")

_INFO: pytest.StashKey[dict[str, Any]] = pytest.StashKey()
_PROBLEM: pytest.StashKey[str] = pytest.StashKey()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the grading options to pytest."""
    group = parser.getgroup("milestones", "course grading")
    group.addoption("--results-json", metavar="PATH", default=None,
                    help="append one JSON line per collected test and per result to PATH")
    group.addoption("--test-timeout", metavar="S", type=float, default=0.0,
                    help="stop a call of the student's code after S seconds and fail its test (0 = off)")
    group.addoption("--points-file", metavar="PATH", default=None,
                    help="the course's points.toml (default: milestones/points.toml)")
    group.addoption("--student-limits", metavar="CPU,MB,FILE_MB,PROCS", default="0,0,0,0",
                    help="the student's process's limits: CPU seconds, memory and file MiB, processes (0 = none)")
    group.addoption("--student-spec", metavar="PATH", default=None,
                    help="a graded run's JSON description of how to start the student's process")


def _begin(channel: TextIO) -> TextIO:
    """Write the start marker on a new results channel and return it."""
    channel.write(record("begin"))
    channel.flush()
    return channel


def _open_channel() -> TextIO | None:
    """Open the grader's results pipe named in :data:`RESULTS_FD_ENV` (removing the variable), if any."""
    value = os.environ.pop(RESULTS_FD_ENV, None)
    if value is None:
        return None
    try:
        descriptor = int(value)
        os.set_inheritable(descriptor, False)  # a process the submission starts does not get it
        return _begin(os.fdopen(descriptor, "w", encoding="utf-8"))
    except (ValueError, OSError):
        return None  # no results: the grader says the run never started


#: Opened at import, before pytest imports any code under test; a judge the runner started is made non-dumpable.
_CHANNEL = _open_channel()
if _CHANNEL is not None:
    undumpable()  # the results pipe: not to be opened through /proc/<pid>/fd


class _Recorder:
    """Writes the results lines (to the grader's pipe or ``--results-json``) and keeps each test's outcome."""

    def __init__(self, path: str | None, course: Course) -> None:
        global _CHANNEL
        self.course = course
        self.file: TextIO | None = _CHANNEL
        _CHANNEL = None
        if self.file is None and path:
            self.file = _begin(open(path, "a", encoding="utf-8"))  # noqa: SIM115
        self.outcomes: dict[str, tuple[str, str]] = {}
        self.timed_out: set[str] = set()
        self.stops = 0  # tests of the whole run stopped at a time limit (every module's)
        self.hung: set[str] = set()  # where in the student's code: "Hand.get_score, blackjack/hand.py"

    def limit(self, seconds: float) -> float:
        """The time limit of one call: ``seconds`` until :data:`RUN_STRIKES` tests of the run were stopped at their
        limit, then at most :data:`QUICK_LIMIT` first (:class:`_RunStudent`: a loop costs about 3 full limits per
        run, not per module)."""
        return min(seconds, QUICK_LIMIT) if self.stops >= RUN_STRIKES and seconds > 0 else seconds

    def write(self, kind: str, **fields: Any) -> None:
        """Write one results line (:func:`~.protocol.record`)."""
        if self.file is not None:
            self.file.write(record(kind, **fields))
            self.file.flush()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """Record a test module that failed to import (its tests never get collected)."""
        if report.failed and _milestone_of(Path(report.fspath) / "x") is not None:
            self.write("collect_error", nodeid=report.nodeid, message=_collect_message(report))

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


_RECORDER: pytest.StashKey[_Recorder] = pytest.StashKey()


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``points`` and ``hidden`` markers and open the results recorder."""
    for line in GRADING_MARKERS:
        config.addinivalue_line("markers", line)
    recorder = _Recorder(config.getoption("--results-json"), load_course(config.getoption("--points-file")))
    config.stash[_RECORDER] = recorder
    config.pluginmanager.register(recorder, "milestones-recorder")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the results recorder (its JSON-lines file)."""
    recorder = config.stash.get(_RECORDER, None)
    if recorder is not None:
        recorder.close()


def _milestone_of(path: Path) -> int | None:
    """The number of the innermost ``milestone<N>`` folder holding ``path``, if any."""
    return next((n for part in reversed(path.parts[:-1]) if (n := suite_number(part)) is not None), None)


def doc_summary(doc: str | None) -> str:
    """What a test checks, for ``check``'s "what it checks" line and the grader: the first paragraph of its
    docstring on one line, so a first sentence that wraps onto a second line is never cut mid-sentence."""
    return " ".join(itertools.takewhile(bool, (line.strip() for line in (doc or "").strip().splitlines())))


def _item_info(item: pytest.Item, course: Course) -> tuple[dict[str, Any], str | None]:
    """Return the item's grading record and a problem to report (or None)."""
    milestone = _milestone_of(item.path)
    assert milestone is not None
    name = item.nodeid.split(f"{suite_name(milestone)}/", 1)[-1]
    obj = getattr(item, "obj", None)
    info: dict[str, Any] = {"nodeid": item.nodeid, "name": name, "doc": doc_summary(getattr(obj, "__doc__", None)),
                            "milestone": milestone, "part": None, "points": "0",
                            "hidden": item.get_closest_marker("hidden") is not None}
    marker = item.get_closest_marker("points")
    if marker is None or len(marker.args) != 1:
        return info, (f"{name} has no @pytest.mark.points(n) marker: every test in {suite_path(milestone)}/ "
                      f"needs one (points(0) for an ungraded test); see tests/README.md")
    value = marker.args[0]
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or value < 0:
        return info, f"{name}: points must be a number of at least 0, got {value!r}"
    info["points"] = str(Fraction(str(value)) if isinstance(value, float) else Fraction(value))
    module = getattr(item, "module", None)
    key = getattr(module, "PART", None)
    try:
        info["part"] = course.milestone(milestone).part(key).key
    except KeyError as err:
        return info, f"{name}: {err.args[0]} (see milestones/points.toml and tests/README.md)"
    return info, None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Give each milestone test its points and part (a bad marker becomes the test's failure) and record it; a
    module whose observations (so the student's code) cannot be imported (:func:`_imports_failing`) is recorded as
    a ``collect_error`` with the student's message instead, and its tests are not run."""
    recorder = config.stash[_RECORDER]
    broken = _imports_failing(config, [item for item in items if _milestone_of(item.path) is not None])
    for module, message in broken.items():
        recorder.write("collect_error", nodeid=_module_nodeid(session, module), message=message)
    if broken:
        items[:] = [item for item in items if item.path not in broken]
    for item in items:
        if _milestone_of(item.path) is None:
            continue
        info, problem = _item_info(item, recorder.course)
        item.stash[_INFO] = info
        if problem is not None:
            item.stash[_PROBLEM] = problem
        recorder.write("collected", **info)


def _module_nodeid(session: pytest.Session, module: Path) -> str:
    """A test module's node id, ``tests/milestone1/test_hand.py``."""
    try:
        return module.relative_to(session.config.rootpath).as_posix()
    except ValueError:
        return module.as_posix()


def _imports_failing(config: pytest.Config, items: list[pytest.Item]) -> dict[Path, str]:
    """``test module -> the student's message`` for each module of ``items`` whose observations (so the student's
    code) cannot be imported; one student process tries them all, for each milestone folder."""
    modules: dict[Path, dict[Path, None]] = {}  # folder -> its test modules, in order
    for item in items:
        if "student" in getattr(item, "fixturenames", ()) and _observations(item.path).is_file():
            modules.setdefault(item.path.parent, {})[item.path] = None
    broken: dict[Path, str] = {}
    for tests in map(list, modules.values()):
        with _student_process(config, tests[0]) as process:
            try:
                answer = process(IMPORTS_CALL, *[_observations(t).name for t in tests])
            except StudentError as err:
                answer = {_observations(t).name: err.text for t in tests}
        for test in tests:
            failed = answer.get(_observations(test).name) if isinstance(answer, dict) else None
            if isinstance(failed, dict):
                broken[test] = Raised({**failed, "import": True}).text
            elif isinstance(failed, str):
                broken[test] = failed
    return broken


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a test at once whose points marker was wrong (the problem found at collection)."""
    problem = item.stash.get(_PROBLEM, None)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


#: pytest's message for a ``pytest.raises`` that raised nothing, and the classes it names. pytest 8 writes
#: ``DID NOT RAISE <class 'x.InvalidBetError'>`` (a tuple of those for several); pytest 9.2 writes
#: ``DID NOT RAISE InvalidBetError`` or ``DID NOT RAISE any of (InvalidBetError, ValueError)``.
_DID_NOT_RAISE = re.compile(r"DID NOT RAISE (?:any of )?(.*)", re.DOTALL)
_RAISED_CLASS = re.compile(r"<class '(?:[\w.]*\.)?(\w+)'>|(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*)")
#: An object's default repr, ``<blackjack.round.Round object at 0x7f...>``: its address means nothing to a student.
_ADDRESS = re.compile(r"<([\w.]*?)(\w+) object at 0x[0-9a-fA-F]+>")
#: The same repr as pytest shortens it in a long explanation, ``<te...7fbd0155c450>``.
_SHORTENED_ADDRESS = re.compile(r"<[^<>\s]*\.\.\.[0-9a-fA-F]{6,}>")


def _raised_classes(text: str) -> list[str]:
    """The exception classes a ``DID NOT RAISE`` message names (pytest 8's and 9.2's forms), or ``[]`` for
    any other message."""
    match = _DID_NOT_RAISE.match(text)
    if match is None:
        return []
    return [wrapped or bare for wrapped, bare in _RAISED_CLASS.findall(match.group(1))]


def _bare_assert(text: str) -> str:
    """pytest's explanation of an assert without a message, made readable: its first line and the line saying
    where the values differ, object addresses and pytest's "-v" advice left out (at most 300 characters)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    kept = [lines[0]] + [line for line in lines[1:] if line.startswith(("At index", "Left contains", "Right contains",
                                                                          "Differing"))][:1]
    shown = "; ".join(_SHORTENED_ADDRESS.sub("<object>", _ADDRESS.sub(r"<\2>", line)) for line in kept)
    return f"a check with no explanation of its own failed: {clip(shown, 300)}"


def student_message(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """Turn a judge's failure into one message for a student.

    Returns:
        The student's exception or stopped call as the judge words it
        (:class:`milestones.grader.judge.StudentError`: "not written yet: <what to do>" for
        ``NotImplementedError``, the exception with the function and line in their files),
        the assert's own message (pytest's explanation only when the test gave none), or the
        judge's own error; at most 2000 characters.
    """
    exc = excinfo.value
    if isinstance(exc, StudentError):
        text = exc.text
    elif isinstance(exc, AssertionError):
        text = str(exc)
        if "\nassert " in text:
            text = text.split("\nassert ", 1)[0]
        elif text.startswith("assert "):  # pytest's explanation of an assert that has no message
            text = _bare_assert(text)
        elif not text:
            text = "an assert failed"
    elif isinstance(exc, pytest.fail.Exception):
        text = str(exc.msg)
        raised = _raised_classes(text)
        if raised:
            text = (f"the code under test should have raised {' or '.join(raised)} here, and it raised nothing: "
                    f"it accepted what the test's description says it must refuse")
    else:
        text = f"the test itself failed ({type(exc).__name__}: {exc}): please tell your instructor"
    notes = [str(n) for n in getattr(exc, "__notes__", [])][:3]
    if notes:
        text += "\n" + "\n".join(notes)
    return clip(text)


def _observations(module: Path) -> Path:
    """``observe_hand.py`` for ``test_hand.py``."""
    return module.with_name(OBSERVATIONS_PREFIX + module.name.removeprefix("test"))


def _launch(config: pytest.Config, module: Path, folder: Path) -> Launch:
    """How to start the student's process for the test module ``module``, working in ``folder``: on ``--impl``
    (default: the reference) through the sandbox with ``--student-limits``, or as a graded run's ``--student-spec``
    says (:mod:`.isolation`), with a time limit of ``--test-timeout`` seconds per call."""
    timeout = float(config.getoption("--test-timeout") or 0)
    spec_file = config.getoption("--student-spec")
    observations = _observations(module)
    if spec_file:  # a graded run: the isolated run wrote the whole command
        spec = json.loads(Path(spec_file).read_text(encoding="utf-8"))
        command = [*spec["command"], "--observations", str(Path(spec["observations"]) / observations.name),
                   "--timeout", str(timeout)]
        after = None
        if spec.get("user_uid") is not None:
            from .isolation import kill_user  # noqa: PLC0415 - only a root grader's run has a user

            after = functools.partial(kill_user, int(spec["user_uid"]))
        env = {str(k): str(v) for k, v in spec["env"].items()}
        if RUN_TAG_ENV in os.environ:  # the runner finds every process of the run by it
            env[RUN_TAG_ENV] = os.environ[RUN_TAG_ENV]
        return Launch(command, env, Path(spec["cwd"]), None, timeout, after)  # the sandbox's --output
    impl = Path(config.getoption("--impl", None) or REPO_ROOT).resolve()
    command = [sys.executable, "-P", "-s", "-B", "-m", "milestones.grader.observer", "--impl", str(impl),
               "--observations", str(observations), "--timeout", str(timeout)]
    if os.name == "posix":
        limits = str(config.getoption("--student-limits")).split(",")
        command = [sys.executable, "-P", "-s", "-B", "-m", "milestones.grader._sandbox", *limits, "--", *command]
    env = judge_env()
    env.pop(RESULTS_FD_ENV, None)  # the judge's results pipe is not the student's
    return Launch(command, env, folder, folder / "output.txt", timeout)


@pytest.fixture(scope="module")
def student(request: pytest.FixtureRequest) -> Iterator[Student]:
    """The student's process for this test module: ``student("observation", *args)`` returns plain data.

    Raises (from a call): :class:`milestones.grader.judge.StudentError` and its kinds, which fail the test
    with the student's message.
    """
    module = Path(str(request.path))
    if not _observations(module).is_file():
        pytest.fail(f"{module.name} uses the student fixture, but {_observations(module).name} is missing",
                    pytrace=False)
    with _student_process(request.config, module) as process:
        yield process


class _RunStudent(Student):
    """A :class:`Student` whose calls get the run's time limit (:meth:`_Recorder.limit`)."""

    def __init__(self, launch: Launch, recorder: _Recorder) -> None:
        super().__init__(launch)
        self.recorder = recorder

    def ask(self, call: str, *args: Any, timeout: float | None = None, say: Callable[[str], None] | None = None) -> Any:
        """:meth:`Student.ask` with at most the run's time limit (importing the code keeps its own). A call stopped at
        the short limit in a function that was stopped before says why; in any other place (a slow function that
        has not looped) it runs again with its full limit, so only the looping code loses points."""
        asked = self.launch.timeout if timeout is None else timeout
        limit = asked if call == IMPORTS_CALL else self.recorder.limit(asked)
        try:
            return super().ask(call, *args, timeout=limit, say=say)
        except StudentTimeout as stop:
            place = _PLACE.findall(stop.text)[-1:]
            if limit == asked:
                self.recorder.hung.update(place)
                raise
            if place and place[0] in self.recorder.hung:
                raise StudentTimeout(f"{stop.text} (a function stopped before may run {limit:g} s once "
                                     f"{RUN_STRIKES} tests were stopped at the full {asked:g} s)") from None
        try:
            return super().ask(call, *args, timeout=asked, say=say)
        except StudentTimeout as stop:
            self.recorder.hung.update(_PLACE.findall(stop.text)[-1:])
            raise


@contextlib.contextmanager
def _student_process(config: pytest.Config, module: Path) -> Iterator[Student]:
    """A student's process for the test module ``module`` (started on its first call), with a working folder of
    its own; at the end the process and everything it started are killed and the folder removed."""
    folder = Path(tempfile.mkdtemp(prefix="bj-student-"))
    process = _RunStudent(_launch(config, module, folder), config.stash[_RECORDER])
    try:
        yield process
    finally:
        process.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Keep each milestone test's outcome and student-facing message; record it after teardown."""
    report = yield
    if _INFO not in item.stash:
        return report
    recorder = item.config.stash[_RECORDER]
    nodeid = item.nodeid
    if report.failed and call.excinfo is not None:
        outcome = "failed" if call.when == "call" else "error"
        message = student_message(call.excinfo)
        recorder.outcomes.setdefault(nodeid, (outcome, message))
        if isinstance(call.excinfo.value, StudentError):
            report.longrepr = f"{type(call.excinfo.value).__name__}: {message}"  # the judge's traceback says nothing
        if isinstance(call.excinfo.value, StudentTimeout):
            recorder.timed_out.add(nodeid)
            recorder.stops += 1
    elif report.skipped and call.when != "teardown":
        reason = getattr(report, "wasxfail", None)
        if reason is not None:
            recorder.outcomes.setdefault(nodeid, ("failed", f"expected to fail: {reason}"))
        else:
            longrepr = report.longrepr
            text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
            recorder.outcomes.setdefault(nodeid, ("skipped", text.removeprefix("Skipped: ")))
    elif report.passed and call.when == "call":
        if getattr(report, "wasxfail", None) is not None:
            recorder.outcomes.setdefault(nodeid, ("failed", "passed although marked xfail"))
        recorder.outcomes.setdefault(nodeid, ("passed", ""))
    if call.when == "teardown":
        outcome, message = recorder.outcomes.pop(nodeid, ("error", "the test did not run"))
        timed_out = nodeid in recorder.timed_out
        recorder.timed_out.discard(nodeid)
        recorder.write("result", nodeid=nodeid, outcome=outcome, message=message, timed_out=timed_out)
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Record that a milestone test started (a test that never finishes still shows up)."""
    if _INFO in item.stash:
        item.config.stash[_RECORDER].write("start", nodeid=item.nodeid)


def _collect_message(report: pytest.CollectReport) -> str:
    text = str(report.longrepr)
    errors = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    message = errors[-1] if errors else (text.strip().splitlines() or ["import failed"])[-1]
    return f"a test module could not be loaded: {message}: please tell your instructor"[:MESSAGE_LIMIT]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Record that the session started: pytest read its options and has imported no test module yet."""
    session.config.stash[_RECORDER].write("session")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Record the end of the session with pytest's exit status."""
    session.config.stash[_RECORDER].write("finished", exitstatus=int(exitstatus))
