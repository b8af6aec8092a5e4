"""Fixtures for the milestone 3 GUI tests: an X display (Xvfb when none is set) and a test window.

The window tests need a display. Without ``$DISPLAY`` the session starts its own
``Xvfb`` (``sudo apt-get install xvfb``); where neither works they are skipped with that
reason, except under CI (``$CI`` set), where a missing display is an error.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from blackjack import Rules


@pytest.fixture
def table(display: str) -> Iterator[Callable[[str, str], Any]]:
    """Open a test window at a table whose shoe is stacked: ``table("cs111", "Th 9c 6d 8s")``.

    The window does not animate, its dialogs do not wait, and message boxes are recorded.
    """
    from gui.app import App
    from gui.testing import Mbox
    apps: list[Any] = []

    def make(rules: str, stack: str) -> Any:
        root = tk.Tk()
        app = App(root, ["Ann"], Rules.preset(rules), seed=1, stack=stack.split(), animations=False, modal=False,
                  messages=Mbox(), hints=False, count=False)
        root.update()
        apps.append(app)
        return app

    yield make
    for app in apps:
        try:
            app.close()
        except tk.TclError:
            pass
