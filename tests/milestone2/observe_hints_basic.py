"""Observations for test_hints_basic.py, run in the student's process: the student's basic_advice called on cards
and rules built from given classes, its answer sent as plain data with what it printed
(docs/design/graded_test_shape.md).

The reason's numbers come from the suite's given ``bust_probability`` and ``dealer_probabilities``
(``observe_given``), which stand in for the student's while basic_advice runs: a mistake in the probabilities costs
the probabilities' points, not the hints'.

Cards from the judge are point values (ace 1) or card codes ("5h", made Cards with ``Card.parse``); rules are
``None`` or ``{"preset": name}`` (``Rules.preset(name)``, with any other keys replaced in it); legal moves are
``None`` or a list of Action names.
"""

from __future__ import annotations

from typing import Any

from blackjack import Action
from blackjack.hints import basic_advice
from observe_given import given
from milestones.grader.observer import capture
from observe_m2 import advice_data, card_arg, hint_rules


def advices(cases: list[list[Any]]) -> list[dict[str, object]]:
    """``basic_advice(cards, upcard, rules, legal=...)`` for each ``[cards, upcard, rules, legal names or None]``,
    answered as :func:`advice` answers one."""
    out: list[dict[str, object]] = []
    with given("bust_probability", "dealer_probabilities"):
        for cards, upcard, rules, legal in cases:
            moves = None if legal is None else frozenset(Action[name] for name in legal)
            out.append(advice_data(*capture(lambda: basic_advice([card_arg(c) for c in cards], card_arg(upcard),
                                                                 hint_rules(rules), legal=moves), stderr=True)))
    return out
