"""Test support for the Tk table (IDLE's ``idle_test`` helpers): a message-box recorder, a virtual display, screenshots.

``xvfb`` and ``NoDisplay`` are :mod:`gui.xvfb`'s, re-exported.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tkinter as tk
from collections.abc import Iterator
from pathlib import Path

from .xvfb import NoDisplay, xvfb

__all__ = ["Mbox", "NoDisplay", "screenshot", "virtual_display", "xvfb"]


class Mbox:
    """Records message boxes instead of showing them (IDLE ``mock_tk.Mbox``).

    Only the boxes the window shows (:class:`gui.app.MessageBoxes`): ``showinfo`` and ``showerror``.

    Attributes:
        shown: every call as ``(kind, title, message)``, e.g. ``("showerror", "Error", "...")``.
    """

    def __init__(self) -> None:
        self.shown: list[tuple[str, str, str]] = []

    def showinfo(self, title: str, message: str, **_options: object) -> str:
        """Record an information box."""
        self.shown.append(("showinfo", title, message))
        return "ok"

    def showerror(self, title: str, message: str, **_options: object) -> str:
        """Record an error box."""
        self.shown.append(("showerror", title, message))
        return "ok"


@contextlib.contextmanager
def virtual_display(size: str = "1280x800x24") -> Iterator[str]:
    """Provide an X display for Tk: ``$DISPLAY`` if set, else a private ``Xvfb`` stopped on exit.

    Xvfb picks a free display number itself (``-displayfd``), so parallel test runs do
    not collide.

    Yields:
        The display name, e.g. ``":3"``; ``$DISPLAY`` is set to it meanwhile.

    Raises:
        NoDisplay: ``$DISPLAY`` is unset and ``Xvfb`` is not installed or fails to start.
    """
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if shutil.which("Xvfb") is None:
        raise NoDisplay("no display: $DISPLAY is unset and Xvfb is not installed (apt-get install xvfb)")
    with xvfb(size) as name:
        os.environ["DISPLAY"] = name
        try:
            yield name
        finally:
            os.environ.pop("DISPLAY", None)


def screenshot(window: tk.Misc, path: str | Path, canvas: tk.Canvas | None = None) -> Path:
    """Save a picture of ``window`` as PNG (ImageMagick ``import``), else ``canvas`` as PostScript.

    Args:
        window: the window to capture (it must be mapped).
        path: the PNG's path; folders are created.
        canvas: a canvas to save as ``.ps`` when ImageMagick is not installed.

    Returns:
        The file written (``.png``, or ``.ps`` as the fallback).

    Raises:
        NoDisplay: neither ImageMagick nor a canvas to fall back on.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    window.update()
    tool = shutil.which("import")
    if tool is not None:
        top = window.winfo_toplevel()
        frame = top.wm_frame()  # the toplevel with its menu bar (and decorations, under a window manager)
        subprocess.run([tool, "-window", frame, str(target)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        return target
    if canvas is None:
        raise NoDisplay("cannot take a screenshot: ImageMagick's import is not installed")
    ps = target.with_suffix(".ps")
    canvas.postscript(file=str(ps), colormode="color")  # type: ignore[no-untyped-call]
    return ps
