"""``python -m blackjack.sim`` / ``blackjack-kit-sim``: the simulator's command line.

Example::

    blackjack-kit-sim --rules vegas --strategy basic hi-lo never-bust --hands 1_000_000 --jobs 2

Prints a side-by-side table; ``--json -`` / ``--csv -`` write machine-readable results
to stdout instead, ``--plot FILE.png`` saves bankroll paths and session results.
Ctrl-C stops the run and prints the results of the rounds finished so far.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import sys
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path

from ..cli import OneLineParser, silence_broken_pipe
from ..errors import BlackjackError, quoted
from ..rules import Rules
from .exact import basic_strategy_edge
from .output import check_plot, check_target, plot, text_report, to_csv, to_json
from .progress import ProgressBar
from .runner import MAX_HANDS, simulate
from .strategies import BUILTIN

__all__ = ["DASK_NEEDS_DISTRIBUTED", "build_parser", "main"]


def _count(text: str) -> int:
    """Read a count such as ``1000000``, ``1_000_000`` or ``1e6``, from 1 to ``MAX_HANDS``."""
    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not value.is_finite():
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {quoted(text)}")
    if value > MAX_HANDS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_HANDS:,} (1e9), got {quoted(text)}")
    if value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(value)


def _share(text: str) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {quoted(text)}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser (also used by the docs)."""
    parser = OneLineParser(
        prog="blackjack-kit-sim", description="Monte Carlo simulation of blackjack strategies on the Blackjack Kit engine.")
    parser.add_argument("--rules", default="vegas", metavar="PRESET_OR_FILE",
                        help=f"a rules preset ({', '.join(Rules.preset_names())}) or a .toml rules file "
                             "(default vegas)")
    parser.add_argument("--rules-file", type=Path, metavar="TOML", help="a rules TOML file (the same as --rules FILE)")
    switches = parser.add_argument_group("rule switches (change one rule of the preset)")
    switches.add_argument("--decks", type=int, help="decks in the shoe, 1..8")
    switches.add_argument("--h17", action=argparse.BooleanOptionalAction, default=None,
                          help="dealer hits soft 17 (--no-h17: stands)")
    switches.add_argument("--blackjack-pays", metavar="ODDS", help="natural payout, e.g. 3/2 or 6/5")
    switches.add_argument("--das", action=argparse.BooleanOptionalAction, default=None, help="double after split")
    switches.add_argument("--surrender", choices=("none", "late", "early"),
                          help="no surrender, late (after the dealer's peek) or early (before it)")
    switches.add_argument("--double-on", choices=("any", "9-11", "10-11", "none"),
                          help="the two-card totals a hand may double down on")
    switches.add_argument("--max-split-hands", type=int, metavar="N", help="most hands by splitting (1: no split)")
    switches.add_argument("--penetration", type=_share, help="share of the shoe dealt before the cut card, 0..1")
    parser.add_argument("--strategy", nargs="+", default=["basic"], metavar="NAME",
                        help=f"one or more of {', '.join(BUILTIN)}, or module:function (default basic)")
    parser.add_argument("--hands", type=_count, default=100_000, metavar="N", help="rounds per strategy (1e6 works)")
    parser.add_argument("--seed", type=int, default=0, help="random seed; same seed, same result (default 0)")
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run the blocks on a Dask cluster, e.g. tcp://10.0.0.5:8786 (the dask extra: "
                             "pip install -e \".[dask]\"); its workers must have blackjack installed")
    parser.add_argument("--players", type=int, default=1, metavar="P", help="seats playing the strategy")
    parser.add_argument("--player-error", type=_share, default=Fraction(0), metavar="RATE",
                        help="share of decisions taken at random, to show what mistakes cost")
    parser.add_argument("--bankroll", type=float, metavar="UNITS", help="bankroll in betting units: risk of ruin")
    parser.add_argument("--sessions", type=_count, metavar="S", help="independent sessions (default hands/5000)")
    parser.add_argument("--target-ror", type=_share, default=Fraction(1, 20), metavar="P",
                        help="risk of ruin for the 'bankroll needed' figure (default 0.05)")
    parser.add_argument("--json", metavar="PATH", help="write JSON results (- for stdout)")
    parser.add_argument("--csv", metavar="PATH", help="write CSV results (- for stdout)")
    parser.add_argument("--plot", metavar="FILE.png", help="save a plot (needs matplotlib)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


#: Rule switches on the command line and the ``Rules`` field each one sets.
_SWITCHES = {"decks": "decks", "h17": "dealer_hits_soft_17", "blackjack_pays": "blackjack_pays",
             "das": "double_after_split", "surrender": "surrender", "double_on": "double_on",
             "max_split_hands": "max_split_hands"}


def _rules(args: argparse.Namespace) -> Rules:
    rules = Rules.from_file(args.rules_file) if args.rules_file else Rules.load(args.rules)
    changes: dict[str, object] = {field: getattr(args, switch) for switch, field in _SWITCHES.items()
                                  if getattr(args, switch) is not None}
    if args.penetration is not None:
        changes["penetration"] = args.penetration
        changes["cut_card_from_back"] = None
    if changes:
        rules = dataclasses.replace(rules, name=f"{rules.name}*", **changes)  # type: ignore[arg-type]
    return rules


def _write(text: str, target: str) -> None:
    if target == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(target).write_text(text, encoding="utf-8")


#: The one-line reason ``--dask`` gives when the ``dask`` extra is missing.
DASK_NEEDS_DISTRIBUTED = '--dask needs dask.distributed: pip install "blackjack-kit[dask]" (in a clone: pip install -e ".[dask]")'


def _dask_executor(address: str) -> tuple[concurrent.futures.Executor, Callable[[], None]]:
    """Connect to the Dask scheduler at ``address``; return its executor and a function that disconnects.

    Raises:
        ImportError: the ``dask`` extra is not installed (the message is :data:`DASK_NEEDS_DISTRIBUTED`).
        OSError: no scheduler answers at ``address`` within ten seconds.
    """
    try:
        import distributed  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError(DASK_NEEDS_DISTRIBUTED) from None
    try:
        client = distributed.Client(address, timeout=10)  # type: ignore[no-untyped-call, unused-ignore]
    except Exception as err:  # distributed raises OSError, TimeoutError or ValueError for a bad address
        raise OSError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    return client.get_executor(pure=False), client.close  # type: ignore[no-untyped-call, unused-ignore]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 bad input, 130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = _rules(args)
        for target in (args.json, args.csv):  # a bad output path fails now, not after a long run
            if target and target != "-":
                check_target(target)
        if args.plot:
            check_plot(args.plot)
        if args.dask and args.jobs != 1:
            raise ValueError("give --jobs or --dask, not both: the cluster's workers run the blocks")
        executor, disconnect = _dask_executor(args.dask) if args.dask else (None, None)
        bar = ProgressBar(args.hands * len(dict.fromkeys(args.strategy)), enabled=not args.quiet)
        try:
            reports = simulate(args.strategy, rules, hands=args.hands, seed=args.seed, jobs=args.jobs,
                               players=args.players, bankroll=args.bankroll, sessions=args.sessions,
                               player_error=float(args.player_error), target_ror=float(args.target_ror),
                               progress=bar, executor=executor)
        finally:
            if disconnect is not None:
                disconnect()
        bar.close()
        stdout_used = args.json == "-" or args.csv == "-"
        if args.json:
            _write(to_json(reports), args.json)
        if args.csv:
            _write(to_csv(reports), args.csv)
        if not stdout_used:  # the exact edge appears only in the text report
            exact = None
            if rules.naturals and rules.thunderjack_pays is None and rules.charlie_cards is None:
                exact = basic_strategy_edge(rules)
            print(text_report(reports, exact=exact))
        if args.plot:
            plot(reports, args.plot)
    except BrokenPipeError:  # the reader went away (piped into head): stop quietly
        silence_broken_pipe()
        return 0
    except (BlackjackError, ValueError, OSError, ImportError) as err:
        print(f"blackjack-kit-sim: error: {err}", file=sys.stderr)
        return 1
    return 130 if any(r.interrupted for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
