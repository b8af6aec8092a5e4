"""Observations for test_blackjack.py, run in the student's process: whole rounds through the student's
Blackjack.play_round, played on a shoe of given cards, returned as plain data (docs/design/graded_test_shape.md).

The shoe's 52 cards come from ``parse_cards`` and its shuffles from :func:`_course_shuffle` (suite code), never from
the student's ``create_card_array`` and ``shuffle``: those are graded by test_deck.py and test_shuffle.py, and a
mistake there must not cost these tests' points too (issue 29). test_player.py's observations use the same tables
(:func:`_table`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Callable, Iterator, MutableSequence, Sequence
from fractions import Fraction
from typing import Any

import blackjack.deck as _deck_module
from blackjack import (Action, Blackjack, Card, CardDealt, Event, Result, Rules, Shoe, ShoeShuffled, TableView,
                       parse_cards)
from blackjack.wagers import compare_scores
from milestones.grader.observer import plain

_CS111 = Rules.preset("cs111")
#: The 52 codes, ace to king of spades, diamonds, clubs, hearts (the course's deck order).
_DECK_CODES = " ".join(face + suit for suit in "sdch" for face in "A23456789TJQK")


def _given_cards() -> list[Card]:
    return parse_cards(_DECK_CODES)


def _course_shuffle(cards: MutableSequence[Any], rng: random.Random | None = None) -> None:
    """The course's Deck.shuffle as milestones/specs/milestone1.md quotes it: swap each card with one at a random
    position. It is biased (not every order equally likely; test_shuffle.py fails it), which a test's shoe does not
    mind: it only needs a seed to replay the same cards and another seed to deal others."""
    rand = rng if rng is not None else random.Random()
    for i in range(len(cards)):
        j = rand.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]


@contextlib.contextmanager
def _given_deck() -> Iterator[None]:
    """While it lasts, the shoe's module makes its cards and shuffles them with the suite's functions above."""
    given = {"create_card_array": _given_cards, "shuffle": _course_shuffle}
    saved = {name: getattr(_deck_module, name) for name in given}
    for name, function in given.items():
        setattr(_deck_module, name, function)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(_deck_module, name, function)


class _GivenShoe(Shoe):
    """The shoe ``rules`` describe (``Shoe.from_rules``), its cards and every shuffle made by the suite's code."""

    def __init__(self, rules: Rules, seed: int) -> None:
        with _given_deck():
            super().__init__(rules.decks, seed=seed, penetration=rules.penetration,
                             cut_card_from_back=rules.cut_card_from_back)

    def _reshuffle(self, extra: list[Card]) -> None:
        with _given_deck():
            super()._reshuffle(extra)


def _table(players: Sequence[str], seed: int, codes: str = "", rules: Rules = _CS111,
           listeners: Sequence[Callable[[Event], None]] = ()) -> Blackjack:
    """A table for ``players`` on a given shoe seeded with ``seed``, its next cards ``codes`` (table order)."""
    game = Blackjack(list(players), rules, shoe=_GivenShoe(rules, seed), listeners=listeners)
    if codes:
        game.shoe.stack(codes)
    return game


class _Stop(BaseException):
    """Raised by a scripted decide() to end play that has gone wrong; ``data`` says how, as plain data.

    A ``BaseException``, so a student's ``except Exception`` cannot swallow it and ask again."""

    def __init__(self, data: dict[str, object]) -> None:
        super().__init__(data)
        self.data = data


class _HitBelow:
    """A policy: seat i hits while its total is below limits[i], then stands. Called with no player's turn open,
    it stops the game (:class:`_Stop`) with the phase and turn it was shown."""

    def __init__(self, limits: Sequence[int]) -> None:
        self.limits = list(limits)

    def __call__(self, view: TableView) -> Action:
        hand = view.current_hand
        if view.turn is None or hand is None:
            raise _Stop({"no_turn": {"phase": view.phase.value, "turn": plain(view.turn)}})
        return Action.HIT if hand.total < self.limits[view.turn[0]] else Action.STAND


def _results(outcomes: object) -> dict[str, object]:
    """``{"results": [[seat, Result name], ...]}`` from play_round's list of (seat, hand, Outcome);
    ``{"returned": what it was}`` when it is not such a list."""
    if type(outcomes) is list:
        try:
            results = [[seat, outcome.result.name] for seat, _hand, outcome in outcomes]
        except (TypeError, ValueError, AttributeError):
            pass
        else:
            if all(type(seat) is int for seat, _name in results):
                return {"results": results}
    return {"returned": plain(outcomes)}


def round_results(players: list[str], seed: int, codes: str, limits: list[int]) -> dict[str, object]:
    """One round through the student's Blackjack.play_round on a shoe stacked with ``codes``: the results, or
    ``{"no_turn": ...}`` when decide() was called with no player's turn open."""
    game = _table(players, seed, codes)
    try:
        return _results(game.play_round(_HitBelow(limits)))
    except _Stop as stop:
        return stop.data


def compare(score: int, dealer_score: int) -> object:
    """compare_scores(score, dealer_score): the Result's name."""
    result = compare_scores(score, dealer_score)
    return result.name if isinstance(result, Result) else plain(result)


def cards_dealt(players: list[str], seed: int, codes: str, limits: list[int]) -> dict[str, object]:
    """One round on a stacked shoe: every CardDealt event as [seat, card code] ("??" for a card dealt face down)."""
    events: list[Event] = []
    game = _table(players, seed, codes, listeners=[events.append])
    try:
        game.play_round(_HitBelow(limits))
    except _Stop as stop:
        return stop.data
    return {"dealt": [[e.seat, str(e.card) if e.card else "??"] for e in events if isinstance(e, CardDealt)]}


def cards_held(players: list[str], seed: int, limits: list[int], rounds: int) -> dict[str, object]:
    """After each of ``rounds`` rounds, the codes of the cards in the shoe and the discard pile, sorted."""
    game = _table(players, seed)
    held: list[list[str]] = []
    try:
        for _ in range(rounds):
            game.play_round(_HitBelow(limits))
            held.append(sorted(str(c) for c in (*game.shoe.cards, *game.shoe.discards)))
    except _Stop as stop:
        return stop.data
    return {"held": held}


def replay(players: list[str], seed: int, limits: list[int], rounds: int) -> dict[str, object]:
    """``rounds`` rounds at a table seeded with ``seed``: what each play_round returned and every event, as text."""
    events: list[Event] = []
    game = _table(players, seed, listeners=[events.append])
    try:
        outcomes = [repr(game.play_round(_HitBelow(limits))) for _ in range(rounds)]
    except _Stop as stop:
        return stop.data
    return {"outcomes": outcomes, "events": [repr(e) for e in events]}


def reshuffles(players: list[str], seed: int, limits: list[int], rounds: int, penetration: str) -> dict[str, object]:
    """Rounds from a shoe reshuffled at its cut card (at ``penetration``) only: for each round, whether the cut card
    was reached before it, and the indices of its ShoeShuffled events among the round's events."""
    rules = dataclasses.replace(_CS111, reshuffle_every_round=False, penetration=Fraction(penetration))
    events: list[Event] = []
    game = _table(players, seed, rules=rules, listeners=[events.append])
    seen: list[dict[str, object]] = []
    try:
        for _ in range(rounds):
            due = game.shoe.cut_card_reached
            events.clear()
            game.play_round(_HitBelow(limits))
            seen.append({"due": due, "shuffles": [i for i, e in enumerate(events) if isinstance(e, ShoeShuffled)]})
    except _Stop as stop:
        return stop.data
    return {"rounds": seen}


def after_round(players: list[str], seed: int, limits: list[int]) -> dict[str, object]:
    """The table after one play_round: whether a round is still open, the dealer's cards, rounds played."""
    game = _table(players, seed)
    try:
        game.play_round(_HitBelow(limits))
    except _Stop as stop:
        return stop.data
    return {"round_open": game.round is not None, "dealer_cards": len(game.dealer.hand),
            "rounds_played": game.rounds_played}


def cards_in_play(players: list[str], seed: int) -> object:
    """Blackjack.cards_in_play() once a round is dealt."""
    game = _table(players, seed)
    game.start_round()
    return game.cards_in_play()


def dealer_seen(players: list[str], seed: int, codes: str) -> dict[str, object]:
    """The dealer in the view of a round just dealt: whether the upcard is a Card, and how the hole card shows."""
    view = _table(players, seed, codes).start_round().view()
    return {"upcard_is_card": isinstance(view.dealer.upcard, Card), "upcard": str(view.dealer.upcard),
            "hole": str(view.dealer.cards[1])}
