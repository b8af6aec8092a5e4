"""What a front end may see of a round: frozen snapshots with the hole card hidden.

``Round.view()`` returns a :class:`TableView`. Until the dealer reveals it, the hole
card is the sentinel :data:`HIDDEN`, and nothing reachable from the view holds it:
``unseen_counts`` lumps the hole card in with the undealt shoe, exactly as a player
at the table would count. Front ends and the hint system take only views.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from .actions import Action, Phase
from .cards import Card
from .events import Outcome
from .money import Money
from .rules import Rules

__all__ = ["HIDDEN", "DealerView", "HandView", "Hidden", "SeatView", "TableView"]


class Hidden(enum.Enum):
    """The type of :data:`HIDDEN`, the face-down card."""

    CARD = "??"

    def __str__(self) -> str:
        return "??"


#: Stands in a view for the dealer's face-down hole card.
HIDDEN = Hidden.CARD


@dataclass(frozen=True, slots=True)
class HandView:
    """One player hand as the table shows it.

    Attributes:
        cards: the cards, in order received.
        total: the best total (see ``Hand.get_score``).
        soft: an ace is counted as 11.
        total_text: ``"7 / 17"`` for soft totals, else ``"17"``.
        bet: credits staked on the hand (doubled bets included).
        doubled: the hand was doubled down.
        surrendered: the hand was surrendered.
        from_split: the hand came from a split.
        is_blackjack: a natural (two cards, 21, not from a split) where the rules have naturals.
        is_bust: over 21.
        finished: the hand takes no more decisions.
        outcome: the settled result and money, or None while open.
        is_thunderjack: a Thunderjack (a suited natural with a jack, queen or king) under
            rules that pay one; two or more at the table push each other.
    """

    cards: tuple[Card, ...]
    total: int
    soft: bool
    total_text: str
    bet: Money
    doubled: bool
    surrendered: bool
    from_split: bool
    is_blackjack: bool
    is_bust: bool
    finished: bool
    outcome: Outcome | None
    is_thunderjack: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: the player, their money and their hands this round.

    Attributes:
        index: the seat number, 0-based, left to right.
        name: the player's name.
        bankroll: credits not on the table.
        bet: the round's initial bet (0 when sitting out).
        insurance: the insurance stake, 0 if declined, None while undecided or not offered.
        hands: the seat's hands, left to right (more than one after a split).
    """

    index: int
    name: str
    bankroll: Money
    bet: Money
    insurance: Money | None
    hands: tuple[HandView, ...]


@dataclass(frozen=True, slots=True)
class DealerView:
    """The dealer's hand as players see it.

    Attributes:
        cards: the cards, the hole card :data:`HIDDEN` until revealed.
        upcard: the first, face-up card, or None before the deal.
        total: the total of the face-up cards only.
        total_text: ``total`` shown as on the table, ``"7 / 17"`` when soft.
        revealed: the hole card has been turned over (or there is none to hide).
    """

    cards: tuple[Card | Hidden, ...]
    upcard: Card | None
    total: int
    total_text: str
    revealed: bool


@dataclass(frozen=True, slots=True)
class TableView:
    """A snapshot of the round for front ends and hints; it never holds a hidden card.

    Attributes:
        phase: where the round is.
        rules: the table's rules.
        dealer: the dealer's visible hand.
        seats: every seat, including those sitting out (no hands).
        turn: ``(seat, hand)`` whose decision it is, or None.
        legal_actions: the actions :meth:`Round.apply` accepts now.
        cards_remaining: undealt cards in the shoe.
        discards: cards on the discard pile.
        unseen_counts: point value 1..10 -> cards not yet seen by the players (the
            undealt shoe plus a face-down hole card); what counting and exact hints use.
        decks: decks in the shoe.
        insurance_limit: the largest insurance stake the deciding seat may take now
            (:meth:`Round.insurance_limit`), or None when insurance is not on offer to it.
    """

    phase: Phase
    rules: Rules
    dealer: DealerView
    seats: tuple[SeatView, ...]
    turn: tuple[int, int] | None
    legal_actions: frozenset[Action]
    cards_remaining: int
    discards: int
    unseen_counts: Mapping[int, int]
    decks: int
    insurance_limit: Money | None = None

    @property
    def current_hand(self) -> HandView | None:
        """The hand whose decision it is, or None."""
        if self.turn is None:
            return None
        seat, hand = self.turn
        return self.seats[seat].hands[hand]

    @property
    def current_seat(self) -> SeatView | None:
        """The seat whose decision it is, or None."""
        return None if self.turn is None else self.seats[self.turn[0]]

    @property
    def even_money(self) -> bool:
        """True when the insurance offer waiting for an answer is even money: the deciding hand is a natural."""
        hand = self.current_hand
        return self.phase is Phase.INSURANCE and hand is not None and hand.is_blackjack
