"""Regenerate the docs' pictures of the table: ``python -m gui.screenshot [PATH]`` or ``--all``.

Plays a fixed showcase round from a stacked shoe (so the picture is the same on every
run) on a virtual display and saves a PNG (docs/gui.md, "For developers"). Needs ImageMagick's
``import`` (and ``convert`` to keep the files small), and ``Xvfb`` when no ``$DISPLAY`` is set.

The scene (Vegas rules): Ann bets 25, splits 8-8 against a 6 and doubles the first hand; Bob
bets 10 and doubles his soft 17 to 21; Cy bets 50 and stands on 19; the dealer stands on 20.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tkinter as tk
from pathlib import Path
from typing import TYPE_CHECKING

from blackjack import Action, Rules
from blackjack.cli import OneLineParser

from .testing import Mbox, NoDisplay, screenshot, virtual_display

if TYPE_CHECKING:
    from .app import App

__all__ = ["SCREENS", "SHOWCASE_STACK", "STATES", "main", "save_all", "showcase"]

#: Deal order for three seats: first cards, upcard, second cards, hole card, then the hits.
SHOWCASE_STACK = "8s As Td 6d 8h 6c 9s Th 3c 9c Kd 4h 4s"
DEFAULT_PATH = Path(__file__).resolve().parents[1] / "docs" / "images" / "table.png"


#: The states of the showcase round the docs show: bets in, Ann's first decision after her split, the end.
STATES = ("betting", "deciding", "settled")
#: The screens the docs show the table on -> the window there (:func:`gui.logic.window_size` on the smaller
#: two; maximised under a 40-pixel panel on the largest).
SCREENS = {"1024x768": "1008x688", "1366x768": "1350x688", "1920x1080": "1920x1040"}


def showcase(root: tk.Tk, state: str = "settled", geometry: str = "1240x760") -> App:
    """Open the table in ``root`` at ``geometry`` and play the showcase round to ``state`` (:data:`STATES`).

    Returns:
        The window's :class:`~gui.app.App`, settled (no animation or hint pending).
    """
    from .app import App
    app = App(root, ["Ann", "Bob", "Cy"], Rules.preset("vegas"), seed=11, stack=SHOWCASE_STACK.split(),
              animations=False, modal=False, messages=Mbox())
    root.geometry(f"{geometry}+0+0")
    root.update()
    for seat, bet in enumerate((25, 10, 50)):
        app.place_bet(seat, bet)
    if state == "betting":
        app.choose_seat(1)
    else:
        app.deal()
        for action in (Action.SPLIT, Action.DOUBLE, Action.STAND, Action.DOUBLE, Action.STAND)[
                :1 if state == "deciding" else None]:
            app.act(action)
    app.settle()
    root.update()
    return app


def save_all(folder: Path) -> list[Path]:
    """Save every state at every screen size in ``folder``; return the files written."""
    written = []
    for screen, geometry in SCREENS.items():
        for state in STATES:
            root = tk.Tk()
            app = showcase(root, state, geometry)
            written.append(_small(screenshot(root, folder / f"table-{state}-{screen}.png", app.table)))
            app.close()
    return written


def _small(path: Path) -> Path:
    """Store a PNG with a palette of 128 colours, where ImageMagick's ``convert`` is at hand (a third the size)."""
    tool = shutil.which("convert")
    if tool is not None and path.suffix == ".png":
        subprocess.run([tool, str(path), "-colors", "128", f"PNG8:{path}"], check=True, timeout=60)
    return path


def main(argv: list[str] | None = None) -> int:
    """Save the showcase picture; return 0, or 1 with a message when no display or ImageMagick is available."""
    parser = OneLineParser(prog="python -m gui.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH, help=f"PNG to write (default {DEFAULT_PATH})")
    parser.add_argument("--all", action="store_true",
                        help="every state at every screen size, as table-<state>-<screen>.png beside PATH")
    args = parser.parse_args(argv)
    try:
        with virtual_display("1920x1080x24"):
            if args.all:
                written = save_all(args.path.parent)
            else:
                root = tk.Tk()
                app = showcase(root, "settled", SCREENS["1366x768"])
                written = [_small(screenshot(root, args.path, app.table))]
                app.close()
    except (NoDisplay, OSError, subprocess.SubprocessError) as err:
        print(f"gui.screenshot: {err}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
