"""Shared checks of the milestone-2 suite's judges, written so that a failure teaches.

Judge side only: this module runs in the grader's pytest process and never imports
``blackjack`` (in a student's starter that package is the student's code). It reads the
plain data the observations (``observe_*.py``) send back: numbers as
:func:`milestones.grader.observer.number` sends them (every check here reads them with
:func:`milestones.grader.judge.as_number`, so ``{"fraction": "15/2"}`` is ``Fraction(15, 2)``), a
settled hand as ``{"result": "WIN", "bet": 10, "net": 10}``, what the code printed as
text, and the student's exception as a :class:`milestones.grader.judge.Raised`.

Each helper fails with a message that says what was given, what was expected, what
came back and the concept, in words a student can act on: a float where money must be
exact is called a float (``7.5`` and ``Fraction(15, 2)`` print alike), a call that
should have been refused names what it accepted (never pytest's bare "DID NOT RAISE"),
and ``None`` is explained as a missing ``return`` instead of being printed bare.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, TypeGuard

from milestones.grader.judge import Raised, as_number

#: The keys of a settled hand as the observations send it (``observe_m2.outcome_data``).
OUTCOME_KEYS = frozenset({"result", "bet", "net"})


def shown(value: object) -> str:
    """``value`` as a student should read it in a message.

    ``None`` becomes "nothing (None: is a return missing?)", a float says it is one,
    a Fraction (or ``{"fraction": "15/2"}`` as an observation sends it) prints as a number
    (``15/2 = 7.5``), a settled hand ``{"result": "WIN", "bet": 10, "net": 10}`` as
    ``WIN, bet 10, net +10``.
    """
    value = as_number(value)
    if value is None:
        return "nothing (None: is a return statement missing?)"
    if isinstance(value, float):
        return f"{value!r} (a float)"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value} = {float(value):g}"
    if is_outcome(value):
        return f"{value['result']}, bet {shown(value['bet'])}, net {_signed(value['net'])}"
    return repr(value)


def is_outcome(value: object) -> TypeGuard[dict[str, Any]]:
    """``value`` is a settled hand as the observations send it: ``{"result": "WIN", "bet": ..., "net": ...}``."""
    return isinstance(value, dict) and set(value) == OUTCOME_KEYS and isinstance(value["result"], str)


def _signed(amount: object) -> str:
    amount = as_number(amount)
    if isinstance(amount, (int, Fraction)) and not isinstance(amount, bool):
        return ("+" if amount > 0 else "") + shown(Fraction(amount))
    return shown(amount)


def money(amount: int | Fraction) -> str:
    """An exact amount as the tests write it: ``10``, ``15/2 (7.5)``."""
    value = Fraction(amount)
    return str(value.numerator) if value.denominator == 1 else f"{value} ({float(value):g})"


def check_money(what: str, got: object, want: int | Fraction, concept: str) -> None:
    """Fail unless ``got`` is exactly ``want`` and exact money (an int or a Fraction, never a float).

    Args:
        what: what was measured, ``"the bankroll after a natural on 5"``.
        got: what came back, as the observation sent it (read here with ``as_number``).
        want: the exact amount expected.
        concept: the rule that gives ``want``, ``"a natural pays 3:2"``.
    """
    got = as_number(got)
    if isinstance(got, float):
        raise AssertionError(
            f"{what} should be exactly {money(want)} ({concept}); got the float {got!r}. Money must be exact "
            f"(an int or a Fraction, never a float: 0.1 + 0.2 != 0.3), so keep amounts as Fraction all the way "
            f"(Fraction(3, 2) * 5 == Fraction(15, 2)) and never divide money with / on ints")
    if isinstance(got, bool) or not isinstance(got, (int, Fraction)):
        raise AssertionError(f"{what} should be exactly {money(want)} ({concept}), an int or a Fraction; "
                             f"got {shown(got)}")
    if got != want:
        raise AssertionError(f"{what} should be exactly {money(want)} ({concept}); got {shown(got)}")


def check_outcome(what: str, got: object, want: tuple[str, int | Fraction, int | Fraction], concept: str) -> None:
    """Fail unless the settled hand ``got`` (``{"result": "WIN", "bet": ..., "net": ...}``) has ``want``'s result,
    bet and net; ``want`` is ``(result name, bet, net)``, ``("WIN", 10, 10)`` (exact money)."""
    result, bet, net = want
    if not is_outcome(got) or got["result"] != result:
        raise AssertionError(f"{what} should end {result} ({concept}); got {shown(got)}")
    check_money(f"{what}: the bet", got["bet"], bet, concept)
    check_money(f"{what}: the net gain", got["net"], net, concept)


def check_refused(raised: Raised | None, error: str, given: str, rule: str) -> Raised:
    """Return ``raised`` when it is the ``error`` expected; fail naming what was accepted when the call returned.

    Another exception is not judged here: it is raised again, and the grader reports it
    as the student's error, with the line of the student's code that raised it.

    Args:
        raised: what ``student.raised(...)`` gave for the call that should be refused.
        error: the exception's class name, ``"InvalidBetError"`` (a subclass of it is fine).
        given: what was asked, ``"place_bet(0, 4)"``.
        rule: why it must be refused, ``"4 is under the table minimum of 5"``.
    """
    if raised is None:
        raise AssertionError(f"{given} was accepted; it should raise {error}: {rule}")
    if not raised.is_a(error):
        raise raised
    text = raised.message
    if not text.strip() or "\n" in text.strip():
        raise AssertionError(f"{given} raised {error} as it should ({rule}), but its message "
                             f"should be one line saying why; got {text!r}")
    if "None" in text.split():
        raise AssertionError(f"{given} raised {error} as it should ({rule}), but its message "
                             f"{text!r} shows None: a reason came back empty (is a return missing?)")
    return raised


def check_type(what: str, got: object, kind: type | tuple[type, ...], expected: str) -> None:
    """Fail unless ``got`` (read with ``as_number``) is a ``kind``: ``what`` should return ``expected``
    (``"a dict of chances"``)."""
    got = as_number(got)
    if isinstance(got, bool) or not isinstance(got, kind):
        raise AssertionError(f"{what} should return {expected}; got {shown(got)}")


def check_number(what: str, got: object, want: float, concept: str, *, tol: float = 1e-9) -> None:
    """Fail unless ``got`` (read with ``as_number``) is a number within ``tol`` of ``want``; the message shows both
    to enough digits."""
    got = as_number(got)
    check_type(what, got, (int, float, Fraction), "a number")
    assert isinstance(got, (int, float, Fraction)), f"{what} should return a number; got {shown(got)}"
    digits = 12 if tol <= 0 else max(4, min(12, 1 - math.floor(math.log10(tol))))
    if not abs(float(got) - want) <= tol:
        raise AssertionError(f"{what} should be {want:.{digits}g} ({concept}); got {float(got):.{digits}g}")


def check_quiet(printed: Any, what: str) -> None:
    """Fail when the code under test printed: the engine returns values and raises errors; it never prints.

    ``printed`` is the text an observation captured (``milestones.grader.observer.capture``); pytest's
    ``capsys`` fixture (anything with ``readouterr()``) is read as before.
    """
    if not isinstance(printed, str):
        out, err = printed.readouterr()
        printed = out + err
    printed = printed.strip()
    if printed:
        first = printed.splitlines()[0][:120]
        raise AssertionError(
            f"{what} printed {first!r}{' ...' if len(printed.splitlines()) > 1 else ''}: the engine never prints "
            f"(the text game and the GUI show what it returns, and a print would show up in every front end). "
            f"Return the value or raise an error instead; to trace your code use logging.debug, which is off "
            f"unless you turn it on")


def transcript(got: dict[str, Any]) -> str:
    """What a scripted course-game call showed, prompts marked with '?', for a failure message."""
    shown_lines = "\n".join(f"   {'? ' if kind == 'ask' else ''}{text}" for kind, text in got["log"])
    return f"\n  what the game showed (? marks a prompt):\n{shown_lines or '   (nothing)'}"


def check_scripted(got: dict[str, Any], name: str) -> tuple[list[str], list[str]]:
    """Fail when the scripted call of ``name`` printed or went wrong (a question past the script, an exception),
    with the transcript; return its prompts and its lines."""
    check_quiet(got["printed"], name)
    assert got["failure"] is None, f"{name}: {got['failure']}" + transcript(got)
    return ([text for kind, text in got["log"] if kind == "ask"], [text for kind, text in got["log"] if kind == "say"])


def said_between_asks(got: dict[str, Any]) -> list[list[str]]:
    """The lines said after each answer, before the next question (the last answer's: to the end)."""
    groups: list[list[str]] = []
    for kind, text in got["log"]:
        if kind == "ask":
            groups.append([])
        elif groups:
            groups[-1].append(text)
    return groups
