"""Observations for test_course_game.py, run in the student's process: the course game's functions called with a
scripted ``ask`` and a recording ``say``, and plain data returned (docs/design/graded_test_shape.md).

Every game is dealt from a shoe of given cards, never the student's deck: while an observation runs, the shoe
(``blackjack.deck.Shoe``) is filled from :func:`blackjack.parse_cards` and its shuffle leaves the cards in
order (:func:`milestones.grader.observer.given_cards`), so only the stacked cards matter and neither ``create_card_array`` nor ``shuffle`` is called. The
hands and the dealer that ``hand_text`` and ``dealer_text`` show are views built from given classes (no
round, so none of the student's ``Hand`` methods run). What the code printed with ``print()`` (which the tests
do not read as the game's lines) comes back as ``"printed"``; ``input()`` raises (the tests type nothing).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import blackjack
import blackjack.course_game as course_game
from blackjack import HIDDEN, Action, Blackjack, Card, DealerView, HandView, IllegalActionError, Outcome, Result, Rules
from blackjack import parse_cards
from blackjack.__main__ import main
from milestones.grader.observer import READS_STDIN, capture, given_cards

_CS111 = Rules.preset("cs111")

#: Lines a game may say between two questions before the observation calls it a loop without end.
_LINE_LIMIT = 1000
#: The longest log sent back: its first _LOG_HEAD and last _LOG_TAIL entries (a runaway loop says 1000 lines).
_LOG_HEAD, _LOG_TAIL = 100, 20
_TEXT_LIMIT = 2000


# ---------------------------------------------------------------- a shoe of given cards

def _table(names: list[str], codes: str) -> Blackjack:
    """A cs111 table for ``names`` whose shoe deals ``codes`` first (table order, then hits)."""
    game = Blackjack(names, _CS111, seed=1)
    game.shoe.stack(codes.split())
    return game


# ---------------------------------------------------------------- where an exception happened

_PACKAGE = Path(blackjack.__file__).resolve().parent


def _in_package(filename: str) -> str | None:
    """``blackjack/round.py`` for a file of the blackjack package under test, else None."""
    path = Path(filename).resolve()
    if not path.is_relative_to(_PACKAGE):
        return None
    return "/".join(("blackjack", *path.relative_to(_PACKAGE).parts))


def _place(tb: TracebackType | None) -> str:
    """`` (in play_turn, blackjack/course_game.py:131)``, or the deepest package frame and the course game's that
    called it; "" when no frame of ``tb`` is in the package."""
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        where = _in_package(code.co_filename)
        if where is not None:
            frames.append((getattr(code, "co_qualname", code.co_name), where, tb.tb_lineno))
        tb = tb.tb_next
    if not frames:
        return ""
    deepest = frames[-1]
    yours = next((f for f in reversed(frames) if f[1] == "blackjack/course_game.py"), None)
    if yours is None or yours == deepest:
        return f" (in {deepest[0]}, {deepest[1]}:{deepest[2]})"
    return f" (in {deepest[0]}, {deepest[1]}:{deepest[2]}, called from {yours[0]}, {yours[1]}:{yours[2]})"


def _text(value: object, limit: int = _TEXT_LIMIT) -> str:
    """``str(value)`` cut to ``limit`` characters (a student's ``__str__`` that raises is named instead)."""
    try:
        text = str(value)
    except Exception as err:  # noqa: BLE001 - a student's __str__
        text = f"<str() raised {type(err).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _repr(value: object, limit: int = _TEXT_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters."""
    try:
        text = repr(value)
    except Exception as err:  # noqa: BLE001 - a student's __repr__
        text = f"<repr() raised {type(err).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ---------------------------------------------------------------- the scripted keyboard and the screen

class _OutOfAnswers(Exception):
    """The game asked a question after the scripted answers ran out."""


class _Runaway(Exception):
    """The game said many lines without asking anything: a loop that does not end."""


class _Table:
    """A scripted keyboard and a screen: ``ask`` answers from the script, ``say`` records the line.

    ``log`` holds everything in order: ``["ask", prompt]``, ``["say", line]``, and ``["not text", repr(value)]``
    when ``say`` was given something that is not a str. More than :data:`_LINE_LIMIT` lines in a row without a
    question raise :class:`_Runaway`.
    """

    def __init__(self, answers: list[str]) -> None:
        self.answers = list(answers)
        self.log: list[list[str]] = []
        self.said_since_asked = 0

    def ask(self, prompt: str) -> str:
        self.log.append(["ask", _text(prompt)])
        self.said_since_asked = 0
        if not self.answers:
            raise _OutOfAnswers(_text(prompt))
        return self.answers.pop(0)

    def say(self, line: str) -> None:
        self.log.append(["say", _text(line)] if isinstance(line, str) else ["not text", _repr(line)])
        self.said_since_asked += 1
        if self.said_since_asked > _LINE_LIMIT:
            raise _Runaway(_text(line, 200))

    def shown(self) -> dict[str, Any]:
        """The log (its head and tail when long) and how many entries were left out of it."""
        log = self.log
        if len(log) <= _LOG_HEAD + _LOG_TAIL:
            return {"log": log, "skipped": 0}
        return {"log": [*log[:_LOG_HEAD], *log[-_LOG_TAIL:]], "skipped": len(log) - _LOG_HEAD - _LOG_TAIL}


def _failure(err: Exception, table: _Table) -> dict[str, Any]:
    """What went wrong in a scripted call, as data (the judge words it)."""
    where = _place(err.__traceback__)
    if isinstance(err, _OutOfAnswers):
        return {"kind": "out of answers", "prompt": str(err)}
    if isinstance(err, _Runaway):
        return {"kind": "runaway", "said": table.said_since_asked - 1, "last": str(err), "where": where}
    if isinstance(err, IllegalActionError):
        return {"kind": "illegal", "message": _text(err), "where": where}
    if isinstance(err, OSError) and READS_STDIN in _text(err):
        return {"kind": "input", "where": where}
    return {"kind": "raised", "type": type(err).__name__, "message": _text(err), "where": where}


def _scripted(function: Callable[..., object], answers: list[str], *args: object,
              convert: Callable[[object], object] = lambda value: value) -> dict[str, Any]:
    """Call ``function(*args, ask, say)`` with ``ask`` answering ``answers`` in order.

    Returns ``{"returned": convert(its result), "failure": None or what went wrong, "log", "skipped",
    "printed"}``. A stub's NotImplementedError and a RecursionError propagate (the grader words them).
    """
    table = _Table(answers)

    def call() -> dict[str, Any]:
        try:
            return {"returned": convert(function(*args, table.ask, table.say)), "failure": None}
        except (NotImplementedError, RecursionError):
            raise
        except Exception as err:  # noqa: BLE001 - any other mistake is data for the judge's message
            return {"returned": None, "failure": _failure(err, table)}

    result, printed = capture(call)
    return {**result, **table.shown(), "printed": printed}  # type: ignore[dict-item]


# ---------------------------------------------------------------- showing the hands

def _lines(calls: list[tuple[Callable[..., object], tuple[object, ...]]]) -> dict[str, Any]:
    """Each ``function(*args)`` of ``calls`` with print() captured: ``lines``, the first as returned (None when it
    is not a str) and the others as ``str()``; ``reprs``, the repr of each as returned; and what was printed."""
    lines: list[str | None] = []
    reprs: list[str] = []
    printed = ""
    for function, args in calls:
        line, out = capture(function, *args)
        lines.append(_text(line) if lines or type(line) is str else None)
        reprs.append(_repr(line))
        printed += out
    return {"lines": lines, "reprs": reprs, "printed": printed}


def _hand_view(codes: str, total: int, bust: bool) -> HandView:
    cards = tuple(parse_cards(codes))
    return HandView(cards=cards, total=total, soft=False, total_text=str(total), bet=0, doubled=False,
                    surrendered=False, from_split=False, is_blackjack=False, is_bust=bust, finished=bust,
                    outcome=None)


def hand_texts(name: str, hands: list[list[Any]]) -> dict[str, Any]:
    """hand_text(name, hand) of each ``[codes, total, bust]`` hand (a HandView of given cards, no ace, as
    ``rnd.view()`` shows it), as :func:`_lines` gives them."""
    return _lines([(course_game.hand_text, (name, _hand_view(str(codes), int(total), bool(bust))))
                   for codes, total, bust in hands])


def _dealer_view(codes: str, total: int, revealed: bool) -> DealerView:
    cards = tuple(HIDDEN if code == "??" else Card.parse(code) for code in codes.split())
    return DealerView(cards=cards, upcard=cards[0] if isinstance(cards[0], Card) else None, total=total,
                      total_text=str(total), revealed=revealed)


def dealer_texts(dealers: list[list[Any]]) -> dict[str, Any]:
    """dealer_text(dealer) of each ``[codes, total, revealed]`` dealer (a DealerView of given cards, ``??`` the
    hidden hole card, ``total`` of the face-up cards), as :func:`_lines` gives them."""
    return _lines([(course_game.dealer_text, (_dealer_view(str(codes), int(total), bool(revealed)),))
                   for codes, total, revealed in dealers])


# ---------------------------------------------------------------- asking

def _action(value: object) -> dict[str, Any]:
    return {"action": value.name if type(value) is Action else None, "repr": _repr(value)}


def ask_hit_or_stand(name: str, answers: list[str]) -> dict[str, Any]:
    """ask_hit_or_stand(name, ask, say) answered ``answers``; ``returned``: the Action's name (None if it is not
    an Action) and its repr."""
    return _scripted(course_game.ask_hit_or_stand, answers, name, convert=_action)


def play_turns(names: list[str], codes: str, scripts: list[list[str]]) -> list[dict[str, Any]]:
    """play_turn(rnd, ask, say) once per script, on one round of a table of ``names`` dealt from ``codes``
    (given cards on top); after each, ``turn_after``: the name of the player whose turn it is (None when none).
    Stops after a call that went wrong."""
    turns = []
    with given_cards():
        rnd = _table(names, codes).start_round()
        for answers in scripts:
            played = _scripted(course_game.play_turn, answers, rnd)
            player = rnd.current_player
            played["turn_after"] = player.name if player is not None else None
            turns.append(played)
            if played["failure"] is not None:
                break
    return turns


def result_texts(name: str, results: list[str]) -> dict[str, Any]:
    """str(result_text(name, Outcome(result, 1, 0))) for each Result named; and what was printed."""
    lines = []
    printed = ""
    for result in results:
        line, out = capture(course_game.result_text, name, Outcome(Result[result], 1, 0))
        lines.append(_text(line))
        printed += out
    return {"lines": lines, "printed": printed}


# ---------------------------------------------------------------- rounds and games

def _outcomes(value: object) -> object:
    """``[[seat, result name], ...]`` of a list of (seat, hand, Outcome); the repr of anything else."""
    if type(value) is not list:
        return _repr(value)
    got = []
    for item in value:
        if type(item) is not tuple or len(item) != 3:
            return _repr(value)
        seat, _hand, outcome = item
        result = getattr(outcome, "result", None)
        got.append([seat, result.name if type(result) is Result else _repr(result)])
    return got


def play_round(names: list[str], codes: str, answers: list[str]) -> dict[str, Any]:
    """play_round(game, ask, say) at a table of ``names`` dealt from ``codes`` (given cards on top), answered
    ``answers``; ``returned``: the outcomes as ``[[seat, result name], ...]``."""
    with given_cards():
        return _scripted(course_game.play_round, answers, _table(names, codes), convert=_outcomes)


def play_game(names: list[str], codes: str, answers: list[str]) -> dict[str, Any]:
    """play_game(game, ask, say) at a table of ``names`` dealt from ``codes`` (given cards on top, kept on top
    at the reshuffle between rounds), answered ``answers``; ``returned``: what it returned."""
    with given_cards():
        return _scripted(course_game.play_game, answers, _table(names, codes))


def command_line(argv: list[str], typed: str) -> dict[str, Any]:
    """``python -m blackjack`` as ``main(argv, stdin, stdout)`` with ``typed`` on stdin, the shoe of given cards:
    the status, what it wrote, what was left unread, and what was printed with print()."""
    stdin, stdout = io.StringIO(typed), io.StringIO()
    with given_cards():
        status, printed = capture(main, argv, stdin, stdout)
    return {"status": status, "out": stdout.getvalue(), "unread": stdin.read(), "printed": printed}


def _wrong_action(game: Blackjack, ask: object, say: object) -> int:
    game.start_round().apply("h")  # type: ignore[arg-type]
    return 1


def _no_line(game: Blackjack, ask: object, say: object) -> int:
    say(None)  # type: ignore[operator]
    return 1


_BROKEN = {"wrong_action": _wrong_action, "no_line": _no_line}


def broken_command_line(broken: str, argv: list[str], typed: str) -> dict[str, Any]:
    """:func:`command_line` with the course game's play_game replaced by a broken one (``"wrong_action"``:
    applies the text "h"; ``"no_line"``: says None), to see how the given run() reports it."""
    saved = course_game.play_game
    course_game.play_game = _BROKEN[broken]
    try:
        return command_line(argv, typed)
    finally:
        course_game.play_game = saved
