"""The course's ten rounds, run in the student's process (through :mod:`milestones.host`): the student's course game
with money (``blackjack.course_game.run`` at the cs111_money table), played by the student (:func:`session`, replayed
from the answers so far) or by the two bots of :data:`milestones.ten_rounds.PLAYERS` (:func:`bots`).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from milestones.grader.protocol import TestTimeout
from milestones.plays.demo_play import _place
from milestones.ten_rounds import BANKROLL, BET, PLAYERS, ROUNDS, SEED

__all__ = ["bots", "session"]


class _Waiting(BaseException):
    """The game asked past the answers given (a BaseException: ``run`` reports every Exception as a mistake)."""


def session(project: str, names: list[str], answers: list[str]) -> dict[str, object]:
    """Replay the student's ten rounds (``names`` seated with :data:`BANKROLL` each) with ``answers``; return
    ``{"lines", "prompt", "rows", "totals", "problem"}``: what the game said, the question past the answers (None
    when the game ended), each finished round's ``[round, name, bet, moves, result, net]`` per betting player, each
    player's ten rounds (:func:`_totals`), and why the game stopped short ("" when it did not)."""
    queue = list(answers)
    rows: list[list[str]] = []

    def ask(prompt: str) -> str:
        if not queue:
            raise _Waiting(prompt)
        return queue.pop(0)

    def table(game: Any) -> None:
        seated.append(game)
        finish = game.finish_round

        def recording(*args: Any, **kwargs: Any) -> Any:
            rnd = game.round
            outcomes = finish(*args, **kwargs)
            for seat, player in enumerate(game.players):
                if rnd.bet(seat) > 0:
                    mine = [o for s, _h, o in outcomes if s == seat]
                    net = sum((o.net for o in mine), Fraction(rnd.insurance_net(seat)))
                    rows.append([str(game.rounds_played), player.name, str(rnd.bet(seat)),
                                 " ".join(a.value for s, _h, a in rnd.history if s == seat),
                                 ", ".join(o.result.name.lower() for o in mine), _signed(net)])
            return outcomes
        game.finish_round = recording

    said: list[str] = []
    seated: list[Any] = []
    try:
        problem = _run(project, names, Fraction(BANKROLL), ask, said, table)
        return {"lines": said, "prompt": None, "rows": rows, "totals": _totals(seated), "problem": problem}
    except _Waiting as waiting:
        return {"lines": said, "prompt": str(waiting), "rows": rows, "totals": [], "problem": ""}


def bots(project: str) -> dict[str, object]:
    """Play the ten rounds with the bots (:data:`PLAYERS`, every bet :data:`BET`); return ``{"lines", "totals",
    "problem"}``."""
    def ask(prompt: str) -> str:
        rnd = game[0].round
        if rnd is None or rnd.turn is None:
            return str(BET)
        if rnd.phase.name == "INSURANCE":
            return "n"
        seat, hand = rnd.turn
        shown = rnd.view().seats[seat].hands[hand]
        if seat == 0:  # Mimic: the dealer's rule (cs111 stands on soft 17)
            hit = shown.total < 17 or (shown.total == 17 and shown.soft and rnd.rules.dealer_hits_soft_17)
        else:  # Cautious: no card can bust a hard 11 or a soft total
            hit = shown.total <= (17 if shown.soft else 11)
        return "h" if hit else "s"

    game: list[Any] = []
    said: list[str] = []
    problem = _run(project, [name for name, _ in PLAYERS], None, ask, said, game.append)
    return {"lines": said, "totals": _totals(game), "problem": problem}


def _totals(seated: list[Any]) -> list[list[str]]:
    """Each player's ten rounds from the table's ledgers (given code): ``[name, "5 won, 4 lost, 1 pushed", net]``."""
    return [[p.name, f"{p.ledger.wins} won, {p.ledger.losses} lost, {p.ledger.pushes} pushed", _signed(p.ledger.net)]
            for game in seated for p in game.players]


def _run(project: str, names: list[str], bankroll: Fraction | None, ask: Callable[[str], str], said: list[str],
         table: Callable[[Any], None]) -> str:
    """Play :data:`ROUNDS` rounds of the course game with money into ``said`` (``table`` sees the table first);
    return a problem in one line, or ``""``. What the student's code prints goes nowhere."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            import blackjack
            if not Path(str(blackjack.__file__)).resolve().is_relative_to(Path(project).resolve()):
                return f"blackjack was not imported from {project}"
            from blackjack import Blackjack, Player, Rules, course_game

            rules = Rules.preset("cs111_money")
            game = Blackjack([Player(name, rules.starting_bankroll if bankroll is None else bankroll)
                              for name in names], rules, seed=SEED)
            table(game)
            status = course_game.run(game, ask, said.append, rounds=ROUNDS)
            if status != 0:
                return said[-1] if said else f"the game ended with status {status}"
            if game.rounds_played != ROUNDS:
                return f"the game ended after {game.rounds_played} rounds, not {ROUNDS}"
            return ""
        except NotImplementedError as err:
            from blackjack.errors import unwritten
            return unwritten(err)
        except (TestTimeout, _Waiting):
            raise  # the time limit (the host says the game did not end in time), or the next question
        except BaseException as err:  # noqa: BLE001 - anything the student's code does is reported in one line
            return f"{type(err).__name__}: {err}{_place(err.__traceback__)}"


def _signed(amount: Fraction) -> str:
    """``+7.5``, ``-10``, ``0``."""
    from blackjack.money import format_money

    return ("+" if amount > 0 else "") + format_money(amount)
