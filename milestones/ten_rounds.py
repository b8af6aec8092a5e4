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

The student's code runs in the student's process of the tools (:mod:`milestones.host`;
``blackjack`` only from the project folder), as in the demo, so nothing here imports it: a
syntax error in it is one line, not a traceback of ``check``; a game that loops is stopped
after ``timeout``.

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

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .grader.judge import StudentError, StudentGone, StudentTimeout
from .host import Host

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
    """Play the experiment on the code in ``project`` (the folder holding its ``blackjack``), in the student's process
    (:mod:`milestones.host`, the play :mod:`milestones.plays.ten_rounds_play`).

    Args:
        project: the student's project folder.
        timeout: seconds the game may take before it is stopped.

    Returns:
        The summary's lines and rows, or a :class:`TenRounds` whose ``problem`` says in one
        line why there are none: code not written yet (its function and what to write),
        an exception (its line in the student's code), a game that did not end in time,
        or summary lines that do not say what the spec asks.
    """
    with Host(project, "ten_rounds_play") as host:
        try:
            reply = host("play", str(project.resolve()), timeout=timeout)
        except StudentTimeout:
            return TenRounds(problem=f"the game did not end within {timeout:g} s (a loop that never ends?)")
        except StudentGone as gone:
            return TenRounds(problem=host.ended(gone, "the game's process ended without a summary"))
        except StudentError as err:
            return TenRounds(problem=f"the game's process ended without a summary: {err.text}")
    if not isinstance(reply, dict):
        return TenRounds(problem="the game's process ended without a summary")
    lines = [str(line) for line in reply.get("lines", [])]
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("Session summary")), None)
    lines = lines[start:] if start is not None else lines[-5:]  # the summary, or how the game ended
    if reply.get("problem"):
        return TenRounds(lines, problem=str(reply["problem"]))
    try:
        return TenRounds(lines, summary_rows(lines))
    except ValueError as err:
        return TenRounds(lines, problem=str(err))
