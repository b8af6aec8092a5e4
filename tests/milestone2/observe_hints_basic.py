"""Observations for test_hints_basic.py, run in the student's process: the student's basic_advice called on cards
and rules built from given classes, its answer sent as plain data with what it printed
(docs/design/graded_test_shape.md).

Cards from the judge are point values (ace 1) or card codes ("5h", made Cards with ``Card.parse``); rules are
``None`` or ``{"preset": name}`` (``Rules.preset(name)``, with any other keys replaced in it); legal moves are
``None`` or a list of Action names.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from blackjack import Action, Card, Rules
from blackjack.hints import basic_advice
from milestones.observer import capture, plain



def _card(card: object) -> object:
    return Card.parse(card) if isinstance(card, str) else card


def _rules(spec: dict[str, Any] | None) -> Rules | None:
    if spec is None:
        return None
    changes = dict(spec)
    preset = changes.pop("preset", None)
    base = Rules.preset(preset) if preset else Rules()
    return dataclasses.replace(base, **changes) if changes else base


def advices(cases: list[list[Any]]) -> list[dict[str, object]]:
    """``basic_advice(cards, upcard, rules, legal=...)`` for each ``[cards, upcard, rules, legal names or None]``,
    answered as :func:`advice` answers one."""
    out: list[dict[str, object]] = []
    for cards, upcard, rules, legal in cases:
        moves = None if legal is None else frozenset(Action[name] for name in legal)
        got, printed = capture(lambda: basic_advice([_card(c) for c in cards], _card(upcard), _rules(rules),
                                                    legal=moves), stderr=True)
        if not (isinstance(got, tuple) and len(got) == 2):
            out.append({"pair": False, "got": plain(got), "printed": printed})
            continue
        action, reason = got
        out.append({"pair": True, "action": action.name if isinstance(action, Action) else None,
                    "action_data": None if isinstance(action, Action) else plain(action),
                    "reason": plain(reason), "printed": printed})
    return out
