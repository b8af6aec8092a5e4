"""Milestone 1, Blackjack: whole rounds through Blackjack.play_round (cs111 week 1; 1 point).

Blackjack.playRound (cs111): deal two cards to every player and the dealer, let
each player play, then the dealer, then announce the results. Rounds here are
dealt from a stacked shoe (Thunderjack's "ace up the sleeve"): the listed cards
go one to each seat left to right, the dealer's upcard, a second card to each
seat, the dealer's hole card, then hits in the order play asks for them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from milestones.grader.judge import Raised, Student

#: The 52 cards of one deck, by code.
ONE_DECK = Counter(face + suit for suit in "sdch" for face in "A23456789TJQK")


def played(got: Any) -> dict[str, Any]:
    """The observation's data once play went as a game must: decide() was asked only while a player had a turn."""
    no_turn = got.get("no_turn") if isinstance(got, dict) else None
    if no_turn is not None:
        turn = tuple(no_turn["turn"]) if isinstance(no_turn["turn"], list) else no_turn["turn"]
        raise AssertionError(
            f"decide() was called with no player's turn open (phase {no_turn['phase']}, turn {turn}): "
            f"Player.play_round should ask only while it is that player's turn (rnd.current_player is self), "
            f"and Blackjack.play_round should give turns only until every player is done (rnd.current_player "
            f"is None then)")
    assert isinstance(got, dict), f"the test could not read the round: {got!r}"
    return got


def results(got: Any) -> list[tuple[int, str]]:
    """(seat, result name) of every hand, from an observation of play_round's list of (seat, hand, Outcome)."""
    got = played(got)
    assert "results" in got, \
        (f"Blackjack.play_round() should return the list finish_round() gives; got {got.get('returned')!r} "
         f"(is a return missing?)")
    return [(seat, name) for seat, name in got["results"]]


@pytest.mark.points(1)
def test_round_results_win_lose_push(student: Student) -> None:
    """Each player is compared with the dealer: higher wins, lower loses, equal pushes."""
    # Ann T Q (20), Bob 9 7 (16), Cy 8 K (18); dealer 9 up, 9 in the hole (18). Everyone stands.
    got = results(student("round_results", ["Ann", "Bob", "Cy"], 1, "Th 9c 8d 9s Qd 7c Kh 9h", [0, 0, 0]))
    want = [(0, "WIN"), (1, "LOSE"), (2, "PUSH")]
    assert got == want, (f"20, 16 and 18 against a dealer's 18 should be win, lose, push; got "
                         f"{[(seat, name.lower()) for seat, name in got]}")


def compare_hint(student: Student, score: int, dealer_score: int) -> str:
    """What the student's compare_scores says for these totals, lower-case ("lose"), or "" when it raises."""
    try:
        got = student("compare", score, dealer_score)
    except Raised:
        return ""
    return got.lower() if isinstance(got, str) else repr(got)


@pytest.mark.points(0)
def test_dealer_bust_pays_everyone_who_did_not_bust(student: Student) -> None:
    """When the dealer busts, every player still in wins, and a player who busted earlier still loses."""
    # Ann 5 7 hits K (22, bust); Bob T 2 stands on 12; dealer T 6 draws 9 (25, bust).
    got = results(student("round_results", ["Ann", "Bob"], 2, "5c Th Td 7s 2d 6h Kc 9s", [13, 0]))
    want = [(0, "BUST"), (1, "WIN")]
    if got != want and got[1:] == [(1, "LOSE")]:
        hint = (f". compare_scores(12, 25) returns {compare_hint(student, 12, 25)}: a dealer over 21 loses to every "
                f"player who did not bust (the course: 'If the dealer busts, any players who did not bust earlier "
                f"win this round')")
    else:
        hint = ""
    assert got == want, (f"Ann busted (5-7-K), Bob stood on 12, the dealer busted (T-6-9): Ann should lose (bust) "
                         f"and Bob win; the results were {', '.join(f'seat {s} {r.lower()}' for s, r in got)}" + hint)


@pytest.mark.points(0)
def test_stacked_cards_are_dealt_in_table_order(student: Student) -> None:
    """A stacked shoe deals seat by seat, then the dealer's upcard, again for the hole card, then hits."""
    # Ann 2 5 hits 8 and stands on 15; Bob 3 6 stands; dealer 4 up, 7 in the hole.
    got = played(student("cards_dealt", ["Ann", "Bob"], 3, "2c 3d 4h 5s 6c 7d 8h 9s", [8, 0]))
    dealt = [(seat, code) for seat, code in got["dealt"]]
    want = [(0, "2c"), (1, "3d"), (None, "4h"), (0, "5s"), (1, "6c"), (None, "??"), (0, "8h")]
    assert dealt[:7] == want, f"deal order should be Ann, Bob, dealer up, Ann, Bob, dealer hole, Ann's hit: " \
                              f"want {want}, got {dealt[:7]}"


@pytest.mark.points(0)
def test_rounds_never_lose_or_duplicate_a_card(student: Student) -> None:
    """After each of 30 rounds, the shoe plus the discard pile is exactly one deck, every card once."""
    got = played(student("cards_held", ["Ann", "Bob", "Cy"], 4, [17, 15, 12], 30))
    for number, codes in enumerate(got["held"], start=1):
        held = Counter(codes)
        missing, extra = sorted((ONE_DECK - held).elements()), sorted((held - ONE_DECK).elements())
        assert held == ONE_DECK, f"after round {number} the shoe and discards should hold each card once; " \
                                 f"missing {missing}, extra {extra}"


@pytest.mark.points(0)
def test_same_seed_replays_same_game(student: Student) -> None:
    """Two tables with the same seed and the same decisions deal the same cards and get the same results."""
    def play(seed: int) -> dict[str, Any]:
        return played(student("replay", ["Ann", "Bob"], seed, [17, 14], 5))
    first, again, other = play(42), play(42), play(43)
    assert first == again, "the same seed and the same decisions should replay the same five rounds"
    assert first != other, "a different seed should deal a different game"


@pytest.mark.points(0)
def test_reshuffle_at_cut_card_between_rounds_only(student: Student) -> None:
    """The shoe is reshuffled before the first round after the cut card is reached, never in mid-round."""
    got = played(student("reshuffles", ["Ann", "Bob", "Cy"], 5, [17, 17, 17], 40, "1/2"))
    reshuffles = 0
    for number, seen in enumerate(got["rounds"], start=1):
        due, shuffles = seen["due"], seen["shuffles"]
        want = [0] if due else []
        assert shuffles == want, f"round {number}: the cut card was {'' if due else 'not '}reached before it, " \
                                 f"so the shoe should {'' if due else 'not '}be shuffled as the round starts " \
                                 f"(and never later); shuffles at event {shuffles}"
        reshuffles += bool(shuffles)
    assert reshuffles >= 3, f"40 rounds from a 1-deck shoe cut at half should reshuffle several times; got {reshuffles}"


# ---------------------------------------------------------------- no points: more course rules

@pytest.mark.points(0)
def test_cs111_twenty_one_is_not_a_natural(student: Student) -> None:
    """In the cs111 game a two-card 21 is just 21: it pushes against a dealer's three-card 21."""
    # Ann A K; dealer 7 up, 4 in the hole, draws K: 21.
    got = results(student("round_results", ["Ann"], 6, "Ah 7c Kd 4s Ks", [0]))
    assert got == [(0, "PUSH")], \
        f"Ann's A-K (21) against the dealer's 7-4-K (21) should push in the cs111 game; got {got}"


@pytest.mark.points(0)
def test_play_round_finishes_the_round(student: Student) -> None:
    """After play_round the table has no round open, the dealer's hand is cleared and the count goes up."""
    got = played(student("after_round", ["Ann"], 7, [17]))
    assert got == {"round_open": False, "dealer_cards": 0, "rounds_played": 1}, \
        (f"after one play_round the table should have no round open, a dealer with no cards and rounds_played 1 "
         f"(finish_round does all three); got {got}")


@pytest.mark.points(0)
def test_all_cards_are_accounted_for_mid_round(student: Student) -> None:
    """During a round, shoe + discards + cards on the table is 52 (Blackjack.cards_in_play)."""
    got = student("cards_in_play", ["Ann", "Bob"], 8)
    assert got == 52, f"cards_in_play() during a one-deck round should be 52; got {got!r}"


@pytest.mark.points(0)
def test_dealer_card_is_a_card(student: Student) -> None:
    """The dealer's upcard in a view is a Card and the hole card is hidden while players decide."""
    got = student("dealer_seen", ["Ann"], 9, "Th 9c 7d 8s")
    assert got["upcard_is_card"] and got["hole"] == "??", \
        f"the dealer's upcard should be a Card (9c) and the hole card should show as ??; got {got}"
