"""README.md's install steps work in a fresh virtualenv of each supported Python, with the pip it brings.

Issue 33: pip 23.2.1 (Python 3.11.7 and 3.12.1 bring it) refused the hash-pinned requirements, which
named coverage without the ``[toml]`` extra that pytest-cov asks for. Each Python found here makes a
virtualenv and runs the install part of README.md's test command, exactly; CI runs the whole command in
such a virtualenv of Python 3.11 (``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from milestones import REPO_ROOT

pytestmark = pytest.mark.slow


def _install_part() -> str:
    """The install steps of README.md's test command (the part before ``python3 -m pytest``)."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("```sh\n")[2].split("```", 1)[0].strip()
    steps = command.split(" && ")
    install = [step for step in steps if " -m pip install " in step]
    assert install and steps[:len(install)] == install, f"README.md's test command should install first: {command}"
    return " && ".join(install)


def _interpreter(name: str) -> str | None:
    """The path of a working ``python3.X`` named ``name``: on the PATH, or one of pyenv's versions (pyenv's
    shim for a version that is installed but not selected answers "command not found")."""
    candidates = [shutil.which(name)]
    if shutil.which("pyenv"):
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, timeout=30).stdout.strip()
        candidates += sorted(str(p) for p in Path(root).glob(f"versions/*/bin/{name}")) if root else []
    for candidate in candidates:
        if candidate and subprocess.run([candidate, "-c", "import venv"], capture_output=True,
                                        timeout=60).returncode == 0:
            return candidate
    return None


@pytest.mark.parametrize("name", ["python3.11", "python3.12", "python3.13"])
def test_readme_install_steps_work_in_a_fresh_virtualenv(name: str, tmp_path: Path) -> None:
    python = _interpreter(name)
    if python is None:
        pytest.skip(f"no working {name} on this machine")
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "--version"], capture_output=True, text=True,
                         env=env, timeout=60).stdout.strip()
    done = subprocess.run(["bash", "-c", _install_part()], cwd=REPO_ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, f"{python} with {pip}:\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}"
    check = subprocess.run([str(venv / "bin" / "python"), "-c", "import pytest, xdist, pytest_cov, mypy, hypothesis"],
                           capture_output=True, text=True, env=env, timeout=120)
    assert check.returncode == 0, check.stderr[-2000:]
