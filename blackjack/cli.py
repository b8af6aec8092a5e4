"""What every command line of the kit shares: argparse with one-line errors.

A bad option is bad input like any other: one line saying what is wrong, exit status 2,
no usage block (``--help`` shows that).
"""

from __future__ import annotations

import argparse
from typing import NoReturn

__all__ = ["OneLineParser"]


class OneLineParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line: ``prog: error: ... (see --help)``, exit status 2.

    Sub-commands made with ``add_subparsers()`` get the same class.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line to stderr and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")
