"""README.md's examples run, and its two commands are the ones CI runs."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_examples_run() -> None:
    """Every >>> example in README.md gives the output shown."""
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run runs exactly the test command README.md gives second, as its last command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```sh\n")[1:3]]
    play, test = blocks
    assert play == "python3 -m blackjack"
    ci_lines = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert ci_lines[-1] == test, "the README's test command must be .ci/run's last: a failure inside its && list " \
                                 "does not stop a set -e script, so only the last command's status is CI's"
