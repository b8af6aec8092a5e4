"""A private virtual X screen (``Xvfb``) for code that opens windows without a display.

Standard library only and free of tkinter, so the grader (:mod:`milestones.grader.isolation`)
can start a screen for a graded run as well as the tests (:mod:`gui.testing`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator

__all__ = ["NoDisplay", "xvfb"]


class NoDisplay(RuntimeError):
    """No X display is set and none could be started; the message says why."""


@contextlib.contextmanager
def xvfb(size: str = "1280x800x24") -> Iterator[str]:
    """Start a private ``Xvfb`` with one screen of ``size`` (width x height x depth) and stop it on exit.

    ``$DISPLAY`` is left alone: run a process with ``DISPLAY=name`` to open windows on it
    (the tests check on a 1024 x 768 screen that the table fits one). Not
    ``tk.Tk(screenName=name)`` in this process: Tk keeps its connection to a display until
    the process ends, and Xlib ends the process when that server stops. Xvfb picks a free
    display number itself (``-displayfd``), so parallel runs do not collide; it runs in a
    session of its own, so a signal meant for the caller's process group does not stop it.

    Yields:
        The display name, e.g. ``":3"``.

    Raises:
        NoDisplay: ``Xvfb`` is not installed or fails to start.
    """
    program = shutil.which("Xvfb")
    if program is None:
        raise NoDisplay("Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    process = subprocess.Popen([program, "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
                               pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise NoDisplay(f"Xvfb did not start (exit code {process.poll()})")
        yield f":{number}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
