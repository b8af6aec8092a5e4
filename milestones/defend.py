"""Defend your hints: ``python -m milestones defend`` plays the student's hint policy through the kit's simulator.

The rows (:data:`ROWS`: the student's ``basic_advice``; their ``count_advice`` with ``bet_ramp``; basic
strategy, the legal move with the best exact EV; mimic the dealer) play the same shuffled shoes (one seed:
common random numbers, :mod:`blackjack.sim.runner`). Each reports the house edge (:func:`blackjack.sim.simulate`)
with its standard error and the **EV lost per decision**: the mean, over the row's decisions (insurance offers
included), of the best legal move's exact EV minus the EV of the move taken. The exact EVs are the hint
engine's given building blocks for the hand's cards against the rules' full shoe (``_Oracle`` in
:mod:`milestones.plays.defend_play`), never the student's ``expected_values``; so basic strategy loses 0 by
construction. docs/student.md ("Defend your hints") says what the student sees, and the diary's part.

The rows play in the student's process (:mod:`milestones.host`, the play :mod:`milestones.plays.defend_play`)
and come back as plain data, read bounded; this process prints the table, writes the diary and never imports
``blackjack``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from . import REPO_ROOT
from .check import PROGRESS_HEADING, check_diary, edit_diary
from .config import handout_dir
from .grader.judge import StudentError, StudentGone, StudentTimeout
from .host import Host
from .plays.defend_play import PROGRESS, SAMPLES, SITUATIONS

__all__ = ["DEFAULT_HANDS", "DEFAULT_SEED", "DIARY_HEADING", "DefendResult", "Row", "add_parser", "run_defend",
           "table_text", "write_diary"]

#: Rounds each row plays by default: within 60 s for the four rows on the kit's busy two-core test machine
#: (docs/student.md gives the measured times), a standard error of about 1.2% of a bet.
DEFAULT_HANDS = 10_000
#: The seed every row's shoes come from by default.
DEFAULT_SEED = 1
#: The most rounds a row may play (about an hour and a half for the four rows on the test machine).
MOST_HANDS = 5_000_000
#: Seconds the whole run may take by default before it is stopped: this plus :data:`TIMEOUT_PER_HAND` a round
#: (the four rows take about 1.2 ms a round on the test machine, more while it is busy).
DEFAULT_TIMEOUT = 300.0
TIMEOUT_PER_HAND = 0.02
#: Seconds a call of the student's that does not return may run past the time limit before it is stopped.
GRACE = 15.0

#: The diary's section for the table, and the markers around the table (what a new run replaces).
DIARY_HEADING = "## Defending my hints"
BEGIN_MARK = "<!-- python -m milestones defend: table begins; a new run replaces everything down to the end mark -->"
END_MARK = "<!-- python -m milestones defend: table ends -->"
_PROMPT = ("*Which strategy did you choose for your hints, and why? What do the numbers above say about it "
           "(is a difference bigger than the standard errors)? Where does your hint lose the most EV?*")

#: The rows, in the order they are shown: key -> (label, student functions it plays).
ROWS: dict[str, tuple[str, str]] = {
    "hints": ("my hints", "basic_advice"),
    "counting": ("my hints + counting", "count_advice, bet_ramp"),
    "basic": ("basic strategy", "the best exact EV"),
    "mimic": ("mimic the dealer", "hit below 17"),
}
#: The order they are played: the kit's first, so that a slow student's code leaves their figures.
PLAYED = ("basic", "mimic", "hints", "counting")
#: The student's functions the rows time, and how a move reads after "you" and after "basic".
TIMED = ("basic_advice", "count_advice", "true_count", "bet_ramp")
_MOVES = {"HIT": ("hit", "hits"), "STAND": ("stand", "stands"), "DOUBLE": ("double", "doubles"),
          "SPLIT": ("split", "splits"), "SURRENDER": ("surrender", "surrenders"),
          "INSURANCE": ("take insurance", "takes insurance"), "DECLINE": ("decline insurance", "declines it")}


@dataclass
class Row:
    """One row of the table, as the student's process sends it.

    Attributes:
        key: ``"hints"``, ``"counting"``, ``"basic"`` or ``"mimic"`` (:data:`ROWS`).
        status: ``"ok"``, ``"not written"`` (a function raised NotImplementedError), ``"not played"`` (the time
            limit came first) or ``"error"``.
        message: why a row is not ok, in one line ("" when ok).
        edge: the house edge, a fraction of the initial bet (0.005 is 0.5%; negative: the player wins).
        se: its standard error.
        rounds: rounds played.
        decisions: decisions the row took (playing decisions and insurance offers).
        ev_lost: the EV lost per decision against the full-shoe exact EVs, in initial bets.
        average_bet: the average initial bet in units (1 unless the row bets by the count).
        seconds: the row's run time.
        stopped: the time limit stopped the row before its last round (its figures are the rounds finished).
        lost: the EV lost over all its decisions, in initial bets.
        situations: the costliest situations, ``(situation, move taken, best move, decisions, EV lost)``.
        calls: ``function -> (calls, seconds)`` of the student's functions it called (:data:`TIMED`).
        samples: some of those calls' arguments, to time the kit's code on (plain data).
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
    stopped: bool = False
    lost: float = 0.0
    situations: list[tuple[str, str, str, int, float]] = field(default_factory=list)
    calls: dict[str, tuple[int, float]] = field(default_factory=dict)
    samples: dict[str, list[Any]] = field(default_factory=dict)

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
        kit: seconds per call of the kit's own functions on the student's calls (:func:`run_defend`).
        kit_note: why there is no figure of the kit's ("" when there is, or when the project is the kit).
        given: the student's probability functions not written yet, played on the suite's given ones.
    """

    rows: list[Row] = field(default_factory=list)
    rules: str = ""
    hands: int = DEFAULT_HANDS
    seed: int = DEFAULT_SEED
    seconds: float = 0.0
    stopped: str = ""
    kit: dict[str, float] = field(default_factory=dict)
    kit_note: str = ""
    given: list[str] = field(default_factory=list)


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
        label = row.label + (f", stopped after {row.rounds:,} rounds" if row.stopped else "")
        lines.append(f"| {label} | {_percent(row.edge)} | {_percent(row.se)} | {_percent(row.ev_lost, 3)} "
                     f"| {row.decisions:,} | {row.average_bet:.2f} |")
    lines += ["",
              "House edge: what the house wins per unit of initial bet (negative: the player wins); two strategies "
              "differ beyond chance when their edges differ by more than about twice the standard error. EV lost per "
              "decision: the best legal move's exact EV minus the EV of the move taken, for the hand's cards against "
              "a full shoe, in initial bets (basic strategy loses 0; a counting play that departs from the full-shoe "
              "best on purpose counts as a loss)."]
    if result.given:
        verb = "is" if len(result.given) == 1 else "are"
        lines += ["", f"Your {' and '.join(result.given)} {verb} not written yet: the rows played the milestone-2 "
                      f"suite's in their place (as the hints tests do)."]
    lines += _losses(result) + _times(result)
    if result.stopped:
        lines += ["", f"Stopped early: {result.stopped}"]
    return "\n".join(lines)


def _losses(result: DefendResult) -> list[str]:
    """Where the student's rows lose the most EV against basic strategy, a line per situation."""
    lines = []
    for row in result.rows:
        if row.key not in ("hints", "counting") or row.status != "ok":
            continue
        name = ROWS[row.key][0]
        if not row.situations:
            lines.append(f"- {name}: no decision lost EV against basic strategy")
        for where, you, best, decisions, lost in row.situations:
            mine, theirs = _MOVES.get(you, (you, you))[0], _MOVES.get(best, (best, best))[1]
            lines.append(f"- {name}: {where}: you {mine}, basic {theirs}, {_percent(lost / decisions)} of a bet "
                         f"lost per decision over {decisions:,} decision{'s' if decisions != 1 else ''}, "
                         f"{lost / row.lost:.0%} of all this row lost")
    if not lines:
        return []
    return ["", "Where your hints lose the most EV against basic strategy (the best exact EV), costliest first "
                "(a situation: your total, or pair, against the dealer's upcard):", "", *lines]


def _ms(seconds: float) -> str:
    ms = 1000 * seconds
    return f"{ms:.2f} ms" if ms >= 0.1 else f"{ms:.4f} ms"


def _times(result: DefendResult) -> list[str]:
    """The time per call of each student's function the rows called, beside the kit's."""
    spent: dict[str, list[float]] = {}
    for row in result.rows:
        for name, (calls, seconds) in row.calls.items():
            total = spent.setdefault(name, [0, 0.0])
            total[0] += calls
            total[1] += seconds
    lines = []
    for name in TIMED:
        if name in spent and spent[name][0]:
            count, seconds = spent[name]
            kit = result.kit.get(name)
            lines.append(f"- {name}: {int(count):,} calls, {_ms(seconds / count)} per call"
                         + (f"; the kit's {_ms(kit)}" if kit is not None else ""))
    if not lines:
        return []
    note = f" ({result.kit_note})" if result.kit_note else ""
    return ["", f"Time per call of your functions the rows called, for your efficiency analysis{note}; "
                "basic_advice is asked once per hand, upcard and legal moves (its answer is kept):", "", *lines]


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
    with edit_diary(diary, template) as lines:
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


# ====================================================================== the command

def _whole(text: str, least: int, most: int, what: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}") from None
    if not least <= value <= most:
        raise argparse.ArgumentTypeError(f"{what} must be {least:,} to {most:,}, got {text}")
    return value


_hands = partial(_whole, least=100, most=MOST_HANDS, what="the hands")
_seed = partial(_whole, least=0, most=2 ** 63 - 1, what="the seed")


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
    project = args.project.resolve()
    diary = None if args.no_diary else (args.diary or project / "docs" / "diary.md")
    if diary is not None:
        check_diary(diary)  # refused before the simulation, not after
    timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT + TIMEOUT_PER_HAND * args.hands
    result = run_defend(project, rules=args.rules, hands=args.hands, seed=args.seed, timeout=timeout,
                        progress=out, status=sys.stderr if sys.stderr.isatty() else None)
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
               timeout: float = DEFAULT_TIMEOUT, progress: Callable[[str], None] | None = None,
               status: TextIO | None = None) -> DefendResult:
    """Play the four rows on the packages in ``project``, in the student's process (:mod:`milestones.host`, the
    play :mod:`milestones.plays.defend_play`), the kit's rows first (:data:`PLAYED`); time the kit's own hint
    functions on the student's calls when the kit is found (:func:`milestones.demo.find_reference`); return the rows.

    Args:
        project: the folder holding the student's ``blackjack/``.
        rules: a preset name or rules file (None: ``Rules()``).
        hands: rounds per row.
        seed: the shuffles' seed, the same for every row.
        timeout: seconds the whole run may take; then the row playing stops with the rounds it finished, the
            rows after it are not played, and ``stopped`` says so (a call that does not return: :data:`GRACE`
            seconds later, and that row is lost).
        progress: called with a line as each row starts and ends.
        status: where the progress line goes (``\r``-rewritten: a terminal's stderr), None for none.

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
    options: dict[str, Any] = {"project": str(project), "rules": rules, "hands": hands, "seed": seed}
    line = _StatusLine(status, hands)
    played: dict[str, Row] = {}
    with Host(project, "defend_play") as host:
        for key in (None, *PLAYED):
            left = timeout - (time.monotonic() - started)
            if key is not None and (left <= 0 or result.stopped):
                played[key] = Row(key, status="not played", message="not played: the time limit came first")
                continue
            name = "" if key is None else ROWS[key][0]
            if key is not None:
                say(f"{name}: {hands:,} rounds ...")
                line.start(name, len(PLAYED) - 1 - PLAYED.index(key))
            try:
                answer = host("setup", options, timeout=left) if key is None else \
                    host("row", key, {**options, "seconds": left}, timeout=left + GRACE,
                         say=line.show)
            except (StudentTimeout, StudentGone, StudentError) as err:
                result.stopped = (host.ended(err) if isinstance(err, StudentGone) else
                                  f"the run took longer than {timeout:g} s (--timeout) and a call did not return"
                                  if isinstance(err, StudentTimeout) else
                                  f"the process playing your code stopped: {err.text}")
                if key is not None:
                    played[key] = Row(key, status="error", message=result.stopped)
                continue
            answer = answer if isinstance(answer, dict) else {}
            if "usage" in answer:
                raise DefendError(str(answer["usage"]))
            if key is None:
                result.rules = str(answer.get("rules", ""))[:300]
                result.given = [name for name in ("bust_probability", "dealer_probabilities")
                                if name in list(answer.get("given", []))[:2]]
                if "rules" not in answer:  # the package does not import: one row says so
                    result.rows.append(_row(answer.get("row")))
                    break
                continue
            row = played[key] = _row({**answer, "key": key})
            done = f"stopped at the time limit after {row.rounds:,} rounds" if row.stopped else "done"
            say(f"  {done if row.status == 'ok' else row.message} ({row.seconds:.1f} s)")
            if row.stopped:
                result.stopped = (f"the run reached its time limit of {timeout:g} s (--timeout): {name} stopped "
                                  f"after {row.rounds:,} of {hands:,} rounds")
        line.clear()
    result.rows += [played[key] for key in ROWS if key in played]
    _time_the_kit(project, result, options, timeout - (time.monotonic() - started))
    result.seconds = time.monotonic() - started
    return result


class _StatusLine:
    """The progress line on a terminal: the row playing, its rounds finished, the time spent and an estimate of the
    time left (the rounds left, this row's and the next rows', at this row's pace)."""

    def __init__(self, stream: TextIO | None, hands: int) -> None:
        self.stream, self.hands, self.name, self.after = stream, hands, "", 0
        self.began = self.row_began = time.monotonic()

    def start(self, name: str, after: int) -> None:
        """A row starts, with ``after`` rows to play after it."""
        self.name, self.after, self.row_began = name, after, time.monotonic()

    def show(self, text: str) -> None:
        """Show a row's ``PROGRESS`` line from the student's process (any other printed line is dropped)."""
        if self.stream is None or not text.startswith(PROGRESS) or len(text) > 60:
            return
        try:
            done = int(text[len(PROGRESS):])
        except ValueError:
            return
        now = time.monotonic()
        pace = (now - self.row_began) / done if done > 0 else math.nan
        left = (self.hands - done + self.after * self.hands) * pace
        estimate = f"about {left:.0f} s left" if left == left else "time left not known yet"
        self.stream.write(f"\r{self.name}: {done:,} of {self.hands:,} rounds; {now - self.began:.0f} s, "
                          f"{estimate}\x1b[K")
        self.stream.flush()

    def clear(self) -> None:
        """Rub the line out."""
        if self.stream is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _time_the_kit(project: Path, result: DefendResult, options: dict[str, Any], left: float) -> None:
    """Time the kit's own hint functions on the calls the student's rows made (their samples), in a process of the
    kit's code, into ``result.kit``; or say in ``result.kit_note`` why not."""
    from .demo import find_reference

    samples: dict[str, list[Any]] = {}
    for row in result.rows:
        samples.update(row.samples)
    kit = find_reference(project)
    if not samples or kit == project:
        return
    if kit is None:
        result.kit_note = "the kit's own code is not here to compare with"
        return
    try:
        with Host(kit, "defend_play") as host:
            host("setup", {**options, "project": str(kit)}, timeout=max(left, 30))
            got = host("timing", samples, timeout=max(left, 30))
        result.kit = {name: float(got[name]) for name in TIMED if isinstance(got, dict) and name in got}
    except (StudentError, StudentGone, StudentTimeout, TypeError, ValueError) as err:
        result.kit_note = f"the kit's code could not be timed: {str(err)[:200]}"


def _row(data: object) -> Row:
    """A row as the student's process sent it, every field checked and bounded (a broken one: an error row)."""
    data = data if isinstance(data, dict) else {}
    try:
        row = Row(str(data.get("key", "hints"))[:20], status=str(data.get("status", "ok"))[:20],
                  message=str(data.get("message", ""))[:400], stopped=data.get("stopped") is True)
        for name in ("edge", "se", "ev_lost", "average_bet", "seconds", "lost"):
            if name in data:
                setattr(row, name, float(data[name]))
        row.rounds, row.decisions = int(data.get("rounds", 0)), int(data.get("decisions", 0))
        row.situations = [(str(where)[:40], str(you)[:20], str(best)[:20], int(n), float(lost))
                          for where, you, best, n, lost in list(data.get("situations", []))[:SITUATIONS]]
        calls, samples = data.get("calls", {}), data.get("samples", {})
        row.calls = {name: (int(calls[name][0]), float(calls[name][1])) for name in TIMED if name in calls}
        row.samples = {name: list(samples[name])[:SAMPLES] for name in TIMED if name in samples}
    except (TypeError, ValueError, IndexError, KeyError) as err:
        return Row(str(data.get("key", "hints"))[:20], status="error",
                   message=f"the process playing your code sent a row that does not read ({type(err).__name__})")
    return row
