"""The side panels and the chart windows: hints, count, coach, strategy chart, session chart, ledger.

Each panel only shows what it is given (an :class:`~gui.advice.Advice`, a
:class:`~gui.advice.CountInfo`, ledger rows); the window computes those off the event loop.
"""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from tkinter import ttk

from blackjack import Money, format_money
from blackjack.hints import OUTCOMES

from .advice import CHART_UPCARDS, Advice, CountInfo
from .cards import FONT_FAMILY
from .dialogs import bind_close
from .logic import ERROR_TEXT, MUTED_TEXT, RIGHT_TEXT, legal_order, signed_money

__all__ = ["BARS_HEIGHT", "BARS_WIDTH", "ChartWindow", "CoachPanel", "CountPanel", "HintPanel", "LedgerRow",
           "PANEL_PADDING", "SIDE_WIDTH", "SessionWindow", "SidePanel", "Toggle", "WRAP"]

#: The padding inside each side panel's frame: left, top, right, bottom (pixels).
PANEL_PADDING = (6, 2, 6, 2)
#: The bindtag of every widget in a :class:`SidePanel`: the mouse wheel over any of them scrolls the panel.
SIDE_SCROLL = "SidePanelScroll"
#: The side column's width without its scroll bar, pixels: fixed, so nothing a panel shows moves the table.
SIDE_WIDTH = 286
#: Where the panels' text wraps, pixels: the column less its own, the panels' and the frames' padding.
WRAP = 240
#: The panels' own fonts, by name: (family, size in points, weight); they grow with the window (:meth:`SidePanel.scale`).
FONTS = {"BJHintAction": (FONT_FAMILY, 13, "bold"), "BJMono": ("DejaVu Sans Mono", 9, "normal")}


_MADE: weakref.WeakKeyDictionary[tk.Misc, dict[str, tkfont.Font]] = weakref.WeakKeyDictionary()


def panel_font(widget: tk.Misc, name: str) -> tkfont.Font:
    """The panels' named font ``name`` of :data:`FONTS` in ``widget``'s window (made on first use, and kept:
    Tk forgets a named font when its Python object goes)."""
    fonts = _MADE.setdefault(widget.nametowidget("."), {})
    if name not in fonts:
        family, size, weight = FONTS[name]
        fonts[name] = tkfont.Font(root=widget, name=name, family=family, size=size, weight=weight)  # type: ignore[arg-type]
    return fonts[name]


class SidePanel(ttk.Frame):
    """The column right of the table: its panels go in ``inner``, which scrolls when the window is too short.

    The column is :data:`SIDE_WIDTH` pixels wide whatever the panels show, the scroll bar's room included,
    so nothing a panel shows moves the table; a control that takes the keyboard focus scrolls into view.

    Args:
        master: the main window.
        padding: the padding round the panels.
    """

    def __init__(self, master: tk.Misc, padding: tuple[int, int] = (6, 4)) -> None:
        super().__init__(master)
        self.width = SIDE_WIDTH
        background = ttk.Style(self).lookup("TFrame", "background") or None
        self.canvas = tk.Canvas(self, highlightthickness=0, borderwidth=0, yscrollincrement=20, width=SIDE_WIDTH,
                                takefocus=0, **({"background": background} if background else {}))
        self.scrollbar = ttk.Scrollbar(self, orient="vertical", command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.scrollbar.set)
        self.inner = ttk.Frame(self.canvas, padding=padding)
        self._window = self.canvas.create_window(0, 0, window=self.inner, anchor="nw", width=SIDE_WIDTH)
        self.canvas.grid(row=0, column=0, sticky="ns")
        self.rowconfigure(0, weight=1)
        self.columnconfigure(1, minsize=self.scrollbar.winfo_reqwidth())  # the scroll bar's room, kept when hidden
        self.inner.bind("<Configure>", lambda _e: self._fit())
        self.canvas.bind("<Configure>", lambda _e: self._fit())
        self.bind_class(SIDE_SCROLL, "<Button-4>", lambda e: self._wheel(e, -1))
        self.bind_class(SIDE_SCROLL, "<Button-5>", lambda e: self._wheel(e, 1))
        self.bind_class(SIDE_SCROLL, "<MouseWheel>", lambda e: self._wheel(e, -1 if e.delta > 0 else 1))
        self.bind_class(SIDE_SCROLL, "<FocusIn>", lambda e: self.see(e.widget))

    def scale(self, factor: float) -> None:
        """Make the column ``factor`` times as wide, its panels' fonts that much larger, and their text wrap
        that much later (the window grows them with its size)."""
        self.width = round(SIDE_WIDTH * factor)
        self.canvas.configure(width=self.width)
        self.canvas.itemconfigure(self._window, width=self.width)
        for name, (_family, size, _weight) in FONTS.items():
            panel_font(self, name).configure(size=round(size * factor))
        for widget in _descendants(self.inner):
            if isinstance(widget, ttk.Label) and int(str(widget.cget("wraplength")) or 0) > 0:
                widget.configure(wraplength=round(WRAP * factor))
            if isinstance(widget, HintPanel):
                widget.scale(factor)
        self._fit()

    def adopt(self) -> None:
        """Give every widget in the panel the wheel and focus bindings (call after building the panels)."""
        for widget in _descendants(self):
            tags = widget.bindtags()
            if SIDE_SCROLL not in tags:
                widget.bindtags((*tags, SIDE_SCROLL))

    @property
    def overflows(self) -> bool:
        """The panels need more height than the column has (the scroll bar is shown)."""
        return self.inner.winfo_reqheight() > self.canvas.winfo_height() > 1

    def scroll(self, units: int) -> None:
        """Scroll by ``units`` steps of 20 pixels (negative: up), if the panels overflow."""
        if self.overflows:
            self.canvas.yview_scroll(units, "units")

    def see(self, widget: tk.Misc) -> None:
        """Scroll so that ``widget`` (inside the panel) is in view."""
        if not self.overflows or widget is self.canvas:
            return
        self.update_idletasks()
        top = widget.winfo_rooty() - self.inner.winfo_rooty()
        bottom = top + widget.winfo_height()
        height = self.inner.winfo_reqheight()
        first, last = (float(f) * height for f in self.canvas.yview())
        if top < first:
            self.canvas.yview_moveto(top / height)
        elif bottom > last:
            self.canvas.yview_moveto(max(0.0, bottom - (last - first)) / height)

    def _wheel(self, event: tk.Event[tk.Misc], units: int) -> None:
        """Scroll the column, unless the wheel is over a widget that uses it itself (the drill box)."""
        widget = event.widget
        if isinstance(widget, tk.Misc) and "<MouseWheel>" in widget.bind_class(widget.winfo_class()):
            return
        self.scroll(units)

    def _fit(self) -> None:
        """Size the canvas to the panels' height, set the scroll region, show the scroll bar only when needed."""
        width, height = self.width, self.inner.winfo_reqheight()
        if int(self.canvas.cget("height")) != height:
            self.canvas.configure(height=height)
        self.canvas.configure(scrollregion=(0, 0, width, height))
        if self.overflows:
            if not self.scrollbar.winfo_ismapped():
                self.scrollbar.grid(row=0, column=1, sticky="ns")
        else:
            self.scrollbar.grid_remove()
            self.canvas.yview_moveto(0)


def _descendants(widget: tk.Misc) -> Iterator[tk.Misc]:
    """``widget`` and every widget inside it."""
    yield widget
    for child in widget.winfo_children():
        yield from _descendants(child)


def _show_if(widget: tk.Widget, shown: object) -> None:
    """Put ``widget`` back in its grid cell when ``shown`` is true, else take it out (it keeps its place)."""
    if shown:
        widget.grid()
    else:
        widget.grid_remove()


class Toggle(ttk.LabelFrame):
    """A titled panel whose body can be hidden (for practice) and shown on demand; the *show* check box sits in
    the frame's title, so it takes no row of its own.

    Args:
        master: the parent.
        title: the frame's title.
        shown: start with the body visible.
    """

    def __init__(self, master: tk.Misc, title: str, shown: bool = True) -> None:
        super().__init__(master, text=title, padding=PANEL_PADDING)
        self.shown = tk.BooleanVar(self, value=shown)
        heading = ttk.Frame(self)
        ttk.Label(heading, text=title).pack(side="left")
        self.button = ttk.Checkbutton(heading, text="show", variable=self.shown, command=self._apply)
        self.button.pack(side="left", padx=(10, 0))
        self.configure(labelwidget=heading)
        self.body = ttk.Frame(self)
        self.hidden_note = ttk.Label(self, text="hidden: test yourself", foreground=MUTED_TEXT)
        self._apply()

    def set_shown(self, shown: bool) -> None:
        """Show or hide the body."""
        self.shown.set(shown)
        self._apply()

    def _apply(self) -> None:
        if self.shown.get():
            self.hidden_note.grid_remove()
            self.body.grid(row=0, column=0, sticky="nsew")
        else:
            self.body.grid_remove()
            self.hidden_note.grid(row=0, column=0, sticky="w")


#: The hint's bar chart of the dealer's final totals, pixels (short, so the side column fits a short window).
BARS_WIDTH, BARS_HEIGHT = 240, 62


class HintPanel(Toggle):
    """The hint: recommended action and why, bust chance, the dealer's outcomes as bars, each action's EV."""

    #: The most lines of a hint's reason the panel keeps room for (a longer one makes the room grow).
    REASON_LINES = 4

    def __init__(self, master: tk.Misc, shown: bool = True) -> None:
        super().__init__(master, "Hint", shown)
        self.bars_size = (BARS_WIDTH, BARS_HEIGHT)
        self.body.grid_propagate(False)  # the panel keeps the room of its largest hint: nothing below it moves
        self.action = ttk.Label(self.body, text="", font=panel_font(self, "BJHintAction"))
        self.reason = ttk.Label(self.body, text="", wraplength=WRAP, justify="left")
        self.bust = ttk.Label(self.body, text="")
        self.bars = tk.Canvas(self.body, width=BARS_WIDTH, height=BARS_HEIGHT, background="#fafafa",
                              highlightthickness=0)
        self.evs = ttk.Label(self.body, text="", font=panel_font(self, "BJMono"), justify="left")
        for row, part in enumerate((self.action, self.reason, self.bust, self.bars, self.evs)):
            part.grid(row=row, column=0, sticky="w", pady=(4, 2) if part is self.bars else 0)
        self.room = 0
        self.scale(1.0)
        self.show_message("No decision yet.")

    def scale(self, factor: float) -> None:
        """Bars ``factor`` times their size, and room kept for the largest hint at the fonts' sizes now."""
        self.bars_size = (round(BARS_WIDTH * factor), round(BARS_HEIGHT * factor))
        self.bars.configure(width=self.bars_size[0], height=self.bars_size[1])
        text = tkfont.nametofont(str(self.reason.cget("font") or "TkDefaultFont"), root=self)
        lines = text.metrics("linespace")
        self.room = (panel_font(self, "BJHintAction").metrics("linespace") + lines * (self.REASON_LINES + 1)
                     + self.bars_size[1] + 6 + panel_font(self, "BJMono").metrics("linespace") * 6 + 8)
        self.body.configure(width=round(WRAP * factor) + 8, height=self.room)

    def _keep_room(self) -> None:
        """Grow the kept room if this hint needs more (it never shrinks: the panels below stay put)."""
        parts = (self.action, self.reason, self.bust, self.bars, self.evs)
        needed = sum(p.winfo_reqheight() + (6 if p is self.bars else 0) for p in parts if p.winfo_manager())
        if needed > self.room:
            self.room = needed
            self.body.configure(height=self.room)

    def show_message(self, text: str) -> None:
        """Clear the panel and show a message instead (waiting, what the hint will show, hints unavailable); the
        empty parts take no room."""
        self.reason.configure(text=text)
        for label in (self.action, self.bust, self.evs):
            label.configure(text="")
        self.bars.delete("all")
        for part in (self.action, self.bust, self.bars, self.evs):
            part.grid_remove()
        self._keep_room()

    @property
    def text(self) -> str:
        """Everything the panel's body shows now, line by line (for tests and for reading it out)."""
        parts = [self.action, self.reason, self.bust, self.evs]
        return "\n".join(str(p.cget("text")) for p in parts if p.winfo_manager() and str(p.cget("text")))

    def show(self, advice: Advice) -> None:
        """Show a computed hint (the bar chart only when it has the dealer's totals, the bust line only
        when hitting is a choice)."""
        for part in (self.action, self.evs):
            part.grid()
        self.action.configure(text=f"→ {advice.action.value.upper()}")
        self.reason.configure(text=advice.reason)
        self.bust.configure(text="" if advice.bust_chance is None else
                            f"Bust chance if you hit: {advice.bust_chance:.0%}")
        _show_if(self.bust, advice.bust_chance is not None)
        self._draw_bars(advice.dealer)
        _show_if(self.bars, self.bars.find_all())  # no outcomes to show (an insurance decision): no empty white box
        lines = [f"{a.value:<10}{v:+.3f}" + ("  ◀" if a is advice.action else "")
                 for a, v in ((a, advice.evs[a]) for a in legal_order(advice.evs))]
        self.evs.configure(text="EV per bet:\n" + "\n".join(lines))
        self._keep_room()

    def _draw_bars(self, dealer: dict[str, float]) -> None:
        canvas = self.bars
        canvas.delete("all")
        names = [n for n in OUTCOMES if n in dealer] + [n for n in dealer if n not in OUTCOMES]
        if not names:
            return
        width, height = self.bars_size
        small = (FONT_FAMILY, round(7 * width / BARS_WIDTH))  # grows with the panel
        slot = width / len(names)
        top = max(max(dealer.values()), 0.01)
        for i, name in enumerate(names):
            p = dealer[name]
            h = (height - 30) * p / top
            x = i * slot + 4
            color = "#c62828" if name == "bust" else ("#6a1b9a" if name == "blackjack" else "#2e7d32")
            canvas.create_rectangle(x, height - 16 - h, x + slot - 8, height - 16, fill=color, outline="",
                                    tags=("bar", f"bar_{name}"))
            canvas.create_text(x + (slot - 8) / 2, height - 16 - h - 2, text=f"{p:.0%}", anchor="s",
                               font=small, tags=("bar_text",))
            canvas.create_text(x + (slot - 8) / 2, height - 2, text="BJ" if name == "blackjack" else name,
                               anchor="s", font=small, tags=("bar_label",))


class CountPanel(Toggle):
    """The count in the chosen system: running count, cards left; true count and bet suggestion; insurance.

    *Cards left* is the shoe's count, as on the table's shoe; while the hole card is face down
    it reads ``"308 + hole card"`` (the true count divides by the cards unseen).
    """

    def __init__(self, master: tk.Misc, shown: bool = True) -> None:
        super().__init__(master, "Count", shown)
        self.label = ttk.Label(self.body, text="", justify="left", font=panel_font(self, "BJMono"))
        self.label.grid(row=0, column=0, sticky="w")

    def show(self, info: CountInfo) -> None:
        """Show a count."""
        lines = [f"system          {info.system}", f"running count   {info.running:+d}"]
        if info.true is not None:
            lines.append(f"true count      {info.true:+.1f}")
        hidden = info.unseen - info.in_shoe  # the face-down hole card: unseen, but not in the shoe
        extra = "" if not hidden else " + hole card" if hidden == 1 else f" + {hidden} unseen"
        lines.append(f"cards left      {info.in_shoe}{extra}")  # the number on the table's shoe
        if info.suggestion is not None:
            lines.append(f"suggested bet   {format_money(info.suggestion)}")
        if not info.balanced:
            lines.append("unbalanced: no true count\nor bet suggestion")
            if info.key_count is not None:
                lines.append(f"key count       {info.key_count:+d}")
        if info.insurance is not None:
            lines.append(f"insurance       {'take it' if info.insurance else 'decline'}")
            if info.insurance_index is not None:
                lines.append(f"  (index: {info.insurance_index})")
        self.label.configure(text="\n".join(lines))

    def show_message(self, text: str) -> None:
        """Show one line instead of the count (e.g. counting is not available)."""
        self.label.configure(text=text)

    @property
    def text(self) -> str:
        """What the panel shows now."""
        return str(self.label.cget("text"))


class CoachPanel(ttk.LabelFrame):
    """Coach mode and drills: the verdict on the last decision, the session score, the drill chooser; the verdict
    and score lines take no room until there is something to say."""

    #: The verdict's colours: a right decision, a departure from basic strategy.
    RIGHT, WRONG = RIGHT_TEXT, ERROR_TEXT

    def __init__(self, master: tk.Misc, drills: Sequence[str]) -> None:
        super().__init__(master, text="Coach", padding=PANEL_PADDING)
        self.enabled = tk.BooleanVar(self, value=False)
        self.check = ttk.Checkbutton(self, text="coach mode", variable=self.enabled)
        self.check.grid(row=0, column=0, sticky="w", padx=(0, 12))
        ttk.Label(self, text="drill:").grid(row=0, column=1, sticky="e", padx=(0, 4))
        self.drill = tk.StringVar(self, value="off")
        self.drill_box = ttk.Combobox(self, textvariable=self.drill, values=["off", *drills], width=9,
                                      state="readonly")
        self.drill_box.grid(row=0, column=2, sticky="w")
        self.verdict = ttk.Label(self, text="", wraplength=WRAP, justify="left")
        self.verdict.grid(row=1, column=0, columnspan=3, sticky="w")
        self.score = ttk.Label(self, text="", wraplength=WRAP, justify="left")
        self.score.grid(row=2, column=0, columnspan=3, sticky="w")
        self.show_verdict("")
        self.show_score("")

    def show_verdict(self, text: str, color: str | None = None) -> None:
        """Show the verdict on the last decision in ``color`` (empty: no line)."""
        self.verdict.configure(text=text)
        if color:
            self.verdict.configure(foreground=color)
        _show_if(self.verdict, text)

    def show_score(self, text: str) -> None:
        """Show the session score (empty: no line)."""
        self.score.configure(text=text)
        _show_if(self.score, text)


@dataclass(frozen=True)
class LedgerRow:
    """One line of the ledger: a player's round.

    Attributes:
        round: the round number, from 1.
        name: the player.
        results: the hands' result words, e.g. ``"WIN, BUST"``.
        net: the round's gain, credits (insurance included).
        bankroll: the bankroll after the round, credits.
    """

    round: int
    name: str
    results: str
    net: Money
    bankroll: Money


PLAYER_COLORS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037")


class SessionWindow(tk.Toplevel):
    """The session: each player's bankroll over the rounds (a line chart) and the ledger; Escape or Ctrl+W closes it."""

    def __init__(self, master: tk.Misc) -> None:
        super().__init__(master)
        self.title("Session chart and ledger")
        bind_close(self, self.destroy)
        self.geometry("560x520")
        self.chart = tk.Canvas(self, width=540, height=240, background="white", highlightthickness=0)
        self.chart.pack(fill="both", expand=True, padx=8, pady=8)
        columns = ("round", "player", "results", "net", "bankroll")
        self.ledger = ttk.Treeview(self, columns=columns, show="headings", height=8)
        for column, width in zip(columns, (60, 110, 170, 70, 90)):
            self.ledger.heading(column, text=column.capitalize())
            self.ledger.column(column, width=width, anchor="center")
        self.ledger.pack(fill="both", expand=True, padx=8, pady=(0, 8))
        self._series: dict[str, list[Money]] = {}
        self.chart.bind("<Configure>", lambda _e: self.draw_chart(self._series))

    def update_session(self, series: dict[str, list[Money]], rows: Sequence[LedgerRow]) -> None:
        """Show bankrolls by round (``name -> [starting, after round 1, ...]``) and the ledger rows."""
        self.draw_chart(series)
        self.ledger.delete(*self.ledger.get_children())
        for row in rows:
            self.ledger.insert("", "end", values=(row.round, row.name, row.results, signed_money(row.net),
                                                  format_money(row.bankroll)))

    def draw_chart(self, series: dict[str, list[Money]]) -> None:
        """Draw the bankroll lines with axes and a legend."""
        self._series = series
        canvas = self.chart
        canvas.delete("all")
        width, height = max(canvas.winfo_width(), 300), max(canvas.winfo_height(), 160)
        left, right, top, bottom = 56, width - 12, 22, height - 28
        values = [v for line in series.values() for v in line]
        if not values:
            canvas.create_text(width / 2, height / 2, text="No rounds yet.", tags=("empty",))
            return
        low, high = min(values), max(values)
        if low == high:
            low, high = low - 1, high + 1
        rounds = max(len(line) for line in series.values()) - 1

        def point(i: int, v: Money) -> tuple[float, float]:
            x = left + (right - left) * (i / max(1, rounds))
            y = bottom - (bottom - top) * float((v - low) / (high - low))
            return x, y

        canvas.create_line([left, top, left, bottom, right, bottom], fill="#444444")
        for v in (low, Fraction(low + high) / 2, high):
            x, y = point(0, v)
            canvas.create_text(left - 4, y, text=format_money(round(v)), anchor="e", font=(FONT_FAMILY, 8))
            canvas.create_line(left, y, right, y, fill="#e0e0e0", dash=(2, 2))
        canvas.create_text((left + right) / 2, height - 8, text=f"round (0 .. {rounds})", font=(FONT_FAMILY, 8))
        for k, (name, line) in enumerate(series.items()):
            color = PLAYER_COLORS[k % len(PLAYER_COLORS)]
            points = [c for i, v in enumerate(line) for c in point(i, v)]
            if len(points) >= 4:
                canvas.create_line(*points, fill=color, width=2, tags=("line", f"line_{k}"))
            for i, v in enumerate(line):
                x, y = point(i, v)
                canvas.create_oval(x - 2, y - 2, x + 2, y + 2, fill=color, outline="", tags=("dot",))
            canvas.create_text(left + 8 + k * 110, 10, text=f"— {name}", fill=color, anchor="w",
                               font=(FONT_FAMILY, 9, "bold"), tags=("legend",))


class ChartWindow(tk.Toplevel):
    """The basic-strategy chart for the current rules, with the deciding hand's cell highlighted.

    Hard totals fill the left column, soft totals and pairs the right one, so the whole
    chart fits a 768-pixel-high screen. Escape or Ctrl+W closes it, as the close button does.

    Args:
        master: the main window.
        title: the window title.
        on_close: what closing does (default: destroy the window).
    """

    COLORS = {"H": "#ffffff", "S": "#ffeb3b", "D": "#81c784", "P": "#64b5f6", "R": "#e0e0e0"}
    OUTLINE, HIGHLIGHT = ("#9e9e9e", 1), ("#d50000", 3)
    #: Cell width, row height, the labels' room left of the cells, the header's room, the gap between columns (pixels).
    CELL, ROW, LABELS, TOP, GAP = 38, 19, 70, 30, 24
    #: One column of the chart: the labels and a cell per upcard (pixels).
    COLUMN = LABELS + len(CHART_UPCARDS) * CELL
    #: The canvas's width: two columns, the gap between them and a margin on the right (pixels).
    WIDTH = 2 * COLUMN + GAP + 8

    def __init__(self, master: tk.Misc, title: str, on_close: Callable[[], None] | None = None) -> None:
        super().__init__(master)
        self.title(title)
        self.canvas = tk.Canvas(self, width=self.WIDTH, height=440, background="white", highlightthickness=0)
        self.canvas.pack(fill="both", expand=True)
        bind_close(self, on_close if on_close is not None else self.destroy)
        self.rows: list[tuple[str, str, tuple[str, ...]]] = []
        self._drawn: list[tuple[str, str, tuple[str, ...]]] | None = None  # the rows on the canvas, None: none
        self._cell: tuple[str, str, int] | None = None  # the highlighted cell
        self.canvas.create_text(235, 40, text="Working out the chart…", tags=("waiting",))

    def show(self, rows: list[tuple[str, str, tuple[str, ...]]], cell: tuple[str, str, int] | None) -> None:
        """Show the chart rows and highlight ``cell`` = ``(section, label, column)`` (None: no cell); the grid is
        drawn again only when ``rows`` differ from those on the canvas, so a refresh only moves the highlight."""
        self.rows = rows
        if rows != self._drawn:
            self._draw(rows)
        self._highlight(cell)

    def _draw(self, rows: list[tuple[str, str, tuple[str, ...]]]) -> None:
        """Draw the grid: the hard section in the left column, the others below each other in the right one."""
        canvas = self.canvas
        canvas.delete("all")
        cw, rh, top = self.CELL, self.ROW, self.TOP
        outline, width = self.OUTLINE
        bottom = top
        x0, y = self.LABELS, top
        section = ""
        for name, label, codes in rows:
            if name != section:
                if section == "hard":  # the first section has the left column to itself
                    x0, y = self.COLUMN + self.GAP + self.LABELS, top
                section = name
                if y == top:
                    for c, up in enumerate(CHART_UPCARDS):
                        canvas.create_text(x0 + c * cw + cw / 2, top - 10, text=up, font=(FONT_FAMILY, 9, "bold"))
                canvas.create_text(x0 - self.LABELS + 6, y + rh / 2, text=name.capitalize(), anchor="w",
                                   font=(FONT_FAMILY, 9, "italic"))
                y += rh
            canvas.create_text(x0 - 8, y + rh / 2, text=label, anchor="e", font=(FONT_FAMILY, 9))
            for c, code in enumerate(codes):
                canvas.create_rectangle(x0 + c * cw, y, x0 + (c + 1) * cw, y + rh,
                                        fill=self.COLORS.get(code[:1], "#ffffff"), outline=outline, width=width,
                                        tags=("cell", f"cell_{name}_{label}_{c}"))
                canvas.create_text(x0 + c * cw + cw / 2, y + rh / 2, text=code, font=(FONT_FAMILY, 9), tags=("code",))
            y += rh
            bottom = max(bottom, y)
        legend = "H hit · S stand · D double (h/s: else hit/stand) · P split · R surrender"
        canvas.create_text(6, bottom + 14, text=legend, anchor="w", font=(FONT_FAMILY, 8), tags=("legend",))
        canvas.configure(height=bottom + 30, width=self.WIDTH)
        self._drawn = rows
        self._cell = None

    def _highlight(self, cell: tuple[str, str, int] | None) -> None:
        """Move the red outline to ``cell``'s rectangle (none for None or a cell the chart lacks)."""
        if cell == self._cell:
            return
        canvas = self.canvas
        outline, width = self.OUTLINE
        canvas.itemconfigure("highlight", outline=outline, width=width)
        canvas.dtag("highlight", "highlight")
        self._cell = cell
        if cell is None:
            return
        found = canvas.find_withtag(f"cell_{cell[0]}_{cell[1]}_{cell[2]}")
        if not found:
            return
        outline, width = self.HIGHLIGHT
        canvas.itemconfigure(found[0], outline=outline, width=width)
        canvas.addtag_withtag("highlight", found[0])
        canvas.tag_raise(found[0])  # above its neighbours, whose outlines would cover the red one
        canvas.tag_raise("code")

    def show_message(self, text: str) -> None:
        """Show one line instead of the chart (e.g. the hints library is not available)."""
        self.canvas.delete("all")
        self._drawn, self._cell = None, None
        self.canvas.create_text(235, 40, text=text, width=440, tags=("message",))
