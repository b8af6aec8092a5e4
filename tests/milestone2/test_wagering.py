"""Milestone 2a, basic wagering: bets within the limits, stakes taken from the bankroll and paid back, payouts,
the session summary (20 points).

Bets go through ``Player.check_bet`` (the table minimum and maximum, the bankroll); the
deal takes each stake off the bankroll with ``wagers.take_stake``; the round settles each
hand against the dealer, asks ``wagers.payout`` for its net (win 1:1, natural 3:2 or 6:5,
push 0, surrender half the bet, loss or bust the bet) and gives the stake and the net back
with ``wagers.pay``; the course game ends with ``course_game.summary_lines``. Each function
is graded on its own: ``take_stake``, ``pay`` and ``summary_lines`` on a given ``Player`` and
on ledgers filled by given code, and the payouts through rounds whose bets, stakes and
payments are the suite's given parts (``observe_given.py``), so a mistake in one money move
costs that move's points. Only the ledger and the conservation of money (1 point) play
with all of the student's wagering at once. Every round is dealt from a stacked shoe and
its money is worked out by hand in the test. Deal order: one card to each seat, the
dealer's upcard, a second card to each seat, the dealer's hole card, then hits in turn.

Rounds that take decisions are played at :data:`BASIC`, the vegas table without double
down, split, surrender or insurance: those are advanced play (the next part,
``blackjack/plays.py``), and the spec's order has students write wagering first, so no
test here needs them. A surrender (given code, no advanced play) is played at
:data:`SURRENDER`.

The course game's bet questions (``course_game.ask_bet`` and ``take_bets``) are played
with scripted answers, every line read, the given ``check_bet`` (and ``ask_bet``) under them.

Weights (20 in all): bets 4, taking stakes 2.5, payouts through the round 4.5, paying back
2.5, the summary 3.5, the bet questions 2, the ledger and conservation 1.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from m2_helpers import (check_money, check_outcome, check_quiet, check_refused, check_scripted, money,
                        said_between_asks, shown, transcript)
from milestones.grader.judge import Raised, Student, as_number

PART = "wagering"

#: The rules are sent to the student's process as a preset's name, or the preset with some fields changed.
VEGAS = "vegas"  # 6 decks, S17, 3:2, peek, late surrender, limits 1..500, bankroll 1000
#: Basic wagering: the vegas table with hit and stand only (no double down, split, surrender or insurance: those
#: are the advanced part's, written after wagering).
BASIC = {"preset": "vegas", "double_on": "none", "double_after_split": False, "max_split_hands": 1,
         "surrender": "none", "insurance": False}
#: The basic table with late surrender, which the round plays by itself (no advanced play): a surrender's payout.
SURRENDER = {**BASIC, "surrender": "late"}
#: The seed of the tables of stacked rounds (the cards after the stacked ones).
SEED = 2012


def sent(amount: object) -> object:
    """An amount as the student's process reads it: a Fraction as ``{"fraction": "-1/2"}``, the rest as it is."""
    return {"fraction": str(amount)} if isinstance(amount, Fraction) else amount


def played(student: Student, codes: str, bets: list[Any] | None, *players: Any, rules: Any = BASIC,
           actions: tuple[str, ...] = ()) -> dict[str, Any]:
    """A round at a table whose next cards are ``codes`` (space-separated), in deal order, started with ``bets``,
    seat 0 taking ``actions`` (``"hit"``, ``"surrender"``), then every hand standing (insurance declined) until it
    is settled; ``players`` are names or ``[name, bankroll]``. The bets, stakes and payments are given: the round
    runs the student's ``payout`` only."""
    state: dict[str, Any] = student("stood", codes, list(players), rules, SEED, bets, list(actions))
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


@pytest.mark.points(0.5)
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


@pytest.mark.points(1)
def test_nonsense_bets_are_refused_and_change_nothing(student: Student) -> None:
    """Bets of 0, -5, 1e9, "1e9", "ten", "" and 2.5 (a float) raise InvalidBetError and change nothing; a bet typed
    as "25" or "7.5" becomes exact money."""
    for bet in (0, -5, 10**9, "1e9", "ten", "", 2.5, Fraction(-1, 2)):
        assert_bet_refused(student, VEGAS, bet, f"{bet!r}")
    for text, want in (("25", Fraction(25)), ("7.5", Fraction(15, 2))):
        got = as_number(student("place_bet", VEGAS, 1, [], [], text)["bet"])
        check_money(f'place_bet(0, "{text}"): the bet', got, want,
                    f'check_bet turns the text "{text}" into exact money with to_money')
        assert isinstance(got, Fraction), \
            f'check_bet should return the bet as a Fraction (to_money("{text}") is {want!r}); got {got!r}'


@pytest.mark.points(0.5)
def test_bet_is_exact_and_leaves_the_bankroll_at_the_deal(student: Student) -> None:
    """A bet of 25 is taken off the bankroll when the cards are dealt, once (the bet checked by the given
    check_bet)."""
    got = student("bet_then_deal", "Th 9c 7d 8s", BASIC, SEED, "25")
    assert as_number(got["bankroll_at_bet"]) == 1000, \
        f"the bankroll changes at the deal, not when the bet is placed: 1000 before the deal; got {shown(got['bankroll_at_bet'])}"
    check_money("the bankroll after dealing a bet of 25", got["bankroll_after_deal"], 975,
                "the deal takes each stake off the bankroll once, with take_stake(player, 25): 1000 - 25")


# ---------------------------------------------------------------- taking a stake: wagers.take_stake

@pytest.mark.points(1)
def test_take_stake_takes_the_stake_off_the_bankroll_exactly_once(student: Student) -> None:
    """take_stake(player, 25) leaves 1000 at 975, and a second stake of 15/2 at 967.5, exactly; a stake of the
    whole bankroll leaves 0."""
    got = student("stakes_taken", 1000, [25, sent(Fraction(15, 2))])
    check_quiet(got["printed"], "take_stake")
    first, second = got["after"]
    check_money("the bankroll of 1000 after take_stake(player, 25)", first, 975,
                "a stake leaves the bankroll once, as it is: 1000 - 25; not twice, not at all")
    check_money("the bankroll of 975 after take_stake(player, Fraction(15, 2))", second, Fraction(1935, 2),
                "each call takes its own stake, exactly: 975 - 15/2 (a Fraction stays a Fraction)")
    [last] = student("stakes_taken", 10, [10])["after"]
    check_money("the bankroll of 10 after take_stake(player, 10)", last, 0,
                "a player may stake the whole bankroll: 10 - 10")


@pytest.mark.points(1)
def test_take_stake_refuses_what_the_bankroll_cannot_pay_and_changes_nothing(student: Student) -> None:
    """A stake over the bankroll (1001 of 1000), of 0 or below raises InvalidBetError and leaves the bankroll."""
    for amount, why in ((1001, "1001 is more than the bankroll of 1000"), (0, "a stake of 0 is no stake"),
                        (-5, "a stake below 0 would pay the player"),
                        (Fraction(-1, 2), "a stake below 0 would pay the player")):
        given = f"take_stake(player, {amount!r}) with a bankroll of 1000"
        check_refused(student.raised("stakes_taken", 1000, [sent(amount)]), "InvalidBetError", given, why)
        left = student("after_refused_stake", 1000, sent(amount))
        assert as_number(left) == 1000, \
            f"{given} is refused ({why}), and a refused stake changes nothing: the bankroll should stay 1000, " \
            f"got {shown(left)} (check before you take)"


@pytest.mark.points(0.5)
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


@pytest.mark.points(0.5)
def test_win_pays_one_to_one(student: Student) -> None:
    """T-9 (19) against the dealer's T-8 (18) wins: a bet of 10 gains 10."""
    state = played(student, "Th Tc 9d 8s", [10])  # Ann T 9; dealer T up, 8 in the hole: 18
    check_outcome("T-9 (19) against the dealer's 18 on a bet of 10", only_outcome(state),
                  ("WIN", 10, 10), "a win pays 1:1: net +10")
    check_money("the bankroll after winning 10", state["bankrolls"][0], 1010,
                "the deal took the stake of 10 (990 left) and pay gives the stake back with the net: 990 + 10 + 10")


@pytest.mark.points(0.5)
def test_loss_takes_the_bet(student: Student) -> None:
    """T-7 (17) against the dealer's T-8 (18) loses: a bet of 10 is gone, nothing more."""
    state = played(student, "Th Tc 7d 8s", [10])
    check_outcome("T-7 (17) against the dealer's 18 on a bet of 10", only_outcome(state),
                  ("LOSE", 10, -10), "a loss takes the bet: net -10")
    check_money("the bankroll after losing 10", state["bankrolls"][0], 990,
                "the deal took the stake of 10 and a loss gives nothing back (stake 10 + net -10): 1000 - 10")


@pytest.mark.points(0.5)
def test_push_returns_the_bet(student: Student) -> None:
    """T-8 against the dealer's T-8 pushes: the bet of 10 comes back, net 0."""
    state = played(student, "Th Tc 8d 8s", [10])
    check_outcome("T-8 (18) against the dealer's 18 on a bet of 10", only_outcome(state),
                  ("PUSH", 10, 0), "a push returns the bet: net 0")
    check_money("the bankroll after a push", state["bankrolls"][0], 1000,
                "the deal took the stake of 10 and a push gives the stake back with net 0: 990 + 10")


@pytest.mark.points(0.5)
def test_bust_loses_the_whole_bet(student: Student) -> None:
    """T-6 hits a K and busts (26): the bet of 10 is lost, all of it, whatever the dealer holds."""
    state = played(student, "Th 9c 6d 8s Kc", [10], actions=("hit",))  # Ann T 6, hits K; dealer 9 8
    check_outcome("T-6 hitting a K (26, a bust) on a bet of 10", only_outcome(state),
                  ("BUST", 10, -10), "a bust loses the whole bet, as a loss does: net -10 (only a surrender loses half)")
    check_money("the bankroll after a bust on 10", state["bankrolls"][0], 990, "1000 - 10")


@pytest.mark.points(0.5)
def test_surrender_loses_half_the_bet_exactly(student: Student) -> None:
    """A late surrender loses half the bet, exactly: 10 nets -5, and 5 nets -5/2 (not the float -2.5)."""
    state = played(student, "Th Tc 6d 7s", [10], rules=SURRENDER, actions=("surrender",))  # T-6 against a ten
    check_outcome("T-6 surrendered against a ten on a bet of 10", only_outcome(state),
                  ("SURRENDER", 10, -5), "a surrender gives back half the bet: net -5")
    state = played(student, "Th Tc 6d 7s", [5], rules=SURRENDER, actions=("surrender",))
    check_outcome("T-6 surrendered against a ten on a bet of 5", only_outcome(state),
                  ("SURRENDER", 5, Fraction(-5, 2)), "a surrender gives back half the bet, exactly: 5 / 2")
    check_money("the bankroll after surrendering 5", state["bankrolls"][0], Fraction(1995, 2), "1000 - 5/2")


@pytest.mark.points(0.5)
def test_natural_pays_three_to_two_exactly(student: Student) -> None:
    """A natural on a bet of 5 pays 3:2, exactly 7.5 credits (no float rounding): 1000 becomes 1007.5."""
    state = played(student, "Ah 9c Kd 7s", [5])  # Ann A K; dealer 9 up (cannot have a natural)
    check_outcome("A-K (a natural) against the dealer's 9 on a bet of 5", only_outcome(state),
                  ("BLACKJACK", 5, Fraction(15, 2)), "a natural pays 3:2: 5 * 3/2")
    check_money("the bankroll after a natural on 5", state["bankrolls"][0], Fraction(2015, 2),
                "the deal took the stake of 5 and pay gives the stake back with the 3:2 net, exactly: 995 + 5 + 15/2")


@pytest.mark.points(0.5)
def test_natural_pays_six_to_five_on_single_deck(student: Student) -> None:
    """The single_deck preset pays a natural 6:5: a bet of 10 gains 12."""
    state = played(student, "Ah 9c Kd 7s", [10], rules="single_deck")
    check_outcome("A-K on a bet of 10 at the single_deck table", only_outcome(state),
                  ("BLACKJACK", 10, 12), "rules.blackjack_pays is 6:5 there: 10 * 6/5")


@pytest.mark.points(0.25)
def test_natural_waits_for_dealer_without_peek_then_pays(student: Student) -> None:
    """With no hole card (european), a natural against a ten waits for the dealer's 17 and then pays 3:2."""
    state = played(student, "As Th Kd 7c", [10], rules="european")  # Ann A K; dealer T, then 7 after the players
    check_outcome("A-K against the european dealer's T-7 on a bet of 10", only_outcome(state),
                  ("BLACKJACK", 10, 15), "with no hole card the natural waits for the dealer, then pays 3:2")


@pytest.mark.points(0.25)
def test_dealer_bust_pays_every_standing_hand(student: Student) -> None:
    """When the dealer busts, each standing hand wins its own bet: Ann 10 gains 10, Bob 25 gains 25."""
    # Ann T 2 (12), Bob 9 7 (16); dealer 6 up, T in the hole (16), draws K: 26.
    state = played(student, "Th 9c 6h 2d 7s Ts Kc", [10, 25], "Ann", "Bob")
    got = [(s, o["result"], as_number(o["net"])) for s, _, o in state["outcomes"]]
    assert got == [(0, "WIN", 10), (1, "WIN", 25)], \
        f"the dealer busted (6-T-K: 26), so every standing hand wins its own bet: Ann (12) +10 and Bob (16) +25; " \
        f"got {[f'seat {s}: {shown(o)}' for s, _, o in state['outcomes']]}"


@pytest.mark.points(0.25)
def test_natural_against_dealer_natural_pushes(student: Student) -> None:
    """A player natural against a dealer natural pushes (the dealer peeks under his ace)."""
    state = played(student, "Ah Ac Kd Ks", [10])  # Ann A K; dealer A up, K in the hole; declines insurance
    check_outcome("A-K against the dealer's A-K on a bet of 10", only_outcome(state),
                  ("PUSH", 10, 0), "a natural against a dealer natural pushes")
    check_money("the bankroll after the push", state["bankrolls"][0], 1000, "the bet came back")


@pytest.mark.points(0.25)
def test_dealer_natural_takes_only_the_bet(student: Student) -> None:
    """A dealer natural beats a player's 20 and takes just the bet (10), not 3:2 of it."""
    state = played(student, "Th Ac Qd Ks", [10])  # Ann T Q; dealer A up, K in the hole
    check_outcome("T-Q (20) against the dealer's A-K on a bet of 10", only_outcome(state),
                  ("LOSE", 10, -10), "a dealer natural beats every hand but a natural, and takes just the bet")
    check_money("the bankroll after losing to a dealer natural", state["bankrolls"][0], 990, "1000 - 10")


# ---------------------------------------------------------------- paying back: wagers.pay

@pytest.mark.points(1)
def test_pay_gives_a_win_back_its_stake_and_its_winnings(student: Student) -> None:
    """After a stake of 10 (990 left), pay(player, 10, 10) for a win leaves 1010: the stake and the win come back."""
    got = student("paid", 990, [[10, 10]])
    check_quiet(got["printed"], "pay")
    [after] = got["after"]
    check_money("the bankroll of 990 after pay(player, 10, 10), a win of 10 on a stake of 10", after, 1010,
                "a win pays the stake back with the net: 990 + 10 + 10 (the stake left at the deal; paying only "
                "the net would leave 1000, as if the bet had pushed)")


@pytest.mark.points(1)
def test_pay_gives_a_push_back_its_stake_and_a_loss_nothing(student: Student) -> None:
    """pay(player, 10, 0) (a push) returns the stake, 10; pay(player, 10, -10) (a loss) returns nothing; a
    surrender's pay(player, 10, -5) returns half the stake."""
    [push, loss, surrender] = student("paid", 990, [[10, 0], [10, -10], [10, -5]])["after"]
    check_money("the bankroll of 990 after pay(player, 10, 0), a push", push, 1000,
                "a push returns the stake: 990 + 10 + 0")
    check_money("the bankroll of 1000 after pay(player, 10, -10), a loss", loss, 1000,
                "a loss returns nothing: the stake left at the deal, so 10 + (-10) = 0 comes back (taking 10 "
                "again would take the bet twice)")
    check_money("the bankroll of 1000 after pay(player, 10, -5), a surrender", surrender, 1005,
                "a surrender returns half the stake: 10 + (-5)")


@pytest.mark.points(0.5)
def test_pay_keeps_money_exact(student: Student) -> None:
    """A natural paid 3:2 on a stake of 5: pay(player, 5, 15/2) leaves 995 at exactly 2015/2 (1007.5), a Fraction,
    not the float 1007.5."""
    [after] = student("paid", 995, [[5, sent(Fraction(15, 2))]])["after"]
    check_money("the bankroll of 995 after pay(player, 5, Fraction(15, 2))", after, Fraction(2015, 2),
                "a natural's stake and its 3:2 net come back exactly: 995 + 5 + 15/2")


@pytest.mark.points(0.5)
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


@pytest.mark.points(0.5)
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


# ---------------------------------------------------------------- the session summary: course_game.summary_lines

#: A number in a summary line: ``10``, ``+7.5``, ``-12.5``, ``15/2`` (not inside a word or a longer number).
NUMBER = re.compile(r"(?<![\w./])[+-]?\d+(?:\.\d+)?(?:/\d+)?(?![\w./])")

#: Words that make a line read as a result in the week-1 tests (``kind_of`` in tests/milestone1/test_course_game.py).
RESULT_STEMS = ("win", "won", "los", "push")


def summarized(student: Student, rounds: list[list[Any]], *players: str) -> list[str]:
    """``summary_lines`` of a table of ``players`` (Ann alone when none) whose ledgers hold ``rounds`` (one entry per
    seat: None or ``(result, bet, net)``); fails unless it is a list of lines and printed nothing."""
    got = student("summary", list(players), [[None if e is None else [e[0], sent(e[1]), sent(e[2])] for e in played]
                                             for played in rounds], BASIC)
    check_quiet(got["printed"], "summary_lines")
    lines = got["lines"]
    assert isinstance(lines, list) and all(isinstance(line, str) for line in lines), \
        f"summary_lines should return a list of lines (str), for run() to say one by one; got {shown(lines)}"
    return lines


def player_numbers(lines: list[str], name: str, rounds: str) -> list[Fraction]:
    """The numbers after ``name`` on the one summary line that names the player; fails naming the rule otherwise."""
    found = [line for line in lines[1:] if re.search(rf"\b{re.escape(name)}\b", line)]
    assert len(found) == 1, (f"the summary ({rounds}) should give {name} one line of their own; "
                             f"{len(found)} lines name {name}: {lines}")
    line = found[0]
    words = [stem for stem in RESULT_STEMS if stem in line.lower()]
    assert not words, (f"{name}'s summary line {line!r} holds a result word ({', '.join(words)}): the week-1 tests "
                       f"read a line with a player's name and such a word as that player's result, so name the "
                       f"columns on a header line and give {name}'s line the name and the numbers only")
    after = line[re.search(rf"\b{re.escape(name)}\b", line).end():]  # type: ignore[union-attr]
    return [Fraction(text) for text in NUMBER.findall(after)]


def net_text(lines: list[str], name: str) -> str:
    """The last number on ``name``'s summary line as written (``"+6.5"``): the net, sign and all."""
    [line] = [line for line in lines[1:] if re.search(rf"\b{re.escape(name)}\b", line)]
    return NUMBER.findall(line)[-1]


def check_player_line(lines: list[str], name: str, rounds: str, want: tuple[int, int, int, int, Fraction | int],
                      rule: str) -> None:
    """``name``'s line shows rounds, won, lost, pushed and net ``want``; the message names ``rule``."""
    got = player_numbers(lines, name, rounds)
    labels = ("rounds", "won", "lost", "pushed", "net")
    expected = ", ".join(f"{label} {money(value) if label == 'net' else value}" for label, value in zip(labels, want))
    assert len(got) == 5, (f"{name}'s summary line should hold five numbers after the name, in this order: rounds "
                           f"played, hands won, lost, pushed, and the net in credits ({expected}); it holds "
                           f"{len(got)}: {[line for line in lines if name in line]}")
    wrong = [f"{label} {money(g) if label == 'net' else g} (should be {money(w) if label == 'net' else w})"
             for label, g, w in zip(labels, got, want) if g != w]
    assert not wrong, f"{name}'s summary line after {rounds} shows {', '.join(wrong)}: {rule}; lines: {lines}"


@pytest.mark.points(0.5)
def test_summary_starts_with_the_rounds_played(student: Student) -> None:
    """The first line starts "Session summary" and gives the rounds the table played (3)."""
    lines = summarized(student, [[("WIN", 10, 10)], [("LOSE", 10, -10)], [("PUSH", 10, 0)]])
    first = lines[0] if lines else ""
    assert first.startswith("Session summary") and [Fraction(n) for n in NUMBER.findall(first)] == [3], \
        (f"after 3 rounds the summary's first line should start with 'Session summary' and give the rounds played, "
         f"3 (game.rounds_played), e.g. 'Session summary: 3 rounds played.'; got {first!r}")


@pytest.mark.points(1.5)
def test_summary_gives_each_player_rounds_won_lost_pushed_and_net(student: Student) -> None:
    """Ann won 10, lost 10 and won a natural (+15): 3 rounds, 2 won, 1 lost, 0 pushed, +15. Bob sat the second
    round out, busted and won: 2 rounds, 1 won, 1 lost, net 0."""
    rounds = "Ann won, lost and won a natural; Bob busted, sat out and won"
    lines = summarized(student, [[("WIN", 10, 10), ("BUST", 10, -10)], [("LOSE", 10, -10), None],
                                 [("BLACKJACK", 10, 15), ("WIN", 10, 10)]], "Ann", "Bob")
    check_player_line(lines, "Ann", rounds, (3, 2, 1, 0, 15),
                      "each number comes from Ann's ledger (ledger.rounds, wins, losses, pushes, net); a natural "
                      "is a win")
    check_player_line(lines, "Bob", rounds, (2, 1, 1, 0, 0),
                      "Bob played 2 rounds (ledger.rounds: he sat one out, game.rounds_played is the table's 3); "
                      "a bust is a loss")
    names = [line for line in lines if re.search(r"\b(Ann|Bob)\b", line)]
    assert "Ann" in names[0], f"the players' lines come in seat order, Ann first; got {names}"


@pytest.mark.points(0.5)
def test_summary_counts_a_push_as_neither_won_nor_lost(student: Student) -> None:
    """Ann pushed twice and lost once: won 0, lost 1, pushed 2, net -10."""
    lines = summarized(student, [[("PUSH", 10, 0)], [("LOSE", 10, -10)], [("PUSH", 10, 0)]])
    check_player_line(lines, "Ann", "two pushes and a loss", (3, 0, 1, 2, -10),
                      "a push is neither a win nor a loss: the bet came back, so count it as pushed "
                      "(ledger.pushes), and lost is ledger.losses, not the rounds that were not won")


@pytest.mark.points(1)
def test_summary_net_is_exact_money_with_its_sign(student: Student) -> None:
    """Ann's natural on 5 (+7.5) and loss of 1: net +6.5, exactly and with its plus sign. Bob's surrender of 5
    (-2.5) and loss of 10: net -12.5."""
    rounds = "a natural on 5 and a loss of 1 (Ann), a surrender of 5 and a loss of 10 (Bob)"
    lines = summarized(student, [[("BLACKJACK", 5, Fraction(15, 2)), ("SURRENDER", 5, Fraction(-5, 2))],
                                 [("LOSE", 1, -1), ("LOSE", 10, -10)]], "Ann", "Bob")
    check_player_line(lines, "Ann", rounds, (2, 1, 1, 0, Fraction(13, 2)),
                      "the net is ledger.net written exactly (format_money: 6.5), not rounded to whole credits")
    check_player_line(lines, "Bob", rounds, (2, 0, 2, 0, Fraction(-25, 2)),
                      "a net loss shows its minus sign (-12.5): a surrender is a loss of half the bet")
    net = net_text(lines, "Ann")
    assert net.startswith("+"), \
        (f"Ann's net of 6.5 credits won should show its plus sign, +6.5, as a loss shows its minus sign (-12.5): the "
         f"summary's net says at a glance who is ahead; Ann's line ends {net!r}; lines: {lines}")


# ---------------------------------------------------------------- the course game's bet questions

@pytest.mark.points(1)
def test_a_bet_the_table_cannot_take_is_refused_with_the_reason_and_asked_again(student: Student) -> None:
    """ask_bet: Ann, with 100 credits at a table of 10 to 500, answers ten, 2.5, 5, 150 and 20: the first four are
    refused, each with a line giving the table's reason, and asked again; the bet is 20, exact money."""
    answers = ["ten", "2.5", "5", "150", "20"]
    got = student("bet_asked", 100, answers)
    prompts, _lines = check_scripted(got, "ask_bet")
    assert len(prompts) == 5 and all(re.search(r"\bAnn\b", prompt) for prompt in prompts), \
        (f"answered {answers}, ask_bet should ask Ann 5 times, each question naming her: once, and again after each "
         f"of the 4 refusals; it asked {prompts}" + transcript(got))
    assert re.search(r"(?<![\d.])100(?![\d.])", prompts[0]), \
        f"the bet question should show Ann's bankroll, 100; it asked {prompts[0]!r}" + transcript(got)
    for answer, reason, after in zip(answers, got["reasons"], said_between_asks(got)):
        if reason is not None:
            assert any(reason in line for line in after), \
                (f"after the answer {answer!r} ask_bet should say why it is refused, the message of the "
                 f"InvalidBetError ({reason!r}), before asking again; it said {after}" + transcript(got))
    returned = got["returned"]
    assert returned["exact"] and as_number(returned["bet"]) == 20, \
        f"ask_bet should return the bet the table took, 20, as exact money (a Fraction); got {shown(returned)}"


@pytest.mark.points(1)
def test_every_player_who_can_cover_the_minimum_is_asked_and_the_others_sit_out(student: Student) -> None:
    """take_bets: Ann (100), Bob (5, under the table minimum of 10) and Cy (50): Ann and Cy are asked, in seat
    order; Bob is not asked, and a line naming him says he sits out; the bets come back by seat, {0: 20, 2: 30}."""
    got = student("bets_taken", [["Ann", 100], ["Bob", 5], ["Cy", 50]], ["20", "30"])
    prompts, lines = check_scripted(got, "take_bets")
    assert len(prompts) == 2 and "Ann" in prompts[0] and "Cy" in prompts[1], \
        (f"take_bets should ask Ann, then Cy (Bob's 5 credits cannot cover the minimum of 10, so he is not asked); "
         f"it asked {prompts}" + transcript(got))
    assert any(re.search(r"\bBob\b", line) for line in lines), \
        f"take_bets should say, in a line naming Bob, that he sits this round out; it said {lines}" + transcript(got)
    returned = got["returned"]
    bets = {seat: as_number(bet) for seat, bet in returned.items()} if isinstance(returned, dict) else returned
    assert bets == {"0": 20, "2": 30}, \
        f"take_bets should return the bets by seat number, {{0: 20, 2: 30}} (Bob's seat 1 has none); got {shown(returned)}"
