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
                found.update(_re.findall(r"/[\\w./+-]+", open(f"/proc/{_pid}/{_part}", "rb").read().decode("utf-8", "replace")))
            except OSError:
                pass
    for _m in list(_s.modules.values()):
        found.update(str(v) for v in (getattr(_m, "MAPPING", None) or {}).values())
    for _f in _g.glob(_s.base_prefix + "/lib/python3*/site-packages/*") + _g.glob(_s.prefix + "/lib/python3*/site-packages/*"):
        if _f.endswith((".pth", "finder.py")):
            try:
                found.update(_re.findall(r"/[\\w./+-]+", open(_f).read()))
            except OSError:
                pass
    return [_p.Path(p) for p in found if p.startswith("/")]
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
            for _pkg in [_up / "blackjack", *_up.glob("*/blackjack"), *_up.glob("*/*/blackjack")]:
                try:
                    if _pkg.resolve() != _mine and "NotImplementedError" not in (_pkg / "hand.py").read_text():
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
