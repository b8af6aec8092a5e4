"""Pure text rendering for the terminal game: card art, hand lines and event messages.

Every function here takes engine values (a :class:`~blackjack.view.TableView`, an
event) and returns strings; nothing prints. ``--plain`` output is one line per
hand, for screen readers and logs; otherwise cards are small boxes as justBlackjack
draws them. ``unicode=False`` draws with ASCII only, for terminals that cannot show
suit symbols.

>>> print(card_art([Card.parse("Ah"), HIDDEN], unicode=False))
+-----+ +-----+
|A    | |#####|
|  h  | |#####|
|    A| |#####|
+-----+ +-----+
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Result
from .cards import Card
from .events import (CardDealt, DealerPeeked, Event, HandSettled, HoleCardRevealed,
                     InsuranceSettled, RoundSettled, ShoeShuffled)
from .money import Money, format_money
from .view import HIDDEN, HandView, Hidden, SeatView, TableView  # noqa: F401 (HIDDEN: doctest)

__all__ = ["action_menu", "card_art", "card_text", "describe_event", "hand_line", "table_text"]


def card_text(card: Card | Hidden, *, unicode: bool = True) -> str:
    """One card as short text: ``"A♥"``, ``"10♠"``, ``"??"`` face down; ``"Ah"`` without Unicode."""
    if isinstance(card, Hidden):
        return "??"
    return card.symbol if unicode else card.code


def card_art(cards: Sequence[Card | Hidden], *, unicode: bool = True) -> str:
    """Draw cards side by side as 5-line boxes; a face-down card is shaded.

    Returns:
        Five lines joined by newlines (empty string for no cards).
    """
    if not cards:
        return ""
    box = ("┌─────┐", "│", "└─────┘", "░") if unicode else ("+-----+", "|", "+-----+", "#")
    top, side, bottom, shade = box
    rows: list[list[str]] = [[], [], [], [], []]
    for card in cards:
        if isinstance(card, Hidden):
            middle = [side + shade * 5 + side] * 3
        else:
            rank = "10" if card.face == 10 else card.code[0]
            suit = card.suit.symbol if unicode else card.suit.code
            middle = [f"{side}{rank:<5}{side}", f"{side}  {suit}  {side}", f"{side}{rank:>5}{side}"]
        for row, text in zip(rows, [top, *middle, bottom]):
            row.append(text)
    return "\n".join(" ".join(row) for row in rows)


def hand_line(hand: HandView, *, unicode: bool = True, wagering: bool = True) -> str:
    """One player hand on one line: cards, total, bet and state, e.g. ``"A♥ 6♣ = 7 / 17  bet 10"``."""
    cards = " ".join(card_text(c, unicode=unicode) for c in hand.cards)
    parts = [f"{cards} = {hand.total_text}"]
    if hand.is_blackjack:
        parts.append("blackjack!")
    elif hand.is_bust:
        parts.append("bust")
    if wagering:
        parts.append(f"bet {format_money(hand.bet)}" + (" (doubled)" if hand.doubled else ""))
    if hand.outcome is not None:
        parts.append(_outcome_text(hand.outcome.result, hand.outcome.net, wagering))
    return "  ".join(parts)


def _outcome_text(result: Result, net: Money, wagering: bool) -> str:
    if not wagering:
        return result.label
    sign = "+" if net > 0 else ""
    return f"{result.label} {sign}{format_money(net)}"


def table_text(view: TableView, *, unicode: bool = True, plain: bool = False) -> str:
    """The whole table: the dealer, then every seat that is playing, with cards drawn unless ``plain``."""
    lines: list[str] = []
    dealer = view.dealer
    if dealer.cards:
        shown = dealer.total_text if dealer.revealed else f"{dealer.total_text} showing"
        lines.append(f"Dealer: {' '.join(card_text(c, unicode=unicode) for c in dealer.cards)} = {shown}")
        if not plain:
            lines.append(card_art(dealer.cards, unicode=unicode))
    for seat in view.seats:
        if not seat.hands:
            continue
        lines.extend(_seat_lines(view, seat, unicode=unicode, plain=plain))
    return "\n".join(lines)


def _seat_lines(view: TableView, seat: SeatView, *, unicode: bool, plain: bool) -> list[str]:
    wagering = view.rules.wagering
    money = f" (bankroll {format_money(seat.bankroll)})" if wagering else ""
    lines = [f"{seat.name}{money}:"]
    many = len(seat.hands) > 1
    for j, hand in enumerate(seat.hands):
        marker = "> " if view.turn == (seat.index, j) else "  "
        label = f"hand {j + 1}: " if many else ""
        lines.append(f"{marker}{label}{hand_line(hand, unicode=unicode, wagering=wagering)}")
        if not plain:
            lines.extend("    " + row for row in card_art(hand.cards, unicode=unicode).splitlines())
    return lines


def action_menu(actions: frozenset[Action], *, even_money: bool = False) -> str:
    """The legal actions as a menu, in table order: ``"[h]it [s]tand [d]ouble s[p]lit su[r]render"``.

    In the insurance phase, INSURANCE reads ``even [m]oney`` style wording when
    ``even_money`` (the player holds a natural).
    """
    labels = []
    for action in Action:  # the members are in table order
        if action in actions:
            label = action.label
            if action is Action.INSURANCE and even_money:
                label = "[i] even money"
            elif action is Action.DECLINE:
                label = "[n]o"
            labels.append(label)
    return " ".join(labels)


def describe_event(event: Event, view: TableView, *, unicode: bool = True, opening: bool = False) -> str | None:
    """A one-line announcement of an event for the text game, or None for events it does not announce.

    Args:
        event: the event.
        view: the table after the step that caused it (for names and totals).
        unicode: use suit symbols.
        opening: the event belongs to the opening deal, which the table drawing shows instead.
    """
    names = [seat.name for seat in view.seats]
    wagering = view.rules.wagering
    if isinstance(event, ShoeShuffled):
        return "The discards are shuffled back into the shoe." if event.mid_round else "The dealer shuffles the shoe."
    if isinstance(event, CardDealt):
        if opening or event.card is None:
            return None
        card = card_text(event.card, unicode=unicode)
        if event.seat is None:
            return f"Dealer draws {card}."
        seat = view.seats[event.seat]
        which = f" (hand {event.hand + 1})" if len(seat.hands) > 1 else ""
        return f"{seat.name}{which} draws {card}: {seat.hands[event.hand].total_text}."
    if isinstance(event, HoleCardRevealed):
        return f"Dealer turns over the hole card: {card_text(event.card, unicode=unicode)}."
    if isinstance(event, DealerPeeked):
        return "Dealer checks for blackjack... " + ("BLACKJACK!" if event.natural else "no blackjack.")
    if isinstance(event, InsuranceSettled) and wagering:
        verb = "wins" if event.net > 0 else "loses"
        return f"{names[event.seat]}'s insurance {verb} {format_money(event.net if event.net > 0 else -event.net)}."
    if isinstance(event, HandSettled):
        seat = view.seats[event.seat]
        which = f" (hand {event.hand + 1})" if len(seat.hands) > 1 else ""
        text = _outcome_text(event.outcome.result, event.outcome.net, wagering)
        return f"{names[event.seat]}{which}: {text}"
    if isinstance(event, RoundSettled):
        total = event.dealer_total
        if event.dealer_natural:
            return "Dealer has blackjack."
        if not event.dealer_drew:
            return f"Dealer has {total}; no hand is left for the dealer to play against."
        return f"Dealer busts with {total}." if total > 21 else f"Dealer stands on {total}."
    return None  # BetPlaced, ActionTaken: the prompts and the table drawing show them
