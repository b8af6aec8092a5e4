"""Milestone 1, Player and Dealer: who draws when (cs111 week 1; 3.5 points).

Player.playRound (cs111): the dealer draws until his score is at least 17; a player
is asked "hit or stand?" until she stands or busts, and is not asked after busting.
"""

from __future__ import annotations

from typing import Any

import pytest

from milestones.grader.judge import Student


def dealer_play(student: Student, codes: str, shoe: str, hits_soft_17: bool = False) -> dict[str, Any]:
    """A dealer holding ``codes`` plays, drawing the cards of ``shoe``; asking for more than those fails the test."""
    got: dict[str, Any] = student("dealer_play", codes, shoe, hits_soft_17)
    assert not got["ran_out"], f"the dealer drew more cards than expected (already drew {got['drew']})"
    return got


@pytest.mark.points(1)
def test_dealer_hits_below_17_and_stands_on_17_or_more(student: Student) -> None:
    """Dealer.should_hit is True below 17 and False on hard 17 or more (cs111: hit until 17 or higher)."""
    cases = {"Td 6c": True, "2c 3d": True, "Td 7c": False, "Td 8c": False, "Td 6c 5h": False, "As 5d": True}
    got = student("should_hit", list(cases), False)
    wrong = [f"[{c}] should be {w}, got {answer!r}" for (c, w), answer in zip(cases.items(), got, strict=True)
             if answer != w]
    assert not wrong, "should_hit() with a dealer who stands on 17: " + "; ".join(wrong) + \
        " (the dealer must hit below 17 and must stand on 17 or more; A-5 is a soft 16)"


@pytest.mark.points(0.5)
def test_dealer_soft_17_follows_the_rules(student: Student) -> None:
    """On a soft 17 (A-6) the dealer stands when rules.dealer_hits_soft_17 is False and hits when True."""
    # The course's dealer "must hit" below 17 and "must stand" on 17 or more (S17); H17 rules make him hit a soft 17
    # too, and only a soft one.
    s17 = {"As 6d": False, "As 2c 4h": False}
    h17_soft = {"As 6d": True, "As 2c 4h": True}
    h17_hard = {"As 6d Td": False, "Td 7c": False}
    rules = {
        "S17": (s17, False, "under S17 rules (rules.dealer_hits_soft_17 is False) the dealer stands on every 17, soft "
                            "or hard: the course's dealer must hit below 17 and must stand on 17 or more"),
        "H17": (h17_soft, True, "under H17 rules (rules.dealer_hits_soft_17 is True) the dealer must hit a soft 17, "
                                "a 17 with an ace counted as 11"),
        "H17, hard": (h17_hard, True, "H17 rules hit only a soft 17: T-7 and A-6-T are hard 17s (in A-6-T the ace "
                                      "can only count 1), and every dealer stands on them (if test_hand.py's is_soft "
                                      "test fails too, fix is_soft first)"),
    }
    wrong, broken = [], []
    for name, (cases, hits_soft_17, rule) in rules.items():
        got = student("should_hit", list(cases), hits_soft_17)
        missed = [f"[{codes}] should be {want}, got {answer!r}"
                  for (codes, want), answer in zip(cases.items(), got, strict=True) if answer is not want]
        if missed:
            wrong.append(f"under {name.split(',')[0]} " + ", ".join(missed))
            broken.append(rule)
    assert not wrong, "should_hit(): " + "; ".join(wrong) + " (" + "; ".join(broken) + ")"


@pytest.mark.points(1)
def test_dealer_play_round_draws_until_17(student: Student) -> None:
    """Dealer.play_round draws cards until the score is at least 17, then stops: 5-4 + 2, 3, 4 = 18."""
    got = dealer_play(student, "5c 4d", "2h 3s 4c 9d")
    assert got["hand"] == "5c 4d 2h 3s 4c", \
        f"from 5-4 (9) the dealer should draw 2, 3, 4 (reaching 18) and stop; the hand is [{got['hand']}]"


@pytest.mark.points(0)
def test_dealer_play_round_stops_on_bust_and_respects_soft_17(student: Student) -> None:
    """A dealer busts and stops at once (T-6 + K); an H17 dealer draws on A-6 but an S17 dealer does not."""
    busting = dealer_play(student, "Td 6c", "Kh 5s")
    assert busting["hand"] == "Td 6c Kh", f"T-6 then K is 26, bust: no more cards; got [{busting['hand']}]"
    s17 = dealer_play(student, "As 6d", "4c")
    h17 = dealer_play(student, "As 6d", "4c", hits_soft_17=True)
    assert (s17["cards"], h17["cards"]) == (2, 3), \
        f"on A-6 an S17 dealer stands and an H17 dealer draws; hands were [{s17['hand']}] and [{h17['hand']}]"


@pytest.mark.points(1)
def test_player_play_round_asks_until_stand(student: Student) -> None:
    """Player.play_round asks decide() for each decision, applies it, and returns when the player stands."""
    # Ann 2 3, Bob T 9, dealer 6 up, T in the hole; Ann hits 4, hits 5 (14) and stands.
    answers = ["HIT", "HIT", "STAND"]
    got = student("player_turn", "2c Tc 6d 3h 9s Ts 4d 5s", answers)
    seen = [ask["total"] for ask in got["asked"]]
    assert len(seen) <= len(answers), \
        (f"Ann's play_round asked decide() a 4th time (totals so far {seen}) after she chose hit, hit, stand: "
         f"stop asking once the turn has passed (rnd.current_player is no longer this player)")
    assert seen == [5, 9, 14], f"decide() should be asked at totals 5, 9 and 14 (hit, hit, stand); got {seen}"
    assert got["hand"] == "2c 3h 4d 5s", f"Ann should hold 2 3 4 5; got [{got['hand']}]"
    assert got["current_player"] == "Bob", \
        f"after Ann stands it should be Bob's turn; rnd.current_player is {got['current_repr']}"


@pytest.mark.points(0)
def test_player_play_round_stops_after_bust(student: Student) -> None:
    """A player who busts is not asked again: play_round returns and the turn moves on."""
    # Ann T 6, Bob 9 9, dealer 7 up; Ann hits an 8 (24, bust).
    got = student("player_turn", "Tc 9c 7d 6h 9s Ts 8d", ["HIT", "HIT", "HIT"])
    assert all(ask["turn"] == 0 for ask in got["asked"]), \
        "Ann's play_round asked decide() after her turn ended (she busted with T-6-8): " \
        "keep asking only while it is this player's turn (rnd.current_player is self)"
    asked = [ask["total"] for ask in got["asked"]]
    assert asked == [16], f"decide() should be asked once (at 16), not after the bust; asked at {asked}"
    assert got["current_player"] == "Bob", \
        f"Ann busted with T-6-8; it should be Bob's turn (Ann holds [{got['hand']}], rnd.current_player is " \
        f"{got['current_repr']})"
