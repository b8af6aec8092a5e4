"""The grading plugin for pytest: points, hidden tests, parts, student messages, a results file.

Loaded by ``tests/conftest.py`` (``pytest_plugins = ["milestones.pytest_plugin"]``).

For every test under a ``milestone<N>/`` folder it

* reads ``@pytest.mark.points(n)`` (required; ``points(0)`` for an ungraded test),
  ``@pytest.mark.hidden`` and the module's ``PART = "<key>"`` (required when the
  milestone has several parts in ``milestones/points.toml``); a test that breaks these
  rules fails at set-up with a message saying what to add;
* turns a failure into one line for a student: the assert's message, or "not written
  yet: <what to do>" for a starter's ``NotImplementedError``, or the exception with the
  function and line in the student's code where it was raised (and the engine function
  it came from, when that is deeper: :data:`.regions.FUNCTIONS_FILE` tells them apart);
* writes one JSON object per line as the run goes (so a run killed by a time limit keeps
  what it finished) to the pipe whose descriptor the grader puts in the environment
  variable ``MILESTONES_RESULTS_FD`` (:data:`RESULTS_FD_ENV`), or else to the file given by
  ``--results-json PATH``. The variable is read and removed, the descriptor made
  non-inheritable and ``{"kind": "begin"}`` written when this module is imported, which
  pytest does (through ``tests/conftest.py``) before it imports any code under test, so
  the submission finds neither a path in ``sys.argv`` nor the variable. Then:

  ``{"kind": "collected", "nodeid", "name", "doc", "milestone", "part", "points", "hidden"}``,
  ``{"kind": "start", "nodeid"}``, ``{"kind": "result", "nodeid", "outcome", "message", "timed_out"}``
  (outcome ``passed``, ``failed``, ``error`` or ``skipped``; ``timed_out``: stopped at ``--test-timeout``),
  ``{"kind": "collect_error", "nodeid", "message"}``, ``{"kind": "finished", "exitstatus"}``,
  and first ``{"kind": "session"}`` when the session starts (options read, no test module imported);
* with ``--test-timeout S`` (POSIX), stops a test's set-up or body after S seconds of
  wall time, so one endless loop costs only that test; each test stopped so raises the
  run's soft ``RLIMIT_CPU`` by S (the runner gives the run S more seconds of wall time too).
  Once three tests were stopped in the same function of the student's code, a later test
  is stopped as soon as one call of that function has run for one second.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import signal
import sys
import time
from collections.abc import Generator
from fractions import Fraction
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, TextIO

import pytest

from .config import (GRADING_MARKERS, ISOLATED_ENV, RESULTS_FD_ENV, SITE_MIRRORS_ENV, TESTS_DIR, Course,
                     load_course, mirror_name, suite_name, suite_number, suite_path)
from . import REPO_ROOT
from .regions import PACKAGES, Function, split_functions

__all__ = ["TestTimeout", "doc_summary", "student_message"]

_MESSAGE_LIMIT = 2000
#: After this many tests were stopped at ``--test-timeout`` in the same function of the
#: student's code, a later test is stopped once one call of that function has run
#: :data:`_QUICK_STOP` seconds (so a loop in ``Hand.get_score`` does not cost 10 s per test).
_HANG_REPEAT = 3
_QUICK_STOP = 1.0
_PACKAGE_PATH = "|".join(re.escape(p) for p in PACKAGES)
#: A place in the student's packages in a traceback: Python's long form (``File ".../blackjack/deck.py",
#: line 17``) or pytest's short one (``blackjack/deck.py:17: in <module>``).
_LOCATED = re.compile(rf'File "(?:.*?/)?((?:{_PACKAGE_PATH})/[^"]*)", line (\d+)'
                      rf'|^(?:.*?/)?((?:{_PACKAGE_PATH})/[^:\s]+\.py):(\d+): in ', re.M)
#: Part of the ``OSError`` pytest raises when a test reads its captured stdin (``input()``).
_READS_STDIN = "reading from stdin while output is captured"
_INFO: pytest.StashKey[dict[str, Any]] = pytest.StashKey()
_PROBLEM: pytest.StashKey[str] = pytest.StashKey()


class TestTimeout(BaseException):
    """A test ran past ``--test-timeout`` seconds (a ``BaseException``, so ``except Exception`` cannot swallow it)."""

    __test__ = False  # not a test class, despite the name


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--results-json``, ``--test-timeout`` (seconds) and ``--points-file`` to pytest."""
    group = parser.getgroup("milestones", "course grading")
    group.addoption("--results-json", metavar="PATH", default=None,
                    help="append one JSON line per collected test and per result to PATH")
    group.addoption("--test-timeout", metavar="S", type=float, default=0.0,
                    help="fail a test whose set-up or body runs longer than S seconds (POSIX; 0 = off)")
    group.addoption("--points-file", metavar="PATH", default=None,
                    help="the course's points.toml (default: milestones/points.toml)")


def _begin(channel: TextIO) -> TextIO:
    """Write the start marker on a new results channel and return it."""
    channel.write(json.dumps({"kind": "begin"}) + "\n")
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


#: Opened at import, before pytest imports any code under test.
_CHANNEL = _open_channel()


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
        #: the student's function each stopped test was stopped in -> how many tests
        self.stopped_in: dict[CodeType, int] = {}

    def hanging(self) -> dict[CodeType, int]:
        """The functions tests were stopped in at least :data:`_HANG_REPEAT` times, with the count."""
        return {code: n for code, n in self.stopped_in.items() if n >= _HANG_REPEAT}

    def write(self, record: dict[str, Any]) -> None:
        if self.file is not None:
            self.file.write(json.dumps(record) + "\n")
            self.file.flush()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """Record a test module that failed to import (its tests never get collected)."""
        if report.failed and _milestone_of(Path(report.fspath) / "x") is not None:
            self.write({"kind": "collect_error", "nodeid": report.nodeid, "message": _collect_message(report)})

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
    impl = config.getoption("--impl", None)
    if impl and os.environ.get(ISOLATED_ENV):
        _drop_other_packages(Path(impl))


def _drop_other_packages(impl: Path) -> None:
    """Take every folder but ``impl`` that holds ``blackjack`` or ``gui`` off ``sys.path``, so the
    submission's code does not find the reference there: an editable install's path to the kit goes, and
    a ``site-packages`` the kit was installed into is replaced by the runner's mirror of it without the
    kit's packages (:func:`milestones.isolation.site_mirrors`), which keeps pytest and the rest."""
    keep = impl.resolve()
    mirrors = os.environ.get(SITE_MIRRORS_ENV)
    for index, entry in reversed(list(enumerate(sys.path))):
        folder = Path(entry or ".").resolve()
        if folder == keep or not any((folder / package / "__init__.py").is_file() for package in PACKAGES):
            continue
        mirror = Path(mirrors) / mirror_name(folder) if mirrors else None
        if mirror is not None and mirror.is_dir():
            sys.path[index] = str(mirror)
        else:
            del sys.path[index]

def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the results recorder (its JSON-lines file)."""
    recorder = config.stash.get(_RECORDER, None)
    if recorder is not None:
        recorder.close()


def _milestone_of(path: Path) -> int | None:
    for part in reversed(path.parts[:-1]):
        number = suite_number(part)
        if number is not None:
            return number
    return None


def doc_summary(doc: str | None) -> str:
    """What a test checks, for ``check``'s "what it checks" line and the grader: the first paragraph of its
    docstring on one line, so a first sentence that wraps onto a second line is never cut mid-sentence."""
    lines: list[str] = []
    for line in (doc or "").strip().splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    return " ".join(lines)


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
        milestone_spec = course.milestone(milestone)
        info["part"] = milestone_spec.part(key).key
    except KeyError as err:
        return info, f"{name}: {err.args[0]} (see milestones/points.toml and tests/README.md)"
    return info, None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Give each milestone test its points and part (a bad marker becomes the test's failure) and record it."""
    recorder = config.stash[_RECORDER]
    for item in items:
        if _milestone_of(item.path) is None:
            continue
        info, problem = _item_info(item, recorder.course)
        item.stash[_INFO] = info
        if problem is not None:
            item.stash[_PROBLEM] = problem
        recorder.write({"kind": "collected", **info})


class _GradedModule(pytest.Module):
    """A milestone test module whose import turns ``sys.exit()`` in the student's code into a collection error."""

    def _getobj(self) -> Any:
        try:
            return super()._getobj()  # type: ignore[no-untyped-call]
        except SystemExit as exc:
            raise self.CollectError(f"SystemExit: importing your code called sys.exit({exc.code!r}) or exit(); "
                                    f"a module must not end the program when it is imported") from None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    """Collect milestone test modules as :class:`_GradedModule` (an import-time ``sys.exit`` is an error)."""
    if _milestone_of(module_path) is None or module_path.name == "__init__.py":
        return None
    return _GradedModule.from_parent(parent, path=module_path)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a test at once whose points marker was wrong (the problem found at collection)."""
    problem = item.stash.get(_PROBLEM, None)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def _grant_cpu(seconds: float) -> None:
    """Raise the soft ``RLIMIT_CPU`` (set by the sandbox) by ``seconds``: a test stopped at its own limit
    brings its own CPU time, as it brings its own wall time in the runner."""
    try:
        import resource
    except ImportError:  # not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if soft == resource.RLIM_INFINITY:
        return
    raised = soft + math.ceil(seconds)
    if hard != resource.RLIM_INFINITY:
        raised = min(raised, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (raised, hard))


class _Alarm:
    """The ``SIGALRM`` handler of one timed set-up or test body.

    It stops the test at its deadline, and earlier when one call of a function known to
    hang (:data:`_HANG_REPEAT` earlier tests were stopped in it) has been running for
    :data:`_QUICK_STOP` seconds.
    """

    def __init__(self, seconds: float, hanging: dict[CodeType, int]) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.hanging = hanging
        self.watched: tuple[FrameType, float] | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if now >= self.deadline - 0.01:
            raise TestTimeout(_timeout_text(self.seconds))
        outermost = None
        while frame is not None:
            if frame.f_code in self.hanging:
                outermost = frame
            frame = frame.f_back
        if outermost is None:
            self.watched = None
        elif self.watched is None or self.watched[0] is not outermost:
            self.watched = (outermost, now)
        elif now - self.watched[1] >= _QUICK_STOP - 0.01:
            code = outermost.f_code
            raise TestTimeout(f"was stopped after {_QUICK_STOP:g} s in {code.co_qualname}, which was already "
                              f"stopped in {self.hanging[code]} other tests: look for a loop that never ends")


def _timeout_text(seconds: float) -> str:
    return f"took longer than {seconds:g} s and was stopped: look for a loop that never ends"


def _timed(item: pytest.Item) -> Generator[None, None, None]:
    seconds = float(item.config.getoption("--test-timeout") or 0)
    usable = seconds > 0 and hasattr(signal, "setitimer")
    if usable:
        hanging = item.config.stash[_RECORDER].hanging()
        alarm = _Alarm(seconds, hanging)
        previous = signal.signal(signal.SIGALRM, alarm)
        if hanging and seconds > _QUICK_STOP:  # look every quarter second for a known loop
            signal.setitimer(signal.ITIMER_REAL, _QUICK_STOP / 4, _QUICK_STOP / 4)
        else:
            signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)  # again every 0.5 s if swallowed
    try:
        yield
    finally:
        if usable:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            alarm.watched = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Run the test body under the ``--test-timeout`` limit."""
    timer = _timed(item)
    next(timer)
    try:
        return (yield)
    finally:
        timer.close()


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: Any, request: pytest.FixtureRequest) -> Generator[None, Any, Any]:
    """Run a test's fixture set-up under the same ``--test-timeout`` limit as its body."""
    timer = _timed(request.node) if isinstance(request.node, pytest.Item) else None
    if timer is not None:
        next(timer)
    try:
        return (yield)
    finally:
        if timer is not None:
            timer.close()


@functools.cache
def _engine() -> frozenset[Function]:
    """The engine's functions: those of the kit's packages that no student writes (read once, on a first failure)."""
    return split_functions(REPO_ROOT)[1]


def _function(entry: Any) -> Function | None:
    """``(module, qualname)`` of a traceback entry in blackjack/ or gui/ (not their tests), or None.

    The qualname is the one :mod:`.regions` writes: ``<locals>`` dropped and a lambda or
    comprehension named by the function it is in (``"Hand.get_score"``, ``"f.g"``).
    """
    parts = Path(str(entry.path)).parts
    for package in PACKAGES:
        if package in parts and TESTS_DIR not in parts:
            index = len(parts) - 1 - parts[::-1].index(package)
            code = entry.frame.code.raw
            names = [n for n in getattr(code, "co_qualname", code.co_name).split(".") if n != "<locals>"]
            while names and names[-1].startswith("<"):
                names.pop()
            return "/".join(parts[index:]), ".".join(names)
    return None


def _student_entries(excinfo: pytest.ExceptionInfo[BaseException]) -> tuple[Any, Any]:
    """The deepest traceback entry in blackjack/ or gui/, and the deepest one in the student's code there.

    The student's code is every function but the engine's (:func:`.regions.split_functions`):
    the ones they write and any they add. Either entry is None when there is none.
    """
    deepest = None
    for entry in reversed(excinfo.traceback):
        function = _function(entry)
        if function is None:
            continue
        if deepest is None:
            deepest = entry
        if function not in _engine():
            return deepest, entry
    return deepest, None


def _place(entry: Any) -> str:
    """``Hand.get_score, blackjack/hand.py:88`` for a traceback entry in a student package."""
    function = _function(entry)
    assert function is not None
    code = entry.frame.code.raw
    return f"{getattr(code, 'co_qualname', code.co_name)}, {function[0]}:{entry.lineno + 1}"


def _where(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """Where in the student's packages a test failed: `` (in Hand.get_score, blackjack/hand.py:88)``.

    It names the deepest frame of the student's code; when the exception came from
    deeper, in the engine they were given, both: `` (in Hand.add_card, blackjack/hand.py:40,
    called from Dealer.play_round, blackjack/player.py:120)``. A test stopped at its time
    limit names only the student's frame (the loop is theirs, wherever the clock
    stopped it). Empty when no frame is in blackjack/ or gui/.
    """
    deepest, student = _student_entries(excinfo)
    if deepest is None:
        return ""
    if student is None:
        return f" (in {_place(deepest)})"
    if student is deepest or isinstance(excinfo.value, TestTimeout):
        return f" (in {_place(student)})"
    return f" (in {_place(deepest)}, called from {_place(student)})"


def _recursion(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """The student's functions that kept calling each other (or themselves) in a ``RecursionError``:
    ``"Hand.get_score (blackjack/hand.py) calls itself"``, ``"Hand.get_score (blackjack/hand.py) and
    Hand.is_soft (blackjack/hand.py) call each other"``; "" when no function of theirs repeats."""
    counts: dict[Function, int] = {}
    for entry in excinfo.traceback:
        function = _function(entry)
        if function is not None and function not in _engine():
            counts[function] = counts.get(function, 0) + 1
    looping = [f"{name} ({module})" for (module, name), count in counts.items() if count >= 10]
    if not looping:
        return ""
    if len(looping) == 1:
        return f"{looping[0]} calls itself"
    return f"{', '.join(looping[:-1])} and {looping[-1]} call each other"


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
    if len(shown) > 300:
        shown = shown[:297] + "..."
    return f"a check with no explanation of its own failed: {shown}"


def student_message(excinfo: pytest.ExceptionInfo[BaseException], timeout: float = 0.0) -> str:
    """Turn a test's exception into one message for a student.

    Args:
        excinfo: the failure.
        timeout: the ``--test-timeout`` in force, for the message of a :class:`TestTimeout`.

    Returns:
        The assert's own message (pytest's explanation only when the test gave none),
        ``"not written yet: <what to do>"`` for ``NotImplementedError``, the student's
        functions that call each other without end for a ``RecursionError``, what to do
        instead of ``input()`` (pytest's own advice, ``-s``, does not apply to grading), or
        ``"<Exception>: <text> (in <function>, <file>:<line>)"``; at most 2000 characters.
    """
    exc = excinfo.value
    if isinstance(exc, TestTimeout):
        text = (exc.args[0] if exc.args else _timeout_text(timeout)) + _where(excinfo)
    elif isinstance(exc, AssertionError):
        text = str(exc)
        if "\nassert " in text:
            text = text.split("\nassert ", 1)[0]
        elif text.startswith("assert "):  # pytest's explanation of an assert that has no message
            text = _bare_assert(text) + _where(excinfo)
        elif not text:
            text = "an assert failed" + _where(excinfo)
    elif isinstance(exc, NotImplementedError):
        text = f"not written yet: {exc}{_where(excinfo)}"
    elif isinstance(exc, SystemExit):
        text = (f"your code called sys.exit({exc.code!r}) or exit() during the test{_where(excinfo)}; "
                f"a library function must return or raise, never end the program")
    elif isinstance(exc, pytest.fail.Exception):
        text = str(exc.msg)
        raised = _raised_classes(text)
        if raised:
            text = (f"the code under test should have raised {' or '.join(raised)} here, and it raised nothing: "
                    f"it accepted what the test's description says it must refuse")
    elif isinstance(exc, RecursionError) and (cycle := _recursion(excinfo)):
        text = (f"RecursionError: {cycle} without end, until Python gave up; make sure one of them computes "
                f"its answer without calling the other")
    elif isinstance(exc, OSError) and _READS_STDIN in str(exc):
        text = (f"your code called input() (or read sys.stdin) during the test{_where(excinfo)}; the tests "
                f"type nothing: take what you need as arguments, and leave the keyboard to the game's front end")
    else:
        text = f"{type(exc).__name__}: {exc}{_where(excinfo)}"
        if isinstance(exc, (AttributeError, TypeError)) and "NoneType" in str(exc):
            text += "; a value was None: does a function you wrote end without returning its result?"
    notes = [str(n) for n in getattr(exc, "__notes__", [])][:3]
    if notes:
        text += "\n" + "\n".join(notes)
    if len(text) > _MESSAGE_LIMIT:
        text = text[:_MESSAGE_LIMIT - 3] + "..."
    return text


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
        seconds = float(item.config.getoption("--test-timeout") or 0)
        message = student_message(call.excinfo, seconds)
        recorder.outcomes.setdefault(nodeid, (outcome, message))
        if isinstance(call.excinfo.value, TestTimeout):
            # pytest's traceback ends wherever the clock stopped the test, often in given code;
            # the message names the student's loop instead
            report.longrepr = f"TestTimeout: {message}"
        if isinstance(call.excinfo.value, TestTimeout) and nodeid not in recorder.timed_out:
            recorder.timed_out.add(nodeid)
            _grant_cpu(seconds)
            _deepest, student = _student_entries(call.excinfo)
            if student is not None:
                code = student.frame.code.raw
                recorder.stopped_in[code] = recorder.stopped_in.get(code, 0) + 1
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
        recorder.write({"kind": "result", "nodeid": nodeid, "outcome": outcome, "message": message,
                        "timed_out": timed_out})
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Record that a milestone test started (a test that never finishes still shows up)."""
    if _INFO in item.stash:
        item.config.stash[_RECORDER].write({"kind": "start", "nodeid": item.nodeid})


def _collect_message(report: pytest.CollectReport) -> str:
    text = str(report.longrepr)
    errors = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    located = [f"{m[1] or m[3]}, line {m[2] or m[4]}" for m in _LOCATED.finditer(text)]
    message = errors[-1] if errors else (text.strip().splitlines() or ["import failed"])[-1]
    if located:
        message += f" ({located[-1]})"
    return f"the tests could not import your code: {message}"[:_MESSAGE_LIMIT]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Record that the session started: pytest read its options and has imported no test module yet."""
    session.config.stash[_RECORDER].write({"kind": "session"})


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Record the end of the session with pytest's exit status."""
    session.config.stash[_RECORDER].write({"kind": "finished", "exitstatus": int(exitstatus)})
