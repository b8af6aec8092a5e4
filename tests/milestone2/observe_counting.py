"""Observations for test_counting.py, run in the student's process: the student's running_count and true_count
called on cards built from given classes (``parse_cards``, never the student's deck), the counting drill (given
code) played with answers from the student's running_count; plain data back (numbers with ``number()``), with
what was printed (docs/design/graded_test_shape.md).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable

from blackjack import parse_cards
from blackjack.hints import CountingDrill, running_count, true_count
from milestones.observer import capture, number, plain

_TEXT_LIMIT = 64 * 1024


class _Bounded(io.StringIO):
    """Text written to stderr, of which the first ``_TEXT_LIMIT`` characters are kept."""

    def write(self, text: str) -> int:
        room = _TEXT_LIMIT - self.tell()
        if room > 0:
            super().write(str(text)[:room])
        return len(text)


def _quiet(function: Callable[[], object]) -> tuple[object, str]:
    """``function()`` and what it printed on stdout and stderr."""
    err = _Bounded()
    with contextlib.redirect_stderr(err):
        result, out = capture(function)
    return result, out + err.getvalue()


def running_counts(hands: list[str], counting: str | None) -> dict[str, object]:
    """``running_count(parse_cards(codes))`` (with ``counting`` when given) of each string of card codes:
    ``{"counts": [number, ...], "printed": text}``."""
    counts: list[object] = []
    printed = ""
    for codes in hands:
        cards = parse_cards(codes)
        if counting is None:
            got, text = _quiet(lambda: running_count(cards))
        else:
            got, text = _quiet(lambda: running_count(cards, counting))
        counts.append(number(got))
        printed += text
    return {"counts": counts, "printed": printed}


def true_counts(cases: list[list[int]]) -> dict[str, object]:
    """``true_count(running, cards)`` of each ``[running, cards]``: ``{"counts": [number, ...], "printed": text}``."""
    counts: list[object] = []
    printed = ""
    for running, cards in cases:
        got, text = _quiet(lambda: true_count(running, cards))
        counts.append(number(got))
        printed += text
    return {"counts": counts, "printed": printed}


def drill_answers(counting: str, rounds: int, cards_per_round: int, seed: int, offsets: list[int]) -> dict[str, object]:
    """A ``CountingDrill(counting, rounds=..., cards_per_round=..., seed=...)``; each round flashes its cards and is
    answered with the sum of the student's running_count of each round's cards so far, plus that round's offset:
    ``{"correct": [each answer's .correct], "score": drill.score}``."""
    drill = CountingDrill(counting, rounds=rounds, cards_per_round=cards_per_round, seed=seed)
    total = 0
    correct: list[object] = []
    for offset in offsets:
        total = total + running_count(drill.next_cards())
        correct.append(plain(drill.answer(total + offset).correct))
    return {"correct": correct, "score": plain(drill.score)}
