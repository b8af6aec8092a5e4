"""Issue 26's attacks on the sandbox itself, each built as a real submission and graded.

Every attack is the bare starter (honest score: 0) with a payload at the end of its
``blackjack/__init__.py`` (:func:`test_kit_attacks._attack`), graded by the grader in local
``grade`` mode (``isolation.is_root`` made False: the code runs as the grader's user) and as
root (a sandbox user), where the attack applies. The payload reports what it managed through
the message of a visible test (``get_score`` raises it), so each test checks both the score
and what the attack could not do. Where a namespace is missing (a kernel or a container that
refuses them), the tests of its protection are skipped, and the grader says which protection
was missing (the last tests here).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import socket
import tempfile
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_kit_attacks import _attack, course, mode  # noqa: F401 - course and mode are fixtures

from milestones.grader import isolation
from milestones.grader.grading import TAMPERED, Grader, SubmissionGrade, find_submissions
from milestones.report import gradescope_results, json_report, text_report
from milestones.grader.runner import Limits

LIMITS = Limits(timeout=60, test_timeout=5)
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="the sandbox user needs root (CI runs as root)")


def _needs(name: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(name not in isolation.namespaces(), reason=f"the kernel refuses a {name} here")


pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux")]

#: ``get_score`` raises what the payload found: the message of every visible score test shows it.
REPORT = '''
from .hand import Hand as _Hand
def _reported(self):
    raise RuntimeError("REPORT " + _report)
_Hand.get_score = _reported
'''


def _grade(course: Path, submissions: list[Path], scratch: Path, limits: Limits = LIMITS,
           jobs: int = 1) -> list[SubmissionGrade]:
    return Grader(tests=course / "tests", limits=limits, jobs=jobs).grade(find_submissions(submissions, scratch), [1])


def _report(grade: SubmissionGrade) -> str:
    """What the payload reported (the message of the visible test ``test_two_aces_and_nine``)."""
    [message] = [t.message for t in grade.milestones[0].tests if t.record.name == "test_mini.py::test_two_aces_and_nine"]
    assert "REPORT " in message, message
    return message.split("REPORT ", 1)[1].split(" (in ", 1)[0]


def _zero(grade: SubmissionGrade) -> None:
    assert grade.regular == 0 and grade.extra == 0, grade.milestones[0].notes
    assert not any(note.startswith(TAMPERED) for note in grade.milestones[0].notes), grade.milestones[0].notes


#: A process that forks and exits at once, its child the same, for 40 s: always one or two processes, each
#: with a new pid, in a session of its own, without the run's tag in its environment. The token (on the
#: command line, which fork keeps) finds them. The student process first kills its supervisor if it may (not
#: root: the same user), which used to leave only the sweeps of /proc that list and then kill.
CHAIN = '''
import os as _os, signal as _signal, sys as _sys
_supervisor = _os.getppid()
if _os.fork() == 0:
    _os.setsid()
    if _supervisor > 1:
        try:
            _os.kill(_supervisor, _signal.SIGKILL)
        except OSError:
            pass
    _os.execve(_sys.executable, [_sys.executable, "-c",
               "import os, time\\nend = time.time() + 40\\nwhile time.time() < end:\\n    if os.fork():\\n"
               "        os._exit(0)\\n", "@TOKEN@"], {})
'''


def _cgroup() -> Path | None:
    """This process's cgroup folder where processes can be counted: the v1 ``pids`` hierarchy, or v2's."""
    for line in Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines():
        number, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(","):
            base = Path("/sys/fs/cgroup/pids")
        elif number == "0" and not controllers:
            base = next((b for b in (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
                         if (b / "cgroup.controllers").is_file()), Path("/nonexistent"))
        else:
            continue
        folder = base / path.lstrip("/")
        if (folder / "cgroup.procs").is_file() and os.access(folder / "cgroup.procs", os.W_OK):
            return folder
    return None


@contextmanager
def _contained() -> Iterator[Callable[[], list[int]]]:
    """Move this process into a new cgroup of its own for the block; yield a function listing the other
    processes in it. Every process started in the block is in it and cannot leave it (not root), whatever
    its pid or session: a chain that keeps changing pid is seen as surely as a sleeping process. Whatever
    is left at the end is stopped from forking and killed."""
    parent = _cgroup()
    if parent is None or not ROOT:
        pytest.skip("counting processes needs root and a writable cgroup (v1 pids or v2)")
    group = parent / f"bj-test-{uuid.uuid4().hex}"
    group.mkdir()
    me = str(os.getpid())

    def others() -> list[int]:
        return [int(p) for p in (group / "cgroup.procs").read_text(encoding="utf-8").split() if p != me]

    (group / "cgroup.procs").write_text(me, encoding="utf-8")
    try:
        yield others
    finally:
        (parent / "cgroup.procs").write_text(me, encoding="utf-8")
        if (group / "pids.max").is_file():
            (group / "pids.max").write_text("0", encoding="utf-8")  # v1: no new process in it
        if (group / "cgroup.kill").is_file():
            (group / "cgroup.kill").write_text("1", encoding="utf-8")  # v2: all at once
        deadline = time.monotonic() + 10
        while others() and time.monotonic() < deadline:
            for pid in others():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.05)
        group.rmdir()


@_needs("pid-namespace")
def test_a_chain_of_processes_that_keeps_changing_pid_does_not_outlive_the_run(
        mode: str, course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """Issue 26: a process that forks and exits, its child the same, for ever, changes pid faster than a sweep
    that lists /proc and then kills (here it also clears its environment, so the run's tag does not find it,
    and kills its supervisor where it may), and survived the grader. In a PID namespace, the kernel kills
    every process of it when its init ends (and init ends with its supervisor): nothing of the chain is
    left once the run is over. The grader runs in a cgroup of the test's own, which counts whatever is left."""
    token = uuid.uuid4().hex
    submission = _attack(samples, tmp_path, CHAIN, token=token)
    with _contained() as others:
        [grade] = _grade(course, [submission], tmp_path / "scratch")
        time.sleep(1)
        assert others() == []
    _zero(grade)


#: Connect to a port on 127.0.0.1 and report what happened.
NETWORK = '''
import socket as _socket
try:
    _socket.create_connection(("127.0.0.1", @PORT@), timeout=3).close()
    _report = "connected"
except OSError as _err:
    _report = f"no network: {type(_err).__name__}"
''' + REPORT


@_needs("network-namespace")
def test_the_student_process_has_no_network(mode: str, course: Path, samples: dict[str, Path],
                                            tmp_path: Path) -> None:
    """Issue 26: the hidden run could send its tests out over the network. A payload that connects to a port
    this test listens on (127.0.0.1, so no outside network is needed) gets no connection, in the visible run
    and in the hidden one: the student process has a network namespace of its own with nothing in it."""
    accepted: list[str] = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        stop = threading.Event()

        def accept() -> None:
            while not stop.is_set():
                try:
                    connection, _ = server.accept()
                except OSError:
                    continue
                accepted.append("a connection")
                connection.close()

        listener = threading.Thread(target=accept)
        listener.start()
        try:
            submission = _attack(samples, tmp_path, NETWORK.replace("@PORT@", str(server.getsockname()[1])))
            [grade] = _grade(course, [submission], tmp_path / "scratch")
        finally:
            stop.set()
            listener.join()
    assert accepted == []
    assert _report(grade).startswith("no network:")
    _zero(grade)


#: Read the System V shared memory segment of a known key, then write into it (IPC_CREAT: make it if missing).
SYSV_SHM = '''
import ctypes as _c
_libc = _c.CDLL(None, use_errno=True)
_libc.shmat.restype = _c.c_void_p
_libc.shmat.argtypes = [_c.c_int, _c.c_void_p, _c.c_int]
_libc.shmdt.argtypes = [_c.c_void_p]
_id = _libc.shmget(@KEY@, 4096, 0o1666)
_found = "no segment"
if _id >= 0:
    _at = _libc.shmat(_id, None, 0)
    if _at not in (None, _c.c_void_p(-1).value):
        _found = "found " + repr(_c.string_at(_at, 64).split(b"\\0")[0].decode(errors="replace"))
        _c.memmove(_at, b"FROM-THE-RUN\\0", 13)
        _libc.shmdt(_at)
_report = _found
''' + REPORT


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    libc.shmdt.argtypes = [ctypes.c_void_p]
    libc.shmctl.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    return libc


def _segment_text(libc: ctypes.CDLL, ident: int) -> str:
    address = libc.shmat(ident, None, 0)
    assert address not in (None, ctypes.c_void_p(-1).value)
    try:
        return ctypes.string_at(address, 64).split(b"\0")[0].decode(errors="replace")
    finally:
        libc.shmdt(address)


@_needs("ipc-namespace")
def test_system_v_shared_memory_carries_nothing_between_runs(mode: str, course: Path, samples: dict[str, Path],
                                                             tmp_path: Path) -> None:
    """Issue 26: SysV shared memory carried the hidden tests from the hidden run to the visible one. Here a
    segment left by an earlier run (made by this test, readable and writable by every user) holds
    "PLANTED": the payload, which opens the segment of that key (or makes it) and writes into it, finds
    nothing and changes nothing outside its own IPC namespace, which ends with the run."""
    key = 0x42000000 + (os.getpid() & 0xFFFF)
    libc = _libc()
    ident = libc.shmget(key, 4096, 0o1666)
    assert ident >= 0, os.strerror(ctypes.get_errno())
    try:
        address = libc.shmat(ident, None, 0)
        ctypes.memmove(address, b"PLANTED\0", 8)
        libc.shmdt(address)
        submission = _attack(samples, tmp_path, SYSV_SHM.replace("@KEY@", str(key)))
        [grade] = _grade(course, [submission], tmp_path / "scratch")
        assert _report(grade) == "found ''"  # a fresh segment of its own namespace, not the planted one
        assert _segment_text(libc, ident) == "PLANTED"
        assert libc.shmget(key, 0, 0) == ident  # the run's own segment went with its namespace
        _zero(grade)
    finally:
        libc.shmctl(ident, 0, None)  # IPC_RMID


#: Read a file in /dev/shm (POSIX shared memory, which every run used to see) and write into it.
DEV_SHM = '''
try:
    with open("/dev/shm/@TOKEN@", "r+") as _f:
        _found = _f.read()
        _f.seek(0)
        _f.write("FROM-THE-RUN")
    _report = f"written over {_found!r}"
except OSError as _err:
    _report = f"refused: {type(_err).__name__}"
''' + REPORT


def test_dev_shm_is_not_writable(mode: str, course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """Issue 26: /dev/shm files were writable (Landlock let the run write to any file under /dev), so an
    earlier run's file there (here planted by the test, writable by anyone) could carry data to the next
    run. Now Landlock lets a run write to a handful of character devices only, and in a private mount
    namespace /dev/shm is an empty read-only file system: the payload can neither read nor change the
    file."""
    if landlock_missing() and "mount-namespace" not in isolation.namespaces():
        pytest.skip("needs Landlock or a private mount namespace")
    token = f"bj-{uuid.uuid4().hex}"
    shared = Path("/dev/shm", token)
    shared.write_text("PLANTED", encoding="utf-8")
    shared.chmod(0o666)
    submission = _attack(samples, tmp_path, DEV_SHM, token=token)
    try:
        [grade] = _grade(course, [submission], tmp_path / "scratch")
        assert _report(grade).startswith("refused: ")
        assert shared.read_text(encoding="utf-8") == "PLANTED"
        _zero(grade)
    finally:
        shared.unlink(missing_ok=True)


def landlock_missing() -> bool:
    return "landlock" in isolation.unprotected(True)


#: Fill $TMPDIR, then the working folder (the run's copy of the submission), in files of 2 MiB (under
#: RLIMIT_FSIZE), up to 64 MiB each, and report how much each took and how it stopped.
FILL = '''
import os as _os
def _fill(folder):
    written = 0
    try:
        for number in range(32):
            with open(_os.path.join(folder, f"fill{number}"), "wb") as handle:
                for _ in range(2):
                    handle.write(b"x" * (1 << 20))
                    handle.flush()
                    written += 1
        return f"{written}:none"
    except OSError as err:
        import errno
        return f"{written}:{errno.errorcode.get(err.errno, err.errno)}"
_report = "tmp=" + _fill(_os.environ["TMPDIR"]) + " sub=" + _fill(_os.getcwd())
''' + REPORT


@_needs("mount-namespace")
def test_a_run_cannot_fill_the_disk_for_the_others(mode: str, course: Path, samples: dict[str, Path],
                                                   tmp_path: Path) -> None:
    """Issue 26: filling the shared temp folder zeroed the student graded beside it. Each student process now
    writes its temporary folder and its copy of the submission into a private tmpfs of 4 x file_mb (here
    16 MiB): the payload gets ENOSPC there (after at most 16 MiB, where it used to write 64 MiB in each), and
    the reference graded next in the same batch keeps its full score."""
    limits = Limits(timeout=60, test_timeout=5, file_mb=4)
    assert isolation.space_mb(limits) == 16 and isolation.space_mb(Limits()) == 256
    submission = _attack(samples, tmp_path, FILL)
    attack, honest = _grade(course, [submission, samples["full"]], tmp_path / "scratch", limits=limits)
    found = dict(item.split("=") for item in _report(attack).split())
    (tmp_written, tmp_error), (sub_written, sub_error) = found["tmp"].split(":"), found["sub"].split(":")
    assert (tmp_error, sub_error) == ("ENOSPC", "ENOSPC"), found
    assert int(tmp_written) + int(sub_written) <= 16
    _zero(attack)
    assert honest.regular == 25


#: In every run at the same time: look at the other runs' folders in the grader's temp folder and import the
#: first copy of a submission it can read in place of its own.
CLASSMATE = '''
import importlib.util as _iu, os as _os, pathlib as _p, sys as _s, time as _t
_own = _p.Path.cwd()
_seen, _read, _opened = set(), [], set()
_start = _t.time()
while _t.time() < _start + 4 and not _read and not (_seen and _t.time() > _start + 1):
    for _run in _own.parent.parent.glob("bj-grade-*"):
        if _run == _own.parent or not _os.path.exists(_run / "sub"):
            continue
        _seen.add(_run.name)
        try:
            if "NotImplementedError" not in (_run / "sub" / "blackjack" / "hand.py").read_text():
                _read.append(_run / "sub" / "blackjack")
        except OSError:
            pass
        for _other in ("output.txt", "tmp", "judge"):
            try:
                (_run / _other).read_text() if _other == "output.txt" else _os.listdir(_run / _other)
                _opened.add(_other)
            except OSError:
                pass
    _t.sleep(0.05)
if _read:
    _spec = _iu.spec_from_file_location("blackjack", _read[0] / "__init__.py",
                                        submodule_search_locations=[str(_read[0])])
    _theirs = _iu.module_from_spec(_spec)
    for _name in [n for n in _s.modules if n.startswith("blackjack.")]:
        del _s.modules[_name]
    _s.modules["blackjack"] = _theirs
    _spec.loader.exec_module(_theirs)
else:
    _modes = ",".join(oct(_os.stat(_f).st_mode & 0o777) for _f in (_own, _os.environ["TMPDIR"], _own.parent))
    _report = f"seen={len(_seen)} opened={sorted(_opened)} modes={_modes}"
    from .hand import Hand as _Hand
    def _reported(self):
        raise RuntimeError("REPORT " + _report)
    _Hand.get_score = _reported
'''

#: The honest classmate takes a moment at import, so its run is there while the attacker looks.
SLOW_IMPORT = "\nimport time as _time\n_time.sleep(1.5)\n"


@needs_root
def test_a_concurrent_run_cannot_read_a_classmates_copy(course: Path, samples: dict[str, Path], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: with --jobs 2 as root, a run found a concurrent run's bj-grade-*/sub (0711 folders, files
    0644) and imported it: 25/25. Each run's copy and temporary folder are now 0700, owned by its own sandbox
    user (its work folder 0711, so the user can reach them): the attacker sees the classmate's run (with
    Landlock, not even that: the grader's temp folder is not readable) and reads nothing of it (nor its temporary folder, the judge's copy or output), and scores 0; the classmate keeps
    25. The grader's temp folder is one of this test's
    own, listable by all like /tmp, so only these two runs are in it."""
    shared = Path("/tmp") / f"bj-classmates-{uuid.uuid4().hex}"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    classmate = tmp_path / "classmate"
    shutil.copytree(samples["full"], classmate)
    init = classmate / "blackjack" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + SLOW_IMPORT, encoding="utf-8")
    attacker = _attack(samples, tmp_path, CLASSMATE)
    try:
        honest, attack = _grade(course, [classmate, attacker], tmp_path / "scratch", jobs=2)
    finally:
        monkeypatch.undo()
        shutil.rmtree(shared, ignore_errors=True)
    assert honest.regular == 25
    report = _report(attack)
    seen = int(report.split("seen=")[1].split()[0])
    assert seen == 0 if not landlock_missing() else seen >= 1, report  # with Landlock, not even listed
    assert "opened=[]" in report  # nor its temporary folder, the judge's copy, or the judge's output
    assert report.endswith("modes=0o700,0o700,0o711"), report
    _zero(attack)


#: Try to lift each limit to what the hard limit allowed (the issue: 2.5 GiB, 400 threads, an 80 MiB file),
#: then use more memory than the limit gives.
LIMITS_PAYLOAD = '''
import resource as _r
_done = []
for _name in ("RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_CPU"):
    _kind = getattr(_r, _name)
    _soft, _hard = _r.getrlimit(_kind)
    for _wanted in ((_r.RLIM_INFINITY, _r.RLIM_INFINITY), (_hard, _hard)):
        try:
            _r.setrlimit(_kind, _wanted)
            break
        except (ValueError, OSError):
            pass
    _now = _r.getrlimit(_kind)[0]
    _done.append(f"{_name}:" + ("unlimited" if _now == _r.RLIM_INFINITY else f"+{_now - _soft}"))
try:
    _big = bytearray(700 << 20)
    _done.append("memory:700MiB")
    del _big
except MemoryError:
    _done.append("memory:refused")
_report = " ".join(_done)
''' + REPORT


@needs_root
def test_the_limits_cannot_be_lifted(course: Path, samples: dict[str, Path], tmp_path: Path) -> None:
    """Issue 26: the sandbox set only soft rlimits, which a process may lift to the hard ones. As the sandbox
    user, each limit is now hard (the soft and the hard value; the CPU's hard limit one second above, where
    SIGKILL follows the SIGXCPU of the soft one): lifting memory, processes or file size gains nothing, CPU
    time one second, and 700 MiB cannot be had under a 512 MiB limit."""
    limits = Limits(timeout=60, test_timeout=5, memory_mb=512, file_mb=8)
    submission = _attack(samples, tmp_path, LIMITS_PAYLOAD)
    [grade] = _grade(course, [submission], tmp_path / "scratch", limits=limits)
    report = _report(grade).split()
    assert report == ["RLIMIT_AS:+0", "RLIMIT_NPROC:+0", "RLIMIT_FSIZE:+0", "RLIMIT_CPU:+1", "memory:refused"]
    _zero(grade)


def test_the_grader_says_which_protections_a_run_went_without(course: Path, samples: dict[str, Path],
                                                              tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a protection is unavailable (here made so: not root, no Landlock, no namespace), the run records
    which (RunResult.unprotected, MilestoneGrade.unprotected), the text report ends with them and what each
    leaves open, json_report and results.json's extra_data list them, and the student's output says
    nothing of them. With every protection there (root, Landlock, namespaces), nothing is said."""
    monkeypatch.setattr(isolation, "is_root", lambda: False)
    monkeypatch.setattr(isolation, "landlock_abi", lambda: 0)
    monkeypatch.setattr(isolation, "namespaces", lambda: frozenset({"mount-namespace", "pid-namespace"}))
    [grade] = _grade(course, [samples["starter"]], tmp_path / "scratch")
    missing = ["sandbox-user", "landlock", "ipc-namespace", "network-namespace"]
    assert grade.milestones[0].unprotected == missing
    text = text_report([grade])
    assert "Graded without these protections" in text
    assert all(f"  {name}: " in text for name in missing) and "pid-namespace:" not in text
    assert "no network namespace: student code can use the network" in text
    assert json.loads(json_report([grade]))[0]["milestones"][0]["unprotected"] == missing
    results = json.loads(gradescope_results(grade))
    assert results["extra_data"] == {"unprotected": missing}
    assert "namespace" not in results["output"] and "landlock" not in results["output"].lower()


@needs_root
def test_as_root_with_every_protection_nothing_is_reported(course: Path, samples: dict[str, Path],
                                                          tmp_path: Path) -> None:
    """As root, on a kernel with Landlock and namespaces (this machine, CI), a run goes without nothing, and
    the reports say nothing of protections."""
    if landlock_missing() or len(isolation.namespaces()) < 4:
        pytest.skip("this kernel lacks Landlock or a namespace")
    [grade] = _grade(course, [samples["starter"]], tmp_path / "scratch")
    assert grade.milestones[0].unprotected == []
    assert "Graded without" not in text_report([grade])
    assert "extra_data" not in json.loads(gradescope_results(grade))
