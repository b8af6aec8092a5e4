"""What a round holds, and every question about it: whose turn, what is legal, the table's view (internal).

:class:`~blackjack.round.Round` runs the round and is the class to use; this base class
holds its state and answers the questions that change nothing (``legal_actions``,
``is_legal``, ``view``, ``outcomes`` ...), so each rule of play is asked in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .actions import Action, Phase
from .cards import Card
from .deck import Shoe
from .events import Event, Outcome
from .hand import Hand
from .money import Money
from .money_path import MoneyPath
from .player import Dealer, Player
from .plays import insurance_limit, split_aces, why_not_double, why_not_split, why_not_surrender
from .rules import Rules
from .seats import Seat
from .snapshot import hole_hidden, table_view
from .view import TableView

__all__ = ["RoundState"]

# Enum members as module constants: on Python 3.11 every ``Phase.X`` lookup runs through
# EnumType.__getattr__'s slow path (see blackjack.round).
_INSURANCE_PHASE, _EARLY_SURRENDER, _PLAYER_TURN = Phase.INSURANCE, Phase.EARLY_SURRENDER, Phase.PLAYER_TURN
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER, _INSURANCE, _DECLINE = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER, Action.INSURANCE, Action.DECLINE)

_ZERO = Fraction(0)


class RoundState:
    """The state of one round and the questions that change nothing (the base of :class:`~blackjack.round.Round`)."""

    # Slots: a round is made for every simulated hand, and slots make it cheaper to build and to read.
    __slots__ = ("rules", "shoe", "dealer", "_seats", "_listeners", "_record", "_take", "_take_for_dealer", "phase",
                 "_optional", "_paid", "_most_cards", "_turn", "_queue", "_peeked", "_insurance_settled",
                 "_dealer_natural", "_may_natural", "_naturals", "_insured", "_split", "history", "house_net",
                 "_pending", "_money")

    rules: Rules
    shoe: Shoe
    dealer: Dealer
    phase: Phase
    #: Every decision taken, in order: ``(seat, hand, action)``.
    history: list[tuple[int, int, Action]]
    #: The house's gain this round in credits (minus the players' total net).
    house_net: Money
    _seats: list[Seat]
    _listeners: list[Callable[[Event], None]]
    _record: bool  # build event objects
    _take: Callable[[], Card]
    _take_for_dealer: Callable[[], Card]
    _optional: tuple[Action, ...]  # the two-card options these rules offer at all (cs111: none)
    _paid: dict[tuple[str, int], Outcome]
    _most_cards: int
    _turn: tuple[int, int] | None
    _queue: list[int]
    _peeked: bool
    _insurance_settled: bool
    _dealer_natural: bool | None
    _may_natural: bool
    _naturals: int
    _insured: bool
    _split: bool
    _pending: list[Event]
    _money: MoneyPath

    # ===================================================================== reading state
    @property
    def players(self) -> tuple[Player, ...]:
        """The players, seat by seat."""
        return tuple(seat.player for seat in self._seats)

    @property
    def turn(self) -> tuple[int, int] | None:
        """``(seat, hand)`` whose decision it is, or None (betting, dealer's turn, settled)."""
        return self._turn

    @property
    def current_player(self) -> Player | None:
        """The player whose decision it is, or None."""
        return None if self._turn is None else self._seats[self._turn[0]].player

    def hands(self, seat: int) -> tuple[Hand, ...]:
        """The hands of seat ``seat`` this round (one, or more after splits)."""
        return tuple(h.hand for h in self._seats[seat].hands)

    @property
    def current_hand(self) -> Hand | None:
        """The hand whose decision it is (the seat's first hand during an offer), or None."""
        turn = self._turn
        return None if turn is None else self._seats[turn[0]].hands[turn[1]].hand

    def bet(self, seat: int) -> Money:
        """The initial bet of seat ``seat`` (0 when sitting out)."""
        return self._seats[seat].bet

    def outcomes(self) -> list[tuple[int, int, Outcome]]:
        """The settled hands so far as ``(seat, hand, Outcome)``, seat by seat."""
        settled = []
        i = 0
        for seat in self._seats:  # plain loops and counters: on Python 3.11 they beat enumerate and a comprehension here
            j = 0
            for state in seat.hands:
                if state.outcome is not None:
                    settled.append((i, j, state.outcome))
                j += 1
            i += 1
        return settled

    def insurance_net(self, seat: int) -> Money:
        """Seat ``seat``'s gain from insurance, credits (0 if none or not yet settled).

        What :func:`blackjack.plays.insurance_net` made of the stake when the insurance was settled.
        """
        target = self._seats[seat]
        if not target.insurance or not self._insurance_settled:
            return _ZERO
        return target.insurance_won

    @property
    def on_table(self) -> Money:
        """Credits staked and not yet settled (bets and insurance)."""
        total = sum((h.bet for seat in self._seats for h in seat.hands if h.outcome is None), Fraction(0))
        if not self._insurance_settled:
            total += sum((seat.insurance or 0 for seat in self._seats), Fraction(0))
        return total

    def cards_on_table(self) -> list[Card]:
        """Every card in a hand this round, players' then the dealer's (for conservation checks)."""
        cards: list[Card] = []
        for seat in self._seats:  # the hands' own lists (Hand._cards), read without copying them to tuples
            for state in seat.hands:
                cards += state.hand._cards
        cards += self.dealer.hand._cards
        return cards

    # ======================================================================== legality
    def legal_actions(self) -> frozenset[Action]:
        """The actions :meth:`apply` accepts now (empty when no decision is pending)."""
        if self._turn is None:
            return frozenset()
        seat_index, hand_index = self._turn
        seat = self._seats[seat_index]
        if self.phase is _INSURANCE_PHASE:
            if seat.player.bankroll > 0:
                return frozenset((_INSURANCE, _DECLINE))
            return frozenset((_DECLINE,))
        if self.phase is _EARLY_SURRENDER:
            return frozenset((_SURRENDER, _DECLINE))
        hand = seat.hands[hand_index].hand
        actions = {_STAND}
        if self._may_hit(hand):
            actions.add(_HIT)
        optional = self._optional
        if optional and len(hand) == 2:  # plays asked straight away: a view asks every time
            state = seat.hands[hand_index]
            for action in optional:
                if action is _DOUBLE:
                    allowed = why_not_double(state) is None
                elif action is _SPLIT:
                    allowed = why_not_split(state) is None
                else:
                    allowed = why_not_surrender(state, offered_early=self._may_natural) is None
                if allowed:
                    actions.add(action)
        return frozenset(actions)

    def is_legal(self, action: Action) -> bool:
        """Return True when :meth:`apply` would accept ``action`` now (cheaper than :meth:`legal_actions`)."""
        turn = self._turn
        if turn is None:
            return False
        phase = self.phase
        if phase is not _PLAYER_TURN:
            return action in self.legal_actions()
        state = self._seats[turn[0]].hands[turn[1]]
        hand = state.hand
        if action is _STAND:
            return True
        if action is _HIT:
            return self._may_hit(hand)
        if action in self._optional and len(hand) == 2:  # plays asked straight away: the simulator asks often
            if action is _DOUBLE:
                return why_not_double(state) is None
            if action is _SPLIT:
                return why_not_split(state) is None
            return why_not_surrender(state, offered_early=self._may_natural) is None
        return False

    def _may_hit(self, hand: Hand) -> bool:
        """Split aces take one card each, unless ``rules.hit_split_aces``; every other hand in play may hit."""
        return not hand.from_split or self.rules.hit_split_aces or not split_aces(hand)

    def _illegal_message(self, action: Action, seat_index: int, hand_index: int) -> str:
        seat = self._seats[seat_index]
        if self.phase is _INSURANCE_PHASE:
            if action is _INSURANCE:
                return f"cannot take insurance: {seat.player.name} has no credits left"
            return f"cannot {action.value} now: answer the insurance offer with insurance or decline"
        if self.phase is _EARLY_SURRENDER:
            return f"cannot {action.value} now: answer the early surrender offer with surrender or decline"
        if action is _DECLINE:
            return "nothing to decline: no insurance or early surrender offer is open"
        if action is _INSURANCE:
            if self.dealer.hand[0].face != 1:
                return "cannot take insurance: the dealer's upcard is not an ace"
            return "cannot take insurance now: it is offered only before the players act"
        if action is _HIT:
            return "cannot hit: split aces take one card each under these rules"
        state = seat.hands[hand_index]
        if action is _SURRENDER:
            reason = why_not_surrender(state, offered_early=self._may_natural)
        else:  # DOUBLE or SPLIT
            reason = why_not_double(state) if action is _DOUBLE else why_not_split(state)
        return f"cannot {action.value}: {reason}"

    # =========================================================================== views
    def unseen_counts(self) -> dict[int, int]:
        """Cards the players have not seen, by point value 1..10: the undealt shoe plus a face-down hole card.

        This is what counting and exact hints may use; it never tells the hole card apart
        from the shoe.
        """
        counts = self.shoe.counts()
        if hole_hidden(self.dealer):
            counts[self.dealer.hand[1].get_value()] += 1
        return counts

    def view(self) -> TableView:
        """Return a frozen snapshot for front ends and hints; the hole card is :data:`HIDDEN`."""
        legal = self.legal_actions()
        return table_view(self.phase, self.rules, self.dealer, self._seats, self._turn, legal,
                          self.insurance_limit() if _INSURANCE in legal else None, self.shoe, self.unseen_counts())

    def insurance_limit(self) -> Money | None:
        """The largest insurance (or even money) stake the deciding seat may take now, in credits.

        Half the seat's bet, or its whole bankroll if that is less (the usual casino limit:
        insurance pays 2:1 on at most half the bet): :func:`blackjack.plays.insurance_limit`.
        It is also the stake ``apply(Action.INSURANCE)`` takes when no amount is given.

        Returns:
            The limit, or None when no insurance offer waits for an answer.
        """
        if self.phase is not _INSURANCE_PHASE or self._turn is None:
            return None
        seat = self._seats[self._turn[0]]
        return insurance_limit(seat.bet, seat.player.bankroll)
