"""The green table: one canvas that draws a :class:`~blackjack.TableView`, and nothing else.

:meth:`TableCanvas.render` clears the canvas and draws the view again at the
canvas's current size, so cards stay crisp when the window is resized. It holds no
rule: totals, results and insurance stakes are the view's (docs/gui.md, "For developers").

Canvas tags (for tests and for people reading the code), besides those docs/gui.md lists:

==========================  ====================================================
tag                         items
==========================  ====================================================
``dealer``                  the dealer's cards (``facedown`` on the hole card)
``dealer_total``            the dealer's total text
``seat<i>``                 everything of seat i (name, bankroll, bet, cards)
``hand_<i>_<j>``            the cards of hand j of seat i
``total_<i>_<j>``           that hand's total text (``"7 / 17"`` when soft)
``result_<i>_<j>``          that hand's result label (``"WIN +10"``), also ``result``
``bet<i>``                  seat i's bet circle and amount
``sweep<i>``                a lost bet's chips on their way to the dealer (animated; also ``sweep``)
``turn``                    the frame around the hand whose decision it is
``banner``                  the felt's printing: ``banner_pays`` (``"BLACKJACK PAYS 3 TO 2"``),
                            ``banner_bonus`` and ``banner_dealer`` (the dealer's rule and the summary)
==========================  ====================================================
"""

from __future__ import annotations

import math
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from blackjack import Card, Hand, Hidden, Money, Phase, TableView, format_money
from blackjack.events import RoundSettled
from blackjack.text_render import even_money, shown_total

from .cards import FONT_FAMILY, chip_stacks, draw_card, draw_chip_stacks, draw_sideways, rounded_rectangle
from .logic import (CHIP_COLORS, CHIP_VALUES, RAIL_GAP, Box, Pending, banner_lines, card_size, chip_color,
                    dealer_slots, felt_text, hand_slots, insurance_text, rail_box, result_color, result_text,
                    seat_area, short_money, table_card, table_chips)

__all__ = ["MIN_FONT", "TableCanvas", "bet_radius"]

FELT = "#0f6b35"
FELT_EDGE = "#0a4f27"
INK = "#f4f1e1"
GOLD = "#ffd54f"
INSURANCE_CHIP = "#1565c0"
INSURANCE_WON = "#ffe066"
INSURANCE_LOST = "#ff8a80"
#: The dealer's announcement labels: a natural on gold, a bust on red (the players' result colours).
RESULT_GOLD = "#ffd54f"
RESULT_RED = "#ff5252"
#: Pixels between the dealer's last card and the total, and between the total and the shoe.
DEALER_GAP = 14
#: The smallest font (pixels) for text squeezed into the room it has (bet amount, insurance label).
MIN_FONT = 8


def bet_radius(height: float) -> float:
    """The radius of a seat's bet circle, pixels, on a canvas ``height`` pixels high."""
    return max(12, height * 0.032)


def _bet_circle(width: float, height: float, n: int, index: int) -> tuple[Box, float, float, float]:
    """Seat ``index`` of ``n``: its area, its bet circle's radius and the circle's centre ``(x, y)``, pixels."""
    area = seat_area(width, height, n, index)
    r = bet_radius(height)
    return area, r, area.x + area.w / 2, area.y - r * 0.2


class TableCanvas(tk.Canvas):
    """The table canvas.

    Args:
        master: the parent widget.
        on_seat_click: called with a seat's index when its area is clicked (to choose whose bet the chips go to).
    """

    def __init__(self, master: tk.Misc, on_seat_click: Callable[[int], None] | None = None,
                 **options: object) -> None:
        super().__init__(master, background=FELT, highlightthickness=0, **options)  # type: ignore[arg-type]
        self._on_seat_click = on_seat_click
        self._last: tuple[TableView | None, Pending, Sequence[str], int, Mapping[int, Money],
                          RoundSettled | None] | None = None
        self._fonts: dict[tuple[int, str], tkfont.Font] = {}  # measuring fonts by pixel size, made once
        self.bind("<Configure>", self._on_resize)
        self.bind("<Button-1>", self._on_click)

    # ------------------------------------------------------------------ drawing
    def render(self, view: TableView | None, pending: Pending | None = None, names: Sequence[str] = (),
               betting_seat: int = 0, insurance: Mapping[int, Money] | None = None,
               dealer_said: RoundSettled | None = None) -> None:
        """Draw the table for ``view`` (None: an empty table with the players' ``names``).

        Args:
            view: the round's view.
            pending: cards, reveals and results still queued for animation: not shown yet.
            names: the players' names, used before the first round.
            betting_seat: the seat the chips go to, marked during betting.
            insurance: seat -> the net of its settled insurance this round (``InsuranceSettled.net``);
                a seat with a stake and no entry shows its stake.
            dealer_said: the engine's ``RoundSettled`` event of this round, once it has come
                (:meth:`announcement`).
        """
        pending = pending if pending is not None else Pending()
        insurance = insurance if insurance is not None else {}
        self._last = (view, pending, names, betting_seat, insurance, dealer_said)
        self.delete("all")
        width, height = self._size()
        self._draw_felt(view, width, height)
        if view is None:
            self._draw_rail(width, height, [self._seat_label(i, len(names), name, "", width, height)
                                            for i, name in enumerate(names)])
            return
        n = len(view.seats)
        counts = [[max(0, len(h.cards) - pending.hidden(seat.index, j)) for j, h in enumerate(seat.hands)]
                  for seat in view.seats]
        card = table_card(width, height, n, counts)
        self._draw_dealer(view, pending, width, height, dealer_said, card)
        r = bet_radius(height)
        chips = [table_chips(seat, pending.settled) for seat in view.seats]
        stacks = [self._stacks_width(kept, r, seat_area(width, height, n, seat.index).w)
                  if view.rules.wagering else 0.0 for seat, (kept, _paid) in zip(view.seats, chips)]
        tops: list[float] = []
        for seat, (on_table, paid) in zip(view.seats, chips):
            money = view.rules.wagering
            betting = view.phase is Phase.BETTING
            # while betting, the chips in the circle have left the bankroll: the money line shows what is left
            line = f"bankroll {format_money(seat.bankroll - seat.bet if betting else seat.bankroll)}" if money else ""
            bet_text, bet_size = self.bet_text(on_table, bet_radius(height)) if money and on_table else ("", 0)
            if bet_text and bet_text != format_money(on_table):
                line += f" · bet {format_money(on_table)}"  # the circle abbreviates it: the exact bet goes here
            tops.append(self._seat_label(seat.index, n, seat.name, line, width, height))
            if money:
                active = betting and seat.index == betting_seat
                self._draw_bet(seat.index, n, bet_text, bet_size, chip_color(on_table), width, height, active)
                if on_table:
                    self._draw_stacks(seat.index, n, on_table, width, height)
                beside = self._draw_payout(seat.index, n, paid, width, height) if paid > 0 else 0.0
                if seat.insurance:  # None: not offered or undecided; 0: declined
                    net = None if seat.index in pending.insurance else insurance.get(seat.index)
                    room = stacks[seat.index + 1] if seat.index + 1 < n else 0.0
                    self._draw_insurance(seat.index, n, seat.insurance, net, width, height, even_money(seat),
                                         room, beside)
            slots = hand_slots(width, height, n, seat.index, counts[seat.index], card)
            # one line for the captions of all the seat's hands, below its lowest card: split hands' bets line up;
            # a bet line wider than the hands' distance apart (stride) gets a smaller font
            caption_y = max((b.y + b.h for boxes in slots for b in boxes), default=0.0) + 4
            stride = slots[1][0].x - slots[0][0].x if len(slots) > 1 and slots[0] and slots[1] else width / n
            for j, (hand, boxes) in enumerate(zip(seat.hands, slots)):
                tags = (f"seat{seat.index}", f"hand_{seat.index}_{j}")
                for k, (face, box) in enumerate(zip(hand.cards, boxes)):
                    if hand.doubled and k == len(hand.cards) - 1 and k >= 2:  # the double's card lies sideways
                        draw_sideways(self, Box(box.x, box.y + (box.h - box.w) / 2, box.h, box.w), face, tags)
                    else:
                        draw_card(self, box, face, tags)
                if boxes:
                    self._hand_caption(view, seat.index, j, hand.cards[:len(boxes)], boxes, pending, caption_y,
                                       stride)
                if view.turn == (seat.index, j) and boxes:
                    first, last = boxes[0], boxes[-1]
                    self.create_rectangle(first.x - 5, first.y - 5, last.x + last.w + 5, last.y + last.h + 5,
                                          outline=GOLD, width=3, tags=("turn",))
        self._draw_rail(width, height, tops)

    def _draw_rail(self, width: int, height: int, tops: Sequence[float]) -> None:
        """The table's rail: a flat arc between the hands and the seats' lines (names and money sit on the rail,
        below it, as on a casino table), never through a text. Tag ``rail``."""
        bottom = min(tops, default=height) - RAIL_GAP
        self.create_oval(*rail_box(width, height, bottom), outline=FELT_EDGE, width=max(6, width // 90),
                         tags=("felt", "rail"))
        self.tag_lower("rail")

    def _draw_felt(self, view: TableView | None, width: int, height: int) -> None:
        font_size = felt_text(width, height, 0.028)
        if view is not None:
            pays, bonus, dealer = banner_lines(view.rules)
            lines = [(pays, GOLD, font_size, "bold", "banner_pays")]
            if bonus:
                lines.append((bonus, GOLD, round(font_size * 0.8), "bold", "banner_bonus"))
            lines.append((dealer, INK, round(font_size * 0.8), "normal", "banner_dealer"))
            y = height * 0.41
            for text, color, size, weight, tag in lines:  # bottom up, from just above the bet circles
                self.create_text(width / 2, y, text=text, fill=color, font=(FONT_FAMILY, -size, weight),
                                 tags=("felt", "banner", tag))
                y -= size * 1.5
            self._draw_shoe(view, width, height)

    def _draw_shoe(self, view: TableView, width: int, height: int) -> None:
        w, h = card_size(width, height)
        box = Box(width - w * 1.2 - 16, 14, w * 0.9, h * 0.75)
        rounded_rectangle(self, Box(box.x - 6, box.y - 4, box.w + 12, box.h + 10), 6, fill="#3e2723",
                          outline="#1b0f0c", tags=("shoe",))
        rounded_rectangle(self, box, 5, fill="#1f3c88", outline="#d7ccc8", tags=("shoe",))
        self.create_text(box.x + box.w / 2, box.y + box.h + 18, text=f"shoe: {view.cards_remaining} cards",
                         fill=INK, font=(FONT_FAMILY, -felt_text(width, height, 0.022)), tags=("shoe", "shoe_text"))

    def shoe_point(self) -> tuple[float, float]:
        """Where dealt cards come from (the shoe's middle), pixels."""
        width, height = self._size()
        w, h = card_size(width, height)
        return width - w * 1.2 - 16, 14.0

    def dealer_point(self) -> tuple[float, float]:
        """Where the dealer takes chips in and pays them out from (the middle of the dealer's row), pixels."""
        width, height = self._size()
        return width / 2, height * 0.09 + card_size(width, height)[1] / 2

    def sweep(self, seat: int, amount: Money) -> str:
        """Draw seat ``seat``'s lost ``amount`` as chip stacks in its bet circle, for the animation to sweep to the
        dealer; return their tag (``sweep<i>``, also ``sweep``)."""
        if self._last is None or self._last[0] is None:
            return f"sweep{seat}"
        width, height = self._size()
        area, r, cx, cy = _bet_circle(width, height, len(self._last[0].seats), seat)
        draw_chip_stacks(self, amount, cx + r, cy + r, self._stack_radius(amount, r, area.w),
                         (f"sweep{seat}", "sweep"))
        return f"sweep{seat}"

    def _draw_dealer(self, view: TableView, pending: Pending, width: int, height: int,
                     said: RoundSettled | None = None, card: tuple[float, float] | None = None) -> None:
        """The dealer's cards and total, left of the shoe (drawn first), which the row never reaches; once the
        round is settled and the last card is on show, the :meth:`announcement` of ``said`` replaces the total."""
        dealer = view.dealer
        shown = max(0, len(dealer.cards) - pending.hidden(None, 0))
        cards: list[Card | Hidden] = list(dealer.cards[:shown])
        if pending.hole and len(cards) > 1:
            cards[1] = Hidden.CARD
        size = max(11, round(height * 0.03))
        font = (FONT_FAMILY, -size, "bold")
        if not cards:
            self.create_text(width / 2, height * 0.09 + card_size(width, height)[1] / 2, text="DEALER",
                             fill=INK, font=font, tags=("dealer_label",))
            return
        visible = [c for c in cards if isinstance(c, Card)]
        partial = Hand(visible)
        all_shown = len(visible) == len([c for c in dealer.cards if isinstance(c, Card)])
        settled = all_shown and not pending.hole and view.phase is Phase.SETTLED
        total = str(dealer.total) if settled else dealer.total_text if all_shown else partial.total_text()
        text = f"Dealer  {total}"
        says = self.announcement(said, partial) if settled and said is not None else None
        bold = self._font(size, "bold")
        room = bold.measure(text) if says is None else bold.measure(says[0]) + 12
        shoe = self.bbox("shoe")
        right = shoe[0] - DEALER_GAP if shoe else width - DEALER_GAP
        boxes = dealer_slots(width, height, len(cards), right, DEALER_GAP + room, card)
        for face, box in zip(cards, boxes):
            draw_card(self, box, face if isinstance(face, Card) else None, ("dealer",))
        last = boxes[-1]
        x, y = last.x + last.w + DEALER_GAP, last.y + last.h / 2
        if says is None:
            self.create_text(x, y, text=text, anchor="w", fill=INK, font=font, tags=("dealer_total",))
        else:
            words, fill = says
            tid = self.create_text(x + 6, y, text=words, anchor="w", fill="#111111", font=font, tags=("dealer_says",))
            self._label_background(tid, fill, ("dealer_says_bg",))

    @staticmethod
    def announcement(said: RoundSettled, hand: Hand) -> tuple[str, str]:
        """What the dealer announces at the end of a round, and the colour of its label, from the engine's event:
        ``"BLACKJACK"`` (``dealer_natural``), ``"BUST 26"`` (``hand.is_bust()``), ``"Dealer stands on 19"``
        (``dealer_drew``), else ``"Dealer has 19"`` (no hand was left to play against)."""
        if said.dealer_natural:
            return "BLACKJACK", RESULT_GOLD
        if hand.is_bust():
            return f"BUST {said.dealer_total}", RESULT_RED
        if said.dealer_drew:
            return f"Dealer stands on {said.dealer_total}", "#e0e0e0"
        return f"Dealer has {said.dealer_total}", "#e0e0e0"

    def _seat_label(self, index: int, n: int, name: str, money: str, width: int, height: int) -> float:
        """The seat's lines on the rail at the bottom of the felt, stacked by their fonts' line heights from a
        margin above the canvas's edge up: the money line, then the name. Returns the top of the name, pixels."""
        area = seat_area(width, height, n, index)
        tags = (f"seat{index}", f"seatarea{index}")
        size = felt_text(width, height, 0.028)
        x = area.x + area.w / 2
        bottom = height - max(6, size // 2)  # off the canvas's edge
        lines: list[tuple[str, str, int, Literal["normal", "bold"], str]] = []
        if money:
            lines.append((money, INK, round(size * 0.8), "normal", f"bankroll{index}"))
        lines.append((name, INK, size, "bold", f"name{index}"))
        for text, color, pixels, weight, tag in lines:  # bottom up
            self.create_text(x, bottom, text=text, anchor="s", fill=color, font=(FONT_FAMILY, -pixels, weight),
                             tags=(*tags, tag))
            bottom -= self._font(pixels, weight).metrics("linespace")
        return bottom

    def bet_text(self, bet: Money, r: float) -> tuple[str, int]:
        """The text in a bet circle of radius ``r`` for ``bet`` and its bold font size, pixels.

        The exact amount at the largest size, from ``0.8 r`` down to :data:`MIN_FONT`, that fits
        inside the circle, else :func:`~gui.logic.short_money` (``"1.2M"``), which hides digits
        (:meth:`render` then adds the exact bet to the seat's money line).
        """
        start = max(MIN_FONT, round(r * 0.8))
        texts = dict.fromkeys((format_money(bet), short_money(bet)))
        for text in texts:
            for size in range(start, MIN_FONT - 1, -1):
                if self._fits_circle(text, size, r):
                    return text, size
        return short_money(bet), MIN_FONT

    def _fits_circle(self, text: str, size: int, r: float) -> bool:
        """One line of ``text`` in bold ``size`` pixels, centred, lies inside a circle of radius ``r``
        (with 2 pixels to spare on each side): its width is at most the chord at its top and bottom edges."""
        font = self._font(size, "bold")
        half = font.metrics("linespace") / 2
        if half >= r:
            return False
        return font.measure(text) + 4 <= 2 * math.sqrt(r * r - half * half)

    def _font(self, size: int, weight: Literal["normal", "bold"] = "normal") -> tkfont.Font:
        """The table font at ``size`` pixels and ``weight``, for measuring text (one per size and weight, kept)."""
        font = self._fonts.get((size, weight))
        if font is None:
            font = self._fonts[size, weight] = tkfont.Font(root=self, family=FONT_FAMILY, size=-size, weight=weight)
        return font

    def _draw_bet(self, index: int, n: int, text: str, size: int, color: str, width: int, height: int,
                  active: bool = False) -> None:
        """Seat ``index``'s bet circle: dashed and empty with no bet, else a chip of ``color`` with ``text`` in bold
        ``size`` pixels; ``active`` (the seat takes the chips now) rings it in gold over "▲ chips go here"."""
        area, r, cx, cy = _bet_circle(width, height, n, index)
        if active:
            self.create_oval(cx - r - 5, cy - r - 5, cx + r + 5, cy + r + 5, outline=GOLD, width=3,
                             tags=(f"seat{index}", "betting_ring"))
            self.create_text(cx, cy + r + 8, text="▲ chips go here", anchor="n", fill=GOLD,
                             font=(FONT_FAMILY, -felt_text(width, height, 0.021)), tags=(f"seat{index}", "betting_seat"))
        self.create_oval(cx - r, cy - r, cx + r, cy + r, outline=INK, width=2, dash=(3, 3) if not text else (),
                         fill=color if text else "", tags=(f"seat{index}", f"bet{index}", f"bet_circle{index}"))
        if text:
            light = color == CHIP_COLORS[CHIP_VALUES[0]]  # the white chip: dark ink
            self.create_oval(cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7,
                             outline="#777777" if light else "white", width=1, dash=(4, 3),
                             tags=(f"seat{index}", f"bet{index}"))
            self.create_text(cx, cy, text=text, fill="#111111" if light else "white", font=(FONT_FAMILY, -size, "bold"),
                             tags=(f"seat{index}", f"bet{index}", f"bet_text{index}"))

    @staticmethod
    def _stack_radius(amount: Money, r: float, seat_width: float) -> float:
        """The radius of the chips in a seat's stacks: 0.75 of the bet circle's, smaller (down to 5 pixels) when
        the stacks of ``amount`` would take more than 0.3 of the seat's width."""
        count = len(chip_stacks(amount))
        if not count:
            return 0.0
        return max(5.0, min(r * 0.75, seat_width * 0.3 / (count * 2.25)))

    def _stacks_width(self, amount: Money, r: float, seat_width: float) -> float:
        """Pixels the chip stacks of ``amount`` take left of the bet circle, the gap to it included (0: none)."""
        c = self._stack_radius(amount, r, seat_width)
        count = len(chip_stacks(amount))
        return count * (2 * c + max(2.0, c * 0.25)) + 6 if count else 0.0

    def _draw_stacks(self, index: int, n: int, amount: Money, width: int, height: int) -> None:
        """Seat ``index``'s bet as chip stacks by denomination (:func:`~gui.cards.draw_chip_stacks`) left of its
        bet circle, standing on the circle's bottom line. Tags: ``stacks<i>`` and those of ``draw_chip_stacks``."""
        area, r, cx, cy = _bet_circle(width, height, n, index)
        draw_chip_stacks(self, amount, cx - r - 6, cy + r, self._stack_radius(amount, r, area.w),
                         (f"seat{index}", f"stacks{index}"))

    def _draw_payout(self, index: int, n: int, paid: Money, width: int, height: int) -> float:
        """The house's payout to seat ``index`` as chip stacks right of its bet circle (tag ``payout<i>``);
        returns the pixels they take there."""
        area, r, cx, cy = _bet_circle(width, height, n, index)
        c = self._stack_radius(paid, r, area.w)
        room = self._stacks_width(paid, r, area.w)
        draw_chip_stacks(self, paid, cx + r + room, cy + r, c, (f"seat{index}", f"payout{index}", "payout"))
        return room

    def _draw_insurance(self, index: int, n: int, stake: Money, net: Money | None, width: int,
                        height: int, even: bool = False, next_stacks: float = 0.0, beside: float = 0.0) -> None:
        """Seat ``index``'s insurance right of its bet: a chip and the stake, or once settled (``net``) how it went;
        the label stops short of the next seat's chip stacks (``next_stacks`` pixels wide) (:meth:`_fit_label`)."""
        area, r, _cx, cy = _bet_circle(width, height, n, index)
        x = area.x + area.w / 2 + r * 1.5 + beside
        limit = (area.x + area.w * 1.5 - r - 8 - next_stacks) if index < n - 1 else width - 6
        tags = (f"seat{index}", f"insurance{index}", "insurance")
        size = max(10, round(r * 0.75))
        if net is None:
            c = r * 0.55
            self.create_oval(x, cy - c, x + 2 * c, cy + c, fill=INSURANCE_CHIP, outline=INK, width=2, tags=tags)
            self.create_oval(x + c * 0.35, cy - c * 0.65, x + c * 1.65, cy + c * 0.65, outline="white",
                             dash=(2, 2), tags=tags)
            x += 2 * c + 5
        else:
            x += 6  # room for the label's background
        text = insurance_text(stake, net, even_money=even)
        size, wrap = self._fit_label(text, limit - x, size)
        tid = self.create_text(x, cy, text=text, anchor="w", width=wrap, fill=INK if net is None else "#111111",
                               font=(FONT_FAMILY, -size, "bold"), tags=(*tags, f"insurance_text{index}"))
        if net is not None:
            self._label_background(tid, INSURANCE_WON if net > 0 else INSURANCE_LOST, tags)

    def _fit_label(self, text: str, room: float, size: int) -> tuple[int, float]:
        """The bold font size (pixels, at most ``size``) and wrap width (0: one line) for ``text`` in ``room`` pixels:
        one line if it fits, else two lines broken between words, else a smaller font, down to :data:`MIN_FONT`."""
        words = text.split(" ")
        while True:
            font = self._font(size, "bold")
            if font.measure(text) <= room:
                return size, 0
            if any(font.measure(" ".join(words[:k])) <= room and font.measure(" ".join(words[k:])) <= room
                   for k in range(1, len(words))) or size <= MIN_FONT:
                return size, max(1.0, room)
            size -= 1

    def _hand_caption(self, view: TableView, seat: int, j: int, cards: Sequence[Card], boxes: list[Box],
                      pending: Pending, top: float | None = None, stride: float = 0.0) -> None:
        """Hand ``j`` of seat ``seat``'s total (the engine's, of the cards shown), bet line (split or doubled hands)
        and result, from ``top`` down (default: below its lowest card); a bet line wider than ``stride`` shrinks."""
        hand = view.seats[seat].hands[j]
        complete = len(cards) == len(hand.cards)
        text = shown_total(hand) if complete else Hand(cards).total_text()
        first, last = boxes[0], boxes[-1]
        cx = (first.x + last.x + last.w) / 2
        size = max(11, round(first.h * 0.14))
        y = max(b.y + b.h for b in boxes) + 4 if top is None else top
        total = self.create_text(cx, y, text=text, anchor="n", fill=INK, font=(FONT_FAMILY, -size, "bold"),
                                 tags=(f"seat{seat}", f"total_{seat}_{j}", "total"))
        y = self.bbox(total)[3]
        stake = f"bet {format_money(hand.bet)}" + (" (doubled)" if hand.doubled and complete else "")
        if view.rules.wagering and (len(view.seats[seat].hands) > 1 or (hand.doubled and complete)):
            small = max(MIN_FONT, round(size * 0.7))
            while stride and small > MIN_FONT and self._font(small).measure(stake) > stride - 6:
                small -= 1
            self.create_text(cx, y, text=stake, anchor="n", fill=INK, font=(FONT_FAMILY, -small),
                             tags=(f"seat{seat}", f"stake_{seat}_{j}"))
            y += size * 1.1
        if hand.outcome is not None and (seat, j) not in pending.settled:
            # a table without money shows only the result word (the net is always 0 there)
            label = result_text(hand.outcome) if view.rules.wagering else hand.outcome.result.label
            tid = self.create_text(cx, y + 4, text=label, anchor="n", fill="#111111",
                                   font=(FONT_FAMILY, -size, "bold"),
                                   tags=(f"seat{seat}", f"result_{seat}_{j}", "result"))
            self._label_background(tid, result_color(hand.outcome.result),
                                   (f"seat{seat}", f"result_bg_{seat}_{j}", "result_bg"))

    # ------------------------------------------------------------------ helpers
    def _size(self) -> tuple[int, int]:
        """The canvas's size in pixels, at least 200 x 150 (before the window is mapped it reports 1 x 1)."""
        return max(self.winfo_width(), 200), max(self.winfo_height(), 150)

    def _label_background(self, text_id: int, fill: str, tags: tuple[str, ...]) -> None:
        """A rounded ``fill`` label behind the text item ``text_id`` (6 pixels wider each side, 2 taller)."""
        x1, y1, x2, y2 = self.bbox(text_id)
        rounded_rectangle(self, Box(x1 - 6, y1 - 2, x2 - x1 + 12, y2 - y1 + 4), 6, fill=fill, outline="", tags=tags)
        self.tag_raise(text_id)

    def texts(self, tag: str) -> list[str]:
        """The texts of the canvas's text items with ``tag``, in drawing order (for tests and the status bar)."""
        return [str(self.itemcget(item, "text"))  # type: ignore[no-untyped-call]
                for item in self.find_withtag(tag) if str(self.type(item)) == "text"]

    def card_codes(self, tag: str) -> list[str]:
        """The cards drawn with ``tag``, in order: codes like ``"Th"``, ``"??"`` for a face-down card."""
        codes: list[str] = []
        seen: set[str] = set()
        for item in self.find_withtag(tag):
            tags = self.gettags(item)
            uid = next((t for t in tags if t.startswith("cardid")), None)
            ident = next((t for t in tags if t.startswith("card_") or t == "facedown"), None)
            if uid is None or ident is None or uid in seen:
                continue
            seen.add(uid)
            codes.append("??" if ident == "facedown" else ident[5:])
        return codes

    def _on_resize(self, _event: tk.Event[tk.Misc]) -> None:
        if self._last is not None:
            self.render(*self._last)

    def _on_click(self, event: tk.Event[tk.Misc]) -> None:
        if self._on_seat_click is None or self._last is None:
            return
        view, _pending, names, _seat, _insurance, _said = self._last
        n = len(view.seats) if view is not None else len(names)
        if n and event.y > self.winfo_height() * 0.45:
            self._on_seat_click(min(n - 1, max(0, int(event.x * n / max(1, self.winfo_width())))))
