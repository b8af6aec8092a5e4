"""Exact pair splitting with resplits (blackjack.hints._split) against a brute-force deal of tiny shoes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from blackjack import Action, Rules
from blackjack.hints import expected_values
from blackjack.hints._player import Game, can_double, total_of, tree_for
from blackjack.hints._split import _cards_needed, split_ev
from blackjack.hints.probability import full_shoe, game_for, without

Counts = tuple[int, ...]


def _dealer_total(up: int, hole: int, left: list[int], h17: bool) -> list[tuple[float, int]]:
    """Every way the dealer finishes from upcard and hole card: [(chance, total or 22 for bust)]."""
    out: list[tuple[float, int]] = []

    def go(hard: int, ace: bool, chance: float) -> None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            out.append((chance, 22))
            return
        if total >= 17 and not (h17 and soft and total == 17):
            out.append((chance, total))
            return
        n = sum(left)
        assert n, "shoe too small for the oracle"
        for v in range(1, 11):
            c = left[v - 1]
            if c:
                left[v - 1] -= 1
                go(hard + v, ace or v == 1, chance * c / n)
                left[v - 1] += 1

    if {up, hole} == {1, 10}:
        return [(1.0, 99)]  # a dealer natural (no peek): every hand loses its bet, doubles included
    go(up + hole, up == 1 or hole == 1, 1.0)
    return out


def brute_split(pair: int, counts: Counts, up: int, game: Game, max_hands: int,
                decide: Callable[[list[int], bool], str]) -> float:
    """Oracle: deal the hole card, then the split hands in table order, then the dealer; sum every hand.

    ``decide(cards, may_double)`` returns "S", "H" or "D" for a split hand's cards (the fixed
    post-split strategy under test). With a peek the hole card is never the natural-maker.
    """
    left = list(counts)
    bad = {1: 10, 10: 1}.get(up) if game.peek else None
    total = 0.0
    holes = [v for v in range(1, 11) if left[v - 1] and v != bad]
    allowed = sum(left[v - 1] for v in holes)
    for hole in holes:
        p_hole = left[hole - 1] / allowed
        left[hole - 1] -= 1
        total += p_hole * _play_hands(pair, [[pair], [pair]], 0, [], left, up, hole, game, max_hands, decide)
        left[hole - 1] += 1
    return total


def _play_hands(pair: int, hands: list[list[int]], index: int, done: list[tuple[list[int], int]], left: list[int],
                up: int, hole: int, game: Game, max_hands: int, decide: Callable[[list[int], bool], str]) -> float:
    if index == len(hands):
        value = 0.0
        for chance, dealer in _dealer_total(up, hole, left, game.h17):
            for cards, bet in done:
                mine = total_of(sum(cards), 1 in cards)
                if mine > 21 or dealer == 99:
                    value -= chance * bet
                elif dealer > 21 or mine > dealer:
                    value += chance * bet
                elif mine < dealer:
                    value -= chance * bet
        return value
    hand = hands[index]
    n = sum(left)
    value = 0.0
    if len(hand) == 1:  # the second card
        for v in range(1, 11):
            c = left[v - 1]
            if not c:
                continue
            left[v - 1] -= 1
            if v == pair and len(hands) < max_hands:
                more = hands[:index] + [[pair], [pair]] + hands[index + 1:]
                value += c / n * _play_hands(pair, more, index, done, left, up, hole, game, max_hands, decide)
            else:
                more = hands[:index] + [[pair, v]] + hands[index + 1:]
                value += c / n * _play_hands(pair, more, index, done, left, up, hole, game, max_hands, decide)
            left[v - 1] += 1
        return value
    total = total_of(sum(hand), 1 in hand)
    split_aces = pair == 1
    may_hit = not split_aces or game.hit_split_aces
    if total > 21 or not may_hit or total == 21:
        move = "S"
    else:
        move = decide(hand, len(hand) == 2 and can_double(game, total, True, split_aces))
    if move == "S":
        return _play_hands(pair, hands, index + 1, done + [(hand, 1)], left, up, hole, game, max_hands, decide)
    for v in range(1, 11):
        c = left[v - 1]
        if not c:
            continue
        left[v - 1] -= 1
        grown = hand + [v]
        if move == "D":
            value += c / n * _play_hands(pair, hands, index + 1, done + [(grown, 2)], left, up, hole, game,
                                         max_hands, decide)
        else:
            more = hands[:index] + [grown] + hands[index + 1:]
            value += c / n * _play_hands(pair, more, index, done, left, up, hole, game, max_hands, decide)
        left[v - 1] += 1
    return value


def cdp1(counts: Counts, game: Game) -> Callable[[list[int], bool], str]:
    """The CDP1 strategy: optimal for the first split hand, on the shoe at the split less the hand's own cards."""
    tree = tree_for(counts, game)

    def decide(cards: list[int], may_double: bool) -> str:
        here = without(counts, cards[1:])
        hard, ace = sum(cards), 1 in cards
        best = tree.best(hard, ace, len(cards), here)
        if may_double and tree.double(hard, ace, len(cards), here) > best:
            return "D"
        if total_of(hard, ace) <= 11:
            return "H"
        return "H" if tree.hit(hard, ace, len(cards), here) > tree.stand(hard, ace, here) else "S"

    return decide


def cdz(counts: Counts, game: Game, pair: int) -> Callable[[list[int], bool], str]:
    """The CDZ- strategy: the unsplit hand's play, on the shoe with one pair card back."""
    back = list(counts)
    back[pair - 1] += 1
    return cdp1(tuple(back), game)


RULES = dataclasses.replace(Rules(), split_by="value", dealer_hits_soft_17=False)
#: (pair, upcard, small cards); tens are added until no card order can run out (see _cards_needed)
TINY = [
    (8, 6, (1, 1, 0, 0, 1, 0, 1, 1, 0, 3)),
    (2, 5, (0, 1, 1, 0, 1, 1, 0, 0, 1, 3)),
    (1, 1, (1, 0, 0, 1, 0, 1, 0, 1, 1, 3)),
    (10, 6, (0, 1, 0, 1, 0, 1, 1, 0, 1, 3)),
    (10, 10, (1, 1, 0, 1, 0, 1, 0, 0, 1, 3)),
    (8, 10, (1, 0, 1, 0, 0, 1, 1, 1, 0, 3)),
    (3, 4, (1, 1, 1, 0, 1, 0, 1, 0, 0, 3)),
]


def padded(pair: int, up: int, counts: Counts, max_hands: int) -> Counts:
    out = list(counts)
    while sum(out) < _cards_needed(pair, tuple(out), up, max_hands):
        out[9] += 1
    return tuple(out)


@pytest.mark.parametrize("max_hands", [2, 3, 4])
@pytest.mark.parametrize("pair,up,small", TINY)
@pytest.mark.parametrize("strategy", ["CDP1", "CDZ-"])
def test_resplits_equal_a_brute_force_deal(pair: int, up: int, small: Counts, max_hands: int, strategy: str) -> None:
    """split_ev equals dealing every order of a tiny shoe, hands in table order, for CDP1 and CDZ- (to 1e-12)."""
    counts = padded(pair, up, small, max_hands)
    rules = dataclasses.replace(RULES, max_split_hands=max_hands, resplit_aces=max_hands > 2)
    game = game_for(up, rules)
    decide = cdp1(counts, game) if strategy == "CDP1" else cdz(counts, game, pair)
    want = brute_split(pair, counts, up, game, max_hands, decide)
    got = split_ev(pair, counts, game, 1, strategy)
    assert got == pytest.approx(want, abs=1e-12), f"{pair},{pair} v {up} on {counts}, {max_hands} hands"


@pytest.mark.parametrize("rules", [dataclasses.replace(RULES, dealer_hits_soft_17=True, double_after_split=False),
                                   dataclasses.replace(RULES, hit_split_aces=True, double_on="10-11")])
def test_other_rules_equal_the_brute_force_deal(rules: Rules) -> None:
    """H17 without DAS, and hitting split aces with doubles on 10-11 only, also equal the brute-force deal."""
    for pair, up, small in TINY[:3]:
        counts = padded(pair, up, small, 4)
        game = game_for(up, rules)
        most = 2 if pair == 1 and not rules.resplit_aces else 4
        want = brute_split(pair, counts, up, game, most, cdp1(counts, game))
        assert split_ev(pair, counts, game, 1) == pytest.approx(want, abs=1e-12)


def test_no_peek_equals_the_brute_force_deal() -> None:
    """Without a peek a dealer natural takes every split bet; ten up, with aces in the shoe."""
    for small in ((1, 1, 0, 1, 0, 1, 0, 0, 1, 9), (2, 1, 0, 1, 0, 1, 0, 0, 1, 6)):
        counts = padded(10, 10, small, 4)
        game = game_for(10, RULES, peeked=False)
        want = brute_split(10, counts, 10, game, 4, cdp1(counts, game))
        assert split_ev(10, counts, game, 1) == pytest.approx(want, abs=1e-12)


def test_a_split_that_could_run_out_is_left_out() -> None:
    """On a shoe too small for every card order to finish, SPLIT is left out instead of a wrong number."""
    counts = (1, 2, 1, 0, 1, 0, 1, 1, 1, 3)
    assert sum(counts) < _cards_needed(8, counts, 6, 4)
    assert split_ev(8, counts, game_for(6, RULES), 1) == float("-inf")
    assert Action.SPLIT not in expected_values([8, 8], 6, counts, RULES)


def test_one_split_is_twice_one_hand_in_a_shoe() -> None:
    """Without resplits the split is twice one split hand (exchangeability), on a 2-deck shoe."""
    rules = dataclasses.replace(Rules(), max_split_hands=2)
    counts = without(full_shoe(2), (8, 8, 6))
    split = expected_values([8, 8], 6, counts, rules)[Action.SPLIT]
    one = 0.0
    n = sum(counts)
    for v in range(1, 11):
        evs = expected_values([8, v], 6, without(counts, (v,)), rules, from_split=True, hands=2)
        evs.pop(Action.SURRENDER, None)
        one += counts[v - 1] / n * max(evs.values())
    assert split == pytest.approx(2 * one, abs=1e-12)


def test_rank_tens_resplit_less_often_than_value_tens() -> None:
    """T-T v 9, 6 decks: value pairs (any two tens) lose more by resplitting than rank pairs (K-K only)."""
    counts = without(full_shoe(6), (10, 10, 9))
    value = expected_values([10, 10], 9, counts, dataclasses.replace(Rules(), split_by="value"))[Action.SPLIT]
    rank = expected_values([10, 10], 9, counts, dataclasses.replace(Rules(), split_by="rank"))[Action.SPLIT]
    no_resplit = expected_values([10, 10], 9, counts, dataclasses.replace(Rules(), max_split_hands=2))[Action.SPLIT]
    assert value < rank < no_resplit or value < no_resplit < rank
    assert value == pytest.approx(-0.216, abs=0.001)  # the CA figure (value pairs, CDP1)
