"""docs/api.md's examples run and print what the page shows (not graded)."""

from __future__ import annotations

import doctest
from pathlib import Path

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_api_doc_examples_run() -> None:
    """Every >>> example in docs/api.md gives the output shown."""
    result = doctest.testfile(str(API), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20, f"docs/api.md should hold the scripted example; ran {result.attempted}"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in docs/api.md failed (see above)"
