"""Pure text rendering for the terminal game: card art, hand lines and event messages.

Every function here takes engine values (a :class:`~blackjack.view.TableView`, an event) and
returns strings; nothing prints. ``--plain`` output is one line per hand (the player's name on
each), for screen readers and logs; otherwise cards are small boxes as justBlackjack draws them.
``unicode=False`` draws with ASCII only, for terminals that cannot show suit symbols.

>>> print(card_art([Card.parse("Ah"), HIDDEN], unicode=False))
+-----+ +-----+
|A    | |#####|
|  h  | |#####|
|    A| |#####|
+-----+ +-----+
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .actions import Action, Phase, Result
from .cards import Card
from .events import (CardDealt, DealerPeeked, Event, HandSettled, HoleCardRevealed,
                     InsuranceSettled, RoundSettled, ShoeShuffled)
from .money import Money, show_money
from .view import HIDDEN, HandView, Hidden, SeatView, TableView  # noqa: F401 (HIDDEN: doctest)

__all__ = ["CARD_WIDTH", "action_menu", "announced", "card_art", "card_text", "describe_event", "even_money",
           "hand_line", "money_text", "shown_total", "table_text", "thunderjacks_cancel"]

#: Columns one drawn card takes (:func:`card_art`), not counting the space between cards.
CARD_WIDTH = 7

#: Columns a seat's card drawings are indented by in :func:`table_text`.
_ART_INDENT = 4


def card_text(card: Card | Hidden, *, unicode: bool = True) -> str:
    """One card as short text: ``"A♥"``, ``"10♠"``, ``"??"`` face down; ``"Ah"`` without Unicode."""
    if isinstance(card, Hidden):
        return "??"
    return card.symbol if unicode else card.code


def card_art(cards: Sequence[Card | Hidden], *, unicode: bool = True, width: int | None = None) -> str:
    """Draw cards side by side as 5-line boxes; a face-down card is shaded.

    Args:
        cards: the cards, left to right.
        unicode: box lines and suit symbols; False for ASCII only.
        width: the most columns a line may take: cards that do not fit beside each other
            go on further rows of boxes (at least one card a row, so a width under
            :data:`CARD_WIDTH` still draws one card a row). None: all on one row.

    Returns:
        Five lines a row of cards, joined by newlines (empty string for no cards).
    """
    if not cards:
        return ""
    per_row = len(cards) if width is None else max(1, (width + 1) // (CARD_WIDTH + 1))
    if per_row < len(cards):
        return "\n".join(card_art(cards[i:i + per_row], unicode=unicode)
                         for i in range(0, len(cards), per_row))
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


def hand_line(hand: HandView, *, unicode: bool = True, wagering: bool = True,
              even_money_net: Money | None = None, cancelled: bool = False) -> str:
    """One player hand on one line: cards, total, bet and state, e.g. ``"A♥ 6♣ = 7 / 17  bet 10"``.

    Args:
        hand: the hand.
        unicode: use suit symbols.
        wagering: show the bet and the money won or lost.
        even_money_net: the seat took even money on this natural: its net with the
            insurance (see :func:`even_money`), shown as ``EVEN MONEY +10`` for the outcome.
        cancelled: the hand is a Thunderjack pushed by another at the table.
    """
    parts = [f"{_cards(hand.cards, unicode)} = {shown_total(hand)}"]
    if hand.is_thunderjack:
        parts.append("Thunderjack!")
    elif hand.is_blackjack:
        parts.append("blackjack!")
    elif hand.is_bust:
        parts.append("bust")
    if wagering:
        parts.append(f"bet {money_text(hand.bet, unicode)}" + (" (doubled)" if hand.doubled else ""))
    if hand.outcome is not None:
        if even_money_net is not None:
            parts.append(f"EVEN MONEY {_signed(even_money_net, unicode)}")
        else:
            parts.append(_outcome_text(hand.outcome.result, hand.outcome.net, wagering, unicode))
        if cancelled:
            parts.append("(Thunderjacks cancel)")
    return "  ".join(parts)


def shown_total(hand: HandView) -> str:
    """A player hand's total as text: ``hand.total_text`` (``"7 / 17"`` when soft, as justBlackjack
    shows it) while the hand takes decisions, ``hand.total`` (``"17"``) once it is finished or settled."""
    if hand.finished or hand.outcome is not None:
        return str(hand.total)
    return hand.total_text


def _dealer_total(view: TableView) -> str:
    """The dealer's total as shown: the face-up cards' (``"9 showing"``) until the reveal, one total once settled."""
    dealer = view.dealer
    if not dealer.revealed:
        return f"{dealer.total_text} showing"
    return str(dealer.total) if view.phase is Phase.SETTLED else dealer.total_text


def even_money(seat: SeatView) -> bool:
    """True when ``seat`` took even money: insurance of half the bet on a natural (paid 1:1 whatever the dealer holds).

    Insurance for less than half the bet on a natural is plain insurance.
    """
    hands = seat.hands
    return (len(hands) == 1 and hands[0].is_blackjack and bool(seat.insurance)
            and seat.insurance == Fraction(hands[0].bet) / 2)


def thunderjacks_cancel(view: TableView) -> bool:
    """True when two or more seats hold a Thunderjack, which push each other (Thunderjack design data)."""
    return sum(1 for seat in view.seats if seat.hands and seat.hands[0].is_thunderjack) > 1


def money_text(amount: Money, unicode: bool = True) -> str:
    """``amount`` (exact money in the table's currency units) as the text a person reads, a ``str`` from
    :func:`~blackjack.money.show_money`; with ``unicode`` False its ``…`` is written ``...``. Raises nothing."""
    text = show_money(amount)
    return text if unicode else text.replace("…", "...")


def _signed(net: Money, unicode: bool) -> str:
    return ("+" if net > 0 else "") + money_text(net, unicode)


def _outcome_text(result: Result, net: Money, wagering: bool, unicode: bool = True) -> str:
    if not wagering:
        return result.label
    return f"{result.label} {_signed(net, unicode)}"


def table_text(view: TableView, *, unicode: bool = True, plain: bool = False,
               insurance: Mapping[int, Money] | None = None, width: int | None = None) -> str:
    """The whole table: the dealer, then every seat that is playing, with cards drawn unless ``plain``.

    Args:
        view: the table.
        unicode: use suit symbols and box lines.
        plain: one line per hand, each starting with the player's name; no card drawings.
        insurance: each seat's settled insurance gain (``Round.insurance_net``), so a seat
            that took even money shows its whole result as ``EVEN MONEY +10``.
        width: the screen's width (None: no limit): card drawings are laid out in rows that fit
            it, and a width too narrow for one indented card gives the ``plain`` form. The text
            lines are not wrapped here: the console wraps text.
    """
    if width is not None and width < _ART_INDENT + CARD_WIDTH:
        plain = True
    lines: list[str] = []
    dealer = view.dealer
    if dealer.cards:
        lines.append(f"Dealer: {_cards(dealer.cards, unicode)} = {_dealer_total(view)}")
        if not plain:
            lines.append(card_art(dealer.cards, unicode=unicode, width=width))
    cancelled = thunderjacks_cancel(view)
    for seat in view.seats:
        if not seat.hands:
            continue
        lines.extend(_seat_lines(view, seat, unicode=unicode, plain=plain, insurance=insurance or {},
                                 cancelled=cancelled, width=width))
    return "\n".join(lines)


def _seat_lines(view: TableView, seat: SeatView, *, unicode: bool, plain: bool, insurance: Mapping[int, Money],
                cancelled: bool, width: int | None) -> list[str]:
    wagering = view.rules.wagering
    money = f"bankroll {money_text(seat.bankroll, unicode)}" if wagering else ""
    lines = [] if plain else [f"{seat.name}{f' ({money})' if money else ''}:"]
    many = len(seat.hands) > 1
    even = None
    if seat.index in insurance and even_money(seat) and seat.hands[0].outcome is not None:
        even = seat.hands[0].outcome.net + insurance[seat.index]
    for j, hand in enumerate(seat.hands):
        marker = "> " if view.turn == (seat.index, j) else "  "
        label = f"hand {j + 1}: " if many else ""
        line = hand_line(hand, unicode=unicode, wagering=wagering, even_money_net=even,
                         cancelled=cancelled and hand.is_thunderjack)
        if plain:
            name = f"{seat.name} hand {j + 1}" if many else seat.name
            lines.append(f"{marker}{name}: {line}" + (f"  ({money})" if money and j == 0 else ""))
        else:
            lines.append(f"{marker}{label}{line}")
            art = card_art(hand.cards, unicode=unicode, width=None if width is None else width - _ART_INDENT)
            lines.extend(" " * _ART_INDENT + row for row in art.splitlines())
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
        return f"{seat.name}{which} draws {card}: {shown_total(seat.hands[event.hand])}."
    if isinstance(event, HoleCardRevealed):
        return f"Dealer turns over the hole card: {card_text(event.card, unicode=unicode)}."
    if isinstance(event, DealerPeeked):
        return "Dealer checks for blackjack... " + ("BLACKJACK!" if event.natural else "no blackjack.")
    if isinstance(event, InsuranceSettled) and wagering:
        if even_money(view.seats[event.seat]):
            return f"{names[event.seat]} takes even money: the natural is paid 1:1 whatever the dealer holds."
        verb, amount = ("wins", event.net) if event.net > 0 else ("loses", -event.net)
        return f"{names[event.seat]}'s insurance {verb} {money_text(amount, unicode)}."
    if isinstance(event, HandSettled):
        seat = view.seats[event.seat]
        which = f" (hand {event.hand + 1})" if len(seat.hands) > 1 else ""
        hand = seat.hands[event.hand]
        outcome = event.outcome
        paid = f", {_signed(outcome.net, unicode)}" if wagering else ""
        if outcome.result is Result.THUNDERJACK:
            odds = _odds(view.rules.thunderjack_pays)
            return (f"THUNDERJACK! {names[event.seat]}'s {_cards(hand.cards, unicode)} is a suited blackjack with a "
                    f"jack, queen or king: it wins {odds} at once, even against a dealer blackjack{paid}.")
        if outcome.result is Result.BLITZ:
            return (f"BLITZ! {names[event.seat]}{which} has {len(hand.cards)} cards without busting: "
                    f"it wins {_odds(view.rules.charlie_pays)} at once{paid}.")
        if outcome.result is Result.PUSH and hand.is_thunderjack:
            count = sum(1 for s in view.seats if s.hands and s.hands[0].is_thunderjack)
            return (f"{names[event.seat]}'s Thunderjack is a push: {count} Thunderjacks at the table cancel "
                    "each other, so the bet comes back.")
        if seat.insurance and even_money(seat):
            return f"{names[event.seat]}{which}: {outcome.result.label} (with even money)"
        text = _outcome_text(outcome.result, outcome.net, wagering, unicode)
        return f"{names[event.seat]}{which}: {text}"
    if isinstance(event, RoundSettled):
        total = event.dealer_total
        if event.dealer_natural:
            return "Dealer has blackjack."
        if not event.dealer_drew:
            return f"Dealer has {total}; no hand is left for the dealer to play against."
        return f"Dealer busts with {total}." if total > 21 else f"Dealer stands on {total}."
    return None  # BetPlaced, ActionTaken: the prompts and the table drawing show them


def announced(event: Event, view: TableView) -> bool:
    """True for a settled hand the game announces even when the results table shows it too:
    a Thunderjack, a Blitz, and Thunderjacks that cancel each other."""
    if not isinstance(event, HandSettled):
        return False
    result = event.outcome.result
    return result in (Result.THUNDERJACK, Result.BLITZ) or (
        result is Result.PUSH and view.seats[event.seat].hands[event.hand].is_thunderjack)


def _cards(cards: Sequence[Card | Hidden], unicode: bool) -> str:
    return " ".join(card_text(c, unicode=unicode) for c in cards)


def _odds(pays: Fraction | None) -> str:
    """Odds as a table says them: ``Fraction(3)`` is ``"3:1"``, ``Fraction(6, 5)`` ``"6:5"``."""
    return "" if pays is None else f"{pays.numerator}:{pays.denominator}"
