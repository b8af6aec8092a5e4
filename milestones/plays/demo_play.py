"""The demo's play of one scene, on the ``blackjack`` package importable now: in the student's process (the
host's call :func:`play_scene`) and, for the rules' play, in the demo's own process (:func:`reference_record`).
Each play is kept as plain data (:data:`~milestones.demo_scenes.Record`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from milestones.demo_scenes import SCENES, Record, Scene
from milestones.grader.observer import time_limit

if TYPE_CHECKING:  # imported when a scene plays: it must be the project's package, not the kit's
    from blackjack import Blackjack, Round, TableView

__all__ = ["SceneTimeout", "play_scene", "reference_record", "run_scene"]


class SceneTimeout(Exception):
    """A scene ran longer than its time limit."""


def play_scene(key: str, options: dict[str, Any]) -> dict[str, Any]:
    """Play the scene ``key`` (``"milestone:index"``) on the project's packages, printing what it shows (the host
    sends each line to the demo as it comes); return ``{"status": ..., "record": ...}`` (see :func:`run_scene`).
    ``options``: ``scene_timeout`` (seconds)."""
    number, index = map(int, key.split(":"))
    status, record = run_scene(SCENES[number][index], print,
                               scene_timeout=options["scene_timeout"])
    return {"status": status, "record": record}


def _place(tb: TracebackType | None) -> str:
    """`` (in Hand.get_score, blackjack/hand.py:88)`` for the deepest frame in the student's packages."""
    place = ""
    while tb is not None:
        code = tb.tb_frame.f_code
        parts = code.co_filename.replace("\\", "/").split("/")
        for package in ("blackjack", "gui"):
            if package in parts:
                index = len(parts) - 1 - parts[::-1].index(package)
                place = f" (in {code.co_qualname}, {'/'.join(parts[index:])}:{tb.tb_lineno})"
                break
        tb = tb.tb_next
    return place


#: How many answers the week-1 game may ask for in one scene before the demo calls it a loop.
_MAX_ASKS = 30

#: Where a scene writes what it shows, one line at a time.
Say = Callable[[str], None]


def _codes(cards: Sequence[object]) -> list[str]:
    """Card codes (``"Th"``), ``"??"`` for the face-down hole card (``HIDDEN``)."""
    return [getattr(card, "code", "??") if not isinstance(card, str) else card for card in cards]


def _step(view: TableView, took: str, hint: bool) -> Record:
    """One decision as plain data: whose hand, its cards and total, the bankroll, what was offered and taken."""
    seat, hand = view.turn if view.turn is not None else (0, 0)
    shown = view.seats[seat].hands[hand] if view.seats[seat].hands else None
    step: Record = {"seat": seat, "hand": hand, "who": view.seats[seat].name,
                    "cards": _codes(shown.cards) if shown else [], "total": shown.total_text if shown else "",
                    "bankroll": str(view.seats[seat].bankroll), "bet": str(shown.bet) if shown else "0",
                    "upcard": view.dealer.upcard.code if view.dealer.upcard is not None else "??",
                    "phase": view.phase.name,
                    "offered": sorted(a.value for a in view.legal_actions), "took": took}
    if hint and shown is not None and view.dealer.upcard is not None and view.phase.name != "INSURANCE":
        from blackjack.hints.advice import basic_advice
        step["hint"] = basic_advice(shown.cards, view.dealer.upcard, view.rules, legal=view.legal_actions)[0].value
    return step


def _table_record(rnd: Round, steps: list[Record]) -> Record:
    """A finished round as plain data: the decisions, the dealer's cards and total, each hand's end."""
    view = rnd.view()
    hands = [{"seat": s, "hand": h, "who": view.seats[s].name, "cards": _codes(view.seats[s].hands[h].cards),
              "total": view.seats[s].hands[h].total_text, "natural": view.seats[s].hands[h].is_blackjack,
              "result": o.result.name,
              "net": str(o.net) if view.rules.wagering else None,  # money as plain data: "15", "15/2"
              "bankroll": str(view.seats[s].bankroll) if view.rules.wagering else None}
             for s, h, o in rnd.outcomes()]
    return {"kind": "table", "rules": view.rules.name, "steps": steps,
            "dealer": {"cards": _codes(view.dealer.cards), "total": view.dealer.total_text}, "hands": hands}


def _table(scene: Scene, listeners: Sequence[Callable[[Any], None]] = ()) -> Blackjack:
    """The table of ``scene`` with its stacked shoe, on the ``blackjack`` package importable now."""
    from blackjack import Blackjack, Player, Rules

    rules = Rules.preset(scene.rules)
    bankroll = rules.starting_bankroll if scene.bankroll is None else scene.bankroll
    players = [Player(name, bankroll) for name in scene.players]
    game = Blackjack(players, rules, seed=2012, listeners=list(listeners))
    game.shoe.stack(scene.cards.split())
    return game


def _play_course_scene(scene: Scene, say: Say) -> tuple[list[tuple[int, int, str, int | None]], Record]:
    """Play one scene through the student's own course game: week 1's ``play_round``, or, under rules with money,
    week 2's ``play_money_round``; return the hands' ends and the record.

    The answers are typed from the scene, as a person's would be, and echoed after the prompt: each seat's bet
    (``scene.bets``) while no round is dealt, then ``scene.decisions`` by their letters (``h``, ``s``, ``d``,
    ``p``, ``i``); during the insurance offer a decision that is not insurance waits and ``n`` declines; when the
    decisions run out, ``s`` (``n`` during the offer).

    Raises:
        RuntimeError: the game asked for more than :data:`_MAX_ASKS` answers (it keeps asking a player whose turn
            is over, or keeps refusing an answer).
    """
    from blackjack import Action, Phase, course_game

    game = _table(scene)
    rounds: list[Round] = []
    start = game.start_round

    def keep(*args: Any, **kwargs: Any) -> Round:
        rounds.append(start(*args, **kwargs))
        return rounds[-1]

    game.start_round = keep  # type: ignore[method-assign]  # the round the student's game starts
    bets = [str(bet) for bet in scene.bets]
    decisions = list(scene.decisions)
    steps: list[Record] = []
    asked = [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        if asked[0] > _MAX_ASKS:
            raise RuntimeError(f"the game asked {_MAX_ASKS} questions in one round: does it keep asking a "
                               f"player who stood or busted, or refuse every answer?")
        if not rounds:
            answer = bets.pop(0) if bets else "0"
        else:
            view = rounds[-1].view()
            offer = view.phase is Phase.INSURANCE
            wanted = decisions[0] if decisions else None
            if wanted is None or offer != (wanted in ("insurance", "decline")):
                answer = "n" if offer else "s"
            else:
                answer = Action(decisions.pop(0)).key
            steps.append(_step(view, Action.parse(answer).value, scene.hint))
            if "hint" in steps[-1]:
                say(f"(the hint says {steps[-1]['hint']})")
        say(f"{prompt}{answer}")
        return answer

    play = course_game.play_money_round if game.rules.wagering else course_game.play_round
    outcomes = play(game, ask, say)
    if not rounds:
        raise RuntimeError("the round was not started with game.start_round()")
    money = game.rules.wagering
    return ([(s, h, o.result.name, int(o.net) if money and o.net == int(o.net) else None) for s, h, o in outcomes],
            _table_record(rounds[-1], steps))


def _window(shell: Any, press: str, error: str | None) -> Record:
    """What the student's window shows after a press, as plain data."""
    return {"press": press, "dealer": list(shell.shown("dealer")), "player": list(shell.shown("player")),
            "dealer_total": shell.text("dealer_total"), "player_total": shell.text("player_total"),
            "result": shell.text("result"), "buttons": list(shell.enabled()), "error": error}


def _play_shell_scene(scene: Scene, say: Say) -> tuple[list[tuple[int, int, str, int | None]], Record]:
    """Play one scene in the student's milestone-3 window: Deal, then each decision as a button press.

    The window opens on ``$DISPLAY`` (the demo's process starts a private Xvfb when there is none).
    After each press the window is read back (cards, totals, result, enabled buttons, an error in the
    status line) into the record.
    """
    import tkinter as tk

    from gui.shell import Shell

    from blackjack import Rules

    root = tk.Tk()
    try:
        root.withdraw()
        shell = Shell(root, Rules.preset(scene.rules), name=scene.players[0], seed=2012)
        shell.game.shoe.stack(scene.cards.split())
        root.update()
        presses: list[Record] = []
        for press in ("deal", *scene.decisions):
            if press not in shell.enabled():
                say(f"  the {press.capitalize()} button is disabled: the scene stops here")
                break
            errors = len(shell.errors)
            shell.buttons[press].invoke()
            root.update()
            error = shell.errors[-1] if len(shell.errors) > errors else None
            presses.append(_window(shell, press, error))
            now = presses[-1]
            say(f"{press.capitalize()}: dealer {' '.join(now['dealer'])} ({now['dealer_total']}) | "
                f"{scene.players[0]} {' '.join(now['player'])} ({now['player_total']}) | "
                f"result {now['result'] or '-'} | buttons {', '.join(b.capitalize() for b in now['buttons']) or '-'}")
            if error:
                say(f"  the window reported: {error}")
        rnd = shell.round
        ends: list[tuple[int, int, str, int | None]] = [] if rnd is None else [
            (s, h, o.result.name, None) for s, h, o in rnd.outcomes()]
        return ends, {"kind": "shell", "rules": scene.rules, "presses": presses}
    finally:
        root.destroy()


def _reference_shell_record(scene: Scene) -> Record:
    """What the window should show after each press of ``scene``, from the engine's view and the kit's
    ``button_states``/``round_result`` (the milestone-3 spec's rendering), without opening a window."""
    from gui.shell import button_states, round_result

    from blackjack import Action

    game = _table(scene)
    presses: list[Record] = []
    rnd = None
    for press in ("deal", *scene.decisions):
        if rnd is None:
            rnd = game.start_round()
        else:
            rnd.apply(Action(press))
        if rnd.phase.name == "SETTLED" and game.round is rnd:
            game.finish_round()
        view = rnd.view()
        hand = view.seats[0].hands[0]
        presses.append({"press": press, "dealer": _codes(view.dealer.cards), "player": _codes(hand.cards),
                        "dealer_total": view.dealer.total_text, "player_total": hand.total_text,
                        "result": round_result(view), "buttons": [k for k, on in button_states(view).items() if on],
                        "error": None})
    return {"kind": "shell", "rules": scene.rules, "presses": presses}


def reference_record(scene: Scene) -> Record:
    """The record of ``scene`` played on the ``blackjack`` package importable now (the kit's, in the judge)."""
    return _reference_shell_record(scene) if scene.shell else _play_course_scene(scene, lambda text: None)[1]


def _play_one(scene: Scene, say: Say) -> tuple[list[tuple[int, int, str, int | None]], Record]:
    """Play ``scene`` the way it is shown (the course game or the window); return the hands' ends and the record."""
    return _play_shell_scene(scene, say) if scene.shell else _play_course_scene(scene, say)


def run_scene(scene: Scene, say: Say, *,
               scene_timeout: float) -> tuple[str, Record | None]:
    """Play ``scene`` with the student's code, stopping it on an error, a loop or ``sys.exit``.

    Returns:
        ``(status, record)``: status ``"ok"`` when every hand ended as ``scene.expect`` says (else
        ``"not as it should"`` after a line saying how, or ``"stopped: ..."``, the record None).
    """
    try:
        with time_limit(scene_timeout, stop=lambda _message: SceneTimeout()):
            ends, record = _play_one(scene, say)
    except NotImplementedError as err:
        from blackjack.errors import unwritten
        status = f"stopped: {unwritten(err)}"
    except SceneTimeout:
        status = f"stopped after {scene_timeout:g} s{_place(sys.exc_info()[2])}: a loop that never ends?"
    except SystemExit as err:  # the student's code ended the program: that stops this scene, not the demo
        code = "" if err.code is None else repr(err.code)
        status = f"stopped: your code called sys.exit({code}){_place(err.__traceback__)}"
    except Exception as err:  # the student's code failed: say where, and go on with the next scene
        status = f"stopped: {type(err).__name__}: {err}{_place(err.__traceback__)}"
    else:
        want = list(scene.expect)
        if ends == want:
            return "ok", record
        say("  NOT as it should: " + "; ".join(
            f"{scene.players[s]}{f' hand {h + 1}' if len({h2 for s2, h2, _r, _n in want if s2 == s}) > 1 else ''} "
            f"should end {r}" + ("" if n is None else f" {n:+d}") for s, h, r, n in want)
            + "; it ended " + "; ".join(f"{scene.players[s]} {r}" + ("" if n is None else f" {n:+d}")
                                         for s, h, r, n in ends))
        return "not as it should", record
    say(f"  {status}")
    return status, None
