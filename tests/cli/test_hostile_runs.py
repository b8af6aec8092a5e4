"""Hostile runs (``hostile.py``): bad options, hostile environments, unwritable output, Ctrl-C and no stdin
end cleanly: in time, with an allowed status, no traceback, one line for a usage error, no raw escapes.

40 runs here (about 10 s on 2 cores); run hundreds from the shell with
``python tests/cli/hostile.py --count 300 --seed 1``.
"""

from __future__ import annotations

from pathlib import Path

import blackjack
from hostile import Files, execute, runs

#: The checkout under test: the runs start in it, so ``python -m blackjack`` finds its package first.
ROOT = Path(blackjack.__file__).resolve().parents[1]


def test_forty_hostile_runs_end_cleanly(tmp_path: Path) -> None:
    failures = []
    families = set()
    for run in runs(40, seed=28, files=Files(tmp_path)):
        families.add(run.family)
        verdict = execute(run, timeout=60, root=ROOT)
        if not verdict.kind.startswith("ok"):
            failures.append(f"{verdict.kind} (status {verdict.status}): {run.shell()}\n{verdict.output[-800:]}")
    assert families == {"options", "environment", "output", "interrupt", "stdin"}, families
    assert not failures, f"{len(failures)} of 40 runs failed; the first:\n" + failures[0]
