"""What every command line of the kit shares: argparse with one-line errors, a quiet broken pipe.

A bad option is bad input like any other: one line saying what is wrong, exit status 2,
no usage block (``--help`` shows that). Output piped into a reader that stops early
(``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn, TextIO

__all__ = ["OneLineParser", "silence_broken_pipe"]


def silence_broken_pipe(stream: TextIO | None = None) -> None:
    """After a ``BrokenPipeError`` on ``stream`` (default: ``sys.stdout``), point the real stdout at
    devnull, so the interpreter's last flush at exit does not print a second error."""
    if stream is None or stream is sys.stdout:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


class OneLineParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line: ``prog: error: ... (see --help)``, exit status 2.

    Sub-commands made with ``add_subparsers()`` get the same class.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line to stderr and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")
