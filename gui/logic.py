"""Pure decision helpers of the Tk table: what to enable, what to write, where to draw.

Nothing here imports :mod:`tkinter`, so every function is tested without a display
(IDLE's first test layer, style guide point 14). No blackjack rule lives here either:
legality comes from ``view.legal_actions``, totals from ``HandView.total_text``,
outcomes from ``HandView.outcome``.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from blackjack import (Action, CardDealt, Event, HandSettled, HoleCardRevealed, InsuranceSettled, InvalidBetError,
                       Outcome, Phase, Result, Rules, Money, SeatView, TableView, format_money)
from blackjack.money import parse_amount

__all__ = [
    "BUTTONS", "CHIP_COLORS", "CHIP_VALUES", "Box", "ButtonSpec", "ERROR_TEXT", "FOCUS_COLOR", "MIN_FELT_TEXT",
    "CORNER", "HAND_GAP", "HAND_STEP", "MIN_HAND_SCALE", "MIN_HAND_STEP", "MIN_WINDOW", "MUTED_TEXT", "Pending", "RAIL_GAP", "RIGHT_TEXT", "SCREEN_MARGIN", "WINDOW",
    "affordable_chips", "banner_lines", "button_states", "card_size", "chip_color", "contrast_ratio", "dealer_slots",
    "dimmed", "felt_text", "hand_slots", "insurance_label", "insurance_limit", "insurance_text", "legal_order",
    "mnemonics", "odds", "pending_from", "preset_title", "rail_box", "read_bankroll", "relative_luminance", "result_color",
    "result_text", "seat_area", "short_money", "signed_money", "status_text", "step_stake", "table_card", "table_chips", "window_size",
]


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button of the action bar.

    Attributes:
        name: the key in :func:`button_states` (``"hit"``, ``"deal"`` ...).
        label: the text on the button.
        action: the engine action it applies, or None for Deal / New round.
    """

    name: str
    label: str
    action: Action | None = None

    @property
    def keys(self) -> tuple[str, ...]:
        """The keysyms that press it: the engine's ``Action.key`` (a lower case letter), else Space and Enter."""
        return (self.action.key,) if self.action is not None else ("space", "Return")

    @property
    def underline(self) -> int:
        """The index of the shortcut letter in ``label``, underlined (-1: none)."""
        return self.label.lower().find(self.action.key) if self.action is not None else -1


#: The action bar, left to right.
BUTTONS: tuple[ButtonSpec, ...] = (
    ButtonSpec("hit", "Hit", Action.HIT),
    ButtonSpec("stand", "Stand", Action.STAND),
    ButtonSpec("double", "Double", Action.DOUBLE),
    ButtonSpec("split", "Split", Action.SPLIT),
    ButtonSpec("surrender", "Surrender", Action.SURRENDER),
    ButtonSpec("insurance", "Insurance", Action.INSURANCE),
    ButtonSpec("decline", "No thanks", Action.DECLINE),
    ButtonSpec("deal", "Deal"),
    ButtonSpec("new_round", "New round"),
)

#: Chip denominations on the betting rail, credits.
CHIP_VALUES: tuple[int, ...] = (1, 5, 25, 100, 500)
#: Chip colours by value, as casinos in the US usually colour them (white 1, red 5, green 25,
#: black 100, purple 500).
CHIP_COLORS: dict[int, str] = {1: "#eeeeee", 5: "#d32f2f", 25: "#2e7d32", 100: "#212121", 500: "#6a1b9a"}


def button_states(view: TableView | None) -> dict[str, bool]:
    """``{button name: enabled}`` for every name in :data:`BUTTONS` and the round's ``view`` (None: no round).

    An action button is enabled exactly when its action is in ``view.legal_actions``; ``"deal"``
    in the BETTING phase once a seat has a bet (at a table played for no money, at once);
    ``"new_round"`` when the round is SETTLED or there is none.
    """
    legal = view.legal_actions if view is not None else frozenset()
    states = {spec.name: spec.action in legal for spec in BUTTONS if spec.action is not None}
    states["deal"] = view is not None and view.phase is Phase.BETTING and (
        not view.rules.wagering or any(seat.bet > 0 for seat in view.seats))
    states["new_round"] = view is None or view.phase is Phase.SETTLED
    return states


def signed_money(amount: Fraction | int) -> str:
    """Show a gain with its sign: ``"+10"``, ``"-7.5"``, ``"0"``."""
    text = format_money(amount)
    return "+" + text if amount > 0 else text


def result_text(outcome: Outcome) -> str:
    """The label under a settled hand: its result's table word and net gain with its sign (``"WIN +10"``,
    ``"BUST -10"``, ``"PUSH 0"``)."""
    return f"{outcome.result.label} {signed_money(outcome.net)}"


_RESULT_COLORS = {
    Result.WIN: "#ffe066", Result.BLACKJACK: "#ffd700", Result.THUNDERJACK: "#ff9f1c", Result.BLITZ: "#ff9f1c",
    Result.PUSH: "#dddddd", Result.LOSE: "#ff8a80", Result.BUST: "#ff5252", Result.SURRENDER: "#c0c0c0",
}


def result_color(result: Result) -> str:
    """The colour of a result label: gold for wins, grey for pushes and surrenders, red for losses."""
    return _RESULT_COLORS[result]


def insurance_label(view: TableView | None) -> str:
    """Name the insurance button: "Even money" when the deciding hand is a natural (the engine's
    ``view.even_money``), else "Insurance". The action stays ``Action.INSURANCE``: only the words differ."""
    return "Even money" if view is not None and view.even_money else "Insurance"


def insurance_limit(view: TableView | None) -> Fraction | None:
    """The largest insurance (or even money) stake the deciding seat may take now, credits: the engine's
    ``view.insurance_limit``, what ``Round.apply(Action.INSURANCE)`` takes with no amount. None with no view,
    when no offer waits for an answer, or when the seat has no money left (the engine offers only No thanks)."""
    return None if view is None or view.insurance_limit is None else Fraction(view.insurance_limit)


def insurance_text(stake: Money, net: Money | None, *, even_money: bool = False) -> str:
    """The label beside a seat's bet for its insurance stake, credits (``SeatView.insurance``).

    ``net`` is the engine's ``InsuranceSettled.net``, None while the insurance is not settled;
    ``even_money`` (``blackjack.text_render.even_money``) names the stake so. Returns
    ``"Insurance 2.5"`` while the stake waits, then ``"Insurance won +5"`` or ``"Insurance lost -2.5"``
    (``"Even money 5"``, ``"Even money won +10"``).
    """
    name = "Even money" if even_money else "Insurance"
    if net is None:
        return f"{name} {format_money(stake)}"
    word = "won" if net > 0 else "lost" if net < 0 else "settled"
    return f"{name} {word} {signed_money(net)}"


_SUFFIXES = (("T", 10 ** 12), ("B", 10 ** 9), ("M", 10 ** 6), ("k", 10 ** 3))


def short_money(amount: Fraction | int) -> str:
    """Abbreviate ``amount`` credits for a small space (the bet circle), never overstating it.

    From 1000 on, in thousands (``k``), millions (``M``), billions (``B``) or trillions (``T``),
    with one decimal below 10 of the unit, cut toward zero: 20000 is ``"20k"``, 1234567 is
    ``"1.2M"``, 19999 is ``"19k"``; smaller amounts as :func:`blackjack.format_money` writes them.
    The text is not exact, so wherever it is shown the exact amount must be shown too.
    """
    value = Fraction(amount)
    sign, value = ("-", -value) if value < 0 else ("", value)
    for suffix, unit in _SUFFIXES:
        if value >= unit:
            scaled = value / unit
            if scaled < 10:
                whole, tenth = divmod(math.floor(scaled * 10), 10)
                return f"{sign}{whole}{f'.{tenth}' if tenth else ''}{suffix}"
            return f"{sign}{math.floor(scaled)}{suffix}"
    return sign + format_money(value)


def step_stake(text: str, most: Money, up: bool) -> str:
    """The insurance box's next value after its up (``up``) or down arrow, from the ``text`` it holds.

    The next whole number of credits up or down (from 2.5: 3 or 2), kept between 1 (or ``most``,
    the largest stake allowed, when that is less) and ``most``, as :func:`blackjack.format_money`
    writes it; text that is not an amount goes to ``most``.
    """
    try:
        value = parse_amount(text)
    except InvalidBetError:
        return format_money(most)
    step = Fraction(math.floor(value) + 1 if up else math.ceil(value) - 1)
    return format_money(max(min(Fraction(1), Fraction(most)), min(Fraction(most), step)))


def legal_order(actions: Iterable[Action]) -> list[Action]:
    """The actions in ``Action``'s order (hit, stand, double, split, surrender, insurance, decline), the text
    game's menu order: the status line's choices and the hint panel's EV list (a mapping gives its keys)."""
    given = set(actions)
    return [action for action in Action if action in given]


def status_text(view: TableView | None, typing: str | None = None) -> str:
    """The one-line prompt under the table: whose turn it is, what they may do, and what Enter does now.

    Args:
        view: the round's view, or None.
        typing: the amount box that has the keyboard focus, ``"bet"`` or ``"insurance"``
            (Enter there places the bet or takes insurance); None elsewhere.
    """
    if view is None:
        return "Press New round (Enter) to start."
    if view.phase is Phase.BETTING:
        if typing == "bet":
            return "Type a bet: Enter places it, then Enter again deals."
        return "Place your bets: click a chip (right-click removes it) or type an amount, then Deal (Enter)."
    if view.phase is Phase.SETTLED:
        return "Round over. New round (Enter)."
    seat, hand = view.current_seat, view.current_hand
    if seat is None or hand is None:
        return f"Dealer's turn ({view.phase.value})."
    choices = ", ".join(a.value for a in legal_order(view.legal_actions))
    upcard = view.dealer.upcard.symbol if view.dealer.upcard is not None else "?"
    box = " Type the stake, Enter takes it." if typing == "insurance" else ""
    if view.phase is Phase.INSURANCE and view.even_money:  # the same actions, in even money's words
        take = "" if Action.INSURANCE in view.legal_actions else " (not enough money left)"
        return (f"{seat.name}: a natural against {upcard}. Take even money (Even money, I){take} "
                f"or no even money (No thanks, N)?{box}")
    if view.phase is Phase.INSURANCE:
        return f"{seat.name}: {insurance_label(view)}? The dealer shows {upcard}. ({choices}){box}"
    if view.phase is Phase.EARLY_SURRENDER:
        return f"{seat.name}: surrender early against {upcard}? ({choices})"
    which = f" (hand {view.turn[1] + 1} of {len(seat.hands)})" if view.turn and len(seat.hands) > 1 else ""
    return f"{seat.name}{which}: {hand.total_text} against {upcard}. {choices.capitalize()}?"


def affordable_chips(bankroll: Money, bet: Money, rules: Rules) -> list[int]:
    """The values of :data:`CHIP_VALUES` a seat may add to its ``bet`` so far without passing its ``bankroll``
    (the bet not yet taken off) or ``rules.max_bet``, all in credits."""
    room = min(bankroll, rules.max_bet) - bet
    return [value for value in CHIP_VALUES if value <= room]


def chip_color(amount: Money) -> str:
    """The colour of the chip for ``amount`` credits: that of the largest denomination in :data:`CHIP_VALUES`
    that ``amount`` reaches (a bet of 30 is green, the 25 chip's colour), the smallest's below 1."""
    value = max((v for v in CHIP_VALUES if v <= amount), default=CHIP_VALUES[0])
    return CHIP_COLORS[value]


def dimmed(color: str, share: float = 0.55) -> str:
    """``color`` (``"#rrggbb"``) faded toward light grey by ``share`` (0: unchanged, 1: grey): a chip that cannot be
    added keeps its own colour, so its value can still be told by colour, but looks unavailable."""
    grey = 0xd0
    parts = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (grey - c) * share):02x}" for c in parts)


def table_chips(seat: SeatView, held: Collection[tuple[int, int]] = ()) -> tuple[Money, Money]:
    """The chips on the table for seat ``seat``: what stays in its bet circle, and the house's payout beside it.

    Returns ``(in the circle, paid beside it)``, credits. A hand not settled (or whose result is
    still ``held`` back by the animation, as ``(seat, hand)``) keeps its bet in the circle; a
    settled hand's ``Outcome.net`` sweeps a loss away (a surrender's half stays), and pays a win.
    """
    if not seat.hands:
        return seat.bet, Fraction(0)
    kept: Money = Fraction(0)
    paid: Money = Fraction(0)
    for j, hand in enumerate(seat.hands):
        outcome = None if (seat.index, j) in held else hand.outcome
        if outcome is None:
            kept += hand.bet
        else:
            kept += max(Fraction(0), hand.bet + min(Fraction(0), outcome.net))
            paid += max(Fraction(0), outcome.net)
    return kept, paid


def odds(pays: Fraction) -> str:
    """A payout ratio as a table prints it: ``Fraction(3, 2)`` is ``"3 TO 2"``, ``Fraction(5)`` is ``"5 TO 1"``."""
    return f"{pays.numerator} TO {pays.denominator}"


def banner_lines(rules: Rules) -> tuple[str, str, str]:
    """The felt's printing, read from ``rules`` (nothing is hard-coded, so a custom table prints its own payouts).

    Returns:
        ``(pays, bonus, dealer)``: the natural's payout (``"BLACKJACK PAYS 3 TO 2"``); the bonus
        payouts (a Charlie win is a Blitz, as the engine calls it) or ``""``; and the dealer's rule
        with the rules' summary line.
    """
    pays = f"BLACKJACK PAYS {odds(rules.blackjack_pays)}" if rules.naturals else "A 21 IS A 21: NO NATURALS"
    if not rules.wagering:
        pays += "  ·  PLAYED FOR NO MONEY"
    bonus: list[str] = []
    if rules.thunderjack_pays is not None:
        bonus.append(f"THUNDERJACK PAYS {odds(rules.thunderjack_pays)}")
    if rules.charlie_cards is not None:
        bonus.append(f"BLITZ ({rules.charlie_cards} CARDS) PAYS {odds(rules.charlie_pays)}")
    stands = "DEALER HITS SOFT 17" if rules.dealer_hits_soft_17 else "DEALER STANDS ON ALL 17s"
    return pays, "  ·  ".join(bonus), f"{stands}  ·  {rules.summary()}"


#: The main window's size where the screen has room, pixels (width, height).
WINDOW = (1200, 700)
#: The smallest main window the layout is made for (``root.minsize``), pixels; less on a smaller screen.
MIN_WINDOW = (980, 620)
#: Pixels of the screen kept free round a window: the window manager's borders and title bar and a
#: desktop panel (a title bar is about 30 pixels, a panel 25 to 48).
SCREEN_MARGIN = (16, 80)


def window_size(screen_width: int, screen_height: int) -> tuple[int, int]:
    """The main window's first size (width, height), pixels, on a screen of that size.

    :data:`WINDOW` where it fits; else the screen less :data:`SCREEN_MARGIN`, so the whole
    window with its title bar is on a 1024 x 768 screen (1008 x 688).
    """
    return (min(WINDOW[0], screen_width - SCREEN_MARGIN[0]), min(WINDOW[1], screen_height - SCREEN_MARGIN[1]))


def read_bankroll(text: str, rules: Rules) -> Fraction:
    """Read a starting bankroll as typed in the New game dialog or given as ``--bankroll``.

    An amount read as every typed amount is (:func:`blackjack.money.parse_amount`: ``"200"``,
    ``"2.5"``, ``"1_000"``; not ``"5/2"`` or ``"1e3"``) that covers the table minimum; empty text
    gives the rules' starting bankroll.

    Raises:
        InvalidBetError: not an amount (the one-line message starts ``bankroll:``), or
            less than ``rules.min_bet``.
    """
    text = text.strip()
    if not text:
        return Fraction(rules.starting_bankroll)
    try:
        bankroll = parse_amount(text)
    except InvalidBetError as err:
        raise InvalidBetError(f"bankroll: {err}", text) from None
    if bankroll < rules.min_bet:
        raise InvalidBetError(f"the bankroll must cover the table minimum of {format_money(rules.min_bet)}, "
                              f"got {format_money(bankroll)}", text)
    return bankroll


# ============================================================================== layout
@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on the canvas in pixels: top-left ``(x, y)``, width ``w``, height ``h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def center(self) -> tuple[float, float]:
        """The middle point ``(x, y)``."""
        return self.x + self.w / 2, self.y + self.h / 2


#: Card proportions of a poker-size card (63 x 88 mm).
CARD_RATIO = 63 / 88
#: The dealer's row keeps this many pixels from the canvas's left edge when it has to move left.
DEALER_MARGIN = 12.0
#: The least a dealer's card shows of itself under the next one, as a share of its width.
DEALER_MIN_STEP = 0.3


def card_size(width: float, height: float) -> tuple[float, float]:
    """Card width and height in pixels for a table canvas of ``width`` x ``height`` pixels.

    The card is a fifth of the table's height, narrower if the table is very narrow,
    and never smaller than 36 x 50 pixels.
    """
    h = max(50.0, min(height / 5, width / 6 / CARD_RATIO))
    return h * CARD_RATIO, h


def dealer_slots(width: float, height: float, n_cards: int, right: float | None = None,
                 label: float = 0.0, card: tuple[float, float] | None = None) -> list[Box]:
    """Where the dealer's ``n_cards`` cards go: a row near the top that fans to the right, overlapping when many.

    Args:
        width, height: the canvas size, pixels.
        n_cards: the dealer's cards on show.
        right: nothing of the dealer's may reach past this x (the shoe's left edge);
            default: the canvas's right edge.
        label: the room, pixels, to keep right of the last card for the dealer's total.
        card: the table's card size (:func:`table_card`); default :func:`card_size`.

    Cards on the table stay put as more come. When the row would pass ``right``, the cards
    overlap (down to half a card), then the row moves left, then they overlap more (down to
    :data:`DEALER_MIN_STEP`), and only then do they shrink.
    """
    w, h = card if card is not None else card_size(width, height)
    left = DEALER_MARGIN
    limit = (width if right is None else min(width, right)) - label
    room = max(1.0, limit - left)
    gaps = max(1, n_cards - 1)
    step = w * 1.08
    x0 = max(left, (width - w - step) / 2)  # the first card's place: two cards centred, later ones to the right
    if x0 + w + step * gaps > limit:  # full: overlap down to half a card, then start further left
        step = max(w * 0.5, (limit - x0 - w) / gaps)
        x0 = max(left, min(x0, limit - w - step * gaps))
    if x0 + w + step * gaps > limit:  # overlap more, then shrink
        step = max(w * DEALER_MIN_STEP, (room - w) / gaps)
        span = w + step * gaps
        if span > room:
            scale = room / span
            w, h, step = w * scale, h * scale, step * scale
        x0 = left
    y = height * 0.09
    return [Box(x0 + i * step, y, w, h) for i in range(n_cards)]


#: Pixels between the table's rail and the seats' lines under it (the rail's own width included).
RAIL_GAP = 10


def rail_box(width: float, height: float, bottom: float) -> tuple[float, float, float, float]:
    """The oval whose lower arc is the table's rail, ``(x1, y1, x2, y2)`` pixels: a flat arc, lowest (at
    ``bottom``) in the middle."""
    return -1.5 * width, bottom - 1.2 * height, 2.5 * width, bottom


def seat_area(width: float, height: float, n_seats: int, seat: int) -> Box:
    """The part of the table that belongs to seat ``seat`` of ``n_seats``, left to right."""
    share = width / n_seats
    return Box(seat * share, height * 0.48, share, height * 0.52)


#: The smallest the table's cards get to fit a seat's split hands, as a share of a normal card's size.
MIN_HAND_SCALE = 0.7
#: How much of a card shows under the next one in a hand, as a share of its width: at least half (the face
#: of a jack, queen or king stays in view), more where the seat has room.
MIN_HAND_STEP, HAND_STEP = 0.5, 0.6
#: The gap between a seat's split hands, as a share of a card's width.
HAND_GAP = 0.15


def _lanes(width: float, height: float, n_seats: int, seat: int, n_hands: int, w: float) -> tuple[float, float]:
    """The left edge of the first of a seat's ``n_hands`` lanes and the lanes' width, for cards ``w`` wide."""
    area = seat_area(width, height, n_seats, seat)
    usable = area.w * 0.94
    lane = (usable - HAND_GAP * w * (n_hands - 1)) / n_hands
    return area.x + (area.w - usable) / 2, lane


def table_card(width: float, height: float, n_seats: int, cards: Sequence[Sequence[int]]) -> tuple[float, float]:
    """The one card size (width, height) of the whole table, dealer's cards included, pixels.

    :func:`card_size` of the canvas, made smaller (never below :data:`MIN_HAND_SCALE` of it) when
    a seat's hands would otherwise show less than :data:`MIN_HAND_STEP` of each card. ``cards``:
    for each of the ``n_seats`` seats, how many cards each of its hands holds.
    """
    w, h = card_size(width, height)
    scale = 1.0
    for seat, hands in enumerate(cards):
        for n in hands:
            _x, lane = _lanes(width, height, n_seats, seat, max(1, len(hands)), w)
            scale = min(scale, lane / (w * (1 + MIN_HAND_STEP * max(0, n - 1))))
    scale = max(MIN_HAND_SCALE, scale)
    return w * scale, h * scale


def hand_slots(width: float, height: float, n_seats: int, seat: int, cards_per_hand: Sequence[int],
               card: tuple[float, float] | None = None) -> list[list[Box]]:
    """Where each card of each hand of one seat goes.

    Each hand has a lane of its own in the seat's area; its cards fan to the right and a little
    down, :data:`HAND_STEP` of a card apart, each staying put as the next arrives. A full lane
    closes them up to :data:`MIN_HAND_STEP`, then starts the hand further left; at the table's
    smallest cards the hands overlap each other (:func:`_overlapping`).

    Args:
        width, height: the canvas size, pixels.
        n_seats: seats at the table.
        seat: this seat's index.
        cards_per_hand: how many cards each of the seat's hands holds, left to right.
        card: the table's card size (:func:`table_card`); default :func:`card_size`.

    Returns:
        One list of :class:`Box` per hand, one box per card.
    """
    area = seat_area(width, height, n_seats, seat)
    w, h = card if card is not None else card_size(width, height)
    n_hands = max(1, len(cards_per_hand))
    left, lane = _lanes(width, height, n_seats, seat, n_hands, w)
    y0 = area.y + area.h * 0.08
    drop = h * 0.06
    longest = max([1, *cards_per_hand])
    if n_hands > 1 and lane < w * (1 + MIN_HAND_STEP * (longest - 1)):  # too narrow: the hands overlap
        return _overlapping(left, lane * n_hands + HAND_GAP * w * (n_hands - 1), y0, drop, w, h, cards_per_hand)
    stride = lane + HAND_GAP * w
    slots: list[list[Box]] = []
    for k, n in enumerate(cards_per_hand):
        lane_x = left + k * stride
        x0 = lane_x + max(0.0, (lane - w * (1 + HAND_STEP)) / 2)
        step = w * HAND_STEP
        if n > 1 and x0 + w + step * (n - 1) > lane_x + lane:  # the lane is full: close up, then start further left
            step = max(w * MIN_HAND_STEP, (lane_x + lane - x0 - w) / (n - 1))
            x0 = max(lane_x, min(x0, lane_x + lane - w - step * (n - 1)))
            step = min(step, (lane - w) / (n - 1)) if x0 + w + step * (n - 1) > lane_x + lane else step
        slots.append([Box(x0 + i * step, y0 + i * drop, w, h) for i in range(n)])
    return slots


#: What a card of a hand still shows when the seat's hands must overlap: its corner index, as a share of its width.
CORNER = 0.24


def _overlapping(left: float, usable: float, y0: float, drop: float, w: float, h: float,
                 cards_per_hand: Sequence[int]) -> list[list[Box]]:
    """A seat's hands when even the table's smallest cards do not fit side by side: each hand overlaps the next,
    its cards half a card apart, or closer (down to :data:`CORNER`) when that is still too wide."""
    gaps = len(cards_per_hand) - 1
    steps = max([1, *cards_per_hand]) - 1
    step = w * MIN_HAND_STEP
    hand_w = w + step * steps
    stride = (usable - hand_w) / gaps
    shows = w * CORNER  # what a hand's last card shows beside the next hand
    if steps and stride < step * steps + shows:  # then a hand's own cards overlap further
        step = max(0.0, ((usable - w) / gaps - shows) / (steps * (gaps + 1) / gaps))
        hand_w = w + step * steps
        stride = (usable - hand_w) / gaps
    return [[Box(left + k * stride + i * step, y0 + i * drop, w, h) for i in range(n)]
            for k, n in enumerate(cards_per_hand)]


# ============================================================================ animation
@dataclass
class Pending:
    """What the table must not show yet because its events are still queued for animation.

    Attributes:
        cards: ``(seat, hand)`` -> cards dealt to that hand not yet shown (seat None: dealer).
        hole: the hole card's reveal is still queued: draw it face down.
        settled: ``(seat, hand)`` whose result label is still queued.
        insurance: seats whose insurance result is still queued (their stake is shown instead).
    """

    cards: dict[tuple[int | None, int], int] = field(default_factory=dict)
    hole: bool = False
    settled: set[tuple[int, int]] = field(default_factory=set)
    insurance: set[int] = field(default_factory=set)

    def hidden(self, seat: int | None, hand: int) -> int:
        """How many of the hand's last cards are still to be shown."""
        return self.cards.get((seat, hand), 0)


def pending_from(events: Iterable[Event]) -> Pending:
    """Work out what to hold back from the events still waiting in the animation queue."""
    pending = Pending()
    for event in events:
        if isinstance(event, CardDealt):
            key = (event.seat, event.hand)
            pending.cards[key] = pending.cards.get(key, 0) + 1
        elif isinstance(event, HoleCardRevealed):
            pending.hole = True
        elif isinstance(event, HandSettled):
            pending.settled.add((event.seat, event.hand))
        elif isinstance(event, InsuranceSettled):
            pending.insurance.add(event.seat)
    return pending


# ====================================================================== readability
#: Text colours of the window's panels, each at least 4.5:1 (WCAG AA) on the theme's grey (#d9d9d9).
MUTED_TEXT = "#4a4a4a"
#: A refused bet or a wrong coach verdict: a dark red, 4.9:1 on the panels' grey.
ERROR_TEXT = "#a31515"
#: A right coach verdict: a dark green.
RIGHT_TEXT = "#1b5e20"
#: The keyboard focus ring and the focused button's face.
FOCUS_COLOR = "#0b4fa3"
#: The smallest felt text, pixels (names, money, the shoe's count, the felt's printing).
MIN_FELT_TEXT = 12


def relative_luminance(color: str) -> float:
    """The relative luminance of ``"#rrggbb"`` (WCAG 2.x): 0 for black, 1 for white.

    Each sRGB channel ``c`` in 0..1 is linearised (``c / 12.92`` up to 0.04045, else
    ``((c + 0.055) / 1.055) ** 2.4``) and weighted 0.2126 R + 0.7152 G + 0.0722 B.
    """
    channels = [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: str, second: str) -> float:
    """The WCAG 2.x contrast ratio of two ``"#rrggbb"`` colours, from 1 (same) to 21 (black on white).

    ``(L1 + 0.05) / (L2 + 0.05)`` with L1 the lighter colour's :func:`relative_luminance`.
    Normal text needs at least 4.5 (level AA).
    """
    a, b = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def preset_title(rules: Rules) -> str:
    """A preset's human name for the Rules menu, read from its description (``presets.toml``).

    The description's words before its first colon (``"Atlantic City: 8 decks, ..."`` is
    ``"Atlantic City"``), or before its first comma when that comes first (``"Single
    deck, dealer hits soft 17, ..."`` is ``"Single deck"``), without a leading "The", with a
    capital first letter unless the first word is spelt with an inner one (``"justBlackjack"``).
    Rules without a description are named by their ``name``.
    """
    text = rules.description.strip()
    cuts = [i for i in (text.find(":"), text.find(",")) if i > 0]
    title = text[:min(cuts)].strip() if cuts else text
    if title.lower().startswith("the "):
        title = title[4:]
    if not title:
        return rules.name
    first = title.split(" ")[0]
    return title if any(c.isupper() for c in first[1:]) else title[:1].upper() + title[1:]  # justBlackjack stays


def mnemonics(labels: Sequence[str]) -> list[int]:
    """The index of the underlined letter in each menu label: the first letter or digit not taken by an
    earlier label (so Alt plus that letter picks one entry), else -1 (no underline)."""
    taken: set[str] = set()
    found: list[int] = []
    for label in labels:
        index = next((i for i, c in enumerate(label) if c.isalnum() and c.lower() not in taken), -1)
        if index >= 0:
            taken.add(label[index].lower())
        found.append(index)
    return found


def felt_text(width: float, height: float, share: float) -> int:
    """The pixel size of a text on a felt of ``width`` x ``height`` pixels, ``share`` of the felt's text scale: its
    height, grown in a wide, short window so the text does not look tiny there (at least :data:`MIN_FELT_TEXT`)."""
    scale = max(height, min(width * 0.62, height * 1.3))
    return max(MIN_FELT_TEXT, round(scale * share))
