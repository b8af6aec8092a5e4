"""The student's side of a graded test: run the suite's observations on the submission and answer in plain data.

Usage (started by the judge, :mod:`milestones.judge`; never by hand)::

    python -m milestones.observer --impl FOLDER --observations FILE [--timeout S] [--isolated]

A graded test has two halves (docs/design/graded_test_shape.md): the **judge**, a pytest test in the
grader's process that never imports the submission, and the **observation**, a small function of the
suite's module ``observe_<name>.py`` that runs here, in the student's process, calls the student's
functions and returns plain data. This process

* imports ``blackjack`` and ``gui`` from ``--impl`` only (``--isolated``: with every other folder
  holding them taken off ``sys.path``), and the observations module from its file;
* reads one request per line, ``{"id": N, "call": "name", "args": [...]}``, from the descriptor
  ``MILESTONES_OBSERVE_FDS`` names (read and removed at start, made non-inheritable), runs the
  observation with an alarm at ``--timeout`` seconds, and writes one reply per line to the other
  descriptor: ``{"id": N, "value": ...}``, or ``{"id": N, "raised": {...}}`` when the student's code
  raised (its class, message, and where in the student's files), ``"timed_out": true`` when the
  alarm stopped it;
* never reads the keyboard: ``input()`` in student code raises ``OSError`` saying so.

Nothing here is trusted: the judge reads every reply with size, depth and type limits, and the
student's code may change anything in this process. It can only change the data its own
functions produce.
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

__all__ = ["FDS_ENV", "IMPORTS_CALL", "OBJECT_KEY", "READS_STDIN", "capture", "given_cards", "main", "number", "plain"]

#: The environment variable holding the request and reply descriptors, ``"<read>,<write>"``.
FDS_ENV = "MILESTONES_OBSERVE_FDS"
#: A value that is not plain data travels as ``{OBJECT_KEY: "<class name>", "repr": "<its repr>"}``.
OBJECT_KEY = "__object__"
#: What ``input()`` in student code raises, and the judge recognises.
READS_STDIN = "reading from stdin while the tests run"
_REQUEST_LIMIT = 1024 * 1024
_TEXT_LIMIT = 64 * 1024
_MESSAGE_LIMIT = 2000
_DEPTH_LIMIT = 32
#: After this many calls were stopped at the time limit in the same function of the student's code, a
#: later call is stopped as soon as one call of that function has run ``_QUICK_STOP`` seconds.
_HANG_REPEAT = 3
_QUICK_STOP = 1.0
_SWAPPED = ("blackjack", "gui")
#: The request that imports observation modules (and so the student's code) and says which failed.
IMPORTS_CALL = "__imports__"


class TestTimeout(BaseException):
    """A call ran past its time limit (a ``BaseException``, so ``except Exception`` cannot swallow it)."""

    __test__ = False


def plain(value: object, depth: int = 0) -> object:
    """``value`` as JSON data: ``None``, ``bool``, ``int``, finite ``float``, ``str``, lists and ``str``-keyed
    dicts of those (tuples become lists). Anything else, subclasses of those types included (a student's
    ``int`` whose ``__eq__`` says yes to everything), becomes ``{OBJECT_KEY: class name, "repr": text}``."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float and value == value and value not in (float("inf"), float("-inf")):  # noqa: PLR0124
        return value
    if depth < _DEPTH_LIMIT:
        if kind in (list, tuple):
            return [plain(item, depth + 1) for item in value]  # type: ignore[attr-defined]
        if kind is dict and all(type(key) is str for key in value):  # type: ignore[attr-defined]
            return {key: plain(item, depth + 1) for key, item in value.items()}  # type: ignore[attr-defined]
    try:
        text = repr(value)
    except Exception as err:  # noqa: BLE001 - a student's __repr__ may raise anything
        text = f"<repr raised {type(err).__name__}>"
    return {OBJECT_KEY: kind.__name__[:100], "repr": _short(text)}


def number(value: object) -> object:
    """A number as data that keeps its kind: an ``int`` as itself, a ``Fraction`` as ``{"fraction": "15/2"}``, a
    ``Decimal`` as ``{"decimal": "7.5"}``, a ``float`` as itself; anything else as :func:`plain` sends it.
    The judge reads it back with :func:`milestones.judge.as_number` (money must stay exact)."""
    from decimal import Decimal  # noqa: PLC0415
    from fractions import Fraction  # noqa: PLC0415

    if type(value) is Fraction:
        return {"fraction": str(value)}
    if type(value) is Decimal:
        return {"decimal": str(value)}
    return plain(value)


def _short(text: object, limit: int = _MESSAGE_LIMIT) -> str:
    text = text if type(text) is str else "<not text>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Bounded(io.StringIO):
    """Printed text, of which the first ``_TEXT_LIMIT`` characters are kept."""

    def write(self, text: str) -> int:
        room = _TEXT_LIMIT - self.tell()
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


class _SubmissionOnly(importlib.abc.MetaPathFinder):
    """Find ``blackjack`` and ``gui`` in the submission's folder and nowhere else."""

    def __init__(self, folder: Path) -> None:
        self.folder = str(folder)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _SWAPPED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, [self.folder])
        if spec is None:
            raise ModuleNotFoundError(f"the submission has no {fullname} package", name=fullname)
        return spec


def _drop_other_packages(impl: Path) -> None:
    """Take every folder but ``impl`` that holds ``blackjack`` or ``gui`` off ``sys.path``; a ``site-packages``
    the kit was installed into is replaced by the runner's mirror of it without the kit's packages
    (:func:`milestones.isolation.site_mirrors`), which keeps the rest importable."""
    from .config import SITE_MIRRORS_ENV, mirror_name  # noqa: PLC0415

    keep = impl.resolve()
    mirrors = os.environ.get(SITE_MIRRORS_ENV)
    for index, entry in reversed(list(enumerate(sys.path))):
        folder = Path(entry or ".").resolve()
        if folder == keep or not any((folder / package / "__init__.py").is_file() for package in _SWAPPED):
            continue
        mirror = Path(mirrors) / mirror_name(folder) if mirrors else None
        if mirror is not None and mirror.is_dir():
            sys.path[index] = str(mirror)
        else:
            del sys.path[index]


@functools.cache
def _engine() -> frozenset[tuple[str, str]]:
    """The kit's own functions of the packages (read on a first failure): every other one is the student's."""
    from .regions import split_functions  # noqa: PLC0415

    return split_functions(Path(__file__).resolve().parents[1])[1]


class _Alarm:
    """The ``SIGALRM`` handler of one call: stop it at its deadline, and earlier when one call of a function
    known to hang (stopped :data:`_HANG_REPEAT` times before) has run :data:`_QUICK_STOP` seconds."""

    def __init__(self, seconds: float, hanging: dict[CodeType, int]) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.hanging = hanging
        self.watched: tuple[FrameType, float] | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if now >= self.deadline - 0.01:
            raise TestTimeout(f"took longer than {self.seconds:g} s and was stopped: look for a loop that never ends")
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
def _alarm(seconds: float, hanging: dict[CodeType, int]) -> Iterator[None]:
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return
    handler = _Alarm(seconds, hanging)
    previous = signal.signal(signal.SIGALRM, handler)
    if hanging and seconds > _QUICK_STOP:
        signal.setitimer(signal.ITIMER_REAL, _QUICK_STOP / 4, _QUICK_STOP / 4)
    else:
        signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)  # again every 0.5 s if swallowed
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _describe(exc: BaseException, *, stopped: bool = False) -> dict[str, Any]:
    """An exception from the student's code as data: class, its bases' names, message, where it came from."""
    from .tracing import places, recursion, where  # noqa: PLC0415

    found = places(exc.__traceback__)
    try:
        message = str(exc) if not isinstance(exc, SystemExit) else repr(exc.code)
    except BaseException:  # noqa: BLE001 - a student's __str__
        message = "<the exception's message could not be read>"
    described: dict[str, Any] = {
        "type": _short(type(exc).__name__, 100),
        "bases": [_short(c.__name__, 100) for c in type(exc).__mro__[:12]],
        "message": _short(message),
        "where": where(found, _engine(), stopped=stopped) if found else "",
    }
    if isinstance(exc, RecursionError):
        described["cycle"] = recursion(found, _engine())
    notes = getattr(exc, "__notes__", None)
    if type(notes) is list:
        described["notes"] = [_short(n, 300) for n in notes[:3] if type(n) is str]
    return described


class _Observations:
    """The observations module, imported on the first request (a submission that cannot be imported makes
    every call raise the import's error, which the judge reports test by test)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.module: ModuleType | None = None
        self.error: BaseException | None = None

    def load(self) -> ModuleType:
        """The observations module, imported the first time.

        Raises:
            _ImportFailed: it (so the student's code it imports) could not be imported, now or the first time.
        """
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
        """The observation ``name``: a public function the module itself defines.

        Raises:
            _ImportFailed: the module could not be imported.
            LookupError: it defines no such observation.
        """
        found = getattr(self.load(), name, None)
        if name.startswith("_") or not callable(found) or getattr(found, "__module__", None) != self.path.stem:
            raise LookupError(f"{self.path.name} has no observation {name!r}")
        return found  # type: ignore[no-any-return]


class _ImportFailed(Exception):
    """Importing the observations (so the submission) failed with ``error``."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


def _observation_error(message: str) -> dict[str, Any]:
    """A reply for a request the suite's side got wrong (not the student's code): an ``ObservationError``."""
    return {"raised": {"type": "ObservationError", "bases": [], "message": message, "where": ""}}


def _answer(observations: _Observations, request: object, timeout: float,
            stopped: dict[CodeType, int]) -> dict[str, Any]:
    """Run one request's observation; count a call stopped at its time limit in ``stopped``."""
    hanging = {code: n for code, n in stopped.items() if n >= _HANG_REPEAT}
    if not (type(request) is dict and type(request.get("call")) is str and type(request.get("args")) is list):
        return _observation_error("a malformed request")
    if request["call"] == IMPORTS_CALL:
        return {"value": _imports(observations.path.parent, request["args"], timeout)}
    try:
        function = observations.function(request["call"])
    except _ImportFailed as failed:
        return {"raised": {**_describe(failed.error), "import": True}}
    except LookupError as err:
        return _observation_error(str(err))
    try:
        with _alarm(timeout, hanging):
            return {"value": plain(function(*request["args"]))}
    except TestTimeout as stop:
        from .tracing import places, student_place  # noqa: PLC0415

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
            with _alarm(timeout, {}):
                _Observations(folder / name).load()
            found[name] = None
        except _ImportFailed as failed:  # a loop stopped at the time limit is the import's error too
            found[name] = {**_describe(failed.error), "import": True}
    return found


def _serve(reader: io.BufferedReader, writer: TextIO, observations: _Observations, timeout: float) -> None:
    stopped: dict[CodeType, int] = {}  # the student's functions calls were stopped in -> how many times
    while True:
        line = reader.readline(_REQUEST_LIMIT)
        if not line:
            return
        try:
            request = json.loads(line)
        except ValueError:
            return
        ident = request.get("id") if type(request) is dict else None
        reply = _answer(observations, request, timeout, stopped)
        try:
            text = json.dumps({"id": ident, **reply})
        except (ValueError, TypeError, RecursionError):
            text = json.dumps({"id": ident, **_observation_error("the answer is too large to send")})
        writer.write(text + "\n")
        writer.flush()


def main(argv: list[str] | None = None) -> int:
    """Serve observations until the judge closes the request pipe; 2 on a usage error."""
    parser = argparse.ArgumentParser(prog="python -m milestones.observer")
    parser.add_argument("--impl", required=True, type=Path)
    parser.add_argument("--observations", required=True, type=Path)
    parser.add_argument("--timeout", type=float, default=0.0)
    parser.add_argument("--isolated", action="store_true")
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
    sys.stdin = _NoKeyboard()
    impl = args.impl.resolve()
    for name in [m for m in sys.modules if m.split(".")[0] in _SWAPPED]:
        del sys.modules[name]
    if args.isolated:
        _drop_other_packages(impl)
    sys.path.insert(0, str(impl))
    sys.path.insert(0, str(args.observations.resolve().parent))  # the suite's own observe_* helpers first
    sys.meta_path.insert(0, _SubmissionOnly(impl))
    _serve(reader, writer, _Observations(args.observations.resolve()), args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
