"""Blackjack Kit's reference engine: cards, shoe, hands, rules, and the round state machine.

Standard library only. Play in a terminal with ``python -m blackjack``.

===================  ============================================================
name                 what it is
===================  ============================================================
``Card``, ``Suit``   immutable cards; ``Card.parse("Th")``
``Deck``, ``Shoe``   a course deck, and a casino shoe with cut card and discards
``Hand``             cards in a hand and their score
``Rules``            the table rules; ``Rules.preset("vegas")``
``Blackjack``        the table: players, dealer, shoe; starts and finishes rounds
``Round``            one round's state machine: ``legal_actions()``, ``apply()``, ``view()``
``Player``           a player with a bankroll and a ``Ledger``; ``Dealer``
``Action``,          the vocabularies: decisions, round phases, hand results
``Phase``, ``Result``
``TableView``        what a front end sees; the hole card is ``HIDDEN``
===================  ============================================================
"""

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

__version__ = "0.1.0"

__all__ = [
    "Action",
    "ActionTaken",
    "BetPlaced",
    "Blackjack",
    "BlackjackError",
    "Card",
    "CardDealt",
    "Dealer",
    "DealerPeeked",
    "DealerView",
    "Deck",
    "EmptyShoeError",
    "Event",
    "HIDDEN",
    "Hand",
    "HandSettled",
    "HandView",
    "Hidden",
    "HoleCardRevealed",
    "IllegalActionError",
    "InsuranceSettled",
    "InvalidBetError",
    "InvalidCardError",
    "Ledger",
    "Money",
    "Outcome",
    "Phase",
    "Player",
    "Policy",
    "PresetError",
    "Result",
    "Round",
    "RoundSettled",
    "Rules",
    "RulesError",
    "SeatView",
    "Shoe",
    "ShoeShuffled",
    "Suit",
    "TableView",
    "compare_scores",
    "create_card_array",
    "format_money",
    "parse_bet",
    "parse_cards",
    "payout",
    "shuffle",
    "to_money",
]
