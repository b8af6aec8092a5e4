"""Fixtures for the milestone 3 tests: the shell window on a stacked shoe, under a real (or virtual) display.

The window tests need a display. Without ``$DISPLAY`` the session starts its own
``Xvfb`` (``sudo apt-get install xvfb``); where neither works they are skipped with that
reason (the ``display`` fixture of ``tests/conftest.py``), except under CI (``$CI``
set), where a missing display is an error.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pytest imports this file before tests/conftest.py puts the --impl folder on sys.path
    from blackjack import Rules


@pytest.fixture
def shell(display: str) -> Iterator[Callable[[Rules, str], Any]]:
    """Open the shell window for player Ann at a table whose next cards are stacked.

    ``shell(rules, "Th 9c 6d 8s")``: the cards in deal order (player, dealer's upcard,
    player, dealer's hole card, then the cards play calls for). Returns the
    :class:`gui.shell.Shell`; the window closes at the end of the test.
    """
    from gui.shell import Shell
    roots: list[tk.Tk] = []

    def make(rules: Rules, stack: str) -> Any:
        root = tk.Tk()
        roots.append(root)
        window = Shell(root, rules, name="Ann", seed=1)
        window.game.shoe.stack(stack.split())
        root.update()
        return window

    yield make
    for root in roots:
        try:
            root.destroy()
        except tk.TclError:
            pass
