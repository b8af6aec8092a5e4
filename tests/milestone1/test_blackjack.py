"""Milestone 1, Blackjack: whole rounds through Blackjack.play_round (cs111 week 1; 1 point).

Blackjack.playRound (cs111): deal two cards to every player and the dealer, let
each player play, then the dealer, then announce the results. Rounds here are
dealt from a stacked shoe (Thunderjack's "ace up the sleeve"): the listed cards
go one to each seat left to right, the dealer's upcard, a second card to each
seat, the dealer's hole card, then hits in the order play asks for them.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from blackjack import (Action, Blackjack, Card, CardDealt, Event, Result, Rules, ShoeShuffled, TableView,
                       create_card_array)
from blackjack.wagers import compare_scores


CS111 = Rules.preset("cs111")


def hit_below(*limits: int) -> Callable[[TableView], Action]:
    """A policy: seat i hits while its total is below limits[i], then stands."""
    def decide(view: TableView) -> Action:
        assert view.turn is not None and view.current_hand is not None, \
            (f"decide() was called with no player's turn open (phase {view.phase.value}, turn {view.turn}): "
             f"Player.play_round should ask only while it is that player's turn (rnd.current_player is self), "
             f"and Blackjack.play_round should give turns only until every player is done (rnd.current_player "
             f"is None then)")
        seat = view.turn[0]
        return Action.HIT if view.current_hand.total < limits[seat] else Action.STAND
    return decide


def results(outcomes: list) -> list[tuple[int, Result]]:  # type: ignore[type-arg]
    """(seat, result) of every hand, from play_round's list of (seat, hand, Outcome)."""
    assert isinstance(outcomes, list), \
        f"Blackjack.play_round() should return the list finish_round() gives; got {outcomes!r} (is a return missing?)"
    return [(seat, outcome.result) for seat, _, outcome in outcomes]


@pytest.mark.points(1)
def test_round_results_win_lose_push() -> None:
    """Each player is compared with the dealer: higher wins, lower loses, equal pushes."""
    # Ann T Q (20), Bob 9 7 (16), Cy 8 K (18); dealer 9 up, 9 in the hole (18). Everyone stands.
    game = Blackjack(["Ann", "Bob", "Cy"], CS111, seed=1)
    game.shoe.stack("Th 9c 8d 9s Qd 7c Kh 9h".split())
    got = results(game.play_round(hit_below(0, 0, 0)))
    want = [(0, Result.WIN), (1, Result.LOSE), (2, Result.PUSH)]
    assert got == want, f"20, 16 and 18 against a dealer's 18 should be win, lose, push; got {got}"


@pytest.mark.points(0)
def test_dealer_bust_pays_everyone_who_did_not_bust() -> None:
    """When the dealer busts, every player still in wins, and a player who busted earlier still loses."""
    # Ann 5 7 hits K (22, bust); Bob T 2 stands on 12; dealer T 6 draws 9 (25, bust).
    game = Blackjack(["Ann", "Bob"], CS111, seed=2)
    game.shoe.stack("5c Th Td 7s 2d 6h Kc 9s".split())
    got = results(game.play_round(hit_below(13, 0)))
    want = [(0, Result.BUST), (1, Result.WIN)]
    assert got == want, (f"Ann busted (5-7-K), Bob stood on 12, the dealer busted (T-6-9): Ann should lose (bust) "
                         f"and Bob win; the results were {', '.join(f'seat {s} {r.value}' for s, r in got)}"
                         + (f". compare_scores(12, 25) returns {compare_scores(12, 25).value}: a dealer over 21 loses "
                            f"to every player who did not bust (the course: 'If the dealer busts, any players who "
                            f"did not bust earlier win this round')" if got[1:] == [(1, Result.LOSE)] else ""))


@pytest.mark.points(0)
def test_stacked_cards_are_dealt_in_table_order() -> None:
    """A stacked shoe deals seat by seat, then the dealer's upcard, again for the hole card, then hits."""
    # Ann 2 5 hits 8 and stands on 15; Bob 3 6 stands; dealer 4 up, 7 in the hole.
    events: list[Event] = []
    game = Blackjack(["Ann", "Bob"], CS111, seed=3, listeners=[events.append])
    game.shoe.stack("2c 3d 4h 5s 6c 7d 8h 9s".split())
    game.play_round(hit_below(8, 0))
    dealt = [(e.seat, str(e.card) if e.card else "??") for e in events if isinstance(e, CardDealt)]
    want = [(0, "2c"), (1, "3d"), (None, "4h"), (0, "5s"), (1, "6c"), (None, "??"), (0, "8h")]
    assert dealt[:7] == want, f"deal order should be Ann, Bob, dealer up, Ann, Bob, dealer hole, Ann's hit: " \
                              f"want {want}, got {dealt[:7]}"


@pytest.mark.points(0)
def test_rounds_never_lose_or_duplicate_a_card() -> None:
    """After each of 30 rounds, the shoe plus the discard pile is exactly one deck, every card once."""
    game = Blackjack(["Ann", "Bob", "Cy"], CS111, seed=4)
    one_deck = Counter(create_card_array())
    for number in range(1, 31):
        game.play_round(hit_below(17, 15, 12))
        held = Counter(game.shoe.cards) + Counter(game.shoe.discards)
        assert held == one_deck, f"after round {number} the shoe and discards should hold each card once; " \
                                 f"missing {one_deck - held}, extra {held - one_deck}"


@pytest.mark.points(0)
def test_same_seed_replays_same_game() -> None:
    """Two tables with the same seed and the same decisions deal the same cards and get the same results."""
    def play(seed: int) -> list[object]:
        events: list[Event] = []
        game = Blackjack(["Ann", "Bob"], CS111, seed=seed, listeners=[events.append])
        outcomes = [game.play_round(hit_below(17, 14)) for _ in range(5)]
        return [outcomes, events]
    first, again, other = play(42), play(42), play(43)
    assert first == again, "the same seed and the same decisions should replay the same five rounds"
    assert first != other, "a different seed should deal a different game"


@pytest.mark.points(0)
def test_reshuffle_at_cut_card_between_rounds_only() -> None:
    """The shoe is reshuffled before the first round after the cut card is reached, never in mid-round."""
    rules = dataclasses.replace(CS111, reshuffle_every_round=False, penetration=Fraction(1, 2))
    events: list[Event] = []
    game = Blackjack(["Ann", "Bob", "Cy"], rules, seed=5, listeners=[events.append])
    reshuffles = 0
    for number in range(1, 41):
        due = game.shoe.cut_card_reached
        events.clear()
        game.play_round(hit_below(17, 17, 17))
        shuffles = [i for i, e in enumerate(events) if isinstance(e, ShoeShuffled)]
        want = [0] if due else []
        assert shuffles == want, f"round {number}: the cut card was {'' if due else 'not '}reached before it, " \
                                 f"so the shoe should {'' if due else 'not '}be shuffled as the round starts " \
                                 f"(and never later); shuffles at event {shuffles}"
        reshuffles += bool(shuffles)
    assert reshuffles >= 3, f"40 rounds from a 1-deck shoe cut at half should reshuffle several times; got {reshuffles}"


# ---------------------------------------------------------------- no points: more course rules

@pytest.mark.points(0)
def test_cs111_twenty_one_is_not_a_natural() -> None:
    """In the cs111 game a two-card 21 is just 21: it pushes against a dealer's three-card 21."""
    # Ann A K; dealer 7 up, 4 in the hole, draws K: 21.
    game = Blackjack(["Ann"], CS111, seed=6)
    game.shoe.stack("Ah 7c Kd 4s Ks".split())
    assert results(game.play_round(hit_below(0))) == [(0, Result.PUSH)]


@pytest.mark.points(0)
def test_play_round_finishes_the_round() -> None:
    """After play_round the table has no round open, the dealer's hand is cleared and the count goes up."""
    game = Blackjack(["Ann"], CS111, seed=7)
    game.play_round(hit_below(17))
    assert game.round is None and len(game.dealer.hand) == 0 and game.rounds_played == 1


@pytest.mark.points(0)
def test_all_cards_are_accounted_for_mid_round() -> None:
    """During a round, shoe + discards + cards on the table is 52 (Blackjack.cards_in_play)."""
    game = Blackjack(["Ann", "Bob"], CS111, seed=8)
    game.start_round()
    assert game.cards_in_play() == 52


@pytest.mark.points(0)
def test_dealer_card_is_a_card() -> None:
    """The dealer's upcard in a view is a Card and the hole card is hidden while players decide."""
    game = Blackjack(["Ann"], CS111, seed=9)
    game.shoe.stack("Th 9c 7d 8s".split())
    view = game.start_round().view()
    assert isinstance(view.dealer.upcard, Card) and str(view.dealer.cards[1]) == "??"
