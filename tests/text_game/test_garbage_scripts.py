"""Garbage scripts (``garbage.py``): random options, stdin bytes and locales never give a traceback or a hang.

60 scripts run here, each in its own process as a user would start it; run 500 or more
from the shell with ``python tests/text_game/garbage.py --count 500``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import blackjack
from garbage import run, scripts

#: The folder holding the blackjack package under test (the reference, or a submission given with --impl).
IMPL = Path(blackjack.__file__).resolve().parents[1]


@pytest.mark.slow
def test_sixty_garbage_scripts_end_cleanly(tmp_path: Path) -> None:
    """Every script ends within the time limit with status 0, 1, 2 or 130 and prints no traceback."""
    failures = []
    for script in scripts(60, seed=17, folder=tmp_path):
        verdict = run(script, timeout=120, cwd=tmp_path, root=IMPL)
        if verdict.kind != "ok":
            failures.append(f"{verdict.kind} (status {verdict.status}): {script.shell()}\n{verdict.output[-800:]}")
    assert not failures, f"{len(failures)} of 60 scripts failed; the first:\n" + failures[0]
