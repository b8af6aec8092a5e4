"""Regenerate the README's picture of the table: ``python -m gui.screenshot [PATH]``.

Plays a fixed showcase round from a stacked shoe (so the picture is the same on every
run) on a virtual display and saves a PNG, by default ``docs/images/table.png``. Needs
ImageMagick's ``import``, and ``Xvfb`` when no ``$DISPLAY`` is set
(``apt-get install xvfb imagemagick``). The GUI tests save the same scene under
``test-output/screenshots/``.

The scene (Vegas rules, three seats): Ann splits 8-8 against the dealer's 6, doubles
the first hand (8-3, then a 9) and stands on the second (8-K); Bob doubles his A-6
(soft 17) and draws a 4; Cy stands on 19. The dealer turns a 10 and draws a 4, and
announces "Dealer stands on 20": Ann pushes and loses, Bob wins, Cy loses, with the
chip stacks beside the bets.
"""

from __future__ import annotations

import sys
import tkinter as tk
from pathlib import Path
from typing import TYPE_CHECKING

from blackjack import Action, Rules
from blackjack.cli import OneLineParser

from .testing import Mbox, NoDisplay, screenshot, virtual_display

if TYPE_CHECKING:
    from .app import App

__all__ = ["SHOWCASE_STACK", "main", "showcase"]

#: Deal order for three seats: first cards, upcard, second cards, hole card, then the hits.
SHOWCASE_STACK = "8s As Td 6d 8h 6c 9s Th 3c 9c Kd 4h 4s"
DEFAULT_PATH = Path(__file__).resolve().parents[1] / "docs" / "images" / "table.png"


def showcase(root: tk.Tk) -> App:
    """Open the table in ``root`` and play the showcase round to its end (the dealer's announcement).

    Returns:
        The window's :class:`~gui.app.App`, settled (no animation pending, the round over).
    """
    from .app import App
    app = App(root, ["Ann", "Bob", "Cy"], Rules.preset("vegas"), seed=11, stack=SHOWCASE_STACK.split(),
              animations=False, modal=False, messages=Mbox())
    root.geometry("1240x760+0+0")
    root.update()
    for seat, bet in enumerate((25, 10, 50)):
        app.place_bet(seat, bet)
    app.deal()
    for action in (Action.SPLIT, Action.DOUBLE, Action.STAND, Action.DOUBLE, Action.STAND):
        app.act(action)
    app.settle()
    return app


def main(argv: list[str] | None = None) -> int:
    """Save the showcase picture; return 0, or 1 with a message when no display or ImageMagick is available."""
    parser = OneLineParser(prog="python -m gui.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH, help=f"PNG to write (default {DEFAULT_PATH})")
    args = parser.parse_args(argv)
    try:
        with virtual_display():
            root = tk.Tk()
            app = showcase(root)
            written = screenshot(root, args.path, app.table)
            app.close()
    except (NoDisplay, OSError) as err:
        print(f"gui.screenshot: {err}", file=sys.stderr)
        return 1
    print(f"wrote {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
