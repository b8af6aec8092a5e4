"""Advanced play: the mechanics of double down, split and insurance, and when a hand may double or split.

Milestone 2 (weeks 2-3), "advanced play ... allowing players to double down, split,
insurance" (the course). :class:`~blackjack.round.Round` keeps the state machine (whose
turn it is, the phases, the offers, settling the hands) and calls these functions for the
mechanics, so each rule is written once, here (``milestones/specs/milestone2.md`` lists them).

What stays the round's (given): the insurance offer itself (an ace up, under rules with
insurance, before anyone plays; any amount within :func:`insurance_limit` is accepted),
settling insurance before any hand, a hand's second card at once after a split when it is
the first of the two, a bust or a Blitz settled as soon as its card is dealt, a 21 that
needs no decision, surrender's offer and settlement (late and early), Thunderjack and Blitz.

Every function here returns a value or changes the table only through its ``Play``; none
prints or reads input. Money is exact (``int`` or ``Fraction``), never a float.

>>> from blackjack import Hand, Rules, parse_cards
>>> split_aces(Hand(parse_cards("As 9d"), from_split=True)), split_aces(Hand(parse_cards("As 9d")))
(True, False)
>>> insurance_limit(10, 1000), insurance_limit(Fraction(15), 4), insurance_net(5, True), insurance_net(5, False)
(5, 4, 10, -5)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol

from .cards import Card
from .hand import Hand
from .money import Money, format_money, match_stake
from .rules import Rules

__all__ = ["Play", "deal_split_card", "double_down", "insurance_limit", "insurance_net", "split", "split_aces",
           "why_not_double", "why_not_split", "why_not_surrender"]


class Play(Protocol):
    """The hand whose turn it is, and what a play may do with it (the round's side of the mechanics).

    :class:`~blackjack.round.Round` hands one to each function here; front ends and
    tests never build one. Reading it changes nothing; each method is one move at the
    table, with the money exact and every card from the shoe.
    """

    @property
    def rules(self) -> Rules:
        """The table rules."""

    @property
    def hand(self) -> Hand:
        """The hand being played."""

    @property
    def bet(self) -> Money:
        """This hand's stake, in credits."""

    @property
    def bankroll(self) -> Money:
        """The player's credits not on the table."""

    @property
    def seat_hands(self) -> int:
        """How many hands the player's seat holds (1 until a split)."""

    def replace_hand(self, hand: Hand) -> None:
        """Make ``hand`` the hand being played, in place of the one it holds; its stake stays.

        A split keeps one card of the pair in a new :class:`Hand`.

        Raises:
            TypeError: ``hand`` is not a :class:`Hand`.
        """

    def draw(self) -> Card:
        """Deal this hand one card from the shoe and return it.

        A card that busts the hand, or makes a Blitz, settles it at once; one that makes
        21 ends it (there is nothing left to decide).
        """

    def take_stake(self, amount: Money) -> None:
        """Take ``amount`` credits from the player's bankroll and add them to this hand's stake.

        Raises:
            InvalidBetError: the bankroll holds less than ``amount`` (nothing changes).
        """

    def add_hand(self, hand: Hand, stake: Money) -> None:
        """Give the player's seat ``hand`` as its next hand, right after this one, staked ``stake`` from the bankroll.

        Play reaches it when this hand is done.

        Raises:
            TypeError: ``hand`` is not a :class:`Hand`.
            InvalidBetError: the bankroll holds less than ``stake`` (nothing changes).
        """

    def end_hand(self) -> None:
        """End this hand: it takes no more cards or decisions, and play moves on when the play returns."""


def split_aces(hand: Hand) -> bool:
    """Return True for a hand made by splitting aces (made by a split, and its first card an ace).

    Such a hand takes one card unless ``rules.hit_split_aces``, may not double, and splits
    again only with ``rules.resplit_aces`` (the usual casino rules; Wizard of Odds,
    "Blackjack rules").
    """
    return hand.from_split and len(hand) > 0 and hand[0].face == 1


def why_not_double(play: Play) -> str | None:
    """Say why the rules or the bankroll forbid doubling down on ``play``'s hand, or return None when it may double.

    The rules: only a two-card hand; on the two-card totals ``rules.double_on`` allows
    (``"any"``, ``"9-11"``, ``"10-11"`` or ``"none"``); after a split only with
    ``rules.double_after_split``; never on split aces; and only with the bankroll to
    match the bet.

    Returns:
        One line a player can read, e.g. ``"these rules double only on 10 or 11, and
        this hand is 9"``; None when doubling down is allowed.
    """
    # BEGIN SOLUTION m2: return a one-line reason why the rules or the bankroll forbid doubling down on this hand, or None when it may double
    rules = play.rules
    hand = play.hand
    if len(hand) != 2:
        return f"this hand has {len(hand)} cards; only a two-card hand may double"
    double_on = rules.double_on
    if double_on != "any":  # the total is asked for only when the rules limit doubling by it
        if double_on == "none":
            return "these rules do not allow doubling down"
        total = hand.get_score()
        if double_on == "9-11" and not 9 <= total <= 11:
            return f"these rules double only on 9, 10 or 11, and this hand is {hand.total_text()}"
        if double_on == "10-11" and not 10 <= total <= 11:
            return f"these rules double only on 10 or 11, and this hand is {hand.total_text()}"
    if hand.from_split:
        if not rules.double_after_split:
            return "these rules do not allow doubling after a split"
        if split_aces(hand):
            return "split aces cannot double"
    bet, bankroll = play.bet, play.bankroll
    if bankroll < bet:
        return f"doubling needs {format_money(bet)} more and the bankroll holds {format_money(bankroll)}"
    return None
    # END SOLUTION


def why_not_split(play: Play) -> str | None:
    """Say why the rules or the bankroll forbid splitting ``play``'s hand, or return None when it may split.

    The rules: only a two-card pair (equal rank, or equal value when ``rules.split_by``
    is ``"value"``, so K-Q is a pair only then); while the seat holds fewer than
    ``rules.max_split_hands`` hands (1 forbids splitting); split aces again only with
    ``rules.resplit_aces``; and only with the bankroll to match the bet.

    Returns:
        One line a player can read; None when splitting is allowed.
    """
    # BEGIN SOLUTION m2: return a one-line reason why the rules or the bankroll forbid splitting this hand, or None when it may split
    rules = play.rules
    hand = play.hand
    if len(hand) != 2:
        return f"this hand has {len(hand)} cards; only a two-card hand may split"
    if not hand.is_pair(by=rules.split_by):
        kind = "rank" if rules.split_by == "rank" else "value"
        return f"this hand is not a pair (two cards of equal {kind})"
    most = rules.max_split_hands
    if play.seat_hands >= most:
        return "these rules do not allow splitting" if most == 1 else f"a seat may hold at most {most} hands"
    if split_aces(hand) and not rules.resplit_aces:
        return "these rules do not allow resplitting aces"
    bet, bankroll = play.bet, play.bankroll
    if bankroll < bet:
        return f"splitting needs {format_money(bet)} more and the bankroll holds {format_money(bankroll)}"
    return None
    # END SOLUTION


def why_not_surrender(play: Play, *, offered_early: bool) -> str | None:
    """Say why the rules forbid surrendering ``play``'s hand in play, or return None when it may surrender (given).

    Only a two-card hand that is not from a split, under rules with surrender
    (``rules.surrender``: ``"late"`` or ``"early"``). ``offered_early``: the upcard may
    hide a natural, so early surrender was offered before the dealer checked for
    blackjack (the round's offer), and not in play.
    """
    rules = play.rules
    hand = play.hand
    if len(hand) != 2:
        return f"this hand has {len(hand)} cards; only a two-card hand may surrender"
    if rules.surrender == "none":
        return "these rules do not allow surrender"
    if rules.surrender == "early" and offered_early:
        return "early surrender was offered before the dealer checked for blackjack"
    if hand.from_split or play.seat_hands > 1:
        return "a split hand cannot surrender"
    return None


def double_down(play: Play) -> None:
    """Double down on ``play``'s hand: a second stake equal to the bet, exactly one more card, and the hand ends.

    The round calls it only when :func:`why_not_double` allows it. The doubled hand wins
    or loses twice the bet; a card that busts it settles it at once (``Play.draw``).
    """
    # BEGIN SOLUTION m2: take a second stake equal to the bet from the bankroll, deal the hand exactly one card, and end the hand
    play.take_stake(play.bet)
    play.draw()
    play.end_hand()
    # END SOLUTION


def split(play: Play) -> None:
    """Split ``play``'s pair into two hands of one card each, the new one after this one with a stake of the bet.

    Both hands are made by a split (``Hand(..., from_split=True)``), so an ace and a ten
    on one of them is 21, paid 1:1, never a natural. The new hand's stake, equal to the
    bet, comes from the bankroll. The round calls it only when :func:`why_not_split`
    allows it; then, as play reaches each of the two hands, :func:`deal_split_card`
    deals its second card (the first hand's at once).
    """
    # BEGIN SOLUTION m2: make two hands of one card each from the pair, both marked as made by a split, the new one after this one staked with the bet from the bankroll
    first, second = play.hand.cards
    play.replace_hand(Hand([first], from_split=True))
    play.add_hand(Hand([second], from_split=True), play.bet)
    # END SOLUTION


def deal_split_card(play: Play) -> None:
    """Deal a hand made by a split, which holds one card, its second card, when play reaches it.

    Split aces then take no more cards (``rules.hit_split_aces`` lets them play on) and
    end, unless the hand may be split again (:func:`why_not_split`: a second ace with
    ``rules.resplit_aces``, under the seat's hand limit).
    """
    # BEGIN SOLUTION m2: give the split hand its second card; split aces then end unless the rules let them hit or the hand may split again
    play.draw()
    if split_aces(play.hand) and not play.rules.hit_split_aces and why_not_split(play) is not None:
        play.end_hand()
    # END SOLUTION


def insurance_limit(bet: Money, bankroll: Money) -> Money:
    """Return the largest insurance stake on a bet of ``bet``: half the bet, or the whole bankroll if that is less.

    Insurance (and even money on a natural) is a side bet of up to half the bet that the
    dealer's ace hides a natural (Wizard of Odds, "Insurance"). The amount is exact, in
    the bet's type when it is whole (:func:`~blackjack.money.match_stake`: half of an
    ``int`` 10 is ``5``, half of 5 is ``Fraction(5, 2)``), never a float.
    """
    # BEGIN SOLUTION m2: return half the bet as exact money, or the whole bankroll if that is less
    return min(match_stake(Fraction(bet) / 2, bet), bankroll)
    # END SOLUTION


def insurance_net(stake: Money, dealer_natural: bool) -> Money:
    """Return the net gain of an insurance stake of ``stake`` once the dealer's hand is known.

    Insurance pays 2:1 when the dealer has a natural (a stake of 5 gains 10) and is lost
    otherwise (-5). The round settles it before any hand, and pays the stake back with a
    win.
    """
    # BEGIN SOLUTION m2: return twice the stake when the dealer has a natural, else minus the stake
    return 2 * stake if dealer_natural else -stake
    # END SOLUTION
