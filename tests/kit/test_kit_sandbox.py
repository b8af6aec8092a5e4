"""The runner's sandbox: processes a submission starts, and the process limit."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from milestones._sandbox import user_tasks
from milestones.runner import Limits, run_suite
from milestones.starter import write_packages

LIMITS = Limits(timeout=60, test_timeout=5)

needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux /proc")


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (a killed orphan may wait for a reaper that never comes)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@needs_proc
@pytest.mark.parametrize("own_session", [False, True], ids=["in the group", "with setsid"])
def test_processes_started_by_the_submission_end_with_the_run(mini_course: Path, tmp_path: Path,
                                                              own_session: bool) -> None:
    """A submission that starts a background process at import (here a 2-minute sleep) leaves nothing
    running once the run is over, although the run itself ended normally (the process group used to be
    killed only on a time-out), also when the process left the group with setsid() (it used to escape)."""
    submission = tmp_path / "sub"
    write_packages(submission, lambda r: False)
    pids = tmp_path / "pids.txt"
    init = submission / "blackjack" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + (
        "\nimport subprocess as _sp, sys as _sys\n"
        "_child = _sp.Popen([_sys.executable, '-c', 'import time; time.sleep(120)'], "
        f"start_new_session={own_session})\n"
        f"with open({str(pids)!r}, 'a') as _f:\n    _f.write(f'{{_child.pid}}\\n')\n"), encoding="utf-8")
    run = run_suite(mini_course / "tests" / "milestone1", submission, limits=LIMITS)
    started = [int(line) for line in pids.read_text(encoding="utf-8").split()]
    try:
        assert run.finished and started
        deadline = time.monotonic() + 5  # SIGKILL is sent; the process needs a moment to go
        while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in started if _alive(pid)]
    finally:
        for pid in started:
            if _alive(pid):
                os.kill(pid, 9)


@needs_proc
def test_the_sandbox_caps_the_number_of_processes() -> None:
    """On Linux the child's RLIMIT_NPROC is the user's running processes and threads plus the limit
    (so a fork bomb stops there; the kernel does not apply it to root)."""
    before = user_tasks()
    assert before is not None and before > 0
    done = subprocess.run([sys.executable, "-m", "milestones._sandbox", "10", "0", "0", "50", "--", sys.executable,
                           "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_NPROC)[0])"],
                          capture_output=True, text=True, check=True, timeout=30)
    soft = int(done.stdout)
    assert before + 50 - 20 <= soft <= before + 50 + 20  # other processes may start or end meanwhile


def test_the_sandbox_explains_its_usage() -> None:
    """The sandbox with missing arguments says how to call it (and exits 2)."""
    done = subprocess.run([sys.executable, "-m", "milestones._sandbox", "10", "0", "0", "--", "true"],
                          capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 2 and "PROCESSES -- PROGRAM" in done.stderr
