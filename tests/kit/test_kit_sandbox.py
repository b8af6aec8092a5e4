"""The runner's sandbox (milestones/grader/_sandbox.py): processes a submission starts, limits, namespaces, cleanup."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from milestones.grader._sandbox import landlock_abi, user_tasks
from milestones.grader.runner import Limits, run_suite
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
    killed only on a time-out), also when the process left the group with setsid() (it used to escape).
    The processes are found by a token on their command line: in a PID namespace, the pid the
    submission sees is not the one the grader sees."""
    submission = tmp_path / "sub"
    write_packages(submission, lambda r: False)
    token = f"bj-background-{os.getpid()}-{time.monotonic_ns()}"
    started = tmp_path / "started.txt"
    init = submission / "blackjack" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + (
        "\nimport subprocess as _sp, sys as _sys\n"
        f"_child = _sp.Popen([_sys.executable, '-c', 'import time; time.sleep(120)', {token!r}], "
        f"start_new_session={own_session})\n"
        f"with open({str(started)!r}, 'a') as _f:\n    _f.write('started\\n')\n"), encoding="utf-8")
    run = run_suite(mini_course / "tests" / "milestone1", submission, limits=LIMITS)
    try:
        assert run.finished and started.read_text(encoding="utf-8").split()
        deadline = time.monotonic() + 5  # SIGKILL is sent; the process needs a moment to go
        while _with_token(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _with_token(token) == []
    finally:
        for pid in _with_token(token):
            os.kill(pid, 9)


@needs_proc
def test_the_sandbox_caps_the_number_of_processes() -> None:
    """On Linux the child's RLIMIT_NPROC is the user's running processes and threads plus the limit
    (so a fork bomb stops there; the kernel does not apply it to root)."""
    before = user_tasks()
    assert before is not None and before > 0
    done = subprocess.run([sys.executable, "-m", "milestones.grader._sandbox", "10", "0", "0", "50", "--", sys.executable,
                           "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_NPROC)[0])"],
                          capture_output=True, text=True, check=True, timeout=30)
    soft = int(done.stdout)
    assert before + 50 - 20 <= soft <= before + 50 + 20  # other processes may start or end meanwhile


def test_the_sandbox_explains_its_usage() -> None:
    """The sandbox with missing arguments says how to call it (and exits 2)."""
    done = subprocess.run([sys.executable, "-m", "milestones.grader._sandbox", "10", "0", "0", "--", "true"],
                          capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 2 and "PROCESSES [--user NAME]" in done.stderr and "-- PROGRAM" in done.stderr


def _holds(pid: int, token: str) -> bool:
    try:
        return token.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _with_token(token: str) -> list[int]:
    """The live processes whose command line holds ``token``."""
    return [int(e) for e in os.listdir("/proc") if e.isdigit() and _alive(int(e)) and _holds(int(e), token)]


def _sandboxed(script: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "milestones.grader._sandbox", "30", "0", "0", "0", *options, "--",
                           sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=60)


@needs_proc
def test_the_supervisor_kills_a_daemon_that_dropped_its_session_and_environment(tmp_path: Path) -> None:
    """A grandchild that left the session (setsid), lost its parent (double fork) and cleared its environment
    (execve with {}) used to escape every sweep; it comes back to the supervisor (a child subreaper) as an
    orphan and is killed when the program ends. The program's own exit status comes through."""
    token = f"bj-daemon-{os.getpid()}-{time.monotonic_ns()}"
    script = (f"import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
              f"        os.execve('/bin/sh', ['sh', '-c', 'sleep 120; : {token}'], {{}})\n    os._exit(0)\n"
              f"os.wait()\nraise SystemExit(3)\n")
    done = _sandboxed(script)
    assert done.returncode == 3, done.stderr
    time.sleep(0.5)
    alive = [e for e in os.listdir("/proc") if e.isdigit() and _alive(int(e)) and _holds(int(e), token)]
    assert alive == []


@needs_proc
def test_a_program_killed_by_a_signal_ends_the_supervisor_with_that_signal() -> None:
    """The runner reads SIGXCPU and friends from the exit status: the supervisor passes the signal on."""
    done = _sandboxed("import os, signal; os.kill(os.getpid(), signal.SIGXCPU)")
    assert done.returncode == -signal.SIGXCPU


@needs_proc
@pytest.mark.skipif(landlock_abi() < 1, reason="needs Linux Landlock (kernel 5.13+)")
def test_writes_outside_the_allowed_folders_are_refused(tmp_path: Path) -> None:
    """With --write DIR, the program (root or not) may create files in DIR only: elsewhere it gets
    PermissionError, and deleting a file outside DIR fails too."""
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (outside / "keep.txt").write_text("keep\n", encoding="utf-8")
    script = (f"import os\nopen({str(allowed / 'new.txt')!r}, 'w').write('ok')\n"
              f"for act in (lambda: open({str(outside / 'new.txt')!r}, 'w'), lambda: os.remove({str(outside / 'keep.txt')!r})):\n"
              f"    try:\n        act()\n        print('allowed')\n    except PermissionError:\n        print('refused')\n")
    done = _sandboxed(script, "--write", str(allowed))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["refused", "refused"]
    assert (allowed / "new.txt").read_text(encoding="utf-8") == "ok"
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]


#: Start 30 processes that each leave the session and sleep (all of them orphans the supervisor must kill), say
#: "ready", and wait. The token on the sleepers' command lines is written backwards here, so this program's own
#: command line (and its supervisor's) does not hold it.
_MANY_ORPHANS = '''
import os, sys, time
for _ in range(30):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", "@NEKOT@"[::-1]])
        os._exit(0)
    os.wait()
print("ready", flush=True)
time.sleep(120)
'''


@needs_proc
@pytest.mark.parametrize("namespaces", ["on", "off"], ids=["pid namespace", "subreaper sweep"])
def test_sigterm_during_the_cleanup_does_not_break_it(namespaces: str) -> None:
    """Issue 26: a SIGTERM that arrived while the supervisor listed its children raised inside its cleanup and
    crashed it (a traceback, the orphans left running). Here SIGTERM comes every millisecond for two seconds
    once the program has left 30 orphans: the supervisor ends at the first one the way a stopped run ends
    (exit status 128 + SIGKILL), prints no traceback, and leaves nothing running, with a PID namespace (as
    root) and with the subreaper's sweep (--namespaces off)."""
    token = f"bj-orphan-{os.getpid()}-{time.monotonic_ns()}"
    options = ["--namespaces", "off"] if namespaces == "off" else []  # on: the default, where allowed
    supervisor = subprocess.Popen([sys.executable, "-m", "milestones.grader._sandbox", "60", "0", "0", "0", *options,
                                   "--", sys.executable, "-c",
                                   _MANY_ORPHANS.replace("@NEKOT@", token[::-1])],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert supervisor.stdout is not None and supervisor.stdout.readline() == "ready\n"
        deadline = time.monotonic() + 5
        while len(_with_token(token)) < 30 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(_with_token(token)) == 30
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and supervisor.poll() is None:
            supervisor.send_signal(signal.SIGTERM)
            time.sleep(0.001)
        _out, err = supervisor.communicate(timeout=10)
        assert "Traceback" not in err, err
        assert supervisor.returncode == 128 + signal.SIGKILL
        time.sleep(0.2)
        assert _with_token(token) == []
    finally:
        supervisor.kill()
        supervisor.wait()
        for pid in _with_token(token):
            os.kill(pid, signal.SIGKILL)


@needs_proc
def test_the_limits_are_hard() -> None:
    """Issue 26: only the soft limits were set, and a process may raise a soft limit up to the hard one (2.5 GiB,
    400 threads, an 80 MiB file). Each limit is now set as the soft and the hard value, so an unprivileged
    program cannot raise it at all; the CPU's hard limit is one second above the soft one, so SIGXCPU (read
    as "used up its CPU time") still comes first and SIGKILL follows if the program catches it."""
    script = ("import resource as r\nfor n in ('RLIMIT_AS', 'RLIMIT_FSIZE', 'RLIMIT_NPROC', 'RLIMIT_CPU'):\n"
              "    print(n, *r.getrlimit(getattr(r, n)))\n")
    done = subprocess.run([sys.executable, "-m", "milestones.grader._sandbox", "30", "300", "5", "50", "--",
                           sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=30)
    limits = {name: (int(soft), int(hard)) for name, soft, hard in (line.split() for line in done.stdout.splitlines())}
    assert limits["RLIMIT_AS"] == (300 << 20, 300 << 20)
    assert limits["RLIMIT_FSIZE"] == (5 << 20, 5 << 20)
    assert limits["RLIMIT_NPROC"][0] == limits["RLIMIT_NPROC"][1] > 50
    assert limits["RLIMIT_CPU"] == (30, 31)


@needs_proc
@pytest.mark.skipif(landlock_abi() < 1, reason="needs Linux Landlock (kernel 5.13+)")
def test_landlock_lets_a_run_write_to_a_few_devices_only(tmp_path: Path) -> None:
    """Issue 26: the Landlock rule allowed writing to any file beneath /dev, so /dev/shm files (shared memory
    every run sees; here one anyone may write, as an earlier run could leave it) were writable. The rule now
    names the character devices a program may write to (/dev/null, /dev/zero, ...): /dev/null still takes
    writes, the /dev/shm file is refused and keeps its text (Landlock alone here, no namespace), and the
    allowed folder still works."""
    shared = Path(f"/dev/shm/bj-{os.getpid()}-{time.monotonic_ns()}")
    shared.write_text("PLANTED", encoding="utf-8")
    shared.chmod(0o666)
    script = (f"from milestones.grader._sandbox import confine\nassert confine([{str(tmp_path)!r}])\n"
              f"open('/dev/null', 'w').write('ok')\nopen({str(tmp_path / 'new.txt')!r}, 'w').write('ok')\n"
              f"try:\n    open({str(shared)!r}, 'w').write('FROM-THE-RUN')\n    print('written')\n"
              f"except PermissionError:\n    print('refused')\n")
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                              timeout=30)
        assert (done.returncode, done.stdout.strip()) == (0, "refused"), done.stderr
        assert shared.read_text(encoding="utf-8") == "PLANTED"
        assert (tmp_path / "new.txt").read_text(encoding="utf-8") == "ok"
    finally:
        shared.unlink(missing_ok=True)


@needs_proc
@pytest.mark.parametrize("namespaces", ["on", "off"], ids=["pid namespace", "subreaper sweep"])
def test_a_program_out_of_cpu_time_ends_with_sigxcpu(namespaces: str) -> None:
    """The CPU limit is hard one second above the soft one: a busy loop gets SIGXCPU at the soft limit (the
    runner's "used up its CPU time"), not the hard limit's SIGKILL, in a PID namespace (where the program is
    not the namespace's init, which would ignore SIGXCPU) as without one."""
    options = ["--namespaces", "off"] if namespaces == "off" else []
    done = subprocess.run([sys.executable, "-m", "milestones.grader._sandbox", "1", "0", "0", "0", *options, "--",
                           sys.executable, "-c", "while True: pass"], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == -signal.SIGXCPU, done.stderr


@needs_proc
@pytest.mark.skipif(not (hasattr(os, "geteuid") and os.geteuid() == 0) or not shutil.which("setpriv"),
                    reason="needs root and setpriv to take CAP_SYS_ADMIN away")
def test_where_namespaces_are_refused_the_sweep_still_cleans_up() -> None:
    """Without CAP_SYS_ADMIN (a container that refuses namespaces), --probe finds none and the supervisor falls
    back to the child subreaper's sweep: a daemon that left the session is still killed, and the program's
    exit status still comes through."""
    drop = ["setpriv", "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin"]
    probe = subprocess.run([*drop, sys.executable, "-m", "milestones.grader._sandbox", "--probe"], capture_output=True,
                           text=True, check=True, timeout=30)
    assert json.loads(probe.stdout) == []
    token = f"bj-daemon-{os.getpid()}-{time.monotonic_ns()}"
    script = (f"import os, sys\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
              f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(120)', "
              f"{token[::-1]!r}[::-1]])\n    os._exit(0)\nos.wait()\nimport time\ntime.sleep(0.5)\n"
              f"print(os.readlink('/proc/self/ns/pid'))\nraise SystemExit(3)\n")
    done = subprocess.run([*drop, sys.executable, "-m", "milestones.grader._sandbox", "30", "0", "0", "0", "--",
                           sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 3, done.stderr
    assert done.stdout.strip() == os.readlink("/proc/self/ns/pid")  # not in a PID namespace of its own
    time.sleep(0.2)
    assert _with_token(token) == []


def test_the_missing_protections_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """isolation.unprotected names what a graded run goes without: the sandbox user when not root, Landlock,
    and each namespace the probe did not get (here made unavailable), in PROTECTIONS' words; with all of
    them there, as root, nothing."""
    from milestones.grader import isolation  # noqa: PLC0415
    from milestones.grader._sandbox import NAMESPACES, PROTECTIONS  # noqa: PLC0415

    monkeypatch.setattr(isolation, "landlock_abi", lambda: 0)
    monkeypatch.setattr(isolation, "namespaces", lambda: frozenset({"pid-namespace"}))
    missing = isolation.unprotected(False)
    assert missing == ["sandbox-user", "landlock", "mount-namespace", "ipc-namespace", "network-namespace"]
    assert isolation.unprotected(True) == missing[1:]
    assert all(name in PROTECTIONS for name in missing)
    monkeypatch.setattr(isolation, "landlock_abi", lambda: 3)
    monkeypatch.setattr(isolation, "namespaces", lambda: frozenset(NAMESPACES))
    assert isolation.unprotected(True) == []
    assert isolation.unprotected(False) == ["sandbox-user", "landlock-scopes"]
