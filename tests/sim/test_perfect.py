"""The simulator's `perfect` (composition-dependent) strategy plays the best legal EV, and its EV table is keyed right."""

from __future__ import annotations

import random

import pytest

from blackjack import Action, Blackjack, Rules
from blackjack.hints.probability import expected_values
from blackjack.sim.strategies import PerfectStrategy, make_strategy


def _decide(strategy: PerfectStrategy, cards: str, preset: str = "vegas") -> tuple[Action, Blackjack]:
    """Deal `cards` (player, upcard, player, hole) at a one-seat table and ask the strategy."""
    game = Blackjack(["A"], Rules.preset(preset), seed=1)
    game.shoe.stack(cards)
    rnd = game.start_round([10])
    if rnd.phase.value == "insurance":
        rnd.apply(Action.DECLINE)
    hand = rnd.current_hand
    assert hand is not None
    return strategy.decide(hand, rnd.dealer.hand[0].value, rnd, 0.0), game


@pytest.mark.parametrize(("cards", "expected"), [
    ("Th Tc 6d 9s", Action.SURRENDER),  # hard 16 v 10, late surrender (vegas)
    ("6h 6c 5d 9s", Action.DOUBLE),     # 11 v 6
    ("Ah 6c Ad 9s", Action.SPLIT),      # A,A v 6
    ("Th 4c 3d 9s", Action.STAND),      # 13 v 4
    ("9h Tc 3d 9s", Action.HIT),        # 12 v 10
])
def test_perfect_plays_the_best_legal_ev(cards: str, expected: Action) -> None:
    """The move is the legal action with the highest EV for these cards against the full shoe less them."""
    strategy = make_strategy("perfect", Rules.preset("vegas"), random.Random(0))
    assert isinstance(strategy, PerfectStrategy)
    action, game = _decide(strategy, cards)
    assert action is expected
    rnd = game.round
    assert rnd is not None and rnd.current_hand is not None
    values = [card.value for card in rnd.current_hand]
    up = rnd.dealer.hand[0].value
    shoe = [24] * 9 + [96]
    for value in (*values, up):
        shoe[value - 1] -= 1
    evs = expected_values(values, up, tuple(shoe), game.rules)
    legal = {a: ev for a, ev in evs.items() if a in rnd.legal_actions()}
    assert action is max(legal, key=lambda a: legal[a])


def test_perfect_keys_its_evs_by_the_cards_not_their_order() -> None:
    """T,6 and 6,T against a 10 share one entry; a different upcard makes another."""
    rules = Rules.preset("vegas")
    strategy = make_strategy("perfect", rules, random.Random(0))
    assert isinstance(strategy, PerfectStrategy)
    strategy._known.clear()
    first, _ = _decide(strategy, "Th Tc 6d 9s")
    assert len(strategy._known) == 1
    second, _ = _decide(strategy, "6h Tc Td 9s")
    assert second is first and len(strategy._known) == 1
    _decide(strategy, "6h 9c Td 7s")
    assert len(strategy._known) == 2
    strategy._known.clear()
