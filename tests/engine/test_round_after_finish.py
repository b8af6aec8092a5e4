"""A finished round keeps answering about itself after the table moves on (not graded)."""

from __future__ import annotations

import pytest

from blackjack import Action, Blackjack, IllegalActionError, Rules


def test_insurance_net_survives_finish_round() -> None:
    """rnd.insurance_net(seat) gives the same answer before and after Blackjack.finish_round()."""
    game = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    game.shoe.stack("Th As 9d Kc".split())  # Ann T 9; dealer A up, K in the hole: natural
    rnd = game.start_round([10])
    rnd.apply(Action.INSURANCE)  # 5 credits, wins 2:1
    before = rnd.insurance_net(0)
    game.finish_round()
    assert (before, rnd.insurance_net(0)) == (10, 10)


def test_view_of_a_finished_round_keeps_the_dealer_cards() -> None:
    """A settled round's view still shows the dealer's cards after the table has finished it."""
    game = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    game.shoe.stack("Th 9c 8d 8s".split())
    rnd = game.start_round([10])
    rnd.apply(Action.STAND)
    shown = rnd.view().dealer.cards
    game.finish_round()
    assert rnd.view().dealer.cards == shown


def test_finishing_a_round_too_early_says_who_still_has_a_turn() -> None:
    """finish_round() before every player has played names the player whose turn it is and changes nothing;
    "no settled round to finish" left a student who skipped a player wondering what "settled" meant."""
    game = Blackjack(["Ann", "Bob"], Rules.preset("cs111"), seed=1)
    with pytest.raises(IllegalActionError, match=r"^no round to finish: start one first$"):
        game.finish_round()
    rnd = game.start_round()
    with pytest.raises(IllegalActionError, match=r"^the round is not over: Ann still has a turn, so let every "
                                                 r"player play first$"):
        game.finish_round()
    assert game.round is rnd and rnd.turn == (0, 0)
