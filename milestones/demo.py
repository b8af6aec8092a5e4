"""The Program Demo: ``python -m milestones demo`` plays the student's game through each situation the
milestone covers, in about two minutes, for the peer leader, and says where the play differs from the rules.

The course grades a Program Demo ("show your peer leader a demo of your code"). Played by
hand, the situations worth showing (a bust, a push, a natural, a double down, a split)
take many rounds of luck to come up; here each is a *scene*: a round dealt from a stacked
shoe through the student's own engine (``Blackjack``, ``Round.apply``; week 1 through their
text game, week 3 through their window, ``gui/shell.py``), with the table drawn by the
engine's text renderer and a line on what to point out.

Each scene's play is kept as plain data (JSON-able dicts: the cards each hand and the dealer
got, the totals shown, the actions offered at each decision, the hint, the results and money). The
student's code runs in a process of its own (:func:`run_demo` starts it; only the student's ``blackjack``
and ``gui`` are importable there, never the kit's), which sends that data back as JSON lines; the demo's
own process plays the same stacked shoe and decisions on the kit's engine (the reference, loaded from
the kit's clone or its installed wheel, never from the student's folder) and compares the two field by
field. A scene that matches ends ``ok``; one that does not says how, in the words of the rule it breaks
(``differs: the dealer drew on soft 17 under S17 rules``). Where the kit's engine cannot be found (a
student's starter folder without the kit installed), the demo says so in one line and shows the play
without judging it.

=========================  ===================================================================
name                       what it is
=========================  ===================================================================
``Scene``                  one stacked round: rules, players, cards, bets, decisions, expected ends
``SCENES``                 the scenes of each milestone (1: the course's game, 2: money and play, 3: the shell)
``play_demo(out, ...)``    play scenes in this process with the ``blackjack`` package importable now (unjudged)
``run_demo(project, ...)`` play ``project``'s code in a process of its own and judge it against the kit's engine
``differences(...)``       the differences between a student's record and the reference's, in words
``find_reference(project)``  the folder holding the kit's own ``blackjack`` (not ``project``'s), or None
=========================  ===================================================================

A scene that reaches code not written yet says so in one line (``... is not written yet:
...``) and the demo goes on with the next scene, so a demo of unfinished work shows what
works; one that runs longer than ``scene_timeout`` seconds is stopped (a loop that never
ends).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, ModuleType, TracebackType
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # imported when a demo runs: it must be the project's package, not the kit's
    from blackjack import Blackjack, Round, TableView

__all__ = ["SCENES", "Scene", "differences", "find_reference", "play_demo", "run_demo"]

#: A scene's play as plain data (JSON-able): see :func:`_table_record` and :func:`_shell_record`.
Record = dict[str, Any]


@dataclass(frozen=True)
class Scene:
    """One stacked round of the demo.

    Attributes:
        title: the situation it shows, ``"A split"``.
        point_out: what the peer leader should look at, in one sentence.
        rules: the rules preset's name (``"cs111"``, ``"vegas"``).
        players: the seats' names.
        cards: the shoe's first cards in deal order: one to each seat, the dealer's upcard, a
            second to each seat, the hole card, then every card play calls for.
        bets: each seat's bet (ignored under rules without money).
        decisions: the decisions in order, by ``Action`` value (``"hit"``, ``"split"``); when
            they run out, every open hand stands (and insurance is declined).
        expect: how each hand should end, ``(seat, hand, result name, net)``; net is ``None``
            under rules without money.
        course_game: play the round through the student's own week-1 text game
            (``blackjack.course_game.play_round``, its answers typed from ``decisions``: ``h``
            or ``s``) instead of drawing the engine's table.
        bankroll: each seat's bankroll before the round (None: the rules' starting bankroll).
        hint: show (and compare) the basic-strategy hint (``basic_advice``) at each decision.
        shell: play the round in the student's milestone-3 window (``gui.shell.Shell``): Deal,
            then the ``decisions`` (``"hit"``/``"stand"``) as button presses; one player.
    """

    title: str
    point_out: str
    rules: str
    players: tuple[str, ...]
    cards: str
    bets: tuple[int, ...] = ()
    decisions: tuple[str, ...] = ()
    expect: tuple[tuple[int, int, str, int | None], ...] = ()
    course_game: bool = False
    bankroll: int | None = None
    hint: bool = False
    shell: bool = False


#: The scenes of each milestone, in the order they are shown. Every stack and outcome below
#: is worked out by hand, as in the milestone tests (tests/kit/test_kit_demo.py plays them).
SCENES: dict[int, tuple[Scene, ...]] = {
    1: (
        Scene("Two players: a bust and a win",
              "Ann hits 16 and busts, and is not asked again; Bob stands on 18; the dealer stands on 17.",
              "cs111", ("Ann", "Bob"), "Th 9c 7d 6h 9s Ts Kc", decisions=("hit", "stand"),
              expect=((0, 0, "BUST", None), (1, 0, "WIN", None)), course_game=True),
        Scene("A push", "T-8 against the dealer's T-8: equal totals tie.",
              "cs111", ("Ann",), "Th Tc 8d 8s", decisions=("stand",), expect=((0, 0, "PUSH", None),),
              course_game=True),
        Scene("An ace counts 1 or 11",
              "A-5 is a soft 16 (6 / 16); a 7 makes it a hard 13 (the ace drops to 1); an 8 makes 21.",
              "cs111", ("Ann",), "Ah Tc 5d 7s 7c 8d", decisions=("hit", "hit"), expect=((0, 0, "WIN", None),),
              course_game=True),
        Scene("Three players, and the dealer busts",
              "The dealer must hit 16 and busts with 26: every hand still standing wins.",
              "cs111", ("Ann", "Bob", "Cy"), "Th 9c 5s 6h 2d 7s 8c Ts Kc", decisions=("stand", "stand", "stand"),
              expect=((0, 0, "WIN", None), (1, 0, "WIN", None), (2, 0, "WIN", None)), course_game=True),
        Scene("The dealer stands on soft 17",
              "The dealer's A-6 is a soft 17, and these rules (S17) stand on it: Ann's 18 wins. A dealer who drew "
              "would take the 4 and make 21.",
              "cs111", ("Ann",), "Th Ad 8s 6c 4h", decisions=("stand",), expect=((0, 0, "WIN", None),),
              course_game=True),
    ),
    2: (
        Scene("A bust", "Ann hits 16 against a 7 and busts with 26: the bet of 10 is lost at once.",
              "vegas", ("Ann",), "Th 7c 6d Ts Kc", (10,), ("hit",), ((0, 0, "BUST", -10),)),
        Scene("A push", "T-8 against the dealer's T-8: the bet of 10 comes back, net 0.",
              "vegas", ("Ann",), "Th Tc 8d 8s", (10,), ("stand",), ((0, 0, "PUSH", 0),)),
        Scene("A natural", "A-K pays 3:2 at once: +15 on a bet of 10 (exact money: +7.5 on a bet of 5).",
              "vegas", ("Ann",), "Ah 9c Kd 7s", (10,), (), ((0, 0, "BLACKJACK", 15),)),
        Scene("A three-card 21", "5-6 hits a ten: 21 with three cards is not a natural; it beats the dealer's 17 "
              "and pays 1:1, +10.",
              "vegas", ("Ann",), "5h Tc 6d 7s Th", (10,), ("hit",), ((0, 0, "WIN", 10),)),
        Scene("A double down", "6-5 (11) doubles the bet to 20 and gets exactly one card (9: 20); "
              "the dealer's 16 draws a 2 (18), so the doubled bet wins +20.",
              "vegas", ("Ann",), "6h 6c 5d Td 9s 2h", (10,), ("double",), ((0, 0, "WIN", 20),)),
        Scene("No money left to double", "Ann bets her last 10 on 6-5: 11 is worth a double, but nothing is left "
              "to double with, so the game offers hit, stand and surrender only; she hits a 9 and wins +10.",
              "vegas", ("Ann",), "6h 6c 5d Td 9s 2h", (10,), ("hit", "stand"), ((0, 0, "WIN", 10),), bankroll=10),
        Scene("A split", "8-8 against a ten splits into two hands with a bet each; the first gets a K (18) and "
              "stands, the second a 3 (11) and doubles to 20; both beat the dealer's 17.",
              "vegas", ("Ann",), "8s Th 8d 7c Kc 3c 9d", (10,), ("split", "stand", "double"),
              ((0, 0, "WIN", 10), (0, 1, "WIN", 20))),
        Scene("K-Q is not a pair", "These rules split pairs of equal rank: K-Q (20) is two tens but not a pair, "
              "so no split is offered; Ann stands and the dealer's 16 busts with an 8.",
              "vegas", ("Ann",), "Kh 6c Qd Ts 8h", (10,), ("stand",), ((0, 0, "WIN", 10),)),
        Scene("A hint on a hard 17", "T-7 against a ten: the hint says stand (a hard 17 busts too often to hit); "
              "the dealer's 18 wins, -10.",
              "vegas", ("Ann",), "Th Tc 7d 8s", (10,), ("stand",), ((0, 0, "LOSE", -10),), hint=True),
        Scene("The dealer hits soft 17", "Downtown rules are H17: the dealer's A-6 (soft 17) draws, a 2 makes "
              "soft 19, and Ann's 18 loses its 10 (insurance is offered on the ace and declined).",
              "downtown", ("Ann",), "Th Ad 8s 6c 2h", (10,), ("stand",), ((0, 0, "LOSE", -10),)),
        Scene("Insurance", "An ace up: Ann insures for 5; the dealer has A-K, so the insurance pays 2:1 (+10) and "
              "the hand loses its 10: Ann breaks even.",
              "vegas", ("Ann",), "Th As 9d Kc", (10,), ("insurance",), ((0, 0, "LOSE", -10),)),
    ),
    3: (
        Scene("Deal, hit and stand", "Deal shows A-2 and the dealer's 9 with the hole card face down; Hit makes a "
              "soft 17 (7 / 17); Stand turns the hole card, the dealer's 16 draws a ten and busts: WIN.",
              "cs111", ("Ann",), "Ah 9c 2d 7s 4h Ts", decisions=("hit", "stand"),
              expect=((0, 0, "WIN", None),), shell=True),
        Scene("A bust in the window", "T-6 hits a king: 26, BUST; the hole card is shown and only Deal is enabled.",
              "cs111", ("Ann",), "Th 9c 6d 8s Kc", decisions=("hit",), expect=((0, 0, "BUST", None),), shell=True),
        Scene("A push in the window", "T-7 stands against the dealer's T-7: PUSH.",
              "cs111", ("Ann",), "Th Tc 7d 7s", decisions=("stand",), expect=((0, 0, "PUSH", None),), shell=True),
    ),
}


class SceneTimeout(Exception):
    """A scene ran longer than its time limit."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`SceneTimeout` in the body after ``seconds`` (POSIX; no limit elsewhere or for 0)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SceneTimeout

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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


def _money(amount: object) -> str:
    """Money as plain data: ``"15"``, ``"15/2"`` (``str`` of an int or a ``Fraction``)."""
    return str(amount)


def _step(view: TableView, took: str, hint: bool) -> Record:
    """One decision as plain data: whose hand, its cards and total, the bankroll, what was offered and taken."""
    seat, hand = view.turn if view.turn is not None else (0, 0)
    shown = view.seats[seat].hands[hand] if view.seats[seat].hands else None
    step: Record = {"seat": seat, "hand": hand, "who": view.seats[seat].name,
                    "cards": _codes(shown.cards) if shown else [], "total": shown.total_text if shown else "",
                    "bankroll": _money(view.seats[seat].bankroll), "bet": _money(shown.bet) if shown else "0",
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
              "net": _money(o.net) if view.rules.wagering else None,
              "bankroll": _money(view.seats[s].bankroll) if view.rules.wagering else None}
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
    """Play one scene through the student's week-1 text game; return the hands' ends and the record.

    The answers are typed from ``scene.decisions`` (``h`` for hit, ``s`` for stand; ``s``
    once they run out) and echoed after the prompt, as a person's would show.

    Raises:
        RuntimeError: the game asked for more than :data:`_MAX_ASKS` answers (it keeps
            asking a player whose turn is over).
    """
    from blackjack import course_game

    game = _table(scene)
    rounds: list[Round] = []
    start = game.start_round

    def keep(*args: Any, **kwargs: Any) -> Round:
        rounds.append(start(*args, **kwargs))
        return rounds[-1]

    game.start_round = keep  # type: ignore[method-assign]  # the round the student's play_round starts
    answers = ["h" if d == "hit" else "s" for d in scene.decisions]
    steps: list[Record] = []

    def ask(prompt: str) -> str:
        if len(steps) >= _MAX_ASKS:
            raise RuntimeError(f"the game asked {_MAX_ASKS} questions in one round: does it keep asking a "
                               f"player who stood or busted?")
        answer = answers.pop(0) if answers else "s"
        if rounds:
            steps.append(_step(rounds[-1].view(), "hit" if answer == "h" else "stand", scene.hint))
        say(f"{prompt}{answer}")
        return answer

    outcomes = course_game.play_round(game, ask, say)
    if not rounds:
        raise RuntimeError("play_round did not start a round with game.start_round()")
    return [(s, h, o.result.name, None) for s, h, o in outcomes], _table_record(rounds[-1], steps)


def _play_table_scene(scene: Scene, say: Say, *, unicode: bool,
                      plain: bool) -> tuple[list[tuple[int, int, str, int | None]], Record]:
    """Play one scene through the engine, drawing the table; return the hands' ends and the record."""
    from blackjack import Action, Phase
    from blackjack.events import Event
    from blackjack.text_render import describe_event, table_text

    events: list[Event] = []
    game = _table(scene, [events.append])
    rules = game.rules
    rnd = game.start_round(list(scene.bets) if rules.wagering and scene.bets else None)
    say(table_text(rnd.view(), unicode=unicode, plain=plain))

    def announce(opening: bool = False) -> None:
        view = rnd.view()
        for event in events:
            line = describe_event(event, view, unicode=unicode, opening=opening)
            if line:
                say(f"  {line}")
        events.clear()

    announce(opening=True)  # the drawing shows the cards dealt; a natural settled at once is announced

    decisions = list(scene.decisions)
    steps: list[Record] = []
    while rnd.turn is not None:
        seat, hand = rnd.turn
        legal = rnd.legal_actions()
        wanted = Action(decisions.pop(0)) if decisions else None
        if rnd.phase is Phase.INSURANCE and wanted not in (Action.INSURANCE, Action.DECLINE):
            if wanted is not None:
                decisions.insert(0, wanted.value)
            wanted = Action.DECLINE
        if wanted is None:
            wanted = Action.DECLINE if Action.DECLINE in legal else Action.STAND
        if wanted not in legal:
            say(f"  (the game does not offer {wanted.value} to {scene.players[seat]} here; it offers "
                f"{', '.join(sorted(a.value for a in legal))}: standing instead)")
            wanted = Action.DECLINE if Action.DECLINE in legal else Action.STAND
        view = rnd.view()
        steps.append(_step(view, wanted.value, scene.hint))
        which = f" (hand {hand + 1})" if len(rnd.hands(seat)) > 1 else ""
        hint = f" (the hint says {steps[-1]['hint']})" if "hint" in steps[-1] else ""
        say(f"{scene.players[seat]}{which}: {wanted.value}{hint}")
        rnd.apply(wanted)
        announce()
    announce()
    if steps:  # a round settled at the deal is on the table already
        say(table_text(rnd.view(), unicode=unicode, plain=True))
    ends = [(s, h, o.result.name, int(o.net) if rules.wagering and o.net == int(o.net) else None)
            for s, h, o in rnd.outcomes()]
    return ends, _table_record(rnd, steps)


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


def _reference_record(scene: Scene) -> Record:
    """The record of ``scene`` played on the ``blackjack`` package importable now (the kit's, in the judge)."""
    if scene.shell:
        return _reference_shell_record(scene)
    return _play_one(scene, lambda text: None, unicode=False, plain=True)[1]


def _play_one(scene: Scene, say: Say, *, unicode: bool,
              plain: bool) -> tuple[list[tuple[int, int, str, int | None]], Record]:
    """Play ``scene`` the way it is shown (text game, table or window); return the hands' ends and the record."""
    if scene.shell:
        return _play_shell_scene(scene, say)
    if scene.course_game:
        return _play_course_scene(scene, say)
    return _play_table_scene(scene, say, unicode=unicode, plain=plain)


def _run_scene(scene: Scene, say: Say, *, unicode: bool, plain: bool,
               scene_timeout: float) -> tuple[str, Record | None]:
    """Play ``scene`` with the student's code, stopping it on an error, a loop or ``sys.exit``.

    Returns:
        ``(status, record)``: status ``"ok"`` when every hand ended as ``scene.expect`` says (else
        ``"not as it should"`` after a line saying how, or ``"stopped: ..."``, the record None).
    """
    try:
        with _time_limit(scene_timeout):
            ends, record = _play_one(scene, say, unicode=unicode, plain=plain)
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
        if [(s, h, r, n if n is None else n) for s, h, r, n in ends] == want:
            return "ok", record
        say("  NOT as it should: " + "; ".join(
            f"{scene.players[s]}{f' hand {h + 1}' if len({h2 for s2, h2, _r, _n in want if s2 == s}) > 1 else ''} "
            f"should end {r}" + ("" if n is None else f" {n:+d}") for s, h, r, n in want)
            + "; it ended " + "; ".join(f"{scene.players[s]} {r}" + ("" if n is None else f" {n:+d}")
                                         for s, h, r, n in ends))
        return "not as it should", record
    say(f"  {status}")
    return status, None


def _check_numbers(numbers: list[int]) -> None:
    """Raise ``KeyError`` for a milestone without scenes (the message names those with scenes)."""
    for number in numbers:
        if number not in SCENES:
            raise KeyError(f"no demo for milestone {number}; there are scenes for milestones "
                           f"{', '.join(map(str, SCENES))}")


def play_demo(out: TextIO, milestones: list[int] | None = None, *, unicode: bool = True, plain: bool = False,
              scene_timeout: float = 10.0, pause: Callable[[], None] | None = None) -> int:
    """Play the scenes of ``milestones`` (default: all) in this process, with the ``blackjack`` package
    importable now, checking only each scene's expected ends (not judged against the rules: see
    :func:`run_demo`). Milestone 3's scenes open windows: they need ``$DISPLAY``.

    Args:
        out: where the demo is written.
        milestones: the milestones whose scenes to play, in this order.
        unicode: draw suit symbols (False: ASCII only).
        plain: one line per hand instead of card drawings.
        scene_timeout: seconds a scene may run before it is stopped (0: no limit).
        pause: called between scenes (e.g. wait for Enter); None: go straight on.

    Returns:
        0 when every scene ran and ended as it should, 1 otherwise.

    Raises:
        KeyError: a milestone without scenes (the message names the ones with scenes).
    """
    numbers = list(SCENES) if milestones is None else milestones
    _check_numbers(numbers)

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    results: list[tuple[str, str]] = []
    for count, (number, _index, scene) in enumerate(_chosen(numbers)):
        if count and pause is not None:
            pause()
        _header(say, number, scene)
        status, _record = _run_scene(scene, say, unicode=unicode, plain=plain, scene_timeout=scene_timeout)
        if status == "ok":
            say("  ok: every hand ended as it should")
        results.append((f"milestone {number}: {scene.title}", status))
    _summary(say, results)
    return 0 if all(status == "ok" for _, status in results) else 1


def _chosen(numbers: list[int]) -> list[tuple[int, int, Scene]]:
    """``(milestone, index, scene)`` of every scene of ``numbers``, in order."""
    return [(number, index, scene) for number in numbers for index, scene in enumerate(SCENES[number])]


def _header(say: Say, number: int, scene: Scene) -> None:
    """The scene's title line and what to point out."""
    say(f"\n=== Milestone {number}: {scene.title} ({scene.rules} rules) ===")
    say(f"Point out: {scene.point_out}")


def _summary(say: Say, results: list[tuple[str, str]]) -> None:
    """The summary: one line per scene with its status."""
    say("\n=== Summary ===")
    for title, status in results:
        say(f"  {title}: {status}")


# ====================================================================== the student's process

class _ProjectOnly(importlib.abc.MetaPathFinder):
    """Import the kit's package names (``blackjack``, ``gui``, ``milestones``) only from the student's project.

    In the student's process nothing else may supply them: not the kit's clone, not an installed or
    editable kit on ``sys.path``, so the student's code never runs beside (or can read) the reference.
    """

    def __init__(self, project: str) -> None:
        self.project = project

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec from the project (a top-level name) or the parent package's path, else ModuleNotFoundError."""
        if fullname.split(".")[0] not in ("blackjack", "gui", "milestones"):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, [self.project] if path is None else path)
        if spec is None or not str(spec.origin or "").startswith(self.project):
            raise ModuleNotFoundError(f"No module named {fullname!r} in {self.project}", name=fullname)
        return spec


class _Relay(io.TextIOBase):
    """``sys.stdout`` of the student's process: each line printed is sent as a ``say`` message."""

    def __init__(self, send: Callable[[Record], None]) -> None:
        self._send = send
        self._buffer = ""
        self.key = ""

    def writable(self) -> bool:
        """Always: it is an output stream."""
        return True

    def write(self, text: str) -> int:
        """Send every complete line; keep the rest for the next write."""
        self._buffer += text
        *lines, self._buffer = self._buffer.split("\n")
        for line in lines:
            self._send({"key": self.key, "say": line})
        return len(text)

    def flush(self) -> None:
        """Send a partial line too."""
        if self._buffer:
            self._send({"key": self.key, "say": self._buffer})
            self._buffer = ""


def _serve(argv: list[str]) -> int:
    """The student's process: ``PROJECT FD OPTIONS_JSON KEY...``; play each scene ``"milestone:index"`` on the
    project's packages and send JSON lines on ``FD``: ``{"key", "say"}`` for each line shown, then
    ``{"key", "status", "record"}`` at the scene's end."""
    project, fd, options, keys = argv[0], int(argv[1]), json.loads(argv[2]), argv[3:]
    sys.meta_path.insert(0, _ProjectOnly(project))
    sys.path.insert(0, project)
    channel = os.fdopen(fd, "w", encoding="utf-8", buffering=1)

    def send(message: Record) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    relay = _Relay(send)
    sys.stdout = relay
    for key in keys:
        number, index = map(int, key.split(":"))
        relay.key = key
        status, record = _run_scene(SCENES[number][index], print, unicode=options["unicode"], plain=options["plain"],
                                    scene_timeout=options["scene_timeout"])
        relay.flush()
        send({"key": key, "status": status, "record": record})
    return 0


#: Run in the student's process (``python -I -c``): load this file by its path (not the ``milestones``
#: package) and serve the scenes named on the command line.
_BOOT = ("import importlib.util, sys\n"
         "spec = importlib.util.spec_from_file_location('_blackjack_demo', sys.argv[1])\n"
         "module = importlib.util.module_from_spec(spec)\n"
         "sys.modules['_blackjack_demo'] = module\n"
         "spec.loader.exec_module(module)\n"
         "sys.exit(module._serve(sys.argv[2:]))\n")


class _Student:
    """The student's process, started on the scenes still to play; restarted after one that had to be killed."""

    def __init__(self, project: Path, options: Record, env: dict[str, str], scene_timeout: float) -> None:
        self.project, self.options, self.env, self.scene_timeout = project, options, env, scene_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.messages: queue.Queue[Record | None] = queue.Queue()
        self.errors = tempfile.TemporaryFile()

    def _start(self, keys: list[str]) -> None:
        read, write = os.pipe()
        self.messages = queue.Queue()
        self.errors.seek(0)
        self.errors.truncate()
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, str(Path(__file__).resolve()), str(self.project), str(write),
             json.dumps(self.options), *keys],
            pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errors,
            env=self.env, cwd=self.project)
        os.close(write)
        messages = self.messages

        def pump() -> None:
            with os.fdopen(read, encoding="utf-8", errors="replace") as pipe:
                for line in pipe:
                    try:
                        messages.put(json.loads(line))
                    except ValueError:
                        messages.put({"say": line.rstrip("\n")})
            messages.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def play(self, key: str, later: list[str], say: Say) -> tuple[str, Record | None]:
        """Play scene ``key`` (start the process on it and ``later`` when none runs); return its status and record."""
        if self.process is None:
            self._start([key, *later])
        wait = self.scene_timeout + 10 if self.scene_timeout > 0 else None
        while True:
            try:
                message = self.messages.get(timeout=wait)
            except queue.Empty:
                self.stop()
                status = f"stopped after {self.scene_timeout:g} s: a loop that never ends?"
                say(f"  {status}")
                return status, None
            if message is None:
                code = self.stop()
                self.errors.seek(0)
                last = (self.errors.read().decode("utf-8", "replace").strip().splitlines() or [""])[-1]
                status = f"stopped: the process playing your code ended (exit status {code}){': ' + last if last else ''}"
                say(f"  {status}")
                return status, None
            if "status" in message:
                return str(message["status"]), message.get("record")
            say(str(message.get("say", "")))

    def stop(self) -> int | None:
        """End the student's process (killed if still running); return its exit status."""
        if self.process is None:
            return None
        process, self.process = self.process, None
        if process.poll() is None:
            process.kill()
        return process.wait()


# ====================================================================== the judge: the kit's engine, here

#: Where a starter or an autograder zip lists the student's functions: its ``milestones/`` is a copy beside
#: the student's packages, so its ``blackjack/`` is not the kit's (``milestones.regions.FUNCTIONS_FILE``).
_STUDENT_COPY_MARK = "functions.json"


def find_reference(project: Path) -> Path | None:
    """Return the folder holding the kit's own ``blackjack`` and ``gui`` (the reference), or None.

    The kit's clone or an installed kit: the folder beside this ``milestones`` package, unless this
    ``milestones`` is a copy in a student's starter (it lists the student's functions, ``functions.json``);
    else an installed ``blackjack-kit`` wheel's folder. ``project`` may be that folder itself (the kit played
    on its own code). None in a starter folder without the kit installed: nothing there is the reference.
    """
    here = Path(__file__).resolve().parents[1]
    candidates = []
    if not (here / "milestones" / _STUDENT_COPY_MARK).exists():
        candidates.append(here)
    try:
        from importlib.metadata import PackageNotFoundError, distribution
        try:
            installed = Path(str(distribution("blackjack-kit").locate_file("blackjack/__init__.py")))
            candidates.append(installed.resolve().parents[1])
        except PackageNotFoundError:
            pass
    except ImportError:  # pragma: no cover - the standard library has it
        pass
    for root in candidates:
        if ((root / "blackjack" / "__init__.py").is_file() and (root / "gui" / "shell.py").is_file()
                and not (root / "milestones" / _STUDENT_COPY_MARK).exists()):
            return root
    return None


def _load_reference(root: Path) -> bool:
    """Make ``blackjack`` and ``gui`` in this process the kit's, from ``root``; True when they are."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("blackjack", "gui")]:
        file = getattr(sys.modules[name], "__file__", None)
        if file is None or not Path(file).resolve().is_relative_to(root):
            del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        import blackjack
        import gui
    except Exception:  # noqa: BLE001 - a broken kit: the demo then plays without judging
        return False
    return all(Path(str(module.__file__)).resolve().is_relative_to(root) for module in (blackjack, gui))


def _load_file(path: Path, name: str) -> ModuleType | None:
    """Load one standard-library-only file by its path under a private name, or return None."""
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - missing or broken: the caller says there is no display
        return None
    return module


def _ranks(cards: Sequence[str]) -> str:
    """``["Kh", "Qd"]`` -> ``"K-Q"``: the ranks, as the scenes name hands."""
    return "-".join(code[:-1] if code != "??" else "?" for code in cards)


def _hard_or_soft(cards: Sequence[str]) -> tuple[int, bool]:
    """The total of ``cards`` and whether an ace counts 11 in it, by the kit's ``Hand``."""
    from blackjack import Hand, parse_cards

    hand = Hand(parse_cards(" ".join(c for c in cards if c != "??")))
    return hand.get_score(), hand.is_soft()


def _total_words(cards: Sequence[str], mine: str, theirs: str) -> str:
    """Words for a hand whose total is shown as ``mine`` where the rules show ``theirs``."""
    if "/" in mine and "/" not in theirs and any(c.startswith("A") for c in cards):
        return f"{_ranks(cards)} was counted soft ({mine}): its ace can only count 1 there, a hard {theirs}"
    if "/" in theirs and "/" not in mine:
        return f"{_ranks(cards)} was counted hard ({mine}): its ace counts 11 there, a soft {theirs}"
    return f"{_ranks(cards)} totals {mine or 'nothing'}; under the rules it totals {theirs}"


def _step_differences(mine: Record, theirs: Record, split_by: str) -> list[str]:
    """Words for one decision where the student's play and the rules' differ."""
    from fractions import Fraction

    found = []
    who, cards = theirs["who"], theirs["cards"]
    if mine["cards"] != cards:
        return [f"{who}'s cards differ: yours are {_ranks(mine['cards'])}, the rules deal {_ranks(cards)}"]
    if mine["total"] != theirs["total"]:
        found.append(_total_words(cards, mine["total"], theirs["total"]))
    extra = sorted(set(mine["offered"]) - set(theirs["offered"]))
    for action in extra:
        if action == "double" and Fraction(mine.get("bankroll", "0")) < Fraction(mine.get("bet", "0")):
            found.append("a double was offered with no bankroll left to cover it")
        elif action == "split" and split_by == "rank" and len(cards) == 2 and cards[0][:-1] != cards[1][:-1]:
            found.append(f"{_ranks(cards)} was offered a split though the rules split by rank")
        else:
            found.append(f"{action} was offered on {_ranks(cards)}: the rules do not offer it there")
    for action in sorted(set(theirs["offered"]) - set(mine["offered"])):
        found.append(f"{action} was not offered on {_ranks(cards)}: the rules offer it there")
    if "hint" in theirs and mine.get("hint") != theirs["hint"]:
        total, soft = _hard_or_soft(cards)
        if mine.get("hint") == "hit" and total == 17 and not soft:
            found.append(f"the hint says hit on a hard 17; basic strategy says {theirs['hint']}")
        else:
            found.append(f"the hint for {_ranks(cards)} against the dealer's {_ranks([theirs['upcard']])} says "
                         f"{mine.get('hint')}; basic strategy says {theirs['hint']}")
    return found


def _dealer_differences(mine: Record, theirs: Record, hits_soft_17: bool) -> list[str]:
    """Words for a dealer's hand that the student's play and the rules' end differently."""
    got, want = mine["cards"], theirs["cards"]
    if got == want:
        if mine["total"] != theirs["total"]:
            return [f"the dealer's {_total_words(got, mine['total'], theirs['total'])}"]
        return []
    if len(got) > len(want) and got[:len(want)] == want:
        total, soft = _hard_or_soft(want)
        if total == 17 and soft and not hits_soft_17:
            return ["the dealer drew on soft 17 under S17 rules"]
        if total >= 17:
            return [f"the dealer drew on {'soft' if soft else 'hard'} {total}: the dealer stands on 17 or more"]
    if len(got) < len(want) and want[:len(got)] == got:
        total, soft = _hard_or_soft(got)
        if total == 17 and soft and hits_soft_17:
            return ["the dealer stood on soft 17 under H17 rules"]
        if total < 17:
            return [f"the dealer stood on {total}: the dealer draws below 17"]
    return [f"the dealer's cards differ: yours drew {_ranks(got)}, the rules draw {_ranks(want)}"]


def _hand_differences(mine: Record, theirs: Record) -> list[str]:
    """Words for a hand that ends differently."""
    def end(record: Record) -> str:
        net = record["net"]
        return str(record["result"]) + ("" if net is None else f" {'' if str(net)[0] in '-0' else '+'}{net}")

    cards = theirs["cards"]
    if mine["result"] == "BLACKJACK" and theirs["result"] != "BLACKJACK" and len(cards) >= 3:
        return [f"a three-card 21 was paid as a natural ({_ranks(cards)}: {end(mine)}; the rules: {end(theirs)})"]
    found = []
    if mine.get("natural") != theirs.get("natural"):
        if mine.get("natural") and len(cards) >= 3:
            found.append(f"a three-card 21 was counted as a natural ({_ranks(cards)} is shown as blackjack)")
        elif mine.get("natural"):
            found.append(f"{_ranks(cards)} was counted as a natural: the rules do not count it as one")
        else:
            found.append(f"the natural {_ranks(cards)} was not counted as one")
    if end(mine) == end(theirs):
        return found
    if mine["result"] == theirs["result"] == "BLACKJACK":
        return [*found, f"{theirs['who']}'s natural was paid {mine['net']}; the rules pay {theirs['net']}"]
    return [*found, f"{theirs['who']}'s {_ranks(mine['cards'])} ended {end(mine)}; under the rules "
            f"{_ranks(cards)} ends {end(theirs)}"]


def _shell_differences(mine: Record, theirs: Record) -> list[str]:
    """Words for the first press after which the student's window shows other than the round."""
    fields = (("error", "the window reported"), ("dealer", "the dealer's cards"), ("player", "the player's cards"),
              ("dealer_total", "the dealer's total"), ("player_total", "the player's total"),
              ("result", "the result"), ("buttons", "the enabled buttons"))
    for index, want in enumerate(theirs["presses"]):
        press = want["press"].capitalize()
        if index >= len(mine["presses"]):
            return [f"the {press} button was disabled when the round needed it"]
        got = mine["presses"][index]
        found = []
        for key, name in fields:
            if got[key] == want[key]:
                continue
            if key == "error":
                found.append(f"after {press} the window reported an error: {got[key]}")
            elif key == "dealer" and "??" in want[key] and "??" not in got[key]:
                found.append(f"after {press} the hole card is shown face up before the dealer's turn")
            else:
                def shown(value: object) -> str:
                    if isinstance(value, list):
                        return " ".join(map(str, value)) or "nothing"
                    return repr(value) if value else "nothing"
                found.append(f"after {press} the window shows {name} as {shown(got[key])}; "
                             f"the round's are {shown(want[key])}" if key in ("dealer", "player", "buttons")
                             else f"after {press} the window shows {name} as {shown(got[key])}; "
                                  f"the round's is {shown(want[key])}")
        if found:
            return found
    return []


def differences(scene: Scene, mine: Record, theirs: Record) -> list[str]:
    """Compare the student's record of ``scene`` with the reference's, field by field; return the differences
    in words (empty when the plays agree). Needs the kit's ``blackjack`` importable (card totals, the rules).

    A decision's differences are those of the first decision that differs (the play after it follows from
    it); then the dealer's hand, then each hand's end. Known differences get the rule's words ("the dealer
    drew on soft 17 under S17 rules"); others a plain comparison ("the dealer's cards differ: ...").
    """
    from itertools import zip_longest

    from blackjack import Rules

    if mine.get("kind") != theirs.get("kind"):
        return ["the play could not be compared with the rules' play"]
    if theirs["kind"] == "shell":
        return _shell_differences(mine, theirs)
    rules = Rules.preset(scene.rules)
    found: list[str] = []
    for got, want in zip_longest(mine["steps"], theirs["steps"]):
        if got is None:
            found.append(f"{want['who']} was not asked to play {_ranks(want['cards'])} ({want['total']}): "
                         f"the rules offer {', '.join(want['offered'])}")
        elif want is None:
            found.append(f"{got['who']} was asked again on {_ranks(got['cards'])} ({got['total']}): under the "
                         f"rules that turn is over")
        else:
            found.extend(_step_differences(got, want, rules.split_by))
        if found:
            break
    found.extend(_dealer_differences(mine["dealer"], theirs["dealer"], rules.dealer_hits_soft_17))
    for got, want in zip_longest(mine["hands"], theirs["hands"]):
        if got is None or want is None:
            found.append("the round settled a different number of hands")
            break
        if got["cards"] == want["cards"] and got["total"] != want["total"]:
            found.append(_total_words(want["cards"], got["total"], want["total"]))
        found.extend(_hand_differences(got, want))
    return list(dict.fromkeys(found))


def run_demo(project: Path, out: TextIO, milestones: list[int] | None = None, *, unicode: bool = True,
             plain: bool = False, scene_timeout: float = 10.0, pause: Callable[[], None] | None = None) -> int:
    """Play the demo on the packages in ``project`` in a process of their own, judging each scene against the kit.

    The student's process (``python -I``, where only ``project`` supplies ``blackjack`` and ``gui``) plays
    the scenes and sends back what was shown and each scene's record; this process loads the kit's engine
    (:func:`find_reference`), plays the same stacked shoes and decisions on it, and says after each scene
    ``ok: every hand ended as it should`` or ``differs: <how, in the rule's words>``. Without the kit's
    engine it says so once and only checks each scene's expected ends. Milestone 3's scenes open the
    student's window on ``$DISPLAY``, or on a private Xvfb started here when there is none.
    Other arguments as :func:`play_demo`.

    Returns:
        0 when every scene ran and ended as it should (and as the rules play it, when judged), 1 otherwise.

    Raises:
        FileNotFoundError: ``project`` has no ``blackjack/__init__.py``.
        KeyError: a milestone without scenes.
    """
    project = project.resolve()
    if not (project / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{project} has no blackjack/__init__.py; run the demo from the project folder "
                                f"or give --project DIR")
    numbers = list(SCENES) if milestones is None else milestones
    _check_numbers(numbers)

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    root = find_reference(project)
    judged = root is not None and _load_reference(root)
    if not judged:
        say("(the kit's own engine is not reachable from here, so the play is shown without comparing it with "
            "the rules: run the demo from the kit's folder, python -m milestones demo --project DIR)")
    chosen = _chosen(numbers)
    env = dict(os.environ)
    no_display = ""
    with ExitStack() as stack:
        if any(scene.shell for _n, _i, scene in chosen) and not env.get("DISPLAY"):
            xvfb = _load_file((root or Path(__file__).resolve().parents[1]) / "gui" / "xvfb.py", "_demo_xvfb")
            try:
                if xvfb is None:
                    raise RuntimeError("gui/xvfb.py cannot be loaded")
                env["DISPLAY"] = stack.enter_context(xvfb.xvfb())
            except Exception as err:  # noqa: BLE001 - NoDisplay or a broken copy: the window scenes say so
                no_display = str(err)
        keys = [f"{n}:{i}" for n, i, scene in chosen if not (scene.shell and no_display)]
        student = _Student(project, {"unicode": unicode, "plain": plain, "scene_timeout": scene_timeout}, env,
                           scene_timeout)
        stack.callback(student.errors.close)
        stack.callback(student.stop)
        results: list[tuple[str, str]] = []
        for count, (number, index, scene) in enumerate(chosen):
            if count and pause is not None:
                pause()
            _header(say, number, scene)
            key = f"{number}:{index}"
            if key not in keys:
                status, record = f"stopped: no display for the window ({no_display})", None
                say(f"  {status}")
            else:
                status, record = student.play(key, keys[keys.index(key) + 1:], say)
            if record is not None and judged:
                found = differences(scene, record, _reference_record(scene))
                if found:
                    status = "differs: " + "; ".join(found)
                    say(f"  {status}")
            if status == "ok":
                say("  ok: every hand ended as it should" + ("" if judged else " (not compared with the rules)"))
            results.append((f"milestone {number}: {scene.title}", status))
    _summary(say, results)
    return 0 if all(status == "ok" for _, status in results) else 1
