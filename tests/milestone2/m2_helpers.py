"""Shared checks of the milestone-2 suite, written so that a failure teaches.

Each helper fails with a message that says what was given, what was expected, what
came back and the concept, in words a student can act on: a float where money must be
exact is called a float (``7.5`` and ``Fraction(15, 2)`` print alike), a call that
should have been refused names what it accepted (never pytest's bare "DID NOT RAISE"),
and ``None`` is explained as a missing ``return`` instead of being printed bare.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

from blackjack import Outcome

E = TypeVar("E", bound=BaseException)


def shown(value: object) -> str:
    """``value`` as a student should read it in a message.

    ``None`` becomes "nothing (None: is a return missing?)", a float says it is one,
    a Fraction prints as a number (``15/2 = 7.5``), an Outcome as ``WIN, bet 10, net +10``.
    """
    if value is None:
        return "nothing (None: is a return statement missing?)"
    if isinstance(value, float):
        return f"{value!r} (a float)"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value} = {float(value):g}"
    if isinstance(value, Outcome):
        return f"{value.result.name}, bet {shown(value.bet)}, net {_signed(value.net)}"
    return repr(value)


def _signed(amount: object) -> str:
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
        got: what came back.
        want: the exact amount expected.
        concept: the rule that gives ``want``, ``"a natural pays 3:2"``.
    """
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


def check_outcome(what: str, got: Outcome, want: Outcome, concept: str) -> None:
    """Fail unless the settled hand ``got`` has ``want``'s result, bet and net (exact money)."""
    if got.result is not want.result:
        raise AssertionError(f"{what} should end {want.result.name} ({concept}); got {shown(got)}")
    check_money(f"{what}: the bet", got.bet, want.bet, concept)
    check_money(f"{what}: the net gain", got.net, want.net, concept)


def refused(error: type[E], call: Callable[[], object], given: str, rule: str) -> E:
    """Return the ``error`` that ``call()`` raises; fail naming what was accepted when it raises none.

    Another exception is not caught: the grader reports it with the line of the student's
    code that raised it.

    Args:
        error: the exception expected, ``InvalidBetError``.
        call: the call that should be refused.
        given: what was asked, ``"place_bet(0, 4)"``.
        rule: why it must be refused, ``"4 is under the table minimum of 5"``.
    """
    try:
        came_back = call()
    except error as err:
        text = str(err)
        if not text.strip() or "\n" in text.strip():
            raise AssertionError(f"{given} raised {error.__name__} as it should ({rule}), but its message "
                                 f"should be one line saying why; got {text!r}") from None
        if "None" in text.split():
            raise AssertionError(f"{given} raised {error.__name__} as it should ({rule}), but its message "
                                 f"{text!r} shows None: a reason came back empty (is a return missing?)") from None
        return err
    returned = "" if came_back is None or isinstance(came_back, tuple) else f" and returned {shown(came_back)}"
    raise AssertionError(f"{given} was accepted{returned}; it should raise {error.__name__}: {rule}")


def check_type(what: str, got: object, kind: type | tuple[type, ...], expected: str) -> None:
    """Fail unless ``got`` is a ``kind``: ``what`` should return ``expected`` (``"a dict of chances"``)."""
    if isinstance(got, bool) or not isinstance(got, kind):
        raise AssertionError(f"{what} should return {expected}; got {shown(got)}")


def check_number(what: str, got: object, want: float, concept: str, *, tol: float = 1e-9) -> None:
    """Fail unless ``got`` is a number within ``tol`` of ``want``; the message shows both to enough digits."""
    check_type(what, got, (int, float, Fraction), "a number")
    assert isinstance(got, (int, float, Fraction)), f"{what} should return a number; got {shown(got)}"
    digits = 12 if tol <= 0 else max(4, min(12, 1 - math.floor(math.log10(tol))))
    if not abs(float(got) - want) <= tol:
        raise AssertionError(f"{what} should be {want:.{digits}g} ({concept}); got {float(got):.{digits}g}")


def check_quiet(capsys: object, what: str) -> None:
    """Fail when the code under test printed: the engine returns values and raises errors; it never prints.

    ``capsys`` is pytest's fixture of the test (typed loosely so this module needs no pytest import).
    """
    out, err = capsys.readouterr()  # type: ignore[attr-defined]
    printed = (out + err).strip()
    if printed:
        first = printed.splitlines()[0][:120]
        raise AssertionError(
            f"{what} printed {first!r}{' ...' if len(printed.splitlines()) > 1 else ''}: the engine never prints "
            f"(the text game and the GUI show what it returns, and a print would show up in every front end). "
            f"Return the value or raise an error instead; to trace your code use logging.debug, which is off "
            f"unless you turn it on")
