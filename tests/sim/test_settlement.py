"""Settlement the simulator relies on, played through the unchecked tier it uses."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from blackjack import Action, Blackjack, Result, Rules


def _round(rules: Rules, cards: str, actions: list[Action], bet: int = 10) -> tuple[Blackjack, list]:
    """Deal one round for one seat from stacked cards, apply the actions unchecked, finish it."""
    game = Blackjack(["A"], rules, seed=1)
    game.shoe.stack(cards.split())
    rnd = game.new_round(events=False)
    rnd._place_bet_unchecked(0, Fraction(bet))
    rnd.deal()
    for action in actions:
        rnd._apply_unchecked(action)
    return game, [o for _s, _h, o in game.finish_round(record=False)]


def test_three_card_21_loses_to_dealer_natural() -> None:
    """No hole card (European): the player's 7-7-7 = 21 loses to the dealer's A-K drawn later (insurance declined)."""
    _game, (outcome,) = _round(Rules.preset("european"), "7h Ad 7c 7s Kd", [Action.DECLINE, Action.HIT])
    assert (outcome.result, outcome.net) == (Result.LOSE, Fraction(-10)), \
        f"a 3-card 21 is not a natural and loses to one; got {outcome}"


def test_natural_pays_3_to_2() -> None:
    """vegas: A-K against a dealer 9-7 pays 15 on a bet of 10."""
    _game, (outcome,) = _round(Rules.preset("vegas"), "Ah 9d Kc 7s", [])
    assert (outcome.result, outcome.net) == (Result.BLACKJACK, Fraction(15))


def test_natural_pays_6_to_5() -> None:
    """single_deck: A-K against a dealer 9-7 pays 12 on a bet of 10."""
    _game, (outcome,) = _round(Rules.preset("single_deck"), "Ah 9d Kc 7s", [])
    assert (outcome.result, outcome.net) == (Result.BLACKJACK, Fraction(12))


def test_h17_dealer_stands_on_soft_18() -> None:
    """An H17 dealer with A-6 hits, makes soft 18 with an ace, stands, and beats the player's 17."""
    rules = dataclasses.replace(Rules.preset("vegas"), dealer_hits_soft_17=True)
    game, (outcome,) = _round(rules, "Th 6d 7c As Ac 9h", [Action.STAND])
    assert str(game.shoe.cards[0]) == "9h", "the dealer must stop at soft 18 and leave the 9 in the shoe"
    assert outcome.result is Result.LOSE, f"soft 18 beats 17; got {outcome}"


def test_s17_dealer_stands_on_soft_17() -> None:
    """An S17 dealer stands on A-6: the player's 17 pushes."""
    _game, (outcome,) = _round(Rules.preset("vegas"), "Th 6d 7c As", [Action.STAND])
    assert outcome.result is Result.PUSH
