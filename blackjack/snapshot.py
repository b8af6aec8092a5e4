"""The frozen :class:`~blackjack.view.TableView` that ``Round.view()`` returns, built from the round's parts (internal).

The hole card is :data:`~blackjack.view.HIDDEN` until the dealer reveals it; nothing in
the snapshot changes when the round moves on.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Phase
from .cards import Card
from .deck import Shoe
from .hand import Hand
from .money import Money
from .player import Dealer
from .rules import Rules
from .seats import HandState, Seat, is_thunderjack
from .view import HIDDEN, DealerView, HandView, Hidden, SeatView, TableView

__all__ = ["hole_hidden", "table_view"]


def hole_hidden(dealer: Dealer) -> bool:
    """True while the dealer holds a hole card that is face down."""
    return len(dealer.hand) > 1 and not dealer.revealed


def table_view(phase: Phase, rules: Rules, dealer: Dealer, seats: Sequence[Seat], turn: tuple[int, int] | None,
               legal: frozenset[Action], insurance_limit: Money | None, shoe: Shoe,
               unseen: dict[int, int]) -> TableView:
    """The snapshot of a round in ``phase``: its dealer, seats, turn, legal actions and unseen cards."""
    dealer_cards: list[Card | Hidden] = list(dealer.hand)
    hidden = hole_hidden(dealer)
    if hidden:
        dealer_cards[1] = HIDDEN
    visible = Hand([c for c in dealer_cards if isinstance(c, Card)])
    dealer_view = DealerView(cards=tuple(dealer_cards), upcard=dealer.hand[0] if dealer.hand else None,
                             total=visible.get_score(), total_text=visible.total_text() if visible else "",
                             revealed=not hidden)
    seat_views = tuple(
        SeatView(index=i, name=seat.player.name, bankroll=seat.player.bankroll, bet=seat.bet,
                 insurance=seat.insurance, hands=tuple(_hand_view(h, rules) for h in seat.hands))
        for i, seat in enumerate(seats))
    return TableView(phase=phase, rules=rules, dealer=dealer_view, seats=seat_views, turn=turn,
                     legal_actions=legal, cards_remaining=len(shoe), discards=len(shoe.discards),
                     unseen_counts=unseen, decks=shoe.decks, insurance_limit=insurance_limit)


def _hand_view(state: HandState, rules: Rules) -> HandView:
    hand = state.hand
    return HandView(cards=hand.cards, total=hand.get_score(), soft=hand.is_soft(),
                    total_text=hand.total_text(), bet=state.bet, doubled=state.doubled,
                    surrendered=state.surrendered, from_split=hand.from_split,
                    is_blackjack=rules.naturals and hand.is_blackjack(), is_bust=hand.is_bust(),
                    finished=state.finished, outcome=state.outcome,
                    is_thunderjack=rules.thunderjack_pays is not None and is_thunderjack(hand))
