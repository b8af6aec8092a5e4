"""The engine's unchecked tier (events=False, _apply_unchecked) plays exactly like the checked tier."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from blackjack import Action, Blackjack, Phase, Result, Rules
from blackjack.sim.runner import chips_per_unit
from blackjack.wagers import payout


def _play(preset: str, fast: bool, seed: int, rounds: int = 300,
          recycle: bool = False) -> list[list[tuple[int, int, object]]]:
    """Play random legal decisions for three seats; return every round's outcomes."""
    rules = Rules.preset(preset)
    game = Blackjack(["A", "B", "C"][:min(3, rules.max_players)], rules, seed=seed)
    game.recycle_rounds = recycle
    for player in game.players:
        player.bankroll = Fraction(10 ** 6)
    start = sum(p.bankroll for p in game.players)
    pick = random.Random(seed)
    log = []
    for _ in range(rounds):
        rnd = game.new_round(events=not fast)
        for seat in range(len(game.players)):
            rnd.place_bet(seat, 10)
        rnd.deal()
        while rnd.turn is not None:
            action = pick.choice(sorted(rnd.legal_actions(), key=lambda a: a.value))
            if fast:
                rnd._apply_unchecked(action)
            else:
                rnd.apply(action)
        log.append(list(game.finish_round(record=not fast)))
        assert game.cards_in_play() == rules.decks * 52, "cards must be conserved"
        assert sum(p.bankroll for p in game.players) + game.house_net == start, "money must be conserved"
    return log


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_unchecked_tier_matches_checked_tier(preset: str) -> None:
    """Same seed and decisions: the unchecked tier settles every hand exactly as apply() does."""
    assert _play(preset, fast=False, seed=3) == _play(preset, fast=True, seed=3)


@pytest.mark.parametrize("preset", Rules.preset_names())
@pytest.mark.parametrize("fast", [False, True])
def test_recycled_rounds_play_like_new_ones(preset: str, fast: bool) -> None:
    """With recycle_rounds, the same seed and decisions settle every hand exactly as with a new Round each time."""
    assert _play(preset, fast, seed=4, recycle=True) == _play(preset, fast, seed=4)


def test_recycle_rounds_reuses_the_finished_round() -> None:
    """With recycle_rounds, new_round() returns the finished Round reset to BETTING with an empty dealer;
    without it, or when the events setting differs, a new Round."""
    game = Blackjack(["A"], Rules.preset("vegas"), seed=2)
    game.recycle_rounds = True
    first = game.start_round([10])
    while first.turn is not None:
        first.apply(Action.STAND)
    game.finish_round()
    again = game.new_round()
    assert again is first
    assert (again.phase, again.turn, again.history, again.house_net) == (Phase.BETTING, None, [], 0)
    assert (len(again.dealer.hand), again.dealer.revealed, again.hands(0), again.bet(0)) == (0, False, (), 0)
    again.place_bet(0, 10)
    again.deal()
    while again.turn is not None:
        again.apply(Action.STAND)
    game.finish_round()
    assert game.new_round(events=False) is not first, "a round recording events is not reused without them"
    plain = Blackjack(["A"], Rules.preset("vegas"), seed=2)
    used = plain.start_round([10])
    while used.turn is not None:
        used.apply(Action.STAND)
    plain.finish_round()
    assert plain.new_round() is not used, "without recycle_rounds a finished round is left as it ended"


def test_a_recycled_round_after_a_split_pays_the_next_natural() -> None:
    """The opening hand a recycled round reuses was split last round: it starts again as a new hand, so
    the next round's ace and king are a natural paid 3:2, not a split hand's 21."""
    game = Blackjack(["A"], Rules.preset("vegas"), seed=2)
    game.recycle_rounds = True
    # round 1: 8 8 against a 7, split, each hand stands on its second card; round 2: A K against a 9
    game.shoe.stack("8s 7d 8h 9c Th Tc Tc As 9d Kh 7c".split())
    first = game.start_round([10])
    first.apply(Action.SPLIT)
    while first.turn is not None:
        first.apply(Action.STAND)
    game.finish_round()
    second = game.start_round([10])
    assert second is first, "the round was not recycled, so this test checks nothing"
    assert second.phase is not Phase.PLAYER_TURN, "a natural needs no decision"
    [outcome] = [o for _, _, o in game.finish_round()]
    assert (outcome.result, outcome.net) == (Result.BLACKJACK, 15), f"A-K after a recycled split: {outcome}"


@pytest.mark.parametrize("preset", ["vegas", "european", "thunderjack", "single_deck"])
def test_is_legal_agrees_with_legal_actions(preset: str) -> None:
    """Round.is_legal(a) is True exactly for the actions in legal_actions()."""
    rules = Rules.preset(preset)
    game = Blackjack(["A", "B"], rules, seed=5)
    pick = random.Random(5)
    for _ in range(200):
        rnd = game.start_round([rules.min_bet, rules.min_bet])
        while rnd.turn is not None:
            legal = rnd.legal_actions()
            assert {a for a in Action if rnd.is_legal(a)} == set(legal), f"phase {rnd.phase}"
            rnd.apply(pick.choice(sorted(legal, key=lambda a: a.value)))
        assert not any(rnd.is_legal(a) for a in Action), "nothing is legal once the round is settled"
        game.finish_round()


def test_events_false_returns_no_events() -> None:
    """A round built with events=False and no listeners returns () from deal() and apply()."""
    game = Blackjack(["A"], Rules.preset("vegas"), seed=1)
    game.shoe.stack(["Th", "9c", "7d", "8s"])  # A: T 7; dealer 9 up, 8 in the hole
    rnd = game.new_round(events=False)
    rnd.place_bet(0, 10)
    assert rnd.deal() == ()
    assert rnd.apply(Action.STAND) == ()
    assert [o.net for _s, _h, o in game.finish_round()] == [Fraction(0)], "17 against 17 pushes"


def test_listeners_still_get_events_with_events_false() -> None:
    """events=False never silences a subscribed listener."""
    seen: list[object] = []
    game = Blackjack(["A"], Rules.preset("vegas"), seed=1, listeners=[seen.append])
    game.shoe.stack(["Th", "9c", "7d", "8s"])
    rnd = game.new_round(events=False)
    rnd.place_bet(0, 10)
    rnd.deal()
    rnd._apply_unchecked(Action.STAND)
    assert len(seen) > 6, f"expected bet, four cards, stand, reveal and settlement events, got {seen}"


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_int_chips_settle_exactly_like_fractions(preset: str) -> None:
    """The simulator's int stakes give the same results and nets as Fraction stakes, and money stays int.

    The stake is chips_per_unit(rules) chips, which makes every payout of these rules whole.
    """
    rules = Rules.preset(preset)
    seats = min(2, rules.max_players)
    stake = chips_per_unit(rules) * 5
    logs = []
    for chips in (False, True):
        game = Blackjack(["A", "B"][:seats], rules, seed=7)
        for player in game.players:
            player.bankroll = 10 ** 6 if chips else Fraction(10 ** 6)
        pick = random.Random(7)
        log = []
        for _ in range(300):
            rnd = game.new_round(events=False)
            for seat in range(seats):
                rnd._place_bet_unchecked(seat, stake if chips else Fraction(stake))
            rnd.deal()
            while rnd.turn is not None:
                rnd._apply_unchecked(pick.choice(sorted(rnd.legal_actions(), key=lambda a: a.value)))
            outcomes = game.finish_round(record=False)
            log.append([(seat, hand, o.result, o.net) for seat, hand, o in outcomes])
            if chips:
                assert all(type(o.net) is int for _s, _h, o in outcomes), "int stakes give int nets"
                assert all(type(p.bankroll) is int for p in game.players), "and int bankrolls"
                assert type(game.house_net) is int
        assert sum(p.bankroll for p in game.players) + game.house_net == seats * 10 ** 6
        logs.append(log)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_chips_per_unit_makes_every_payout_whole(preset: str) -> None:
    """A one-unit bet of chips_per_unit chips wins, loses, surrenders and insures in whole chips."""
    rules = Rules.preset(preset)
    chips = chips_per_unit(rules)
    for result in Result:
        if result is Result.THUNDERJACK and rules.thunderjack_pays is None:
            continue
        assert payout(result, Fraction(chips), rules).denominator == 1, result
    assert Fraction(chips, 2).denominator == 1, "insurance takes half the bet"


def test_current_hand_follows_the_turn() -> None:
    """Round.current_hand is the hand whose decision it is, and None when no decision is pending."""
    game = Blackjack(["A"], Rules.preset("vegas"), seed=1)
    game.shoe.stack("8h 9c 8d 7s 3c")  # A: 8 8; dealer 9 up; split, the first hand draws the 3
    rnd = game.new_round()
    assert rnd.current_hand is None, "no decision while betting"
    rnd.place_bet(0, 10)
    rnd.deal()
    assert rnd.current_hand is rnd.hands(0)[0]
    rnd.apply(Action.SPLIT)
    assert str(rnd.current_hand) == "8h 3c"
    rnd.apply(Action.STAND)
    assert rnd.current_hand is rnd.hands(0)[1] and len(rnd.current_hand) == 2
    rnd.apply(Action.STAND)
    assert rnd.current_hand is None
