"""Every judge's failure message can be shown on this Python (issue 33).

The milestone suites run against the reference with the plugin ``tests/kit/wrong_answers.py``, which
turns every answer of the student's process wrong. A message built with something this Python lacks
(``f"{Fraction(1, 2):g}"`` needs Python 3.12) fails as "the test itself failed (TypeError ...)", the
message a student must never get for a wrong answer. CI runs this on the oldest supported Python.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from milestones import REPO_ROOT

SUITES = ("tests/milestone1", "tests/milestone2", "tests/milestone3")


def test_every_judge_shows_its_own_message_for_a_wrong_answer(tmp_path: Path) -> None:
    """Each judge, given wrong answers, fails with its own message for the student, never with
    "the test itself failed"; and the wrong answers reach (fail) every judge of the suites."""
    report = tmp_path / "wrong_answers.json"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "tests" / "kit"), "WRONG_ANSWERS_REPORT": str(report)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "wrong_answers", "-p", "no:cacheprovider",
                           "-n", "0", *SUITES], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert report.is_file(), f"the run wrote no report:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    outcomes: dict[str, dict[str, str]] = json.loads(report.read_text(encoding="utf-8"))
    assert len(outcomes) > 200, f"the milestone suites ran only {len(outcomes)} tests"
    broken = [f"{node} ({o['what']}): {o['message'][:300]}" for node, o in outcomes.items()
              if o["message"].startswith("the test itself failed")]
    assert not broken, f"these judges' messages cannot be shown on Python {sys.version.split()[0]}:\n" + \
                       "\n".join(broken)
    missed = [node for node, o in outcomes.items() if o["outcome"] == "passed" and o["judge"] == "True"]
    assert not missed, "wrong answers did not fail these judges (their messages were never shown):\n" + \
                       "\n".join(missed)
