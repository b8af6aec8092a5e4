"""Milestone 2a, basic wagering: bankrolls, bets within the limits, payouts, the session ledger (20 points).

Bets go through ``Player.check_bet`` (the table minimum and maximum, the bankroll);
the round settles each hand against the dealer and pays it by ``wagers.payout`` (win
1:1, natural 3:2 or 6:5, push returns the bet). Every round is dealt from a stacked shoe and its money
is worked out by hand in the test. Deal order: one card to each seat, the dealer's
upcard, a second card to each seat, the dealer's hole card, then hits in turn.

Rounds that take decisions are played at :data:`BASIC`, the vegas table without double
down, split or surrender: those are advanced play (the next part, ``Round._why_not``),
and the spec's order has students write wagering first, so no test here needs them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from blackjack import (Action, Blackjack, InvalidBetError, Outcome, Phase, Player, Result, Round, Rules,
                       TableView)
from m2_helpers import check_money, check_outcome, check_quiet, refused, shown

PART = "wagering"

VEGAS = Rules.preset("vegas")  # 6 decks, S17, 3:2, peek, late surrender, limits 1..500, bankroll 1000
#: Basic wagering: the vegas table with hit and stand only (no double down, split or surrender).
BASIC = dataclasses.replace(VEGAS, double_on="none", double_after_split=False, max_split_hands=1, surrender="none")


def table(codes: str, *players: str | Player, rules: Rules = BASIC) -> Blackjack:
    """A table whose next cards are ``codes`` (space-separated), in deal order."""
    game = Blackjack(list(players) or ["Ann"], rules, seed=2012)
    game.shoe.stack(codes.split())
    return game


def stand_all(rnd: Round) -> None:
    """Stand every open hand (declining any insurance) until the round is settled."""
    while rnd.turn is not None:
        rnd.apply(Action.DECLINE if rnd.phase is Phase.INSURANCE else Action.STAND)


def only_outcome(game: Blackjack, seat: int = 0) -> Outcome:
    """The outcome of the one hand ``seat`` played in the current (settled) round."""
    assert game.round is not None, "the table should hold the round it just played (game.round is None)"
    found = [o for s, _, o in game.round.outcomes() if s == seat]
    assert len(found) == 1, f"seat {seat} should have one settled hand; got {[shown(o) for o in found]}"
    return found[0]


def place(rnd: Round, bet: object) -> None:
    """``rnd.place_bet(0, bet)``; a TypeError that gets out (``to_money`` refusing a float) fails with the rule.

    ``to_money`` refuses what is not exact money with a TypeError; a ``check_bet`` that
    lets it through would show the student a bare TypeError from the given code.
    """
    try:
        rnd.place_bet(0, bet)  # type: ignore[arg-type]
    except TypeError as err:
        kind = f"the float {bet!r}" if isinstance(bet, float) else f"{bet!r} ({type(bet).__name__})"
        raise AssertionError(
            f"place_bet(0, {bet!r}), a bet of {kind}, raised TypeError ({err}); check_bet must refuse it with "
            f"InvalidBetError, the error a table reports to the player. Money is exact, never a float (0.1 + 0.2 "
            f"!= 0.3 in floats), so to_money takes an int, a Fraction, a Decimal or text such as \"2.5\" and "
            f"refuses anything else with TypeError: check_bet must turn that refusal into an InvalidBetError that "
            f"says a bet must be an exact number of credits") from None


def assert_bet_refused(game: Blackjack, bet: object, why: str) -> None:
    """Placing ``bet`` for seat 0 raises InvalidBetError and changes neither the round nor the bankroll."""
    rnd = game.new_round()
    before = game.players[0].bankroll
    refused(InvalidBetError, lambda: place(rnd, bet),
            f"place_bet(0, {bet!r}), a bet of {bet!r}", f"check_bet must refuse it ({why})")
    assert game.players[0].bankroll == before, \
        f"a refused bet ({why}) must not change the bankroll: it was {shown(before)}, now {shown(game.players[0].bankroll)}"
    assert rnd.bet(0) == 0 and rnd.phase is Phase.BETTING, \
        f"a refused bet ({why}) must leave no bet placed; bet(0) is {shown(rnd.bet(0))}, phase {rnd.phase.value}"


LIMITS = dataclasses.replace(VEGAS, min_bet=5, max_bet=100)


@pytest.mark.points(1)
def test_bet_below_table_minimum_is_refused() -> None:
    """A bet under rules.min_bet raises InvalidBetError naming the minimum; exactly the minimum is fine."""
    game = Blackjack(["Ann"], LIMITS, seed=1)
    assert_bet_refused(game, 4, "4 under a minimum of 5")
    rnd = game.new_round()
    rnd.place_bet(0, 5)
    assert rnd.bet(0) == 5, f"a bet of exactly the table minimum (5) should be accepted; bet(0) is {shown(rnd.bet(0))}"
    refused(InvalidBetError, lambda: rnd.place_bet(0, 4), "changing the bet to place_bet(0, 4)",
            "4 is under the table minimum of 5")


@pytest.mark.points(1)
def test_bet_above_table_maximum_is_refused() -> None:
    """A bet over rules.max_bet raises InvalidBetError; exactly the maximum is fine."""
    game = Blackjack(["Ann"], LIMITS, seed=1)
    assert_bet_refused(game, 101, "101 over a maximum of 100")
    rnd = game.new_round()
    rnd.place_bet(0, 100)
    assert rnd.bet(0) == 100, \
        f"a bet of exactly the table maximum (100) should be accepted; bet(0) is {shown(rnd.bet(0))}"


@pytest.mark.points(1)
def test_bet_above_bankroll_is_refused() -> None:
    """The bankroll starts at rules.starting_bankroll; betting all of it is fine, one credit more is refused."""
    rules = dataclasses.replace(Rules.preset("thunderjack"), max_bet=1000)  # Thunderjack: 500 credits
    game = Blackjack(["Ann"], rules, seed=1)
    assert game.players[0].bankroll == 500, \
        f"a new player should get rules.starting_bankroll (500); got {game.players[0].bankroll}"
    assert_bet_refused(game, 501, "501 with a bankroll of 500")
    rnd = game.new_round()
    rnd.place_bet(0, 500)
    assert rnd.bet(0) == 500, f"betting the whole bankroll (500) should be accepted; bet(0) is {shown(rnd.bet(0))}"


@pytest.mark.points(2)
def test_nonsense_bets_are_refused_and_change_nothing() -> None:
    """Bets of 0, -5, 1e9, "1e9", "ten", "" and 2.5 (a float) raise InvalidBetError and change nothing."""
    game = Blackjack(["Ann"], VEGAS, seed=1)
    for bet in (0, -5, 10**9, "1e9", "ten", "", 2.5, Fraction(-1, 2)):
        assert_bet_refused(game, bet, f"{bet!r}")


@pytest.mark.points(1)
def test_bet_is_exact_and_leaves_the_bankroll_at_the_deal() -> None:
    """A bet typed as "25" becomes exactly 25 credits, taken off the bankroll when the cards are dealt."""
    game = table("Th 9c 7d 8s")
    rnd = game.new_round()
    rnd.place_bet(0, "25")
    check_money('place_bet(0, "25"): the bet', rnd.bet(0), 25, 'check_bet turns the text "25" into exact money')
    assert isinstance(rnd.bet(0), Fraction), \
        f'check_bet should return the bet as a Fraction (to_money("25") is Fraction(25)); got {rnd.bet(0)!r}'
    assert game.players[0].bankroll == 1000, \
        f"the bankroll changes at the deal, not when the bet is placed: 1000 before the deal; got {shown(game.players[0].bankroll)}"
    rnd.deal()
    check_money("the bankroll after dealing a bet of 25", game.players[0].bankroll, 975, "1000 - 25")


@pytest.mark.points(1)
def test_player_who_cannot_cover_the_minimum_sits_out() -> None:
    """With the default bets, a player whose bankroll is under the minimum sits the round out."""
    rules = dataclasses.replace(BASIC, min_bet=10)
    game = table("Th 9c 7d 8s", Player("Ann", 1000), Player("Bob", 9), rules=rules)
    rnd = game.start_round()
    assert (rnd.bet(0), rnd.bet(1)) == (10, 0), \
        f"Ann (1000) should bet the minimum 10 and Bob (9) sit out; bets were {shown(rnd.bet(0))}, {shown(rnd.bet(1))}"
    assert rnd.hands(1) == () and game.players[1].bankroll == 9, \
        f"Bob, sitting out, gets no cards and keeps his 9; hands {[str(h) for h in rnd.hands(1)]}, " \
        f"bankroll {shown(game.players[1].bankroll)}"


@pytest.mark.points(1)
def test_win_pays_one_to_one() -> None:
    """T-9 (19) against the dealer's T-8 (18) wins: a bet of 10 gains 10."""
    game = table("Th Tc 9d 8s")  # Ann T 9; dealer T up, 8 in the hole: 18
    rnd = game.start_round([10])
    stand_all(rnd)
    check_outcome("T-9 (19) against the dealer's 18 on a bet of 10", only_outcome(game),
                  Outcome(Result.WIN, Fraction(10), Fraction(10)), "a win pays 1:1: net +10")
    check_money("the bankroll after winning 10", game.players[0].bankroll, 1010, "1000 + 10")


@pytest.mark.points(1)
def test_loss_takes_the_bet() -> None:
    """T-7 (17) against the dealer's T-8 (18) loses: a bet of 10 is gone, nothing more."""
    game = table("Th Tc 7d 8s")
    rnd = game.start_round([10])
    stand_all(rnd)
    check_outcome("T-7 (17) against the dealer's 18 on a bet of 10", only_outcome(game),
                  Outcome(Result.LOSE, Fraction(10), Fraction(-10)), "a loss takes the bet: net -10")
    check_money("the bankroll after losing 10", game.players[0].bankroll, 990, "1000 - 10")


@pytest.mark.points(1)
def test_push_returns_the_bet() -> None:
    """T-8 against the dealer's T-8 pushes: the bet of 10 comes back, net 0."""
    game = table("Th Tc 8d 8s")
    rnd = game.start_round([10])
    stand_all(rnd)
    check_outcome("T-8 (18) against the dealer's 18 on a bet of 10", only_outcome(game),
                  Outcome(Result.PUSH, Fraction(10), Fraction(0)), "a push returns the bet: net 0")
    check_money("the bankroll after a push", game.players[0].bankroll, 1000, "the bet came back")


@pytest.mark.points(2)
def test_natural_pays_three_to_two_exactly() -> None:
    """A natural on a bet of 5 pays 3:2, exactly 7.5 credits (no float rounding): 1000 becomes 1007.5."""
    game = table("Ah 9c Kd 7s")  # Ann A K; dealer 9 up (cannot have a natural)
    game.start_round([5])
    check_outcome("A-K (a natural) against the dealer's 9 on a bet of 5", only_outcome(game),
                  Outcome(Result.BLACKJACK, Fraction(5), Fraction(15, 2)), "a natural pays 3:2: 5 * 3/2")
    check_money("the bankroll after a natural on 5", game.players[0].bankroll, Fraction(2015, 2), "1000 + 15/2")


@pytest.mark.points(1)
def test_natural_pays_six_to_five_on_single_deck() -> None:
    """The single_deck preset pays a natural 6:5: a bet of 10 gains 12."""
    game = table("Ah 9c Kd 7s", rules=Rules.preset("single_deck"))
    game.start_round([10])
    check_outcome("A-K on a bet of 10 at the single_deck table", only_outcome(game),
                  Outcome(Result.BLACKJACK, Fraction(10), Fraction(12)), "rules.blackjack_pays is 6:5 there: 10 * 6/5")


@pytest.mark.points(1)
def test_natural_waits_for_dealer_without_peek_then_pays() -> None:
    """With no hole card (european), a natural against a ten waits for the dealer's 17 and then pays 3:2."""
    game = table("As Th Kd 7c", rules=Rules.preset("european"))  # Ann A K; dealer T, then 7 after the players
    rnd = game.start_round([10])
    stand_all(rnd)
    check_outcome("A-K against the european dealer's T-7 on a bet of 10", only_outcome(game),
                  Outcome(Result.BLACKJACK, Fraction(10), Fraction(15)),
                  "with no hole card the natural waits for the dealer, then pays 3:2")


@pytest.mark.points(1)
def test_dealer_bust_pays_every_standing_hand() -> None:
    """When the dealer busts, each standing hand wins its own bet: Ann 10 gains 10, Bob 25 gains 25."""
    # Ann T 2 (12), Bob 9 7 (16); dealer 6 up, T in the hole (16), draws K: 26.
    game = table("Th 9c 6h 2d 7s Ts Kc", "Ann", "Bob")
    rnd = game.start_round([10, 25])
    stand_all(rnd)
    got = [(s, o.result, o.net) for s, _, o in rnd.outcomes()]
    assert got == [(0, Result.WIN, 10), (1, Result.WIN, 25)], \
        f"the dealer busted (6-T-K: 26), so every standing hand wins its own bet: Ann (12) +10 and Bob (16) +25; " \
        f"got {[f'seat {s}: {shown(o)}' for s, _, o in rnd.outcomes()]}"


@pytest.mark.points(1)
def test_natural_against_dealer_natural_pushes() -> None:
    """A player natural against a dealer natural pushes (the dealer peeks under his ace)."""
    game = table("Ah Ac Kd Ks")  # Ann A K; dealer A up, K in the hole
    rnd = game.start_round([10])
    stand_all(rnd)  # declines insurance
    check_outcome("A-K against the dealer's A-K on a bet of 10", only_outcome(game),
                  Outcome(Result.PUSH, Fraction(10), Fraction(0)), "a natural against a dealer natural pushes")
    check_money("the bankroll after the push", game.players[0].bankroll, 1000, "the bet came back")


@pytest.mark.points(1)
def test_dealer_natural_takes_only_the_bet() -> None:
    """A dealer natural beats a player's 20 and takes just the bet (10), not 3:2 of it."""
    game = table("Th Ac Qd Ks")  # Ann T Q; dealer A up, K in the hole
    rnd = game.start_round([10])
    stand_all(rnd)
    check_outcome("T-Q (20) against the dealer's A-K on a bet of 10", only_outcome(game),
                  Outcome(Result.LOSE, Fraction(10), Fraction(-10)),
                  "a dealer natural beats every hand but a natural, and takes just the bet")
    check_money("the bankroll after losing to a dealer natural", game.players[0].bankroll, 990, "1000 - 10")


@pytest.mark.points(2)
def test_ledger_records_every_round() -> None:
    """The ledger keeps the bankroll after each round, the win/loss/push counts, and the biggest win."""
    game = Blackjack(["Ann"], BASIC, seed=2012)
    plan = ["Th Tc 9d 8s", "Th Tc 7d 8s", "Th Tc 8d 8s", "Ah 9c Kd 7s"]  # win 10, lose 10, push, natural +15
    for codes in plan:
        game.shoe.stack(codes.split())
        stand_all(game.start_round([10]))
        game.finish_round()
    ledger = game.players[0].ledger
    assert ledger.bankrolls == [1010, 1000, 1000, 1015], \
        f"bankrolls after the rounds (win 10, lose 10, push, natural +15) should be 1010, 1000, 1000, 1015; " \
        f"got {[shown(b) for b in ledger.bankrolls]}"
    assert (ledger.wins, ledger.losses, ledger.pushes) == (2, 1, 1), \
        f"2 won, 1 lost, 1 pushed; got {ledger.wins}, {ledger.losses}, {ledger.pushes}"
    assert ledger.biggest_win == 15 and ledger.rounds == 4 and ledger.net == 15, \
        f"biggest win 15 over 4 rounds, net +15; got {shown(ledger.biggest_win)}, {ledger.rounds}, {shown(ledger.net)}"


def random_policy(rng: random.Random) -> Callable[[TableView], Action]:
    """A policy choosing uniformly among the legal actions (sorted, so a seed replays)."""
    def decide(view: TableView) -> Action:
        return rng.choice(sorted(view.legal_actions, key=lambda a: a.value))
    return decide


@pytest.mark.points(1)
def test_money_is_conserved_over_many_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    """Over 200 seeded rounds of random legal play, bankrolls plus the house's result never change, and the
    engine prints nothing."""
    rng = random.Random(7)
    game = Blackjack(["Ann", "Bob", "Cy"], BASIC, seed=7)
    total = sum(p.bankroll for p in game.players)
    for number in range(200):
        bets: Sequence[int | None] = [rng.choice([None, 1, 5, 25]) for _ in game.players]
        if not any(b is not None and b <= p.bankroll for b, p in zip(bets, game.players)):
            continue
        bets = [b if b is not None and b <= p.bankroll else None for b, p in zip(bets, game.players)]
        game.play_round(random_policy(rng), bets)
        now = sum(p.bankroll for p in game.players) + game.house_net
        assert now == total, (f"money is conserved: after round {number + 1} the bankrolls plus the house's "
                              f"result are {shown(now)}; they should stay {shown(total)}")
        assert all(p.bankroll >= 0 for p in game.players), \
            f"a bankroll went negative after round {number + 1}: {[shown(p.bankroll) for p in game.players]}"
    check_quiet(capsys, "betting and settling 200 rounds (check_bet, payout)")
