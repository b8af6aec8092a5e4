"""Start the Tk table: ``python -m gui`` or the ``blackjack-kit-gui`` console script (examples: docs/gui.md)."""

from __future__ import annotations

if __name__ == "__main__":  # before anything else loads: Ctrl-C while the window opens ends quietly, status 130
    from blackjack.cli import exit_on_interrupt
    exit_on_interrupt()

import argparse  # noqa: E402
import sys  # noqa: E402
import tkinter as tk  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from fractions import Fraction  # noqa: E402

from blackjack import BlackjackError, Rules, parse_cards  # noqa: E402
from blackjack.cli import OneLineParser  # noqa: E402
from blackjack.hints import system, systems  # noqa: E402
from blackjack.player import parse_names  # noqa: E402

from .launch import run_window  # noqa: E402
from .logic import read_bankroll  # noqa: E402

__all__ = ["MAX_SEATS", "build_parser", "main"]

#: The most seats the window lays out (``--players`` and ``--names``).
MAX_SEATS = 3


def build_parser() -> argparse.ArgumentParser:
    """The command line: players, names, bankroll, rules, seed, stacked cards, animations, panels, counting system."""
    parser = OneLineParser(prog="blackjack-kit-gui", description="Play blackjack at a Tk table.")
    parser.add_argument("--players", type=int, choices=range(1, MAX_SEATS + 1), default=None,
                        help=f"number of seats, 1-{MAX_SEATS} (default: one per --names, else 1)")
    parser.add_argument("--names", nargs="+", metavar="A,B,..",
                        help=f"the players' names, left to right, 1-{MAX_SEATS} (as many as --players), separated "
                             "by commas as in the text game, or by spaces")
    parser.add_argument("--bankroll", metavar="CREDITS",
                        help="each player's starting credits, e.g. 200 or 2.5 (default: the rules')")
    parser.add_argument("--rules", default="vegas", metavar="PRESET_OR_FILE",
                        help=f"a preset ({', '.join(Rules.preset_names())}) or a rules TOML file")
    parser.add_argument("--seed", type=int, help="seed the shoe and drills, to replay a session")
    parser.add_argument("--stack", metavar="CARDS", help='cards dealt first, in deal order, e.g. "8s 6d 8h Th"')
    parser.add_argument("--no-animation", action="store_true", help="show every card at once")
    parser.add_argument("--no-hints", action="store_true", help="start with the hint panel hidden (practice)")
    parser.add_argument("--no-count", action="store_true", help="start with the count panel hidden (practice)")
    parser.add_argument("--counting", default="hi_lo", metavar="SYSTEM",
                        help=f"counting system for the count panel: {', '.join(systems())} (default: hi_lo)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, open the window and run until it is closed.

    Returns:
        The exit status: 0; 2 for bad options; 1 when no window can open or the course
        code it needs is not written yet (each with a one-line message).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.names is not None:
        try:
            args.names = parse_names(*args.names)
        except ValueError as err:
            parser.error(str(err))
    if args.names is not None and len(args.names) > MAX_SEATS:
        parser.error(f"--names: the table has 1 to {MAX_SEATS} seats, got {len(args.names)} names")
    if args.names is not None and args.players is not None and args.players != len(args.names):
        given = f"{len(args.names)} name{'s' if len(args.names) != 1 else ''}"
        parser.error(f"--players {args.players} but {given} given: one name per player")
    try:
        rules = Rules.load(args.rules)
        bankroll: Fraction | None = read_bankroll(args.bankroll, rules) if args.bankroll is not None else None
        stack = [card.code for card in parse_cards(args.stack)] if args.stack else []
        counting = system(args.counting).key
    except BlackjackError as err:
        parser.error(str(err))
    names = list(args.names or [f"Player {i + 1}" for i in range(args.players or 1)])

    def build(root: tk.Tk) -> None:
        from .app import App
        App(root, names, rules, seed=args.seed, bankroll=bankroll, stack=stack, animations=not args.no_animation,
            hints=not args.no_hints, count=not args.no_count, counting=counting)

    try:
        return run_window("blackjack-kit-gui", build)
    except (BlackjackError, ValueError) as err:
        parser.error(str(err))

if __name__ == "__main__":
    sys.exit(main())
