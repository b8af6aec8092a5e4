"""The round state machine that every front end, the simulator and the grader step through (docs/api.md).

One round at one table, with exact money; it never prints or reads. Phases (``round.phase``), in
this order, skipping those that do not apply:
BETTING -> INSURANCE -> EARLY_SURRENDER -> PLAYER_TURN -> DEALER_TURN -> SETTLED.
INSURANCE and DECLINE answer an insurance (or even money) offer, SURRENDER and DECLINE an
early-surrender offer; HIT, STAND, DOUBLE, SPLIT and SURRENDER play a hand. The mechanics are
:mod:`blackjack.plays`'s, payouts :func:`blackjack.wagers.payout`'s, money moves :mod:`blackjack.money_path`'s.

Speed: ``Round(..., events=False)``, :meth:`Round._apply_unchecked` and ``_place_bet_unchecked``
(the simulator's unchecked tier) run the same rule code, skipping only the checks and the events.

Deal order (what ``Shoe.stack`` must list) is docs/api.md's; without a hole card (European) the
dealer's second card comes after the players. After a split the first hand gets its second card
at once, each later hand when play reaches it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from .actions import Action, Phase, Result
from .cards import Card
from .deck import Shoe
from .errors import IllegalActionError, InvalidBetError, quoted
from .events import (ActionTaken, BetPlaced, CardDealt, DealerPeeked, Event, HandSettled,
                     HoleCardRevealed, InsuranceSettled, Outcome, RoundSettled, ShoeShuffled, make_outcome)
from .hand import Hand
from .money import Money, format_money, match_stake, to_money
from .money_path import money_path
from .player import Dealer, Player
from .plays import deal_split_card, double_down, insurance_net, split
from .round_state import RoundState, Seat, is_thunderjack
from .rules import Rules
from .wagers import compare_scores

__all__ = ["Round"]

Listener = Callable[[Event], None]

# Enum members as module constants: on Python 3.11 every ``Phase.X`` lookup takes EnumType.__getattr__'s slow path.
_BETTING, _INSURANCE_PHASE, _EARLY_SURRENDER, _PLAYER_TURN, _DEALER_TURN, _SETTLED = (
    Phase.BETTING, Phase.INSURANCE, Phase.EARLY_SURRENDER, Phase.PLAYER_TURN, Phase.DEALER_TURN, Phase.SETTLED)
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER, _INSURANCE = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER, Action.INSURANCE)
_PUSH, _LOSE, _BLACKJACK, _BUST, _BLITZ, _THUNDERJACK, _SURRENDER_RESULT = (
    Result.PUSH, Result.LOSE, Result.BLACKJACK, Result.BUST, Result.BLITZ, Result.THUNDERJACK, Result.SURRENDER)

_ZERO = Fraction(0)  # Fractions are immutable: one shared zero saves building one per round


class Round(RoundState):
    """One round of blackjack, stepped one decision at a time.

    Usually made by :meth:`Blackjack.new_round` / :meth:`Blackjack.start_round`.

    Args:
        rules: the table rules.
        shoe: where cards come from and go back to.
        players: the seats, left to right.
        dealer: the dealer (its hand is reset here).
        listeners: called with every event, in order, after the step that caused it.
        events: build event objects. With False and no listeners, ``deal()`` and
            ``apply()`` return ``()`` and the round runs faster (the simulator's tier);
            with listeners, events are always built.

    Raises:
        ValueError: no players, or more than ``rules.max_players``.
    """

    __slots__ = ()  # RoundState's

    def __init__(self, rules: Rules, shoe: Shoe, players: Sequence[Player], dealer: Dealer,
                 listeners: Iterable[Listener] = (), *, events: bool = True) -> None:
        if not players:
            raise ValueError("a round needs at least one player")
        if len(players) > rules.max_players:
            raise ValueError(f"these rules seat at most {rules.max_players} players, got {len(players)}")
        self.rules = rules
        self.shoe = shoe
        self.dealer = dealer
        if dealer.revealed or dealer.hand._cards:  # a fresh dealer (the table's) needs no reset
            dealer.start_round()
        self._money = money = money_path(rules)  # chosen once: the student's wagering, or no money (cs111)
        self._seats = [Seat(player, i, rules, self._give, money.take_stake) for i, player in enumerate(players)]
        self._listeners = list(listeners) if listeners else []
        self._record = record = events or bool(self._listeners)  # False: build no event objects
        if record:  # _draw notes a mid-round reshuffle; without events a card comes straight from the shoe
            self._take: Callable[[], Card] = self._draw
            self._take_for_dealer: Callable[[], Card] = self._draw_for_dealer
        else:
            self._take = self._take_for_dealer = shoe.deal
        self._optional = rules.optional_moves
        self._paid: dict[tuple[str, int], Outcome] = {}  # (result value, int stake) -> its Outcome (see _settle)
        # The most cards one round can take: a hand holds at most 21 cards below 22 and then
        # one more, and so does the dealer's. With that many left no card need test for an empty shoe.
        self._most_cards = (len(self._seats) * rules.max_split_hands + 1) * 22
        self._open()

    def _open(self) -> None:
        """Set the state every round starts from: BETTING, no turn, nothing dealt, settled or recorded."""
        self.phase = _BETTING
        self._turn = None
        self._queue: list[int] = []  # seats still to answer the current offer
        self._peeked = False
        self._insurance_settled = False
        self._dealer_natural: bool | None = None  # decided once the dealer holds two cards
        self._may_natural = False  # set by the deal: only an ace or ten up can hide a natural
        self._naturals = 0  # player naturals dealt, to be paid at the peek or the end
        self._insured = False  # some seat took insurance
        self._split = False  # some seat split
        #: Every decision taken, in order: ``(seat, hand, action)``.
        self.history: list[tuple[int, int, Action]] = []
        #: The house's gain this round in credits (minus the players' total net).
        self.house_net: Money = 0
        self._pending: list[Event] = []

    def _restart(self) -> None:
        """Reset this finished round as a new one at the same seats (``Blackjack.recycle_rounds``).

        The caller must have put the round's cards on the discard pile.
        """
        for seat in self._seats:
            if seat.hands:
                seat.spare = seat.hands[0]
            seat.clear()
        self.dealer.start_round()
        self._open()

    # ========================================================================== betting
    def place_bet(self, seat: int, amount: int | Fraction | str) -> None:
        """Set seat ``seat``'s bet for this round (replacing an earlier one).

        Raises:
            IllegalActionError: the round is past betting.
            InvalidBetError: the amount is not a number, outside the table limits, or
                more than the player's bankroll.
                Also a ``seat`` that is not a seat number: 0 to the number of players
                less one (not a bool, a negative index or a string).
        """
        target = self._betting_seat(seat)
        if isinstance(amount, str):
            try:
                amount = to_money(amount)
            except InvalidBetError:
                raise InvalidBetError(f"a bet must be a number of credits, got {quoted(amount)}", amount) from None
        target.bet = target.player.start_round(amount, self.rules)

    def _place_bet_unchecked(self, seat: int, amount: Money) -> None:
        """:meth:`place_bet` for a checked bet; an ``int`` stake keeps the money ``int`` (:meth:`_settle`)."""
        self._seats[seat].bet = amount

    def clear_bet(self, seat: int) -> None:
        """Take seat ``seat``'s bet back: it sits this round out.

        Raises:
            IllegalActionError: the round is past betting.
            InvalidBetError: ``seat`` is not a seat number (see :meth:`place_bet`).
        """
        self._betting_seat(seat).bet = Fraction(0)

    def _betting_seat(self, seat: object) -> Seat:
        """Seat number ``seat`` while bets are open; else IllegalActionError, or InvalidBetError for no such seat."""
        if self.phase is not _BETTING:
            raise IllegalActionError("bets are closed: the cards are already out", "bet")
        count = len(self._seats)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:  # not True, not -1
            raise InvalidBetError(f"no seat {quoted(seat)} at this table: seats are numbered 0 to {count - 1}", seat)
        return self._seats[seat]

    def deal(self) -> tuple[Event, ...]:
        """Close betting, take the bets, shuffle if due, and deal the opening cards.

        Returns:
            The events of the deal (and of everything settled at once, e.g. a dealer
            natural found by the peek).

        Raises:
            IllegalActionError: the round is past betting, or no seat has a bet.
        """
        if self.phase is not _BETTING:
            raise IllegalActionError("the cards are already dealt", "deal")
        betting = []
        for seat in self._seats:  # a plain loop: on Python 3.11 a comprehension is one more call
            if seat.bet:  # bets are never negative
                betting.append(seat.index)
        if not betting:
            raise IllegalActionError("no seat has a bet: place at least one bet before dealing", "deal")
        rules = self.rules
        record = self._record
        if rules.reshuffle_every_round or self.shoe.cut_card_reached:
            self.shoe.shuffle()
            if record:
                self._emit(ShoeShuffled())
        # Cards from the shoe go straight onto the hands' lists (Hand._cards): add_card's type check is for others.
        opening: list[tuple[int, list[Card]]] = []
        take_bet = self._money.take_bet
        for i in betting:
            seat = self._seats[i]
            take_bet(seat.player, seat.bet)
            opening.append((i, seat.open_hand()._cards))
            if record:
                self._emit(BetPlaced(i, seat.bet))
        if not record:  # the shoe's own pop while it holds enough cards for any round (Shoe.dealing)
            self._take = self._take_for_dealer = self.shoe.dealing(self._most_cards)
        take = self._take
        dealer_cards = self.dealer.hand._cards
        for i, cards in opening:  # a first card to each seat,
            card = take()
            cards.append(card)
            if record:
                self._emit(CardDealt(i, 0, card))
        up_card = take()  # the upcard,
        dealer_cards.append(up_card)
        if record:
            self._emit(CardDealt(None, 0, up_card, True))
        for i, cards in opening:  # a second card to each seat,
            card = take()
            cards.append(card)
            if record:
                self._emit(CardDealt(i, 0, card))
        if rules.hole_card:  # and the hole card
            dealer_cards.append(take())
            if record:
                self._emit(CardDealt(None, 0, None, False))
        upcard = up_card.value
        self._may_natural = rules.naturals and upcard in (1, 10)
        if not self._may_natural:
            self._dealer_natural = False  # known at once: no later card can make a natural
        self._after_deal(betting, upcard)
        return self._flush() if record else ()

    # ======================================================================== deciding
    def apply(self, action: Action, amount: int | Fraction | str | None = None) -> tuple[Event, ...]:
        """Take one decision for the seat whose turn it is.

        Args:
            action: one of :meth:`legal_actions`.
            amount: only for INSURANCE: the stake in credits, up to half the bet
                (default: half the bet, or the whole bankroll if that is less).

        Returns:
            The events this decision caused, in order (cards dealt, hands settled ...).

        Raises:
            IllegalActionError: the action is not legal now; the message says why.
                Nothing is changed.
            InvalidBetError: an insurance amount that is not allowed. Nothing is changed.
            TypeError: ``action`` is not an :class:`Action`.
        """
        if not isinstance(action, Action):
            raise TypeError(f"apply() takes an Action, not {type(action).__name__}")
        if self._turn is None:
            raise IllegalActionError(f"cannot {action.value}: no decision is pending ({self.phase.value})", action)
        seat_index, hand_index = self._turn
        if not self.is_legal(action):
            raise IllegalActionError(self._illegal_message(action, seat_index, hand_index), action)
        if action is not _INSURANCE and amount is not None:
            raise IllegalActionError(f"an amount goes only with insurance, not {action.value}", action)
        if self.phase is _INSURANCE_PHASE:
            self._answer_insurance(seat_index, action, amount)
        elif self.phase is _EARLY_SURRENDER:
            self._answer_early_surrender(seat_index, action)
        else:
            self._play(seat_index, hand_index, action)
        return self._flush()

    def _apply_unchecked(self, action: Action) -> None:
        """:meth:`apply` without the checks, insurance at its default stake, returning nothing.

        The caller must pass an action that :meth:`is_legal` accepts; an illegal one leaves
        the round in an undefined state.
        """
        seat_index, hand_index = self._turn  # type: ignore[misc]  # the caller guarantees a turn
        phase = self.phase
        if phase is _PLAYER_TURN:
            self._play(seat_index, hand_index, action)
        elif phase is _INSURANCE_PHASE:
            self._answer_insurance(seat_index, action, None)
        else:
            self._answer_early_surrender(seat_index, action)
        if self._record:
            self._flush()

    # ===================================================================== the machine
    def _after_deal(self, betting: list[int], upcard: int) -> None:
        rules = self.rules
        if rules.thunderjack_pays is not None:
            thunder = [i for i in betting if is_thunderjack(self._seats[i].hands[0].hand)]
            for i in thunder:
                if len(thunder) == 1:
                    self._settle(i, 0, _THUNDERJACK)
                else:
                    self._settle(i, 0, _PUSH)
        naturals = rules.naturals
        open_seats = []
        for i in betting:
            state = self._seats[i].hands[0]
            state.total = total = state.hand.get_score()
            if total == 21:
                state.finished = True  # a natural waits for the dealer; any 21 needs no decision
                state.natural = naturals and state.hand.is_blackjack()
                self._naturals += state.natural
            if state.outcome is None:
                open_seats.append(i)
        if upcard == 1 and rules.insurance and open_seats:
            self.phase = _INSURANCE_PHASE
            self._queue = open_seats
            self._turn = (self._queue.pop(0), 0)
            return
        self._offer_early_surrender()

    def _answer_insurance(self, seat_index: int, action: Action, amount: int | Fraction | str | None) -> None:
        seat = self._seats[seat_index]
        if action is _INSURANCE:
            most = self.insurance_limit()
            assert most is not None  # an insurance answer is only taken during the offer
            try:
                stake = most if amount is None else to_money(amount)
            except (TypeError, InvalidBetError):
                raise InvalidBetError(f"insurance must be an exact number of credits, got {quoted(amount)}",
                                      amount) from None
            if not 0 < stake <= most:
                raise InvalidBetError(f"insurance must be more than 0 and at most {format_money(most)} "
                                      f"(half the bet, within the bankroll), got {format_money(stake)}", amount)
            self._money.take_stake(seat.player, stake)
            seat.insurance = stake
            self._insured = True
        else:
            seat.insurance = _ZERO
        self.history.append((seat_index, 0, action))
        if self._record:
            self._emit(ActionTaken(seat_index, 0, action, seat.insurance if action is _INSURANCE else None))
        if self._queue:
            self._turn = (self._queue.pop(0), 0)
        else:
            self._offer_early_surrender()

    def _offer_early_surrender(self) -> None:
        if self.rules.surrender == "early" and self._may_natural:
            self._queue = [i for i, seat in enumerate(self._seats) if seat.hands
                           and seat.hands[0].outcome is None and not seat.hands[0].natural]
            if self._queue:
                self.phase = _EARLY_SURRENDER
                self._turn = (self._queue.pop(0), 0)
                return
        self._peek()

    def _answer_early_surrender(self, seat_index: int, action: Action) -> None:
        self.history.append((seat_index, 0, action))
        if self._record:
            self._emit(ActionTaken(seat_index, 0, action))
        if action is _SURRENDER:
            self._surrender(seat_index, 0)
        if self._queue:
            self._turn = (self._queue.pop(0), 0)
        else:
            self._peek()

    def _peek(self) -> None:
        self._turn = None
        may_have_natural = self._may_natural
        if self.rules.dealer_peeks and may_have_natural:
            natural = self._dealer_has_natural()
            self._peeked = True
            if self._record:
                self._emit(DealerPeeked(natural))
            if natural:
                self._reveal()
                self._settle_insurance()
                self._settle_all(dealer_natural=True)
                return
            if not self._insurance_settled:
                self._settle_insurance()
        if self._naturals and (self._peeked or not may_have_natural):
            for i, seat in enumerate(self._seats):
                for j, state in enumerate(seat.hands):
                    if state.natural and state.outcome is None:
                        self._settle(i, j, _BLACKJACK)
        self.phase = _PLAYER_TURN
        self._next_hand(0, 0)

    def _play(self, seat_index: int, hand_index: int, action: Action) -> None:
        state = self._seats[seat_index].hands[hand_index]
        self.history.append((seat_index, hand_index, action))
        if self._record:
            self._emit(ActionTaken(seat_index, hand_index, action))
        if action is _HIT:
            self._give(seat_index, hand_index)
        elif action is _STAND:
            state.finished = True
        elif action is _DOUBLE:
            state.doubled = True
            double_down(state)
        elif action is _SPLIT:
            self._split = True
            split(state)
            self._next_hand(seat_index, hand_index)  # the first hand of the two gets its second card at once
            return
        elif action is _SURRENDER:
            self._surrender(seat_index, hand_index)
        if state.finished:
            self._next_hand(seat_index, hand_index + 1)

    def _give(self, seat_index: int, hand_index: int) -> Card:
        """Deal one card to a player hand after the deal, and return it; finish or settle the hand if that decides it.

        A bust or a Blitz is settled at once; a 21 needs no decision (a split hand's is no natural).
        """
        state = self._seats[seat_index].hands[hand_index]
        card = self._take()
        cards = state.hand._cards
        cards.append(card)
        if self._record:
            self._emit(CardDealt(seat_index, hand_index, card))
        state.total = total = state.hand.get_score()
        charlie = self.rules.charlie_cards
        if total > 21:
            state.finished = True
            self._settle(seat_index, hand_index, _BUST)
        elif charlie is not None and len(cards) >= charlie:
            state.finished = True
            self._settle(seat_index, hand_index, _BLITZ)
        elif total == 21:
            state.finished = True
            state.natural = len(cards) == 2 and self._natural(state.hand)
        return card

    def _next_hand(self, seat_index: int, hand_index: int) -> None:
        """Move the turn to the first open hand at or after (seat, hand); else to the dealer."""
        self._turn = None
        seats = self._seats
        while seat_index < len(seats):
            hands = seats[seat_index].hands
            while hand_index < len(hands):
                state = hands[hand_index]
                if not state.finished:
                    # a split hand gets its second card when play reaches it (only a split leaves a hand one card)
                    if self._split and len(state.hand._cards) == 1:
                        deal_split_card(state)
                    if not state.finished:
                        self._turn = (seat_index, hand_index)
                        return
                hand_index += 1
            seat_index += 1
            hand_index = 0
        self._dealer_turn()

    def _dealer_turn(self) -> None:
        self.phase = _DEALER_TURN
        if self.rules.hole_card:
            self._reveal()
        else:
            self.dealer.hand.add_card(self._take_for_dealer())  # no hole card: the second card comes now, face up
            self.dealer.revealed = True
        natural = self._dealer_natural  # known at the deal unless an ace or ten is up
        if natural is None:
            natural = self._dealer_has_natural()
        if not self._insurance_settled:
            self._settle_insurance()
        if natural:
            self._settle_all(dealer_natural=True)
            return
        drew = self._someone_waits()
        if drew:
            self.dealer.play_round(self._take_for_dealer, self.rules)
        self._settle_all(dealer_natural=False, dealer_drew=drew)

    def _someone_waits(self) -> bool:
        """True when a hand is still open and is not a natural: the dealer must play it out."""
        for seat in self._seats:
            for state in seat.hands:
                if state.outcome is None and not state.natural:
                    return True
        return False

    def _settle_all(self, *, dealer_natural: bool, dealer_drew: bool = False) -> None:
        dealer_total = self.dealer.hand.get_score()
        for seat in self._seats:
            j = 0  # a counter, not enumerate: this runs for every simulated round
            for state in seat.hands:
                if state.outcome is None:
                    self._settle(seat.index, j, _result(state.total, state.natural, dealer_natural, dealer_total))
                j += 1
        self._turn = None
        self.phase = _SETTLED
        if self._record:
            self._emit(RoundSettled(dealer_total, dealer_natural, dealer_drew))

    # ====================================================================== money moves
    def _settle(self, seat_index: int, hand_index: int, result: Result) -> None:
        """Close a hand with ``result`` and pay it, in the stake's type (:func:`~blackjack.money.match_stake`)."""
        seat = self._seats[seat_index]
        state = seat.hands[hand_index]
        bet = state.bet
        money = self._money
        if type(bet) is int:
            # The same result on the same stake pays the same: the simulator's int stakes are paid
            # out once per round object (a recycled round serves a whole block), then read back.
            key = (result._value_, bet)  # the value string: an Enum member hashes in Python code
            outcome = self._paid.get(key)
            if outcome is None:
                net = money.payout(result, bet, self.rules)  # an int net on an int stake is in the stake's type
                outcome = self._paid[key] = make_outcome(result, bet, net if type(net) is int else match_stake(net, bet))
        else:
            outcome = make_outcome(result, bet, money.payout(result, bet, self.rules))
        net = outcome.net
        state.finished = True
        state.outcome = outcome
        money.pay(seat.player, bet, net)
        self.house_net -= net
        if self._record:
            self._emit(HandSettled(seat_index, hand_index, state.outcome))

    def _surrender(self, seat_index: int, hand_index: int) -> None:
        state = self._seats[seat_index].hands[hand_index]
        state.surrendered = True
        self._settle(seat_index, hand_index, _SURRENDER_RESULT)

    def _settle_insurance(self) -> None:
        if self._insurance_settled:
            return
        self._insurance_settled = True
        if not self._insured:
            return
        natural = self._dealer_has_natural()
        for i, seat in enumerate(self._seats):
            stake = seat.insurance
            if stake:
                seat.insurance_won = net = insurance_net(stake, natural)  # 2:1 against a natural, else lost
                self._money.pay(seat.player, stake, net)
                self.house_net -= net
                if self._record:
                    self._emit(InsuranceSettled(i, stake, net))

    # ========================================================================= helpers
    def _natural(self, hand: Hand) -> bool:
        return self.rules.naturals and hand.is_blackjack()

    def _dealer_has_natural(self) -> bool:
        """The dealer holds a natural (decided once it has two cards; False under rules without naturals)."""
        natural = self._dealer_natural
        if natural is None:
            hand = self.dealer.hand
            natural = self._may_natural and self._natural(hand)
            if len(hand) >= 2:
                self._dealer_natural = natural
        return natural

    def _draw(self) -> Card:
        """Deal a card and note a mid-round reshuffle (the ``_take`` of rounds that record events)."""
        shuffles = self.shoe.shuffle_count
        card = self.shoe.deal()
        if self.shoe.shuffle_count != shuffles:
            self._emit(ShoeShuffled(mid_round=True))
        return card

    def _draw_for_dealer(self) -> Card:
        card = self._draw()
        self._emit(CardDealt(None, 0, card))
        return card

    def _reveal(self) -> None:
        if self._record and not self.dealer.revealed and len(self.dealer.hand._cards) > 1:
            self._emit(HoleCardRevealed(self.dealer.hand[1]))
        self.dealer.revealed = True

    def _emit(self, event: Event) -> None:
        self._pending.append(event)

    def _flush(self) -> tuple[Event, ...]:
        events, self._pending = tuple(self._pending), []
        for listener in self._listeners:
            for event in events:
                listener(event)
        return events


def _result(total: int, natural: bool, dealer_natural: bool, dealer_total: int) -> Result:
    """How an open hand with best total ``total`` ends against the dealer: naturals first, then the totals."""
    if natural:
        return _PUSH if dealer_natural else _BLACKJACK
    if dealer_natural:
        return _LOSE
    return compare_scores(total, dealer_total)
