"""Shared pytest set-up: choose the implementation under test.

``pytest tests/milestone1 --impl PATH`` tests the ``blackjack`` package found in the
folder PATH (a student's submission) instead of the reference. The path goes first
on ``sys.path`` before any test module imports ``blackjack``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--impl", metavar="PATH", default=None,
        help="folder holding the blackjack package to test (default: the reference in this repo)")


def pytest_configure(config: pytest.Config) -> None:
    impl = config.getoption("--impl")
    if impl:
        folder = Path(impl).resolve()
        if not (folder / "blackjack" / "__init__.py").is_file():
            raise pytest.UsageError(f"--impl {impl}: no blackjack/__init__.py in that folder")
        for name in [m for m in sys.modules if m == "blackjack" or m.startswith("blackjack.")]:
            del sys.modules[name]
        sys.path.insert(0, str(folder))
