"""Shared pytest set-up: the implementation under test, and the grading plugin.

``pytest tests/milestone1 --impl PATH`` judges the ``blackjack`` (and ``gui``) packages found in
the folder PATH (a student's submission) instead of the reference. The milestone tests never
import them: they ask the fixture ``student`` for observations, which run in a process of their
own that imports ``blackjack`` and ``gui`` from PATH only (``milestones/grader/observer.py``), so a
submission without a ``gui`` package fails the GUI tests instead of borrowing the reference's.

The grading plugin (``milestones/grader/plugin.py``) adds ``--results-json``,
``--test-timeout``, the ``student`` fixture and the checks on ``@pytest.mark.points`` / ``PART``;
see ``tests/README.md``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The folder holding the milestones package: the kit's clone or a starter (this file is
# tests/conftest.py), or site-packages (an installed kit has it as milestones/suites/conftest.py).
_ROOT = str(next((p for p in Path(__file__).resolve().parents if (p / "milestones" / "__init__.py").is_file()),
                 Path(__file__).resolve().parents[1]))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)  # the milestones package, when pytest runs from another folder

pytest_plugins = ["milestones.grader.plugin"]


def pytest_addoption(parser: pytest.Parser) -> None:
    try:
        parser.addoption(
            "--impl", metavar="PATH", default=None,
            help="folder holding the blackjack package to test (default: the reference in this repo)")
    except ValueError:
        pass  # "--impl PATH" made pytest load PATH/tests/conftest.py too (a copy of this file)


def pytest_configure(config: pytest.Config) -> None:
    impl = config.getoption("--impl")
    if impl and not (Path(impl) / "blackjack" / "__init__.py").is_file():
        raise pytest.UsageError(f"--impl {impl}: no blackjack/__init__.py in that folder")


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """An X display for the GUI tests: ``$DISPLAY``, or a private Xvfb stopped at the end of the session.

    Where no display can be had the window tests are skipped with the reason, except
    under CI (``$CI`` set), where a missing display is an error.
    """
    import tkinter as tk

    from gui.testing import NoDisplay, virtual_display
    manager = virtual_display()
    try:
        name = manager.__enter__()
    except NoDisplay as err:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have a display for the GUI tests: {err}")
        pytest.skip(str(err))
    try:
        tk.Tk().destroy()
    except tk.TclError as err:
        manager.__exit__(None, None, None)
        if os.environ.get("CI"):
            pytest.fail(f"CI must have a display for the GUI tests: {err}")
        pytest.skip(f"Tk cannot open the display {name}: {err}")
    yield name
    manager.__exit__(None, None, None)
