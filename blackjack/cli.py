"""What every command line of the kit shares: one-line errors, output that fails cleanly, a quiet Ctrl-C.

A bad option is one line saying what is wrong, exit status 2, no usage block. Output piped into
a reader that stops early (``| head``) ends quietly; output that cannot be written
(``> /dev/full``) ends with one line on stderr and exit status 1; Ctrl-C with status 130.

This module loads only argparse, contextlib, os, signal and sys (the number readers when first
used), so a command line can call :func:`exit_on_interrupt` before its heavy imports.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing: exit_on_interrupt is wanted early
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from fractions import Fraction
    from types import FrameType
    from typing import IO, NoReturn, TextIO, TypeVar

    from _typeshed import SupportsWrite

    _T = TypeVar("_T")

__all__ = ["INTERRUPTED", "OneLineParser", "amount_argument", "count_argument", "exit_on_interrupt",
           "game_command", "interrupts_raise", "share_argument", "silence_broken_pipe", "simulator_command",
           "table_command"]

#: The exit status after Ctrl-C: 128 + SIGINT, what a shell reports for a process that Ctrl-C stopped.
INTERRUPTED = 128 + signal.SIGINT


def silence_broken_pipe(stream: TextIO | IO[str] | None = None) -> None:
    """After a ``BrokenPipeError`` on ``stream`` (default: ``sys.stdout``), point the real stdout at
    devnull, so the interpreter's last flush at exit does not print a second error."""
    if (stream is None or stream is sys.stdout) and sys.stdout is not None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def exit_on_interrupt() -> None:
    """From now on, make Ctrl-C (SIGINT) end the process quietly with status :data:`INTERRUPTED` (130).

    The handler raises ``SystemExit(130)``: no traceback, and ``finally`` blocks still run. Call it
    first thing, and only when the module runs as a program: it sets the handler of the whole
    process. Code that handles Ctrl-C itself wraps that part in :func:`interrupts_raise`. SIGINT
    ignored (``nohup``) stays ignored; outside the main thread nothing changes.
    """
    _set_sigint(_exit_interrupted)


def _exit_interrupted(_signum: int, _frame: FrameType | None) -> NoReturn:
    raise SystemExit(INTERRUPTED)


@contextlib.contextmanager
def interrupts_raise() -> Iterator[None]:
    """Within the ``with`` block, Ctrl-C raises ``KeyboardInterrupt``; after it, the handler from before comes back.

    Put the ``with`` inside the ``try`` that catches ``KeyboardInterrupt``, so that no moment is
    left for a traceback. Ignored SIGINT stays ignored; outside the main thread nothing changes.
    """
    previous = _set_sigint(signal.default_int_handler)
    try:
        yield
    finally:
        if previous is not None:
            _set_sigint(previous)


def _set_sigint(handler: Callable[[int, FrameType | None], object] | int) -> Callable[[int, FrameType | None], object] | int | None:
    """Install ``handler`` for SIGINT; return the one it replaced, or None when nothing changed
    (SIGINT ignored, a handler set outside Python, or not the main thread)."""
    try:
        current = signal.getsignal(signal.SIGINT)
        if current in (signal.SIG_IGN, None):
            return None
        signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: only the main thread may set handlers
        return None
    return current


class OneLineParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line: ``prog: error: ... (see --help)``, exit status 2.

    Its output is flushed as it is written, so a reader that went away ends the command quietly
    and a full disk ends it with one line on stderr and status 1 (argparse alone would exit with
    120 at the interpreter's last flush). Sub-commands (``add_subparsers()``) get the same class.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line to stderr and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        """Print the help to ``file`` (default stdout).

        Raises:
            SystemExit: status 1 after one line on stderr, when stdout is closed (``>&-``).
        """
        if file is None and sys.stdout is None:
            _say_stopped(self.prog, "standard output is closed")
            raise SystemExit(1)
        super().print_help(file)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Write ``message`` to ``file`` (default stderr) and flush it.

        Raises:
            SystemExit: status 1 after one line on stderr, when stdout cannot be written
                (a full disk); a broken pipe is silenced and the command goes on to exit as
                it was about to. Nothing is raised when stderr itself cannot be written.
        """
        stream = file if file is not None else sys.stderr
        if not message or stream is None:  # nothing to say, or the stream was closed (2>&-)
            return
        try:
            stream.write(message)
            flush = getattr(stream, "flush", None)
            if flush is not None:
                flush()
        except BrokenPipeError:
            if stream is sys.stdout:
                silence_broken_pipe()
        except OSError as err:
            if stream is sys.stderr:
                return  # nowhere left to report it; the exit status still tells
            _say_stopped(self.prog, f"cannot write the output: {err.strerror or err}")
            raise SystemExit(1) from None


def _say_stopped(prog: str, reason: str) -> None:
    """One line on stderr (when stderr can take it): ``prog: stopped: reason``. What is left in stdout's
    buffer is dropped, so the interpreter's last flush does not fail again."""
    if sys.stdout is not None:
        silence_broken_pipe(sys.stdout)
    try:
        if sys.stderr is not None:
            print(f"{prog}: stopped: {reason}", file=sys.stderr)
    except OSError:
        pass


def amount_argument(text: str) -> Fraction:
    """argparse ``type=`` for an amount of money, exact, in :func:`blackjack.money.parse_amount`'s grammar.

    The range (positive, at least a minimum ...) is the caller's to check.

    Raises:
        argparse.ArgumentTypeError: not an amount; the parser shows the message in one line.
    """
    from .money import parse_amount  # loaded when used, as the number readers below (see the module's docstring)

    return _argument(parse_amount, text)


def count_argument(most: int, *, least: int = 1) -> Callable[[str], int]:
    """Return an argparse ``type=`` that reads a count from ``least`` to ``most``.

    The grammar is :func:`blackjack.typed_numbers.parse_count`'s: unlike money, a count may use
    an exponent (``1e6``, ``2.5e5``): counts of hands are round and large.

    Raises:
        (from the returned function) argparse.ArgumentTypeError: not such a count, or out of range.
    """

    def read_count(text: str) -> int:
        from .typed_numbers import parse_count

        return _argument(lambda typed: parse_count(typed, most, least=least), text)

    read_count.__name__ = "count"  # argparse names the type in some messages
    return read_count


def share_argument(text: str) -> Fraction:
    """argparse ``type=`` for a share from 0 to 1: ``0.25`` or ``1/4`` (:func:`blackjack.typed_numbers.parse_share`).

    Raises:
        argparse.ArgumentTypeError: not such a share; the parser shows the message in one line.
    """
    from .typed_numbers import parse_share

    return _argument(parse_share, text)


def _argument(parse: Callable[[str], _T], text: str) -> _T:
    """``parse(text)``, its ValueError turned into argparse's one-line ArgumentTypeError."""
    try:
        return parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _run(module: str) -> NoReturn:
    """Make Ctrl-C quiet, then import ``module`` and exit with what its ``main()`` returns.

    The installed commands start here, not at ``module:main``, which a Ctrl-C during its import would break.
    """
    exit_on_interrupt()
    from importlib import import_module

    sys.exit(import_module(module).main())


def game_command() -> NoReturn:
    """The ``blackjack-kit`` command: the text game (``python -m blackjack``)."""
    _run("blackjack.__main__")


def table_command() -> NoReturn:
    """The ``blackjack-kit-gui`` command: the Tk table (``python -m gui``)."""
    _run("gui.__main__")


def simulator_command() -> NoReturn:
    """The ``blackjack-kit-sim`` command: the simulator (``python -m blackjack.sim``)."""
    _run("blackjack.sim.__main__")
