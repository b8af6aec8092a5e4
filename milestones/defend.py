"""Defend your hints: ``python -m milestones defend`` plays the student's hint policy through the kit's simulator.

The course asks of the hints system: "you can use any strategy you choose, but be prepared
to defend your decision!" This command gives the numbers to defend it with. It plays, on the
same shuffled shoes (one seed: common random numbers, :mod:`blackjack.sim.runner`):

====================================  ============================================================
row                                   how it plays
====================================  ============================================================
``my hints``                          the student's ``basic_advice(cards, upcard, rules, legal=...)``
                                      at every decision (insurance offers too)
``my hints + counting``               the student's ``count_advice`` at the Hi-Lo true count, and
                                      each round's bet from the student's ``bet_ramp``
``basic strategy``                    the legal move with the best exact EV for the hand's cards
                                      against a full shoe (the EVs basic strategy is made of)
``mimic the dealer``                  hit below 17 (and a soft 17 when the dealer hits it), never
                                      double, split, surrender or insure
====================================  ============================================================

and reports for each: the house edge (minus the players' net per unit of initial bet, from
:func:`blackjack.sim.simulate`) with its standard error, and the **EV lost per decision**: the
mean, over every decision the row took (insurance offers included), of the best legal move's
exact EV minus the EV of the move taken. The exact EVs are the hint engine's given building
blocks (``_player.Tree``'s stand, hit and double, ``_split.split_value``, ``insurance_value``)
for the hand's cards against the rules' full shoe (less the hand and the upcard), never the
student's ``expected_values``; so basic strategy loses 0 by construction, and a counting play
that departs from the full-shoe best on purpose shows as a loss against a full shoe.

The table is printed and written into the diary (``docs/diary.md`` in the project, or
``--diary``), under ``## Defending my hints`` between two markers, replacing the table of
the last run; the words around it are the student's.

Where the code runs: the simulation plays the project's own engine (its ``blackjack``, as
``check`` and ``demo`` do) in a process of its own (:func:`run_defend` starts it; only the
project supplies ``blackjack``), which sends each row back as a JSON line; this process
prints and writes the diary and never imports ``blackjack``. A function not written yet
(``NotImplementedError``) makes its row say so; any other error in the student's code ends
its row with one line naming the error and where it was raised; the other rows still run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.abc
import importlib.machinery
import json
import math
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported in the student's process only: it must be the project's package, not the kit's
    from blackjack import Action, Rules, TableView

__all__ = ["DEFAULT_HANDS", "DEFAULT_SEED", "DIARY_HEADING", "DefendResult", "Row", "add_parser", "run_defend",
           "table_text", "write_diary"]

#: Rounds each row plays by default: about 40 s for the four rows on the kit's test machine
#: (docs/student.md gives the measured times), a standard error of about 0.8% of a bet.
DEFAULT_HANDS = 20_000
#: The seed every row's shoes come from by default.
DEFAULT_SEED = 1
#: The most rounds a row may play (about an hour and a half for the four rows on the test machine).
MOST_HANDS = 5_000_000
#: Seconds the whole run may take by default before it is stopped: this plus :data:`TIMEOUT_PER_HAND` a round
#: (the four rows take about 1.2 ms a round on the test machine, more while it is busy).
DEFAULT_TIMEOUT = 300.0
TIMEOUT_PER_HAND = 0.02

#: The diary's section for the table, and the markers around the table (what a new run replaces).
DIARY_HEADING = "## Defending my hints"
BEGIN_MARK = "<!-- python -m milestones defend: table begins; a new run replaces everything down to the end mark -->"
END_MARK = "<!-- python -m milestones defend: table ends -->"
_PROMPT = ("*Which strategy did you choose for your hints, and why? What do the numbers above say about it "
           "(is a difference bigger than the standard errors)? Where does your hint lose the most EV?*")

#: The rows, in the order they are played and shown: key -> (label, student functions it plays).
ROWS: dict[str, tuple[str, str]] = {
    "hints": ("my hints", "basic_advice"),
    "counting": ("my hints + counting", "count_advice, bet_ramp"),
    "basic": ("basic strategy", "the best exact EV"),
    "mimic": ("mimic the dealer", "hit below 17"),
}


@dataclass
class Row:
    """One row of the table, as the student's process sends it.

    Attributes:
        key: ``"hints"``, ``"counting"``, ``"basic"`` or ``"mimic"`` (:data:`ROWS`).
        status: ``"ok"``, ``"not written"`` (a function raised NotImplementedError) or ``"error"``.
        message: why a row is not ok, in one line ("" when ok).
        edge: the house edge, a fraction of the initial bet (0.005 is 0.5%; negative: the player wins).
        se: its standard error.
        rounds: rounds played.
        decisions: decisions the row took (playing decisions and insurance offers).
        ev_lost: the EV lost per decision against the full-shoe exact EVs, in initial bets.
        average_bet: the average initial bet in units (1 unless the row bets by the count).
        seconds: the row's run time.
    """

    key: str
    status: str = "ok"
    message: str = ""
    edge: float = math.nan
    se: float = math.nan
    rounds: int = 0
    decisions: int = 0
    ev_lost: float = math.nan
    average_bet: float = math.nan
    seconds: float = 0.0

    @property
    def label(self) -> str:
        """The row's name in the table, with the functions it plays."""
        name, functions = ROWS.get(self.key, (self.key, ""))
        return f"{name} ({functions})" if functions else name


@dataclass
class DefendResult:
    """What :func:`run_defend` found.

    Attributes:
        rows: the rows, in :data:`ROWS` order (those the run reached).
        rules: the rules' name and summary, as the simulator labels them.
        hands: rounds per row asked for.
        seed: the seed.
        seconds: the whole run's time (start-up and exact EVs included).
        stopped: why the run stopped early ("" when it finished).
    """

    rows: list[Row] = field(default_factory=list)
    rules: str = ""
    hands: int = DEFAULT_HANDS
    seed: int = DEFAULT_SEED
    seconds: float = 0.0
    stopped: str = ""


# ====================================================================== the table and the diary

def _percent(value: float, places: int = 2) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.{places}f}%"


def table_text(result: DefendResult, *, now: dt.datetime | None = None) -> str:
    """The table (Markdown) and the lines under it, as printed and as written into the diary."""
    now = now or dt.datetime.now()
    lines = [f"{result.hands:,} rounds per row on the same shuffled shoes (seed {result.seed}), "
             f"{result.rules}; run {now:%Y-%m-%d %H:%M}, {result.seconds:.0f} s.", "",
             "| strategy | house edge | standard error | EV lost per decision | decisions | average bet |",
             "|---|---|---|---|---|---|"]
    for row in result.rows:
        if row.status != "ok":
            lines.append(f"| {row.label} | {_cell(row.message)} | | | | |")
            continue
        lines.append(f"| {row.label} | {_percent(row.edge)} | {_percent(row.se)} | {_percent(row.ev_lost, 3)} "
                     f"| {row.decisions:,} | {row.average_bet:.2f} |")
    lines += ["",
              "House edge: what the house wins per unit of initial bet (negative: the player wins); two strategies "
              "differ beyond chance when their edges differ by more than about twice the standard error. EV lost per "
              "decision: the best legal move's exact EV minus the EV of the move taken, for the hand's cards against "
              "a full shoe, in initial bets (basic strategy loses 0; a counting play that departs from the full-shoe "
              "best on purpose counts as a loss)."]
    if result.stopped:
        lines += ["", f"Stopped early: {result.stopped}"]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ").strip()


def write_diary(diary: Path, table: str, *, template: Path | None = None) -> None:
    """Put ``table`` into ``diary`` under :data:`DIARY_HEADING`, between the markers, replacing the last run's.

    A diary without the section gets it (heading, markers, table and a prompt for the
    student's words) before its ``## Progress log``, or at its end; a section without
    markers gets them right under its heading. A missing diary is made from ``template``
    first, as ``check`` makes it. The file is replaced whole or not at all.

    Raises:
        OSError: the diary cannot be read or written (``check``'s checks; the message says why in words).
    """
    from .check import PROGRESS_HEADING, check_diary, read_diary, write_whole

    check_diary(diary)
    try:
        lines = read_diary(diary, template)
        block = [BEGIN_MARK, *table.splitlines(), END_MARK]
        begin = next((i for i, line in enumerate(lines) if line.strip() == BEGIN_MARK), None)
        end = next((i for i in range(begin or 0, len(lines)) if lines[i].strip() == END_MARK), None) \
            if begin is not None else None
        heading = next((i for i, line in enumerate(lines) if line.strip() == DIARY_HEADING), None)
        if begin is not None and end is not None:
            lines[begin:end + 1] = block
        elif heading is not None:
            lines[heading + 1:heading + 1] = ["", *block]
        else:
            progress = next((i for i, line in enumerate(lines) if line.strip().startswith(PROGRESS_HEADING)), len(lines))
            section = [DIARY_HEADING, "", *block, "", _PROMPT, ""]
            if progress and lines[progress - 1].strip():
                section.insert(0, "")
            lines[progress:progress] = section
        write_whole(diary, "\n".join(lines) + "\n")
    except OSError as err:
        why = err.strerror[:1].lower() + err.strerror[1:] if err.strerror else str(err)
        raise OSError(f"cannot write the diary {diary}: {why}") from None


# ====================================================================== the command

def _whole(text: str, least: int, most: int, what: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}") from None
    if not least <= value <= most:
        raise argparse.ArgumentTypeError(f"{what} must be {least:,} to {most:,}, got {text}")
    return value


def _hands(text: str) -> int:
    return _whole(text, 100, MOST_HANDS, "the hands")


def _seed(text: str) -> int:
    return _whole(text, 0, 2 ** 63 - 1, "the seed")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the time limit must be a number of seconds, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"the time limit must be more than 0 seconds, got {text}")
    return value


def add_parser(sub: Any) -> None:
    """Add the ``defend`` sub-command to ``python -m milestones``'s sub-parsers ``sub``."""
    defend = sub.add_parser("defend", help="play your hints through the simulator beside basic strategy and "
                                           "mimic-the-dealer, and log the table in your diary")
    defend.add_argument("--project", type=Path, default=Path.cwd(), metavar="DIR",
                        help="your project folder, holding blackjack/ (default: here)")
    defend.add_argument("--rules", default=None, metavar="PRESET",
                        help="a rules preset (vegas, single_deck ...) or rules file (default: Rules(), the rules "
                             "basic_advice defaults to: 6 decks, S17, DAS, no surrender)")
    defend.add_argument("--hands", type=_hands, default=DEFAULT_HANDS, metavar="N",
                        help=f"rounds per row (default {DEFAULT_HANDS:,}; more makes the standard errors smaller "
                             f"and the run longer)")
    defend.add_argument("--seed", type=_seed, default=DEFAULT_SEED, metavar="S",
                        help=f"the seed of the shuffles, the same for every row (default {DEFAULT_SEED})")
    defend.add_argument("--diary", type=Path, metavar="PATH", help="default: docs/diary.md in the project")
    defend.add_argument("--no-diary", action="store_true", help="print the table only")
    defend.add_argument("--timeout", type=_seconds, default=None, metavar="S",
                        help=f"seconds the whole run may take (default {DEFAULT_TIMEOUT:g} and "
                             f"{TIMEOUT_PER_HAND:g} a round: {DEFAULT_TIMEOUT + TIMEOUT_PER_HAND * DEFAULT_HANDS:g} "
                             f"for {DEFAULT_HANDS:,} rounds)")


def main(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """Run ``python -m milestones defend`` with parsed ``args``; return the exit status.

    Returns:
        0 when every row ran (a row of a function not written yet counts as run), 1 when a row
        ended with an error in the student's code or the run was stopped.

    Raises:
        FileNotFoundError, ValueError, OSError: a mistake the user can fix (the caller prints one line, status 2).
    """
    from . import REPO_ROOT
    from .config import handout_dir

    project = args.project.resolve()
    diary = None if args.no_diary else (args.diary or project / "docs" / "diary.md")
    if diary is not None:
        from .check import check_diary
        check_diary(diary)  # refused before the simulation, not after
    timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT + TIMEOUT_PER_HAND * args.hands
    result = run_defend(project, rules=args.rules, hands=args.hands, seed=args.seed, timeout=timeout,
                        progress=out)
    table = table_text(result)
    out("")
    out(table)
    if diary is not None:
        write_diary(diary, table, template=handout_dir(REPO_ROOT) / "diary_template.md")
        out(f"(written in {diary}, under '{DIARY_HEADING}')")
    return 1 if result.stopped or any(row.status == "error" for row in result.rows) else 0


# ====================================================================== the parent: start the student's process

class DefendError(ValueError):
    """The run could not start: a bad rules name or file, or no ``blackjack`` package in the project."""


def run_defend(project: Path, *, rules: str | None = None, hands: int = DEFAULT_HANDS, seed: int = DEFAULT_SEED,
               timeout: float = DEFAULT_TIMEOUT, progress: Callable[[str], None] | None = None) -> DefendResult:
    """Play the four rows on the packages in ``project``, in a process of their own; return the rows.

    Args:
        project: the folder holding the student's ``blackjack/``.
        rules: a preset name or rules file (None: ``Rules()``).
        hands: rounds per row.
        seed: the shuffles' seed, the same for every row.
        timeout: seconds the whole run may take; then the student's process is stopped and the
            rows finished so far are returned, with ``stopped`` saying why.
        progress: called with a line as each row starts.

    Raises:
        FileNotFoundError: ``project`` has no ``blackjack/__init__.py``.
        DefendError: the rules cannot be loaded (the message says why).
    """
    project = project.resolve()
    if not (project / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{project} has no blackjack/__init__.py; run defend from your project folder "
                                f"or give --project DIR")
    say = progress or (lambda line: None)
    if rules is not None and Path(rules).is_file():  # a rules file named from here; the student's process runs in
        rules = str(Path(rules).resolve())          # the project folder
    started = time.monotonic()
    result = DefendResult(hands=hands, seed=seed)
    read, write = os.pipe()
    options = {"rules": rules, "hands": hands, "seed": seed}
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, str(Path(__file__).resolve()), str(project), str(write),
             json.dumps(options)],
            pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors, cwd=project)
        os.close(write)
        messages: queue.Queue[dict[str, Any] | None] = queue.Queue()

        def pump() -> None:
            with os.fdopen(read, encoding="utf-8", errors="replace") as pipe:
                for line in pipe:
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(message, dict):
                        messages.put(message)
            messages.put(None)

        threading.Thread(target=pump, daemon=True).start()
        try:
            while True:
                left = timeout - (time.monotonic() - started)
                try:
                    message = messages.get(timeout=max(left, 0.01))
                except queue.Empty:
                    result.stopped = f"the run took longer than {timeout:g} s (--timeout); the rows above finished"
                    break
                if message is None:
                    code = process.wait()
                    if code != 0 and not result.stopped:
                        errors.seek(0)
                        last = (errors.read().decode("utf-8", "replace").strip().splitlines() or [""])[-1]
                        result.stopped = (f"the process playing your code ended (exit status {code})"
                                          + (f": {last}" if last else ""))
                    break
                if "usage" in message:
                    raise DefendError(str(message["usage"]))
                if "say" in message:
                    say(str(message["say"]))
                if "rules" in message:
                    result.rules = str(message["rules"])
                if "row" in message:
                    row = _row(message["row"])
                    result.rows.append(row)
                    say(f"  {'done' if row.status == 'ok' else row.message} ({row.seconds:.1f} s)")
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
    result.seconds = time.monotonic() - started
    return result


def _row(data: dict[str, Any]) -> Row:
    known = {name: data[name] for name in Row.__dataclass_fields__ if name in data}
    return Row(**known)


#: Run in the student's process (``python -I -c``): load this file by its path (not the ``milestones``
#: package, which the project may not hold) and serve.
_BOOT = ("import importlib.util, sys\n"
         "spec = importlib.util.spec_from_file_location('_blackjack_defend', sys.argv[1])\n"
         "module = importlib.util.module_from_spec(spec)\n"
         "sys.modules['_blackjack_defend'] = module\n"
         "spec.loader.exec_module(module)\n"
         "sys.exit(module._serve(sys.argv[2:]))\n")

#: The module name this file has in the student's process (the simulator imports the policies by it).
_CHILD = "_blackjack_defend"


# ====================================================================== the student's process

class _ProjectOnly(importlib.abc.MetaPathFinder):
    """Import ``blackjack`` and ``gui`` only from the student's project (as :mod:`milestones.demo` does)."""

    def __init__(self, project: str) -> None:
        self.project = project

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec from the project (a top-level name) or the parent package's path, else ModuleNotFoundError."""
        if fullname.split(".")[0] not in ("blackjack", "gui"):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, [self.project] if path is None else path)
        if spec is None or not str(spec.origin or "").startswith(self.project):
            raise ModuleNotFoundError(f"No module named {fullname!r} in {self.project}", name=fullname)
        return spec


class _Stop(Exception):
    """Raised by a policy to end its row; the row's message is already in :data:`_STATE`."""


@dataclass
class _State:
    """What the policies of the row being played share (set before each row, in the student's process)."""

    project: str = ""
    rules: Rules | None = None
    oracle: _Oracle | None = None
    decisions: int = 0
    lost: float = 0.0
    status: str = "ok"
    message: str = ""
    advice: dict[tuple[object, ...], Action] = field(default_factory=dict)


_STATE = _State()


def _serve(argv: list[str]) -> int:
    """The student's process: ``PROJECT FD OPTIONS_JSON``; play the rows and send JSON lines on ``FD``:
    ``{"say": line}``, ``{"rules": label}``, ``{"row": {...}}``, or ``{"usage": message}`` for rules that cannot load."""
    project, fd, options = argv[0], int(argv[1]), json.loads(argv[2])
    sys.meta_path.insert(0, _ProjectOnly(project))
    sys.path.insert(0, project)
    _STATE.project = project
    channel = os.fdopen(fd, "w", encoding="utf-8", buffering=1)

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    try:
        from blackjack import Rules
        from blackjack.errors import BlackjackError
    except Exception as err:  # noqa: BLE001 - the student's package does not import: say where, in one line
        send({"row": {"key": "hints", "status": "error", "message": f"your blackjack package does not import: "
                                                                    f"{_one_line(err)}"}})
        return 0
    try:
        rules = Rules() if options["rules"] is None else Rules.load(options["rules"])
    except (BlackjackError, OSError, ValueError) as err:
        send({"usage": f"cannot load the rules {options['rules']!r}: {_one_line(err)}"})
        return 0
    from blackjack.sim import simulate  # given code: the kit's simulator, as the project holds it
    send({"rules": f"{'Rules()' if options['rules'] is None else rules.name}: {rules.summary()}"})
    _STATE.rules = rules
    _STATE.oracle = _Oracle(rules)
    for key, (name, _functions) in ROWS.items():
        send({"say": f"{name}: {options['hands']:,} rounds ..."})
        _STATE.decisions, _STATE.lost, _STATE.status, _STATE.message = 0, 0.0, "ok", ""
        _STATE.advice = {}
        began = time.monotonic()
        row: dict[str, Any] = {"key": key}
        try:
            report = simulate(f"{_CHILD}:{_POLICIES[key]}", rules, hands=options["hands"], seed=options["seed"])[0]
        except Exception as err:  # noqa: BLE001 - the student's code (hints, or the round's) ends this row only
            if _STATE.status != "ok":  # a policy said what went wrong before it stopped the row
                row.update(status=_STATE.status, message=_STATE.message)
            elif isinstance(err, NotImplementedError):
                row.update(status="not written", message=f"{_raiser(err)} is not written yet{_where(err)}")
            else:
                row.update(status="error", message=f"the round stopped: {_one_line(err)}")
        else:
            row.update(edge=report.house_edge, se=report.se, rounds=report.rounds, decisions=_STATE.decisions,
                       ev_lost=_STATE.lost / _STATE.decisions if _STATE.decisions else 0.0,
                       average_bet=report.average_bet)
        row["seconds"] = time.monotonic() - began
        send({"row": row})
    return 0


def _one_line(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}".strip().splitlines()
    return (text[0] if text else type(err).__name__)[:300] + _where(err)


def _where(err: BaseException) -> str:
    """`` (file.py, line N)`` for the innermost frame of ``err`` in the project's ``blackjack`` (not its simulator),
    or ``""``."""
    package = Path(_STATE.project, "blackjack")
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        path = Path(frame.filename)
        if path.is_relative_to(package) and not path.is_relative_to(package / "sim"):
            return f" ({path.name}, line {frame.lineno})"
    return ""


def _raiser(err: BaseException) -> str:
    """The name of the function of the project's ``blackjack`` that raised ``err`` (innermost), or "a function"."""
    package = Path(_STATE.project, "blackjack")
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if Path(frame.filename).is_relative_to(package):
            return f"{frame.name}()"
    return "a function"


def _fail(function: str, err: BaseException) -> _Stop:
    """Record that the student's ``function`` raised ``err`` (NotImplementedError: not written yet); return the stop."""
    if isinstance(err, NotImplementedError):
        _STATE.status, _STATE.message = "not written", f"{function} is not written yet"
    else:
        _STATE.status, _STATE.message = "error", f"{function} raised {_one_line(err)}"
    return _Stop(_STATE.message)


def _codes(cards: Sequence[object]) -> str:
    return "[" + ", ".join(str(card) for card in cards) + "]"


def _decide(view: TableView, choose: Callable[[TableView], Action], who: str) -> Action:
    """Ask ``choose`` for the move of the decision in ``view``, check it is legal, and add its EV loss to the row."""
    from blackjack import Action, Phase

    if view.phase is Phase.EARLY_SURRENDER:  # no row surrenders early; not counted as a decision
        return Action.DECLINE
    action = choose(view)
    legal = view.legal_actions
    hand = view.current_hand
    upcard = view.dealer.upcard
    assert hand is not None and upcard is not None and view.turn is not None  # a decision is pending
    if not isinstance(action, Action) or action not in legal:
        _STATE.status = "error"
        said = action.name if isinstance(action, Action) else f"{action!r:.60}"
        _STATE.message = (f"{who} said {said} for {_codes(hand.cards)} against {upcard}, which is not one of the "
                          f"legal moves there ({', '.join(sorted(a.name for a in legal))})")
        raise _Stop(_STATE.message)
    assert _STATE.oracle is not None
    hands = len(view.seats[view.turn[0]].hands)
    evs = _STATE.oracle.evs([card.value for card in hand.cards], upcard.value, hands, legal)
    _STATE.decisions += 1
    _STATE.lost += max(evs.values()) - evs[action]
    return action


def _student_hint(view: TableView) -> Action:
    """The student's ``basic_advice``, asked once per hand (faces in order), upcard face and legal moves."""
    from blackjack.hints import basic_advice

    hand, upcard = view.current_hand, view.dealer.upcard
    assert hand is not None and upcard is not None
    key = (tuple(card.face for card in hand.cards), upcard.face, view.legal_actions)
    known = _STATE.advice.get(key)
    if known is not None:
        return known
    try:
        got = basic_advice(list(hand.cards), upcard, _STATE.rules, legal=view.legal_actions)
    except Exception as err:
        raise _fail("basic_advice", err) from None
    action = _action_of(got, "basic_advice")
    _STATE.advice[key] = action
    return action


def _action_of(got: object, who: str) -> Action:
    """The action of a ``(action, reason)`` reply (checked later against the legal moves)."""
    if not (isinstance(got, tuple) and len(got) == 2):
        _STATE.status, _STATE.message = "error", f"{who} returned {got!r:.80}; it should return (action, reason)"
        raise _Stop(_STATE.message)
    return got[0]  # type: ignore[no-any-return]


def _true_count(view: TableView) -> float:
    """The Hi-Lo true count of the cards the players have not seen: the given ``count_from_unseen`` and the
    student's ``true_count``."""
    from blackjack.hints.counting import count_from_unseen, true_count

    unseen = view.unseen_counts
    left = sum(unseen.values())
    try:
        return float(true_count(count_from_unseen(unseen, view.decks), left)) if left else 0.0
    except Exception as err:
        raise _fail("true_count", err) from None


def _student_count_hint(view: TableView) -> Action:
    """The student's ``count_advice`` at the true count of the cards not seen."""
    from blackjack.hints.counting import count_advice

    hand, upcard = view.current_hand, view.dealer.upcard
    assert hand is not None and upcard is not None
    tc = _true_count(view)
    try:
        got = count_advice(list(hand.cards), upcard, tc, _STATE.rules, legal=view.legal_actions)
    except Exception as err:
        raise _fail("count_advice", err) from None
    return _action_of(got, "count_advice")


def _ramp_units(tc: float) -> int:
    """The student's ``bet_ramp(tc, 1)``: each round's bet in units."""
    from fractions import Fraction

    from blackjack.hints.counting import bet_ramp

    try:
        got = bet_ramp(tc, 1)
    except Exception as err:
        raise _fail("bet_ramp", err) from None
    if isinstance(got, bool) or not isinstance(got, (int, Fraction)) or got != int(got) or not 1 <= got <= 64:
        _STATE.status = "error"
        _STATE.message = f"bet_ramp({tc:+.2f}, 1) returned {got!r:.60}; the simulator bets a whole 1 to 64 units"
        raise _Stop(_STATE.message)
    return int(got)


def _best(view: TableView) -> Action:
    """The legal move with the best exact EV (full shoe less the hand and the upcard); the first of a tie."""
    hand, upcard = view.current_hand, view.dealer.upcard
    assert hand is not None and upcard is not None and view.turn is not None and _STATE.oracle is not None
    evs = _STATE.oracle.evs([card.value for card in hand.cards], upcard.value, len(view.seats[view.turn[0]].hands),
                            view.legal_actions)
    return max(evs, key=lambda action: evs[action])


def _mimic(view: TableView) -> Action:
    """The dealer's rule: hit below 17, and a soft 17 when the dealer hits it; decline every offer."""
    from blackjack import Action, Phase

    hand = view.current_hand
    assert hand is not None and _STATE.rules is not None
    if view.phase is not Phase.PLAYER_TURN:
        return Action.DECLINE
    hits = hand.total < 17 or hand.total == 17 and hand.soft and _STATE.rules.dealer_hits_soft_17
    return Action.HIT if hits and Action.HIT in view.legal_actions else Action.STAND


def hints_policy(view: TableView) -> Action:
    """The ``my hints`` row: the student's ``basic_advice``."""
    return _decide(view, _student_hint, "basic_advice")


def counting_policy(view: TableView) -> Action:
    """The ``my hints + counting`` row: the student's ``count_advice``; bets by ``bet_ramp`` (``units``)."""
    return _decide(view, _student_count_hint, "count_advice")


counting_policy.units = _ramp_units  # type: ignore[attr-defined]  # the simulator's bets by the count


def basic_policy(view: TableView) -> Action:
    """The ``basic strategy`` row: the best exact EV."""
    return _decide(view, _best, "basic strategy")


def mimic_policy(view: TableView) -> Action:
    """The ``mimic the dealer`` row."""
    return _decide(view, _mimic, "mimic the dealer")


#: Each row's policy function in this module.
_POLICIES = {"hints": "hints_policy", "counting": "counting_policy", "basic": "basic_policy", "mimic": "mimic_policy"}


class _Oracle:
    """Exact EVs of the legal moves of a hand, from the hint engine's given building blocks, kept once computed.

    The composition is the rules' full shoe less the hand's cards and the upcard. Stand, hit and
    double come from one :class:`~blackjack.hints._player.Tree` per upcard (its memo is keyed by
    composition, so the cards after a hit are worked out once with the two-card hand's hit);
    a split from ``split_value`` (exact, resplits by the seat's hands); insurance from
    ``insurance_value``; a surrender is -0.5. EVs are conditioned on no dealer natural where the
    dealer peeks, as the decisions come after the peek.
    """

    def __init__(self, rules: Rules) -> None:
        from blackjack.hints.probability import full_shoe
        self.rules = rules
        self.full = full_shoe(rules.decks)
        self.trees: dict[int, Any] = {}
        self.known: dict[tuple[object, ...], float] = {}

    def evs(self, values: list[int], upcard: int, hands: int, legal: frozenset[Action]) -> dict[Action, float]:
        """``{move: exact EV}`` for every legal move (INSURANCE and DECLINE on an insurance offer)."""
        from blackjack import Action
        from blackjack.hints._player import Tree, insurance_value
        from blackjack.hints._split import split_value
        from blackjack.hints.probability import game_for, without

        ordered = tuple(sorted(values))
        counts = without(self.full, (*values, upcard))
        hard, ace, n = sum(values), 1 in values, len(values)
        out: dict[Action, float] = {}
        for action in legal:
            key = (action, ordered, upcard, hands if action is Action.SPLIT else 0)
            value = self.known.get(key)
            if value is None:
                if action is Action.INSURANCE:
                    value = insurance_value(counts)
                elif action in (Action.DECLINE, Action.SURRENDER):
                    value = 0.0 if action is Action.DECLINE else -0.5
                elif action is Action.SPLIT:
                    value = split_value(values[0], counts, game_for(upcard, self.rules, pair=values[0]), hands)
                else:
                    tree = self.trees.get(upcard)
                    if tree is None:
                        tree = self.trees[upcard] = Tree(None, game_for(upcard, self.rules))
                    if action is Action.STAND:
                        value = tree.stand(hard, ace, counts)
                    elif action is Action.HIT:
                        value = tree.hit(hard, ace, n, counts)
                    else:
                        value = tree.double(hard, ace, n, counts)
                self.known[key] = value
            out[action] = value
        return out
