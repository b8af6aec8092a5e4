"""The course's ten rounds, run in the student's process (through :mod:`milestones.host`): the student's week-1
course game with money, played by :data:`milestones.ten_rounds.PLAYERS`; what the game said comes back as lines.
"""

from __future__ import annotations

import contextlib
import io
from fractions import Fraction
from pathlib import Path

from milestones.grader.protocol import TestTimeout
from milestones.ten_rounds import BET, PLAYERS, ROUNDS, SEED

__all__ = ["play"]


def play(project: str) -> dict[str, object]:
    """Play :data:`~milestones.ten_rounds.ROUNDS` rounds on ``project``'s ``blackjack``; return
    ``{"lines": [...], "problem": "..."}``: what the game said, and why it did not finish ("" when it did).
    What the student's code prints goes nowhere."""
    said: list[str] = []
    problem = ""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            problem = _play(project, said)
        except NotImplementedError as err:
            from blackjack.errors import unwritten
            problem = unwritten(err)
        except TestTimeout:
            raise  # the time limit: the host says the game did not end in time
        except BaseException as err:  # noqa: BLE001 - anything the student's code does is reported in one line
            problem = _mistake(err)
    return {"lines": said, "problem": problem}


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
