"""Milestone 1, Player and Dealer: who draws when (cs111 week 1; 3 points).

Player.playRound (cs111): the dealer draws until his score is at least 17; a player
is asked "hit or stand?" until she stands or busts, and is not asked after busting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from blackjack import Action, Blackjack, Card, Dealer, Hand, Rules, TableView, parse_cards


S17 = Rules.preset("cs111")
H17 = dataclasses.replace(S17, dealer_hits_soft_17=True)


def dealer_holding(codes: str) -> Dealer:
    """A dealer whose hand holds the given cards."""
    dealer = Dealer()
    dealer.hand = Hand(parse_cards(codes))
    return dealer


def drawer(codes: str) -> tuple[Callable[[], Card], list[Card]]:
    """A draw() function dealing the given cards in order, and the list of cards it has handed out."""
    cards = parse_cards(codes)
    handed: list[Card] = []

    def draw() -> Card:
        assert cards, f"the dealer drew more cards than expected (already drew {handed})"
        handed.append(cards.pop(0))
        return handed[-1]
    return draw, handed


@pytest.mark.points(1)
def test_dealer_hits_below_17_and_stands_on_17_or_more() -> None:
    """Dealer.should_hit is True below 17 and False on hard 17 or more (cs111: hit until 17 or higher)."""
    cases = {"Td 6c": True, "2c 3d": True, "Td 7c": False, "Td 8c": False, "Td 6c 5h": False, "As 5d": True}
    wrong = [f"[{c}] should be {w}, got {dealer_holding(c).should_hit(S17)!r}" for c, w in cases.items()
             if dealer_holding(c).should_hit(S17) != w]
    assert not wrong, "should_hit() with a dealer who stands on 17: " + "; ".join(wrong) + \
        " (the dealer must hit below 17 and must stand on 17 or more; A-5 is a soft 16)"


@pytest.mark.points(0)
def test_dealer_soft_17_follows_the_rules() -> None:
    """On a soft 17 (A-6) the dealer stands when rules.dealer_hits_soft_17 is False and hits when True."""
    stands = dealer_holding("As 6d").should_hit(S17)
    hits = dealer_holding("As 6d").should_hit(H17)
    assert (stands, hits) == (False, True), \
        f"should_hit() on A-6 should be False under S17 and True under H17; got {stands} and {hits}"
    assert dealer_holding("As 6d Td").should_hit(H17) is False, \
        "A-6-10 is a hard 17: even an H17 dealer stands on it"


@pytest.mark.points(1)
def test_dealer_play_round_draws_until_17() -> None:
    """Dealer.play_round draws cards until the score is at least 17, then stops: 5-4 + 2, 3, 4 = 18."""
    dealer = dealer_holding("5c 4d")
    draw, handed = drawer("2h 3s 4c 9d")
    dealer.play_round(draw, S17)
    assert str(dealer.hand) == "5c 4d 2h 3s 4c", \
        f"from 5-4 (9) the dealer should draw 2, 3, 4 (reaching 18) and stop; the hand is [{dealer.hand}]"


@pytest.mark.points(0)
def test_dealer_play_round_stops_on_bust_and_respects_soft_17() -> None:
    """A dealer busts and stops at once (T-6 + K); an H17 dealer draws on A-6 but an S17 dealer does not."""
    busting = dealer_holding("Td 6c")
    draw, _ = drawer("Kh 5s")
    busting.play_round(draw, S17)
    assert str(busting.hand) == "Td 6c Kh", f"T-6 then K is 26, bust: no more cards; got [{busting.hand}]"
    s17 = dealer_holding("As 6d")
    s17.play_round(drawer("4c")[0], S17)
    h17 = dealer_holding("As 6d")
    h17.play_round(drawer("4c")[0], H17)
    assert (len(s17.hand), len(h17.hand)) == (2, 3), \
        f"on A-6 an S17 dealer stands and an H17 dealer draws; hands were [{s17.hand}] and [{h17.hand}]"


def two_player_round(codes: str) -> Blackjack:
    """A cs111 table for Ann and Bob whose first round is dealt from the given cards."""
    game = Blackjack(["Ann", "Bob"], Rules.preset("cs111"), seed=111)
    game.shoe.stack(codes.split())
    return game


@pytest.mark.points(1)
def test_player_play_round_asks_until_stand() -> None:
    """Player.play_round asks decide() for each decision, applies it, and returns when the player stands."""
    # Ann 2 3, Bob T 9, dealer 6 up, T in the hole; Ann hits 4, hits 5 (14) and stands.
    game = two_player_round("2c Tc 6d 3h 9s Ts 4d 5s")
    rnd = game.start_round()
    answers = [Action.HIT, Action.HIT, Action.STAND]
    seen: list[int] = []

    def decide(view: TableView) -> Action:
        seen.append(view.seats[0].hands[0].total)
        assert len(seen) <= len(answers), \
            (f"Ann's play_round asked decide() a 4th time (totals so far {seen}) after she chose hit, hit, stand: "
             f"stop asking once the turn has passed (rnd.current_player is no longer this player)")
        return answers[len(seen) - 1]
    ann, bob = game.players
    ann.play_round(rnd, decide)
    assert seen == [5, 9, 14], f"decide() should be asked at totals 5, 9 and 14 (hit, hit, stand); got {seen}"
    assert str(rnd.hands(0)[0]) == "2c 3h 4d 5s", f"Ann should hold 2 3 4 5; got [{rnd.hands(0)[0]}]"
    assert rnd.current_player is bob, \
        f"after Ann stands it should be Bob's turn; rnd.current_player is {rnd.current_player!r}"


@pytest.mark.points(0)
def test_player_play_round_stops_after_bust() -> None:
    """A player who busts is not asked again: play_round returns and the turn moves on."""
    # Ann T 6, Bob 9 9, dealer 7 up; Ann hits an 8 (24, bust).
    game = two_player_round("Tc 9c 7d 6h 9s Ts 8d")
    rnd = game.start_round()
    asked: list[int] = []

    def decide(view: TableView) -> Action:
        assert view.turn is not None and view.turn[0] == 0, \
            "Ann's play_round asked decide() after her turn ended (she busted with T-6-8): " \
            "keep asking only while it is this player's turn (rnd.current_player is self)"
        asked.append(view.seats[0].hands[0].total)
        return Action.HIT
    game.players[0].play_round(rnd, decide)
    assert asked == [16], f"decide() should be asked once (at 16), not after the bust; asked at {asked}"
    assert rnd.hands(0)[0].is_bust() and rnd.current_player is game.players[1], \
        "Ann busted with T-6-8; it should be Bob's turn"
