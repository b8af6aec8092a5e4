"""Run one milestone suite against one implementation in a separate, limited process, and read its results.

The child is ``python -m pytest`` with the grading plugin (:mod:`.plugin`): the judge, which never imports
the submission (docs/design/graded_test_shape.md); its student processes start through the sandbox's
supervisor (:mod:`._sandbox`) with :func:`sandbox_limits`. The plugin writes one JSON line per event (so a
run that is killed keeps what it finished) to a pipe the child inherits (on Windows, a ``--results-json``
file); the runner checks them as they come (:class:`_Stream`). When the run ends, the runner kills the judge's
group and every process carrying the run's tag. Only the first ``Limits.output_bytes`` of the judge's output
are read. A submission's graded run goes through :func:`.isolation.run_isolated`, which builds on this module.

Time: a run may take ``Limits.timeout`` seconds plus ``Limits.test_timeout`` for every test whose call of the
student's code was stopped at that limit (:func:`_watch`; docs/instructor.md section 2 gives the rules).

A run that ends before pytest's session started (so before any submission code was imported: a bad option, a
missing test folder, a limit too small to start Python) is the grader's fault, not the submission's:
:func:`run_suite` raises :class:`GraderError`.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from collections.abc import Callable
from typing import Any

from .protocol import LINE_LIMIT, RESULTS_FD_ENV, RUN_TAG_ENV, STREAM_LIMIT

__all__ = ["GraderError", "Limits", "RunResult", "TestRecord", "checked_paths", "execute", "judge_command", "judge_env",
           "run_suite", "sandbox_limits", "started"]

_PACKAGE_PARENT = Path(__file__).resolve().parents[2]


class GraderError(RuntimeError):
    """The grader could not run a suite at all (its own arguments or set-up are wrong), whatever the submission."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one run of one suite against one submission.

    Attributes:
        timeout: wall-clock seconds for the whole run, plus ``test_timeout`` for each test
            stopped at ``test_timeout`` (a looping test does not use up the others' time).
        test_timeout: wall-clock seconds for one test (0 = no per-test limit).
        memory_mb: address-space limit in MiB (POSIX; 0 = none).
        file_mb: largest file the run may write, in MiB (POSIX; 0 = none).
        output_bytes: how much of the run's stdout/stderr is kept.
        processes: processes and threads the run may start on top of those the user
            already runs (Linux ``RLIMIT_NPROC``, not applied to root; 0 = no limit).
    """

    timeout: float = 120.0
    test_timeout: float = 10.0
    memory_mb: int = 2048
    file_mb: int = 64
    output_bytes: int = 64 * 1024
    processes: int = 256


@dataclass(frozen=True, slots=True)
class TestRecord:
    """One collected grading test.

    Attributes:
        nodeid: pytest's id, ``"tests/milestone1/test_hand.py::test_soft_total"``.
        name: the id inside the milestone folder, ``"test_hand.py::test_soft_total"``.
        doc: the first paragraph of the test's docstring, on one line (what it checks).
        milestone: the folder's number.
        part: the rubric part's key (``None`` only for a test with a marker problem).
        points: the test's weight from ``@pytest.mark.points``.
        hidden: marked ``@pytest.mark.hidden``.
    """

    __test__ = False

    nodeid: str
    name: str
    doc: str
    milestone: int
    part: str | None
    points: Fraction
    hidden: bool

    def to_json(self) -> dict[str, Any]:
        """The record as JSON values (``points`` as text, ``"3/2"``), as :meth:`from_json` reads it back."""
        return {**asdict(self), "points": str(self.points)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TestRecord:
        """Read a record from JSON values: the plugin's ``collected`` lines, the autograder's test inventory.

        Raises:
            KeyError, TypeError, ValueError, ZeroDivisionError: a field is missing or malformed.
        """
        points = data["points"]
        if not (isinstance(points, str) and _POINTS.fullmatch(points)):  # never Fraction("1e999999999"): it hangs
            raise ValueError(f"points must be written as a short whole number, decimal or fraction, got {points!r:.40}")
        return cls(nodeid=str(data["nodeid"]), name=str(data["name"]), doc=str(data["doc"]),
                   milestone=int(data["milestone"]), part=None if data["part"] is None else str(data["part"]),
                   points=Fraction(points), hidden=bool(data["hidden"]))


#: A test's points as :meth:`TestRecord.to_json` writes them (``str(Fraction)``: ``"2"``, ``"3/2"``, ``"-1"``),
#: or a short decimal; bounded, so reading a forged record is instant.
_POINTS = re.compile(r"-?\d{1,9}(?:/\d{1,9}|\.\d{1,9})?")


@dataclass
class RunResult:
    """What one run produced.

    Attributes:
        collected: the tests the run collected, by node id, in order.
        results: ``nodeid -> (outcome, message)`` for every test that finished.
        collect_errors: ``(module id, message)`` for modules that failed to import.
        started: node ids in the order they started (the last one may not have finished).
        session: pytest's session started (options read, no submission code imported yet).
        finished: the session ended normally (the plugin wrote its last line).
        timed_out: the run was killed at its time limit (``Limits.timeout`` plus what stopped tests brought).
        test_timeouts: tests stopped at ``Limits.test_timeout``.
        tampered: how the results stream broke the plugin's protocol ("" if it did not): the
            submission's code wrote to it, and none of its results count.
        returncode: the child's exit status (negative: killed by that signal).
        output: the first bytes of the child's stdout and stderr, decoded.
        hidden_run: an isolated run's second process, which ran the hidden tests alone (its
            results are merged into ``results`` too; its output and stop reason are kept
            apart, because the student must not see them).
        unprotected: an isolated run's protections that were unavailable, by the short names of
            :data:`milestones.grader._sandbox.PROTECTIONS` (``"landlock"``, ``"pid-namespace"`` ...),
            for the instructor's report.
    """

    collected: dict[str, TestRecord] = field(default_factory=dict)
    results: dict[str, tuple[str, str]] = field(default_factory=dict)
    collect_errors: list[tuple[str, str]] = field(default_factory=list)
    started: list[str] = field(default_factory=list)
    session: bool = False
    finished: bool = False
    timed_out: bool = False
    test_timeouts: int = 0
    tampered: str = ""
    returncode: int = 0
    output: str = ""
    hidden_run: RunResult | None = None
    unprotected: list[str] = field(default_factory=list)

    def stop_reason(self, limits: Limits) -> str:
        """Why the run ended early, in words for a student ("" if it did not)."""
        if self.finished:
            return ""
        running = f" while running {self.started[-1].split('::', 1)[-1]}" if self.started else ""
        if self.timed_out:
            granted = (f" ({limits.timeout:g} s, plus {limits.test_timeout:g} s for each of the "
                       f"{self.test_timeouts} tests stopped at their own limit)" if self.test_timeouts else "")
            return (f"the test run was stopped after {limits.timeout + self.test_timeouts * limits.test_timeout:g} s"
                    f"{granted}{running} (a loop that never ends, or input() waiting for a user?)")
        if self.returncode < 0:
            code = -self.returncode
            if code == getattr(signal, "SIGXCPU", None):
                return f"the test run used up its CPU time{running} (a loop that never ends?)"
            if code == getattr(signal, "SIGXFSZ", None):
                return f"the test run wrote too much output{running} (printing in a loop?)"
            return f"the test run was killed by signal {code}{running}"
        return (f"the test run ended early with exit status {self.returncode}{running} "
                f"(does your code call os._exit() or crash the interpreter?)")


class Tampered(Exception):
    """The results stream breaks the plugin's protocol: something other than the plugin wrote to it."""


class _Stream:
    """Reads the plugin's JSON lines into a :class:`RunResult` as they arrive, checking the plugin's protocol.

    The records come in the order :func:`.protocol.record` gives, each test collected once, started once and
    reported once. Anything else (a line before ``begin``, a test reported twice, a result for a test not
    collected or not running, a line that is not a record, more than :data:`.protocol.STREAM_LIMIT`, a line
    over :data:`.protocol.LINE_LIMIT` or nested too deep for the reader) means the submission's code wrote to
    the stream: the result's ``tampered`` says how, and nothing after it is read.
    """

    def __init__(self, result: RunResult) -> None:
        self.result = result
        self._partial = b""
        self._size = 0
        self.begun = False
        self._running: str | None = None
        self._reported: set[str] = set()

    def add(self, data: bytes) -> None:
        """Take the next bytes; read every complete line."""
        if not data or self.result.tampered:
            return
        self._size += len(data)
        if self._size > STREAM_LIMIT:
            self.result.tampered = "more than 16 MiB of results"
            return
        *complete, self._partial = (self._partial + data).split(b"\n")
        if len(self._partial) > LINE_LIMIT or any(len(raw) > LINE_LIMIT for raw in complete):
            self.result.tampered = "a results line over 1 MiB"
            return
        for raw in complete:
            try:
                self._record(raw.decode("utf-8", errors="replace"))
            except Tampered as err:
                self.result.tampered = str(err)
                return

    def finish(self) -> None:
        """Read the last line if it is whole (a line cut short when the run was killed is dropped)."""
        partial, self._partial = self._partial, b""
        if partial and not self.result.tampered:
            try:
                self._record(partial.decode("utf-8", errors="replace"))
            except Tampered as err:
                if not str(err).startswith("a line that is not a record"):
                    self.result.tampered = str(err)

    def _record(self, line: str) -> None:
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, a number too long to read, or nested without end
            raise Tampered(f"a line that is not a record: {line[:80]!r}") from None
        if not isinstance(record, dict):
            raise Tampered(f"a line that is not a record: {line[:80]!r}")
        try:
            self._apply(record)
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as err:
            raise Tampered(f"a malformed {record.get('kind')!r} record ({type(err).__name__})") from None

    def _apply(self, record: dict[str, Any]) -> None:
        result = self.result
        kind = record["kind"]
        if not self.begun:
            if kind != "begin":
                raise Tampered("output before the grading plugin's start marker")
            self.begun = True
            return
        if result.finished:
            raise Tampered(f"a {kind!r} record after the end of the session")
        if kind == "session":
            if result.session:
                raise Tampered("a second session")
            result.session = True
            return
        if not result.session:
            raise Tampered(f"a {kind!r} record before the session started")
        nodeid = str(record.get("nodeid"))
        if kind in ("collected", "collect_error") and result.started:
            raise Tampered(f"a {kind!r} record after the tests started running")
        if kind == "collected":
            if nodeid in result.collected:
                raise Tampered(f"{nodeid} collected twice")
            result.collected[nodeid] = TestRecord.from_json(record)
        elif kind == "collect_error":
            result.collect_errors.append((nodeid, str(record["message"])))
        elif kind == "start":
            if nodeid not in result.collected:
                raise Tampered(f"{nodeid} started but was never collected")
            if self._running is not None or nodeid in self._reported or nodeid in result.started:
                raise Tampered(f"{nodeid} started twice, or while another test ran")
            result.started.append(nodeid)
            self._running = nodeid
        elif kind == "result":
            if nodeid in self._reported:
                raise Tampered(f"{nodeid} reported more than once")
            if nodeid != self._running:
                raise Tampered(f"a result for {nodeid}, which was not running")
            result.results[nodeid] = (str(record["outcome"]), str(record["message"]))
            result.test_timeouts += record.get("timed_out") is True
            self._reported.add(nodeid)
            self._running = None
        elif kind == "finished":
            result.finished = True
        else:
            raise Tampered(f"an unknown record {kind!r}")


def run_suite(folder: Path, impl: Path | None = None, *, limits: Limits = Limits(), hidden: bool = True,
              collect_only: bool = False, select: list[str] | None = None) -> RunResult:
    """Run the pytest suite in ``folder`` against ``impl`` (default: the reference) and read its results.

    Args:
        folder: a ``tests/milestoneN`` folder (or any test path pytest accepts).
        impl: the folder holding the submission's ``blackjack`` package.
        limits: time, memory and output limits.
        hidden: include hidden tests (False passes ``-m "not hidden"``).
        collect_only: only collect (to list the tests and their points).
        select: run only these node ids (instead of the whole folder).

    Returns:
        The :class:`RunResult`; it never raises for anything the submission does.

    Raises:
        GraderError: ``folder``, a selected test or ``impl`` does not exist, or the run
            ended before pytest's session started (the grader's options or set-up are wrong).
    """
    folder, impl = checked_paths(folder, impl)
    selected = [_absolute_nodeid(nodeid) for nodeid in select or []]
    result = RunResult()
    with tempfile.TemporaryDirectory(prefix="bj-grade-") as work:
        work_dir = Path(work)
        command = [*judge_command(selected or [str(folder)], folder.resolve().parent.parent, limits),
                   "--student-limits", ",".join(sandbox_limits(limits))]
        if impl is not None:
            command.append(f"--impl={impl}")  # one token: pytest must not read PATH as a test path
        if not hidden:
            command += ["-m", "not hidden"]
        if collect_only:
            command += ["--collect-only"]
        execute(command, cwd=work_dir, env={**judge_env(), "PYTHONHASHSEED": "0"}, limits=limits, result=result,
                output_file=work_dir / "output.txt")
    return started(result)


def started(result: RunResult) -> RunResult:
    """``result``, once it is known that pytest's session started (or the stream was tampered with).

    Raises:
        GraderError: the run ended before the session started: the grader's own command is wrong.
    """
    if not result.session and not result.tampered:
        raise GraderError(f"pytest stopped before its session started (exit status {result.returncode}), "
                          f"so the grader's own command is wrong: {_last_error(result.output)}")
    return result


def checked_paths(folder: Path, impl: Path | None) -> tuple[Path, Path | None]:
    """``folder`` and ``impl`` made absolute (the child runs in another folder).

    Raises:
        GraderError: ``folder`` does not exist, or ``impl`` holds no ``blackjack/__init__.py``.
    """
    folder = Path(folder).resolve()
    if not folder.exists():
        raise GraderError(f"the test folder {folder} does not exist")
    if impl is not None:
        impl = Path(impl).resolve()
        if not (impl / "blackjack" / "__init__.py").is_file():
            raise GraderError(f"{impl} holds no blackjack/__init__.py")
    return folder, impl


def judge_command(tests: list[str], rootdir: Path, limits: Limits, *python_flags: str) -> list[str]:
    """The judge's command: ``python [python_flags] -m pytest TESTS`` with the grading plugin quiet (no cache, no
    tracebacks, one line per result), ``rootdir`` as pytest's, and ``limits.test_timeout`` seconds per call of the
    student's code."""
    return [sys.executable, *python_flags, "-m", "pytest", *tests, "-p", "no:cacheprovider", "-q", "--tb=no",
            "--no-header", "--continue-on-collection-errors", "-o", "console_output_style=classic",
            f"--rootdir={rootdir}", "--test-timeout", str(limits.test_timeout)]


def judge_env() -> dict[str, str]:
    """The judge's environment: the grader's own, without pytest's variables (``PYTEST_ADDOPTS`` would change the
    run), with this kit's ``milestones`` first on ``PYTHONPATH`` and no bytecode written."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(_PACKAGE_PARENT), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def sandbox_limits(limits: Limits) -> list[str]:
    """The sandbox's first four arguments for ``limits``: CPU seconds, memory MiB, file MiB, processes."""
    return [str(int(limits.timeout) + 5), str(limits.memory_mb), str(limits.file_mb), str(limits.processes)]


def execute(command: list[str], *, cwd: Path, env: dict[str, str], limits: Limits, result: RunResult,
            output_file: Path, after: Callable[[], object] | None = None) -> None:
    """Run ``command`` (the sandbox and pytest) and read the plugin's results into ``result``.

    On POSIX the results come through a pipe whose descriptor goes in the environment (:data:`RESULTS_FD_ENV`);
    elsewhere through ``--results-json``, a file beside ``output_file``. A child killed by a signal the runner did
    not send (not its time limit) after its first record marks the run tampered: whatever killed it could have
    written the records. The child's stdout and stderr go to ``output_file``, of which ``limits.output_bytes`` are
    kept. ``after`` runs once the child is gone, before the results are read to the end (the isolated run kills
    its user's processes there). Whatever happens, nothing the child started is left running.
    """
    pipe = os.name == "posix"
    env = dict(env)
    env.pop(RESULTS_FD_ENV, None)
    env[RUN_TAG_ENV] = tag = uuid.uuid4().hex
    stream = _Stream(result)
    if pipe:
        reader, writer = os.pipe()
        env[RESULTS_FD_ENV] = str(writer)
    else:  # no descriptors to pass (Windows): a results file
        results_file = output_file.with_name("results.jsonl")
        command = [*command, "--results-json", str(results_file)]
        results_file.touch()
        reader, writer = os.open(results_file, os.O_RDONLY | getattr(os, "O_BINARY", 0)), -1
    source = _Source(reader, pipe)
    try:
        with open(output_file, "wb") as output:
            process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                       stderr=subprocess.STDOUT, start_new_session=True,
                                       pass_fds=(writer,) if pipe else ())
            if pipe:
                os.close(writer)
                writer = -1
            try:
                result.timed_out = not _watch(process, limits, stream, source)
            finally:  # also on Ctrl-C: nothing the run started stays behind
                try:
                    _kill(process, tag)
                    result.returncode = process.wait()
                finally:
                    if after is not None:
                        after()
        stream.add(source.read())
        stream.finish()
        if result.returncode < 0 and stream.begun and not (result.timed_out or result.tampered):
            result.tampered = (f"the test run was killed by signal {-result.returncode} after it began: its "
                               f"results may have been written by another process")
    finally:
        os.close(reader)
        if writer != -1:
            os.close(writer)
    with open(output_file, "rb") as output:
        result.output = output.read(limits.output_bytes).decode("utf-8", errors="replace")


def _absolute_nodeid(nodeid: str) -> str:
    """``tests/m1/t.py::test_x`` with its file made absolute (the child runs in another folder)."""
    path, sep, rest = nodeid.partition("::")
    absolute = Path(path).resolve()
    if not absolute.exists():
        raise GraderError(f"the test {path} does not exist")
    return f"{absolute}{sep}{rest}"


def _last_error(output: str) -> str:
    """The line of pytest's output that says what went wrong (``ERROR: ...``, ``error: ...``), or its last line.

    argparse writes ``<prog>: error: ...``, and the prog pytest gives differs by version
    (``__main__.py`` in pytest 9.0, ``python -m pytest`` in 9.2), so any prog is matched.
    """
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.lower().startswith("error:") or ": error: " in line
              or line.startswith(("ERROR", "INTERNALERROR", "E "))]
    return (errors or lines or ["no output"])[-1][:500]


def _ended(process: subprocess.Popen[bytes]) -> bool:
    """The child has ended. Where ``os.waitid`` exists it is not reaped, so its process (group) id cannot be
    reused before :func:`_kill`; elsewhere (macOS before Python 3.13, Windows) it is reaped."""
    if hasattr(os, "waitid"):
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    return process.poll() is not None


def _watch(process: subprocess.Popen[bytes], limits: Limits, stream: _Stream, source: _Source) -> bool:
    """Read the results into ``stream`` until the child ends (True) or runs out of time (False): ``limits.timeout``
    plus ``limits.test_timeout`` for each test stopped at its own limit so far. A tampered stream ends it at once."""
    start = time.monotonic()
    delay = 0.005
    while not _ended(process) and not stream.result.tampered:
        stream.add(source.read())
        left = start + limits.timeout + stream.result.test_timeouts * limits.test_timeout - time.monotonic()
        if left <= 0:
            return False
        source.wait(min(delay, left))
        delay = min(delay * 2, 0.1)
    return True


class _Source:
    """Where the plugin's results come from: the read end of a pipe (POSIX), or a file the child appends to."""

    def __init__(self, descriptor: int, pipe: bool) -> None:
        self.descriptor = descriptor
        self.pipe = pipe
        self._open = True
        if pipe:
            os.set_blocking(descriptor, False)

    def read(self) -> bytes:
        """What has arrived since the last read (``b""`` if nothing)."""
        chunks = []
        while self._open:
            try:
                data = os.read(self.descriptor, 1 << 16)
            except BlockingIOError:
                break
            if not data:
                self._open = not self.pipe  # end of the pipe: every writer closed it
                break
            chunks.append(data)
        return b"".join(chunks)

    def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, waking early when a pipe has data."""
        if self.pipe and self._open:
            select.select([self.descriptor], [], [], seconds)
        else:
            time.sleep(seconds)


def _kill(process: subprocess.Popen[bytes], tag: str) -> None:
    """Kill the child and everything it started: its process group and (Linux) every process that still
    carries the run's :data:`RUN_TAG_ENV` value ``tag``, such as one that left the group with ``setsid()``;
    the child alone on systems without process groups."""
    try:
        if os.name == "posix":
            if not _ended(process):  # the supervisor kills what the run started, orphans included
                process.send_signal(signal.SIGTERM)
                deadline = time.monotonic() + 5
                while not _ended(process) and time.monotonic() < deadline:
                    time.sleep(0.01)
            os.killpg(process.pid, signal.SIGKILL)
        elif process.poll() is None:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass  # the group is empty already (or, after a reaped child, no longer ours)
    for _sweep in range(10):  # again, in case one forked while it was being found
        if not _kill_tagged(tag):
            break


def _kill_tagged(tag: str, proc: str = "/proc") -> int:
    """SIGKILL each process of this user whose environment (Linux ``/proc/<pid>/environ``, as it started) holds
    ``RUN_TAG_ENV=tag``; return how many. A process that cleared its environment before it started a program
    escapes."""
    marker = f"{RUN_TAG_ENV}={tag}".encode()
    try:
        entries = [e for e in os.listdir(proc) if e.isdigit() and int(e) != os.getpid()]
    except OSError:
        return 0
    killed = 0
    for entry in entries:
        try:
            with open(os.path.join(proc, entry, "environ"), "rb") as environ:
                found = marker in environ.read().split(b"\0")
            if found:
                os.kill(int(entry), signal.SIGKILL)
                killed += 1
        except (OSError, ValueError):
            continue  # ended meanwhile, or another user's
    return killed
