"""Observations for test_player.py, run in the student's process: the student's Dealer.should_hit,
Dealer.play_round and Player.play_round on hands and tables built from given cards, plain data returned
(docs/design/graded_test_shape.md).

Tables come from observe_blackjack (a shoe of given cards and given shuffles, stacked with the test's cards), so the
student's deck and shuffle play no part here.
"""

from __future__ import annotations

import dataclasses

from blackjack import Action, Card, Dealer, Hand, Rules, TableView, parse_cards
from observe_blackjack import _Stop, _table

_S17 = Rules.preset("cs111")
_H17 = dataclasses.replace(_S17, dealer_hits_soft_17=True)


def _rules(hits_soft_17: bool) -> Rules:
    return _H17 if hits_soft_17 else _S17


def _dealer_holding(codes: str) -> Dealer:
    """A dealer whose hand holds the given cards."""
    dealer = Dealer()
    dealer.hand = Hand(parse_cards(codes))
    return dealer


class _OutOfCards(BaseException):
    """Raised by draw() when the dealer asks for more cards than the test gave (a BaseException, so a student's
    ``except Exception`` cannot swallow it)."""


def should_hit(hands: list[str], hits_soft_17: bool) -> list[object]:
    """Dealer.should_hit of a dealer holding each hand (codes), under S17 or, with ``hits_soft_17``, H17 rules."""
    rules = _rules(hits_soft_17)
    return [_dealer_holding(codes).should_hit(rules) for codes in hands]


def dealer_play(codes: str, shoe: str, hits_soft_17: bool) -> dict[str, object]:
    """Dealer.play_round of a dealer holding ``codes``, draw() dealing the cards of ``shoe`` in order: the hand after
    it, the cards drawn, and whether the dealer asked for a card after the last one (play stops there)."""
    dealer = _dealer_holding(codes)
    cards = parse_cards(shoe)
    handed: list[Card] = []

    def draw() -> Card:
        if not cards:
            raise _OutOfCards
        handed.append(cards.pop(0))
        return handed[-1]
    try:
        dealer.play_round(draw, _rules(hits_soft_17))
        ran_out = False
    except _OutOfCards:
        ran_out = True
    return {"hand": str(dealer.hand), "cards": len(dealer.hand), "drew": [str(c) for c in handed], "ran_out": ran_out}


def player_turn(codes: str, answers: list[str]) -> dict[str, object]:
    """Ann's turn at a cs111 table for Ann and Bob dealt from ``codes``: the student's Player.play_round for Ann,
    decide() answering the actions named in ``answers`` (e.g. "HIT") in order.

    Every call of decide() is recorded as ``{"turn": the seat whose turn the view shows (None: no turn), "total": Ann's
    total}``; decide() stops play (nothing more happens) when it is called after its answers ran out or when the view
    shows it is not Ann's turn. Returns those calls, whether play was stopped, Ann's hand and whose turn it is after."""
    game = _table(["Ann", "Bob"], 111, codes)
    rnd = game.start_round()
    script = [Action[name] for name in answers]
    asked: list[dict[str, object]] = []

    def decide(view: TableView) -> Action:
        asked.append({"turn": view.turn[0] if view.turn is not None else None, "total": view.seats[0].hands[0].total})
        if len(asked) > len(script) or view.turn is None or view.turn[0] != 0:
            raise _Stop({})
        return script[len(asked) - 1]
    try:
        game.players[0].play_round(rnd, decide)
        stopped = False
    except _Stop:
        stopped = True
    current = rnd.current_player
    return {"asked": asked, "stopped": stopped, "hand": str(rnd.hands(0)[0]),
            "current_player": current.name if current is not None else None, "current_repr": repr(current)}
