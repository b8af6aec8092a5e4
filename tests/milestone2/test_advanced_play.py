"""Milestone 2, advanced play: double down, split and insurance, and when a hand may double or split (20 points).

The student writes them in ``blackjack/plays.py`` (the spec's step 3); the round calls
them. When a hand may double or split 4.5 points, double down 3.5, split 5, insurance 4,
and the course game with money (``blackjack/course_game.py``) 3: its move question
(``ask_move``, 1) and its round (``play_money_round``, 2), played with scripted answers,
every line read, all the other functions under them given.
The money moves around them (``check_bet``, ``take_stake``, ``payout``, ``pay``) are the
suite's given parts (``observe_given.py``): a wagering mistake costs wagering's points, not
these.
Surrender, Thunderjack and Blitz are the engine's given extras: their tests carry no
points and check that they still work with the student's code.

Every round is dealt from a stacked shoe and its outcome is worked out by hand in
the test. Deal order: one card to each seat, the dealer's upcard, a second card to
each seat, the dealer's hole card (none in the european game), then every card in
the order play calls for it; after a split the first hand gets its second card at
once, the next hand when play reaches it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from m2_helpers import check_money, check_quiet, check_refused, check_scripted, said_between_asks, shown, transcript
from milestones.grader.judge import Student, as_number

PART = "advanced"

#: The rules are sent to the student's process as a preset's name, or the preset with some fields changed.
VEGAS = "vegas"  # 6 decks, S17, 3:2, DAS, up to 4 hands, late surrender, peek, insurance
THUNDERJACK = "thunderjack"  # 4 decks, 500 credits, TJ 3:1, Blitz 5:1, 2 hands per seat
#: The seed of every table (the cards after the stacked ones).
SEED = 111


def table(codes: str, *players: str, rules: Any = VEGAS, bets: list[Any] | None = None,
          given: tuple[str, ...] = ()) -> list[Any]:
    """A round at a table whose next cards are ``codes`` (space-separated), in deal order, started with ``bets``
    (None: the default bets), as the observations take it; ``given``: the mechanics of another group that the round
    plays with the suite's given parts (``"split"``, ``"deal_split_card"``, ``"double_down"``), so that this test
    grades its own group only."""
    return [codes, list(players), rules, SEED, bets, list(given)]


#: A split's mechanics, given: the tests of when a hand may double or split split a pair on the way.
SPLIT = ("split", "deal_split_card")


def sent(amount: object) -> object:
    """An amount as the student's process reads it: a Fraction as ``{"fraction": "15/2"}``, the rest as it is."""
    return {"fraction": str(amount)} if isinstance(amount, Fraction) else amount


def steps(actions: tuple[Any, ...]) -> list[list[Any]]:
    """The steps of a round: an action's value (``"split"``), ``(action, amount)``, or ``"finish"`` (stand every hand
    still open, declining insurance)."""
    return [[a] if isinstance(a, str) else list(a) for a in actions]


def play(student: Student, game: list[Any], *actions: Any) -> list[dict[str, Any]]:
    """The round ``game`` after ``start_round`` and after each of ``actions``, as plain data."""
    states: list[dict[str, Any]] = student("play", *game, steps(actions))
    return states


def turn(state: dict[str, Any]) -> tuple[int, ...] | None:
    """The round's turn, ``(seat, hand)`` or None."""
    return None if state["turn"] is None else tuple(state["turn"])


def hand(state: dict[str, Any], seat: int, index: int) -> str:
    """Hand ``index`` of seat ``seat`` as card codes ("?" when there is no such hand)."""
    hands = state["hands"][seat] if seat < len(state["hands"]) else []
    return hands[index] if index < len(hands) else "?"


def results(state: dict[str, Any]) -> list[tuple[int, int, str, Any]]:
    """(seat, hand, result, net) of every settled hand."""
    return [(seat, index, outcome["result"], as_number(outcome["net"])) for seat, index, outcome in state["outcomes"]]


def settled(state: dict[str, Any]) -> str:
    """The settled hands for a message: ``seat 0 hand 0 [8s Kc]: WIN, bet 10, net +10; ...``."""
    text = "; ".join(f"seat {seat} hand {index} [{hand(state, seat, index)}]: {shown(outcome)}"
                     for seat, index, outcome in state["outcomes"])
    return text or f"no hand settled (phase {state['phase']})"


def event_text(event: Any) -> str:
    """An event as the observations send it (``{"type": "InsuranceSettled", "seat": 0, ...}``) as a person reads a
    round: ``seat 0's insurance of 5 wins +10``, ``seat 0 hand 0 settles: LOSE, bet 10, net -10``."""
    if not isinstance(event, dict):
        return shown(event)
    kind, seat = event.get("type"), event.get("seat")
    who = "the dealer" if seat is None else f"seat {seat}"
    if kind == "InsuranceSettled":
        net = as_number(event.get("net"))
        won = isinstance(net, (int, float, Fraction)) and not isinstance(net, bool) and net > 0
        verdict = f"wins {shown(net)}" if won else f"is lost ({shown(net)})"
        return f"{who}'s insurance of {shown(event.get('stake'))} {verdict}"
    if kind == "HandSettled":
        outcome = event.get("outcome")
        if isinstance(outcome, dict):
            outcome = {key: outcome.get(key) for key in ("result", "bet", "net")}
        return f"{who} hand {event.get('hand')} settles: {shown(outcome)}"
    if kind == "CardDealt":
        card = event.get("card") if event.get("face_up", True) else "a face-down card"
        return f"{who} is dealt {card}"
    if kind == "ActionTaken":
        return f"{who} hand {event.get('hand')} takes {str(event.get('action')).lower()}"
    if kind == "DealerPeeked":
        return "the dealer peeks: " + ("a natural" if event.get("natural") else "no natural")
    if kind == "HoleCardRevealed":
        return f"the dealer turns over {event.get('card')}"
    if kind == "RoundSettled":
        return f"the round ends, the dealer on {event.get('dealer_total')}"
    return str(kind)


def events_text(events: list[Any]) -> str:
    """A step's events in order, one after another as a round is told: ``the dealer peeks: a natural; ...``."""
    return "; ".join(event_text(event) for event in events) or "nothing happened"


#: What the observation ``around_refusal`` snapshots, in order, for a message.
SNAPSHOT = {"view": "the table view", "history": "the history", "bankrolls": "the bankrolls", "shoe": "the shoe",
            "phase": "the phase", "turn": "the turn"}


def assert_refused(student: Student, game: list[Any], done: tuple[Any, ...], action: str, given: str,
                   amount: object = None, error: str = "IllegalActionError", words: str = "") -> None:
    """After the steps ``done``, applying ``action`` raises ``error`` with a one-line reason, and changes nothing.

    ``words`` (given engine messages only) must appear in the message; the reason a student's
    ``why_not_double`` or ``why_not_split`` gives is free text, checked only for being one line and not "None".
    """
    now = play(student, game, *done)[-1]
    seat_hand = turn(now)
    shown_hand = hand(now, seat_hand[0], seat_hand[1]) if seat_hand else "-"
    call = f"apply({action}{'' if amount is None else f', {amount}'})"
    raised = student.raised("refuse", *game, steps(done), action, amount)
    if raised is not None and action in ("double", "split") and raised.message.rstrip().endswith(": None"):
        function = f"why_not_{action}"
        raise AssertionError(
            f"{call} on [{shown_hand}] was refused, but with no reason: {function} returned None for this hand, which "
            f"says the rules allow it, while they forbid it ({given}). {function} should return the one-line reason "
            f"a player reads (the round refused only because it checks this rule too); got {raised.message!r}")
    err = check_refused(raised, error, f"{call} on [{shown_hand}]", given)
    assert words in err.message, f"the error for {call} should say {words!r}; got {err.message!r}"
    around = student("around_refusal", *game, steps(done), action, amount)
    changed = [name for key, name in SNAPSHOT.items() if around["before"][key] != around["after"][key]]
    assert not changed, f"a refused {call} must change nothing at the table; it changed {', '.join(changed)}"


# ===================== when a hand may double or split (5 points): why_not_double, why_not_split

@pytest.mark.points(1)
def test_double_after_a_hit_is_refused(student: Student) -> None:
    """A hand that has hit (three cards) cannot double down: IllegalActionError, and nothing changes."""
    game = table("2h 9c 3d 8s 4c", bets=[10])  # Ann 2 3 hits 4: 9 on three cards
    _, hit = play(student, game, "hit")
    assert "double" not in hit["legal"], \
        f"only a two-card hand may double down, and 2-3-4 has three cards: DOUBLE should not be legal; " \
        f"legal_actions() is {hit['legal']}"
    assert_refused(student, game, ("hit",), "double", "only a two-card hand may double down, and 2-3-4 has three cards")


@pytest.mark.points(1)
def test_no_double_after_split_when_das_is_off(student: Student) -> None:
    """single_deck has no double after split: a split 8 that draws a 3 (11) may not double."""
    game = table("8s 6c 8d Th 3h", rules="single_deck", bets=[10], given=SPLIT)  # Ann 8 8; dealer 6 up, T in the hole
    _, split = play(student, game, "split")
    assert hand(split, 0, 0) == "8s 3h" and "double" not in split["legal"], \
        f"the first split hand should be 8s 3h and DOUBLE not legal without double after split " \
        f"(rules.double_after_split is False); hand [{hand(split, 0, 0)}], legal_actions() {split['legal']}"
    assert_refused(student, game, ("split",), "double",
                   "single_deck has no double after split (rules.double_after_split is False)")


@pytest.mark.points(0.5)
def test_split_a_non_pair_is_refused(student: Student) -> None:
    """8-9 is not a pair: SPLIT raises IllegalActionError saying so, and nothing changes."""
    game = table("8s Th 9d 7c", bets=[10])
    assert_refused(student, game, (), "split", "8-9 is not a pair: only two cards of equal rank split")


@pytest.mark.points(0.5)
def test_a_k_q_split_only_when_the_rules_split_by_value(student: Student) -> None:
    """K-Q is a pair only when rules.split_by is "value" (justblackjack); vegas splits by rank and refuses it."""
    game = table("Kh 9c Qd 7s", bets=[10])
    [start] = play(student, game)
    assert "split" not in start["legal"], \
        f"vegas splits by rank (rules.split_by is 'rank'): K-Q is no pair, so SPLIT should not be legal; " \
        f"legal_actions() {start['legal']}"
    assert_refused(student, game, (), "split", "vegas splits by rank, and K-Q are two ranks")
    [value] = play(student, table("Kh 9c Qd 7s", rules="justblackjack", bets=[10]))
    assert "split" in value["legal"], \
        f"justblackjack splits by value (rules.split_by is 'value'): K-Q is a pair of tens and may split; " \
        f"legal_actions() {value['legal']}"


@pytest.mark.points(0.5)
def test_double_and_split_need_the_bankroll_to_match_the_bet(student: Student) -> None:
    """With 5 credits left after a bet of 10, neither a double nor a split is offered: each needs 10 more."""
    eleven = table("6h 6c 5d Tc", ["Ann", 15], bets=[10])  # Ann 6 5 (11), 5 credits left
    [start] = play(student, eleven)
    assert "double" not in start["legal"], \
        f"a double down needs a second stake equal to the bet (10) and only 5 are left: DOUBLE should not be " \
        f"offered; legal_actions() {start['legal']}"
    assert_refused(student, eleven, (), "double", "doubling a bet of 10 needs 10 more and the bankroll holds 5")
    pair = table("8s 6c 8d Tc", ["Ann", 15], bets=[10])
    [start] = play(student, pair)
    assert "split" not in start["legal"], \
        f"a split stakes the new hand with the bet (10) and only 5 are left: SPLIT should not be offered; " \
        f"legal_actions() {start['legal']}"


@pytest.mark.points(1)
def test_split_aces_split_again_only_when_the_rules_allow_it(student: Student) -> None:
    """A split ace that draws another ace is no pair to split again under vegas (no resplit_aces): it stands and play
    ends; with resplit_aces it may split again (or stand, but not hit)."""
    codes = "As 9c Ad 8d Ah 5c Kc 4d"  # Ann A A; dealer 9 8. The first split ace draws Ah.
    _, plain = play(student, table(codes, bets=[10], given=SPLIT), "split")
    assert hand(plain, 0, 0) == "As Ah" and "split" not in plain["legal"] and turn(plain) != (0, 0), \
        f"vegas does not resplit aces (rules.resplit_aces is False): A-A on a split ace takes no more cards and may " \
        f"not split again, so play moves on; hands {plain['hands'][0]}, turn {turn(plain)}, legal {plain['legal']}"
    game = table(codes, rules={"preset": "vegas", "resplit_aces": True}, bets=[10], given=SPLIT)
    _, split = play(student, game, "split")
    assert turn(split) == (0, 0) and set(split["legal"]) == {"split", "stand"}, \
        f"with resplit_aces, A-A on a split ace may split again or stand (no hit); turn {turn(split)}, " \
        f"legal {split['legal']}"
    *_, resplit = play(student, game, "split", "split")
    assert len(resplit["hands"][0]) == 3, f"resplitting aces makes three hands; got {resplit['hands'][0]}"


# ============================================ double down (4 points): blackjack/plays.py double_down

@pytest.mark.points(1.5)
def test_double_eleven_against_six(student: Student) -> None:
    """Doubling 6-5 (11) against a 6 doubles the bet, deals exactly one card (9: 20), and wins 20."""
    # Ann 6 5, Bob T 8; dealer 6 up, T in the hole (16). Ann doubles and gets 9 (20); Bob stands;
    # the dealer draws 2: 18.
    game = table("6h Tc 6c 5d 8c Td 9s 2h", "Ann", "Bob", bets=[10, 10])
    [start] = play(student, game)
    assert "double" in start["legal"], \
        f"6-5 (11) on two cards may double down under vegas rules; legal_actions() is {start['legal']}"
    _, doubled = play(student, game, "double")
    check_money("Ann's bankroll after doubling a bet of 10", doubled["bankrolls"][0], 980,
                "doubling down takes a second stake equal to the bet from the bankroll: 1000 - 10 - 10")
    assert hand(doubled, 0, 0) == "6h 5d 9s" and turn(doubled) == (1, 0), \
        f"a doubled hand gets exactly one more card and ends, so the turn passes to Bob (1, 0); hand " \
        f"[{hand(doubled, 0, 0)}], turn {turn(doubled)}"
    *_, last = play(student, game, "double", "stand")
    assert results(last)[:1] == [(0, 0, "WIN", 20)], \
        f"Ann's doubled 20 against the dealer's 18 wins the doubled stake of 20, net +20; got {settled(last)}"
    check_money("Ann's bankroll after winning a doubled 10", last["bankrolls"][0], 1020, "1000 + 20")


@pytest.mark.points(1)
def test_a_doubled_hand_takes_exactly_one_card_and_ends(student: Student) -> None:
    """Doubling 2-3 (5) deals one card (4: 9) and ends the hand even though 9 would hit again: the dealer plays."""
    # Ann 2 3 doubles against a 6 (dealer 6 T = 16) and gets 4: 9 on three cards; the dealer draws 7: 23, bust.
    game = table("2h 6c 3d Ts 4c 7h", bets=[10])
    _, doubled = play(student, game, "double")
    assert hand(doubled, 0, 0) == "2h 3d 4c", \
        f"a double down deals exactly one card, so 2-3 doubled becomes [2h 3d 4c]; got [{hand(doubled, 0, 0)}]"
    assert turn(doubled) is None and doubled["phase"] == "settled", \
        f"a doubled hand ends after its one card, whatever its total, so the dealer plays and the round settles; " \
        f"turn {turn(doubled)}, phase {doubled['phase']}"
    assert results(doubled) == [(0, 0, "WIN", 20)], \
        f"the doubled 9 wins the doubled stake when the dealer busts, net +20; got {settled(doubled)}"


@pytest.mark.points(1)
def test_a_doubled_hand_that_busts_loses_twice_the_bet(student: Student) -> None:
    """Doubling T-2 (12) and drawing a K busts at once and loses the doubled stake: -20."""
    game = table("Th 6c 2d Ts Kc", bets=[10])  # Ann T 2; dealer 6 T; Ann doubles and gets K: 22
    _, doubled = play(student, game, "double")
    assert results(doubled) == [(0, 0, "BUST", -20)], \
        f"a double down takes a second stake equal to the bet, so a doubled hand that busts loses 20 on a bet of " \
        f"10; got {settled(doubled)}"
    check_money("the bankroll after a doubled 10 busts", doubled["bankrolls"][0], 980,
                "the bet and the second stake of the double down are both lost: 1000 - 20")


# ============================ split (6 points): blackjack/plays.py split, deal_split_card

@pytest.mark.points(1.5)
def test_split_eights_against_ten(student: Student) -> None:
    """8-8 against a ten splits into two hands of 10 each: K (18) stands and wins, 3 then a double to 20 wins 20;
    the engine prints nothing on the way."""
    # Ann 8 8; dealer T up, 7 in the hole (17, no natural). Split: first 8 gets K (18), stand;
    # second 8 gets 3 (11), double (DAS) gets 9 (20). Dealer stands on 17.
    game = table("8s Th 8d 7c Kc 3c 9d", bets=[10], given=("double_down",))  # the double is double down's to grade
    _, split = play(student, game, "split")
    assert split["hands"][0] == ["8s Kc", "8d"], \
        f"a split makes two hands of one card each, and the first gets its second card at once; got " \
        f"{split['hands'][0]}"
    check_money("the bankroll after splitting a bet of 10", split["bankrolls"][0], 980,
                "the new hand of a split is staked with the bet from the bankroll: 1000 - 10 - 10")
    _, _, stood = play(student, game, "split", "stand")
    assert hand(stood, 0, 1) == "8d 3c" and turn(stood) == (0, 1), \
        f"after the first hand stands, play moves to the second hand (0, 1), which then gets its second card, a 3: " \
        f"8d 3c; hands {stood['hands'][0]}, turn {turn(stood)}"
    *_, last = play(student, game, "split", "stand", "double")
    assert results(last) == [(0, 0, "WIN", 10), (0, 1, "WIN", 20)], \
        f"18 and a doubled 20 against 17 win +10 and +20; got {settled(last)}"
    check_money("the bankroll after both split hands win", last["bankrolls"][0], 1030, "980 + 20 + 30")
    check_quiet(student("printed", *game, steps(("split", "stand", "double"))),
                "a round with a split and a double down (blackjack/plays.py)")


@pytest.mark.points(1)
def test_each_split_hand_gets_its_second_card_when_play_reaches_it(student: Student) -> None:
    """After a split the left hand is played to the end before the right hand gets its second card."""
    # Ann 8 8; dealer 9 up, 7 in the hole. The first 8 gets 2 (10), hits a 5 (15) and stands; the second gets 3.
    game = table("8s 9c 8d 7s 2h 5c 3d", bets=[10])
    _, split, hit, stood = play(student, game, "split", "hit", "stand")
    assert split["hands"][0] == ["8s 2h", "8d"] and turn(split) == (0, 0), \
        f"the first split hand gets its second card at once and plays first; hands {split['hands'][0]}, " \
        f"turn {turn(split)}"
    assert hit["hands"][0] == ["8s 2h 5c", "8d"] and turn(hit) == (0, 0), \
        f"the second split hand waits with one card while the first plays on; hands {hit['hands'][0]}, " \
        f"turn {turn(hit)}"
    assert stood["hands"][0] == ["8s 2h 5c", "8d 3d"] and turn(stood) == (0, 1), \
        f"when play reaches the second split hand it gets its second card (3d) and its turn; hands " \
        f"{stood['hands'][0]}, turn {turn(stood)}"


@pytest.mark.points(1)
def test_split_aces_take_one_card_each(student: Student) -> None:
    """Split aces take one card each and no decision (vegas has no hit_split_aces): 16 loses, 18 wins."""
    # Ann A A; dealer 9 up, 8 in the hole (17). First ace gets 5 (soft 16), second gets 7 (soft 18).
    game = table("As 9c Ad 8d 5h 7c", bets=[10])
    _, split = play(student, game, "split")
    assert split["hands"][0] == ["As 5h", "Ad 7c"] and split["phase"] == "settled", \
        f"split aces get one card each and end there (the rules have no hit_split_aces), so the round settles; " \
        f"hands {split['hands'][0]}, phase {split['phase']}"
    assert results(split) == [(0, 0, "LOSE", -10), (0, 1, "WIN", 10)], \
        f"soft 16 loses to 17 (-10), soft 18 beats it (+10); got {settled(split)}"


@pytest.mark.points(1)
def test_an_ace_and_a_ten_after_a_split_is_not_a_natural(student: Student) -> None:
    """A-K made by splitting aces, and K-A made by splitting kings, are plain 21s paid 1:1, never naturals paid 3:2."""
    # Ann A A; dealer 9 8 (17): the second ace gets a K. Then Ann K K: the first king gets an ace.
    aces = table("As 9c Ad 8d 5h Kc", bets=[10])
    _, split = play(student, aces, "split")
    assert results(split) == [(0, 0, "LOSE", -10), (0, 1, "WIN", 10)], \
        f"a hand made by a split is never a natural: A-K after splitting aces is 21 and wins +10 against 17, not " \
        f"+15; got {settled(split)}"
    kings = table("Ks 9c Kd 8d Ah 9h", bets=[10])
    *_, last = play(student, kings, "split", "finish")
    assert results(last) == [(0, 0, "WIN", 10), (0, 1, "WIN", 10)], \
        f"a hand made by a split is never a natural: K-A after splitting kings is 21 and wins +10, not +15; " \
        f"K-9 (19) wins +10; got {settled(last)}"


@pytest.mark.points(0.5)
def test_split_stops_at_the_rules_hand_limit(student: Student) -> None:
    """A seat resplits up to rules.max_split_hands hands: 4 under vegas, 2 under Thunderjack, then SPLIT is refused."""
    *_, last = play(student, table("8s 9c 8d 7s 8h 8c 8s 2d 2h 2c 2s", bets=[10]), "split", "split", "split")
    assert len(last["hands"][0]) == 4 and "split" not in last["legal"], \
        f"vegas resplits up to 4 hands (rules.max_split_hands), then no more; hands {last['hands'][0]}, " \
        f"legal_actions() {last['legal']}"
    game = table("8s Th 8d 7c 8h", rules=THUNDERJACK, bets=[10])
    _, split = play(student, game, "split")
    assert hand(split, 0, 0) == "8s 8h" and "split" not in split["legal"], \
        f"the first split hand 8s 8h is a pair but the seat holds 2 hands, Thunderjack's limit: SPLIT should not " \
        f"be legal; hand [{hand(split, 0, 0)}], legal_actions() {split['legal']}"
    assert_refused(student, game, ("split",), "split",
                   "Thunderjack allows at most 2 hands per seat (rules.max_split_hands)")


# ============================ insurance (5 points): blackjack/plays.py insurance_limit, insurance_net

@pytest.mark.points(1.5)
def test_insurance_against_dealer_natural_pays_two_to_one(student: Student) -> None:
    """Insurance of 5 on a bet of 10 against a dealer A-K pays 10, settled before the hand; the player breaks even."""
    game = table("Th As 9d Kc", bets=[10])  # Ann T 9; dealer A up, K in the hole
    [start] = play(student, game)
    assert start["phase"] == "insurance" and "insurance" in start["legal"], \
        f"an ace up should offer insurance before anyone plays; phase {start['phase']}, " \
        f"legal_actions() {start['legal']}"
    _, insured = play(student, game, "insurance")
    events = insured["events"]
    assert any(isinstance(e, dict) and e.get("type") == "InsuranceSettled" and e.get("seat") == 0
               and as_number(e.get("stake")) == 5 and as_number(e.get("net")) == 10 for e in events), \
        f"insurance of 5 (half the bet) pays 2:1 against a dealer natural, +10; what happened: {events_text(events)}"
    [paid] = [e for e in events if isinstance(e, dict) and e.get("type") == "InsuranceSettled"]
    check_money("insurance_net(5, True), the net of insurance of 5 against a dealer natural", paid.get("net"), 10,
                "insurance pays 2:1: twice the stake")
    kinds = [e.get("type") for e in events if isinstance(e, dict)]
    assert "HandSettled" in kinds and kinds.index("InsuranceSettled") < kinds.index("HandSettled"), \
        f"insurance is settled before the hands; what happened: {events_text(events)}"
    assert results(insured) == [(0, 0, "LOSE", -10)] and as_number(insured["insurance"][0]) == 10, \
        f"T-9 loses its 10 to the dealer natural and the insurance wins +10 (2:1 on 5); got {settled(insured)}, " \
        f"insurance {shown(insured['insurance'][0])}"
    check_money("the bankroll after insurance against a dealer natural", insured["bankrolls"][0], 1000,
                "-10 on the hand, +10 on the insurance paid 2:1")


@pytest.mark.points(1)
def test_insurance_is_at_most_half_the_bet_and_lost_without_natural(student: Student) -> None:
    """Insurance over half the bet is refused, and half the bet is exact money (insurance_limit(5, 1000) is 5/2, not
    the float 2.5); 2 of a 10 bet is taken and lost when the dealer has no natural."""
    game = table("Th As 9d 7c", bets=[10])  # Ann T 9 (19); dealer A up, 7 in the hole (soft 18)
    assert_refused(student, game, (), "insurance", "insurance is at most half the bet of 10, so 6 is too much",
                   amount=6, error="InvalidBetError", words="at most 5")
    for bet, bankroll, most in ((10, 1000, 5), (5, 1000, Fraction(5, 2)), (Fraction(15, 2), 1000, Fraction(15, 4))):
        [got] = student("insurance_limits", [[sent(bet), bankroll]])
        check_money(f"insurance_limit({bet!r}, {bankroll})", got, most,
                    "half the bet, as exact money whatever the bet's type (the simulator stakes ints: 5 / 2 is the "
                    "float 2.5, Fraction(5, 2) is exact)")
    _, insured = play(student, game, ("insurance", 2))
    check_money("the bankroll with a bet of 10 and insurance of 2", insured["bankrolls"][0], 988,
                "the bet (10) and the insurance side stake (2) are on the table")
    *_, last = play(student, game, ("insurance", 2), "finish")
    assert as_number(last["insurance"][0]) == -2 and results(last) == [(0, 0, "WIN", 10)], \
        f"insurance is lost when the dealer has no natural: -2; 19 beats 18 for +10; got insurance " \
        f"{shown(last['insurance'][0])}, {settled(last)}"
    check_money("the bankroll after the round", last["bankrolls"][0], 1008, "1000 - 2 + 10")


@pytest.mark.points(1)
def test_insurance_is_at_most_the_bankroll_left(student: Student) -> None:
    """With 3 credits left after a bet of 10, insurance is at most 3 (half the bet would be 5): 4 is refused."""
    game = table("Th As 9d 7c", ["Ann", 13], bets=[10])  # Ann has 13: 3 left after her bet
    check_money("Round.insurance_limit() with a bet of 10 and 3 credits left", student("limit", *game), 3,
                "insurance is at most half the bet (5), or the whole bankroll if that is less")
    assert_refused(student, game, (), "insurance", "insurance cannot be more than the 3 credits left",
                   amount=4, error="InvalidBetError", words="at most 3")
    _, insured = play(student, game, "insurance")
    check_money("the bankroll after insuring with everything left", insured["bankrolls"][0], 0,
                "13 - 10 - 3: the default insurance is the largest allowed, 3")


@pytest.mark.points(0.5)
def test_even_money_on_a_natural_pays_the_bet(student: Student) -> None:
    """A natural that takes insurance (even money) against an ace gains exactly the bet when the dealer has no natural."""
    game = table("Ah Ac Ks 9d", bets=[10])  # Ann A K; dealer A up, 9 in the hole
    _, insured = play(student, game, "insurance")
    assert insured["phase"] == "settled", \
        f"after the peek finds no dealer natural, the natural is paid at once; phase {insured['phase']}"
    assert results(insured) == [(0, 0, "BLACKJACK", 15)] and as_number(insured["insurance"][0]) == -5, \
        f"natural +15, insurance lost without a dealer natural -5; got {settled(insured)}, " \
        f"insurance {shown(insured['insurance'][0])}"
    check_money("the bankroll after even money", insured["bankrolls"][0], 1010, "even money: +10 on a bet of 10")


# ==================== given: surrender, Thunderjack 3:1, Blitz 5:1 (no points: the engine's extras)

@pytest.mark.points(0)
def test_insurance_without_an_ace_up_is_refused(student: Student) -> None:
    """With a ten showing there is no insurance (the round's offer): INSURANCE raises IllegalActionError."""
    game = table("Th Kc 9d 7c", bets=[10])
    assert_refused(student, game, (), "insurance", "insurance is offered only against a dealer's ace, and a K shows",
                   words="not an ace")


@pytest.mark.points(0)
def test_late_surrender_returns_half_the_bet(student: Student) -> None:
    """Late surrender of T-6 against a ten (no dealer natural) loses half the bet: 5 of 10."""
    game = table("Th Tc 6d 7s", bets=[10])
    _, surrendered = play(student, game, "surrender")
    assert results(surrendered) == [(0, 0, "SURRENDER", -5)], \
        f"late surrender of T-6 against a ten gives back half the bet of 10: SURRENDER, net -5; got " \
        f"{settled(surrendered)}"
    check_money("the bankroll after surrendering 10", surrendered["bankrolls"][0], 995, "1000 - 5")


@pytest.mark.points(0)
def test_thunderjack_beats_dealer_natural_and_pays_three_to_one(student: Student) -> None:
    """J♠-A♠ is a Thunderjack: paid 3:1 at once (10 gains 30) even though the dealer has A-K."""
    [start] = play(student, table("Js Ac As Kd", rules=THUNDERJACK, bets=[10]))
    assert results(start) == [(0, 0, "THUNDERJACK", 30)], \
        f"a suited ace and jack pays 3:1, +30, and wins against the dealer natural; got {settled(start)}"
    assert start["phase"] == "settled", f"a Thunderjack is paid at once, settling the round; phase {start['phase']}"
    check_money("the bankroll after a Thunderjack on 10", start["bankrolls"][0], 530, "500 + 3 x 10")


@pytest.mark.points(0)
def test_two_thunderjacks_push_each_other(student: Student) -> None:
    """When two seats are dealt Thunderjacks, both push: no money changes hands."""
    game = table("Js Qh 9c As Ah 7d", "Ann", "Bob", rules=THUNDERJACK, bets=[10, 20])  # Ann J♠ A♠, Bob Q♥ A♥
    [start] = play(student, game)
    assert results(start) == [(0, 0, "PUSH", 0), (1, 0, "PUSH", 0)], \
        f"two Thunderjacks push each other; got {settled(start)}"
    assert [as_number(b) for b in start["bankrolls"]] == [500, 500], \
        f"after two pushes both bankrolls stay 500; got {[shown(b) for b in start['bankrolls']]}"


@pytest.mark.points(0)
def test_blitz_six_cards_pays_five_to_one(student: Student) -> None:
    """Six cards without busting (2-3-2-3-2-3 = 15) is a Blitz, paid 5:1 at once: 10 gains 50."""
    game = table("2c Td 3d 9s 2h 3s 2d 3c", rules=THUNDERJACK, bets=[10])  # dealer T up, 9 in the hole
    *_, last = play(student, game, "hit", "hit", "hit", "hit", "finish")
    assert results(last) == [(0, 0, "BLITZ", 50)], \
        f"six cards without busting (2-3-2-3-2-3 = 15) is a Blitz, paid 5:1 at once: +50; got {settled(last)}"
    check_money("the bankroll after a Blitz on 10", last["bankrolls"][0], 550, "500 + 5 x 10")


@pytest.mark.points(0)
def test_european_dealer_natural_takes_the_doubled_bet(student: Student) -> None:
    """With no hole card (european), a dealer natural found after the players takes the whole doubled bet."""
    # Ann 5 6 (11) doubles and gets 9 (20); the dealer's T then gets his second card, an ace: natural.
    game = table("5h Th 6d 9c As", rules="european", bets=[10])
    _, doubled = play(student, game, "double")
    assert results(doubled) == [(0, 0, "LOSE", -20)], \
        f"a doubled 20 against a dealer natural loses both bets, -20; got {settled(doubled)}"
    check_money("the bankroll after losing a doubled 10", doubled["bankrolls"][0], 980, "1000 - 20")


# ======================================================= no points: every rule switch and preset

def legal(student: Student, codes: str, rules: Any) -> set[str]:
    """The legal actions on the first decision of a one-seat round dealt from ``codes``."""
    return set(play(student, table(codes, rules=rules, bets=[10]))[0]["legal"])


@pytest.mark.points(0)
@pytest.mark.parametrize("double_on, total, allowed", [
    ("any", 8, True), ("any", 12, True), ("9-11", 9, True), ("9-11", 8, False), ("9-11", 12, False),
    ("10-11", 10, True), ("10-11", 9, False), ("none", 11, False)])
def test_double_on_rule(student: Student, double_on: str, total: int, allowed: bool) -> None:
    """rules.double_on limits the two-card totals that may double: any, 9-11, 10-11 or none."""
    rules = {"preset": "vegas", "double_on": double_on, "double_after_split": double_on != "none"}
    first = {8: "3h", 9: "4h", 10: "4h", 11: "5h", 12: "7h"}[total]
    second = {8: "5d", 9: "5d", 10: "6d", 11: "6d", 12: "5d"}[total]
    got = legal(student, f"{first} 9c {second} 7s", rules)
    assert ("double" in got) is allowed, \
        f"double_on={double_on!r}: a two-card {total} {'may' if allowed else 'may not'} double; legal {sorted(got)}"


@pytest.mark.points(0)
def test_hit_split_aces_rule(student: Student) -> None:
    """With hit_split_aces, a split ace may hit; without it (vegas) it gets one card."""
    rules = {"preset": "vegas", "hit_split_aces": True}
    _, split = play(student, table("As 9c Ad 8d 5h Kc", rules=rules, bets=[10]), "split")
    assert turn(split) == (0, 0) and "hit" in split["legal"], \
        f"with hit_split_aces the first split ace (As 5h) plays on and may hit; turn {turn(split)}, " \
        f"legal {split['legal']}"


@pytest.mark.points(0)
def test_dealer_soft_17_rule(student: Student) -> None:
    """downtown's dealer hits A-6 (draws a 2: 19, beating 18); vegas's stands (18 beats 17)."""
    codes = "Th Ac 8d 6s 2c"  # Ann T 8; dealer A up, 6 in the hole
    *_, h17 = play(student, table(codes, rules="downtown", bets=[10]), "finish")
    *_, s17 = play(student, table(codes, bets=[10]), "finish")
    assert results(h17) == [(0, 0, "LOSE", -10)] and results(s17) == [(0, 0, "WIN", 10)], \
        f"an H17 dealer hits A-6 (19 beats 18), an S17 dealer stands (18 beats 17); got H17 {settled(h17)}, " \
        f"S17 {settled(s17)}"


@pytest.mark.points(0)
def test_peek_under_ten(student: Student) -> None:
    """Under US rules the dealer peeks under a ten too: a dealer T-A ends the round before anyone acts."""
    [start] = play(student, table("Th Kc 9d As", bets=[10]))
    assert start["phase"] == "settled" and results(start) == [(0, 0, "LOSE", -10)], \
        f"the peek under the ten finds the ace and settles the round: -10; phase {start['phase']}, {settled(start)}"


@pytest.mark.points(0)
def test_no_peek_game_keeps_doubled_bet_at_risk(student: Student) -> None:
    """Without a peek (but with a hole card), a doubled hand loses the doubled bet to a dealer natural."""
    game = table("5h Th 6d As 9c", rules={"preset": "vegas", "dealer_peeks": False}, bets=[10])
    [start] = play(student, game)
    assert start["phase"] == "player turn", f"without a peek the player acts first; phase {start['phase']}"
    _, doubled = play(student, game, "double")
    assert results(doubled) == [(0, 0, "LOSE", -20)], \
        f"without a peek the doubled bet is lost to the dealer natural: -20; got {settled(doubled)}"


@pytest.mark.points(0)
def test_european_split_bets_lost_to_dealer_natural(student: Student) -> None:
    """european: both bets of a split pair are lost to a dealer natural that shows up after the players."""
    *_, last = play(student, table("8s Th 8d 2c 9h Ah", rules="european", bets=[10]), "split", "finish")
    assert results(last) == [(0, 0, "LOSE", -10), (0, 1, "LOSE", -10)], \
        f"european: both split bets lose to the dealer natural; got {settled(last)}"


@pytest.mark.points(0)
def test_early_surrender_rule(student: Student) -> None:
    """Early surrender is offered against an ace before the peek, and costs half even when the dealer has a natural."""
    game = table("Th As 6d Kc", rules={"preset": "vegas", "surrender": "early", "insurance": False}, bets=[10])
    [start] = play(student, game)
    assert start["phase"] == "early surrender" and set(start["legal"]) == {"surrender", "decline"}, \
        f"early surrender is offered against an ace before the peek; phase {start['phase']}, legal {start['legal']}"
    _, surrendered = play(student, game, "surrender")
    assert results(surrendered) == [(0, 0, "SURRENDER", -5)] and surrendered["phase"] == "settled", \
        f"early surrender costs half the bet even against a dealer natural: -5; got {settled(surrendered)}"


@pytest.mark.points(0)
def test_no_surrender_rule(student: Student) -> None:
    """downtown has no surrender: SURRENDER is never legal and is refused."""
    game = table("Th 9c 6d 7s", rules="downtown", bets=[10])
    [start] = play(student, game)
    assert "surrender" not in start["legal"], "downtown has no surrender: SURRENDER should never be legal"
    assert_refused(student, game, (), "surrender", "downtown has no surrender (rules.surrender is 'none')")


@pytest.mark.points(0)
def test_split_hand_cannot_surrender(student: Student) -> None:
    """Late surrender applies to the first two cards only, not to a hand made by a split."""
    _, split = play(student, table("8s 9c 8d 7s 2h", bets=[10]), "split")
    assert "surrender" not in split["legal"], f"a hand made by a split cannot surrender; legal {split['legal']}"


@pytest.mark.points(0)
def test_cs111_has_only_hit_and_stand(student: Student) -> None:
    """The cs111 preset offers only hit and stand, even on a pair of 8s totalling 16, with a ten up."""
    got = legal(student, "8s Tc 8d 7s", "cs111")
    assert got == {"hit", "stand"}, f"cs111 offers only hit and stand; legal {sorted(got)}"


@pytest.mark.points(0)
def test_thunderjack_dealer_has_no_thunderjack(student: Student) -> None:
    """A dealer's suited A-K is just a natural: a player's plain natural pushes it, no 3:1 for the house."""
    [start] = play(student, table("Ah Ks Kd As", rules=THUNDERJACK, bets=[10]))  # Ann A♥ K♦ (unsuited), dealer K♠ A♠
    assert results(start) == [(0, 0, "PUSH", 0)], \
        f"the dealer's suited A-K is a plain natural: the player's natural pushes it; got {settled(start)}"


@pytest.mark.points(0)
def test_thunderjack_with_a_plain_natural_at_the_table(student: Student) -> None:
    """One Thunderjack is paid 3:1 while another seat's unsuited natural is paid 3:2."""
    [start] = play(student, table("Js Ah 9c As Kd 7d", "Ann", "Bob", rules=THUNDERJACK, bets=[10, 10]))
    assert results(start) == [(0, 0, "THUNDERJACK", 30), (1, 0, "BLACKJACK", 15)], \
        f"the Thunderjack pays 3:1 (+30) and the plain natural 3:2 (+15); got {settled(start)}"


@pytest.mark.points(0)
def test_suited_ace_ten_is_not_a_thunderjack(student: Student) -> None:
    """A suited ace and ten (not J/Q/K) is a plain natural paid 3:2."""
    [start] = play(student, table("Ts 9c As 7d", rules=THUNDERJACK, bets=[10]))
    assert results(start) == [(0, 0, "BLACKJACK", 15)], \
        f"a suited ace and ten is a plain natural paid 3:2 (+15); got {settled(start)}"


@pytest.mark.points(0)
def test_thunderjack_seats_three(student: Student) -> None:
    """The Thunderjack table seats three players and refuses a fourth."""
    assert student("seat", ["A", "B", "C"], THUNDERJACK) == 3, "the Thunderjack table should seat three players"
    raised = student.raised("seat", ["A", "B", "C", "D"], THUNDERJACK)
    assert raised is not None and raised.is_a("ValueError"), \
        f"seating a fourth player at the Thunderjack table should raise ValueError; " \
        f"{'it returned' if raised is None else 'it raised ' + raised.type}"


#: Every preset (``presets.toml``'s order), and what the stacked round's win is worth there: the table minimum
#: (1 everywhere), or nothing where there is no money (cs111).
PRESET_WIN = {"cs111": 0, "vegas": 1, "atlantic_city": 1, "downtown": 1, "single_deck": 1, "european": 1,
              "justblackjack": 1, "thunderjack": 1}


@pytest.mark.points(0)
@pytest.mark.parametrize("name", list(PRESET_WIN))
def test_every_preset_plays_a_stacked_round(student: Student, name: str) -> None:
    """Every preset plays T-9 against the dealer's 9-8 to a 19-17 win (worth nothing where there is no money)."""
    *_, last = play(student, table("Th 9c 9d 8s", rules=name), "finish")
    net = PRESET_WIN[name]
    assert results(last) == [(0, 0, "WIN", net)], f"{name}: T-9 (19) against 9-8 (17) should WIN {net}; got {settled(last)}"


@pytest.mark.points(0)
def test_illegal_actions_outside_a_turn(student: Student) -> None:
    """Any action after the round is settled raises IllegalActionError."""
    game = table("Th Tc 9d 8s", bets=[10])
    for action in ("hit", "stand", "double", "split", "surrender", "insurance", "decline"):
        raised = student.raised("refuse", *game, steps(("finish",)), action)
        assert raised is not None and raised.is_a("IllegalActionError"), \
            f"apply({action}) after the round is settled should raise IllegalActionError; " \
            f"{'it returned' if raised is None else 'it raised ' + raised.type}"


# ---------------------------------------------------------------- the course game with money

def words(text: str) -> set[str]:
    """The words of a prompt, brackets taken out (``"[d]ouble"`` reads as double)."""
    return set(re.findall(r"[a-z]+", re.sub(r"[\[\]()]", "", text.lower())))


@pytest.mark.points(1)
def test_the_move_question_offers_exactly_the_moves_the_round_offers(student: Student) -> None:
    """ask_move: offered hit, stand and double, the question names Ann and lists those three moves, no other;
    p (split, not offered) and x are refused with a line and asked again, d is a double. Offered insurance and
    decline, n declines."""
    got = student("moves_asked", ["hit", "stand", "double"], ["p", "x", "d"])
    prompts, _lines = check_scripted(got, "ask_move")
    assert len(prompts) == 3 and got["returned"] == "double", \
        (f"offered hit, stand and double and answered p, x, d, ask_move should refuse p (split is not offered) and x, "
         f"asking again, and return Action.DOUBLE; it asked {len(prompts)} times and returned {got['returned']}"
         + transcript(got))
    for prompt in prompts:
        found = words(prompt)
        assert {"ann", "hit", "stand", "double"} <= found and not found & {"split", "surrender", "insurance"}, \
            (f"the move question should name Ann and list the moves offered, hit, stand and double, and no other; "
             f"it asked {prompt!r}")
    assert all(said_between_asks(got)[:2]), \
        f"after each refused answer (p, x) ask_move should say a line before asking again" + transcript(got)
    got = student("moves_asked", ["insurance", "decline"], ["n"])
    prompts, _lines = check_scripted(got, "ask_move")
    assert got["returned"] == "decline" and "insurance" in words(prompts[0]) and "hit" not in words(prompts[0]), \
        (f"offered insurance and decline, ask_move should ask about insurance (not hit) and read n as "
         f"Action.DECLINE; it asked {prompts} and returned {got['returned']}")


def money_round(student: Student, codes: str, answers: list[str], *bankrolls: int) -> tuple[dict[str, Any], list[str]]:
    """play_money_round for Ann (and Bob) with ``bankrolls``, dealt ``codes``, answered ``answers``; its lines."""
    players = [[name, bankroll] for name, bankroll in zip(("Ann", "Bob"), bankrolls)]
    got = student("money_round", codes, players, answers)
    return got, check_scripted(got, "play_money_round")[1]


def ends(got: dict[str, Any]) -> object:
    """The hands' ends play_money_round returned, money as numbers."""
    returned = got["returned"]
    return [[*end[:3], as_number(end[3])] for end in returned] if isinstance(returned, list) else returned


@pytest.mark.points(1)
def test_the_round_with_money_offers_a_double_on_11_and_takes_a_second_stake(student: Student) -> None:
    """play_money_round: Ann bets 20 on 6-5 against the dealer's 9, Bob 10 on T-8. Ann's move question offers
    double; d takes a second 20 and one card (9: 20); Bob stands; the dealer's 9-7 draws a 7 and busts. Ann
    wins +40 (bankroll 140), Bob +10 (110), and the lines show the bankrolls."""
    got, lines = money_round(student, "6h Th 9s 5c 8d 7h 9d 7s", ["20", "10", "d", "s"], 100, 100)
    asked = [prompt for kind, prompt in got["log"] if kind == "ask"]
    moves = [prompt for prompt in asked if "hit" in words(prompt)]
    assert moves and "ann" in words(moves[0]) and "double" in words(moves[0]), \
        (f"Ann's first move question (6-5, 11) should offer double (the round's legal_actions: ask_move gets them); "
         f"the questions were {asked}" + transcript(got))
    assert ends(got) == [[0, 0, "WIN", 40], [1, 0, "WIN", 10]] and [as_number(b) for b in got["bankrolls"]] == [140, 110], \
        (f"Ann's double takes a second 20 and wins +40 (bankroll 140), Bob wins +10 (110): play_money_round should "
         f"start the round with the bets and apply each move; it returned {shown(got['returned'])}, bankrolls "
         f"{shown(got['bankrolls'])}" + transcript(got))
    assert any("140" in line and "Ann" in line for line in lines), \
        f"after the round play_money_round should show every player's bankroll (Ann 140)" + transcript(got)


@pytest.mark.points(1)
def test_the_round_with_money_offers_insurance_against_an_ace(student: Student) -> None:
    """play_money_round: Ann bets 20 on T-9 against the dealer's ace: the first move question is the insurance
    offer; she insures (10, half the bet) and stands; the dealer's A-9 (20, no natural) beats 19: the hand loses
    20 and the insurance 10 (bankroll 70), and a line gives the insurance's net, -10."""
    got, lines = money_round(student, "Th As 9c 9d", ["20", "i", "s"], 100)
    asked = [prompt for kind, prompt in got["log"] if kind == "ask"]
    assert len(asked) == 3 and "insurance" in words(asked[1]), \
        (f"with an ace up, the first move question should be the insurance offer (the round's legal_actions in the "
         f"insurance phase: insurance or decline); the questions were {asked}" + transcript(got))
    assert ends(got) == [[0, 0, "LOSE", -20]] and [as_number(b) for b in got["bankrolls"]] == [70], \
        (f"T-9 loses 20 to the dealer's 20 and the insurance of 10 is lost: bankroll 70; play_money_round returned "
         f"{shown(got['returned'])}, bankroll {shown(got['bankrolls'])}" + transcript(got))
    assert any("insurance" in line.lower() and "-10" in line for line in lines), \
        f"play_money_round should say the insurance bet's net, -10 (rnd.insurance_net)" + transcript(got)
