"""Milestone 1, Deck: create the deck and deal from it (cs111 week 1; 5 points).

The course: "createCardArray() should return an array of 52 cards ... A-K of Spades,
then A-K of Diamonds, then A-K of Clubs, then A-K of Hearts", and a Deck hands the cards
out with ``deal()`` until ``isEmpty()``. The shuffle has its own tests
(``test_shuffle.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from blackjack import Card, Deck, EmptyShoeError, Suit, create_card_array, parse_cards

COURSE_ORDER = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS]


def deal_all(deck: Deck) -> list[Card]:
    """Deal every card of ``deck`` (at most 10,000, so a broken is_empty cannot hang the test)."""
    dealt = []
    while not deck.is_empty():
        dealt.append(deck.deal())
        assert len(dealt) <= 10_000, \
            (f"dealing from a deck, is_empty() was still False after 10,000 deals (the last card dealt: "
             f"{dealt[-1]!r}): is_empty() should be True once no card is left")
    return dealt


@pytest.mark.points(2)
def test_create_card_array_is_ace_to_king_of_each_suit_in_course_order() -> None:
    """create_card_array() returns 52 cards: A-K of spades, then diamonds, clubs and hearts (cs111 spec)."""
    got = create_card_array()
    assert isinstance(got, list), \
        f"create_card_array() should return a list of 52 Card objects; it returned {type(got).__name__} {got!r:.80}"
    expected = [Card(suit, face) for suit in COURSE_ORDER for face in range(1, 14)]
    assert len(got) == 52, f"create_card_array() should return 52 cards (13 faces x 4 suits); it returned {len(got)}"
    wrong = [f"card {i + 1} should be {want}, got {have!r}" for i, (have, want) in enumerate(zip(got, expected))
             if have != want]
    assert not wrong, (f"create_card_array() should be A-K of spades, then A-K of diamonds, clubs, hearts "
                       f"(As 2s .. Ks Ad .. Kh): {'; '.join(wrong[:3])}" + (" ..." if len(wrong) > 3 else ""))


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
    try:
        card = deck.deal()
    except EmptyShoeError as err:
        message = str(err)
    else:
        pytest.fail(f"Deck([As]) dealt As, then deal() again returned {card!r} instead of raising EmptyShoeError: "
                    f"a deck with no card left must raise, never hand out a card it does not hold", pytrace=False)
    assert "empty" in message.lower(), \
        f"deal() on an empty deck raised EmptyShoeError({message!r}): the message should say the deck is empty"


# ---------------------------------------------------------------- no points: more of the contract

@pytest.mark.points(0)
def test_new_deck_deals_in_course_order() -> None:
    """A Deck of create_card_array() deals A-K of spades, then diamonds, clubs and hearts."""
    dealt = deal_all(Deck(create_card_array()))
    assert dealt == [Card(suit, face) for suit in COURSE_ORDER for face in range(1, 14)]


@pytest.mark.points(0)
def test_create_card_array_returns_fresh_list() -> None:
    """create_card_array() returns a new list each call, so shuffling one does not change the next."""
    first = create_card_array()
    first.reverse()
    assert create_card_array()[0] == Card(Suit.SPADES, 1)
    assert Counter(create_card_array()) == Counter(first)


@pytest.mark.points(0)
def test_deck_has_len_and_keeps_own_copy() -> None:
    """len(deck) counts cards left, and changing the list afterwards does not change the deck."""
    cards = parse_cards("As 7d Kh")
    deck = Deck(cards)
    cards.clear()
    assert len(deck) == 3
    deck.deal()
    assert len(deck) == 2
