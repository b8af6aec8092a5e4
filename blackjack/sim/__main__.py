"""``python -m blackjack.sim`` / ``blackjack-kit-sim``: the simulator's command line.

Example::

    blackjack-kit-sim --rules vegas --strategy basic hi-lo never-bust --hands 1_000_000 --jobs 2

Prints a side-by-side table; ``--json -`` / ``--csv -`` write machine-readable results
to stdout instead, ``--plot FILE.png`` saves bankroll paths and session results.
Ctrl-C stops the run and prints the results of the rounds finished so far.
"""

from __future__ import annotations

if __name__ == "__main__":  # before anything else loads: Ctrl-C while the simulator starts ends it quietly, status 130
    from ..cli import exit_on_interrupt
    exit_on_interrupt()

import argparse  # noqa: E402 (after the interrupt handler, on purpose)
import concurrent.futures
import dataclasses
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..cli import (OneLineParser, amount_argument, count_argument, interrupts_raise, share_argument,  # noqa: E402
                   silence_broken_pipe)
from ..errors import BlackjackError
from ..rules import DOUBLE_ON, SURRENDER, Rules
from .exact import basic_strategy_edge
from .output import check_plot, check_target, plot, reason, text_report, to_csv, to_json, write_file
from .progress import ProgressBar
from .runner import MAX_HANDS, check_simulation, simulate
from .strategies import BUILTIN

__all__ = ["DASK_NEEDS_DISTRIBUTED", "build_parser", "main"]


def _units(bankroll: Fraction | None) -> float | None:
    """``--bankroll`` as the float the risk-of-ruin statistic uses (no chip is paid with it)."""
    return None if bankroll is None else float(bankroll)


#: Reads ``--hands`` and ``--sessions``: ``100000``, ``1_000_000``, ``1e6`` (the kit's typed-number grammar).
_count = count_argument(MAX_HANDS)


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
    switches.add_argument("--surrender", choices=SURRENDER,
                          help="no surrender, late (after the dealer's peek) or early (before it)")
    switches.add_argument("--double-on", choices=DOUBLE_ON,
                          help="the two-card totals a hand may double down on")
    switches.add_argument("--max-split-hands", type=int, metavar="N", help="most hands by splitting (1: no split)")
    switches.add_argument("--penetration", type=share_argument, help="share of the shoe dealt before the cut card, 0..1")
    parser.add_argument("--strategy", nargs="+", default=["basic"], metavar="NAME",
                        help=f"one or more of {', '.join(BUILTIN)}, or module:function (default basic)")
    parser.add_argument("--hands", type=_count, default=100_000, metavar="N", help="rounds per strategy (1e6 works)")
    parser.add_argument("--seed", type=int, default=0, help="random seed; same seed, same result (default 0)")
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run the blocks on a Dask cluster, e.g. tcp://10.0.0.5:8786 (the dask extra: "
                             "pip install -e \".[dask]\"); its workers must have blackjack installed")
    parser.add_argument("--players", type=int, default=1, metavar="P", help="seats playing the strategy")
    parser.add_argument("--player-error", type=share_argument, default=Fraction(0), metavar="RATE",
                        help="share of decisions taken at random, to show what mistakes cost")
    parser.add_argument("--bankroll", type=amount_argument, metavar="UNITS",
                        help="bankroll in betting units (e.g. 100 or 62.5): risk of ruin")
    parser.add_argument("--sessions", type=_count, metavar="S", help="independent sessions (default hands/5000)")
    parser.add_argument("--target-ror", type=share_argument, default=Fraction(1, 20), metavar="P",
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


def _rules(args: argparse.Namespace, rules: Rules) -> Rules:
    """Return ``rules`` (read from --rules or --rules-file) with the rule switches of ``args`` applied.

    Raises:
        ValueError, BlackjackError: a switch gives a value the rules refuse.
    """
    changes: dict[str, object] = {field: getattr(args, switch) for switch, field in _SWITCHES.items()
                                  if getattr(args, switch) is not None}
    if args.penetration is not None:
        changes["penetration"] = args.penetration
        changes["cut_card_from_back"] = None
    if changes:
        rules = dataclasses.replace(rules, name=f"{rules.name}*", **changes)  # type: ignore[arg-type]
    return rules


#: The one-line reason ``--dask`` gives when the ``dask`` extra is missing.
DASK_NEEDS_DISTRIBUTED = '--dask needs dask.distributed: pip install "blackjack-kit[dask]" (in a clone: pip install -e ".[dask]")'


def _import_distributed() -> Any:
    """Import and return ``dask.distributed``'s ``distributed`` module.

    Raises:
        ImportError: the ``dask`` extra is not installed (the message is :data:`DASK_NEEDS_DISTRIBUTED`).
    """
    try:
        import distributed  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError(DASK_NEEDS_DISTRIBUTED) from None
    return distributed


def _dask_executor(address: str) -> tuple[concurrent.futures.Executor, Callable[[], None]]:
    """Connect to the Dask scheduler at ``address``; return its executor and a function that disconnects.

    Raises:
        ImportError: the ``dask`` extra is not installed (the message is :data:`DASK_NEEDS_DISTRIBUTED`).
        OSError: no scheduler answers at ``address`` within ten seconds.
    """
    distributed = _import_distributed()
    try:
        client = distributed.Client(address, timeout=10)  # type: ignore[no-untyped-call, unused-ignore]
    except Exception as err:  # distributed raises OSError, TimeoutError or ValueError for a bad address
        raise OSError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    return client.get_executor(pure=False), client.close  # type: ignore[no-untyped-call, unused-ignore]


def _check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Rules:
    """Check everything the options ask for before a round is played; return the table's rules.

    A bad option value found here (an unknown preset, a bad rules file, an output that
    cannot be written, ``--dask`` with ``--jobs``, a value out of range, an extra that is
    not installed) is a usage mistake: ``parser.error`` prints one line and exits with status 2.
    """
    try:
        loaded = Rules.from_file(args.rules_file) if args.rules_file else Rules.load(args.rules)
    except (BlackjackError, ValueError, OSError) as err:
        parser.error(f"{'--rules-file' if args.rules_file else '--rules'}: {err}")
    try:
        rules = _rules(args, loaded)
    except (BlackjackError, ValueError) as err:  # the message names the rule: "decks must be 1..8, got 99"
        parser.error(str(err))
    for option, target in (("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)):
        if target is None or (target == "-" and option != "--plot"):
            continue
        try:  # a bad output path fails now, not after a long run
            if option == "--plot":
                check_plot(target)
            else:
                check_target(target)
        except (ValueError, OSError, ImportError) as err:
            parser.error(str(err) if isinstance(err, ImportError) else f"{option}: {err}")
    if args.dask and args.jobs != 1:
        parser.error("give --jobs or --dask, not both: the cluster's workers run the blocks")
    try:
        check_simulation(args.strategy, rules, hands=args.hands, jobs=args.jobs, players=args.players,
                         bankroll=_units(args.bankroll), sessions=args.sessions, player_error=float(args.player_error),
                         target_ror=float(args.target_ror))
        if args.dask:
            _import_distributed()
    except (BlackjackError, ValueError, OSError, ImportError) as err:
        parser.error(str(err))
    return rules


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Returns:
        0 when the run finished, 1 when it failed while running (a ``module:function``
        strategy raised, the Dask scheduler did not answer, an output could not be
        written), 130 when Ctrl-C interrupted it. A closed stdout (``| head``) ends it
        quietly with 0.

    Raises:
        SystemExit: status 2 for a usage mistake, found by the parser or by the checks
            made before the run (one line: ``blackjack-kit-sim: error: ... (see --help)``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = _check_options(parser, args)
    if sys.stdout is None:  # started with stdout closed (>&-): say so before a long run, not after it
        if sys.stderr is not None:
            print("blackjack-kit-sim: error: standard output is closed: there is nowhere to write the report",
                  file=sys.stderr)
        return 1
    try:
        executor, disconnect = _dask_executor(args.dask) if args.dask else (None, None)
        bar = ProgressBar(args.hands * len(dict.fromkeys(args.strategy)), enabled=not args.quiet)
        try:
            with interrupts_raise():  # Ctrl-C stops the run, which keeps the rounds finished so far
                reports = simulate(args.strategy, rules, hands=args.hands, seed=args.seed, jobs=args.jobs,
                                   players=args.players, bankroll=_units(args.bankroll), sessions=args.sessions,
                                   player_error=float(args.player_error), target_ror=float(args.target_ror),
                                   progress=bar, executor=executor)
        finally:
            if disconnect is not None:
                disconnect()
        bar.close()
        for target, text in ((args.json, to_json), (args.csv, to_csv)):
            if target and target != "-":
                write_file(target, text(reports))
    except (BlackjackError, ValueError, OSError, ImportError) as err:
        print(f"blackjack-kit-sim: error: {err}", file=sys.stderr)
        return 1
    try:
        if args.json == "-":
            print(to_json(reports))
        if args.csv == "-":
            sys.stdout.write(to_csv(reports))  # its lines end in a newline
        if "-" not in (args.json, args.csv):  # the exact edge appears only in the text report
            exact = None
            if rules.naturals and rules.thunderjack_pays is None and rules.charlie_cards is None:
                exact = basic_strategy_edge(rules)
            print(text_report(reports, exact=exact))
        sys.stdout.flush()  # a full disk says so now, not in the interpreter's last flush
    except BrokenPipeError:  # the reader went away (piped into head): stop quietly
        silence_broken_pipe()
        return 0
    except OSError as err:  # a full disk, > /dev/full: one line, and no second failure at the last flush
        print(f"blackjack-kit-sim: error: cannot write the report to stdout: {reason(err)}", file=sys.stderr)
        silence_broken_pipe()
        return 1
    if args.plot is not None:
        try:
            plot(reports, args.plot)
        except (OSError, ImportError) as err:
            print(f"blackjack-kit-sim: error: --plot: {err}", file=sys.stderr)
            return 1
    return 130 if any(r.interrupted for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
