"""Card art drawn with canvas shapes and Unicode suit symbols, crisp at any size.

No image files: a card is a rounded polygon, its rank and suit symbol in the corners
and a large suit (or face letter) in the middle; the back is a lattice of lines. Sizes
are in pixels and fonts use negative (pixel) sizes, so a card redrawn for a bigger
window is as sharp as a small one.

Every item of a card carries the caller's tags plus ``"card"`` and either
``"card_<code>"`` (e.g. ``"card_Th"``) or ``"facedown"``, and ``"cardid<n>"`` shared by
the items of one card only, so tests can ask the canvas what it shows.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Sequence

from blackjack import Card

from .logic import Box

__all__ = ["FONT_FAMILY", "draw_card", "rounded_rectangle"]

#: A family with the four suit symbols (DejaVu ships with most Linux systems; Tk falls back otherwise).
FONT_FAMILY = "DejaVu Sans"
RED = "#c62828"
BLACK = "#1b1b1b"
BACK = "#1f3c88"
FACE_LETTERS = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


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
    kind = "facedown" if card is None else f"card_{card.code}"
    all_tags = (*tags, "card", kind)
    radius = box.w * 0.09
    shadow = rounded_rectangle(canvas, Box(box.x + 2, box.y + 3, box.w, box.h), radius,
                               fill="#0b3d1e", outline="", tags=all_tags)
    uid = f"cardid{shadow}"  # one tag shared by the items of this card
    canvas.addtag_withtag(uid, shadow)
    all_tags = (*all_tags, uid)
    ids = [shadow]
    if card is None:
        ids.append(rounded_rectangle(canvas, box, radius, fill="white", outline="#555555", tags=all_tags))
        inner = Box(box.x + box.w * 0.08, box.y + box.w * 0.08, box.w * 0.84, box.h - box.w * 0.16)
        ids.append(rounded_rectangle(canvas, inner, radius * 0.6, fill=BACK, outline="", tags=all_tags))
        step = max(6.0, inner.w / 6)
        offset = -inner.h
        while offset < inner.w:  # a diagonal lattice clipped to the inner rectangle
            for sign in (1, -1):
                start = (inner.x + offset, inner.y) if sign == 1 else (inner.x + offset + inner.h, inner.y)
                line = _clip_diagonal(start, sign, inner)
                if line:
                    ids.append(canvas.create_line(*line, fill="#4f6fc9", width=1, tags=all_tags))
            offset += step
        return ids
    color = RED if card.suit.color == "red" else BLACK
    ids.append(rounded_rectangle(canvas, box, radius, fill="white", outline="#666666", tags=all_tags))
    rank = FACE_LETTERS.get(card.face, str(card.face))
    corner = max(8, round(box.h * 0.15))
    for x, y, angle in ((box.x + box.w * 0.07, box.y + box.h * 0.03, 0.0),
                        (box.x + box.w * 0.93, box.y + box.h * 0.97, 180.0)):
        ids.append(canvas.create_text(x, y, text=f"{rank}\n{card.suit.symbol}", fill=color, angle=angle,
                                      anchor="nw", justify="center",
                                      font=(FONT_FAMILY, -corner, "bold"), tags=all_tags))
    cx, cy = box.center
    if card.face >= 11:
        ids.append(rounded_rectangle(canvas, Box(box.x + box.w * 0.27, box.y + box.h * 0.2, box.w * 0.46,
                                                 box.h * 0.6), radius * 0.5, fill="#fff4d6", outline=color,
                                     tags=all_tags))
        ids.append(canvas.create_text(cx, cy - box.h * 0.07, text=rank, fill=color,
                                      font=(FONT_FAMILY, -round(box.h * 0.27), "bold"), tags=all_tags))
        ids.append(canvas.create_text(cx, cy + box.h * 0.16, text=card.suit.symbol, fill=color,
                                      font=(FONT_FAMILY, -round(box.h * 0.17)), tags=all_tags))
    else:
        size = 0.42 if card.face == 1 else 0.34
        ids.append(canvas.create_text(cx, cy, text=card.suit.symbol, fill=color,
                                      font=(FONT_FAMILY, -round(box.h * size)), tags=all_tags))
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
