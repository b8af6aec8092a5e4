"""Milestone 1, Deck: create the deck, shuffle it, deal from it (cs111 week 1; 5 points).

The course's "Deck constructor" algorithm builds the 52 cards in order and its
"Deck.shuffle" mixes them; a Deck then hands them out with ``deal()`` until
``is_empty()``. Every point test here deals through ``Deck.deal`` / ``Deck.is_empty``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from blackjack import Card, Deck, EmptyShoeError, Suit, create_card_array, parse_cards, shuffle

COURSE_ORDER = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS]


def deal_all(deck: Deck) -> list[Card]:
    """Deal every card of ``deck`` (at most 10,000, so a broken is_empty cannot hang the test)."""
    dealt = []
    while not deck.is_empty():
        dealt.append(deck.deal())
        assert len(dealt) <= 10_000, "is_empty() never became True while dealing"
    return dealt


@pytest.mark.points(1)
def test_deal_gives_cards_top_first() -> None:
    """Deck.deal() returns the cards in the order the deck was made with, the first one first."""
    cards = parse_cards("As 7d Kh")
    deck = Deck(cards)
    dealt = [deck.deal(), deck.deal(), deck.deal()]
    assert dealt == cards, f"Deck([As, 7d, Kh]) should deal As, then 7d, then Kh; got {dealt}"


@pytest.mark.points(1)
def test_is_empty_only_after_the_last_card() -> None:
    """is_empty() is False while cards are left and True once the last one is dealt."""
    deck = Deck(parse_cards("As 7d"))
    states = [deck.is_empty()]
    deck.deal()
    states.append(deck.is_empty())
    deck.deal()
    states.append(deck.is_empty())
    assert states == [False, False, True], \
        f"is_empty() of a 2-card deck before, after one deal, after two deals should be " \
        f"[False, False, True]; got {states}"


@pytest.mark.points(1)
def test_deal_from_empty_deck_raises_clear_error() -> None:
    """Dealing from an empty deck raises EmptyShoeError (a LookupError) that says the deck is empty."""
    deck = Deck([Card(Suit.SPADES, 1)])
    deck.deal()
    with pytest.raises(EmptyShoeError) as info:
        deck.deal()
    assert isinstance(info.value, LookupError)
    assert "empty" in str(info.value).lower(), \
        f"the error message should say the deck is empty; got {str(info.value)!r}"


@pytest.mark.points(1)
def test_new_deck_deals_ace_to_king_of_each_suit_in_course_order() -> None:
    """A Deck of create_card_array() deals A-K of spades, then diamonds, clubs and hearts (cs111 spec)."""
    dealt = deal_all(Deck(create_card_array()))
    expected = [Card(suit, face) for suit in COURSE_ORDER for face in range(1, 14)]
    assert len(dealt) == 52, f"a new deck should hold 52 cards; dealt {len(dealt)}"
    for i, (got, want) in enumerate(zip(dealt, expected)):
        assert got == want, f"card {i + 1} of a new deck should be {want} (A-K of spades, diamonds, " \
                            f"clubs, hearts); got {got}"


@pytest.mark.points(1)
def test_shuffled_deck_deals_every_card_once_in_a_new_order() -> None:
    """After shuffle(), a deck still deals all 52 different cards, but not in the new-deck order."""
    cards = create_card_array()
    shuffle(cards, random.Random(111))
    dealt = deal_all(Deck(cards))
    assert sorted(map(str, dealt)) == sorted(map(str, create_card_array())), \
        "a shuffled deck should deal each of the 52 cards exactly once"
    in_place = sum(a == b for a, b in zip(dealt, create_card_array()))
    assert in_place < 10, f"after a shuffle {in_place} of 52 cards are still in their new-deck place"


# ---------------------------------------------------------------- no points: the given helpers

@pytest.mark.points(0)
def test_create_card_array_returns_fresh_list() -> None:
    """create_card_array() returns a new list each call, so shuffling one does not change the next."""
    first = create_card_array()
    first.reverse()
    assert create_card_array()[0] == Card(Suit.SPADES, 1)


@pytest.mark.points(0)
def test_shuffle_is_a_permutation_in_place() -> None:
    """shuffle() returns None, changes the list it was given, and keeps exactly its cards."""
    cards = create_card_array()
    before = list(cards)
    assert shuffle(cards, random.Random(3)) is None
    assert cards != before
    assert Counter(cards) == Counter(before)


@pytest.mark.points(0)
def test_shuffle_replays_with_the_same_seed() -> None:
    """Two shuffles with random.Random(seed) of the same seed give the same order; another seed does not."""
    a, b, c = create_card_array(), create_card_array(), create_card_array()
    shuffle(a, random.Random(7))
    shuffle(b, random.Random(7))
    shuffle(c, random.Random(8))
    assert a == b, "two shuffles with random.Random(7) gave different orders: shuffle must draw every random " \
                   "number from the rng it is given (rng.randrange, rng.getrandbits ...), never from random.*"
    assert a != c, "shuffles with random.Random(7) and random.Random(8) gave the same order: shuffle must use the rng"


@pytest.mark.points(0)
def test_shuffle_without_rng_works() -> None:
    """shuffle(cards) with no rng uses a fresh random source and still keeps every card."""
    cards = create_card_array()
    shuffle(cards)
    assert Counter(cards) == Counter(create_card_array())


@pytest.mark.points(0)
def test_shuffle_makes_every_order_about_equally_likely() -> None:
    """Over 24,000 seeded shuffles of 4 cards, each of the 24 orders comes up 1000 +- 150 times.

    The course's "swap each card with any position" shuffle fails this: its 4**4 = 256
    equally likely paths fall on the 24 orders 8 to 15 times each, i.e. 750 to 1406 here.
    """
    rng = random.Random(2024)
    tally: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        shuffle(items, rng)
        tally[tuple(items)] += 1
    assert len(tally) == 24, f"only {len(tally)} of the 24 orders of 4 cards ever came up in 24,000 shuffles"
    counts = sorted(tally.values())
    assert all(850 <= n <= 1150 for n in counts), \
        f"the 24 orders of 4 cards came up {counts[0]} to {counts[-1]} times in 24,000 shuffles, not about " \
        f"1,000 each: the shuffle is biased. Swapping card i with any position is; swap it only with a " \
        f"position in 0..i (Fisher-Yates)"


@pytest.mark.points(0)
def test_deck_has_len_and_keeps_own_copy() -> None:
    """len(deck) counts cards left, and changing the list afterwards does not change the deck."""
    cards = parse_cards("As 7d Kh")
    deck = Deck(cards)
    cards.clear()
    assert len(deck) == 3
    deck.deal()
    assert len(deck) == 2
