"""A finished round keeps answering about itself after the table moves on (not graded)."""

from __future__ import annotations

from blackjack import Action, Blackjack, Rules


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
