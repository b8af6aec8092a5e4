"""The green table: one canvas that draws a :class:`~blackjack.TableView`, and nothing else.

:meth:`TableCanvas.render` clears the canvas and draws the view again at the
canvas's current size, so cards stay crisp when the window is resized. It holds no
rule: totals are the view's ``total_text`` (or the engine's ``Hand.total_text`` for
the cards shown so far while a deal is being animated), results are the view's
outcomes. A seat's insurance stake is the view's ``SeatView.insurance``; how it went
is the net of the engine's ``InsuranceSettled`` event, passed in by the window.

Canvas tags (for tests and for people reading the code):

==========================  ====================================================
tag                         items
==========================  ====================================================
``dealer``                  the dealer's cards (``facedown`` on the hole card)
``dealer_total``            the dealer's total text
``seat<i>``                 everything of seat i (name, bankroll, bet, cards)
``hand_<i>_<j>``            the cards of hand j of seat i
``total_<i>_<j>``           that hand's total text (``"7 / 17"`` when soft)
``result_<i>_<j>``          that hand's result label (``"WIN +10"``), also ``result``
``bet<i>``                  seat i's bet circle and amount; ``bet_circle<i>`` the circle's outer ring,
                            filled in the colour of the largest chip in the amount
``bet_text<i>``             the amount in the circle: what the seat has on the table, doubles and
                            splits included (``"20000"``, or ``"1.2M"`` when too long)
``bankroll<i>``             seat i's money line: ``"bankroll 990"``, plus ``" · bet 1234567"``
                            when the circle shows the bet abbreviated
``insurance<i>``            seat i's insurance chip and label beside the bet, also ``insurance``
``insurance_text<i>``       that label: ``"Insurance 2.5"``, once settled ``"Insurance won +5"``
``turn``                    the frame around the hand whose decision it is
``card_<code>``             every item of a face-up card, e.g. ``card_Th``
``banner``                  the felt's printing: ``banner_pays`` (``"BLACKJACK PAYS 3 TO 2"``),
                            ``banner_bonus`` (Thunderjack's and Blitz payouts, when the rules
                            have them) and ``banner_dealer`` (the dealer's rule and the summary)
==========================  ====================================================
"""

from __future__ import annotations

import math
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from blackjack import Card, Hand, Hidden, Money, Phase, TableView, format_money

from .cards import FONT_FAMILY, draw_card, rounded_rectangle
from .logic import (CHIP_COLORS, CHIP_VALUES, Box, Pending, banner_lines, card_size, chip_color, dealer_slots,
                    felt_text, hand_slots, insurance_text, result_color, result_text, seat_area, short_money, stake)

__all__ = ["MIN_FONT", "TableCanvas", "bet_radius"]

FELT = "#0f6b35"
FELT_EDGE = "#0a4f27"
INK = "#f4f1e1"
GOLD = "#ffd54f"
INSURANCE_CHIP = "#1565c0"
INSURANCE_WON = "#ffe066"
INSURANCE_LOST = "#ff8a80"
#: Pixels between the dealer's last card and the total, and between the total and the shoe.
DEALER_GAP = 14
#: The smallest font (pixels) for text squeezed into the room it has (bet amount, insurance label).
MIN_FONT = 8


def bet_radius(height: float) -> float:
    """The radius of a seat's bet circle, pixels, on a canvas ``height`` pixels high."""
    return max(12, height * 0.032)


class TableCanvas(tk.Canvas):
    """The table canvas.

    Args:
        master: the parent widget.
        on_seat_click: called with a seat index when a seat's area is clicked (to choose
            whose bet the chips go to).
    """

    def __init__(self, master: tk.Misc, on_seat_click: Callable[[int], None] | None = None,
                 **options: object) -> None:
        super().__init__(master, background=FELT, highlightthickness=0, **options)  # type: ignore[arg-type]
        self._on_seat_click = on_seat_click
        self._last: tuple[TableView | None, Pending, Sequence[str], int, Mapping[int, Money]] | None = None
        self._bold: dict[int, tkfont.Font] = {}  # measuring fonts by pixel size, made once
        self.bind("<Configure>", self._on_resize)
        self.bind("<Button-1>", self._on_click)

    # ------------------------------------------------------------------ drawing
    def render(self, view: TableView | None, pending: Pending | None = None, names: Sequence[str] = (),
               betting_seat: int = 0, insurance: Mapping[int, Money] | None = None) -> None:
        """Draw the table for ``view`` (None: an empty table with the players' ``names``).

        Args:
            view: the round's view.
            pending: cards, reveals and results still queued for animation: not shown yet.
            names: the players' names, used before the first round.
            betting_seat: the seat the chips go to, marked during betting.
            insurance: seat -> the net of its settled insurance this round (the engine's
                ``InsuranceSettled.net``); a seat with a stake and no entry (or one still
                in ``pending.insurance``) shows its stake.
        """
        pending = pending if pending is not None else Pending()
        insurance = insurance if insurance is not None else {}
        self._last = (view, pending, names, betting_seat, insurance)
        self.delete("all")
        width, height = max(self.winfo_width(), 200), max(self.winfo_height(), 150)
        self._draw_felt(view, width, height)
        if view is None:
            for i, name in enumerate(names):
                self._seat_label(i, len(names), name, "", width, height, False)
            return
        self._draw_dealer(view, pending, width, height)
        n = len(view.seats)
        for seat in view.seats:
            active = view.phase is Phase.BETTING and seat.index == betting_seat and n > 1
            money = view.rules.wagering
            line = f"bankroll {format_money(seat.bankroll)}" if money else ""
            on_table = stake(seat)
            bet_text, bet_size = self.bet_text(on_table, bet_radius(height)) if money and on_table else ("", 0)
            if bet_text and bet_text != format_money(on_table):
                line += f" · bet {format_money(on_table)}"  # the circle abbreviates it: the exact bet goes here
            self._seat_label(seat.index, n, seat.name, line, width, height, active)
            if money:
                self._draw_bet(seat.index, n, bet_text, bet_size, chip_color(on_table), width, height)
                if seat.insurance:  # None: not offered or undecided; 0: declined
                    net = None if seat.index in pending.insurance else insurance.get(seat.index)
                    self._draw_insurance(seat.index, n, seat.insurance, net, width, height)
            counts = [max(0, len(h.cards) - pending.hidden(seat.index, j)) for j, h in enumerate(seat.hands)]
            slots = hand_slots(width, height, n, seat.index, counts)
            # one line for the captions of all the seat's hands, below its lowest card: split hands' bets line up
            caption_y = max((b.y + b.h for boxes in slots for b in boxes), default=0.0) + 4
            for j, (hand, boxes) in enumerate(zip(seat.hands, slots)):
                tags = (f"seat{seat.index}", f"hand_{seat.index}_{j}")
                for card, box in zip(hand.cards, boxes):
                    draw_card(self, box, card, tags)
                if boxes:
                    self._hand_caption(view, seat.index, j, hand.cards[:len(boxes)], boxes, pending, caption_y)
                if view.turn == (seat.index, j) and boxes:
                    left, top = boxes[0].x - 5, boxes[0].y - 5
                    right = boxes[-1].x + boxes[-1].w + 5
                    bottom = boxes[-1].y + boxes[-1].h + 5
                    self.create_rectangle(left, top, right, bottom, outline=GOLD, width=3, tags=("turn",))

    def _draw_felt(self, view: TableView | None, width: int, height: int) -> None:
        self.create_oval(-width * 0.25, -height * 1.15, width * 1.25, height * 0.98, outline=FELT_EDGE,
                         width=max(6, width // 90), tags=("felt",))
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
        width, height = max(self.winfo_width(), 200), max(self.winfo_height(), 150)
        w, h = card_size(width, height)
        return width - w * 1.2 - 16, 14.0

    def _draw_dealer(self, view: TableView, pending: Pending, width: int, height: int) -> None:
        """The dealer's cards and total, left of the shoe and its count (drawn first): the row overlaps
        and then shrinks rather than reach them, however many cards the dealer draws."""
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
        text = f"Dealer  {dealer.total_text if all_shown else partial.total_text()}"
        shoe = self.bbox("shoe")
        right = shoe[0] - DEALER_GAP if shoe else width - DEALER_GAP
        boxes = dealer_slots(width, height, len(cards), right, DEALER_GAP + self._bold_font(size).measure(text))
        for card, box in zip(cards, boxes):
            draw_card(self, box, card if isinstance(card, Card) else None, ("dealer",))
        last = boxes[-1]
        self.create_text(last.x + last.w + DEALER_GAP, last.y + last.h / 2, text=text, anchor="w",
                         fill=INK, font=font, tags=("dealer_total",))

    def _seat_label(self, index: int, n: int, name: str, money: str, width: int, height: int,
                    active: bool) -> None:
        """The seat's lines at the bottom of the felt, stacked by their fonts' line heights from a margin above
        the canvas's edge up: the money line, the name, and "chips go here" over the seat that takes the chips."""
        area = seat_area(width, height, n, index)
        tags = (f"seat{index}", f"seatarea{index}")
        size = felt_text(width, height, 0.028)
        x = area.x + area.w / 2
        bottom = height - max(6, size // 2)  # off the canvas's edge
        lines: list[tuple[str, str, int, Literal["normal", "bold"], str]] = []
        if money:
            lines.append((money, INK, round(size * 0.8), "normal", f"bankroll{index}"))
        lines.append((name, GOLD if active else INK, size, "bold", f"name{index}"))
        if active:
            lines.append(("▼ chips go here", GOLD, round(size * 0.75), "normal", "betting_seat"))
        for text, color, pixels, weight, tag in lines:  # bottom up
            self.create_text(x, bottom, text=text, anchor="s", fill=color, font=(FONT_FAMILY, -pixels, weight),
                             tags=(*tags, tag))
            bottom -= self._font(pixels, weight).metrics("linespace")

    def bet_text(self, bet: Money, r: float) -> tuple[str, int]:
        """The text in a bet circle of radius ``r`` for ``bet`` and its bold font size, pixels.

        The exact amount (``format_money``) at the largest size, from ``0.8 r`` down to
        :data:`MIN_FONT`, that fits inside the circle; if even the smallest is too wide
        (a bet of many digits), the abbreviation :func:`~gui.logic.short_money`
        (``"1.2M"``) at the largest size that fits. Shrinking comes first because a
        smaller exact figure is still the figure; abbreviating comes last because it
        hides digits. When the circle abbreviates, :meth:`render` adds the exact bet to
        the seat's money line under the player's name (``"bankroll 8765433 · bet
        1234567"``): that is where a player already reads their own money, it is right
        under their seat so it cannot be taken for a neighbour's, and it is always on
        screen (a canvas has no tooltips, and the status line is busy with prompts).
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
        font = self._bold_font(size)
        half = font.metrics("linespace") / 2
        if half >= r:
            return False
        return font.measure(text) + 4 <= 2 * math.sqrt(r * r - half * half)

    def _bold_font(self, size: int) -> tkfont.Font:
        """The bold table font at ``size`` pixels, for measuring text (one per size, kept)."""
        return self._font(size, "bold")

    def _font(self, size: int, weight: Literal["normal", "bold"] = "normal") -> tkfont.Font:
        """The table font at ``size`` pixels and ``weight``, for measuring text (one per size and weight, kept)."""
        key = size if weight == "bold" else -size  # bold fonts keep the keys _bold has always had
        font = self._bold.get(key)
        if font is None:
            font = self._bold[key] = tkfont.Font(root=self, family=FONT_FAMILY, size=-size, weight=weight)
        return font

    def _draw_bet(self, index: int, n: int, text: str, size: int, color: str, width: int, height: int) -> None:
        """Seat ``index``'s bet circle: dashed and empty with no bet, else a chip of ``color`` (the colour of the
        largest chip in the bet, :func:`~gui.logic.chip_color`) with ``text`` in bold ``size`` pixels."""
        area = seat_area(width, height, n, index)
        r = bet_radius(height)
        cx, cy = area.x + area.w / 2, area.y - r * 0.2
        self.create_oval(cx - r, cy - r, cx + r, cy + r, outline=INK, width=2, dash=(3, 3) if not text else (),
                         fill=color if text else "", tags=(f"seat{index}", f"bet{index}", f"bet_circle{index}"))
        if text:
            light = color == CHIP_COLORS[CHIP_VALUES[0]]  # the white chip: dark ink
            self.create_oval(cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7,
                             outline="#777777" if light else "white", width=1, dash=(4, 3),
                             tags=(f"seat{index}", f"bet{index}"))
            self.create_text(cx, cy, text=text, fill="#111111" if light else "white", font=(FONT_FAMILY, -size, "bold"),
                             tags=(f"seat{index}", f"bet{index}", f"bet_text{index}"))

    def _draw_insurance(self, index: int, n: int, stake: Money, net: Money | None, width: int,
                        height: int) -> None:
        """Seat ``index``'s insurance right of its bet: a chip and the stake, or once settled (``net``) how it went.

        A label that would reach the next seat's bet circle or the canvas's edge wraps
        onto two lines, and its font shrinks (to :data:`MIN_FONT` pixels at least) if that is not enough.
        """
        area = seat_area(width, height, n, index)
        r = bet_radius(height)
        cy = area.y - r * 0.2
        x = area.x + area.w / 2 + r * 1.5
        limit = (area.x + area.w * 1.5 - r - 8) if index < n - 1 else width - 6
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
        text = insurance_text(stake, net)
        size, wrap = self._fit_label(text, limit - x, size)
        tid = self.create_text(x, cy, text=text, anchor="w", width=wrap, fill=INK if net is None else "#111111",
                               font=(FONT_FAMILY, -size, "bold"), tags=(*tags, f"insurance_text{index}"))
        if net is not None:
            x1, y1, x2, y2 = self.bbox(tid)
            rounded_rectangle(self, Box(x1 - 6, y1 - 2, x2 - x1 + 12, y2 - y1 + 4), 6,
                              fill=INSURANCE_WON if net > 0 else INSURANCE_LOST, outline="", tags=tags)
            self.tag_raise(tid)

    def _fit_label(self, text: str, room: float, size: int) -> tuple[int, float]:
        """The bold font size (pixels, at most ``size``, at least :data:`MIN_FONT`) and wrap width (0: one line)
        for ``text``.

        One line if it fits in ``room`` pixels; else two lines broken between words;
        else a smaller font, down to :data:`MIN_FONT` pixels.
        """
        words = text.split(" ")
        while True:
            font = self._bold_font(size)
            if font.measure(text) <= room:
                return size, 0
            if any(font.measure(" ".join(words[:k])) <= room and font.measure(" ".join(words[k:])) <= room
                   for k in range(1, len(words))) or size <= MIN_FONT:
                return size, max(1.0, room)
            size -= 1

    def _hand_caption(self, view: TableView, seat: int, j: int, cards: Sequence[Card], boxes: list[Box],
                      pending: Pending, top: float | None = None) -> None:
        """The hand's total, its bet (after a split or a double) and its result, from ``top`` down
        (default: just below its lowest card; the seat passes one line for all its hands)."""
        hand = view.seats[seat].hands[j]
        complete = len(cards) == len(hand.cards)
        shown = Hand(cards)
        text = hand.total_text if complete else shown.total_text()
        first, last = boxes[0], boxes[-1]
        cx = (first.x + last.x + last.w) / 2
        size = -max(11, round(first.h * 0.14))
        y = max(b.y + b.h for b in boxes) + 4 if top is None else top
        total = self.create_text(cx, y, text=text, anchor="n", fill=INK, font=(FONT_FAMILY, size, "bold"),
                                 tags=(f"seat{seat}", f"total_{seat}_{j}", "total"))
        y = self.bbox(total)[3]
        stake = f"bet {format_money(hand.bet)}" + (" (doubled)" if hand.doubled and complete else "")
        if view.rules.wagering and (len(view.seats[seat].hands) > 1 or (hand.doubled and complete)):
            self.create_text(cx, y, text=stake, anchor="n", fill=INK, font=(FONT_FAMILY, round(size * 0.7)),
                             tags=(f"seat{seat}", f"stake_{seat}_{j}"))
            y += -size * 1.1
        if hand.outcome is not None and (seat, j) not in pending.settled:
            # a table without money shows only the result word (the net is always 0 there)
            label = result_text(hand.outcome) if view.rules.wagering else hand.outcome.result.label
            tid = self.create_text(cx, y + 4, text=label, anchor="n", fill="#111111",
                                   font=(FONT_FAMILY, size, "bold"),
                                   tags=(f"seat{seat}", f"result_{seat}_{j}", "result"))
            x1, y1, x2, y2 = self.bbox(tid)
            rounded_rectangle(self, Box(x1 - 6, y1 - 2, x2 - x1 + 12, y2 - y1 + 4), 6,
                              fill=result_color(hand.outcome.result), outline="",
                              tags=(f"seat{seat}", f"result_bg_{seat}_{j}", "result_bg"))
            self.tag_raise(tid)

    # ------------------------------------------------------------------ helpers
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
        view, _pending, names, _seat, _insurance = self._last
        n = len(view.seats) if view is not None else len(names)
        if n and event.y > self.winfo_height() * 0.45:
            self._on_seat_click(min(n - 1, max(0, int(event.x * n / max(1, self.winfo_width())))))
