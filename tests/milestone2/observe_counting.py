"""Observations for test_counting.py, run in the student's process: the student's running_count, true_count,
bet_ramp and count_advice called on cards built from given classes (``parse_cards``, never the student's deck), the
counting drill (given code) played with answers from the student's running_count; plain data back (numbers with
``number()``), with what was printed (docs/design/graded_test_shape.md).
"""

from __future__ import annotations

from collections.abc import Callable

from fractions import Fraction
from typing import Any

from blackjack import Action, parse_cards
from blackjack.hints import CountingDrill, bet_ramp, count_advice, running_count, true_count
from observe_given import given
from milestones.grader.observer import capture, number, plain
from observe_m2 import advice_data, card_arg


def _quiet(function: Callable[[], object]) -> tuple[object, str]:
    """``function()`` and what it printed on stdout and stderr."""
    return capture(function, stderr=True)


def running_counts(hands: list[str], counting: str | None, decks: int | None = None) -> dict[str, object]:
    """``running_count(parse_cards(codes))`` (with ``counting`` and ``decks=`` when given) of each string of card
    codes: ``{"counts": [number, ...], "printed": text}``."""
    counts: list[object] = []
    printed = ""
    for codes in hands:
        cards = parse_cards(codes)
        if counting is None:
            got, text = _quiet(lambda: running_count(cards))
        elif decks is None:
            got, text = _quiet(lambda: running_count(cards, counting))
        else:
            got, text = _quiet(lambda: running_count(cards, counting, decks=decks))
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


def _money(text: object) -> object:
    """``"5/2"`` -> ``Fraction(5, 2)``; an int stays an int."""
    return Fraction(text) if isinstance(text, str) else text


def bet_ramps(cases: list[list[Any]]) -> dict[str, object]:
    """``bet_ramp(true count, unit, spread=...)`` of each ``[true count, unit ("5/2" for a Fraction), spread or None]``:
    ``{"bets": [number, or {"raised": "ValueError", "message": text} when it refused], "printed": text}``."""
    bets: list[object] = []
    printed = ""
    for tc, unit, spread in cases:
        try:
            if spread is None:
                got, text = _quiet(lambda: bet_ramp(tc, _money(unit)))
            else:
                got, text = _quiet(lambda: bet_ramp(tc, _money(unit), spread=spread))
        except ValueError as err:  # the refusal the test asks for comes back as data; anything else propagates
            bets.append({"raised": type(err).__name__, "message": str(err)[:200]})
            continue
        bets.append(number(got))
        printed += text
    return {"bets": bets, "printed": printed}


def count_advices(cases: list[list[Any]]) -> list[dict[str, object]]:
    """``count_advice(cards, upcard, true count, legal=...)`` (``Rules()``) for each ``[cards, upcard, true count,
    legal move names]``: ``{"pair": a 2-tuple came back, "action": the Action's name or None, "reason": data,
    "got": what came back when not a pair, "printed": text}``."""
    out: list[dict[str, object]] = []
    with given("bust_probability", "dealer_probabilities"):  # the chances a basic_advice reason quotes are given
        for cards, upcard, tc, legal in cases:
            moves = frozenset(Action[name] for name in legal)
            out.append(advice_data(*_quiet(lambda: count_advice([card_arg(c) for c in cards], card_arg(upcard), tc,
                                                                legal=moves))))
    return out
