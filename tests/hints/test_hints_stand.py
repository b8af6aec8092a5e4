"""The merged stand EVs (``blackjack.hints._stand``) against the whole dealer distribution.

A stand EV read off the merged level sums must equal ``stand_value`` of the dealer's whole
distribution to rounding, for every total, upcard, rule variant and rank order; a shoe
the dealer could run out of is left to the caller (None). The rank order a pair's EVs use
(``game_for(pair=...)``) changes no EV beyond rounding.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack import Action, Rules
from blackjack.hints import _dealer, _player, _stand, expected_values
from blackjack.hints._split import split_ev
from blackjack.hints.probability import full_shoe, game_for, without

TOLERANCE = 1e-14


@st.composite
def shoes(draw: st.DrawFn) -> tuple[int, ...]:
    """A shoe of 30-200 unseen cards, a rank sometimes missing."""
    counts = draw(st.lists(st.integers(0, 20), min_size=10, max_size=10).filter(lambda c: 30 <= sum(c) <= 200))
    return tuple(counts)


@settings(max_examples=60, deadline=None)
@given(shoes(), st.integers(1, 10), st.booleans(), st.booleans(), st.booleans(), st.integers(0, 9))
def test_every_total_equals_the_whole_distribution(counts: tuple[int, ...], up: int, h17: bool, naturals: bool,
                                                   peek: bool, lead: int) -> None:
    peek = peek and naturals and up in (1, 10)
    if peek and counts[_dealer.forbidden_hole(up) or 0] == sum(counts):
        return  # every card would give the dealer a natural: no hole card is allowed
    dist = _dealer.dealer_float(counts, up, h17, naturals, peek)
    stands = _stand.stands_for(up, h17, naturals, peek, lead)
    for total in range(4, 22):
        got = stands.ev(total, counts)
        assert got is not None
        assert got == pytest.approx(_player.stand_value(total, dist), abs=TOLERANCE), (total, counts, up)


def test_a_shoe_the_dealer_could_run_out_of_is_left_to_the_caller() -> None:
    """Fewer unseen cards than the longest dealer hand: None, and the tree falls back to the whole distribution."""
    small = (2, 2, 0, 0, 0, 0, 0, 0, 0, 1)  # five cards: an ace upcard can draw more
    assert _stand.stands_for(1, False, True, False).ev(17, small) is None
    game = game_for(1, Rules(), peeked=False)
    tree = _player.Tree(small, game)
    dist = _dealer.dealer_float(small, 1, False, True, False)
    want = _player.stand_value(17, dist) if abs(sum(dist) - 1) < 1e-9 else float("-inf")
    assert tree.stand(17, False, small) == want


@pytest.mark.parametrize("pair, up", [(2, 1), (3, 2), (8, 10), (10, 6), (1, 7)])
def test_a_pairs_rank_order_changes_no_ev(pair: int, up: int) -> None:
    """``game_for(pair=...)`` (the pair's rank first in the level sums) only changes the speed."""
    rules = Rules(decks=2, max_split_hands=4)
    counts = without(full_shoe(2), (pair, pair, up, 5, 9, 10, 10))
    plain = game_for(up, rules)
    led = game_for(up, rules, pair=pair)
    assert led.lead == pair - 1 and plain.lead == 0
    for strategy in ("CDP1", "CDZ-"):
        _player.clear_caches()
        want = split_ev(pair, counts, plain, 1, strategy)
        _player.clear_caches()
        got = split_ev(pair, counts, led, 1, strategy)
        assert got == pytest.approx(want, abs=TOLERANCE)
    _player.clear_caches()
    evs = expected_values([pair, pair], up, counts, rules)
    tree = _player.Tree(counts, dataclasses.replace(plain, lead=0))
    total = _player.total_of(2 * pair, pair == 1)
    assert evs[Action.STAND] == pytest.approx(tree.stand(2 * pair, pair == 1, counts), abs=TOLERANCE)
    if total < 21:
        assert evs[Action.HIT] == pytest.approx(tree.hit(2 * pair, pair == 1, 2, counts), abs=TOLERANCE)
