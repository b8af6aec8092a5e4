"""Observations for test_hints_basic.py, run in the student's process: the student's basic_advice called on cards
and rules built from given classes, its answer sent as plain data with what it printed
(docs/design/graded_test_shape.md).

Cards from the judge are point values (ace 1) or card codes ("5h", made Cards with ``Card.parse``); rules are
``None`` or ``{"preset": name}`` (``Rules.preset(name)``).
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

from blackjack import Action, Card, Rules
from blackjack.hints import basic_advice
from milestones.observer import capture, plain

_TEXT_LIMIT = 64 * 1024


class _Bounded(io.StringIO):
    """Text written to stderr, of which the first ``_TEXT_LIMIT`` characters are kept."""

    def write(self, text: str) -> int:
        room = _TEXT_LIMIT - self.tell()
        if room > 0:
            super().write(str(text)[:room])
        return len(text)


def _card(card: object) -> object:
    return Card.parse(card) if isinstance(card, str) else card


def advice(cards: list[object], upcard: object, rules: dict[str, Any] | None) -> dict[str, object]:
    """``basic_advice(cards, upcard, rules)``: ``{"pair": it is a 2-tuple, "got": what came back when it is not,
    "action": the Action's name (None when not an Action), "action_data": the first item as data,
    "reason": the second item as data, "printed": what it printed on stdout and stderr}``."""
    chosen = None if rules is None else Rules.preset(rules["preset"])
    err = _Bounded()
    with contextlib.redirect_stderr(err):
        got, out = capture(basic_advice, [_card(c) for c in cards], _card(upcard), chosen)
    printed = out + err.getvalue()
    if not (isinstance(got, tuple) and len(got) == 2):
        return {"pair": False, "got": plain(got), "printed": printed}
    action, reason = got
    return {"pair": True, "action": action.name if isinstance(action, Action) else None,
            "action_data": None if isinstance(action, Action) else plain(action),
            "reason": plain(reason), "printed": printed}
