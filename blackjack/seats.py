"""A player's seat in one round and its hands in play (internal to :class:`~blackjack.round.Round`).

A :class:`HandState` is a hand with its stake and progress, and it is also the
:class:`~blackjack.plays.Play` that :mod:`blackjack.plays` acts on: the round hands the
hand itself to ``why_not_double``, ``double_down``, ``split`` ... . Every card it takes
comes from the round (:attr:`Seat.give`) and every stake leaves the bankroll through
the round's money path (:attr:`Seat.take_stake`), so cards and money are conserved
whatever a play does.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .cards import Card
from .events import Outcome
from .hand import Hand
from .money import Money
from .player import Player
from .rules import Rules

__all__ = ["HandState", "Seat", "is_thunderjack"]

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
        """Give the seat its opening hand for its bet, with no cards yet, and return the hand.

        That is last round's opening hand (``spare``) started again when the round is
        recycled, else a new one: the simulator then makes no hand objects per round.
        """
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
