"""The student's process: run a module's functions on the student's code and answer in plain data.

Usage (started by the judge, :mod:`.judge`, or by a student's tool through :mod:`milestones.host`; never by
hand)::

    python -m milestones.grader.observer --impl FOLDER --observations FILE [--timeout S] [--isolated] [--tool]

The functions are a suite's observations (``observe_<name>.py``, docs/design/graded_test_shape.md) or, with
``--tool``, a tool's play (:mod:`milestones.plays`). This process imports ``blackjack`` and ``gui`` from
``--impl`` only (:class:`ProjectOnly`; ``--isolated``: every other folder holding them off ``sys.path``),
reads one request per line from the descriptors :data:`~.protocol.FDS_ENV` names, runs it under the one time
limit (:func:`time_limit`) and writes one reply each (:mod:`.protocol` gives the shapes); ``input()`` in
student code raises ``OSError``. Nothing here is trusted: the student's code may change anything in this
process, so it can only change the data its own functions produce, which the judge reads within bounds.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any, TextIO

from .protocol import (FDS_ENV, IMPORTS_CALL, OBJECT_KEY, READS_STDIN, REQUEST_LIMIT, TEXT_LIMIT, TestTimeout, clip,
                       number, observation_error, plain, reply)

__all__ = ["FDS_ENV", "IMPORTS_CALL", "OBJECT_KEY", "READS_STDIN", "ProjectOnly", "TestTimeout", "capture",
           "given_cards", "main", "number", "plain", "time_limit"]

#: After this many calls were stopped at the time limit in the same function of the student's code, a
#: later call is stopped as soon as one call of that function has run ``_QUICK_STOP`` seconds.
_HANG_REPEAT = 3
_QUICK_STOP = 1.0
_SWAPPED = ("blackjack", "gui")


class _Bounded(io.StringIO):
    """Printed text, of which the first ``TEXT_LIMIT`` characters are kept."""

    def write(self, text: str) -> int:
        room = TEXT_LIMIT - self.tell()
        if room > 0:
            super().write(str(text)[:room])
        return len(text)


class _NoKeyboard(io.TextIOBase):
    """``sys.stdin`` while no test types: reading it raises ``OSError`` with :data:`READS_STDIN`."""

    def read(self, size: int | None = -1) -> str:
        raise OSError(READS_STDIN)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise OSError(READS_STDIN)

    def readable(self) -> bool:
        return True


def capture(function: Callable[..., object], *args: object, typed: str | None = None,
            stderr: bool = False) -> tuple[object, str]:
    """Call ``function(*args)`` with what it prints captured; return ``(its result, the printed text)``.

    ``typed`` is what the keyboard types (``input()`` then reads it line by line and raises
    ``EOFError`` at its end); without it, reading the keyboard raises ``OSError``. With ``stderr``, what it
    writes to ``sys.stderr`` is captured too, in the same text (the engine never writes to either). At most
    the first 64 KiB of printed text are kept. An exception from ``function`` propagates, the text lost.
    """
    out = _Bounded()
    keyboard: TextIO = io.StringIO(typed) if typed is not None else _NoKeyboard()  # type: ignore[assignment]
    previous = sys.stdin
    sys.stdin = keyboard
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out) if stderr else contextlib.nullcontext():
            result = function(*args)
    finally:
        sys.stdin = previous
    return result, out.getvalue()


@contextlib.contextmanager
def given_cards() -> Iterator[None]:
    """While it lasts, a new shoe (``blackjack.deck.Shoe``) is filled with 52 cards made by given code
    (``parse_cards``, in an order of its own) and its shuffles leave the cards in order, so a test that stacks
    the shoe needs neither the student's ``create_card_array`` nor their ``shuffle``: a mistake in the deck
    costs the deck's tests only (issue 29). The student's functions are back when it ends."""
    from blackjack import deck, parse_cards  # noqa: PLC0415 - the submission's, imported by the observation

    def fresh() -> list[Any]:
        return parse_cards(" ".join(rank + suit for suit in "cdhs" for rank in "A23456789TJQK"))

    def in_order(cards: object, rng: object = None) -> None:
        """The shoe's shuffle while the cards are given: they stay as they are."""

    given = {"create_card_array": fresh, "shuffle": in_order}  # the names Shoe calls in blackjack/deck.py
    saved = {name: getattr(deck, name) for name in given}
    for name, function in given.items():
        setattr(deck, name, function)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(deck, name, function)


class ProjectOnly(importlib.abc.MetaPathFinder):
    """The one import guard of the student's process: ``blackjack`` and ``gui`` come from ``folder`` and from
    nowhere else (not the kit's clone, not an installed kit), so the student's code never runs beside the
    reference; their modules come from the package's own folder. A package ``folder`` lacks raises
    ``ModuleNotFoundError`` with ``missing`` (``{name}``: the package, ``{folder}``)."""

    def __init__(self, folder: Path, missing: str = "the submission has no {name} package") -> None:
        self.folder = str(folder)
        self.missing = missing

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec of a top-level ``blackjack`` or ``gui`` from ``folder``; None for any other name."""
        if fullname not in _SWAPPED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, [self.folder])
        if spec is None:
            raise ModuleNotFoundError(self.missing.format(name=fullname, folder=self.folder), name=fullname)
        return spec


def _drop_other_packages(impl: Path) -> None:
    """Take every folder but ``impl`` that holds ``blackjack`` or ``gui`` off ``sys.path``; a ``site-packages``
    the kit was installed into is replaced by the runner's mirror of it without the kit's packages
    (:func:`milestones.grader.isolation.site_mirrors`), which keeps the rest importable."""
    from ..config import SITE_MIRRORS_ENV, mirror_name  # noqa: PLC0415

    keep = impl.resolve()
    mirrors = os.environ.get(SITE_MIRRORS_ENV)
    for index, entry in reversed(list(enumerate(sys.path))):
        folder = Path(entry or ".").resolve()
        mirror = Path(mirrors) / mirror_name(folder) if mirrors else None
        if folder != keep and mirror is not None and mirror.is_dir():
            sys.path[index] = str(mirror)
        elif folder != keep and any((folder / package / "__init__.py").is_file() for package in _SWAPPED):
            del sys.path[index]
        elif entry.startswith("__editable__"):  # an editable install's path hook: the way to the kit
            del sys.path[index]
    for finders in (sys.meta_path, sys.path_hooks):
        for finder in [f for f in finders if str(getattr(f, "__module__", "")).startswith("__editable__")]:
            finders.remove(finder)  # type: ignore[arg-type]
    for name in [m for m in sys.modules if m.startswith("__editable__")]:
        del sys.modules[name]


@functools.cache
def _engine() -> frozenset[tuple[str, str]]:
    """The kit's own functions of the packages (read on a first failure): every other one is the student's."""
    from ..regions import split_functions  # noqa: PLC0415

    return split_functions(Path(__file__).resolve().parents[2])[1]


class _Alarm:
    """The ``SIGALRM`` handler of one call: stop it at its deadline, and earlier when one call of a function
    known to hang (stopped :data:`_HANG_REPEAT` times before) has run :data:`_QUICK_STOP` seconds."""

    def __init__(self, seconds: float, hanging: dict[CodeType, int],
                 stop: Callable[[str], BaseException] = TestTimeout) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.hanging = hanging
        self.stop = stop
        self.watched: tuple[FrameType, float] | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if now >= self.deadline - 0.01:
            raise self.stop(f"took longer than {self.seconds:g} s and was stopped: look for a loop that never ends")
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


@contextlib.contextmanager
def time_limit(seconds: float, hanging: dict[CodeType, int] | None = None, *,
               stop: Callable[[str], BaseException] | None = None) -> Iterator[None]:
    """The one time limit of the student's process: raise :class:`TestTimeout` in the body after ``seconds``
    (again every 0.5 s if it is swallowed), or sooner in a function of ``hanging`` (see :class:`_Alarm`);
    no limit for 0 seconds or where there is no ``setitimer`` (Windows). ``stop``: raise what it makes of the
    message instead, once (a play that goes on after its stop, as the demo's window does)."""
    hanging = hanging or {}
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return
    handler = _Alarm(seconds, hanging, stop or TestTimeout)
    previous = signal.signal(signal.SIGALRM, handler)
    if hanging and seconds > _QUICK_STOP:
        signal.setitimer(signal.ITIMER_REAL, _QUICK_STOP / 4, _QUICK_STOP / 4)
    else:
        signal.setitimer(signal.ITIMER_REAL, seconds, 0 if stop else 0.5)  # again every 0.5 s if swallowed
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _describe(exc: BaseException, *, stopped: bool = False) -> dict[str, Any]:
    """An exception from the student's code as data: class, its bases' names, message, where it came from."""
    from ..tracing import places, recursion, where  # noqa: PLC0415

    found = places(exc.__traceback__)
    try:
        message = str(exc) if not isinstance(exc, SystemExit) else repr(exc.code)
    except BaseException:  # noqa: BLE001 - a student's __str__
        message = "<the exception's message could not be read>"
    described: dict[str, Any] = {
        "type": clip(type(exc).__name__, 100),
        "bases": [clip(c.__name__, 100) for c in type(exc).__mro__[:12]],
        "message": clip(message),
        "where": where(found, _engine(), stopped=stopped) if found else "",
    }
    if isinstance(exc, RecursionError):
        described["cycle"] = recursion(found, _engine())
    notes = getattr(exc, "__notes__", None)
    if type(notes) is list:
        described["notes"] = [clip(n, 300) for n in notes[:3] if type(n) is str]
    return described


class _Observations:
    """The observations module, imported on the first request (a submission that cannot be imported makes
    every call raise the import's error, which the judge reports test by test)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.module: ModuleType | None = None
        self.error: BaseException | None = None

    def load(self) -> ModuleType:
        """The observations module, imported the first time; _ImportFailed when it (so the student's code it
        imports) could not be imported, now or the first time."""
        if self.module is None and self.error is None:
            try:
                spec = importlib.util.spec_from_file_location(self.path.stem, self.path)
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                sys.modules[self.path.stem] = module
                spec.loader.exec_module(module)
                self.module = module
            except BaseException as err:  # noqa: BLE001 - a submission that cannot be imported is reported
                sys.modules.pop(self.path.stem, None)
                self.error = err
        if self.error is not None:
            raise _ImportFailed(self.error)
        assert self.module is not None
        return self.module

    def function(self, name: str) -> Callable[..., object]:
        """The observation ``name``, a public function the module itself defines (LookupError when there is none;
        _ImportFailed when the module could not be imported)."""
        found = getattr(self.load(), name, None)
        if name.startswith("_") or not callable(found) or getattr(found, "__module__", None) != self.path.stem:
            raise LookupError(f"{self.path.name} has no observation {name!r}")
        return found  # type: ignore[no-any-return]


class _ImportFailed(Exception):
    """Importing the observations (so the submission) failed with ``error``."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


def _answer(observations: _Observations, request: object, timeout: float,
            stopped: dict[CodeType, int]) -> dict[str, Any]:
    """Run one request's observation (its own ``timeout`` when it gives one); count a call stopped at its time
    limit in ``stopped``."""
    hanging = {code: n for code, n in stopped.items() if n >= _HANG_REPEAT}
    if not (type(request) is dict and type(request.get("call")) is str and type(request.get("args")) is list):
        return observation_error("a malformed request")
    if type(request.get("timeout")) in (int, float):
        timeout = request["timeout"]
    if request["call"] == IMPORTS_CALL:
        return {"value": _imports(observations.path.parent, request["args"], timeout)}
    try:
        function = observations.function(request["call"])
    except _ImportFailed as failed:
        return {"raised": {**_describe(failed.error), "import": True}}
    except LookupError as err:
        return observation_error(str(err))
    try:
        with time_limit(timeout, hanging):
            return {"value": plain(function(*request["args"]))}
    except TestTimeout as stop:
        from ..tracing import places, student_place  # noqa: PLC0415

        student = student_place(places(stop.__traceback__), _engine())
        if student is not None and student.code is not None:
            stopped[student.code] = stopped.get(student.code, 0) + 1
        return {"raised": _describe(stop, stopped=True), "timed_out": True}
    except BaseException as err:  # noqa: BLE001 - the student's exception is the answer
        return {"raised": _describe(err)}


def _imports(folder: Path, names: list[object], timeout: float) -> dict[str, object]:
    """Import each observations module ``names`` (files in ``folder``), so the student's code they import:
    ``file name -> None``, or the import's exception described."""
    found: dict[str, object] = {}
    for name in names:
        if type(name) is not str or "/" in name or "\\" in name or not name.endswith(".py"):
            continue
        try:
            with time_limit(timeout):
                _Observations(folder / name).load()
            found[name] = None
        except _ImportFailed as failed:  # a loop stopped at the time limit is the import's error too
            found[name] = {**_describe(failed.error), "import": True}
    return found


class _Say(io.StringIO):
    """``sys.stdout`` during a tool's call: each line printed goes to the tool as ``{"id", "say": line}``
    (a partial line when it is flushed)."""

    def __init__(self, writer: TextIO, ident: object) -> None:
        super().__init__()
        self._writer, self._ident = writer, ident

    def write(self, text: str) -> int:
        *lines, rest = (self.getvalue() + text).split("\n")
        self.seek(0)
        self.truncate()
        super().write(rest)
        for line in lines:
            self._writer.write(reply(self._ident, {"say": line}))
        self._writer.flush()
        return len(text)

    def flush(self) -> None:
        if self.getvalue():
            self.write("\n")


def _serve(reader: io.BufferedReader, writer: TextIO, observations: _Observations, timeout: float,
           tool: bool = False) -> None:
    """Answer requests until the request pipe closes; for a ``tool``, what a call prints goes to it as it comes."""
    stopped: dict[CodeType, int] = {}  # the student's functions calls were stopped in -> how many times
    while True:
        line = reader.readline(REQUEST_LIMIT)
        if not line:
            return
        try:
            request = json.loads(line)
        except ValueError:
            return
        ident = request.get("id") if type(request) is dict else None
        with contextlib.redirect_stdout(_Say(writer, ident)) if tool else contextlib.nullcontext() as said:
            answer = _answer(observations, request, timeout, stopped)
            if said is not None:
                said.flush()
        writer.write(reply(ident, answer))
        writer.flush()


def main(argv: list[str] | None = None) -> int:
    """Serve observations until the judge (or the tool) closes the request pipe; 2 on a usage error.

    ``--tool``: serve a student's tool (:mod:`milestones.host`): a call's printed lines go back as ``say``
    messages, and a missing package is named as Python names it."""
    parser = argparse.ArgumentParser(prog="python -m milestones.grader.observer")
    parser.add_argument("--impl", required=True, type=Path)
    parser.add_argument("--observations", required=True, type=Path)
    parser.add_argument("--timeout", type=float, default=0.0)
    parser.add_argument("--isolated", action="store_true")
    parser.add_argument("--tool", action="store_true")
    args = parser.parse_args(argv)
    value = os.environ.pop(FDS_ENV, "")
    try:
        read_fd, write_fd = (int(v) for v in value.split(","))
        for descriptor in (read_fd, write_fd):
            os.set_inheritable(descriptor, False)  # a process the submission starts does not get them
    except (ValueError, OSError):
        print(f"observer: {FDS_ENV} must name two open descriptors", file=sys.stderr)
        return 2
    reader = os.fdopen(read_fd, "rb")
    writer = os.fdopen(write_fd, "w", encoding="utf-8")
    if not args.tool:  # a tool's play reads an empty stdin, as the tools' own processes always have
        sys.stdin = _NoKeyboard()
    impl = args.impl.resolve()
    for name in [m for m in sys.modules if m.split(".")[0] in _SWAPPED]:
        del sys.modules[name]
    if args.isolated:
        _drop_other_packages(impl)
    sys.path.insert(0, str(impl))
    sys.path.insert(0, str(args.observations.resolve().parent))  # the suite's own observe_* helpers first
    guard = ProjectOnly(impl, "No module named '{name}' in {folder}") if args.tool else ProjectOnly(impl)
    sys.meta_path.insert(0, guard)
    _serve(reader, writer, _Observations(args.observations.resolve()), args.timeout, args.tool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
