"""README.md's examples run, and its two commands are the ones CI runs."""

from __future__ import annotations

import doctest
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

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


CI_VENV_MARKER = "# --- README.md's test command in a fresh virtualenv"


@pytest.mark.skipif(shutil.which("python3.11") is None, reason="no python3.11 here (CI has it: .ci/run needs it)")
def test_ci_runs_the_readme_test_command_in_a_fresh_virtualenv(tmp_path: Path) -> None:
    """.ci/run's last part makes a virtualenv with Python 3.11 and the pip that venv brings, and runs README.md's
    test command inside it, where nothing is installed yet: a missing install step fails CI. The part is run
    here with a probe in place of README.md's command."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert script.count(CI_VENV_MARKER) == 1, f".ci/run must hold the block that starts {CI_VENV_MARKER!r}"
    block = script.split(CI_VENV_MARKER, 1)[1].splitlines()[1:]
    commands = [line for line in block if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == script.rstrip().splitlines()[-1], "the virtualenv block must be the end of .ci/run"
    probe = ("python3 -c 'import importlib.util, json, sys; print(json.dumps([sys.prefix, sys.base_prefix, "
             "list(sys.version_info[:2]), importlib.util.find_spec(\"pytest\") is None]))'; "
             "python3 -m pip --version")
    setup = "\n".join(block[:block.index(commands[-1])])
    done = subprocess.run(["bash", "-c", f"set -euo pipefail\n{setup}\n{probe}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    facts, pip = done.stdout.splitlines()[-2:]
    prefix, base_prefix, version, fresh = json.loads(facts)
    assert prefix != base_prefix and Path(prefix).is_relative_to(tmp_path), \
        f"README.md's command must run in a virtualenv the script makes; it ran in {prefix}"
    assert version == [3, 11], f"the oldest supported Python is 3.11; the virtualenv has {version}"
    assert fresh, "the virtualenv must start with nothing installed (pytest was importable)"
    bundled = subprocess.run(["python3.11", "-c", "import ensurepip; print(ensurepip.version())"], capture_output=True,
                             text=True, timeout=60).stdout.strip()
    assert pip.startswith(f"pip {bundled} "), f"the virtualenv must keep the pip Python 3.11 brings ({bundled}): {pip}"
    assert not Path(prefix).exists(), "the script's virtualenv must be removed at exit"
