"""The betting rail under the table: whose bet, the chips, the bet box and its buttons, and a line for a refusal.

The rail only sends what the player does to the window (callbacks); the engine takes
or refuses the bet. The chips are one canvas that takes the keyboard focus chip by chip.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import ttk
from typing import Any

from .cards import FONT_FAMILY
from .logic import CHIP_COLORS, CHIP_VALUES, ERROR_TEXT, FOCUS_COLOR, dimmed

__all__ = ["BetRail", "CHIP_RADIUS", "CHIP_STEP"]

#: Pixels a chip takes on the rail, and its radius, at scale 1.
CHIP_STEP, CHIP_RADIUS = 46, 20


class BetRail(ttk.Frame):
    """The betting rail.

    Args:
        master: the main window.
        on_seat: called with a seat's index when *Bet for* picks it.
        on_chip: called with a chip's value and ``remove`` (a right-click, Delete) when a chip is pressed.
        on_bet, on_clear, on_same: the *Bet*, *Clear bet* and *Same bet again* buttons.
        on_return: Enter in the bet box.
    """

    def __init__(self, master: tk.Misc, on_seat: Callable[[int], None], on_chip: Callable[[int, bool], None],
                 on_bet: Callable[[], object], on_clear: Callable[[], None], on_same: Callable[[], None],
                 on_return: Callable[[tk.Event[Any]], str]) -> None:
        super().__init__(master, padding=(6, 2))
        self._on_chip = on_chip
        self._scale = 1.0
        self._allowed: Sequence[int] = ()
        row = ttk.Frame(self)
        row.pack(side="top", fill="x")
        ttk.Label(row, text="Bet for").pack(side="left")
        self.seat_choice = tk.StringVar(self)
        self.seat_box = ttk.Combobox(row, textvariable=self.seat_choice, state="readonly", width=10)
        self.seat_box.pack(side="left", padx=4)
        self.seat_box.bind("<<ComboboxSelected>>", lambda _e: on_seat(self.seat_box.current()))
        self.chips = tk.Canvas(row, highlightthickness=0, takefocus=0)
        self.chips.pack(side="left", padx=6)
        self.chip_cursor = 0  # the chip the keyboard is on, while the chips have the focus
        self.backward = False  # the last Tab went backward (Shift+Tab): entering the chips starts at the last
        self._bind_chip_keys()
        self.bet_entry = tk.StringVar(self)
        self.bet_box = ttk.Entry(row, textvariable=self.bet_entry, width=6)
        self.bet_box.pack(side="left")
        for sequence in ("<Return>", "<KP_Enter>"):
            self.bet_box.bind(sequence, on_return)
        self.bet_button = ttk.Button(row, text="Bet", command=on_bet, width=5)
        self.bet_button.pack(side="left", padx=2)
        self.clear_button = ttk.Button(row, text="Clear bet", command=on_clear, width=9)
        self.clear_button.pack(side="left", padx=2)
        self.same_button = ttk.Button(row, text="Same bet again", command=on_same, width=14)
        self.same_button.pack(side="left", padx=2)
        self.bet_error = ttk.Label(self, text="", foreground=ERROR_TEXT, anchor="w")
        self.bet_error.pack(side="top", fill="x")
        self.draw_chips(())

    def scale(self, factor: float) -> None:
        """Draw the chips ``factor`` times their size (the fonts grow with the window's named fonts)."""
        if abs(factor - self._scale) > 0.01:
            self._scale = factor
            self.draw_chips(self._allowed)

    def set_betting(self, betting: bool) -> None:
        """Open or close the rail: while bets are closed its controls are off and out of the Tab order."""
        for widget in (self.bet_button, self.clear_button, self.same_button, self.bet_box):
            widget.state(["!disabled"] if betting else ["disabled"])
        self.seat_box.state(["!disabled", "readonly"] if betting else ["disabled"])
        self.chips.configure(takefocus=1 if betting else 0)

    def draw_chips(self, allowed: Sequence[int]) -> None:
        """Draw the chips, those in ``allowed`` in their colours and clickable, the others faded."""
        self._allowed = tuple(allowed)
        canvas, k = self.chips, self._scale
        step, r = CHIP_STEP * k, CHIP_RADIUS * k
        canvas.configure(width=round(len(CHIP_VALUES) * step + 4), height=round(2 * r + 6))
        canvas.delete("all")
        for i, value in enumerate(CHIP_VALUES):
            x, y = r + 4 + i * step, r + 3
            on = value in allowed
            tag = f"chip{value}"
            color = CHIP_COLORS[value]  # by value, also when it cannot be added (then faded)
            light = value == CHIP_VALUES[0]
            canvas.create_oval(x - r, y - r, x + r, y + r, fill=color if on else dimmed(color),
                               outline="#333333" if on else "#9e9e9e", width=2, tags=("chip", tag, f"chip_face{value}"))
            canvas.create_oval(x - r + 5 * k, y - r + 5 * k, x + r - 5 * k, y + r - 5 * k,
                               outline="#777777" if light else "white", dash=(4, 3), tags=("chip", tag))
            ink = "#111111" if light else "#ffffff"
            canvas.create_text(x, y, text=str(value), fill=ink if on else dimmed(ink),
                               font=(FONT_FAMILY, -round((13 if value < 100 else 11) * k), "bold"), tags=("chip", tag))
            if on:
                canvas.tag_bind(tag, "<Button-1>", self._chip_command(value, remove=False))
            canvas.tag_bind(tag, "<Button-3>", self._chip_command(value, remove=True))
        self.draw_focus()

    def _chip_command(self, value: int, remove: bool) -> Callable[[tk.Event[Any]], None]:
        def press(_event: tk.Event[Any]) -> None:
            self._on_chip(value, remove)
        return press

    def _bind_chip_keys(self) -> None:
        chips = self.chips
        chips.bind("<FocusIn>", lambda _e: self._focused())
        chips.bind("<FocusOut>", lambda _e: self.draw_focus())
        chips.bind("<Tab>", lambda _e: self._move(1, wrap=False))
        chips.bind("<<PrevWindow>>", lambda _e: self._move(-1, wrap=False))
        chips.bind("<Right>", lambda _e: self._move(1, wrap=True))
        chips.bind("<Left>", lambda _e: self._move(-1, wrap=True))
        chips.bind("<space>", lambda _e: self._press(remove=False))
        for sequence in ("<Delete>", "<BackSpace>", "<minus>", "<KP_Subtract>"):
            chips.bind(sequence, lambda _e: self._press(remove=True))

    def _focused(self) -> None:
        self.chip_cursor = len(CHIP_VALUES) - 1 if self.backward else 0
        self.backward = False
        self.draw_focus()

    def _move(self, step: int, wrap: bool) -> str | None:
        """Move the keyboard to the next (``step`` 1) or previous chip; at either end Tab goes on to the next widget."""
        target = self.chip_cursor + step
        if not 0 <= target < len(CHIP_VALUES):
            if not wrap:
                return None  # Tab leaves the chips: the usual traversal takes over
            target %= len(CHIP_VALUES)
        self.chip_cursor = target
        self.draw_focus()
        return "break"

    def _press(self, remove: bool) -> str:
        self._on_chip(CHIP_VALUES[self.chip_cursor], remove)
        return "break"

    def draw_focus(self) -> None:
        """The focus ring round the chip the keyboard is on (none when the chips do not have the focus)."""
        self.chips.delete("chip_focus")
        if str(self.tk.call("focus")) != str(self.chips):
            return
        k = self._scale
        r = CHIP_RADIUS * k
        x = r + 4 + self.chip_cursor * CHIP_STEP * k
        self.chips.create_rectangle(x - r - 2, 1, x + r + 2, 2 * r + 5, outline=FOCUS_COLOR, width=2,
                                    tags=("chip_focus",))
