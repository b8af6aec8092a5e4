"""Results the submission's own code writes do not count: the results pipe and its protocol checks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from milestones.grader.grading import TAMPERED, Grader, find_submissions
from milestones.grader.judge import Opaque, read_reply
from milestones.grader.runner import Limits, RunResult, _Stream

LIMITS = Limits(timeout=30, test_timeout=5)

#: The review's forger: at exit, append a "passed" result for every collected test to the --results-json file.
ARGV_FORGER = '''
import atexit as _ax, sys as _s, json as _j
def _forge():
    try:
        p = _s.argv[_s.argv.index("--results-json") + 1]
        ids = [_j.loads(l)["nodeid"] for l in open(p) if '"collected"' in l]
        with open(p, "a") as f:
            for i in ids:
                f.write(_j.dumps({"kind": "result", "nodeid": i, "outcome": "passed", "message": ""}) + "\\n")
    except Exception:
        pass
_ax.register(_forge)
'''

#: A forger that knows the pipe: at import, write "passed" for each test to every pipe it holds.
PIPE_FORGER = '''
import os as _os, json as _j
for _fd in _os.listdir("/proc/self/fd"):
    try:
        if _os.readlink(f"/proc/self/fd/{_fd}").startswith("pipe:"):
            for _name in ("test_two_aces_and_nine", "test_deal_takes_top_card", "test_hidden_bust"):
                _line = {"kind": "result", "nodeid": f"tests/milestone1/test_mini.py::{_name}", "outcome": "passed",
                         "message": ""}
                _os.write(int(_fd), (_j.dumps(_line) + "\\n").encode())
    except OSError:
        pass
'''


def _forging(samples: dict[str, Path], tmp_path: Path, payload: str) -> Path:
    """The starter (which earns 0) with ``payload`` at the end of ``blackjack/__init__.py``."""
    folder = tmp_path / "mallory"
    shutil.copytree(samples["starter"], folder)
    init = folder / "blackjack" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + payload, encoding="utf-8")
    return folder


def test_the_reviews_forger_no_longer_earns_full_marks(mini_course: Path, samples: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """The atexit hook that appended 'passed' for every test to the file named in sys.argv got 25 / 25; the
    results now go through a pipe that sys.argv does not name, so it earns what its code earns: 0."""
    subs = find_submissions([_forging(samples, tmp_path, ARGV_FORGER)], tmp_path / "scratch")
    [grade] = Grader(tests=mini_course / "tests", limits=LIMITS).grade(subs, [1])
    assert grade.regular == 0
    assert all(t.message.startswith("not written yet") for t in grade.milestones[0].tests)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the forger looks for the pipe in /proc")
def test_a_forger_that_writes_to_every_pipe_it_holds_gets_its_honest_zero(mini_course: Path,
                                                                         samples: dict[str, Path],
                                                                         tmp_path: Path) -> None:
    """Results written to every pipe the submission's process holds reach only its own answer channel: the
    judge reads them as answers to questions it did not ask, ends that process and fails the test; the
    results pipe is the judge's, which the student's process never holds. The milestone scores 0."""
    subs = find_submissions([_forging(samples, tmp_path, PIPE_FORGER)], tmp_path / "scratch")
    [grade] = Grader(tests=mini_course / "tests", limits=LIMITS).grade(subs, [1])
    assert grade.regular == 0 and grade.milestones[0].tests
    assert all(t.outcome != "passed" for t in grade.milestones[0].tests)


def _lines(*records: dict[str, object]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


BEGIN = {"kind": "begin"}
SESSION = {"kind": "session"}
A = {"kind": "collected", "nodeid": "t.py::a", "name": "a", "doc": "", "milestone": 1, "part": "engine",
     "points": "1", "hidden": False}
START_A = {"kind": "start", "nodeid": "t.py::a"}
PASS_A = {"kind": "result", "nodeid": "t.py::a", "outcome": "passed", "message": "", "timed_out": False}
FAIL_A = {**PASS_A, "outcome": "failed", "message": "no"}


@pytest.mark.parametrize(("records", "reason"), [
    ([PASS_A, BEGIN, SESSION], "output before the grading plugin's start marker"),
    ([BEGIN, SESSION, A, START_A, FAIL_A, PASS_A], "t.py::a reported more than once"),
    ([BEGIN, SESSION, A, START_A, {**PASS_A, "nodeid": "t.py::zz"}], "a result for t.py::zz, which was not running"),
    ([BEGIN, SESSION, A, PASS_A], "a result for t.py::a, which was not running"),
    ([BEGIN, SESSION, A, {**START_A, "nodeid": "t.py::zz"}], "t.py::zz started but was never collected"),
    ([BEGIN, SESSION, A, START_A, PASS_A, A], "'collected' record after the tests started"),
    ([BEGIN, SESSION, A, START_A, PASS_A, {"kind": "finished"}, PASS_A], "after the end of the session"),
    ([BEGIN, SESSION, A, START_A, {"kind": "result", "nodeid": "t.py::a"}], "a malformed 'result' record"),
])
def test_the_stream_protocol_catches_forged_lines(records: list[dict[str, object]], reason: str) -> None:
    """Lines that the plugin would never write in that order mark the run as tampered with."""
    result = RunResult()
    stream = _Stream(result)
    stream.add(_lines(*records))
    stream.finish()
    assert reason in result.tampered


def test_the_stream_reads_an_honest_run_and_drops_a_line_cut_short() -> None:
    """The plugin's own order is accepted, and a last line cut short by a kill is not tampering."""
    result = RunResult()
    stream = _Stream(result)
    data = _lines(BEGIN, SESSION, A, START_A, PASS_A, {"kind": "finished", "exitstatus": 0})
    stream.add(data[:7])
    stream.add(data[7:] + b'{"kind": "res')
    stream.finish()
    assert not result.tampered and result.finished and result.results == {"t.py::a": ("passed", "")}
    garbage = RunResult()
    stream = _Stream(garbage)
    stream.add(_lines(BEGIN, SESSION) + b"pwned\n")
    assert "not a record" in garbage.tampered


@pytest.mark.parametrize(("data", "reason"), [
    (b"[" * 100_000 + b"\n", "a line that is not a record"),  # RecursionError escaped the reader
    (b'{"kind": "x", "n": ' + b"9" * 5000 + b"}\n", "a line that is not a record"),  # past int's digit limit
    (b" " * (2 * 1024 * 1024), "a results line over 1 MiB"),  # no newline: never parsed
], ids=["nested", "huge-int", "endless-line"])
def test_a_hostile_results_line_is_tampering_not_a_crash(data: bytes, reason: str) -> None:
    """What a submission writes on the results pipe is hostile: a line nested 100,000 deep made the reader
    raise RecursionError, which cost the batch its results."""
    result = RunResult()
    stream = _Stream(result)
    stream.add(_lines(BEGIN, SESSION) + data)
    stream.finish()
    assert reason in result.tampered


def test_points_written_as_an_endless_number_are_refused_at_once() -> None:
    """``Fraction("1e999999999")`` builds a number of a billion digits: the grader hung on a forged record."""
    result = RunResult()
    stream = _Stream(result)
    stream.add(_lines(BEGIN, SESSION, {**A, "points": "1e999999999"}))
    assert "a malformed 'collected' record" in result.tampered


@pytest.mark.parametrize(("line", "words"), [
    (b"[" * 100_000, "nested"),
    (b'{"id": 1, "value": ' + b"[" * 41 + b"]" * 41 + b"}", "nested more than 40 deep"),
    (b'{"id": 1, "value": 1' + b"0" * 200 + b"}", "more than 100 digits"),
    (b'{"id": 1, "value": NaN}', "not a number a test can use"),
    (b'{"id": 1, "value": Infinity}', "not a number a test can use"),
    (b"x" * (2 * 1024 * 1024), "over 1 MiB"),
    (b"[1, 2]", "not an object"),
])
def test_the_judge_reads_a_hostile_answer_as_a_broken_rule(line: bytes, words: str) -> None:
    """Every answer the student's process sends is hostile: too deep, too long, a number too big to read fast,
    NaN or infinity, or not an object are each a ValueError naming the rule, never a crash or a hang."""
    with pytest.raises(ValueError, match=words):
        read_reply(line)


def test_the_judge_reads_an_object_it_was_not_sent_as_opaque() -> None:
    """A value that is not plain data arrives as an Opaque (class name and repr) that equals no plain value."""
    reply = read_reply(b'{"id": 3, "value": [1, {"__object__": "Any", "repr": "21"}]}')
    assert reply == {"id": 3, "value": [1, Opaque("Any", "21")]}
    assert reply["value"][1] != 21 and reply["value"][1] != "21"
