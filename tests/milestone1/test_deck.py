"""Milestone 1, Deck: create the deck and deal from it (cs111 week 1; 4 points).

The course: "createCardArray() should return an array of 52 cards ... A-K of Spades,
then A-K of Diamonds, then A-K of Clubs, then A-K of Hearts", and a Deck hands the cards
out with ``deal()`` until ``isEmpty()``. The shuffle has its own tests
(``test_shuffle.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from milestones.grader.judge import Raised, Student

#: The suits by their letter in a card's code, in the order of Suit (createCardArray's order).
COURSE_ORDER = {"s": "spades", "d": "diamonds", "c": "clubs", "h": "hearts"}
FACE_CODES = "A23456789TJQK"
#: The 52 codes in course order: As 2s .. Ks Ad .. Kh.
COURSE_DECK = [face + suit for suit in COURSE_ORDER for face in FACE_CODES]


def shown(card: object) -> str:
    """A card the student's process sent: its code ("As"), or what came instead."""
    return card if isinstance(card, str) else repr(card)


@pytest.mark.points(1)
def test_create_card_array_is_ace_to_king_of_each_suit_in_course_order(student: Student) -> None:
    """create_card_array() returns 52 cards: A-K of spades, then diamonds, clubs and hearts (cs111 spec)."""
    try:
        got = student("card_array")
    except Raised as err:
        if not err.is_a("InvalidCardError") or err.imported:
            raise
        pytest.fail(f"create_card_array() made a card the Card class refuses: {err.message}. A face goes from 1 (ace) "
                    f"to 13 (king), and range(13) counts 0 to 12: the faces must start at 1 and end with 13",
                    pytrace=False)
    assert got["is_list"], \
        f"create_card_array() should return a list of 52 Card objects; it returned {got['type']} {got['repr']}"
    cards = got["cards"]
    assert len(cards) == 52, \
        f"create_card_array() should return 52 cards (13 faces x 4 suits); it returned {len(cards)}"
    wrong = [f"card {i + 1} should be {want}, got {shown(have)}"
             for i, (have, want) in enumerate(zip(cards, COURSE_DECK)) if have != want]
    suits = list(dict.fromkeys(COURSE_ORDER[card[-1]] for card in cards
                                 if isinstance(card, str) and card[-1:] in COURSE_ORDER))
    order = (f"; the suits came as {', '.join(suits)}, and createCardArray() wants spades, diamonds, clubs, hearts "
             f"(the order of Suit; the course's Deck constructor lists another order, which the tests do not use)"
             if len(suits) == 4 and suits != list(COURSE_ORDER.values()) else "")
    assert not wrong, (f"create_card_array() should be A-K of spades, then A-K of diamonds, clubs, hearts "
                       f"(As 2s .. Ks Ad .. Kh): {'; '.join(wrong[:3])}" + (" ..." if len(wrong) > 3 else "") + order)


@pytest.mark.points(1)
def test_deal_gives_cards_top_first(student: Student) -> None:
    """Deck.deal() returns the cards in the order the deck was made with, the first one first."""
    cards = ["As", "7d", "Kh"]
    dealt = student("deals", " ".join(cards), 3)
    assert dealt == cards, (f"Deck([As, 7d, Kh]) should deal As, then 7d, then Kh; got {', '.join(map(shown, dealt))}"
                            + (": the deck keeps its cards last-to-deal first (see Deck.__init__: the next card is "
                               "at the end of self._cards), so deal() takes the card from the end"
                               if dealt == cards[::-1] else ""))


@pytest.mark.points(1)
def test_is_empty_only_after_the_last_card(student: Student) -> None:
    """is_empty() is False while cards are left and True once the last one is dealt."""
    states = student("emptiness", ["As 7d", "7d", ""])
    assert states == [False, False, True], \
        (f"is_empty() of a 2-card deck before, after one deal, after two deals (decks made with [As, 7d], [7d] and [], "
         f"so that deal() plays no part) should be [False, False, True]; got "
         f"{states}" + (": is_empty() returned None, so some way through it ends without return; return True or "
                        "False on every path (return len(...) == 0 does both)" if None in states else ""))


@pytest.mark.points(1)
def test_deal_from_empty_deck_raises_clear_error(student: Student) -> None:
    """Dealing from an empty deck raises EmptyShoeError (a LookupError) that says the deck is empty."""
    student("deals", "As", 1)  # the first deal must work (its error, if any, is the message)
    try:
        card = student("deals", "As", 2)[1]
    except Raised as err:
        if err.imported:
            raise
        if not err.is_a("EmptyShoeError"):  # e.g. IndexError from pop() on an empty list
            pytest.fail(f"Deck([As]) dealt As, then deal() again raised {err.type}({err.message!r}); it should raise "
                        f"EmptyShoeError with a message that says the deck is empty: check for an empty deck first, "
                        f"then raise EmptyShoeError(\"the deck is empty\")", pytrace=False)
        message = err.message
    else:
        pytest.fail(f"Deck([As]) dealt As, then deal() again returned "
                    f"{f'Card.parse({card!r})' if isinstance(card, str) else repr(card)} instead of raising "
                    f"EmptyShoeError: a deck with no card left must raise, never hand out a card it does not hold",
                    pytrace=False)
    assert "empty" in message.lower(), \
        f"deal() on an empty deck raised EmptyShoeError({message!r}): the message should say the deck is empty"


# ---------------------------------------------------------------- no points: more of the contract

@pytest.mark.points(0)
def test_new_deck_deals_in_course_order(student: Student) -> None:
    """A Deck of create_card_array() deals A-K of spades, then diamonds, clubs and hearts."""
    got = student("deal_new_deck")
    dealt = got["dealt"]
    assert got["emptied"], \
        (f"dealing from a deck, is_empty() was still False after 10,000 deals (the last card dealt: "
         f"{shown(dealt[-1])}): is_empty() should be True once no card is left")
    assert dealt == COURSE_DECK, (f"a Deck of create_card_array() should deal As 2s ... Kh, in that order; it dealt "
                                  f"{' '.join(map(shown, dealt[:5]))} ... ({len(dealt)} cards)")


@pytest.mark.points(0)
def test_create_card_array_returns_fresh_list(student: Student) -> None:
    """create_card_array() returns a new list each call, so shuffling one does not change the next."""
    got = student("fresh_lists")
    again = got["again"]
    assert not got["same_list"] and again[:1] == ["As"], \
        (f"after reversing the list one create_card_array() call returned, the next call began with "
         f"{shown(again[0]) if again else 'no card'}, not As: create_card_array() should build a new list at every "
         f"call, not hand out one shared list")
    assert Counter(map(shown, again)) == Counter(map(shown, got["first"])), \
        "create_card_array() should return the same 52 cards at every call"


@pytest.mark.points(0)
def test_deck_has_len_and_keeps_own_copy(student: Student) -> None:
    """len(deck) counts cards left, and changing the list afterwards does not change the deck."""
    got = student("own_copy", "As 7d Kh")
    assert got["before"] == 3, \
        f"Deck([As, 7d, Kh]), then the list cleared: len(deck) should still be 3, got {got['before']}"
    assert got["after_deal"] == 2, f"Deck([As, 7d, Kh]) after one deal: len(deck) should be 2, got {got['after_deal']}"
