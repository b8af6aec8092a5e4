"""Blackjack Kit's reference engine: cards, shoe, hands, rules, and the round state machine (docs/api.md).

Standard library only. Play in a terminal with ``python -m blackjack``.

The names load on first use (PEP 562): ``import blackjack`` alone imports no submodule, so
``python -m blackjack`` reaches its own first line (which makes Ctrl-C exit quietly) at once,
and ``from blackjack import Hand`` loads only what ``Hand`` needs.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up stays instant); deleted below
if TYPE_CHECKING:  # what the names are, for type checkers; at run time __getattr__ below imports them
    from .actions import Action, Phase, Result
    from .cards import Card, Suit, create_card_array, parse_cards, shuffle
    from .deck import Deck, Shoe
    from .errors import (BlackjackError, EmptyShoeError, IllegalActionError, InvalidBetError, InvalidCardError,
                         PresetError, RulesError)
    from .events import (ActionTaken, BetPlaced, CardDealt, DealerPeeked, Event, HandSettled, HoleCardRevealed,
                         InsuranceSettled, Outcome, RoundSettled, ShoeShuffled)
    from .hand import Hand
    from .money import Money, format_money, parse_bet, to_money
    from .player import Dealer, Ledger, Player, Policy
    from .round import Round
    from .rules import Rules
    from .table import Blackjack
    from .wagers import compare_scores, payout
    from .view import HIDDEN, DealerView, HandView, Hidden, SeatView, TableView

#: Each public name and the submodule it comes from.
_EXPORTS = {
    **dict.fromkeys(("Action", "Phase", "Result"), ".actions"),
    **dict.fromkeys(("Card", "Suit", "create_card_array", "parse_cards", "shuffle"), ".cards"),
    **dict.fromkeys(("Deck", "Shoe"), ".deck"),
    **dict.fromkeys(("BlackjackError", "EmptyShoeError", "IllegalActionError", "InvalidBetError", "InvalidCardError",
                     "PresetError", "RulesError"), ".errors"),
    **dict.fromkeys(("ActionTaken", "BetPlaced", "CardDealt", "DealerPeeked", "Event", "HandSettled",
                     "HoleCardRevealed", "InsuranceSettled", "Outcome", "RoundSettled", "ShoeShuffled"), ".events"),
    "Hand": ".hand",
    **dict.fromkeys(("Money", "format_money", "parse_bet", "to_money"), ".money"),
    **dict.fromkeys(("Dealer", "Ledger", "Player", "Policy"), ".player"),
    "Round": ".round",
    "Rules": ".rules",
    "Blackjack": ".table",
    **dict.fromkeys(("compare_scores", "payout"), ".wagers"),
    **dict.fromkeys(("HIDDEN", "DealerView", "HandView", "Hidden", "SeatView", "TableView"), ".view"),
}


if not TYPE_CHECKING:  # (hidden from type checkers, which would otherwise accept any name as Any)
    from ._lazy import lazy_names as _lazy_names

    __getattr__, __dir__ = _lazy_names(__name__, _EXPORTS)

del TYPE_CHECKING


__version__ = "0.1.0"

__all__ = [
    "Action", "ActionTaken", "BetPlaced", "Blackjack", "BlackjackError", "Card", "CardDealt", "Dealer", "DealerPeeked",
    "DealerView", "Deck", "EmptyShoeError", "Event", "HIDDEN", "Hand", "HandSettled", "HandView", "Hidden",
    "HoleCardRevealed", "IllegalActionError", "InsuranceSettled", "InvalidBetError", "InvalidCardError", "Ledger",
    "Money", "Outcome", "Phase", "Player", "Policy", "PresetError", "Result", "Round", "RoundSettled", "Rules",
    "RulesError", "SeatView", "Shoe", "ShoeShuffled", "Suit", "TableView", "compare_scores", "create_card_array",
    "format_money", "parse_bet", "parse_cards", "payout", "shuffle", "to_money"
]
