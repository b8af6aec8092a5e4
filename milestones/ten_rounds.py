"""Ten rounds of the student's course game with money, for the diary: "see how much you win/lose over 10 rounds".

The course (weeks 2-3): "play solely by house dealer rules (hit/stand on soft 17s). Get a
feel for what good strategy is and see how much you win/lose over 10 rounds."
:func:`play_ten_rounds` plays that experiment on the student's own code: the week-1
course game (``blackjack.course_game.run``, its ``play_round`` and the rest) for
:data:`ROUNDS` rounds at the cs111 table with money (every seat bets :data:`BET`, the
table minimum, through the student's ``check_bet``, ``take_stake``, ``payout`` and
``pay``), the shoe seeded with :data:`SEED`, two players answering every hit-or-stand
question by a fixed strategy (:data:`PLAYERS`). The game ends with the student's
session summary (``summary_lines``); its lines are read back here into one row per
player, which ``python -m milestones check`` writes into the diary's "Ten rounds" table
(:func:`milestones.check.append_ten_rounds`).

The student's code runs in a process of its own (``python -I``; ``blackjack`` only from
the project folder), as in the demo, so nothing here imports it: a syntax error in it is
one line, not a traceback of ``check``; a game that loops is stopped after ``timeout``.

==========================  ===========================================================
name                        what it is
==========================  ===========================================================
``PLAYERS``                 the two seats: a name and the strategy it plays, in words
``TenRounds``               what came back: the summary's lines, one row per player, or why not
``play_ten_rounds(..)``     play the rounds on a project's code and read its summary
``summary_rows(lines)``     the rows of a summary's lines (rounds, won, lost, pushed, net)
==========================  ===========================================================
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

__all__ = ["BET", "PLAYERS", "ROUNDS", "SEED", "TenRounds", "play_ten_rounds", "summary_rows"]

#: Rounds played: the course's "10 rounds".
ROUNDS = 10

#: The shoe's seed: the same code plays the same rounds every time.
SEED = 2012

#: Every seat's bet, credits (the table minimum, which the course game bets by default).
BET = 10

#: The seats: a name, and the strategy that answers its hit-or-stand questions in the diary's words. They are
#: the simulator's ``mimic-dealer`` and ``never-bust`` (``python -m blackjack.sim --strategy mimic-dealer
#: never-bust``): the first plays "solely by house dealer rules", as the course suggests, the second never
#: risks a bust.
PLAYERS: tuple[tuple[str, str], ...] = (("Mimic", "hits below 17, as the dealer must"),
                                        ("Cautious", "hits hard 11 or less and soft 17 or less: never busts"))

#: A number in a summary line: ``10``, ``+7.5``, ``-12.5``, ``15/2`` (as the milestone-2 tests read it).
_NUMBER = re.compile(r"(?<![\w./])[+-]?\d+(?:\.\d+)?(?:/\d+)?(?![\w./])")


@dataclass
class TenRounds:
    """The experiment's outcome.

    Attributes:
        lines: what the game said when it ended: the session summary's lines (when there is no summary, the
            game's last lines; empty when it did not start).
        rows: per player ``[name, strategy, rounds, won, lost, pushed, net]`` as text, read from ``lines``
            (empty when they cannot be read).
        problem: why there are no rows, in one line (``""`` when there are).
    """

    lines: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    problem: str = ""


def summary_rows(lines: list[str]) -> list[list[str]]:
    """Read the session summary's lines into one row per player of :data:`PLAYERS`.

    The summary's contract (milestones/specs/milestone2.md, step 2): a line per player that
    holds the player's name and then five numbers: rounds played, hands won, lost, pushed,
    and the net in credits.

    Returns:
        ``[name, strategy, rounds, won, lost, pushed, net]`` per player, the numbers as text
        (the net signed: ``+20``, ``-7.5``, ``0``).

    Raises:
        ValueError: no line starts with ``Session summary``, or a player has no line of
            their own after it, or that line does not hold five numbers after the name.
    """
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("Session summary")), None)
    if start is None:
        raise ValueError("the game's last lines hold no 'Session summary' line")
    rows = []
    for name, strategy in PLAYERS:
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        found = [line for line in lines[start + 1:] if pattern.search(line)]
        if len(found) != 1:
            raise ValueError(f"the summary should give {name} one line; {len(found)} lines name {name}")
        match = pattern.search(found[0])
        assert match is not None
        numbers = _NUMBER.findall(found[0][match.end():])
        if len(numbers) != 5:
            raise ValueError(f"{name}'s summary line should hold five numbers (rounds, won, lost, pushed, net), "
                             f"it holds {len(numbers)}: {found[0].strip()!r}")
        *counts, net = (Fraction(text) for text in numbers)
        rows.append([name, strategy, *(str(count) for count in counts), _signed(net)])
    return rows


def _signed(amount: Fraction) -> str:
    """``+7.5``, ``-10``, ``0``: an exact amount with its sign (a non-decimal one as ``10/3``)."""
    sign = "+" if amount > 0 else "-" if amount < 0 else ""
    amount = abs(amount)
    if amount.denominator == 1:
        return f"{sign}{amount.numerator}"
    tens = amount.denominator
    for prime in (2, 5):
        while tens % prime == 0:
            tens //= prime
    if tens != 1:
        return f"{sign}{amount}"
    whole, part = divmod(amount, 1)
    digits = ""
    while part:
        part *= 10
        digits += str(part.numerator // part.denominator)
        part -= part.numerator // part.denominator
    return f"{sign}{whole}.{digits}"


def play_ten_rounds(project: Path, *, timeout: float = 30.0) -> TenRounds:
    """Play the experiment on the code in ``project`` (the folder holding its ``blackjack``), in a process of its own.

    Args:
        project: the student's project folder.
        timeout: seconds the game may take before it is stopped.

    Returns:
        The summary's lines and rows, or a :class:`TenRounds` whose ``problem`` says in one
        line why there are none: code not written yet (its function and what to write),
        an exception (its line in the student's code), a game that did not end in time,
        or summary lines that do not say what the spec asks.
    """
    boot = ("import importlib.util, sys\n"
            "spec = importlib.util.spec_from_file_location('_ten_rounds', sys.argv[1])\n"
            "module = importlib.util.module_from_spec(spec)\n"
            "sys.modules['_ten_rounds'] = module\n"
            "spec.loader.exec_module(module)\n"
            "module._serve(sys.argv[2])\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    env["PYTHONIOENCODING"] = "utf-8"
    try:
        done = subprocess.run([sys.executable, "-I", "-c", boot, str(Path(__file__).resolve()), str(project.resolve())],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, cwd=project, env=env)
    except subprocess.TimeoutExpired:
        return TenRounds(problem=f"the game did not end within {timeout:g} s (a loop that never ends?)")
    reply = None
    for line in reversed(done.stdout.decode("utf-8", "replace").splitlines()):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and "ten_rounds" in data:
            reply = data["ten_rounds"]
            break
    if not isinstance(reply, dict):
        last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        return TenRounds(problem=f"the game's process ended without a summary (exit status {done.returncode})"
                                 + (f": {last}" if last else ""))
    lines = [str(line) for line in reply.get("lines", [])]
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("Session summary")), None)
    lines = lines[start:] if start is not None else lines[-5:]  # the summary, or how the game ended
    if reply.get("problem"):
        return TenRounds(lines, problem=str(reply["problem"]))
    try:
        return TenRounds(lines, summary_rows(lines))
    except ValueError as err:
        return TenRounds(lines, problem=str(err))


# ====================================================================== the student's process

def _serve(project: str) -> None:
    """The student's process: play the rounds on ``project``'s ``blackjack`` and print one JSON line,
    ``{"ten_rounds": {"lines": [...], "problem": "..."}}``; what the student's code prints goes nowhere."""
    import contextlib
    import io

    sys.path.insert(0, project)
    real = sys.stdout
    said: list[str] = []
    problem = ""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            problem = _play(project, said)
        except NotImplementedError as err:
            from blackjack.errors import unwritten
            problem = unwritten(err)
        except BaseException as err:  # noqa: BLE001 - anything the student's code does is reported in one line
            problem = _mistake(err)
    real.write(json.dumps({"ten_rounds": {"lines": said, "problem": problem}}) + "\n")
    real.flush()


def _play(project: str, said: list[str]) -> str:
    """Play :data:`ROUNDS` rounds of the course game into ``said``; return a problem in one line, or ``""``."""
    import dataclasses

    import blackjack
    if not Path(str(blackjack.__file__)).resolve().is_relative_to(Path(project).resolve()):
        return f"blackjack was not imported from {project}"
    from blackjack import Blackjack, Rules, course_game

    rules = dataclasses.replace(Rules.preset("cs111"), wagering=True, min_bet=Fraction(BET),
                                description="The cs111 game with money: every seat bets the minimum.")
    game = Blackjack([name for name, _ in PLAYERS], rules, seed=SEED)
    course_game.summary_lines(game)  # still a starter stub? Then say so now, not after the rounds

    def ask(prompt: str) -> str:
        rnd = game.round
        if rnd is None or rnd.turn is None:
            return "n" if "again" in prompt.lower() else "s"
        seat, hand = rnd.turn
        shown = rnd.view().seats[seat].hands[hand]
        if seat == 0:  # Mimic: the dealer's rule (cs111 stands on soft 17)
            hit = shown.total < 17 or (shown.total == 17 and shown.soft and rules.dealer_hits_soft_17)
        else:  # Cautious: no card can bust a hard 11 or a soft total
            hit = shown.total <= (17 if shown.soft else 11)
        return "h" if hit else "s"

    status = course_game.run(game, ask, said.append, rounds=ROUNDS)
    if status != 0:
        return said[-1] if said else f"the game ended with status {status}"
    if game.rounds_played != ROUNDS:
        return f"the game played {game.rounds_played} rounds, not {ROUNDS}"
    return ""


def _mistake(err: BaseException) -> str:
    """One line for an exception from the student's code: its kind, text and the deepest line in the project."""
    where = ""
    tb = err.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        parts = Path(code.co_filename).parts
        if "blackjack" in parts:
            where = f" (in {code.co_name}, {'/'.join(parts[parts.index('blackjack'):])}:{tb.tb_lineno})"
        tb = tb.tb_next
    return f"{type(err).__name__}: {err}{where}"
