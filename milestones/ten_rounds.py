"""Ten rounds of the student's own course game with money, for the diary: "see how much you win/lose over 10 rounds".

The course (weeks 2-3): "play a few hands and try your luck ... Get a feel for what good
strategy is and see how much you win/lose over 10 rounds." ``python -m milestones
tenrounds`` plays them: :func:`play_ten_rounds` runs the student's week-2 game
(``blackjack.course_game.run`` at the cs111_money table, each player with
:data:`BANKROLL` credits, the shoe seeded with :data:`SEED`), the student answering every
bet and move question at the keyboard or from a script, and records each round from the
table (each player's bet, moves, result and net). Then the same table plays the ten rounds
with two bots (:data:`PLAYERS`, bets of :data:`BET`) as a comparison, read from the
student's session summary. :func:`milestones.check.append_ten_rounds` writes the rows into
the diary's "Ten rounds" table.

The student's code runs in the student's process of the tools (:mod:`milestones.host`;
``blackjack`` only from the project folder), as in the demo, so nothing here imports it: a
syntax error in it is one line, not a traceback; a game that loops is stopped after
``timeout``. The game is replayed from the start with the answers so far at each question
(it is seeded, so it replays the same), which keeps the student's process free of the
keyboard.

==========================  ===========================================================
name                        what it is
==========================  ===========================================================
``PLAYERS``                 the two bots: a name and the strategy it plays, in words
``TenRounds``               what came back: the game's last lines, the diary's rows, or why not
``play_ten_rounds(..)``     play the student's rounds and the bots' on a project's code
``summary_rows(lines, ..)`` the rows of a summary's lines (rounds, won, lost, pushed, net)
==========================  ===========================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .grader.judge import StudentError, StudentGone, StudentTimeout
from .host import Host

__all__ = ["BANKROLL", "BET", "PLAYERS", "ROUNDS", "SEED", "TenRounds", "play_ten_rounds", "summary_rows"]

#: Rounds played: the course's "10 rounds".
ROUNDS = 10

#: The shoe's seed: the same code plays the same rounds every time.
SEED = 2012

#: The bots' bet, credits (the cs111_money table's minimum).
BET = 10

#: Each of the student's players' starting credits (``python -m blackjack --rules cs111 --bankroll 100``).
BANKROLL = 100

#: The bots: a name, and the strategy that answers its hit-or-stand questions in the diary's words. They are
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
        lines: what the student's game said when it ended: the session summary's lines (when there is no
            summary, the game's last lines; empty when it did not start).
        rows: the diary's rows, as text: ``[round, player, bet, moves, result, net]`` for each round of each
            player of the student's session, then each player's ten rounds (``1-10``, the name, ``""``,
            ``""``, ``"5 won, 4 lost, 1 pushed"``, the net) and each bot's; empty when there are none.
        problem: why there are no rows, in one line (``""`` when there are).
    """

    lines: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    problem: str = ""


def summary_rows(lines: list[str], names: list[str]) -> list[list[str]]:
    """Read the session summary's lines into one row per player ``names``.

    The summary's contract (milestones/specs/milestone2.md, step 2): a line per player that
    holds the player's name and then five numbers: rounds played, hands won, lost, pushed,
    and the net in credits.

    Returns:
        ``[name, rounds, won, lost, pushed, net]`` per player, the numbers as text (the net
        signed: ``+20``, ``-7.5``, ``0``).

    Raises:
        ValueError: no line starts with ``Session summary``, or a player has no line of
            their own after it, or that line does not hold five numbers after the name.
    """
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("Session summary")), None)
    if start is None:
        raise ValueError("the game's last lines hold no 'Session summary' line")
    rows = []
    for name in names:
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
        rows.append([name, *(str(count) for count in counts), _signed(net)])
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


def play_ten_rounds(project: Path, ask: Callable[[str], str], say: Callable[[str], None], *,
                    names: Sequence[str] = ("You",), timeout: float = 30.0) -> TenRounds:
    """Play the student's ten rounds, then the bots', on the code in ``project`` (the play
    :mod:`milestones.plays.ten_rounds_play` in the student's process, :mod:`milestones.host`).

    Args:
        project: the student's project folder.
        ask: answers one question of the game (the prompt in, the answer out, like :func:`input`); ``EOFError``
            when there is no answer (a script that ended).
        say: writes one line of the game as it is played.
        names: the student's players.
        timeout: seconds each replay of the game may take before it is stopped.

    Returns:
        The summary's lines and the diary's rows, or a :class:`TenRounds` whose ``problem`` says in one line why
        there are none: code not written yet (its function and what to write), an exception (its line in the
        student's code), a game that did not end in time, answers that ran out, a game quit before ten rounds,
        or summary lines that do not say what the spec asks.
    """
    answers: list[str] = []
    shown = 0
    with Host(project, "ten_rounds_play") as host:
        try:
            while True:
                reply = host("session", str(project.resolve()), list(names), answers, timeout=timeout)
                lines = [str(line) for line in reply["lines"]]
                for line in lines[shown:]:
                    say(line)
                shown = len(lines)
                if reply["prompt"] is None:
                    break
                try:
                    answers.append(ask(str(reply["prompt"])))
                except EOFError:
                    return TenRounds(problem=f"the answers ended after {len(answers)}, before the ten rounds did")
            if reply["problem"]:
                return TenRounds(_last(lines), problem=str(reply["problem"]))
            totals = summary_rows(lines, list(names))
            compared = host("bots", str(project.resolve()), timeout=timeout)
            theirs = summary_rows([str(line) for line in compared["lines"]], [name for name, _ in PLAYERS])
        except StudentTimeout:
            return TenRounds(problem=f"the game did not end within {timeout:g} s (a loop that never ends?)")
        except StudentGone as gone:
            return TenRounds(problem=host.ended(gone, "the game's process ended without a summary"))
        except StudentError as err:
            return TenRounds(problem=f"the game's process ended without a summary: {err.text}")
        except ValueError as err:
            return TenRounds(_last(lines), problem=str(err))
    strategies = dict(PLAYERS)
    rows = [*reply["rows"],
            *[[f"1-{ROUNDS}", name, "", "", f"{won} won, {lost} lost, {pushed} pushed", net]
              for name, _rounds, won, lost, pushed, net in totals],
            *[[f"1-{ROUNDS}", f"{name} (bot: {strategies[name]})", str(BET), "", f"{won} won, {lost} lost, {pushed} pushed",
               net] for name, _rounds, won, lost, pushed, net in theirs]]
    return TenRounds(_last(lines), rows)


def _last(lines: list[str]) -> list[str]:
    """The summary's lines, or the game's last five lines when there is no summary."""
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("Session summary")), None)
    return lines[start:] if start is not None else lines[-5:]
