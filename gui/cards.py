"""Card and chip art drawn with canvas shapes and Unicode suit symbols, crisp at any size.

No image files: sizes are in pixels and fonts use negative (pixel) sizes, so a card
redrawn for a bigger window is as sharp as a small one. Every item of a card carries
the caller's tags plus ``"card"`` and either ``"card_<code>"`` (e.g. ``"card_Th"``) or
``"facedown"``, and ``"cardid<n>"`` shared by the items of one card only; the other
tags are listed in docs/gui.md, "For developers".
"""

from __future__ import annotations

import math
import tkinter as tk
from collections.abc import Sequence
from fractions import Fraction

from blackjack import Card, Money, format_money

from .logic import CHIP_COLORS, CHIP_VALUES, Box

__all__ = ["CHANGE_CHIP", "FONT_FAMILY", "PIP_LAYOUTS", "chip_stacks", "draw_card", "draw_chip_stacks",
           "rounded_rectangle"]

#: A family with the four suit symbols (DejaVu ships with most Linux systems; Tk falls back otherwise).
FONT_FAMILY = "DejaVu Sans"
#: The serif family of the court cards' large letter.
SERIF_FAMILY = "DejaVu Serif"
RED = "#c62828"
BLACK = "#1b1b1b"
BACK = "#1f3c88"
FACE_LETTERS = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}

#: Pip centres for ranks 2-10 as ``(column, row)``: column 0 left, 0.5 middle, 1 right; row 0 at the top of
#: the pip field, 1 at its bottom. The classic layouts of a printed French-suited deck.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0, 0), (1, 0), (0, 1), (1, 1)),
    5: ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    6: ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    7: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    8: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    9: ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)),
    10: ((0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)),
}

#: Court cards: rank -> (panel tint, emblem name).
COURTS: dict[int, tuple[str, str]] = {11: ("#e3eefb", "shield"), 12: ("#fde4ee", "flower"), 13: ("#fff1c1", "crown")}
#: The court panels' trim (a gold line inside the suit-coloured frame).
TRIM = "#c9a227"

#: The colour of the chip that makes up an amount below the smallest denomination (2.5 is 1 + 1 + 0.5).
CHANGE_CHIP = "#f9a825"


def rounded_rectangle(canvas: tk.Canvas, box: Box, radius: float, **options: object) -> int:
    """Draw a rectangle with rounded corners as one smoothed polygon; return its item id."""
    x1, y1, x2, y2 = box.x, box.y, box.x + box.w, box.y + box.h
    r = min(radius, box.w / 2, box.h / 2)
    points = [x1 + r, y1, x2 - r, y1, x2, y1, x2, y1 + r, x2, y2 - r, x2, y2, x2 - r, y2,
              x1 + r, y2, x1, y2, x1, y2 - r, x1, y1 + r, x1, y1]
    return canvas.create_polygon(points, smooth=True, **options)  # type: ignore[call-overload,no-any-return]


def draw_card(canvas: tk.Canvas, box: Box, card: Card | None, tags: Sequence[str] = ()) -> list[int]:
    """Draw one card, face up (``card``) or face down (``None``); return its item ids.

    Args:
        canvas: where to draw.
        box: the card's rectangle, pixels.
        card: the card, or None for a face-down card (the dealer's hole card).
        tags: extra canvas tags for every item (e.g. ``("dealer",)``).
    """
    radius = box.w * 0.09
    ids, all_tags = _shadow(canvas, box, radius, (*tags, "card", "facedown" if card is None else f"card_{card.code}"))
    if card is None:
        return ids + _draw_back(canvas, box, radius, all_tags)
    color = RED if card.suit.color == "red" else BLACK
    ids.append(rounded_rectangle(canvas, box, radius, fill="white", outline="#666666", tags=all_tags))
    ids += _draw_indices(canvas, box, card, color, all_tags)
    if card.face >= 11:
        ids += _draw_court(canvas, box, card, color, all_tags)
    elif card.face == 1:
        cx, cy = box.center
        ids.append(canvas.create_text(cx, cy, text=card.suit.symbol, fill=color,
                                      font=(FONT_FAMILY, -max(10, round(box.h * 0.42))),
                                      tags=(*all_tags, "pip")))
    else:
        ids += _draw_pips(canvas, box, card, color, all_tags)
    return ids


def _shadow(canvas: tk.Canvas, box: Box, radius: float, tags: tuple[str, ...]) -> tuple[list[int], tuple[str, ...]]:
    """The shadow under a card in ``box``; returns its id in a list and ``tags`` with the card's own ``cardid<n>``."""
    shadow = rounded_rectangle(canvas, Box(box.x + 2, box.y + 3, box.w, box.h), radius, fill="#0b3d1e", outline="",
                               tags=tags)
    canvas.addtag_withtag(f"cardid{shadow}", shadow)
    return [shadow], (*tags, f"cardid{shadow}")


def _draw_back(canvas: tk.Canvas, box: Box, radius: float, tags: tuple[str, ...]) -> list[int]:
    """A face-down card: a white border around a blue lattice."""
    ids = [rounded_rectangle(canvas, box, radius, fill="white", outline="#555555", tags=tags)]
    inner = Box(box.x + box.w * 0.08, box.y + box.w * 0.08, box.w * 0.84, box.h - box.w * 0.16)
    ids.append(rounded_rectangle(canvas, inner, radius * 0.6, fill=BACK, outline="", tags=tags))
    step = max(6.0, inner.w / 6)
    offset = -inner.h
    while offset < inner.w:  # a diagonal lattice clipped to the inner rectangle
        for sign in (1, -1):
            start = (inner.x + offset, inner.y) if sign == 1 else (inner.x + offset + inner.h, inner.y)
            line = _clip_diagonal(start, sign, inner)
            if line:
                ids.append(canvas.create_line(*line, fill="#4f6fc9", width=1, tags=tags))
        offset += step
    return ids


def _draw_indices(canvas: tk.Canvas, box: Box, card: Card, color: str, tags: tuple[str, ...]) -> list[int]:
    """The rank above the suit in the top-left corner, and the same turned upside down in the bottom-right."""
    rank = FACE_LETTERS.get(card.face, str(card.face))
    rank_size = max(9, round(box.h * (0.145 if len(rank) == 1 else 0.13)))
    suit_size = max(8, round(box.h * 0.12))
    rank_font = (FONT_FAMILY + (" Condensed" if len(rank) > 1 else ""), -rank_size, "bold")
    cx = box.x + box.w * 0.125
    rank_y, suit_y = box.y + box.h * 0.095, box.y + box.h * 0.215
    ids = []
    for angle, (x, y1, y2) in ((0.0, (cx, rank_y, suit_y)),
                               (180.0, (2 * box.x + box.w - cx, 2 * box.y + box.h - rank_y,
                                        2 * box.y + box.h - suit_y))):
        ids.append(canvas.create_text(x, y1, text=rank, fill=color, angle=angle, font=rank_font,
                                      tags=(*tags, "index")))
        ids.append(canvas.create_text(x, y2, text=card.suit.symbol, fill=color, angle=angle,
                                      font=(FONT_FAMILY, -suit_size), tags=(*tags, "index")))
    return ids


def _draw_pips(canvas: tk.Canvas, box: Box, card: Card, color: str, tags: tuple[str, ...]) -> list[int]:
    """The pips of a 2-10 in their classic places; those below the middle are upside down."""
    layout = PIP_LAYOUTS[card.face]
    left, right = box.x + box.w * 0.32, box.x + box.w * 0.68
    top, bottom = box.y + box.h * 0.2, box.y + box.h * 0.8
    size = -max(8, round(box.h * (0.17 if card.face < 9 else 0.155)))
    ids = []
    for column, row in layout:
        x = left + (right - left) * column
        y = top + (bottom - top) * row
        ids.append(canvas.create_text(x, y, text=card.suit.symbol, fill=color, angle=180.0 if row > 0.5 else 0.0,
                                      font=(FONT_FAMILY, size), tags=(*tags, "pip")))
    return ids


def _draw_court(canvas: tk.Canvas, box: Box, card: Card, color: str, tags: tuple[str, ...]) -> list[int]:
    """A jack, queen or king: a tinted, framed panel with the rank's emblem, the letter large and the suit."""
    tint, emblem = COURTS[card.face]
    letter = FACE_LETTERS[card.face]
    court = (*tags, "court", f"emblem_{letter}")
    panel = Box(box.x + box.w * 0.24, box.y + box.h * 0.1, box.w * 0.52, box.h * 0.8)
    ids = [canvas.create_rectangle(panel.x, panel.y, panel.x + panel.w, panel.y + panel.h, fill=tint, outline=color,
                                   width=max(1, round(box.w * 0.02)), tags=court)]
    inset = max(2.0, box.w * 0.035)
    ids.append(canvas.create_rectangle(panel.x + inset, panel.y + inset, panel.x + panel.w - inset,
                                       panel.y + panel.h - inset, outline=TRIM, width=1, tags=court))
    cx = panel.x + panel.w / 2
    ids += _draw_emblem(canvas, emblem, cx, panel.y + panel.h * 0.2, panel.w * 0.62, color, court)
    ids.append(canvas.create_text(cx, panel.y + panel.h * 0.52, text=letter, fill=color,
                                  font=(SERIF_FAMILY, -max(10, round(box.h * 0.27)), "bold"), tags=court))
    ids.append(canvas.create_text(cx, panel.y + panel.h * 0.81, text=card.suit.symbol, fill=color,
                                  font=(FONT_FAMILY, -max(8, round(box.h * 0.15))), tags=court))
    return ids


def _draw_emblem(canvas: tk.Canvas, emblem: str, cx: float, cy: float, size: float, color: str,
                 tags: tuple[str, ...]) -> list[int]:
    """A court card's emblem centred on ``(cx, cy)``, ``size`` pixels wide: ``"crown"``, ``"flower"`` or
    ``"shield"``."""
    s = size / 2
    ids: list[int] = []
    if emblem == "crown":  # a band with three points, a jewel on each
        points = [cx - s, cy + s * 0.55, cx - s, cy - s * 0.35, cx - s * 0.5, cy + s * 0.1, cx, cy - s * 0.6,
                  cx + s * 0.5, cy + s * 0.1, cx + s, cy - s * 0.35, cx + s, cy + s * 0.55]
        ids.append(canvas.create_polygon(points, fill=TRIM, outline=color, width=1, tags=tags))
        j = max(1.5, s * 0.14)
        for x, y in ((cx - s, cy - s * 0.35), (cx, cy - s * 0.6), (cx + s, cy - s * 0.35)):
            ids.append(canvas.create_oval(x - j, y - j, x + j, y + j, fill=color, outline="", tags=tags))
    elif emblem == "flower":  # six petals round a heart
        r = s * 0.42
        for k in range(6):
            a = k * math.pi / 3
            x, y = cx + math.cos(a) * s * 0.5, cy + math.sin(a) * s * 0.5
            ids.append(canvas.create_oval(x - r, y - r, x + r, y + r, fill="white", outline=color, width=1,
                                          tags=tags))
        c = s * 0.3
        ids.append(canvas.create_oval(cx - c, cy - c, cx + c, cy + c, fill=TRIM, outline=color, tags=tags))
    else:  # a shield with a bend across it
        w, h = s * 0.8, s * 0.95
        points = [cx - w, cy - h, cx + w, cy - h, cx + w, cy + h * 0.1, cx, cy + h, cx - w, cy + h * 0.1]
        ids.append(canvas.create_polygon(points, fill="white", outline=color, width=1, tags=tags))
        ids.append(canvas.create_line(cx - w, cy - h, cx + w * 0.75, cy + h * 0.35, fill=color,
                                      width=max(2, round(s * 0.22)), tags=tags))
    return ids


def _clip_diagonal(start: tuple[float, float], sign: int, box: Box) -> tuple[float, float, float, float] | None:
    """Clip a 45-degree line from ``start`` going down (right if ``sign`` is 1, left if -1) to ``box``."""
    x0, y0 = start
    top, bottom, left, right = box.y, box.y + box.h, box.x, box.x + box.w
    # parametrise: x = x0 + sign * t, y = y0 + t, t in [0, h]
    t_lo, t_hi = 0.0, bottom - top
    if sign == 1:
        t_lo, t_hi = max(t_lo, left - x0), min(t_hi, right - x0)
    else:
        t_lo, t_hi = max(t_lo, x0 - right), min(t_hi, x0 - left)
    if t_hi <= t_lo:
        return None
    return x0 + sign * t_lo, y0 + t_lo, x0 + sign * t_hi, y0 + t_hi


# ================================================================================ chips
def chip_stacks(amount: Money) -> list[tuple[Money, int]]:
    """Split ``amount`` credits (0 or more) into ``(denomination, count)`` pairs, largest first, as a cashier pays
    out; what the smallest chip cannot make (the 0.5 of 2.5) is one last chip of that value (:data:`CHANGE_CHIP`).
    The values times the counts add up to ``amount`` exactly."""
    left = Fraction(amount)
    stacks: list[tuple[Money, int]] = []
    for value in sorted(CHIP_VALUES, reverse=True):
        count = int(left // value)
        if count:
            stacks.append((value, count))
            left -= count * value
    if left > 0:
        stacks.append((left, 1))
    return stacks


#: The most chips drawn in one stack; a taller stack is labelled with its count (``"×40"``).
STACK_MOST = 6


def draw_chip_stacks(canvas: tk.Canvas, amount: Money, right: float, base: float, r: float,
                     tags: Sequence[str] = ()) -> list[int]:
    """Draw ``amount`` as stacks of chips of radius ``r`` pixels by denomination, the largest nearest ``right``,
    standing on the line ``y = base``; return the item ids.

    At most :data:`STACK_MOST` chips of a stack are drawn, the top one showing the denomination;
    a taller stack shows its count (``"×40"``) under it. Tags, besides ``tags``: ``chipstack`` on
    every item, and those docs/gui.md lists (``stack_2.5`` for change).
    """
    ids: list[int] = []
    lift = max(2.0, r * 0.28)
    x = right - r
    for value, count in chip_stacks(amount):
        name = format_money(value)
        color = CHIP_COLORS[int(value)] if value in CHIP_COLORS else CHANGE_CHIP
        light = color in (CHIP_COLORS[CHIP_VALUES[0]], CHANGE_CHIP)
        stack_tags = (*tags, "chipstack", f"stack_{name}")
        shown = min(count, STACK_MOST)
        for k in range(shown):
            y = base - r - k * lift
            chip = (*stack_tags, f"stackchip_{name}")
            ids.append(canvas.create_oval(x - r, y - r, x + r, y + r, fill=color, outline="#111111", width=1,
                                          tags=chip))
            ids.append(canvas.create_oval(x - r * 0.84, y - r * 0.84, x + r * 0.84, y + r * 0.84,
                                          outline="#666666" if light else "white", width=max(2, round(r * 0.26)),
                                          dash=(2, 4), tags=stack_tags))  # the edge marks
        ids.append(canvas.create_oval(x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6, fill=color,
                                      outline="#666666" if light else "white", width=1, tags=stack_tags))
        top = base - r - (shown - 1) * lift
        ids.append(canvas.create_text(x, top, text=name, fill="#111111" if light else "white",
                                      font=(FONT_FAMILY, -max(7, round(r * (0.75 if len(name) < 3 else 0.55))),
                                            "bold"), tags=stack_tags))
        if count > shown:
            ids.append(canvas.create_text(x, base + 2, text=f"×{count}", anchor="n", fill="#f4f1e1",
                                          font=(FONT_FAMILY, -max(8, round(r * 0.8)), "bold"),
                                          tags=(*stack_tags, f"stackcount_{name}")))
        x -= 2 * r + max(2.0, r * 0.25)
    return ids


def draw_sideways(canvas: tk.Canvas, box: Box, card: Card, tags: Sequence[str] = ()) -> list[int]:
    """Draw a card turned sideways in ``box`` (wider than high): a double down's card, as a dealer lays it.

    Its corner indices and middle suit are turned a quarter, so it reads from the side;
    the tags are those of :func:`draw_card`, plus ``sideways``.
    """
    radius = box.h * 0.09
    ids, all_tags = _shadow(canvas, box, radius, (*tags, "card", f"card_{card.code}", "sideways"))
    color = RED if card.suit.color == "red" else BLACK
    ids.append(rounded_rectangle(canvas, box, radius, fill="white", outline="#666666", tags=all_tags))
    index = f"{FACE_LETTERS.get(card.face, str(card.face))}\n{card.suit.symbol}"
    size = -max(8, round(box.h * 0.17))
    for x, y, angle in ((box.x + box.w * 0.04, box.y + box.h * 0.04, 90),
                        (box.x + box.w * 0.96, box.y + box.h * 0.96, 270)):
        ids.append(canvas.create_text(x, y, text=index, angle=angle, anchor="ne",
                                      justify="center", fill=color, font=(FONT_FAMILY, size, "bold"),
                                      tags=(*all_tags, "index")))
    cx, cy = box.center
    ids.append(canvas.create_text(cx, cy, text=card.suit.symbol, angle=90, fill=color,
                                  font=(FONT_FAMILY, -max(10, round(box.h * 0.42))), tags=(*all_tags, "pip")))
    return ids
