"""Ten rounds of the student's own course game with money, for the diary: "see how much you win/lose over 10 rounds".

The course (weeks 2-3): "play a few hands and try your luck ... Get a feel for what good strategy is and
see how much you win/lose over 10 rounds." :func:`play_ten_rounds` plays the student's week-2 game at the
cs111_money table (:data:`BANKROLL` each, the shoe seeded with :data:`SEED`), the student answering at the
keyboard or from a script, then the same table with two bots (:data:`PLAYERS`) to compare;
:func:`milestones.check.append_ten_rounds` writes the rows into the diary.

The student's code runs in the student's process of the tools (:mod:`milestones.host`), so a syntax error in
it is one line, not a traceback, and a game that loops is stopped after ``timeout``. The game is replayed
from the start with the answers so far at each question (it is seeded, so it replays the same), which keeps
the student's process free of the keyboard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .grader.judge import StudentError, StudentGone, StudentTimeout
from .host import Host

__all__ = ["BANKROLL", "BET", "PLAYERS", "ROUNDS", "SEED", "TenRounds", "play_ten_rounds"]

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
        student's code), a game that did not end in time, answers that ran out, or a game quit before ten
        rounds.
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
            compared = host("bots", str(project.resolve()), timeout=timeout)
        except StudentTimeout:
            return TenRounds(problem=f"the game did not end within {timeout:g} s (a loop that never ends?)")
        except StudentGone as gone:
            return TenRounds(problem=host.ended(gone, "the game's process ended without a summary"))
        except StudentError as err:
            return TenRounds(problem=f"the game's process ended without a summary: {err.text}")
    if compared["problem"]:
        return TenRounds(_last(lines), problem=f"the bots' rounds: {compared['problem']}")
    strategies = dict(PLAYERS)
    rows = [*reply["rows"], *[[f"1-{ROUNDS}", name, "", "", result, net] for name, result, net in reply["totals"]],
            *[[f"1-{ROUNDS}", f"{name} (bot: {strategies[name]})", str(BET), "", result, net]
              for name, result, net in compared["totals"]]]
    return TenRounds(_last(lines), rows)


def _last(lines: list[str]) -> list[str]:
    """The summary's lines, or the game's last five lines when there is no summary."""
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("Session summary")), None)
    return lines[start:] if start is not None else lines[-5:]
