"""The one host of the student's process for the student's tools: demo, defend and ten rounds run their plays here.

A tool never imports the student's code nor starts a process. The student's process is the grader's
(:mod:`milestones.grader.observer` with ``--tool``), spoken to by the judge's client
(:class:`~milestones.grader.judge.Student`) on the same channel: one import guard, one time limit, one
wire format (docs/design/layout.md). A call raises ``StudentTimeout`` (stopped at its limit),
``StudentGone`` (the process ended: :meth:`Host.ended` says how) or ``Raised`` (the play raised).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from . import REPO_ROOT
from .grader.judge import Launch, Student, StudentGone
from .grader.protocol import RESULTS_FD_ENV

__all__ = ["PLAYS", "Host", "launch"]

#: The folder of the plays, the modules a tool's student process runs.
PLAYS = Path(__file__).resolve().parent / "plays"

#: The student's process: ``python -I`` (no current folder, no ``PYTHON*`` variables), with the kit's
#: ``milestones`` importable (its ``blackjack`` and ``gui`` are not: the observer's guard takes them from the
#: project only), serving the play's module with ``--tool``.
_BOOT = ("import sys\n"
         "sys.path.insert(0, sys.argv[1])\n"
         "from milestones.grader.observer import main\n"
         "sys.exit(main(sys.argv[2:]))\n")


def launch(project: Path, play: str, output: Path, env: dict[str, str] | None = None) -> Launch:
    """How to start the student's process of a tool: the play module ``play`` (a file of :data:`PLAYS`) served on
    ``project``'s packages, working in ``project``, its output (stdout outside the calls, stderr) in ``output``.
    ``env``: its environment (default: this process's)."""
    command = [sys.executable, "-I", "-c", _BOOT, str(REPO_ROOT), "--impl", str(project),
               "--observations", str(PLAYS / f"{play}.py"), "--tool"]
    environment = dict(os.environ if env is None else env)
    environment.pop(RESULTS_FD_ENV, None)
    return Launch(command, environment, project, output)


class Host:
    """The student's process of one tool's run, started on the first call and again after one that ended it.

    Args:
        project: the folder holding the student's ``blackjack`` (and ``gui``).
        play: the play module's name in :data:`PLAYS` (``"demo_play"``).
        env: the process's environment (default: this process's).
    """

    def __init__(self, project: Path, play: str, *, env: dict[str, str] | None = None) -> None:
        self._folder = Path(tempfile.mkdtemp(prefix="bj-host-"))
        self._output = self._folder / "output.txt"
        self._student = Student(launch(project.resolve(), play, self._output, env))

    def __call__(self, call: str, *args: Any, timeout: float, say: Callable[[str], None] | None = None) -> Any:
        """Run the play's function ``call(*args)`` in the student's process; return its plain data.

        Args:
            timeout: seconds the call may take (0: no limit).
            say: called with each line the call prints, as it comes (None: the lines are dropped).

        Raises:
            StudentTimeout, StudentGone, Raised: see the module's docstring.
        """
        self._output.write_bytes(b"")  # the process's last words are those of this call
        return self._student.ask(call, *args, timeout=timeout, say=say)

    def ended(self, gone: StudentGone, what: str = "the process playing your code ended") -> str:
        """``<what> (exit status N): <the process's last line of output>``."""
        try:
            lines = self._output.read_bytes().decode("utf-8", "replace").strip().splitlines()
        except OSError:
            lines = []
        last = lines[-1] if lines else ""
        return f"{what} (exit status {gone.status})" + (f": {last}" if last else "")

    def close(self) -> None:
        """End the student's process (and everything it started) and remove its folder."""
        self._student.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> Host:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
