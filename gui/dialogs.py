"""The dialogs: new game, rule switches, stack the shoe, and the help texts.

Bad input never closes a dialog and never raises: its one-line message is shown in red inside
the dialog (:meth:`Dialog.ok`). Tests pass ``modal=False`` (IDLE's ``_utest``), fill the fields
and ``invoke()`` the buttons.
"""

from __future__ import annotations

import dataclasses
import tkinter as tk
from collections.abc import Callable
from fractions import Fraction
from tkinter import ttk
from typing import Any, Generic, Literal, TypeVar

from blackjack import BlackjackError, Card, Rules, parse_cards
from blackjack.errors import quoted
from blackjack.player import check_name
from blackjack.rules import DOUBLE_ON, SPLIT_BY, SURRENDER
from blackjack.typed_numbers import parse_whole

from .logic import preset_title, read_bankroll

__all__ = ["CLOSE_KEYS", "Dialog", "NewGameDialog", "NewGameResult", "RulesDialog", "StackDialog", "TextWindow",
           "HELP_RULES", "HELP_KEYS", "ABOUT", "bind_close"]

_T = TypeVar("_T")

#: The keys that close a window that is only read (help, strategy chart, session): Escape and Ctrl+W.
CLOSE_KEYS = ("<Escape>", "<Control-w>", "<Control-W>")


def bind_close(window: tk.Toplevel, close: Callable[[], None]) -> None:
    """Make the window manager's close button and :data:`CLOSE_KEYS`, pressed anywhere in ``window``, call ``close``."""
    window.protocol("WM_DELETE_WINDOW", close)
    for sequence in CLOSE_KEYS:
        window.bind(sequence, lambda _e: close())


class Dialog(tk.Toplevel, Generic[_T]):
    """A dialog with OK and Cancel and an error line.

    Args:
        master: the main window.
        title: the window title.
        on_ok: called with the input (:meth:`read`) when OK finds it good; it may raise
            :class:`~blackjack.BlackjackError`, which the dialog shows.
        modal: grab input and wait until the dialog closes.
    """

    def __init__(self, master: tk.Misc, title: str, on_ok: Callable[[_T], None], modal: bool = True) -> None:
        super().__init__(master)
        self.title(title)
        self.on_ok = on_ok
        self.transient(master.winfo_toplevel())
        self.body = ttk.Frame(self, padding=10)
        self.body.pack(fill="both", expand=True)
        self.error = ttk.Label(self, text="", foreground="#c62828", wraplength=480, padding=(10, 0))
        self.error.pack(fill="x")
        buttons = ttk.Frame(self, padding=10)
        buttons.pack(fill="x")
        self.cancel_button = ttk.Button(buttons, text="Cancel", command=self.destroy)
        self.cancel_button.pack(side="right")
        self.ok_button = ttk.Button(buttons, text="OK", command=self.ok, default="active")
        self.ok_button.pack(side="right", padx=6)
        self.bind("<Return>", lambda _e: self.ok())
        self.bind("<Escape>", lambda _e: self.destroy())
        self.modal = modal

    def run(self) -> None:
        """Show the dialog; when modal, wait until it is closed."""
        if self.modal:
            self.wait_visibility()
            self.grab_set()
            self.wait_window()

    def fail(self, message: str) -> None:
        """Show a one-line error and keep the dialog open."""
        self.error.configure(text=message)

    def ok(self) -> None:
        """Read the input and apply it (``on_ok``), then close; else show the one-line message and stay open."""
        try:
            self.on_ok(self.read())
        except (BlackjackError, ValueError, TypeError) as err:
            self.fail(str(err))
            return
        self.destroy()

    def read(self) -> _T:
        """The input, checked (subclasses); raises BlackjackError or ValueError with a one-line message."""
        raise NotImplementedError  # pragma: no cover - every dialog overrides it


@dataclasses.dataclass(frozen=True)
class NewGameResult:
    """What the new-game dialog returns: player names, starting bankroll (credits) and rules."""

    names: list[str]
    bankroll: Fraction
    rules: Rules


class NewGameDialog(Dialog[NewGameResult]):
    """New game: one to three players, their names, the bankroll and the rules preset.

    Args:
        rules: the current rules (preselected).
        names: the current names.
        master, on_ok, modal: as :class:`Dialog`'s (``on_ok`` takes a :class:`NewGameResult`).
    """

    def __init__(self, master: tk.Misc, rules: Rules, names: list[str], on_ok: Callable[[NewGameResult], None],
                 modal: bool = True) -> None:
        super().__init__(master, "New game", on_ok, modal)
        ttk.Label(self.body, text="Players (1-3):").grid(row=0, column=0, sticky="w")
        self.players = tk.StringVar(self, value=str(len(names)))
        ttk.Spinbox(self.body, from_=1, to=3, textvariable=self.players, width=4).grid(row=0, column=1, sticky="w")
        self.names = [tk.StringVar(self, value=names[i] if i < len(names) else f"Player {i + 1}") for i in range(3)]
        for i, var in enumerate(self.names):
            ttk.Label(self.body, text=f"Seat {i + 1} name:").grid(row=1 + i, column=0, sticky="w")
            ttk.Entry(self.body, textvariable=var, width=18).grid(row=1 + i, column=1, sticky="w")
        ttk.Label(self.body, text="Bankroll (credits):").grid(row=4, column=0, sticky="w")
        self.bankroll = tk.StringVar(self, value="")
        ttk.Entry(self.body, textvariable=self.bankroll, width=10).grid(row=4, column=1, sticky="w")
        ttk.Label(self.body, text="(empty: the rules' starting bankroll)").grid(row=4, column=2, sticky="w")
        ttk.Label(self.body, text="Rules:").grid(row=5, column=0, sticky="w")
        # the box lists the presets by their human names, as the Rules menu does; ``preset`` holds the key
        self.preset = tk.StringVar(self, value=rules.name if rules.name in Rules.preset_names() else "vegas")
        keys = {preset_title(Rules.preset(name)): name for name in Rules.preset_names()}
        titles = {key: title for title, key in keys.items()}
        self.preset_title = tk.StringVar(self, value=titles[self.preset.get()])
        self.preset.trace_add("write", lambda *_a: self.preset_title.set(titles.get(self.preset.get(), "")))
        box = ttk.Combobox(self.body, textvariable=self.preset_title, values=list(keys), state="readonly", width=22)
        box.grid(row=5, column=1, columnspan=2, sticky="w")
        box.bind("<<ComboboxSelected>>", lambda _e: self.preset.set(keys[self.preset_title.get()]))

    def read(self) -> NewGameResult:
        """The players, names and bankroll, checked."""
        try:
            count = parse_whole(self.players.get())
        except ValueError:
            raise ValueError(f"players must be a whole number from 1 to 3, got {quoted(self.players.get())}") from None
        if not 1 <= count <= 3:
            raise ValueError(f"players must be 1, 2 or 3, got {count}")
        names = [check_name(var.get()) for var in self.names[:count]]
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ, got {', '.join(names)}")
        rules = Rules.preset(self.preset.get())
        return NewGameResult(names, read_bankroll(self.bankroll.get(), rules), rules)


#: The rule fields that take whole numbers (the others are passed to Rules as text, which parses them).
INT_FIELDS = {"decks", "max_split_hands", "max_players", "charlie_cards"}
#: Fields that may be left empty for "none".
OPTIONAL_FIELDS = {"penetration", "cut_card_from_back", "charlie_cards", "thunderjack_pays"}
CHOICES = {"double_on": DOUBLE_ON, "surrender": SURRENDER, "split_by": SPLIT_BY}


class RulesDialog(Dialog[Rules]):
    """The individual rule switches of :class:`~blackjack.Rules`, starting from the current rules.

    Args:
        rules: the rules to start from.
        master, on_ok, modal: as :class:`Dialog`'s (``on_ok`` takes the new :class:`~blackjack.Rules`).
    """

    def __init__(self, master: tk.Misc, rules: Rules, on_ok: Callable[[Rules], None], modal: bool = True) -> None:
        super().__init__(master, f"Rules: {rules.name}", on_ok, modal)
        self.rules = rules
        self.vars: dict[str, tk.BooleanVar | tk.StringVar] = {}
        fields = [f for f in dataclasses.fields(Rules) if f.name not in ("name", "description")]
        half = (len(fields) + 1) // 2
        for k, field in enumerate(fields):
            value = getattr(rules, field.name)
            row, col = k % half, (k // half) * 2
            ttk.Label(self.body, text=field.name.replace("_", " ")).grid(row=row, column=col, sticky="w", padx=(8, 2))
            if isinstance(value, bool):
                var: tk.BooleanVar | tk.StringVar = tk.BooleanVar(self, value=value)
                widget: tk.Widget = ttk.Checkbutton(self.body, variable=var)
            elif field.name in CHOICES:
                var = tk.StringVar(self, value=str(value))
                widget = ttk.Combobox(self.body, textvariable=var, values=CHOICES[field.name], state="readonly",
                                      width=8)
            else:
                var = tk.StringVar(self, value=_show(value))
                widget = ttk.Entry(self.body, textvariable=var, width=10)
            widget.grid(row=row, column=col + 1, sticky="w")
            self.vars[field.name] = var

    def values(self) -> dict[str, Any]:
        """Read the fields; raise ValueError with a one-line message for a number that does not parse."""
        out: dict[str, Any] = {}
        for name, var in self.vars.items():
            value: Any = var.get()
            if isinstance(value, str):
                value = value.strip()
                if name in OPTIONAL_FIELDS and value.lower() in ("", "none"):
                    value = None
                elif name == "cut_card_from_back":
                    parts = value.replace(",", "-").split("-")
                    try:
                        value = tuple(parse_whole(p) for p in parts)
                    except ValueError:
                        raise ValueError(f"cut card from back: give two whole numbers like 61-75, got {quoted(value)}") \
                            from None
                elif name in INT_FIELDS:
                    try:
                        value = parse_whole(value)
                    except ValueError:
                        raise ValueError(f"{name.replace('_', ' ')}: a whole number, got {quoted(value)}") from None
            out[name] = value
        return out

    def read(self) -> Rules:
        """The rules the switches make; the engine's message if they contradict each other."""
        return dataclasses.replace(self.rules, name="custom", **self.values())


def _show(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, tuple):
        return "-".join(str(v) for v in value)
    return str(value)


class StackDialog(Dialog[list[Card]]):
    """Stack the shoe (Thunderjack's debug feature, for teachers): the next cards dealt, in deal order.

    Args:
        master, on_ok, modal: as :class:`Dialog`'s (``on_ok`` takes the parsed cards and raises
            :class:`~blackjack.BlackjackError` when no copy of a card is left).
    """

    def __init__(self, master: tk.Misc, on_ok: Callable[[list[Card]], None], modal: bool = True) -> None:
        super().__init__(master, "Stack the shoe", on_ok, modal)
        ttk.Label(self.body, text="Next cards, in deal order: each seat's first card, the dealer's upcard,\n"
                                  "each seat's second card, the hole card, then hits. E.g. 8s 6d 8h Th").grid(
            row=0, column=0, sticky="w")
        self.codes = tk.StringVar(self)
        self.entry = ttk.Entry(self.body, textvariable=self.codes, width=48)
        self.entry.grid(row=1, column=0, sticky="we", pady=6)
        self.entry.focus_set()

    def read(self) -> list[Card]:
        """The typed card codes, parsed."""
        cards = parse_cards(self.codes.get())
        if not cards:
            raise ValueError("type at least one card code, e.g. As Kd 9h")
        return cards


class TextWindow(tk.Toplevel):
    """A window showing read-only text (help) that scrolls: with its scroll bar, the mouse wheel, the arrow keys,
    Page Up / Page Down and Home / End. Escape or Ctrl+W closes it.

    Args:
        master: the main window.
        title: the window title.
        text: the text.
        lines: the most lines shown at once (the window's height); a longer text scrolls.
    """

    def __init__(self, master: tk.Misc, title: str, text: str, lines: int = 24) -> None:
        super().__init__(master)
        self.title(title)
        self.text = text
        frame = ttk.Frame(self)
        frame.pack(fill="both", expand=True)
        self.box = tk.Text(frame, wrap="word", width=86, height=min(lines, text.count("\n") + 1), padx=10, pady=10)
        self.scrollbar = ttk.Scrollbar(frame, orient="vertical", command=self.box.yview)
        self.box.configure(yscrollcommand=self.scrollbar.set)
        self.scrollbar.pack(side="right", fill="y")
        self.box.pack(side="left", fill="both", expand=True)
        self.box.insert("1.0", text)
        self.box.configure(state="disabled")
        for sequence, step in (("<Up>", -1), ("<Down>", 1)):
            self.box.bind(sequence, self._scroller(step, "units"))
        for sequence, step in (("<Prior>", -1), ("<Next>", 1)):
            self.box.bind(sequence, self._scroller(step, "pages"))
        self.box.bind("<Home>", lambda _e: self._moveto(0.0))
        self.box.bind("<End>", lambda _e: self._moveto(1.0))
        self.close_button = ttk.Button(self, text="Close", command=self.destroy)
        self.close_button.pack(pady=6)
        bind_close(self, self.destroy)
        self.box.focus_set()  # the keys scroll at once

    def _scroller(self, step: int, what: Literal["units", "pages"]) -> Callable[[tk.Event[Any]], str]:
        def scroll(_event: tk.Event[Any]) -> str:
            self.box.yview_scroll(step, what)
            return "break"
        return scroll

    def _moveto(self, fraction: float) -> str:
        self.box.yview_moveto(fraction)
        return "break"


HELP_RULES = """\
Blackjack in one page

Goal: finish closer to 21 than the dealer without going over. Cards 2-9 count their
value, tens and J, Q, K count 10, an ace counts 1 or 11. A hand with an ace counted as
11 is soft, shown as "7 / 17"; it cannot bust with one more card.

A round: place a bet with the chips, press Deal. Everyone gets two cards; the dealer
shows one (the upcard) and keeps one face down (the hole card). Then each hand
decides, left to right:
  Hit        take a card.             Stand      take no more cards.
  Double     double the bet, take exactly one card.
  Split      two cards of a rank become two hands, each with the bet.
  Surrender  give up the hand and get half the bet back.
  Insurance  when the dealer shows an ace: a side bet of up to half your bet that
             the dealer has blackjack; pays 2:1. With a blackjack it is "even money".
             Type the stake in the box next to the button (it starts at the most).
Then the dealer turns the hole card over and draws to 17 (on a soft 17 too if the
table says "hits soft 17"). Over 21 busts. A two-card 21 is a blackjack (natural)
and pays 3:2 on most tables. Ties push: the bet comes back.

Thunderjack rules: a suited ace with a J, Q or K pays 3:1 at once; a hand of six cards
without busting is a Blitz and pays 5:1.

The Rules menu lists every table (preset) and its switches; the strategy chart window
shows the best play for the current rules."""

HELP_KEYS = """\
Keyboard shortcuts (the underlined letters on the buttons)

  H        Hit
  S        Stand
  D        Double down
  P        Split
  R        Surrender
  I        Insurance / even money, for the stake in the box next to the button
  N        No thanks (decline insurance or early surrender)
  Enter    press the focused button; with none: Deal (the last bet
           again when nothing is bet yet), or New round when it is over
  Space    press the focused button or check box; with none, as Enter
  Tab      the next control (Shift+Tab the previous one): buttons,
           chips (Space adds, Delete takes back), bet box, panels
  Alt+key  open a menu by its underlined letter
  F1       this list

Chips: click a chip to add it to the bet of the marked seat, right-click it to take it
back; click a seat on the table to bet for that player.

Insurance box: Enter takes the amount typed, Up / Down step it. In the amount boxes a
letter whose button is on presses it; other letters are typed. Any key or click while
cards move puts them all down (View > Animation speed)."""

ABOUT = """\
Blackjack Kit: Tk table

A teaching table for the CS111 blackjack course project. The window only shows the
engine's state and sends it actions: every rule lives in the blackjack package.
Standard library only (tkinter). MIT licence."""
