"""What happens at the table, as small frozen values the round emits in order.

Front ends subscribe (``Blackjack(..., listeners=[callback])``) and render; the text
game prints them, the Tk table animates them. Each ``apply()`` / ``deal()`` also
returns the events it caused. Seats and hands are 0-based indexes; ``seat=None``
means the dealer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .actions import Action, Result
from .cards import Card
from .money import Money

__all__ = [
    "ActionTaken", "BetPlaced", "CardDealt", "DealerPeeked", "Event", "HandSettled",
    "HoleCardRevealed", "InsuranceSettled", "Outcome", "RoundSettled", "ShoeShuffled",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The final result of one player hand, with exact money.

    Attributes:
        result: how the hand ended (WIN, LOSE, PUSH, BLACKJACK, BUST, SURRENDER, THUNDERJACK, BLITZ).
        bet: credits staked on the hand, including a double.
        net: the player's gain on the hand in credits: +bet for a win, -bet for a loss,
            0 for a push, +bet * 3/2 for a 3:2 natural, -bet / 2 for a surrender.
    """

    result: Result
    bet: Money
    net: Money

    @property
    def payout(self) -> Money:
        """Credits handed back to the player: the stake plus the net (0 for a loss)."""
        return self.bet + self.net


# The slots filled through their descriptors, without the frozen dataclass's object.__setattr__ (make_outcome).
_new_object = object.__new__
_set_result: Callable[[Outcome, Result], None] = getattr(Outcome, "result").__set__
_set_bet: Callable[[Outcome, Money], None] = getattr(Outcome, "bet").__set__
_set_net: Callable[[Outcome, Money], None] = getattr(Outcome, "net").__set__


def make_outcome(result: Result, bet: Money, net: Money) -> Outcome:
    """Return ``Outcome(result, bet, net)``, the same value built in about half the time (benchmarks/README.md)."""
    outcome: Outcome = _new_object(Outcome)
    _set_result(outcome, result)
    _set_bet(outcome, bet)
    _set_net(outcome, net)
    return outcome


@dataclass(frozen=True, slots=True)
class ShoeShuffled:
    """The shoe was shuffled; ``mid_round`` when only the discards went back in because it ran dry."""

    mid_round: bool = False


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """Seat ``seat`` put ``amount`` credits on the table for this round."""

    seat: int
    amount: Money


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card went to hand ``hand`` of seat ``seat`` (``None`` = dealer); ``card`` is None when face down."""

    seat: int | None
    hand: int
    card: Card | None
    face_up: bool = True


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """Seat ``seat`` took ``action`` on hand ``hand``; ``amount`` is the insurance stake, if any."""

    seat: int
    hand: int
    action: Action
    amount: Money | None = None


@dataclass(frozen=True, slots=True)
class InsuranceSettled:
    """Seat ``seat``'s insurance of ``stake`` credits settled with gain ``net`` (2:1 win or -stake)."""

    seat: int
    stake: Money
    net: Money


@dataclass(frozen=True, slots=True)
class DealerPeeked:
    """The dealer looked under an ace or ten upcard; ``natural`` says whether a blackjack was there."""

    natural: bool


@dataclass(frozen=True, slots=True)
class HoleCardRevealed:
    """The dealer's hole card was turned face up."""

    card: Card


@dataclass(frozen=True, slots=True)
class HandSettled:
    """Hand ``hand`` of seat ``seat`` is over, with ``outcome``; its money has been paid."""

    seat: int
    hand: int
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """Every hand of the round is settled.

    Attributes:
        dealer_total: the dealer's final score.
        dealer_natural: the dealer holds a natural.
        dealer_drew: the dealer played the hand out by the rules (hit to 17). False when
            no hand was left for the dealer to beat (every player hand busted, surrendered
            or was a natural already paid) or the dealer has a natural.
    """

    dealer_total: int
    dealer_natural: bool = False
    dealer_drew: bool = True


Event = (ShoeShuffled | BetPlaced | CardDealt | ActionTaken | InsuranceSettled | DealerPeeked
         | HoleCardRevealed | HandSettled | RoundSettled)
