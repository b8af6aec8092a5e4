"""Judge-side checks of the milestone-2 hints suites (probabilities, basic hints, counting), written so a failure teaches.

These run in the grader's process and never import ``blackjack`` (in a student's starter it is the
student's code): they read the plain data the observations send (numbers through
:func:`milestones.grader.judge.as_number`) and fail with a message that says what was given, what was
expected, what came back and the concept. ``shown``, ``check_type``, ``check_number`` and
``check_quiet`` are ``m2_helpers.py``'s (shared with the wagering and advanced-play suites), which
read the observations' data.

``dealer_distribution`` (``observe_odds.py``) is a small stdlib enumeration of the dealer's draws, exact in
fractions, so a judge can compute an expected value without the kit's engine.
"""

from __future__ import annotations

from fractions import Fraction

from m2_helpers import check_number, check_quiet, check_type, shown
from observe_odds import OUTCOMES, dealer_distribution

__all__ = ["OUTCOMES", "check_number", "check_quiet", "check_type", "dealer_distribution", "fixed", "shown"]


def fixed(value: object, places: int = 4) -> str:
    """A number with ``places`` decimals for a message (a Fraction too), anything else as :func:`shown` writes it."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return f"{float(value):.{places}f}"
    return shown(value)
