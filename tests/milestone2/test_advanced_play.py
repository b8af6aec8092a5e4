"""Milestone 2a, advanced play: double down, split, insurance, surrender, Thunderjack and Blitz (20 points).

Every round is dealt from a stacked shoe and its outcome is worked out by hand in
the test. Deal order: one card to each seat, the dealer's upcard, a second card to
each seat, the dealer's hole card (none in the european game), then every card in
the order play calls for it; after a split the first hand gets its second card at
once, the next hand when play reaches it.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from blackjack import (Action, Blackjack, IllegalActionError, InsuranceSettled, InvalidBetError, Phase, Player,
                       Result, Round, Rules)
from m2_helpers import check_money, check_quiet, refused, shown

PART = "advanced"

VEGAS = Rules.preset("vegas")  # 6 decks, S17, 3:2, DAS, up to 4 hands, late surrender, peek, insurance
THUNDERJACK = Rules.preset("thunderjack")  # 4 decks, 500 credits, TJ 3:1, Blitz 5:1, 2 hands per seat


def table(codes: str, *players: str | Player, rules: Rules = VEGAS) -> Blackjack:
    """A table whose next cards are ``codes`` (space-separated), in deal order."""
    game = Blackjack(list(players) or ["Ann"], rules, seed=111)
    game.shoe.stack(codes.split())
    return game


def play(rnd: Round, *actions: Action) -> None:
    """Apply the actions in order, then stand every hand still open."""
    for action in actions:
        rnd.apply(action)
    while rnd.turn is not None:
        rnd.apply(Action.DECLINE if rnd.phase is Phase.INSURANCE else Action.STAND)


def results(rnd: Round) -> list[tuple[int, int, Result, Fraction]]:
    """(seat, hand, result, net) of every settled hand."""
    return [(seat, hand, outcome.result, outcome.net) for seat, hand, outcome in rnd.outcomes()]


def settled(rnd: Round) -> str:
    """The settled hands for a message: ``seat 0 hand 0 [8s Kc]: WIN, bet 10, net +10; ...``."""
    hands = {(seat, i): str(hand) for seat in range(len(rnd.players)) for i, hand in enumerate(rnd.hands(seat))}
    text = "; ".join(f"seat {seat} hand {hand} [{hands.get((seat, hand), '?')}]: {shown(outcome)}"
                     for seat, hand, outcome in rnd.outcomes())
    return text or f"no hand settled (phase {rnd.phase.value})"


#: What :func:`snapshot` holds, in order, for a message.
SNAPSHOT = ("the table view", "the history", "the bankrolls", "the shoe", "the phase", "the turn")


def snapshot(game: Blackjack) -> tuple[object, ...]:
    """Everything an illegal action must leave alone: the view, the history, the bankrolls, the shoe."""
    rnd = game.round
    assert rnd is not None, "the table should hold the round being played (game.round is None)"
    return (rnd.view(), list(rnd.history), [p.bankroll for p in game.players], game.shoe.cards,
            rnd.phase, rnd.turn)


def assert_refused(game: Blackjack, action: Action, given: str, amount: object = None,
                   error: type[Exception] = IllegalActionError, words: str = "") -> None:
    """Applying ``action`` raises ``error`` with a one-line reason, and changes nothing.

    ``words`` (given engine messages only) must appear in the message; the reason a student's
    ``Round._why_not`` gives is free text, checked only for being one line and not "None".
    """
    assert game.round is not None, "the table should hold the round being played (game.round is None)"
    rnd = game.round
    before = snapshot(game)
    call = f"apply({action.value}{'' if amount is None else f', {amount}'})"
    err = refused(error, lambda: rnd.apply(action, amount),  # type: ignore[arg-type]
                  f"{call} on [{rnd.hands(rnd.turn[0])[rnd.turn[1]] if rnd.turn else '-'}]", given)
    assert words in str(err), f"the error for {call} should say {words!r}; got {str(err)!r}"
    changed = [name for name, old, new in zip(SNAPSHOT, before, snapshot(game)) if old != new]
    assert not changed, f"a refused {call} must change nothing at the table; it changed {', '.join(changed)}"


# ------------------------------------------------------------------------------ double down

@pytest.mark.points(2)
def test_double_eleven_against_six() -> None:
    """Doubling 6-5 (11) against a 6 doubles the bet, deals exactly one card (9: 20), and wins 20."""
    # Ann 6 5, Bob T 8; dealer 6 up, T in the hole (16). Ann doubles and gets 9 (20); Bob stands;
    # the dealer draws 2: 18.
    game = table("6h Tc 6c 5d 8c Td 9s 2h", "Ann", "Bob")
    rnd = game.start_round([10, 10])
    assert Action.DOUBLE in rnd.legal_actions(), \
        f"6-5 (11) on two cards may double down under vegas rules; legal_actions() is {sorted(a.value for a in rnd.legal_actions())}"
    rnd.apply(Action.DOUBLE)
    check_money("Ann's bankroll after doubling a bet of 10", game.players[0].bankroll, 980,
                "doubling down puts a second bet of 10 on the table: 1000 - 20")
    assert str(rnd.hands(0)[0]) == "6h 5d 9s" and rnd.turn == (1, 0), \
        f"a doubled hand gets exactly one more card and the turn passes on; hand [{rnd.hands(0)[0]}], turn {rnd.turn}"
    rnd.apply(Action.STAND)
    assert results(rnd)[0] == (0, 0, Result.WIN, 20), \
        f"Ann's doubled 20 against the dealer's 18 wins the doubled bet, net +20; got {settled(rnd)}"
    check_money("Ann's bankroll after winning a doubled 10", game.players[0].bankroll, 1020, "1000 + 20")


@pytest.mark.points(1)
def test_double_after_a_hit_is_refused() -> None:
    """A hand that has hit (three cards) cannot double down: IllegalActionError, and nothing changes."""
    game = table("2h 9c 3d 8s 4c")  # Ann 2 3 hits 4: 9 on three cards
    rnd = game.start_round([10])
    rnd.apply(Action.HIT)
    assert Action.DOUBLE not in rnd.legal_actions(), \
        f"2-3-4 has three cards: DOUBLE should not be legal; legal_actions() is {sorted(a.value for a in rnd.legal_actions())}"
    assert_refused(game, Action.DOUBLE, "only a two-card hand may double down, and 2-3-4 has three cards")


@pytest.mark.points(1)
def test_no_double_after_split_when_das_is_off() -> None:
    """single_deck has no double after split: a split 8 that draws a 3 (11) may not double."""
    game = table("8s 6c 8d Th 3h", rules=Rules.preset("single_deck"))  # Ann 8 8; dealer 6 up, T in the hole
    rnd = game.start_round([10])
    rnd.apply(Action.SPLIT)
    assert str(rnd.hands(0)[0]) == "8s 3h" and Action.DOUBLE not in rnd.legal_actions(), \
        f"the first split hand should be 8s 3h and DOUBLE not legal without double after split; hand " \
        f"[{rnd.hands(0)[0]}], legal_actions() {sorted(a.value for a in rnd.legal_actions())}"
    assert_refused(game, Action.DOUBLE, "single_deck has no double after split (rules.double_after_split is False)")


@pytest.mark.points(1)
def test_european_dealer_natural_takes_the_doubled_bet() -> None:
    """With no hole card (european), a dealer natural found after the players takes the whole doubled bet."""
    # Ann 5 6 (11) doubles and gets 9 (20); the dealer's T then gets his second card, an ace: natural.
    game = table("5h Th 6d 9c As", rules=Rules.preset("european"))
    rnd = game.start_round([10])
    rnd.apply(Action.DOUBLE)
    assert results(rnd) == [(0, 0, Result.LOSE, -20)], \
        f"a doubled 20 against a dealer natural loses both bets, -20; got {settled(rnd)}"
    check_money("the bankroll after losing a doubled 10", game.players[0].bankroll, 980, "1000 - 20")


# ------------------------------------------------------------------------------------- split

@pytest.mark.points(2)
def test_split_eights_against_ten(capsys: pytest.CaptureFixture[str]) -> None:
    """8-8 against a ten splits into two hands of 10 each: K (18) stands and wins, 3 then a double to 20 wins 20;
    the engine prints nothing on the way."""
    # Ann 8 8; dealer T up, 7 in the hole (17, no natural). Split: first 8 gets K (18), stand;
    # second 8 gets 3 (11), double (DAS) gets 9 (20). Dealer stands on 17.
    game = table("8s Th 8d 7c Kc 3c 9d")
    rnd = game.start_round([10])
    rnd.apply(Action.SPLIT)
    assert [str(h) for h in rnd.hands(0)] == ["8s Kc", "8d"], \
        f"after the split the first hand gets its second card at once; got {[str(h) for h in rnd.hands(0)]}"
    check_money("the bankroll after splitting a bet of 10", game.players[0].bankroll, 980,
                "a split puts a second bet of 10 on the table: 1000 - 20")
    rnd.apply(Action.STAND)
    assert str(rnd.hands(0)[1]) == "8d 3c" and rnd.turn == (0, 1), \
        f"after the first hand stands, play moves to the second hand (0, 1), dealt a 3: 8d 3c; " \
        f"hands {[str(h) for h in rnd.hands(0)]}, turn {rnd.turn}"
    rnd.apply(Action.DOUBLE)
    assert results(rnd) == [(0, 0, Result.WIN, 10), (0, 1, Result.WIN, 20)], \
        f"18 and a doubled 20 against 17 win +10 and +20; got {settled(rnd)}"
    check_money("the bankroll after both split hands win", game.players[0].bankroll, 1030, "980 + 20 + 30")
    check_quiet(capsys, "a round with a split and a double down (Round._why_not, legal_actions)")


@pytest.mark.points(1)
def test_split_a_non_pair_is_refused() -> None:
    """8-9 is not a pair: SPLIT raises IllegalActionError saying so, and nothing changes."""
    game = table("8s Th 9d 7c")
    game.start_round([10])
    assert_refused(game, Action.SPLIT, "8-9 is not a pair: only two cards of equal rank split")


@pytest.mark.points(1)
def test_split_aces_get_one_card_each_and_21_is_not_a_natural() -> None:
    """Split aces take one card each with no decision; A-K after a split is 21 paid 1:1, not a natural."""
    # Ann A A; dealer 9 up, 8 in the hole (17). First ace gets 5 (soft 16), second gets K (21).
    game = table("As 9c Ad 8d 5h Kc")
    rnd = game.start_round([10])
    rnd.apply(Action.SPLIT)
    assert [str(h) for h in rnd.hands(0)] == ["As 5h", "Ad Kc"] and rnd.phase is Phase.SETTLED, \
        f"each split ace gets one card and play ends; hands {[str(h) for h in rnd.hands(0)]}, phase {rnd.phase.value}"
    assert results(rnd) == [(0, 0, Result.LOSE, -10), (0, 1, Result.WIN, 10)], \
        f"16 loses to 17 (-10); A-K after a split is a plain 21 that wins +10, not +15 (a split hand is never " \
        f"a natural); got {settled(rnd)}"


@pytest.mark.points(1)
def test_split_stops_at_the_rules_hand_limit() -> None:
    """Thunderjack allows two hands per seat: a split 8 that draws another 8 cannot split again."""
    game = table("8s Th 8d 7c 8h", rules=THUNDERJACK)
    rnd = game.start_round([10])
    rnd.apply(Action.SPLIT)
    assert str(rnd.hands(0)[0]) == "8s 8h" and Action.SPLIT not in rnd.legal_actions(), \
        f"the first split hand 8s 8h is a pair but the seat holds 2 hands, Thunderjack's limit: SPLIT should not " \
        f"be legal; hand [{rnd.hands(0)[0]}], legal_actions() {sorted(a.value for a in rnd.legal_actions())}"
    assert_refused(game, Action.SPLIT, "Thunderjack allows at most 2 hands per seat (rules.max_split_hands)")


# --------------------------------------------------------------------------------- insurance

@pytest.mark.points(2)
def test_insurance_against_dealer_natural_pays_two_to_one() -> None:
    """Insurance of 5 on a bet of 10 against a dealer A-K pays 10; the hand loses 10; the player breaks even."""
    game = table("Th As 9d Kc")  # Ann T 9; dealer A up, K in the hole
    rnd = game.start_round([10])
    assert rnd.phase is Phase.INSURANCE and Action.INSURANCE in rnd.legal_actions(), \
        f"an ace up should offer insurance before anyone plays; phase {rnd.phase.value}, " \
        f"legal_actions() {sorted(a.value for a in rnd.legal_actions())}"
    events = rnd.apply(Action.INSURANCE)
    assert InsuranceSettled(0, Fraction(5), Fraction(10)) in events, \
        f"insurance of 5 (half the bet) should win 2:1, +10; events {events}"
    assert results(rnd) == [(0, 0, Result.LOSE, -10)] and rnd.insurance_net(0) == 10, \
        f"T-9 loses its 10 to the dealer natural and the insurance wins +10; got {settled(rnd)}, " \
        f"insurance {shown(rnd.insurance_net(0))}"
    check_money("the bankroll after insurance against a dealer natural", game.players[0].bankroll, 1000,
                "-10 on the hand, +10 on the insurance")


@pytest.mark.points(1)
def test_insurance_is_at_most_half_the_bet_and_lost_without_natural() -> None:
    """Insurance over half the bet is refused; 2 of a 10 bet is taken and lost when the dealer has no natural."""
    game = table("Th As 9d 7c")  # Ann T 9 (19); dealer A up, 7 in the hole (soft 18)
    rnd = game.start_round([10])
    assert_refused(game, Action.INSURANCE, "insurance is at most half the bet of 10, so 6 is too much", amount=6,
                   error=InvalidBetError, words="at most 5")
    rnd.apply(Action.INSURANCE, 2)
    check_money("the bankroll with a bet of 10 and insurance of 2", game.players[0].bankroll, 988,
                "the bet (10) and the insurance (2) are on the table")
    play(rnd)
    assert rnd.insurance_net(0) == -2 and results(rnd) == [(0, 0, Result.WIN, 10)], \
        f"no dealer natural: insurance loses 2, 19 beats 18 for +10; got insurance {shown(rnd.insurance_net(0))}, " \
        f"{settled(rnd)}"
    check_money("the bankroll after the round", game.players[0].bankroll, 1008, "1000 - 2 + 10")


@pytest.mark.points(1)
def test_insurance_without_an_ace_up_is_refused() -> None:
    """With a ten showing there is no insurance: INSURANCE raises IllegalActionError naming the upcard."""
    game = table("Th Kc 9d 7c")
    game.start_round([10])
    assert_refused(game, Action.INSURANCE, "insurance is offered only against a dealer's ace, and a K shows",
                   words="not an ace")


@pytest.mark.points(1)
def test_even_money_on_a_natural_pays_the_bet() -> None:
    """A natural that takes insurance (even money) against an ace gains exactly the bet when the dealer has no natural."""
    game = table("Ah Ac Ks 9d")  # Ann A K; dealer A up, 9 in the hole
    rnd = game.start_round([10])
    rnd.apply(Action.INSURANCE)
    assert rnd.phase is Phase.SETTLED, \
        f"after the peek finds no dealer natural, the natural is paid at once; phase {rnd.phase.value}"
    assert results(rnd) == [(0, 0, Result.BLACKJACK, 15)] and rnd.insurance_net(0) == -5, \
        f"natural +15, insurance -5; got {settled(rnd)}, insurance {shown(rnd.insurance_net(0))}"
    check_money("the bankroll after even money", game.players[0].bankroll, 1010, "even money: +10 on a bet of 10")


# --------------------------------------------------------------------------------- surrender

@pytest.mark.points(1)
def test_late_surrender_returns_half_the_bet() -> None:
    """Late surrender of T-6 against a ten (no dealer natural) loses half the bet: 5 of 10."""
    game = table("Th Tc 6d 7s")
    rnd = game.start_round([10])
    rnd.apply(Action.SURRENDER)
    assert results(rnd) == [(0, 0, Result.SURRENDER, -5)], \
        f"late surrender of T-6 against a ten gives back half the bet of 10: SURRENDER, net -5; got {settled(rnd)}"
    check_money("the bankroll after surrendering 10", game.players[0].bankroll, 995, "1000 - 5")


# ------------------------------------------------------------------------ Thunderjack, Blitz

@pytest.mark.points(2)
def test_thunderjack_beats_dealer_natural_and_pays_three_to_one() -> None:
    """J♠-A♠ is a Thunderjack: paid 3:1 at once (10 gains 30) even though the dealer has A-K."""
    game = table("Js Ac As Kd", rules=THUNDERJACK)
    rnd = game.start_round([10])
    assert results(rnd) == [(0, 0, Result.THUNDERJACK, 30)], \
        f"a suited ace and jack pays 3:1, +30, and wins against the dealer natural; got {settled(rnd)}"
    assert rnd.phase is Phase.SETTLED, f"a Thunderjack is paid at once, settling the round; phase {rnd.phase.value}"
    check_money("the bankroll after a Thunderjack on 10", game.players[0].bankroll, 530, "500 + 3 x 10")


@pytest.mark.points(1)
def test_two_thunderjacks_push_each_other() -> None:
    """When two seats are dealt Thunderjacks, both push: no money changes hands."""
    game = table("Js Qh 9c As Ah 7d", "Ann", "Bob", rules=THUNDERJACK)  # Ann J♠ A♠, Bob Q♥ A♥
    rnd = game.start_round([10, 20])
    assert results(rnd) == [(0, 0, Result.PUSH, 0), (1, 0, Result.PUSH, 0)], \
        f"two Thunderjacks push each other; got {settled(rnd)}"
    assert [p.bankroll for p in game.players] == [500, 500], \
        f"after two pushes both bankrolls stay 500; got {[shown(p.bankroll) for p in game.players]}"


@pytest.mark.points(1)
def test_blitz_six_cards_pays_five_to_one() -> None:
    """Six cards without busting (2-3-2-3-2-3 = 15) is a Blitz, paid 5:1 at once: 10 gains 50."""
    game = table("2c Td 3d 9s 2h 3s 2d 3c", rules=THUNDERJACK)  # dealer T up, 9 in the hole
    rnd = game.start_round([10])
    play(rnd, Action.HIT, Action.HIT, Action.HIT, Action.HIT)
    assert results(rnd) == [(0, 0, Result.BLITZ, 50)], \
        f"six cards without busting (2-3-2-3-2-3 = 15) is a Blitz, paid 5:1 at once: +50; got {settled(rnd)}"
    check_money("the bankroll after a Blitz on 10", game.players[0].bankroll, 550, "500 + 5 x 10")


# ======================================================= no points: every rule switch and preset

def legal(codes: str, rules: Rules) -> frozenset[Action]:
    """The legal actions on the first decision of a one-seat round dealt from ``codes``."""
    return table(codes, rules=rules).start_round([10]).legal_actions()


@pytest.mark.points(0)
@pytest.mark.parametrize("double_on, total, allowed", [
    ("any", 8, True), ("any", 12, True), ("9-11", 9, True), ("9-11", 8, False), ("9-11", 12, False),
    ("10-11", 10, True), ("10-11", 9, False), ("none", 11, False)])
def test_double_on_rule(double_on: str, total: int, allowed: bool) -> None:
    """rules.double_on limits the two-card totals that may double: any, 9-11, 10-11 or none."""
    rules = dataclasses.replace(VEGAS, double_on=double_on, double_after_split=double_on != "none")
    first = {8: "3h", 9: "4h", 10: "4h", 11: "5h", 12: "7h"}[total]
    second = {8: "5d", 9: "5d", 10: "6d", 11: "6d", 12: "5d"}[total]
    got = legal(f"{first} 9c {second} 7s", rules)
    assert (Action.DOUBLE in got) is allowed, \
        f"double_on={double_on!r}: a two-card {total} {'may' if allowed else 'may not'} double; legal {sorted(a.value for a in got)}"


@pytest.mark.points(0)
def test_hit_split_aces_rule() -> None:
    """With hit_split_aces, a split ace may hit; without it (vegas) it gets one card."""
    rules = dataclasses.replace(VEGAS, hit_split_aces=True)
    game = table("As 9c Ad 8d 5h Kc", rules=rules)
    rnd = game.start_round([10])
    rnd.apply(Action.SPLIT)
    assert rnd.turn == (0, 0) and Action.HIT in rnd.legal_actions(), \
        f"with hit_split_aces the first split ace (As 5h) plays on and may hit; turn {rnd.turn}, " \
        f"legal {sorted(a.value for a in rnd.legal_actions())}"


@pytest.mark.points(0)
def test_resplit_aces_rule() -> None:
    """With resplit_aces, a split ace that draws another ace may split again; vegas does not allow it."""
    codes = "As 9c Ad 8d Ah 5c Kc 4d"
    rules = dataclasses.replace(VEGAS, resplit_aces=True)
    rnd = table(codes, rules=rules).start_round([10])
    rnd.apply(Action.SPLIT)
    assert rnd.turn == (0, 0) and rnd.legal_actions() == {Action.SPLIT, Action.STAND}, \
        f"with resplit_aces, A-A on a split ace may split again or stand (no hit); turn {rnd.turn}, " \
        f"legal {sorted(a.value for a in rnd.legal_actions())}"
    rnd.apply(Action.SPLIT)
    assert len(rnd.hands(0)) == 3, f"resplitting aces makes three hands; got {[str(h) for h in rnd.hands(0)]}"
    plain = table(codes).start_round([10])
    plain.apply(Action.SPLIT)
    assert str(plain.hands(0)[0]) == "As Ah" and plain.turn is None, \
        f"vegas does not resplit aces: A-A on a split ace just stands and play ends; hands " \
        f"{[str(h) for h in plain.hands(0)]}, turn {plain.turn}"


@pytest.mark.points(0)
def test_split_by_value_rule() -> None:
    """justblackjack splits any two ten-cards (K-Q); split by rank (vegas) does not."""
    assert Action.SPLIT in legal("Kh 9c Qd 7s", Rules.preset("justblackjack")), \
        "justblackjack splits by value: K-Q is a pair of tens and may split"
    assert Action.SPLIT not in legal("Kh 9c Qd 7s", VEGAS), "vegas splits by rank: K-Q is no pair"


@pytest.mark.points(0)
def test_resplit_up_to_four_hands() -> None:
    """vegas resplits 8s up to four hands, then SPLIT is no longer legal."""
    rnd = table("8s 9c 8d 7s 8h 8c 8s 2d 2h 2c 2s").start_round([10])
    for _ in range(3):
        rnd.apply(Action.SPLIT)
    assert len(rnd.hands(0)) == 4 and Action.SPLIT not in rnd.legal_actions(), \
        f"vegas splits up to 4 hands, then no more; hands {[str(h) for h in rnd.hands(0)]}, " \
        f"legal {sorted(a.value for a in rnd.legal_actions())}"


@pytest.mark.points(0)
def test_split_hands_play_left_to_right() -> None:
    """After a split, the left hand is played to the end before the right hand gets its second card."""
    rnd = table("8s 9c 8d 7s 2h 5c 3d").start_round([10])
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.HIT)
    assert [str(h) for h in rnd.hands(0)] == ["8s 2h 5c", "8d"] and rnd.turn == (0, 0), \
        f"the left hand plays to the end first; hands {[str(h) for h in rnd.hands(0)]}, turn {rnd.turn}"
    rnd.apply(Action.STAND)
    assert [str(h) for h in rnd.hands(0)] == ["8s 2h 5c", "8d 3d"] and rnd.turn == (0, 1), \
        f"then the right hand gets its second card and its turn; hands {[str(h) for h in rnd.hands(0)]}, turn {rnd.turn}"


@pytest.mark.points(0)
def test_dealer_soft_17_rule() -> None:
    """downtown's dealer hits A-6 (draws a 2: 19, beating 18); vegas's stands (18 beats 17)."""
    codes = "Th Ac 8d 6s 2c"  # Ann T 8; dealer A up, 6 in the hole
    h17 = table(codes, rules=Rules.preset("downtown")).start_round([10])
    play(h17)
    s17 = table(codes).start_round([10])
    play(s17)
    assert results(h17) == [(0, 0, Result.LOSE, -10)] and results(s17) == [(0, 0, Result.WIN, 10)], \
        f"an H17 dealer hits A-6 (19 beats 18), an S17 dealer stands (18 beats 17); got H17 {settled(h17)}, " \
        f"S17 {settled(s17)}"


@pytest.mark.points(0)
def test_peek_under_ten() -> None:
    """Under US rules the dealer peeks under a ten too: a dealer T-A ends the round before anyone acts."""
    rnd = table("Th Kc 9d As").start_round([10])
    assert rnd.phase is Phase.SETTLED and results(rnd) == [(0, 0, Result.LOSE, -10)], \
        f"the peek under the ten finds the ace and settles the round: -10; phase {rnd.phase.value}, {settled(rnd)}"


@pytest.mark.points(0)
def test_no_peek_game_keeps_doubled_bet_at_risk() -> None:
    """Without a peek (but with a hole card), a doubled hand loses the doubled bet to a dealer natural."""
    rules = dataclasses.replace(VEGAS, dealer_peeks=False)
    rnd = table("5h Th 6d As 9c", rules=rules).start_round([10])
    assert rnd.phase is Phase.PLAYER_TURN, f"without a peek the player acts first; phase {rnd.phase.value}"
    rnd.apply(Action.DOUBLE)
    assert results(rnd) == [(0, 0, Result.LOSE, -20)], \
        f"without a peek the doubled bet is lost to the dealer natural: -20; got {settled(rnd)}"


@pytest.mark.points(0)
def test_european_split_bets_lost_to_dealer_natural() -> None:
    """european: both bets of a split pair are lost to a dealer natural that shows up after the players."""
    rnd = table("8s Th 8d 2c 9h Ah", rules=Rules.preset("european")).start_round([10])
    play(rnd, Action.SPLIT)
    assert results(rnd) == [(0, 0, Result.LOSE, -10), (0, 1, Result.LOSE, -10)], \
        f"european: both split bets lose to the dealer natural; got {settled(rnd)}"


@pytest.mark.points(0)
def test_early_surrender_rule() -> None:
    """Early surrender is offered against an ace before the peek, and costs half even when the dealer has a natural."""
    rules = dataclasses.replace(VEGAS, surrender="early", insurance=False)
    rnd = table("Th As 6d Kc", rules=rules).start_round([10])
    assert rnd.phase is Phase.EARLY_SURRENDER and rnd.legal_actions() == {Action.SURRENDER, Action.DECLINE}, \
        f"early surrender is offered against an ace before the peek; phase {rnd.phase.value}, " \
        f"legal {sorted(a.value for a in rnd.legal_actions())}"
    rnd.apply(Action.SURRENDER)
    assert results(rnd) == [(0, 0, Result.SURRENDER, -5)] and rnd.phase is Phase.SETTLED, \
        f"early surrender costs half the bet even against a dealer natural: -5; got {settled(rnd)}"


@pytest.mark.points(0)
def test_no_surrender_rule() -> None:
    """downtown has no surrender: SURRENDER is never legal and is refused."""
    game = table("Th 9c 6d 7s", rules=Rules.preset("downtown"))
    game.start_round([10])
    legal_now = game.round.legal_actions()  # type: ignore[union-attr]
    assert Action.SURRENDER not in legal_now, "downtown has no surrender: SURRENDER should never be legal"
    assert_refused(game, Action.SURRENDER, "downtown has no surrender (rules.surrender is 'none')")


@pytest.mark.points(0)
def test_split_hand_cannot_surrender() -> None:
    """Late surrender applies to the first two cards only, not to a hand made by a split."""
    rnd = table("8s 9c 8d 7s 2h").start_round([10])
    rnd.apply(Action.SPLIT)
    assert Action.SURRENDER not in rnd.legal_actions(), \
        f"a hand made by a split cannot surrender; legal {sorted(a.value for a in rnd.legal_actions())}"


@pytest.mark.points(0)
def test_cs111_has_only_hit_and_stand() -> None:
    """The cs111 preset offers only hit and stand, even on a pair of 8s totalling 16, with a ten up."""
    got = legal("8s Tc 8d 7s", Rules.preset("cs111"))
    assert got == {Action.HIT, Action.STAND}, f"cs111 offers only hit and stand; legal {sorted(a.value for a in got)}"


@pytest.mark.points(0)
def test_thunderjack_dealer_has_no_thunderjack() -> None:
    """A dealer's suited A-K is just a natural: a player's plain natural pushes it, no 3:1 for the house."""
    rnd = table("Ah Ks Kd As", rules=THUNDERJACK).start_round([10])  # Ann A♥ K♦ (unsuited), dealer K♠ A♠
    assert results(rnd) == [(0, 0, Result.PUSH, 0)], \
        f"the dealer's suited A-K is a plain natural: the player's natural pushes it; got {settled(rnd)}"


@pytest.mark.points(0)
def test_thunderjack_with_a_plain_natural_at_the_table() -> None:
    """One Thunderjack is paid 3:1 while another seat's unsuited natural is paid 3:2."""
    rnd = table("Js Ah 9c As Kd 7d", "Ann", "Bob", rules=THUNDERJACK).start_round([10, 10])
    assert results(rnd) == [(0, 0, Result.THUNDERJACK, 30), (1, 0, Result.BLACKJACK, 15)], \
        f"the Thunderjack pays 3:1 (+30) and the plain natural 3:2 (+15); got {settled(rnd)}"


@pytest.mark.points(0)
def test_suited_ace_ten_is_not_a_thunderjack() -> None:
    """A suited ace and ten (not J/Q/K) is a plain natural paid 3:2."""
    rnd = table("Ts 9c As 7d", rules=THUNDERJACK).start_round([10])
    assert results(rnd) == [(0, 0, Result.BLACKJACK, 15)], \
        f"a suited ace and ten is a plain natural paid 3:2 (+15); got {settled(rnd)}"


@pytest.mark.points(0)
def test_thunderjack_seats_three() -> None:
    """The Thunderjack table seats three players and refuses a fourth."""
    Blackjack(["A", "B", "C"], THUNDERJACK)
    with pytest.raises(ValueError):
        Blackjack(["A", "B", "C", "D"], THUNDERJACK)


@pytest.mark.points(0)
@pytest.mark.parametrize("name", Rules.preset_names())
def test_every_preset_plays_a_stacked_round(name: str) -> None:
    """Every preset plays T-9 against the dealer's 9-8 to a 19-17 win (worth nothing where there is no money)."""
    rules = Rules.preset(name)
    game = table("Th 9c 9d 8s", rules=rules)
    rnd = game.start_round()
    play(rnd)
    net = rules.min_bet if rules.wagering else 0
    assert results(rnd) == [(0, 0, Result.WIN, net)], f"{name}: T-9 (19) against 9-8 (17) should WIN {net}; got {settled(rnd)}"


@pytest.mark.points(0)
def test_illegal_actions_outside_a_turn() -> None:
    """Any action after the round is settled raises IllegalActionError."""
    game = table("Th Tc 9d 8s")
    rnd = game.start_round([10])
    play(rnd)
    for action in Action:
        with pytest.raises(IllegalActionError):
            rnd.apply(action)
