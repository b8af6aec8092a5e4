"""Before and after: the grader's reports and the student's tools' output on the sample submissions are the ones
recorded in tests/kit/golden/ (by tests/kit/golden.py, at the commit its files name).

A change that means to change an output (a suite gains a test, a message is reworded) records them again in
the same commit: ``python tests/kit/golden.py record``; ``python tests/kit/golden.py compare --kit DIR`` says
which outputs of another checkout differ.
"""

from __future__ import annotations

import os
import shutil

import pytest
from golden import GOLDEN, outputs


@pytest.mark.slow
@pytest.mark.skipif(not (os.environ.get("DISPLAY") or shutil.which("Xvfb")),
                    reason="milestone 3's suite and the demo's window scenes need a display (or Xvfb)")
def test_grades_demo_defend_and_ten_rounds_are_as_recorded() -> None:
    """``grade --format json``, ``--format gradescope``, ``demo``, ``defend`` and ten rounds on the samples give
    the recorded outputs, timings and temporary folders aside."""
    found = outputs()
    recorded = {path.name: path.read_text(encoding="utf-8") for path in GOLDEN.glob("*.txt")}
    assert sorted(found) == sorted(recorded)
    differ = [name for name in sorted(found) if found[name] != recorded[name]]
    assert not differ, f"these outputs changed: {differ} (python tests/kit/golden.py record, if that is meant)"
