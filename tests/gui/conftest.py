"""Fixtures for the Tk table's tests: a display (Xvfb when none is set), windows built for tests, screenshots.

Real-window tests carry ``@pytest.mark.gui`` and take the ``app`` or ``make_app``
fixture. Without ``$DISPLAY`` the session starts its own ``Xvfb`` (``apt-get install
xvfb``); where neither exists the window tests are skipped with that reason, except
under CI (``$CI`` set), where a missing display is an error. Screenshots go to
``test-output/screenshots/`` (ImageMagick's ``import``; the canvas's PostScript otherwise).
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from blackjack import Rules

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def make_app(display: str) -> Iterator[Callable[..., Any]]:
    """Build test windows: ``make_app(["Ann"], "vegas", stack="Th 9c 7d 8s", **options)``.

    Windows are non-modal, unanimated and record message boxes (``app.messages.shown``)
    unless the options say otherwise; every window is closed after the test, which fails
    if a Tk callback raised.
    """
    from gui.app import App
    from gui.testing import Mbox
    apps: list[Any] = []

    def make(names: list[str] | None = None, rules: str | Rules = "vegas", stack: str = "", **options: Any) -> Any:
        root = tk.Tk()
        settings: dict[str, Any] = {"seed": 7, "animations": False, "modal": False, "messages": Mbox(),
                                    "hints": False, "count": True}
        settings.update(options)
        app = App(root, names or ["Ann"], Rules.preset(rules) if isinstance(rules, str) else rules,
                  stack=stack.split(), **settings)
        root.update()
        apps.append(app)
        return app

    yield make
    errors = []
    for app in apps:
        errors += app.errors
        try:
            app.close()
        except tk.TclError:
            pass  # the test closed it already
    assert not errors, f"a Tk callback raised: {errors}"


@pytest.fixture
def shot() -> Callable[[Any, str], Path]:
    """Save a screenshot of a test window under test-output/screenshots/<name>.png and return its path."""
    from gui.testing import NoDisplay, screenshot

    def take(target: Any, name: str) -> Path:
        """``target`` is an App (its main window) or a Toplevel (a dialog or chart window).

        A window with no canvas to save as PostScript needs ImageMagick: without it the
        test is skipped with the reason (the screen's other checks have run by then).
        """
        if hasattr(target, "settle"):
            target.settle()
        window = target.root if hasattr(target, "root") else target
        canvas = next((getattr(target, a) for a in ("table", "canvas", "chart") if hasattr(target, a)), None)
        try:
            return screenshot(window, SCREENSHOTS / f"{name}.png", canvas)
        except NoDisplay as err:
            pytest.skip(str(err))

    return take
