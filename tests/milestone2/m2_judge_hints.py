"""Judge-side checks of the milestone-2 hints suites (probabilities, basic hints, counting), written so a failure teaches.

These run in the grader's process and never import ``blackjack`` (in a student's starter it is the
student's code): they read the plain data the observations send (numbers through
:func:`milestones.judge.as_number`) and fail with a message that says what was given, what was
expected, what came back and the concept. ``shown``, ``check_type``, ``check_number`` and
``check_quiet`` are ``m2_helpers.py``'s (shared with the wagering and advanced-play suites), which
read the observations' data.

``dealer_distribution`` is a small stdlib enumeration of the dealer's draws, exact in fractions, so a
judge can compute an expected value without the kit's engine.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from m2_helpers import check_number, check_quiet, check_type, shown

__all__ = ["OUTCOMES", "check_number", "check_quiet", "check_type", "dealer_distribution", "fixed", "shown"]

#: The dealer's outcomes, as dealer_probabilities keys them.
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")


def fixed(value: object, places: int = 4) -> str:
    """A number with ``places`` decimals for a message (a Fraction too), anything else as :func:`shown` writes it."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return f"{float(value):.{places}f}"
    return shown(value)


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
