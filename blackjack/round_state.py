"""What a round holds, and every question about it that changes nothing (``Round``'s base; docs/api.md).

A ``HandState`` is a hand in play and the :class:`~blackjack.plays.Play` that :mod:`blackjack.plays` acts on:
its cards come from the round (:attr:`Seat.give`), its extra stakes by the round's money path.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .actions import Action, Phase
from .cards import Card
from .deck import Shoe
from .events import Outcome
from .hand import Hand
from .money import Money
from .player import Dealer, Player
from .plays import insurance_limit, split_aces, why_not_double, why_not_split, why_not_surrender
from .rules import Rules
from .view import HIDDEN, DealerView, HandView, Hidden, SeatView, TableView

__all__ = ["HandState", "RoundState", "Seat", "is_thunderjack"]

# Enum members as module constants: on Python 3.11 every ``Phase.X`` lookup is slow (see blackjack.round).
_INSURANCE_PHASE, _EARLY_SURRENDER, _PLAYER_TURN = Phase.INSURANCE, Phase.EARLY_SURRENDER, Phase.PLAYER_TURN
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER, _INSURANCE, _DECLINE = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER, Action.INSURANCE, Action.DECLINE)

_ZERO = Fraction(0)  # Fractions are immutable: one shared zero saves building one per round


class HandState:
    """A player hand with its wager and progress, and the :class:`~blackjack.plays.Play` for it.

    ``natural`` is decided once, when the hand's second card is in (at the deal for an
    opening hand): only a hand's first two cards can make a natural, and a hand made by a
    split never is one (:meth:`Hand.is_blackjack`). ``total`` is ``hand.get_score()`` as
    of the hand's last card, so settlement need not ask again.
    """

    # Slots: the simulator asks whether a hand may double or split at most decisions.
    __slots__ = ("hand", "bet", "doubled", "surrendered", "finished", "outcome", "natural", "total", "seat", "rules")

    def __init__(self, hand: Hand, bet: Money, seat: Seat) -> None:
        self.seat = seat
        self.rules = seat.rules
        self.start(hand, bet)

    def start(self, hand: Hand, bet: Money) -> None:
        """Set the state a hand starts from (a recycled round restarts its seats' opening hands with it)."""
        self.hand = hand
        self.bet = bet
        self.doubled = False
        self.surrendered = False
        self.finished = False
        self.outcome: Outcome | None = None
        self.natural = False
        self.total = 0

    # ------------------------------------------------------------ blackjack.plays.Play
    @property
    def bankroll(self) -> Money:
        """The player's credits not on the table."""
        return self.seat.player.bankroll

    @property
    def seat_hands(self) -> int:
        """How many hands the seat holds."""
        return len(self.seat.hands)

    def replace_hand(self, hand: Hand) -> None:
        """Make ``hand`` the hand being played, in place of the one it holds (its stake stays)."""
        if not isinstance(hand, Hand):
            raise TypeError(f"a play's hand is a Hand, not {type(hand).__name__}")
        self.hand = hand
        self.total = hand.get_score()

    def draw(self) -> Card:
        """Deal this hand one card from the round's shoe and return it."""
        seat = self.seat
        return seat.give(seat.index, seat.hands.index(self))

    def take_stake(self, amount: Money) -> None:
        """Move ``amount`` from the bankroll onto this hand's stake."""
        seat = self.seat
        seat.take_stake(seat.player, amount)
        self.bet = self.bet + amount

    def add_hand(self, hand: Hand, stake: Money) -> None:
        """Put ``hand``, staked ``stake`` from the bankroll, into the seat right after this hand."""
        if not isinstance(hand, Hand):
            raise TypeError(f"a seat's hand is a Hand, not {type(hand).__name__}")
        seat = self.seat
        seat.take_stake(seat.player, stake)
        new = HandState(hand, stake, seat)
        new.total = hand.get_score()
        seat.hands.insert(seat.hands.index(self) + 1, new)

    def end_hand(self) -> None:
        """This hand takes no more decisions."""
        self.finished = True


class Seat:
    """A player's place at the table for one round.

    Args:
        player: who sits here.
        index: the seat's number, 0 for the leftmost.
        rules: the table rules.
        give: deals one card to ``(seat, hand)`` and returns it (the round's).
        take_stake: moves an extra stake from a bankroll to the table (the round's money path).
    """

    __slots__ = ("player", "index", "rules", "give", "take_stake", "bet", "hands", "insurance", "insurance_won",
                 "spare")

    def __init__(self, player: Player, index: int, rules: Rules, give: Callable[[int, int], Card],
                 take_stake: Callable[[Player, Money], None]) -> None:
        self.player = player
        self.index = index
        self.rules = rules
        self.give = give
        self.take_stake = take_stake
        #: last round's opening hand, kept by a recycled round for open_hand() to reuse
        self.spare: HandState | None = None
        self.clear()

    def clear(self) -> None:
        """Empty the seat for a new round: no bet, no hands, no insurance."""
        self.bet: Money = _ZERO
        self.hands: list[HandState] = []
        self.insurance: Money | None = None
        #: insurance's net gain once settled (:func:`blackjack.plays.insurance_net`)
        self.insurance_won: Money = _ZERO

    def open_hand(self) -> Hand:
        """Give the seat its opening hand for its bet, no cards yet (a recycled round's ``spare``); return it."""
        spare = self.spare
        if spare is None:
            hand = Hand()
            self.hands = [HandState(hand, self.bet, self)]
            return hand
        self.spare = None
        hand = spare.hand
        hand.clear()
        spare.start(hand, self.bet)
        self.hands = [spare]
        return hand


def is_thunderjack(hand: Hand) -> bool:
    """A suited natural whose other card is a jack, queen or king (Thunderjack dev blog)."""
    if not hand.is_blackjack():
        return False
    first, second = hand.cards
    return first.suit is second.suit and max(first.face, second.face) >= 11


class RoundState:
    """The state of one round and the questions that change nothing (the base of :class:`~blackjack.round.Round`)."""

    # Slots: a round is made for every simulated hand, and slots make it cheaper to build and to read.
    __slots__ = ("rules", "shoe", "dealer", "_seats", "_listeners", "_record", "_take", "_take_for_dealer", "phase",
                 "_optional", "_paid", "_most_cards", "_turn", "_queue", "_peeked", "_insurance_settled",
                 "_dealer_natural", "_may_natural", "_naturals", "_insured", "_split", "history", "house_net",
                 "_pending", "_money")

    rules: Rules  # what the questions below read; Round sets them all
    shoe: Shoe
    dealer: Dealer
    phase: Phase
    _seats: list[Seat]
    _turn: tuple[int, int] | None
    _optional: tuple[Action, ...]  # the two-card options these rules offer at all (cs111: none)
    _may_natural: bool  # only an ace or ten up can hide a natural
    _insurance_settled: bool

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
        for seat in self._seats:
            j = 0  # plain loops and a counter: on Python 3.11 they beat enumerate and a comprehension here
            for state in seat.hands:
                if state.outcome is not None:
                    settled.append((seat.index, j, state.outcome))
                j += 1
        return settled

    def insurance_net(self, seat: int) -> Money:
        """Seat ``seat``'s gain from insurance (:func:`blackjack.plays.insurance_net`); 0 if none or not yet settled."""
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
        for seat in self._seats:
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
        if self.is_legal(_HIT):
            actions.add(_HIT)
        optional = self._optional
        if optional and len(hand) == 2:
            state = seat.hands[hand_index]
            actions.update(action for action in optional if self._why_not(action, state) is None)
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
        if action is _HIT:  # split aces take one card each, unless rules.hit_split_aces
            return not hand.from_split or self.rules.hit_split_aces or not split_aces(hand)
        return action in self._optional and len(hand) == 2 and self._why_not(action, state) is None

    def _why_not(self, action: Action, state: HandState) -> str | None:
        """Why ``state``'s hand may not take DOUBLE, SPLIT or SURRENDER (:mod:`blackjack.plays`), or None."""
        if action is _DOUBLE:
            return why_not_double(state)
        if action is _SPLIT:
            return why_not_split(state)
        return why_not_surrender(state, offered_early=self._may_natural)

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
        return f"cannot {action.value}: {self._why_not(action, seat.hands[hand_index])}"

    # =========================================================================== views
    def unseen_counts(self) -> dict[int, int]:
        """Cards the players have not seen, by point value 1..10: the undealt shoe plus a face-down hole card."""
        counts = self.shoe.counts()
        if self._hole_hidden():
            counts[self.dealer.hand[1].get_value()] += 1
        return counts

    def _hole_hidden(self) -> bool:
        return len(self.dealer.hand) > 1 and not self.dealer.revealed

    def view(self) -> TableView:
        """Return a frozen snapshot for front ends and hints; the hole card is :data:`HIDDEN`."""
        dealer, rules, shoe = self.dealer, self.rules, self.shoe
        legal = self.legal_actions()
        limit = self.insurance_limit() if _INSURANCE in legal else None
        unseen = self.unseen_counts()
        dealer_cards: list[Card | Hidden] = list(dealer.hand)
        hidden = self._hole_hidden()
        if hidden:
            dealer_cards[1] = HIDDEN
        visible = Hand([c for c in dealer_cards if isinstance(c, Card)])
        dealer_view = DealerView(cards=tuple(dealer_cards), upcard=dealer.hand[0] if dealer.hand else None,
                                 total=visible.get_score(), total_text=visible.total_text() if visible else "",
                                 revealed=not hidden)
        seat_views = tuple(
            SeatView(index=i, name=seat.player.name, bankroll=seat.player.bankroll, bet=seat.bet,
                     insurance=seat.insurance, hands=tuple(_hand_view(h, rules) for h in seat.hands))
            for i, seat in enumerate(self._seats))
        return TableView(phase=self.phase, rules=rules, dealer=dealer_view, seats=seat_views, turn=self._turn,
                         legal_actions=legal, cards_remaining=len(shoe), discards=len(shoe.discards),
                         unseen_counts=unseen, decks=shoe.decks, insurance_limit=limit)

    def insurance_limit(self) -> Money | None:
        """The largest insurance (or even money) stake the deciding seat may take now, in credits, or None.

        :func:`blackjack.plays.insurance_limit` of the seat's bet and bankroll; also the stake
        ``apply(Action.INSURANCE)`` takes when no amount is given. None when no offer waits for an answer.
        """
        if self.phase is not _INSURANCE_PHASE or self._turn is None:
            return None
        seat = self._seats[self._turn[0]]
        return insurance_limit(seat.bet, seat.player.bankroll)


def _hand_view(state: HandState, rules: Rules) -> HandView:
    hand = state.hand
    return HandView(cards=hand.cards, total=hand.get_score(), soft=hand.is_soft(),
                    total_text=hand.total_text(), bet=state.bet, doubled=state.doubled,
                    surrendered=state.surrendered, from_split=hand.from_split,
                    is_blackjack=rules.naturals and hand.is_blackjack(), is_bust=hand.is_bust(),
                    finished=state.finished, outcome=state.outcome,
                    is_thunderjack=rules.thunderjack_pays is not None and is_thunderjack(hand))
