"""Command line for the text game: ``python -m blackjack`` (or the ``blackjack-kit`` command).

Run ``python -m blackjack --help`` for the options.
"""

from __future__ import annotations

if __name__ == "__main__":  # before anything else loads: Ctrl-C while the game starts ends it quietly, status 130
    from .cli import exit_on_interrupt
    exit_on_interrupt()

import argparse  # noqa: E402 (after the interrupt handler, on purpose)
import dataclasses  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from fractions import Fraction  # noqa: E402
from typing import TextIO  # noqa: E402

from . import course_game  # noqa: E402
from .cards import Card, parse_cards  # noqa: E402
from .cli import OneLineParser, interrupts_raise, silence_broken_pipe  # noqa: E402
from .errors import BlackjackError, unwritten  # noqa: E402
from .money import format_money, parse_amount  # noqa: E402
from .player import Player, check_name, parse_names  # noqa: E402
from .rules import Rules  # noqa: E402
from .table import Blackjack  # noqa: E402
from .typed_numbers import parse_whole  # noqa: E402
from .drill_cli import run_drill  # noqa: E402
from .hints import system  # noqa: E402
from .text_game import (QUIT_WORDS, Console, QuitGame, TextGame, TextOptions, is_terminal,  # noqa: E402
                        terminal_width)

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the text game."""
    parser = OneLineParser(prog="blackjack", description="Play blackjack in a terminal: 1-7 players against the dealer.")
    parser.add_argument("--players", type=int, metavar="N", help="number of players, 1-7 (asked if not given)")
    parser.add_argument("--names", metavar="A,B,..", help="player names, separated by commas")
    parser.add_argument("--rules", default="vegas", metavar="PRESET",
                        help=f"a rules preset ({', '.join(Rules.preset_names())}) or a .toml rules file "
                             "(default: vegas)")
    parser.add_argument("--decks", type=int, metavar="D", help="decks in the shoe (overrides the preset)")
    parser.add_argument("--bankroll", metavar="AMOUNT", help="each player's starting credits (default: the rules'); "
                        "with --rules cs111 it plays the course's game with money (the cs111_money rules)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed the shoe: the same seed replays the same game")
    parser.add_argument("--stack", metavar="CARDS",
                        help="deal these cards first, in deal order, e.g. 'Ah,Kd,7c,9s' (for demos and tests)")
    parser.add_argument("--rounds", type=int, metavar="R", help="play R rounds without asking to play again")
    parser.add_argument("--plain", action="store_true", help="no card drawings: one line per hand")
    parser.add_argument("--ascii", action="store_true", help="draw with ASCII only, no suit symbols")
    parser.add_argument("--hints", action="store_true", help="trainer mode: show a hint before every decision "
                        "and say when a move departs from it")
    parser.add_argument("--no-tips", action="store_true", help="do not show first-time tips")
    parser.add_argument("--counting", metavar="SYSTEM",
                        help="counting system for the count command and the drill: hi_lo (the default), ko, "
                             "hi_opt_1, omega_2, zen")
    parser.add_argument("--drill", action="store_true", help="practise card counting instead of playing")
    parser.add_argument("--full", action="store_true", help="with --rules cs111 (or cs111_money): play the full "
                        "text game (card drawings, hints) instead of the course's game (blackjack/course_game.py)")
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None, *,
         width: int | None = None) -> int:
    """Run the text game; return the exit status (0; 2 for bad options; 1 when starter code is not written yet,
    or the game cannot be written or read, as on a full disk).

    Bytes on the process's stdin that are not text in its encoding are read as U+FFFD (the
    game asks again), and characters its stdout cannot encode are written as escapes; a
    closed stdin is an empty one. Ctrl-C at any moment ends the game with status 130 and
    no traceback ("Interrupted." once the game is on the screen).

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
        stdin: where answers are read (default ``sys.stdin``).
        stdout: where the game is written (default ``sys.stdout``).
        width: with ``stdout``, wrap to this many columns (None: do not wrap); without it,
            ignored: :func:`~blackjack.text_game.terminal_width` of stdout.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if stdout is None and sys.stdout is None:  # started with stdout closed (>&-): nowhere to play
        parser.error("standard output is closed: there is nowhere to show the game")
    if stdin is not None:
        inp = stdin
    elif sys.stdin is not None:
        inp = _forgiving(sys.stdin, "replace")
    else:  # started with stdin closed (<&-): as if the input had ended
        inp = io.StringIO()
    out = stdout if stdout is not None else _forgiving(sys.stdout, "backslashreplace")
    console = Console(inp, out, width=width if stdout is not None else terminal_width(out))
    try:
        with interrupts_raise():  # Ctrl-C is a KeyboardInterrupt only in here; outside, it exits quietly
            return _play(args, parser, console, out)
    except (EOFError, QuitGame):
        console.say("No game played.")
        return 0
    except KeyboardInterrupt:
        console.say("\nInterrupted.")
        return 130
    except NotImplementedError as err:  # a student's starter code, still a stub
        console.say(f"\nStopped: {unwritten(err)}")
        if args.rules != "cs111" or args.bankroll is not None:
            console.say("(The course's own game needs only week 1's code: python -m blackjack --rules cs111)")
        return 1
    except (BlackjackError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError,
            RecursionError) as err:  # a mistake in the code (a student's copy): one line naming where, no traceback
        console.say(f"\nStopped: {course_game.mistake_line(err)}")
        return 1
    except BrokenPipeError:  # the reader went away (e.g. piped into head): stop quietly
        silence_broken_pipe(out)
        return 0
    except OSError as err:  # the output cannot be written (a full disk) or the input read (a lost terminal)
        silence_broken_pipe(out)
        if sys.stderr is not None:
            print(f"{parser.prog}: stopped: {err.strerror or err}", file=sys.stderr)
        return 1


def _play(args: argparse.Namespace, parser: argparse.ArgumentParser, console: Console, out: TextIO) -> int:
    """Set up the drill or the game from the options and run it; only bad set-up ends in ``parser.error``."""
    try:
        rules = _rules(args)
        counting = system(args.counting or "hi_lo")
        course = rules.name in _COURSE and not args.full and not args.drill
        unused = [f"--{name.replace('_', '-')}" for name in ("plain", "ascii", "hints", "no_tips", "counting")
                  if course and getattr(args, name)]
        if unused:
            raise ValueError(f"{unused[0]}: the course's game (blackjack/course_game.py) does not use it; add --full "
                             f"to play the kit's text game")
        if not args.drill:
            players, stacked = _seats(args, console, rules)
    except (BlackjackError, ValueError) as err:
        parser.error(str(err))
    if args.drill:
        return run_drill(console, counting, decks=min(rules.decks, 2), seed=args.seed,
                         flash=is_terminal(out) and not args.plain)
    game = Blackjack(players, rules, seed=args.seed)  # past the options: a mistake in the deck code is the code's
    game.shoe.stack(stacked)
    if course:  # the course's game, which the student writes (week 1; with money, week 2)
        return course_game.run(game, console.ask, console.say, rounds=args.rounds)
    unicode = not args.ascii and _can_encode(out, "♠♥┌─░…")
    options = TextOptions(plain=args.plain, unicode=unicode, rounds=args.rounds, auto_hint=args.hints,
                          tips=not args.no_tips, counting=counting.key)
    return TextGame(game, console, options).run()


def _seats(args: argparse.Namespace, console: Console, rules: Rules) -> tuple[list[Player], list[Card]]:
    """The players the options seat (names asked for when not given) and the cards ``--stack`` puts on top."""
    bankroll = _bankroll(args.bankroll, rules)
    stacked = _stack(args.stack, rules) if args.stack else []
    if args.rounds is not None and args.rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {args.rounds}")
    names = _names(args, console, rules)
    return [Player(name, bankroll) for name in names], stacked


def _bankroll(text: str | None, rules: Rules) -> Fraction:
    """Each player's starting credits: ``--bankroll`` (:func:`~blackjack.money.parse_amount`) or the rules'.

    Raises:
        ValueError: the amount is not a number, not decimal (a rules file's ``1000/3``), or does
            not cover the table minimum; the message starts with ``--bankroll:`` or names the rules' field.
    """
    where = "--bankroll" if text is not None else f"the {rules.name} rules' starting_bankroll"
    if text is not None:
        try:
            amount = parse_amount(text, what="bankroll")
        except BlackjackError as err:
            raise ValueError(f"--bankroll: {err}") from None
    else:
        amount = rules.starting_bankroll
    shown = format_money(amount)
    if "/" in shown:
        raise ValueError(f"{where} must be a whole or decimal number of credits such as 500 or 7.5, got {shown}")
    if amount < rules.min_bet:
        raise ValueError(f"{where} must cover the table minimum bet of {format_money(rules.min_bet)}, got {shown}")
    return amount


def _stack(text: str, rules: Rules) -> list[Card]:
    """The cards ``--stack`` puts on top of the shoe, checked against the rules' deck count, not the shoe.

    A shoe (the course's code) that cannot stack a card it holds is the code's mistake, not the option's.

    Raises:
        ValueError: ``--stack:`` an unknown card code, or more copies of a card than the decks hold.
    """
    try:
        cards = parse_cards(text)
    except BlackjackError as err:
        raise ValueError(f"--stack: {err}") from None
    for card, asked in Counter(cards).items():
        if asked > rules.decks:
            held = "1 deck" if rules.decks == 1 else f"{rules.decks} decks"
            raise ValueError(f"--stack: {card} is asked for {asked} times, but the {rules.name} shoe "
                             f"({held}) has only {rules.decks}")
    return cards


def _forgiving(stream: TextIO, errors: str) -> TextIO:
    """``stream`` (stdin or stdout) reconfigured with ``errors`` when it can be, instead of raising."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError):  # pragma: no cover - a stream already read from in another encoding
            pass
    return stream


#: The presets the course's own game (blackjack/course_game.py) plays: week 1's, and week 2's with money.
_COURSE = ("cs111", "cs111_money")


def _rules(args: argparse.Namespace) -> Rules:
    """The rules the options ask for: ``--rules``, with ``--decks``; ``--bankroll`` turns cs111 into cs111_money."""
    rules = Rules.load(args.rules)
    if args.bankroll is not None and rules.name == "cs111":
        rules = Rules.preset("cs111_money")
    if args.bankroll is not None and not rules.wagering:
        raise ValueError(f"--bankroll: the {rules.name} rules play for no money (wagering = false)")
    if args.decks is not None:
        rules = dataclasses.replace(rules, decks=args.decks)
    return rules


def _names(args: argparse.Namespace, console: Console, rules: Rules) -> list[str]:
    if args.names:
        return _given_names(args.names, args.players, rules)
    count = args.players
    if count is not None and not 1 <= count <= rules.max_players:
        raise ValueError(f"--players must be 1..{rules.max_players} at a {rules.name} table, got {count}")
    while count is None:
        answer = console.ask(f"How many players (1-{rules.max_players})? ")
        if answer.lower() in QUIT_WORDS:
            raise QuitGame
        try:
            count = parse_whole(answer, least=1, most=rules.max_players)
        except ValueError:
            console.say(f"Please type a number from 1 to {rules.max_players}.")
    if args.players is not None:
        return [f"Player {i + 1}" for i in range(count)]
    chosen: list[str] = []
    while len(chosen) < count:
        default = f"Player {len(chosen) + 1}"
        answer = console.ask(f"Name of player {len(chosen) + 1} (Enter = {default}): ") or default
        try:
            answer = check_name(answer)
        except ValueError as err:
            console.say(f"That name will not do: {err}.")
            continue
        if answer in chosen:
            console.say(f"{answer} is already at the table; please choose another name.")
            continue
        chosen.append(answer)
    return chosen


def _given_names(text: str, players: int | None, rules: Rules) -> list[str]:
    """The names ``--names`` gives: each a valid name, all different, as many as ``--players`` (ValueError)."""
    try:
        names = parse_names(text)
    except ValueError as err:
        message = str(err)
        raise ValueError(message if message.startswith("--names") else f"--names: {message}") from None
    if players is not None and players != len(names):
        raise ValueError(f"--players {players} but {len(names)} names given")
    if not 1 <= len(names) <= rules.max_players:
        raise ValueError(f"--names: give 1 to {rules.max_players} names at a {rules.name} table, got {len(names)}")
    repeated = [name for name, times in Counter(names).items() if times > 1]
    if repeated:
        raise ValueError(f"--names: {repeated[0]} is given twice; each player needs a name of their own")
    return names


def _can_encode(stream: TextIO, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
