"""Drills by hand type: the generated opening cards give the wanted spot when the engine deals them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackjack import Action, Blackjack, Card, Hand, Phase, Rules
from gui.drills import DRILLS, opening

KINDS = sorted(DRILLS)


def hands(codes: list[str], seats: int) -> tuple[list[Hand], Card]:
    """Split drill codes (deal order) into the seats' hands and the upcard."""
    cards = [Card.parse(c) for c in codes]
    return [Hand([cards[i], cards[seats + 1 + i]]) for i in range(seats)], cards[seats]


@given(st.integers(0, 10_000), st.integers(1, 3))
def test_hard_drill_deals_hard_non_pairs(seed: int, seats: int) -> None:
    """A hard drill gives every seat two different values without an ace."""
    for hand in hands(opening("hard", seats, random.Random(seed)), seats)[0]:
        assert not hand.is_soft() and not hand.is_pair(by="value") and not any(c.is_ace for c in hand), hand


@given(st.integers(0, 10_000), st.integers(1, 3))
def test_soft_drill_deals_soft_totals(seed: int, seats: int) -> None:
    """A soft drill gives every seat an ace and a 2..9: a soft 13 to 20."""
    for hand in hands(opening("soft", seats, random.Random(seed)), seats)[0]:
        assert hand.is_soft() and 13 <= hand.get_score() <= 20, hand


@given(st.integers(0, 10_000), st.integers(1, 3))
def test_pair_drill_deals_pairs(seed: int, seats: int) -> None:
    """A pair drill gives every seat two cards of one rank."""
    for hand in hands(opening("pair", seats, random.Random(seed)), seats)[0]:
        assert hand.is_pair(by="rank"), hand


@given(st.integers(0, 10_000), st.integers(1, 3))
def test_insurance_drill_shows_an_ace(seed: int, seats: int) -> None:
    """An insurance drill puts an ace up for the dealer."""
    assert hands(opening("insurance", seats, random.Random(seed)), seats)[1].is_ace


@given(st.sampled_from(KINDS), st.integers(0, 10_000), st.integers(1, 3))
def test_no_card_twice_on_one_deck(kind: str, seed: int, seats: int) -> None:
    """On one deck a drill for up to three seats never asks for the same card twice."""
    codes = opening(kind, seats, random.Random(seed))
    assert len(codes) == 2 * seats + 1 and len(set(codes)) == len(codes)


@given(st.sampled_from(KINDS), st.integers(0, 10_000), st.integers(1, 7))
def test_seven_seats_on_two_decks(kind: str, seed: int, seats: int) -> None:
    """On two decks a drill for up to seven seats asks for no card more than twice."""
    codes = opening(kind, seats, random.Random(seed), decks=2)
    assert max(codes.count(code) for code in codes) <= 2


def test_too_few_aces_is_refused() -> None:
    """A soft drill for five seats needs five aces, more than one deck has."""
    with pytest.raises(ValueError, match="too few cards"):
        opening("soft", 5, random.Random(1))


def test_same_seed_same_drill() -> None:
    """Drills replay by seed."""
    assert opening("soft", 3, random.Random(5)) == opening("soft", 3, random.Random(5))


def test_unknown_kind_is_refused() -> None:
    """An unknown drill kind raises ValueError naming the kinds."""
    with pytest.raises(ValueError, match="choose from: hard, soft, pair, insurance"):
        opening("splits", 1, random.Random(1))


def test_engine_deals_the_drilled_pair_on_a_single_deck() -> None:
    """Stacked on a single-deck table, a pair drill reaches the player turn with a splittable pair."""
    game = Blackjack(["Ann", "Bob"], Rules.preset("single_deck"), seed=9)
    rng = random.Random(2)
    for _ in range(20):
        game.shoe.stack(opening("pair", 2, rng))
        rnd = game.start_round([10, 10])
        view = rnd.view()
        assert all(Hand(seat.hands[0].cards).is_pair() for seat in view.seats)
        while rnd.turn is not None:
            rnd.apply(Action.DECLINE if rnd.phase is Phase.INSURANCE else Action.STAND)
        game.finish_round()
