"""Milestone 1, Deck: create the deck and deal from it (cs111 week 1; 5 points).

The course: "createCardArray() should return an array of 52 cards ... A-K of Spades,
then A-K of Diamonds, then A-K of Clubs, then A-K of Hearts", and a Deck hands the cards
out with ``deal()`` until ``isEmpty()``. The shuffle has its own tests
(``test_shuffle.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from blackjack import Card, Deck, EmptyShoeError, InvalidCardError, Suit, create_card_array, parse_cards

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
    try:
        got = create_card_array()
    except InvalidCardError as err:
        pytest.fail(f"create_card_array() made a card the Card class refuses: {err}. A face goes from 1 (ace) to 13 "
                    f"(king), and range(13) counts 0 to 12: the faces must start at 1 and end with 13",
                    pytrace=False)
    assert isinstance(got, list), \
        f"create_card_array() should return a list of 52 Card objects; it returned {type(got).__name__} {got!r:.80}"
    expected = [Card(suit, face) for suit in COURSE_ORDER for face in range(1, 14)]
    assert len(got) == 52, f"create_card_array() should return 52 cards (13 faces x 4 suits); it returned {len(got)}"
    wrong = [f"card {i + 1} should be {want}, got {have}" for i, (have, want) in enumerate(zip(got, expected))
             if have != want]
    suits = list(dict.fromkeys(card.suit.name.lower() for card in got if isinstance(card, Card)))
    order = (f"; the suits came as {', '.join(suits)}, and createCardArray() wants spades, diamonds, clubs, hearts "
             f"(the order of Suit; the course's Deck constructor lists another order, which the tests do not use)"
             if len(suits) == 4 and suits != [suit.name.lower() for suit in COURSE_ORDER] else "")
    assert not wrong, (f"create_card_array() should be A-K of spades, then A-K of diamonds, clubs, hearts "
                       f"(As 2s .. Ks Ad .. Kh): {'; '.join(wrong[:3])}" + (" ..." if len(wrong) > 3 else "") + order)


@pytest.mark.points(1)
def test_deal_gives_cards_top_first() -> None:
    """Deck.deal() returns the cards in the order the deck was made with, the first one first."""
    cards = parse_cards("As 7d Kh")
    deck = Deck(cards)
    dealt = [deck.deal(), deck.deal(), deck.deal()]
    assert dealt == cards, (f"Deck([As, 7d, Kh]) should deal As, then 7d, then Kh; got {', '.join(map(str, dealt))}"
                            + (": the deck keeps its cards last-to-deal first (see Deck.__init__: the next card is "
                               "at the end of self._cards), so deal() takes the card from the end"
                               if dealt == cards[::-1] else ""))


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
        (f"is_empty() of a 2-card deck before, after one deal, after two deals should be [False, False, True]; got "
         f"{states}" + (": is_empty() returned None, so some way through it ends without return; return True or "
                        "False on every path (return len(...) == 0 does both)" if None in states else ""))


@pytest.mark.points(1)
def test_deal_from_empty_deck_raises_clear_error() -> None:
    """Dealing from an empty deck raises EmptyShoeError (a LookupError) that says the deck is empty."""
    deck = Deck([Card(Suit.SPADES, 1)])
    deck.deal()
    try:
        card = deck.deal()
    except EmptyShoeError as err:
        message = str(err)
    except Exception as err:  # e.g. IndexError from pop() on an empty list
        pytest.fail(f"Deck([As]) dealt As, then deal() again raised {type(err).__name__}({str(err)!r}); it should raise "
                    f"EmptyShoeError with a message that says the deck is empty: check for an empty deck first, "
                    f"then raise EmptyShoeError(\"the deck is empty\")", pytrace=False)
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
    want = [Card(suit, face) for suit in COURSE_ORDER for face in range(1, 14)]
    assert dealt == want, (f"a Deck of create_card_array() should deal As 2s ... Kh, in that order; it dealt "
                           f"{' '.join(map(str, dealt[:5]))} ... ({len(dealt)} cards)")


@pytest.mark.points(0)
def test_create_card_array_returns_fresh_list() -> None:
    """create_card_array() returns a new list each call, so shuffling one does not change the next."""
    first = create_card_array()
    first.reverse()
    again = create_card_array()
    assert again is not first and again[0] == Card(Suit.SPADES, 1), \
        (f"after reversing the list one create_card_array() call returned, the next call began with {again[0]}, "
         f"not As: create_card_array() should build a new list at every call, not hand out one shared list")
    assert Counter(again) == Counter(first), "create_card_array() should return the same 52 cards at every call"


@pytest.mark.points(0)
def test_deck_has_len_and_keeps_own_copy() -> None:
    """len(deck) counts cards left, and changing the list afterwards does not change the deck."""
    cards = parse_cards("As 7d Kh")
    deck = Deck(cards)
    cards.clear()
    assert len(deck) == 3, f"Deck([As, 7d, Kh]), then the list cleared: len(deck) should still be 3, got {len(deck)}"
    deck.deal()
    assert len(deck) == 2, f"Deck([As, 7d, Kh]) after one deal: len(deck) should be 2, got {len(deck)}"
