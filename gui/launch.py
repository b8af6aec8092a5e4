"""Open a Kit window from the command line, for ``python -m gui`` and ``python -m gui.shell``: one way to start Tk
and to stop in one line (:func:`run_window`), never with a traceback."""

from __future__ import annotations

import sys
import tkinter as tk
from collections.abc import Callable

from blackjack.errors import unwritten

__all__ = ["run_window"]


def run_window(program: str, build: Callable[[tk.Tk], object]) -> int:
    """Open a Tk root window, let ``build`` fill it, and run it until it is closed.

    Args:
        program: the command's name that starts each message, e.g. ``"blackjack-kit-gui"``.
        build: makes the window's contents on the root. Any exception but
            ``NotImplementedError`` reaches the caller, after the root is destroyed.

    Returns:
        The exit status: 0 once the window is closed; 1, with one line on stderr, when no
        window can open (no display) or ``build`` meets course code not written yet.
    """
    try:
        root = tk.Tk()
    except tk.TclError as err:
        print(f"{program}: cannot open a window: {err}", file=sys.stderr)
        return 1
    try:
        build(root)
    except NotImplementedError as err:  # a student's starter: the window cannot even be drawn yet
        root.destroy()
        print(f"{program}: stopped: {unwritten(err)}", file=sys.stderr)
        return 1
    except BaseException:
        root.destroy()
        raise
    root.mainloop()
    return 0
