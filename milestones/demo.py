"""The Program Demo: ``python -m milestones demo`` plays the student's game through each situation the
milestone covers, in about two minutes, for the peer leader.

The course grades a Program Demo ("show your peer leader a demo of your code"). Played by
hand, the situations worth showing (a bust, a push, a natural, a double down, a split)
take many rounds of luck to come up; here each is a *scene*: a round dealt from a stacked
shoe through the student's own engine (``Blackjack``, ``Round.apply``; nothing here knows a
rule), with the table drawn by the engine's text renderer, a line on what to point out,
and a last line saying whether the round ended as it should.

=========================  ===================================================================
name                       what it is
=========================  ===================================================================
``Scene``                  one stacked round: rules, players, cards, bets, decisions, expected ends
``SCENES``                 the scenes of each milestone (1: the course's game, 2: money and play)
``play_demo(out, ...)``    play scenes with the ``blackjack`` package already importable
``run_demo(project, ...)`` put ``project``'s ``blackjack`` first on ``sys.path``, then play
=========================  ===================================================================

A scene that reaches code not written yet says so in one line (``... is not written yet:
...``) and the demo goes on with the next scene, so a demo of unfinished work shows what
works; one that runs longer than ``scene_timeout`` seconds is stopped (a loop that never
ends).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # imported when a demo runs: it must be the project's package, not the kit's
    from blackjack import Blackjack

__all__ = ["SCENES", "Scene", "play_demo", "run_demo"]


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
              "A-5 is a soft 16; a 7 makes it a hard 13 (the ace drops to 1); an 8 makes 21.",
              "cs111", ("Ann",), "Ah Tc 5d 7s 7c 8d", decisions=("hit", "hit"), expect=((0, 0, "WIN", None),),
              course_game=True),
        Scene("Three players, and the dealer busts",
              "The dealer must hit 16 and busts with 26: every hand still standing wins.",
              "cs111", ("Ann", "Bob", "Cy"), "Th 9c 5s 6h 2d 7s 8c Ts Kc", decisions=("stand", "stand", "stand"),
              expect=((0, 0, "WIN", None), (1, 0, "WIN", None), (2, 0, "WIN", None)), course_game=True),
    ),
    2: (
        Scene("A bust", "Ann hits 16 against a 7 and busts with 26: the bet of 10 is lost at once.",
              "vegas", ("Ann",), "Th 7c 6d Ts Kc", (10,), ("hit",), ((0, 0, "BUST", -10),)),
        Scene("A push", "T-8 against the dealer's T-8: the bet of 10 comes back, net 0.",
              "vegas", ("Ann",), "Th Tc 8d 8s", (10,), ("stand",), ((0, 0, "PUSH", 0),)),
        Scene("A natural", "A-K pays 3:2 at once: +15 on a bet of 10 (exact money: +7.5 on a bet of 5).",
              "vegas", ("Ann",), "Ah 9c Kd 7s", (10,), (), ((0, 0, "BLACKJACK", 15),)),
        Scene("A double down", "6-5 (11) doubles the bet to 20 and gets exactly one card (9: 20); "
              "the dealer's 16 draws a 2 (18), so the doubled bet wins +20.",
              "vegas", ("Ann",), "6h 6c 5d Td 9s 2h", (10,), ("double",), ((0, 0, "WIN", 20),)),
        Scene("A split", "8-8 against a ten splits into two hands with a bet each; the first gets a K (18) and "
              "stands, the second a 3 (11) and doubles to 20; both beat the dealer's 17.",
              "vegas", ("Ann",), "8s Th 8d 7c Kc 3c 9d", (10,), ("split", "stand", "double"),
              ((0, 0, "WIN", 10), (0, 1, "WIN", 20))),
        Scene("Insurance", "An ace up: Ann insures for 5; the dealer has A-K, so the insurance pays 2:1 (+10) and "
              "the hand loses its 10: Ann breaks even.",
              "vegas", ("Ann",), "Th As 9d Kc", (10,), ("insurance",), ((0, 0, "LOSE", -10),)),
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


def _play_course_scene(scene: Scene, say: Callable[[str], None]) -> bool:
    """Play one scene through the student's week-1 text game; return True when every hand ended as expected.

    The answers are typed from ``scene.decisions`` (``h`` for hit, ``s`` for stand; ``s``
    once they run out) and echoed after the prompt, as a person's would show.

    Raises:
        RuntimeError: the game asked for more than :data:`_MAX_ASKS` answers (it keeps
            asking a player whose turn is over).
    """
    from blackjack import Blackjack, Rules, course_game

    game = Blackjack(list(scene.players), Rules.preset(scene.rules), seed=2012)
    game.shoe.stack(scene.cards.split())
    answers = ["h" if d == "hit" else "s" for d in scene.decisions]
    asked = 0

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if asked > _MAX_ASKS:
            raise RuntimeError(f"the game asked {_MAX_ASKS} questions in one round: does it keep asking a "
                               f"player who stood or busted?")
        answer = answers.pop(0) if answers else "s"
        say(f"{prompt}{answer}")
        return answer

    outcomes = course_game.play_round(game, ask, say)
    got = [(s, h, o.result.name, None) for s, h, o in outcomes]
    want = list(scene.expect)
    if got == want:
        say("  ok: every hand ended as it should")
        return True
    say("  NOT as it should: " + "; ".join(f"{scene.players[s]} should end {r}" for s, _h, r, _n in want)
        + "; the game's round ended " + "; ".join(f"{scene.players[s]} {r}" for s, _h, r, _n in got))
    return False


def _play_scene(scene: Scene, say: Callable[[str], None], *, unicode: bool, plain: bool) -> bool:
    """Play one scene through the engine; return True when every hand ended as expected."""
    if scene.course_game:
        return _play_course_scene(scene, say)
    from blackjack import Action, Blackjack, Phase, Rules
    from blackjack.events import Event
    from blackjack.text_render import describe_event, hand_line, table_text

    events: list[Event] = []
    rules = Rules.preset(scene.rules)
    game: Blackjack = Blackjack(list(scene.players), rules, seed=2012, listeners=[events.append])
    game.shoe.stack(scene.cards.split())
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
    took = False
    while rnd.turn is not None:
        took = True
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
        which = f" (hand {hand + 1})" if len(rnd.hands(seat)) > 1 else ""
        say(f"{scene.players[seat]}{which}: {wanted.value}")
        rnd.apply(wanted)
        announce()
    announce()
    view = rnd.view()
    if took:  # a round settled at the deal is on the table already
        say(table_text(view, unicode=unicode, plain=True))
    got = [(s, h, o.result.name, o.net if rules.wagering else None) for s, h, o in rnd.outcomes()]
    want = [(s, h, r, n) for s, h, r, n in scene.expect]
    if got == want:
        say("  ok: every hand ended as it should")
        return True
    seats = view.seats
    say("  NOT as it should: " + "; ".join(
        f"{scene.players[s]}{f' hand {h + 1}' if len(seats[s].hands) > 1 else ''} should end {r}"
        + ("" if n is None else f" {n:+d}") for s, h, r, n in want))
    for s, h, _outcome in rnd.outcomes():
        say(f"    {scene.players[s]}: {hand_line(seats[s].hands[h], unicode=unicode, wagering=rules.wagering)}")
    return False


def play_demo(out: TextIO, milestones: list[int] | None = None, *, unicode: bool = True, plain: bool = False,
              scene_timeout: float = 10.0, pause: Callable[[], None] | None = None) -> int:
    """Play the scenes of ``milestones`` (default: all) with the ``blackjack`` package importable now.

    Args:
        out: where the demo is written.
        milestones: the milestones whose scenes to play, in this order.
        unicode: draw suit symbols (False: ASCII only).
        plain: one line per hand instead of card drawings.
        scene_timeout: seconds a scene may run before it is stopped (0: no limit).
        pause: called between scenes (e.g. wait for Enter); None: go straight on.

    Student code that raises, loops past ``scene_timeout`` or calls ``sys.exit`` (raises
    ``SystemExit``) stops its scene with one line saying so; the demo goes on with the next.

    Returns:
        0 when every scene ran and ended as it should, 1 otherwise.

    Raises:
        KeyError: a milestone without scenes (the message names the ones with scenes).
    """
    numbers = list(SCENES) if milestones is None else milestones
    for number in numbers:
        if number not in SCENES:
            raise KeyError(f"no demo for milestone {number}; there are scenes for milestones "
                           f"{', '.join(map(str, SCENES))} (milestone 3's demo is the student's window: python -m gui.shell)")

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    results: list[tuple[str, str]] = []
    first = True
    for number in numbers:
        for scene in SCENES[number]:
            if not first and pause is not None:
                pause()
            first = False
            say(f"\n=== Milestone {number}: {scene.title} ({scene.rules} rules) ===")
            say(f"Point out: {scene.point_out}")
            try:
                with _time_limit(scene_timeout):
                    ok = _play_scene(scene, say, unicode=unicode, plain=plain)
                status = "ok" if ok else "not as it should"
            except NotImplementedError as err:
                from blackjack.errors import unwritten
                status = f"stopped: {unwritten(err)}"
                say(f"  {status}")
            except SceneTimeout:
                status = (f"stopped after {scene_timeout:g} s{_place(sys.exc_info()[2])}: "
                          f"a loop that never ends?")
                say(f"  {status}")
            except SystemExit as err:  # the student's code ended the program: that stops this scene, not the demo
                code = "" if err.code is None else repr(err.code)
                status = f"your code called sys.exit({code}){_place(err.__traceback__)}"
                say(f"  stopped: {status}")
            except Exception as err:  # the student's code failed: say where, and go on with the next scene
                status = f"{type(err).__name__}: {err}{_place(err.__traceback__)}"
                say(f"  stopped: {status}")
            results.append((f"milestone {number}: {scene.title}", status))
    say("\n=== Summary ===")
    for title, status in results:
        say(f"  {title}: {status}")
    return 0 if all(status == "ok" for _, status in results) else 1


def run_demo(project: Path, out: TextIO, milestones: list[int] | None = None, **options: object) -> int:
    """Play the demo on the ``blackjack`` package in ``project`` (put first on ``sys.path``); see :func:`play_demo`.

    Meant for a fresh process (``python -m milestones demo``): a ``blackjack`` package
    imported before from elsewhere is dropped so that the project's own is played.

    Raises:
        FileNotFoundError: ``project`` has no ``blackjack/__init__.py``.
    """
    project = project.resolve()
    if not (project / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{project} has no blackjack/__init__.py; run the demo from the project folder "
                                f"or give --project DIR")
    for name in [m for m in sys.modules if m == "blackjack" or m.startswith("blackjack.")]:
        del sys.modules[name]
    sys.path.insert(0, str(project))
    return play_demo(out, milestones, **options)  # type: ignore[arg-type]
