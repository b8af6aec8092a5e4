"""The action bar under the table: a button per action, Deal and New round, and the insurance stake's box.

The bar only sends presses to the window (``command(name, action)``); the engine decides.
Nothing moves when a label changes or an offer comes: each button is as wide as its longest
text (Insurance: "Even money"), and the insurance box has a slot of its own, empty without an offer.
"""

from __future__ import annotations

import math
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable
from fractions import Fraction
from tkinter import ttk
from typing import Any

from blackjack import Action, TableView, format_money

from .logic import BUTTONS, FOCUS_COLOR, insurance_limit, step_stake

__all__ = ["ActionBar", "FOCUS_FACE", "focus_rings", "state_map"]

#: The face of the button that has the keyboard focus (with a ring of :data:`~gui.logic.FOCUS_COLOR`).
FOCUS_FACE = "#c6dbf5"


class ActionBar(ttk.Frame):
    """The action bar.

    Args:
        master: the main window.
        command: gives the callable a button calls: ``command(name, action)``.
        on_key: Space or Enter on a button (the window decides what they do).
        on_stake: Enter in the insurance box.
    """

    def __init__(self, master: tk.Misc, command: Callable[[str, Action | None], Callable[[], None]],
                 on_key: Callable[[tk.Event[Any]], str], on_stake: Callable[[tk.Event[Any]], str]) -> None:
        super().__init__(master, padding=(6, 2))
        font = tkfont.nametofont("TkDefaultFont", root=self)
        digit = max(1, font.measure("0"))  # ttk counts a width in characters of this size
        self.buttons: dict[str, ttk.Button] = {}
        self.amount = tk.StringVar(self)
        self.offer: tuple[object, tuple[int, int] | None] | None = None  # (round, turn) the box is for
        for spec in BUTTONS:
            labels = [spec.label, "Even money"] if spec.action is Action.INSURANCE else [spec.label]
            chars = max(6, math.ceil(max(font.measure(label) for label in labels) / digit))
            button = ttk.Button(self, text=spec.label, underline=spec.underline, width=chars,
                                command=command(spec.name, spec.action))
            button.pack(side="left", padx=2)
            for key in ("<KeyPress-space>", "<KeyPress-Return>", "<KeyPress-KP_Enter>"):
                button.bind(key, on_key)
            self.buttons[spec.name] = button
            if spec.action is Action.INSURANCE:  # the insurance stake: in its slot only while insurance is offered
                self.slot = ttk.Frame(self)
                self.box = ttk.Spinbox(self.slot, textvariable=self.amount, width=7)
                self.slot.pack_propagate(False)
                self.slot.pack(side="left", padx=(0, 2))
        self.fit_slot()
        for sequence in ("<Return>", "<KP_Enter>"):
            self.box.bind(sequence, on_stake)
        self._view: TableView | None = None
        self.box.bind("<<Increment>>", lambda _e: self._step(up=True))
        self.box.bind("<<Decrement>>", lambda _e: self._step(up=False))

    def fit_slot(self) -> None:
        """Size the insurance box's slot to the box and the buttons (after the fonts change)."""
        self.slot.configure(width=self.box.winfo_reqwidth(), height=self.buttons["insurance"].winfo_reqheight())

    def show_offer(self, view: TableView | None, rnd: object) -> None:
        """Show the insurance amount box while an offer waits in round ``rnd``; fill it with the largest stake
        for each new offer (another round, or the next player's turn)."""
        self._view = view
        most = insurance_limit(view)
        if most is None or view is None:
            if self.offer is not None:
                self.offer = None
                if str(self.tk.call("focus")) == str(self.box):
                    self.winfo_toplevel().focus_set()  # a hidden box would keep the keys from the shortcuts
                self.box.pack_forget()
            return
        offer = (rnd, view.turn)
        if self.offer is None or self.offer[0] is not offer[0] or self.offer[1] != offer[1]:
            self.offer = offer
            self.amount.set(format_money(most))
            self.box.pack(fill="both", expand=True)

    def _step(self, up: bool) -> str:
        most: Fraction | None = insurance_limit(self._view)
        if most is not None:
            self.amount.set(step_stake(self.amount.get(), most, up))
        return "break"  # instead of ttk's own float stepping


def focus_rings(root: tk.Misc) -> None:
    """A focus ring that shows on every control: the focused button gets a blue ring and a light blue face,
    a check box a ring, a box (bet, insurance, Bet for, drill) a blue frame and a light blue field."""
    style = ttk.Style(root)
    style.configure("TButton", focuscolor=FOCUS_COLOR, focusthickness=2)
    for name in ("TCheckbutton", "TRadiobutton"):
        style.configure(name, focuscolor=FOCUS_COLOR)
    faces = state_map(style, "TButton", "background")
    style.map("TButton", background=[("focus !disabled !pressed", FOCUS_FACE), *faces])
    for name in ("TEntry", "TCombobox", "TSpinbox"):
        fields = state_map(style, name, "fieldbackground")
        style.map(name, fieldbackground=[("focus !disabled", FOCUS_FACE), *fields],
                  bordercolor=[("focus !disabled", FOCUS_COLOR)], lightcolor=[("focus !disabled", FOCUS_COLOR)])


def state_map(style: ttk.Style, name: str, option: str) -> list[tuple[str, str]]:
    """The theme's state map of ``option`` for style ``name`` (or of the root style ``.``), as (state, value) pairs."""
    entries: Any = style.map(name, option) or style.map(".", option)
    return [(" ".join(str(s) for s in entry[:-1]), str(entry[-1])) for entry in map(tuple, entries)]
