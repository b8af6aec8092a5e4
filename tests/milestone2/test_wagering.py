"""Milestone 2a, basic wagering: bankrolls, bets within the limits, payouts, the session ledger (20 points).

Bets go through ``Player.check_bet`` (the table minimum and maximum, the bankroll);
the round settles each hand against the dealer and pays it by ``wagers.payout`` (win
1:1, natural 3:2 or 6:5, push returns the bet). Every round is dealt from a stacked shoe and its money
is worked out by hand in the test. Deal order: one card to each seat, the dealer's
upcard, a second card to each seat, the dealer's hole card, then hits in turn.

Rounds that take decisions are played at :data:`BASIC`, the vegas table without double
down, split, surrender or insurance: those are advanced play (the next part,
``blackjack/plays.py``), and the spec's order has students write wagering first, so no
test here needs them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from m2_helpers import check_money, check_outcome, check_quiet, check_refused, shown
from milestones.judge import Raised, Student, as_number

PART = "wagering"

#: The rules are sent to the student's process as a preset's name, or the preset with some fields changed.
VEGAS = "vegas"  # 6 decks, S17, 3:2, peek, late surrender, limits 1..500, bankroll 1000
#: Basic wagering: the vegas table with hit and stand only (no double down, split, surrender or insurance: those
#: are the advanced part's, written after wagering).
BASIC = {"preset": "vegas", "double_on": "none", "double_after_split": False, "max_split_hands": 1,
         "surrender": "none", "insurance": False}
#: The seed of the tables of stacked rounds (the cards after the stacked ones).
SEED = 2012


def sent(amount: object) -> object:
    """An amount as the student's process reads it: a Fraction as ``{"fraction": "-1/2"}``, the rest as it is."""
    return {"fraction": str(amount)} if isinstance(amount, Fraction) else amount


def played(student: Student, codes: str, bets: list[Any] | None, *players: Any, rules: Any = BASIC) -> dict[str, Any]:
    """A round at a table whose next cards are ``codes`` (space-separated), in deal order, started with ``bets`` and
    every hand standing (insurance declined) until it is settled; ``players`` are names or ``[name, bankroll]``."""
    state: dict[str, Any] = student("stood", codes, list(players), rules, SEED, bets)
    return state


def only_outcome(state: dict[str, Any], seat: int = 0) -> object:
    """The outcome of the one hand ``seat`` played in the (settled) round ``state``."""
    assert state["table_holds_round"], "the table should hold the round it just played (game.round is None)"
    found = [o for s, _, o in state["outcomes"] if s == seat]
    assert len(found) == 1, f"seat {seat} should have one settled hand; got {[shown(o) for o in found]}"
    return found[0]


def check_bet_refused(raised: Raised | None, bet: object, given: str, rule: str) -> None:
    """``place_bet(0, bet)`` raised InvalidBetError; a TypeError that got out (``to_money`` refusing a float) fails
    with the rule.

    ``to_money`` refuses what is not exact money with a TypeError; a ``check_bet`` that
    lets it through would show the student a bare TypeError from the given code.
    """
    if raised is not None and raised.is_a("TypeError"):
        kind = f"the float {bet!r}" if isinstance(bet, float) else f"{bet!r} ({type(bet).__name__})"
        raise AssertionError(
            f"place_bet(0, {bet!r}), a bet of {kind}, raised TypeError ({raised.message}); check_bet must refuse it "
            f"with InvalidBetError, the error a table reports to the player. Money is exact, never a float (0.1 + "
            f"0.2 != 0.3 in floats), so to_money takes an int, a Fraction, a Decimal or text such as \"2.5\" and "
            f"refuses anything else with TypeError: check_bet must turn that refusal into an InvalidBetError that "
            f"says a bet must be an exact number of credits")
    check_refused(raised, "InvalidBetError", given, rule)


def assert_bet_refused(student: Student, rules: Any, bet: object, why: str, *players: Any, seed: int = 1) -> None:
    """Placing ``bet`` for seat 0 of a new round raises InvalidBetError and changes neither the round nor the
    bankroll."""
    args: tuple[Any, ...] = (rules, seed, list(players), [], sent(bet))
    check_bet_refused(student.raised("place_bet", *args), bet, f"place_bet(0, {bet!r}), a bet of {bet!r}",
                      f"check_bet must refuse it ({why})")
    after = student("after_refused_bet", *args)
    before, now = after["bankroll_before"], after["bankroll"]
    assert as_number(now) == as_number(before), \
        f"a refused bet ({why}) must not change the bankroll: it was {shown(before)}, now {shown(now)}"
    assert as_number(after["bet"]) == 0 and after["phase"] == "betting", \
        f"a refused bet ({why}) must leave no bet placed; bet(0) is {shown(after['bet'])}, phase {after['phase']}"


LIMITS = {"preset": "vegas", "min_bet": 5, "max_bet": 100}


@pytest.mark.points(1)
def test_bet_below_table_minimum_is_refused(student: Student) -> None:
    """A bet under rules.min_bet raises InvalidBetError naming the minimum; exactly the minimum is fine."""
    assert_bet_refused(student, LIMITS, 4, "4 under a minimum of 5")
    got = student("place_bet", LIMITS, 1, [], [], 5)
    assert as_number(got["bet"]) == 5, \
        f"a bet of exactly the table minimum (5) should be accepted; bet(0) is {shown(got['bet'])}"
    check_refused(student.raised("place_bet", LIMITS, 1, [], [5], 4), "InvalidBetError",
                  "changing the bet to place_bet(0, 4)", "4 is under the table minimum of 5")


@pytest.mark.points(1)
def test_bet_above_table_maximum_is_refused(student: Student) -> None:
    """A bet over rules.max_bet raises InvalidBetError; exactly the maximum is fine."""
    assert_bet_refused(student, LIMITS, 101, "101 over a maximum of 100")
    got = student("place_bet", LIMITS, 1, [], [], 100)
    assert as_number(got["bet"]) == 100, \
        f"a bet of exactly the table maximum (100) should be accepted; bet(0) is {shown(got['bet'])}"


@pytest.mark.points(1)
def test_bet_above_bankroll_is_refused(student: Student) -> None:
    """The bankroll starts at rules.starting_bankroll; betting all of it is fine, one credit more is refused."""
    rules = {"preset": "thunderjack", "max_bet": 1000}  # Thunderjack: 500 credits
    [bankroll] = student("seated", rules, 1, [])
    assert as_number(bankroll) == 500, \
        f"a new player should get rules.starting_bankroll (500); got {shown(bankroll)}"
    assert_bet_refused(student, rules, 501, "501 with a bankroll of 500")
    got = student("place_bet", rules, 1, [], [], 500)
    assert as_number(got["bet"]) == 500, \
        f"betting the whole bankroll (500) should be accepted; bet(0) is {shown(got['bet'])}"


@pytest.mark.points(2)
def test_nonsense_bets_are_refused_and_change_nothing(student: Student) -> None:
    """Bets of 0, -5, 1e9, "1e9", "ten", "" and 2.5 (a float) raise InvalidBetError and change nothing."""
    for bet in (0, -5, 10**9, "1e9", "ten", "", 2.5, Fraction(-1, 2)):
        assert_bet_refused(student, VEGAS, bet, f"{bet!r}")


@pytest.mark.points(1)
def test_bet_is_exact_and_leaves_the_bankroll_at_the_deal(student: Student) -> None:
    """A bet typed as "25" becomes exactly 25 credits, taken off the bankroll when the cards are dealt."""
    got = student("bet_then_deal", "Th 9c 7d 8s", BASIC, SEED, "25")
    check_money('place_bet(0, "25"): the bet', got["bet"], 25, 'check_bet turns the text "25" into exact money')
    assert isinstance(as_number(got["bet"]), Fraction), \
        f'check_bet should return the bet as a Fraction (to_money("25") is Fraction(25)); got {as_number(got["bet"])!r}'
    assert as_number(got["bankroll_at_bet"]) == 1000, \
        f"the bankroll changes at the deal, not when the bet is placed: 1000 before the deal; got {shown(got['bankroll_at_bet'])}"
    check_money("the bankroll after dealing a bet of 25", got["bankroll_after_deal"], 975, "1000 - 25")


@pytest.mark.points(1)
def test_player_who_cannot_cover_the_minimum_sits_out(student: Student) -> None:
    """With the default bets, a player whose bankroll is under the minimum sits the round out."""
    rules = {**BASIC, "min_bet": 10}
    state = student("started", "Th 9c 7d 8s", [["Ann", 1000], ["Bob", 9]], rules, SEED, None)
    bets = state["bets"]
    assert (as_number(bets[0]), as_number(bets[1])) == (10, 0), \
        f"Ann (1000) should bet the minimum 10 and Bob (9) sit out; bets were {shown(bets[0])}, {shown(bets[1])}"
    assert state["hands"][1] == [] and as_number(state["bankrolls"][1]) == 9, \
        f"Bob, sitting out, gets no cards and keeps his 9; hands {state['hands'][1]}, " \
        f"bankroll {shown(state['bankrolls'][1])}"


@pytest.mark.points(1)
def test_win_pays_one_to_one(student: Student) -> None:
    """T-9 (19) against the dealer's T-8 (18) wins: a bet of 10 gains 10."""
    state = played(student, "Th Tc 9d 8s", [10])  # Ann T 9; dealer T up, 8 in the hole: 18
    check_outcome("T-9 (19) against the dealer's 18 on a bet of 10", only_outcome(state),
                  ("WIN", 10, 10), "a win pays 1:1: net +10")
    check_money("the bankroll after winning 10", state["bankrolls"][0], 1010, "1000 + 10")


@pytest.mark.points(1)
def test_loss_takes_the_bet(student: Student) -> None:
    """T-7 (17) against the dealer's T-8 (18) loses: a bet of 10 is gone, nothing more."""
    state = played(student, "Th Tc 7d 8s", [10])
    check_outcome("T-7 (17) against the dealer's 18 on a bet of 10", only_outcome(state),
                  ("LOSE", 10, -10), "a loss takes the bet: net -10")
    check_money("the bankroll after losing 10", state["bankrolls"][0], 990, "1000 - 10")


@pytest.mark.points(1)
def test_push_returns_the_bet(student: Student) -> None:
    """T-8 against the dealer's T-8 pushes: the bet of 10 comes back, net 0."""
    state = played(student, "Th Tc 8d 8s", [10])
    check_outcome("T-8 (18) against the dealer's 18 on a bet of 10", only_outcome(state),
                  ("PUSH", 10, 0), "a push returns the bet: net 0")
    check_money("the bankroll after a push", state["bankrolls"][0], 1000, "the bet came back")


@pytest.mark.points(2)
def test_natural_pays_three_to_two_exactly(student: Student) -> None:
    """A natural on a bet of 5 pays 3:2, exactly 7.5 credits (no float rounding): 1000 becomes 1007.5."""
    state = played(student, "Ah 9c Kd 7s", [5])  # Ann A K; dealer 9 up (cannot have a natural)
    check_outcome("A-K (a natural) against the dealer's 9 on a bet of 5", only_outcome(state),
                  ("BLACKJACK", 5, Fraction(15, 2)), "a natural pays 3:2: 5 * 3/2")
    check_money("the bankroll after a natural on 5", state["bankrolls"][0], Fraction(2015, 2), "1000 + 15/2")


@pytest.mark.points(1)
def test_natural_pays_six_to_five_on_single_deck(student: Student) -> None:
    """The single_deck preset pays a natural 6:5: a bet of 10 gains 12."""
    state = played(student, "Ah 9c Kd 7s", [10], rules="single_deck")
    check_outcome("A-K on a bet of 10 at the single_deck table", only_outcome(state),
                  ("BLACKJACK", 10, 12), "rules.blackjack_pays is 6:5 there: 10 * 6/5")


@pytest.mark.points(1)
def test_natural_waits_for_dealer_without_peek_then_pays(student: Student) -> None:
    """With no hole card (european), a natural against a ten waits for the dealer's 17 and then pays 3:2."""
    state = played(student, "As Th Kd 7c", [10], rules="european")  # Ann A K; dealer T, then 7 after the players
    check_outcome("A-K against the european dealer's T-7 on a bet of 10", only_outcome(state),
                  ("BLACKJACK", 10, 15), "with no hole card the natural waits for the dealer, then pays 3:2")


@pytest.mark.points(1)
def test_dealer_bust_pays_every_standing_hand(student: Student) -> None:
    """When the dealer busts, each standing hand wins its own bet: Ann 10 gains 10, Bob 25 gains 25."""
    # Ann T 2 (12), Bob 9 7 (16); dealer 6 up, T in the hole (16), draws K: 26.
    state = played(student, "Th 9c 6h 2d 7s Ts Kc", [10, 25], "Ann", "Bob")
    got = [(s, o["result"], as_number(o["net"])) for s, _, o in state["outcomes"]]
    assert got == [(0, "WIN", 10), (1, "WIN", 25)], \
        f"the dealer busted (6-T-K: 26), so every standing hand wins its own bet: Ann (12) +10 and Bob (16) +25; " \
        f"got {[f'seat {s}: {shown(o)}' for s, _, o in state['outcomes']]}"


@pytest.mark.points(1)
def test_natural_against_dealer_natural_pushes(student: Student) -> None:
    """A player natural against a dealer natural pushes (the dealer peeks under his ace)."""
    state = played(student, "Ah Ac Kd Ks", [10])  # Ann A K; dealer A up, K in the hole; declines insurance
    check_outcome("A-K against the dealer's A-K on a bet of 10", only_outcome(state),
                  ("PUSH", 10, 0), "a natural against a dealer natural pushes")
    check_money("the bankroll after the push", state["bankrolls"][0], 1000, "the bet came back")


@pytest.mark.points(1)
def test_dealer_natural_takes_only_the_bet(student: Student) -> None:
    """A dealer natural beats a player's 20 and takes just the bet (10), not 3:2 of it."""
    state = played(student, "Th Ac Qd Ks", [10])  # Ann T Q; dealer A up, K in the hole
    check_outcome("T-Q (20) against the dealer's A-K on a bet of 10", only_outcome(state),
                  ("LOSE", 10, -10), "a dealer natural beats every hand but a natural, and takes just the bet")
    check_money("the bankroll after losing to a dealer natural", state["bankrolls"][0], 990, "1000 - 10")


@pytest.mark.points(2)
def test_ledger_records_every_round(student: Student) -> None:
    """The ledger keeps the bankroll after each round, the win/loss/push counts, and the biggest win."""
    plan = ["Th Tc 9d 8s", "Th Tc 7d 8s", "Th Tc 8d 8s", "Ah 9c Kd 7s"]  # win 10, lose 10, push, natural +15
    ledger = student("ledger", BASIC, SEED, plan, 10)
    assert [as_number(b) for b in ledger["bankrolls"]] == [1010, 1000, 1000, 1015], \
        f"bankrolls after the rounds (win 10, lose 10, push, natural +15) should be 1010, 1000, 1000, 1015; " \
        f"got {[shown(b) for b in ledger['bankrolls']]}"
    assert (ledger["wins"], ledger["losses"], ledger["pushes"]) == (2, 1, 1), \
        f"2 won, 1 lost, 1 pushed; got {ledger['wins']}, {ledger['losses']}, {ledger['pushes']}"
    assert as_number(ledger["biggest_win"]) == 15 and ledger["rounds"] == 4 and as_number(ledger["net"]) == 15, \
        f"biggest win 15 over 4 rounds, net +15; got {shown(ledger['biggest_win'])}, {ledger['rounds']}, " \
        f"{shown(ledger['net'])}"


@pytest.mark.points(1)
def test_money_is_conserved_over_many_rounds(student: Student) -> None:
    """Over 200 seeded rounds of random legal play, bankrolls plus the house's result never change, and the
    engine prints nothing."""
    seen = student("random_rounds", ["Ann", "Bob", "Cy"], BASIC, 7, 7, 200)
    total = as_number(seen["total"])
    for after in seen["after"]:
        bankrolls = [as_number(b) for b in after["bankrolls"]]
        now = sum(bankrolls) + as_number(after["house"])
        assert now == total, (f"money is conserved: after round {after['round']} the bankrolls plus the house's "
                              f"result are {shown(now)}; they should stay {shown(total)}")
        assert all(b >= 0 for b in bankrolls), \
            f"a bankroll went negative after round {after['round']}: {[shown(b) for b in bankrolls]}"
    check_quiet(seen["printed"], "betting and settling 200 rounds (check_bet, payout)")
