"""Judge-side checks of the milestone-2 hints suites (probabilities, basic hints, counting), written so a failure teaches.

These run in the grader's process and never import ``blackjack`` (in a student's starter it is the
student's code): they read the plain data the observations send (numbers through
:func:`milestones.judge.as_number`) and fail with a message that says what was given, what was
expected, what came back and the concept. ``shown``, ``check_type``, ``check_number`` and the
message of ``check_quiet`` are copied from ``m2_helpers.py`` (which is shared with the wagering and
advanced-play suites), made to work on data instead of objects.

``dealer_distribution`` is a small stdlib enumeration of the dealer's draws, exact in fractions, so a
judge can compute an expected value without the kit's engine.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

#: The dealer's outcomes, as dealer_probabilities keys them.
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")


def shown(value: object) -> str:
    """``value`` (data from the student's process) as a student should read it in a message.

    ``None`` becomes "nothing (None: is a return missing?)", a float says it is one, a Fraction
    prints as a number (``15/2 = 7.5``), an object the student's code returned as ``<Type object: text>``.
    """
    if value is None:
        return "nothing (None: is a return statement missing?)"
    if isinstance(value, float):
        return f"{value!r} (a float)"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value} = {float(value):g}"
    return repr(value)


def fixed(value: object, places: int = 4) -> str:
    """A number with ``places`` decimals for a message (a Fraction too), anything else as :func:`shown` writes it."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return f"{float(value):.{places}f}"
    return shown(value)


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


def check_quiet(printed: str, what: str) -> None:
    """Fail when the code under test printed (``printed``: what the observation captured on stdout and stderr):
    the engine returns values and raises errors; it never prints."""
    printed = printed.strip()
    if printed:
        first = printed.splitlines()[0][:120]
        raise AssertionError(
            f"{what} printed {first!r}{' ...' if len(printed.splitlines()) > 1 else ''}: the engine never prints "
            f"(the text game and the GUI show what it returns, and a print would show up in every front end). "
            f"Return the value or raise an error instead; to trace your code use logging.debug, which is off "
            f"unless you turn it on")


def dealer_distribution(upcard: int, shoe: dict[int, int], *, hits_soft_17: bool = False,
                        peeked: bool = False) -> dict[str, Fraction]:
    """The dealer's final-total chances for ``upcard`` (1..10, ace 1) drawing without replacement from ``shoe``
    (point value -> count, the upcard already out), exact; ``peeked``: the hole card is known not to make a natural.

    Naturals are on (a two-card 21 is ``"blackjack"``); the caller makes sure the cards cannot run out.
    """
    barred = {1: 10, 10: 1}.get(upcard) if peeked else None

    def final(hard: int, ace: bool, cards: int) -> str | None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            return "bust"
        if cards == 2 and total == 21:
            return "blackjack"
        if total >= 17 and not (total == 17 and soft and hits_soft_17):
            return str(total)
        return None

    @functools.cache
    def draw(left: tuple[int, ...], hard: int, ace: bool, cards: int) -> tuple[Fraction, ...]:
        skip = barred if cards == 1 else None
        total_left = sum(count for value, count in enumerate(left, 1) if value != skip)
        sums = [Fraction(0)] * len(OUTCOMES)
        for value, count in enumerate(left, 1):
            if count == 0 or value == skip:
                continue
            p = Fraction(count, total_left)
            end = final(hard + value, ace or value == 1, cards + 1)
            if end is not None:
                sums[OUTCOMES.index(end)] += p
            else:
                after = left[:value - 1] + (count - 1,) + left[value:]
                for index, q in enumerate(draw(after, hard + value, ace or value == 1, cards + 1)):
                    sums[index] += p * q
        return tuple(sums)

    counts = tuple(shoe.get(value, 0) for value in range(1, 11))
    return dict(zip(OUTCOMES, draw(counts, upcard, upcard == 1, 1), strict=True))
