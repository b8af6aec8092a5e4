"""Issue 35's attacks: reading what the sandbox hides, reaching a classmate, forging through the judge, state
that outlives a run. Each is a real submission (the bare starter, honest score 0, with a payload at the end of
its ``blackjack/__init__.py``), graded in local ``grade`` mode (``isolation.is_root`` made False) and as root
(a sandbox user) where it applies, most of them beside the reference in the same batch. The tests that need a
protection missing (no Landlock, no namespaces: an older kernel, a container) take it away with the sandbox's
own ``--landlock off`` and ``--namespaces off``.
"""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_kit_attacks import _attack, course, mode  # noqa: F401 - course and mode are fixtures
from test_kit_sandbox_attacks import CHAIN, REPORT, SLOW_IMPORT, _contained, _grade, _report, _zero

from milestones.grader import isolation
from milestones.grader._sandbox import landlock_abi
from milestones.grader.grading import TAMPERED, SubmissionGrade
from milestones.grader.runner import Limits, sandbox_limits

LIMITS = Limits(timeout=60, test_timeout=5)
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux")]
needs_scopes = pytest.mark.skipif(landlock_abi() < 6, reason="Landlock scopes signals from ABI 6 (Linux 6.12)")


def _messages(grade: SubmissionGrade) -> list[str]:
    """Every message of the grade a student or an instructor may read: each test's and the notes."""
    return [t.message for m in grade.milestones for t in m.tests] + [n for m in grade.milestones for n in m.notes]


def _classmate(samples: dict[str, Path], into: Path) -> Path:
    """The reference solution as a classmate's submission that takes 1.5 s at each import, so its run is there
    while the attacker beside it looks."""
    folder = Path(shutil.copytree(samples["full"], into / "ann"))
    init = folder / "blackjack" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + SLOW_IMPORT, encoding="utf-8")
    return folder


def _tampered(grade: SubmissionGrade) -> bool:
    return any(note.startswith(TAMPERED) for note in grade.milestones[0].notes)


#: The absolute paths this process can learn: every command line and environment in /proc, sys.path, and the
#: paths an editable install's finder and .pth files name. Shared by the payloads below.
PATHS = '''
import glob as _g, os as _os, pathlib as _p, re as _re, sys as _s, time as _t
def _paths():
    found = set(_s.path)
    for _pid in [d for d in _os.listdir("/proc") if d.isdigit()]:
        for _part in ("cmdline", "environ"):
            try:
                _text = open(f"/proc/{_pid}/{_part}", "rb").read().decode("utf-8", "replace")
                found.update(_re.findall(r"/[\\w./+-]+", _text))
            except OSError:
                pass
    for _m in list(_s.modules.values()):
        found.update(str(v) for v in (getattr(_m, "MAPPING", None) or {}).values())
    for _f in [f for _pre in (_s.base_prefix, _s.prefix) for f in _g.glob(_pre + "/lib/python3*/site-packages/*")]:
        if _f.endswith((".pth", "finder.py")):
            try:
                found.update(_re.findall(r"/[\\w./+-]+", open(_f, errors="replace").read()))
            except OSError:
                pass
    return [_p.Path(p) for p in found if p.startswith("/")]
def _glob(folder, *patterns):
    found = []
    for _pattern in patterns:
        try:
            found += list(folder.glob(_pattern))
        except OSError:
            pass
    return found
def _around(path, depth=4):
    for _up in [path, *list(path.parents)[:depth]]:
        if str(_up) in ("/", "/proc", "/usr", "/tmp"):
            break
        yield _up
'''

#: Look for a solved blackjack package anywhere its paths lead (the reference, a classmate's copy, for 4 s)
#: and import it in place of its own.
READ_SOLUTION = PATHS + '''
import importlib.util as _iu
_mine = _p.Path(__file__).resolve().parent
_solved = None
_end = _t.time() + 4
while _solved is None and _t.time() < _end:
    for _path in _paths():
        for _up in _around(_path):
            for _pkg in [_up / "blackjack", *_glob(_up, "*/blackjack", "*/*/blackjack")]:
                try:
                    _hand = (_pkg / "hand.py").read_text(errors="replace")
                    if _pkg.resolve() != _mine and "NotImplementedError" not in _hand:
                        _solved = _pkg
                except OSError:
                    pass
    _t.sleep(0.1)
if _solved is not None:
    _s.meta_path[:] = [f for f in _s.meta_path if type(f).__name__ != "ProjectOnly"]  # the observer's guard
    _spec = _iu.spec_from_file_location("blackjack", _solved / "__init__.py", submodule_search_locations=[str(_solved)])
    _theirs = _iu.module_from_spec(_spec)
    for _name in [n for n in _s.modules if n.startswith("blackjack.")]:
        del _s.modules[_name]
    _s.modules["blackjack"] = _theirs
    _spec.loader.exec_module(_theirs)
'''


def test_no_solution_is_readable_from_the_students_process(mode: str, course: Path, samples: dict[str, Path],
                                                           tmp_path: Path) -> None:
    """Issue 35: the grader's command lines in /proc, an editable install's finder and the site-packages mirror
    led a submission to the kit's reference, or to a classmate's copy graded at the same time, and it scored
    what they score. The student's process now reads only its own run's folders, the system's and Python's
    (Landlock), the mirror holds no entry of the kit, and /proc is its PID namespace's own: it earns its 0,
    and the classmate beside it keeps full marks."""
    submission = _attack(samples, tmp_path, READ_SOLUTION)
    attack, other = _grade(course, [submission, _classmate(samples, tmp_path)], tmp_path / "scratch", jobs=2)
    _zero(attack)
    assert other.regular == 25


#: Raise the source of every test file with hidden tests its paths lead to from get_score (which visible and
#: hidden tests call), for the student or the instructor to see.
READ_HIDDEN = PATHS + '''
_leak = []
for _path in _paths():
    for _up in _around(_path, 3):
        for _test in _glob(_up, "test_*.py", "*/test_*.py", "*/*/test_*.py"):
            try:
                _text = _test.read_text(errors="replace")
                if "mark.hidden" in _text and _text not in _leak:
                    _leak.append(_text)
            except OSError:
                pass
if _leak:
    from .hand import Hand as _Hand
    def _get_score(self):
        raise RuntimeError("LEAK " + "\\n".join(_leak)[:1800])
    _Hand.get_score = _get_score
'''


def test_no_hidden_test_is_readable_from_the_students_process(mode: str, course: Path, samples: dict[str, Path],
                                                              tmp_path: Path) -> None:
    """Issue 35: a submission found test files with hidden tests through the paths /proc and an editable install
    show (the kit's own suites, the hidden run's copy of the judge's) and echoed their source in its messages.
    The hidden tests live with the judge only: no message of the grade, visible or hidden, holds any."""
    grade = _grade(course, [_attack(samples, tmp_path, READ_HIDDEN)], tmp_path / "scratch")[0]
    assert not any("LEAK" in message or "mark.hidden" in message for message in _messages(grade)), _messages(grade)
    _zero(grade)


#: Write to stdout until the file size limit stops it (SIGXFSZ ignored: the writes fail instead), in every
#: student process, then take a few seconds: the file stays full while the classmate beside it is graded.
FLOOD = '''
import os as _os, signal as _signal, time as _t
_signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)
_block = b"x" * (1 << 20)
try:
    while True:
        _os.write(1, _block)
except OSError:
    pass
_t.sleep(3)
'''


@pytest.fixture
def grader_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary folder of its own for the grader and its judges (``tempfile.tempdir`` and ``$TMPDIR``), in
    /tmp (which every user may enter, as the sandbox users must): on a tmpfs of 40 MiB where root may mount one."""
    folder = Path(tempfile.mkdtemp(prefix="bj-grader-tmp-", dir="/tmp"))
    folder.chmod(0o755)
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=40m,mode=0755", "tmpfs",
                                                    str(folder)], check=False).returncode == 0
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))
    try:
        yield folder
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_flood_of_output_stays_in_the_runs_own_space(mode: str, course: Path, samples: dict[str, Path],
                                                       tmp_path: Path, grader_tmp: Path) -> None:
    """Issue 35: the student's stdout went to a file in the grader's own temporary folder, outside the run's
    private space: filling it zeroed the reference graded beside it, silently. The sandbox now opens that file
    in the run's own bounded space: the flood costs the classmate nothing, and nothing of it is left."""
    limits = Limits(timeout=60, test_timeout=5, file_mb=64)
    attack, other = _grade(course, [_attack(samples, tmp_path, FLOOD), _classmate(samples, tmp_path)],
                           tmp_path / "scratch", limits=limits, jobs=2)
    assert other.regular == 25, _messages(other)
    assert attack.regular == 0
    assert list(grader_tmp.iterdir()) == []


#: For 6 s, SIGKILL every judge and student process of another run (found by their command lines: every one
#: that names the grader's temporary folder, @TOKEN@, and not this run's folder).
SIGNAL_CLASSMATES = '''
import os as _os, signal as _signal, time as _t
_own = _os.path.dirname(_os.getcwd()).encode()
_token = b"@TOKEN@"
_killed = set()
_end = _t.time() + 6
while _t.time() < _end:
    for _pid in [d for d in _os.listdir("/proc") if d.isdigit()]:
        try:
            _line = open(f"/proc/{_pid}/cmdline", "rb").read()
            if (b"--student-spec" in _line or b"milestones.grader.observer" in _line) and _own not in _line \\
                    and _token in _line:
                _os.kill(int(_pid), _signal.SIGKILL)
                _killed.add(_pid)
        except OSError:
            pass
    _t.sleep(0.05)
'''


@needs_scopes
def test_a_classmates_processes_cannot_be_signalled(mode: str, course: Path, samples: dict[str, Path],
                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    grader_tmp: Path) -> None:
    """Issue 35: in local mode a submission killed the processes of a classmate graded at the same time (found
    by their command lines in /proc) and zeroed her. Its process now sees only its own PID namespace and
    may signal no process outside its Landlock domain: the classmate keeps full marks, with or without a PID
    namespace."""
    _unprotected(monkeypatch, "namespaces")
    payload = SIGNAL_CLASSMATES.replace("@TOKEN@", grader_tmp.name)
    attack, other = _grade(course, [_attack(samples, tmp_path, payload), _classmate(samples, tmp_path)],
                           tmp_path / "scratch", jobs=2)
    assert other.regular == 25 and not _tampered(other), _messages(other)
    assert attack.regular == 0


def _unprotected(monkeypatch: pytest.MonkeyPatch, *missing: str) -> None:
    """Grade without the sandbox's ``missing`` protections (``landlock``, ``namespaces``): an older kernel."""
    options = [item for name in missing for item in (f"--{name}", "off")]
    monkeypatch.setattr(isolation, "sandbox_limits", lambda limits: [*sandbox_limits(limits), *options])


#: In each run's second student process (the first test's): find this run's judge by its command line, open
#: its results pipe through /proc/<pid>/fd, write a whole forged stream (every test passed) and kill the judge.
FORGE = '''
import json as _json, os as _os, pathlib as _p, signal as _signal
_home = _p.Path(_os.environ["HOME"])
if (_home / "seen").exists():
    _own = _os.path.dirname(_os.getcwd()).encode()
    for _pid in [d for d in _os.listdir("/proc") if d.isdigit()]:
        try:
            _line = open(f"/proc/{_pid}/cmdline", "rb").read()
            if b"--student-spec" not in _line or _own not in _line:
                continue
            _env = dict(v.split(b"=", 1) for v in open(f"/proc/{_pid}/environ", "rb").read().split(b"\\0") if b"=" in v)
            _pipe = open(f"/proc/{_pid}/fd/" + _env[b"MILESTONES_RESULTS_FD"].decode(), "w")
            _ids = @HIDDEN@ if b"not hidden" not in _line else @VISIBLE@
            _lines = [{"kind": "result", "nodeid": _ids[0], "outcome": "passed", "message": "", "timed_out": False}]
            for _id in _ids[1:]:
                _lines += [{"kind": "start", "nodeid": _id},
                           {"kind": "result", "nodeid": _id, "outcome": "passed", "message": "", "timed_out": False}]
            _pipe.write("".join(_json.dumps(r) + "\\n" for r in [*_lines, {"kind": "finished", "exitstatus": 0}]))
            _pipe.flush()
            _os.kill(int(_pid), _signal.SIGKILL)
        except (OSError, KeyError):
            pass
(_home / "seen").write_text("")
'''
MINI_TESTS = "tests/milestone1/test_mini.py::"
VISIBLE = [MINI_TESTS + name
           for name in ("test_two_aces_and_nine", "test_deal_takes_top_card", "test_totals[Kh 7d-17]")]
HIDDEN = [MINI_TESTS + name for name in ("test_hidden_bust", "test_totals[As 6d-17]")]


def test_a_judge_killed_after_a_forged_stream_is_tampering(mode: str, course: Path, samples: dict[str, Path],
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: without Landlock and namespaces, a submission opened its judge's results pipe through
    /proc/<pid>/fd, wrote a whole forged stream and killed the judge: 25/25, not flagged. The judge is now
    non-dumpable (its descriptors are out of reach of its user), and a judge killed after it began marks the
    run tampered whatever it wrote: the forger earns nothing, the classmate keeps full marks."""
    _unprotected(monkeypatch, "landlock", "namespaces")
    payload = FORGE.replace("@VISIBLE@", repr(VISIBLE)).replace("@HIDDEN@", repr(HIDDEN))
    attack, other = _grade(course, [_attack(samples, tmp_path, payload), samples["full"]], tmp_path / "scratch")
    assert attack.regular == 0 and attack.extra == 0, _messages(attack)
    assert other.regular == 25


KEYCTL = '''
import ctypes as _c
_libc = _c.CDLL(None, use_errno=True)
_add_key, _keyctl = @CALLS@
'''
#: Put a secret in the user's kernel keyring.
WRITE_KEY = KEYCTL + '''
_secret = b"@TOKEN@-secret"
_libc.syscall(_add_key, b"user", b"bj-@TOKEN@", _secret, len(_secret), -4)
'''
#: Read it back in a later run and report it.
READ_KEY = KEYCTL + '''
_key = _libc.syscall(_keyctl, 10, -4, b"user", b"bj-@TOKEN@", 0)
_buffer = _c.create_string_buffer(200)
_size = _libc.syscall(_keyctl, 11, _key, _buffer, 200) if _key > 0 else -1
_report = _buffer.raw[:max(_size, 0)].decode() or "nothing"
''' + REPORT

_KEY_CALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}


def test_no_keyring_carries_data_to_the_next_run(mode: str, course: Path, samples: dict[str, Path],
                                                 tmp_path: Path) -> None:
    """Issue 35: a kernel user keyring written by one run was readable by the next run of the same user. The
    key system calls are refused in the student's process: the next run reads nothing."""
    calls = _KEY_CALLS.get(platform.machine())
    if calls is None:
        pytest.skip("the key system calls' numbers are known for x86-64 and aarch64 only")
    token = uuid.uuid4().hex[:12]
    writer = _attack(samples, tmp_path / "w", WRITE_KEY.replace("@CALLS@", repr(calls)), token=token)
    reader = _attack(samples, tmp_path / "r", READ_KEY.replace("@CALLS@", repr(calls)), token=token)
    try:
        _first, second = _grade(course, [writer, reader], tmp_path / "scratch")
        assert _report(second) == "nothing"
    finally:  # on a kernel that let it through: take the key out of the keyring again
        libc = ctypes.CDLL(None, use_errno=True)
        key = libc.syscall(calls[1], 10, -4, b"user", f"bj-{token}".encode(), 0)
        if key > 0:
            libc.syscall(calls[1], 21, key)


@needs_scopes
def test_a_chain_that_kills_its_supervisor_does_not_outlive_a_run_without_namespaces(
        mode: str, course: Path, samples: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: without a PID namespace (local mode on most machines), a process that killed its supervisor and
    then kept changing pid survived the grader. The supervisor is outside the student's Landlock domain, which
    may signal nothing there: it stays, and its sweep ends the chain."""
    _unprotected(monkeypatch, "namespaces")
    token = uuid.uuid4().hex
    with _contained() as others:
        grade = _grade(course, [_attack(samples, tmp_path, CHAIN.replace("@TOKEN@", token))], tmp_path / "scratch")[0]
        assert others() == []
    _zero(grade)


@pytest.mark.skipif(os.geteuid() != 0 or platform.system() != "Linux", reason="Gradescope runs the autograder as root "
                    "on Linux")
@pytest.mark.skipif(not shutil.which("sh"), reason="run_autograder is a POSIX shell script")
def test_no_hidden_test_is_readable_in_a_gradescope_layout(samples: dict[str, Path], tmp_path: Path) -> None:
    """Gradescope mode: the kit, with the hidden tests in its suites, sits at /autograder/source, a path every
    student can know. A submission that looks there first, then wherever /proc and its paths lead, finds no test
    file to read: results.json holds its honest 0 and no message carries a line of a hidden test."""
    import json  # noqa: PLC0415

    from test_kit_autograder import _run_on_gradescope  # noqa: PLC0415 - shares that module's simulation

    from milestones.__main__ import main  # noqa: PLC0415

    zip_path = tmp_path / "autograder.zip"
    assert main(["autograder", "--milestone", "2", "--output", str(zip_path)]) == 0  # milestone 2 has hidden tests
    source = tmp_path / "gs" / "autograder" / "source"
    payload = READ_HIDDEN.replace("for _path in _paths():", "for _path in [_p.Path(@TARGET@), *_paths()]:")
    results = _run_on_gradescope(zip_path, _attack(samples, tmp_path, payload, target=repr(str(source))),
                                 tmp_path / "gs")
    assert any("mark.hidden" in p.read_text(encoding="utf-8") for p in source.rglob("test_*.py"))  # there to find
    text = json.dumps(results)
    assert "LEAK" not in text and "mark.hidden" not in text, text[:2000]
    assert results["score"] == 0
