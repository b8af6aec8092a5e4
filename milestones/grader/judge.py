"""The judge's side of a graded test: ask the student's process for observations, read its answers as untrusted data.

:class:`Student` is one student process serving one test module's observations (``student("name", *args)``
returns the observation's data), started as :class:`Launch` says; a call that returns no data raises a
:class:`StudentError` whose ``text`` is the message for the student. This module runs in the grader's pytest
process, which never imports the submission (docs/design/graded_test_shape.md), and in the student's tools
(:mod:`milestones.host`). Every reply is hostile: it is read within the channel's bounds
(:func:`~.protocol.read_reply`) and must answer the request just sent; anything else ends that process (the next
call starts a fresh one) and fails the call.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .protocol import FDS_ENV, READS_STDIN, REPLY_LIMIT, Opaque, as_number, read_reply, request, text as _text

__all__ = ["as_number", "REPLY_LIMIT", "Launch", "Opaque", "Raised", "Student", "StudentError", "StudentGone",
           "StudentTimeout", "read_reply"]
#: Seconds the judge waits past a call's own time limit (the student's process stops the call itself
#: then, naming the loop) before it kills the process.
_GRACE = 3.0


class StudentError(Exception):
    """A call to the student's process that returned no data; ``text`` is the one-line message for the student."""

    @property
    def text(self) -> str:
        """The one-line message a student reads for this failure (at most 2000 characters)."""
        return str(self.args[0]) if self.args else "the call failed"


class Raised(StudentError):
    """The student's code raised. Attributes: ``type`` (its class name), ``bases`` (the names of its classes,
    itself first), ``message``, ``where`` (`` (in Hand.get_score, blackjack/hand.py:88)`` or "")."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.type = _text(data.get("type"), 100) or "Exception"
        bases = data.get("bases")
        self.bases = [_text(b, 100) for b in bases[:12]] if isinstance(bases, list) else []
        self.message = _text(data.get("message"))
        self.where = _text(data.get("where"), 500)
        self.cycle = _text(data.get("cycle"), 500)
        self.imported = data.get("import") is True
        notes = data.get("notes")
        self.notes = [_text(n, 300) for n in notes[:3]] if isinstance(notes, list) else []
        super().__init__(self._format())

    def is_a(self, *names: str) -> bool:
        """The exception is of one of the classes ``names`` (by name: ``"ValueError"``), or a subclass."""
        return any(name in (self.type, *self.bases) for name in names)

    def _format(self) -> str:
        kind, where = self.type, self.where
        if self.imported:
            if kind == "SystemExit":
                text = (f"SystemExit: importing your code called sys.exit({self.message}) or exit(){where}; "
                        f"a module must not end the program when it is imported")
            else:
                text = f"the tests could not import your code: {kind}: {self.message}{where}"
        elif self.is_a("NotImplementedError"):
            text = f"not written yet: {self.message}{where}"
        elif kind == "SystemExit":
            text = (f"your code called sys.exit({self.message}) or exit() during the test{where}; "
                    f"a library function must return or raise, never end the program")
        elif self.is_a("RecursionError") and self.cycle:
            text = (f"RecursionError: {self.cycle} without end, until Python gave up; make sure one of them "
                    f"computes its answer without calling the other")
        elif self.is_a("OSError") and READS_STDIN in self.message:
            text = (f"your code called input() (or read sys.stdin) during the test{where}; the tests type "
                    f"nothing: take what you need as arguments, and leave the keyboard to the game's front end")
        else:
            text = f"{kind}: {self.message}{where}"
            if self.is_a("AttributeError", "TypeError") and "NoneType" in self.message and not self.notes:
                text += "; a value was None: does a function you wrote end without returning its result?"
        if self.notes:
            text += "\n" + "\n".join(self.notes)
        return _text(text)


class StudentTimeout(StudentError):
    """The call ran past its time limit and was stopped (by the student's process, or killed)."""


class StudentGone(StudentError):
    """The student's process ended during the call, or its reply broke the channel's rules; ``status`` is its
    exit status when it ended (None when it was ended for breaking the rules)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Launch:
    """How to start one student process.

    Attributes:
        command: the argv (the sandbox, if any, then ``python -m milestones.grader.observer ...``).
        env: its whole environment (the descriptors' variable is added per start).
        cwd: its working folder.
        output: the file its stdout and stderr go to (never read into a verdict); None: nowhere (a graded
            run's sandbox sends them to a file in the run's own space, ``--output``).
        timeout: seconds one call may run (0: no limit).
        after: called with no argument once a process is gone (the isolated run kills its user's processes).
    """

    command: list[str]
    env: dict[str, str]
    cwd: Path
    output: Path | None
    timeout: float = 0.0
    after: Callable[[], object] | None = None


class Student:
    """The student's process for one test module (or one tool's run, :mod:`milestones.host`):
    ``student("hand_score", ["As", "9h"])`` runs the observation ``hand_score`` there and returns its plain data.

    The process starts on the first call and again on the call after one that killed it.

    Raises (from a call):
        Raised: the student's code raised; ``.text`` says what, and where in their files.
        StudentTimeout: the call ran past ``launch.timeout``.
        StudentGone: the process ended, or its reply broke the rules (:func:`read_reply`).
    """

    def __init__(self, launch: Launch) -> None:
        self.launch = launch
        self._process: subprocess.Popen[bytes] | None = None
        self._to: int = -1
        self._from: int = -1
        self._buffer = b""
        self._next = 0

    def __call__(self, call: str, *args: Any) -> Any:
        """The observation ``call``'s data for ``args`` (plain data: numbers, text, lists, dicts, ``None``)."""
        return self.ask(call, *args)

    def ask(self, call: str, *args: Any, timeout: float | None = None, say: Callable[[str], None] | None = None) -> Any:
        """:meth:`__call__` with a time limit of its own (``timeout`` seconds; None: ``launch.timeout``) and, for a
        student's tool, ``say`` called with each line the call prints (``say`` messages), as they come."""
        reply = self._ask(call, list(args), timeout, say)
        if "raised" in reply:
            raised = reply["raised"]
            if reply.get("timed_out") is True:
                data = raised if isinstance(raised, dict) else {}
                raise StudentTimeout(_text(data.get("message")) + _text(data.get("where"), 500))
            raise Raised(raised if isinstance(raised, dict) else {})
        if "value" not in reply:
            self.close()
            raise StudentGone("your code's process sent an answer that was neither a value nor an exception")
        return reply["value"]

    def raised(self, call: str, *args: Any) -> Raised | None:
        """The exception the observation ``call`` raised in the student's code, or None if it returned."""
        try:
            self(call, *args)
        except Raised as err:
            if err.imported:
                raise
            return err
        return None

    def _start(self) -> None:
        to_child, from_judge = os.pipe()
        to_judge, from_child = os.pipe()
        env = dict(self.launch.env)
        env[FDS_ENV] = f"{to_child},{from_child}"
        try:
            with open(self.launch.output, "ab") if self.launch.output else open(os.devnull, "wb") as output:
                self._process = subprocess.Popen(self.launch.command, cwd=self.launch.cwd, env=env,
                                                 stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                                 start_new_session=True, pass_fds=(to_child, from_child))
        finally:
            os.close(to_child)
            os.close(from_child)
        self._to, self._from, self._buffer = from_judge, to_judge, b""
        os.set_blocking(self._from, False)

    def _ask(self, call: str, args: list[Any], timeout: float | None = None,
             say: Callable[[str], None] | None = None) -> dict[str, Any]:
        if self._process is None:
            self._start()
        self._next += 1
        ident = self._next
        try:
            _write_all(self._to, request(ident, call, args, timeout))
        except OSError:
            status = self.close()
            raise StudentGone(_gone(status), status) from None
        limit = self.launch.timeout if timeout is None else timeout
        deadline = None if limit <= 0 else time.monotonic() + limit + _GRACE
        while True:
            line = self._read_line(deadline)
            if line is None:
                status = self.close()
                if deadline is not None and time.monotonic() >= deadline:
                    raise StudentTimeout(f"took longer than {limit:g} s and was stopped: look for a loop that never "
                                         f"ends")
                if _signal_of(status) == getattr(signal, "SIGXCPU", None):  # its CPU time is a time limit too
                    raise StudentTimeout(_gone(status))
                raise StudentGone(_gone(status), status)
            try:
                reply = read_reply(line)
            except ValueError as err:
                self.close()
                raise StudentGone(f"your code's process broke the rules of the tests' channel ({err})") from None
            if reply.get("id") != ident:
                self.close()
                raise StudentGone("your code's process answered a question it was not asked")
            if say is None or set(reply) != {"id", "say"}:
                return reply
            say(str(reply["say"]))

    def _read_line(self, deadline: float | None) -> bytes | None:
        """The next reply line, or None when the process ended, the line grew past the limit, or time ran out."""
        while b"\n" not in self._buffer:
            if len(self._buffer) > REPLY_LIMIT:
                return None
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            ready, _, _ = select.select([self._from], [], [], wait)
            if not ready:
                continue
            try:
                data = os.read(self._from, 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                return None
            self._buffer += data
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def close(self) -> int | None:
        """End the student's process and everything it started (the sandbox's supervisor kills what it started when
        its group is killed); return its exit status (None: no process was running)."""
        process, self._process = self._process, None
        for descriptor in (self._to, self._from):
            if descriptor != -1:
                os.close(descriptor)
        self._to = self._from = -1
        if process is None:
            return None
        if process.poll() is None:
            with suppress(ProcessLookupError, PermissionError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(2)
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        status = process.wait()
        if self.launch.after is not None:
            self.launch.after()
        return status


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        if not select.select([], [descriptor], [], 30)[1]:
            raise OSError("the student's process reads no more requests")
        written = os.write(descriptor, view)
        view = view[written:]


def _signal_of(status: int | None) -> int | None:
    """The signal that ended a process with exit status ``status`` (the sandbox's supervisor ends with the
    program's signal, or 128 + it), or None."""
    return -status if status is not None and status < 0 else (status - 128 if status and status > 128 else None)


def _gone(status: int | None) -> str:
    """Why the student's process ended, in words."""
    number = _signal_of(status)
    if number is not None:
        if number == getattr(signal, "SIGXCPU", None):
            return "your code used up its CPU time during the test (a loop that never ends?)"
        if number == getattr(signal, "SIGXFSZ", None):
            return "your code wrote too much output during the test (printing in a loop?)"
        return f"your code's process was killed by signal {number} during the test"
    return (f"your code's process ended during the test with exit status {status} "
            f"(does your code call os._exit() or crash the interpreter?)")
