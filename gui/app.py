"""The main window: table, action bar, betting rail, side panels, menus; it drives the engine.

The window holds no rule. A button press calls :meth:`Round.apply` (or ``deal``,
``place_bet``) and shows the :class:`~blackjack.BlackjackError` message on one line
if the engine refuses. While insurance is offered an amount box next to the
Insurance button holds the stake (the largest allowed to start with); the engine
checks it. The table shows each seat's insurance stake beside its bet, and once the
engine's ``InsuranceSettled`` event has been shown, its net. The engine's events
arrive through a listener, wait in a queue, and are
drained with ``after`` (short card-deal animations, never ``time.sleep``); with
animations off the queue drains at once (tests use that). Hints
and coach verdicts are computed in a worker thread (:mod:`gui.jobs`). The count panel
counts in the system chosen under *View ▸ Counting system* (``App.counting``).

Construct with ``modal=False`` and a :class:`gui.testing.Mbox` for tests (IDLE's
``_utest``): dialogs then return at once and message boxes are recorded.
"""

from __future__ import annotations

import logging
import math
import random
import tkinter as tk
import tkinter.font as tkfont
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction
from tkinter import messagebox, ttk
from types import TracebackType
from typing import Any, Protocol

from blackjack import (Action, Blackjack, BlackjackError, Card, CardDealt, Event, HandSettled, HoleCardRevealed,
                       InsuranceSettled, Money, Phase, Player, Rules, RoundSettled, TableView, format_money,
                       parse_bet)
from blackjack.errors import unwritten
from blackjack.money import parse_amount
from blackjack.hints import system

from . import advice, drills
from .coach import Score
from .dialogs import (ABOUT, HELP_KEYS, HELP_RULES, NewGameDialog, NewGameResult, RulesDialog, StackDialog,
                      TextWindow)
from .jobs import Jobs
from .logic import (BUTTONS, CHIP_COLORS, CHIP_VALUES, ERROR_TEXT, FOCUS_COLOR, MIN_WINDOW, affordable_chips,
                    button_states, dimmed, insurance_label, insurance_limit, mnemonics, pending_from, preset_title,
                    status_text, step_stake, window_size)
from .panels import ChartWindow, CoachPanel, CountPanel, HintPanel, LedgerRow, SessionWindow, SidePanel
from .table import TableCanvas

__all__ = ["App", "MessageBoxes"]

log = logging.getLogger(__name__)

#: Milliseconds each queued event takes to show when animations are on.
DELAYS_MS = {CardDealt: 170, HoleCardRevealed: 320, InsuranceSettled: 220, HandSettled: 220}
SLIDE_STEPS = 6
SLIDE_MS = 16
#: The face of the button that has the keyboard focus (with a ring of :data:`~gui.logic.FOCUS_COLOR`).
FOCUS_FACE = "#c6dbf5"
#: Event state bits of Control and Alt (Mod1): a letter pressed with them is a menu key, not a shortcut.
MODIFIERS = 0x4 | 0x8
#: Pixels a chip takes on the betting rail, and its radius (as ``_draw_chips`` draws them).
CHIP_STEP, CHIP_RADIUS = 46, 20


class MessageBoxes(Protocol):
    """What the window needs of :mod:`tkinter.messagebox` (a :class:`gui.testing.Mbox` in tests)."""

    def showinfo(self, title: str, message: str, **options: Any) -> str:
        """Show an information box; return the button pressed (``"ok"``)."""
        ...

    def showerror(self, title: str, message: str, **options: Any) -> str:
        """Show an error box; return the button pressed (``"ok"``)."""
        ...


class App:
    """The blackjack table window.

    Args:
        root: the Tk root (or any toplevel) to build in.
        names: the players, one to three.
        rules: the table rules (default: the ``vegas`` preset).
        seed: seeds the shoe and the drills, so a session replays.
        bankroll: each player's starting credits (default: the rules' ``starting_bankroll``).
        stack: card codes to stack on the shoe before the first deal.
        animations: animate the deal; False shows every change at once.
        hints: show the hint panel (it can be shown and hidden later).
        count: show the count panel.
        counting: the count panel's counting system, a key of ``blackjack/hints/counting.toml``
            (``"hi_lo"``, ``"ko"``, ``"hi_opt_1"``, ``"omega_2"``, ``"zen"``); *View ▸ Counting
            system* changes it.
        modal: dialogs grab input and wait (False for tests).
        messages: the message boxes (default :mod:`tkinter.messagebox`).

    Raises:
        BlackjackError: bad rules, stack codes or counting system (the command line shows the message).
        ValueError: no players, too many for the rules, or duplicate names.
    """

    def __init__(self, root: tk.Tk, names: Sequence[str] = ("Player",), rules: Rules | None = None,
                 *, seed: int | None = None, bankroll: Fraction | int | None = None, stack: Sequence[str] = (),
                 animations: bool = True, hints: bool = True, count: bool = True, counting: str = "hi_lo",
                 modal: bool = True, messages: MessageBoxes | None = None) -> None:
        self.root = root
        self.modal = modal
        self.messages: MessageBoxes = messages if messages is not None else messagebox  # type: ignore[assignment]
        self.errors: list[str] = []
        self.rng = random.Random(seed)
        self.events: deque[Event] = deque()
        self._dealer_said: RoundSettled | None = None  # the last RoundSettled event (dealer_said())
        self.jobs = Jobs(root)
        self.score = Score()
        self.ledger_rows: list[LedgerRow] = []
        self.series: dict[str, list[Money]] = {}
        self.last_bets: dict[int, Money] = {}
        self.rounds_before = 0  # rounds of this session played under earlier rules (the ledger numbers on)
        self.betting_seat = 0
        self._drain_after: str | None = None
        self._decisions = 0
        self._insurance_offer: tuple[object, tuple[int, int] | None] | None = None  # (round, turn) the box is for
        self._hint_token: object = None
        self.chart_window: ChartWindow | None = None
        self.chart_rows: list[tuple[str, str, tuple[str, ...]]] | None = None
        self.session_window: SessionWindow | None = None
        self.animations = tk.BooleanVar(root, value=animations)
        self.counting = tk.StringVar(root, value=system(counting).key)
        root.report_callback_exception = self._report_exception
        root.title("Blackjack Kit")
        root.protocol("WM_DELETE_WINDOW", self.close)
        self.create_widgets()
        self.hint_panel.set_shown(hints)
        self.count_panel.set_shown(count)
        self.game: Blackjack = self._make_game(names, rules or Rules.preset("vegas"), bankroll)
        if stack:
            self.game.shoe.stack(list(stack))
        self.game.new_round()
        self.refresh()

    # ================================================================== construction
    def create_widgets(self) -> None:
        """Build the menus, the table, the side panels, the action bar, the betting rail and the status line."""
        root = self.root
        width, height = window_size(root.winfo_screenwidth(), root.winfo_screenheight())
        root.geometry(f"{width}x{height}")
        root.minsize(min(MIN_WINDOW[0], width), min(MIN_WINDOW[1], height))
        root.columnconfigure(0, weight=1)
        root.rowconfigure(0, weight=1)
        self._style()
        self.table = TableCanvas(root, on_seat_click=self.choose_seat, width=700, height=520)
        self.table.grid(row=0, column=0, sticky="nsew")
        # Created in the order Tab visits them: the action bar, the betting rail, then the side panels.
        self._create_bar()
        self._create_rail()
        self.side = SidePanel(root)
        self.side.grid(row=0, column=1, sticky="ns")
        side = self.side.inner
        self.hint_panel = HintPanel(side)
        self.hint_panel.grid(row=0, column=0, sticky="we", pady=(0, 3))
        self.count_panel = CountPanel(side)
        self.count_panel.grid(row=1, column=0, sticky="we", pady=(0, 3))
        self.coach_panel = CoachPanel(side, list(drills.DRILLS))
        self.coach_panel.grid(row=2, column=0, sticky="we")
        for toggle in (self.hint_panel.shown, self.count_panel.shown):
            toggle.trace_add("write", lambda *_a: self.root.after_idle(self.refresh))
        self.coach_panel.drill.trace_add("write", lambda *_a: self._drill_changed())
        self.side.adopt()

        self.status = ttk.Label(root, text="", anchor="w", padding=(8, 3), relief="sunken")
        self.status.grid(row=3, column=0, columnspan=2, sticky="we")
        self._create_menus()
        self._bind_keys()

    def _style(self) -> None:
        """A focus ring that shows: the focused button gets a blue ring and a light blue face, a check box a ring."""
        style = ttk.Style(self.root)
        style.configure("TButton", focuscolor=FOCUS_COLOR, focusthickness=2)
        for name in ("TCheckbutton", "TRadiobutton"):
            style.configure(name, focuscolor=FOCUS_COLOR)
        faces = _state_map(style, "TButton", "background")
        style.map("TButton", background=[("focus !disabled !pressed", FOCUS_FACE), *faces])

    def _create_bar(self) -> None:
        """The action bar: one button per action, Deal and New round, and the insurance stake's fixed place.

        Each button is as wide as its longest text needs (Insurance: "Even money"), measured in
        the button's font, so no text is cut and no button moves when a label changes. The insurance box appears in a slot of its
        own size right of the Insurance button, kept empty when there is no offer, so nothing moves.
        """
        root = self.root
        bar = ttk.Frame(root, padding=(6, 2))
        bar.grid(row=1, column=0, columnspan=2, sticky="we")
        font = tkfont.nametofont("TkDefaultFont", root=root)
        digit = max(1, font.measure("0"))  # ttk counts a width in characters of this size
        self.buttons: dict[str, ttk.Button] = {}
        self.insurance_amount = tk.StringVar(root)
        for spec in BUTTONS:
            labels = [spec.label, "Even money"] if spec.action is Action.INSURANCE else [spec.label]
            chars = max(6, math.ceil(max(font.measure(label) for label in labels) / digit))
            button = ttk.Button(bar, text=spec.label, underline=spec.underline, width=chars,
                                command=self._command(spec.name, spec.action))
            button.pack(side="left", padx=2)
            self.buttons[spec.name] = button
            if spec.action is Action.INSURANCE:
                # The insurance stake: shown in its slot only while insurance is offered.
                self.insurance_slot = ttk.Frame(bar)
                self.insurance_box = ttk.Spinbox(self.insurance_slot, textvariable=self.insurance_amount, width=7)
                self.insurance_slot.configure(width=self.insurance_box.winfo_reqwidth(),
                                              height=button.winfo_reqheight())
                self.insurance_slot.pack_propagate(False)
                self.insurance_slot.pack(side="left", padx=(0, 2))
        for sequence in ("<Return>", "<KP_Enter>"):
            self.insurance_box.bind(sequence, self._insurance_return)
        self.insurance_box.bind("<<Increment>>", lambda _e: self._step_insurance(up=True))
        self.insurance_box.bind("<<Decrement>>", lambda _e: self._step_insurance(up=False))
        self.bar = bar

    def _create_rail(self) -> None:
        """The betting rail: whose bet, the chips (each a Tab stop), the bet box and its buttons, and under them
        a line for a refused bet's reason (always there, so a message moves nothing)."""
        root = self.root
        rail = ttk.Frame(root, padding=(6, 2))
        rail.grid(row=2, column=0, columnspan=2, sticky="we")
        row = ttk.Frame(rail)
        row.pack(side="top", fill="x")
        ttk.Label(row, text="Bet for").pack(side="left")
        self.seat_choice = tk.StringVar(root)
        self.seat_box = ttk.Combobox(row, textvariable=self.seat_choice, state="readonly", width=10)
        self.seat_box.pack(side="left", padx=4)
        self.seat_box.bind("<<ComboboxSelected>>", lambda _e: self.choose_seat(self.seat_box.current()))
        self.chips = tk.Canvas(row, width=len(CHIP_VALUES) * CHIP_STEP + 4, height=46, highlightthickness=0,
                               takefocus=0)
        self.chips.pack(side="left", padx=6)
        self.chip_cursor = 0  # the chip the keyboard is on, while the chips have the focus
        self._backward = False  # the last Tab went backward (Shift+Tab): entering the chips starts at the last
        self._bind_chip_keys()
        self.bet_entry = tk.StringVar(root)
        self.bet_box = ttk.Entry(row, textvariable=self.bet_entry, width=6)
        self.bet_box.pack(side="left")
        for sequence in ("<Return>", "<KP_Enter>"):
            self.bet_box.bind(sequence, self._bet_return)
        self.bet_button = ttk.Button(row, text="Bet", command=self.bet_from_entry, width=5)
        self.bet_button.pack(side="left", padx=2)
        self.clear_button = ttk.Button(row, text="Clear bet", command=self.clear_bet, width=9)
        self.clear_button.pack(side="left", padx=2)
        self.same_button = ttk.Button(row, text="Same bet again", command=self.same_bet, width=14)
        self.same_button.pack(side="left", padx=2)
        self.bet_error = ttk.Label(rail, text="", foreground=ERROR_TEXT, anchor="w")
        self.bet_error.pack(side="top", fill="x")
        for box in (self.bet_box, self.insurance_box):
            box.bind("<FocusIn>", lambda _e: self.root.after_idle(self._update_status), add="+")
            box.bind("<FocusOut>", lambda _e: self.root.after_idle(self._update_status), add="+")

    def _create_menus(self) -> None:
        root = self.root
        menubar = tk.Menu(root)
        game = tk.Menu(menubar, tearoff=False)
        game.add_command(label="New game…", command=self.open_new_game)
        game.add_command(label="Stack the shoe…", command=self.open_stack)
        game.add_separator()
        game.add_command(label="Quit", command=self.close)
        menubar.add_cascade(label="Game", menu=game)
        rules = tk.Menu(menubar, tearoff=False)
        self.preset = tk.StringVar(root, value="vegas")
        for name in Rules.preset_names():  # the presets' human names, from their descriptions
            rules.add_radiobutton(label=preset_title(Rules.preset(name)), value=name, variable=self.preset,
                                  command=self._preset_command(name))
        rules.add_separator()
        rules.add_command(label="Switches…", command=self.open_rules)
        menubar.add_cascade(label="Rules", menu=rules)
        view = tk.Menu(menubar, tearoff=False)
        view.add_checkbutton(label="Hints", variable=self.hint_panel.shown, command=self.hint_panel._apply)
        view.add_checkbutton(label="Count", variable=self.count_panel.shown, command=self.count_panel._apply)
        view.add_checkbutton(label="Animations", variable=self.animations)
        self.counting_menu = tk.Menu(view, tearoff=False)
        for key, name in advice.counting_systems().items():
            self.counting_menu.add_radiobutton(label=name, value=key, variable=self.counting,
                                               command=self._counting_command(key))
        view.add_cascade(label="Counting system", menu=self.counting_menu)
        view.add_separator()
        view.add_command(label="Strategy chart", command=self.open_chart)
        view.add_command(label="Session chart and ledger", command=self.open_session)
        menubar.add_cascade(label="View", menu=view)
        practice = tk.Menu(menubar, tearoff=False)
        practice.add_checkbutton(label="Coach mode", variable=self.coach_panel.enabled)
        drill = tk.Menu(practice, tearoff=False)
        for name in ("off", *drills.DRILLS):
            drill.add_radiobutton(label=name, value=name, variable=self.coach_panel.drill)
        practice.add_cascade(label="Drill", menu=drill)
        practice.add_command(label="Reset score", command=self.reset_score)
        menubar.add_cascade(label="Practice", menu=practice)
        helpmenu = tk.Menu(menubar, tearoff=False)
        helpmenu.add_command(label="Rules of blackjack", command=lambda: self.show_text("Rules of blackjack",
                                                                                        HELP_RULES))
        helpmenu.add_command(label="Keyboard shortcuts", command=lambda: self.show_text("Keyboard shortcuts",
                                                                                        HELP_KEYS))
        helpmenu.add_command(label="About", command=lambda: self.messages.showinfo("About Blackjack Kit", ABOUT))
        menubar.add_cascade(label="Help", menu=helpmenu)
        for menu in (menubar, game, rules, view, self.counting_menu, practice, drill, helpmenu):
            _underline(menu)
        root.configure(menu=menubar)
        self.menubar = menubar

    def _bind_keys(self) -> None:
        """The shortcuts: a letter presses its button wherever the focus is; Enter does the status line's
        default (Deal or New round); Space presses the focused button, or does that default when no
        button has the focus. Alt plus a letter is left to the menus."""
        for spec in BUTTONS:
            for key in spec.keys:
                sequences = [f"<KeyPress-{key}>"]
                if len(key) == 1:
                    sequences.append(f"<KeyPress-{key.upper()}>")
                for sequence in sequences:
                    self.root.bind(sequence, self._on_key)
                    if len(key) == 1:  # in an amount box a shortcut letter presses its button instead of typing
                        for box in (self.bet_box, self.insurance_box):
                            box.bind(sequence, self._box_letter)
        self.root.bind("<KeyPress-KP_Enter>", self._on_key)
        self.root.bind("<F1>", lambda _e: self.show_text("Keyboard shortcuts", HELP_KEYS))
        self.root.bind("<Tab>", lambda _e: self._tabbing(backward=False))
        self.root.bind("<<PrevWindow>>", lambda _e: self._tabbing(backward=True))

    def _tabbing(self, backward: bool) -> None:
        self._backward = backward  # read by the chips when Tab brings them the focus

    def _on_key(self, event: tk.Event[Any]) -> str | None:
        """A shortcut key pressed anywhere in the window (after the focused widget's own bindings)."""
        if int(event.state) & MODIFIERS:
            return None  # Alt+letter opens a menu; Control is not ours
        if _takes_text(event.widget):
            return None  # typed into the box (the boxes' own bindings handle Enter and the letters)
        key = event.keysym if len(event.keysym) > 1 else event.keysym.lower()
        if key == "KP_Enter":
            key = "Return"
        if key == "space" and _presses(event.widget):
            return None  # Space pressed the focused button or check box: nothing more
        for spec in BUTTONS:
            if key in spec.keys and self.buttons[spec.name].instate(["!disabled"]):
                self.buttons[spec.name].invoke()
                return "break"
        return None

    def _box_letter(self, event: tk.Event[Any]) -> str | None:
        """A shortcut letter typed in the bet or insurance box: it presses its button if that is enabled
        (I takes insurance for the typed stake), else it is typed."""
        if int(event.state) & MODIFIERS:
            return None
        key = event.keysym.lower()
        for spec in BUTTONS:
            if key in spec.keys and self.buttons[spec.name].instate(["!disabled"]):
                self.buttons[spec.name].invoke()
                return "break"
        return None

    def _bind_chip_keys(self) -> None:
        """The chips take the focus one by one: Tab and Shift+Tab (or Left and Right) move between them,
        Space adds the focused chip, Delete, BackSpace or minus takes one back, Enter deals."""
        chips = self.chips
        chips.bind("<FocusIn>", lambda _e: self._chips_focused())
        chips.bind("<FocusOut>", lambda _e: self._draw_chip_focus())
        chips.bind("<Tab>", lambda _e: self._move_chip(1, wrap=False))
        chips.bind("<<PrevWindow>>", lambda _e: self._move_chip(-1, wrap=False))
        chips.bind("<Right>", lambda _e: self._move_chip(1, wrap=True))
        chips.bind("<Left>", lambda _e: self._move_chip(-1, wrap=True))
        chips.bind("<space>", lambda _e: self._press_chip(remove=False))
        for sequence in ("<Delete>", "<BackSpace>", "<minus>", "<KP_Subtract>"):
            chips.bind(sequence, lambda _e: self._press_chip(remove=True))

    def _chips_focused(self) -> None:
        self.chip_cursor = len(CHIP_VALUES) - 1 if self._backward else 0
        self._backward = False
        self._draw_chip_focus()

    def _move_chip(self, step: int, wrap: bool) -> str | None:
        """Move the keyboard to the next (``step`` 1) or previous chip; at either end Tab goes on to the next widget."""
        target = self.chip_cursor + step
        if not 0 <= target < len(CHIP_VALUES):
            if not wrap:
                return None  # Tab leaves the chips: the usual traversal takes over
            target %= len(CHIP_VALUES)
        self.chip_cursor = target
        self._draw_chip_focus()
        return "break"

    def _press_chip(self, remove: bool) -> str:
        self.add_chip(CHIP_VALUES[self.chip_cursor], remove=remove)
        return "break"

    def _draw_chip_focus(self) -> None:
        """The focus ring round the chip the keyboard is on (none when the chips do not have the focus)."""
        self.chips.delete("chip_focus")
        if str(self.root.tk.call("focus")) != str(self.chips):
            return
        x = CHIP_RADIUS + 4 + self.chip_cursor * CHIP_STEP
        self.chips.create_rectangle(x - CHIP_RADIUS - 2, 1, x + CHIP_RADIUS + 2, 45, outline=FOCUS_COLOR, width=2,
                                    tags=("chip_focus",))

    def _command(self, name: str, action: Action | None) -> Any:
        if action is Action.INSURANCE:
            return self.take_insurance
        if action is not None:
            return lambda: self.act(action)
        return self.deal if name == "deal" else self.new_round

    def _make_game(self, names: Sequence[str | Player], rules: Rules, bankroll: Fraction | int | None) -> Blackjack:
        players: list[str | Player] = [
            name if isinstance(name, Player) else Player(name, bankroll if bankroll is not None
                                                         else rules.starting_bankroll) for name in names]
        game = Blackjack(players, rules, rng=random.Random(self.rng.random()), listeners=[self._on_event])
        self.series = {p.name: [p.bankroll] for p in game.players}
        self.ledger_rows = []
        self.last_bets = {}
        self.rounds_before = 0
        self.betting_seat = 0
        self.seat_box.configure(values=[p.name for p in game.players])
        self.seat_box.current(0)
        if rules.name in Rules.preset_names():
            self.preset.set(rules.name)
        return game

    # ================================================================== engine calls
    @property
    def round_view(self) -> TableView | None:
        """The view of the open round, or None."""
        return self.game.round.view() if self.game.round is not None else None

    def act(self, action: Action, amount: str | None = None) -> None:
        """Apply a player's decision; show the engine's message if it is not allowed.

        Args:
            action: the decision.
            amount: only for INSURANCE: the stake as typed ("2", "2.5"), read as every typed amount is
                (:func:`blackjack.money.parse_amount`); None takes the engine's default (half the bet,
                within the bankroll).
        """
        rnd = self.game.round
        if rnd is None:
            return
        if self.animating:
            self.say("Wait until the cards are on the table.")
            return
        before = rnd.view() if self.coach_panel.enabled.get() else None  # only the coach judges the decision
        try:
            if amount is None:
                rnd.apply(action)
            else:
                rnd.apply(action, parse_amount(amount, what="insurance stake"))
        except BlackjackError as err:
            self.say(str(err))
            return
        if before is not None:
            self._judge(before, action)
        self._engine_moved()

    def take_insurance(self) -> None:
        """Take insurance (or even money) for the stake in the amount box (the Insurance button and the I key).

        A stake the engine refuses (not a number, 0, more than half the bet or the
        bankroll) shows the engine's message and changes nothing: the offer stays open
        and the box keeps the text to correct.
        """
        if self._insurance_offer is None:
            self.act(Action.INSURANCE)  # no box on show: the engine answers (its default, or why not)
        else:
            self.act(Action.INSURANCE, self.insurance_amount.get())

    def _insurance_return(self, _event: tk.Event[Any]) -> str:
        if self.buttons["insurance"].instate(["!disabled"]):
            self.take_insurance()
        return "break"

    def _step_insurance(self, up: bool) -> str:
        most = insurance_limit(self.round_view)
        if most is not None:
            self.insurance_amount.set(step_stake(self.insurance_amount.get(), most, up))
        return "break"  # instead of ttk's own float stepping

    def deal(self) -> None:
        """Close betting and deal (stacking a drill's cards first when a drill is on)."""
        rnd = self.game.round
        if rnd is None or rnd.phase is not Phase.BETTING:
            self.say("Nothing to deal: start a new round first.")
            return
        rules = self.game.rules
        if not rules.wagering:
            for i, player in enumerate(self.game.players):
                if player.can_cover(rules):
                    rnd.place_bet(i, rules.min_bet)
        seats = range(len(self.game.players))
        betting = sum(1 for i in seats if rnd.bet(i) > 0)
        drill = self.coach_panel.drill.get()
        try:
            if drill != "off" and betting:
                self.game.shoe.stack(drills.opening(drill, betting, self.rng, rules.decks))
            rnd.deal()
        except BlackjackError as err:
            self.say(str(err))
            return
        self.last_bets = {i: rnd.bet(i) for i in seats if rnd.bet(i) > 0}
        self._engine_moved()

    def new_round(self) -> None:
        """Finish the settled round (ledgers, session chart) and open betting for the next one."""
        rnd = self.game.round
        if rnd is not None and rnd.phase is Phase.BETTING:
            self.say("Betting is open: place your bets and deal.")
            return
        if rnd is not None and rnd.phase is not Phase.SETTLED:
            self.say("Finish the round first.")
            return
        self._flush_events()
        if rnd is not None:
            self._record(rnd.view(), [rnd.insurance_net(i) for i in range(len(self.game.players))])
            self.game.finish_round()
            self._after_finish()
        self.coach_panel.show_verdict("")  # last round's verdict does not stay into the next
        self.game.new_round()
        if not any(p.can_cover(self.game.rules) for p in self.game.players):
            self.say("Nobody can cover the table minimum any more: Game ▸ New game starts again.")
        self.refresh()

    def place_bet(self, seat: int, amount: Fraction | int | str) -> bool:
        """Set a seat's bet for the round; show the engine's message and return False if refused."""
        rnd = self.game.round
        if rnd is None or rnd.phase is not Phase.BETTING:
            self.say("Bets are closed until the next round.")
            return False
        try:
            rnd.place_bet(seat, amount)
        except BlackjackError as err:
            self.bet_error.configure(text=str(err))
            self.say(str(err))
            return False
        self.bet_error.configure(text="")
        self.refresh()
        return True

    def add_chip(self, value: int, remove: bool = False) -> None:
        """Add a chip to the chosen seat's bet (or take one back)."""
        view = self.round_view
        if view is None or view.phase is not Phase.BETTING:
            return
        bet = view.seats[self.betting_seat].bet
        new = bet - value if remove else bet + value
        if remove and new <= 0:
            self.clear_bet()
            return
        self.place_bet(self.betting_seat, new)

    def clear_bet(self) -> None:
        """Take back the chosen seat's bet."""
        rnd = self.game.round
        if rnd is not None and rnd.phase is Phase.BETTING:
            rnd.clear_bet(self.betting_seat)
            self.bet_error.configure(text="")
            self.refresh()

    def same_bet(self) -> None:
        """Place the bets of the last deal again."""
        if not self.last_bets:
            self.say("No earlier bet to repeat.")
            return
        for seat, amount in self.last_bets.items():
            if not self.place_bet(seat, amount):
                return

    def bet_from_entry(self) -> bool:
        """Bet the amount typed in the bet box for the chosen seat; show what is wrong with it.

        Returns:
            The bet was placed.
        """
        try:
            amount = parse_bet(self.bet_entry.get())
        except BlackjackError as err:
            self.bet_error.configure(text=str(err))
            return False
        return self.place_bet(self.betting_seat, amount)

    def _bet_return(self, _event: tk.Event[Any]) -> str:
        """Enter in the bet box: place the typed bet, then hand the focus to Deal, so the next Enter (or Space) deals,
        as the status line says. A refused bet keeps the focus in the box to correct it."""
        if self.bet_from_entry() and self.buttons["deal"].instate(["!disabled"]):
            self.buttons["deal"].focus_set()
            self._update_status()
        return "break"

    def choose_seat(self, seat: int) -> None:
        """Send the chips to seat ``seat``."""
        if 0 <= seat < len(self.game.players):
            self.betting_seat = seat
            self.seat_box.current(seat)
            self.refresh()

    def set_counting(self, key: str) -> None:
        """Count in another system from now on (the count is worked out afresh from the cards seen).

        Raises:
            BlackjackError: no counting system has that key.
        """
        chosen = system(key)
        self.counting.set(chosen.key)
        self.refresh()
        self.say(f"Counting system: {chosen.name}.")

    def set_rules(self, rules: Rules) -> None:
        """Switch the table to new rules between rounds, keeping the players and their money."""
        rnd = self.game.round
        if rnd is not None and rnd.phase not in (Phase.BETTING, Phase.SETTLED):
            self.say("Finish the round before changing the rules.")
            self.preset.set(self.game.rules.name)
            return
        if len(self.game.players) > rules.max_players:
            self.messages.showerror("Rules", f"the {rules.name} table seats at most {rules.max_players} players")
            self.preset.set(self.game.rules.name)
            return
        if rnd is not None and rnd.phase is Phase.SETTLED:
            self.new_round()
        series, rows, bets = self.series, self.ledger_rows, self.last_bets
        played = self.rounds_before + self.game.rounds_played
        self._flush_events()
        self.game = self._make_game(self.game.players, rules, None)
        self.series, self.ledger_rows, self.last_bets, self.rounds_before = series, rows, bets, played
        self.chart_rows = None
        self.game.new_round()
        self.say(f"Rules: {preset_title(rules)} ({rules.summary()}).")
        self.refresh()
        if self.chart_window is not None:
            self._load_chart()

    def start_new_game(self, result: NewGameResult) -> None:
        """Seat new players with a bankroll under new rules (from the New game dialog)."""
        self._flush_events()
        self.game = self._make_game(result.names, result.rules, result.bankroll)
        self.chart_rows = None
        self.score.reset()
        self.game.new_round()
        self.say(f"New game: {', '.join(result.names)} at the {result.rules.name} table.")
        self.refresh()

    def stack(self, cards: list[Card]) -> None:
        """Stack the shoe with the given cards (raises BlackjackError for the dialog to show)."""
        self.game.shoe.stack(cards)
        self.say("Stacked: " + " ".join(card.code for card in cards))

    # ============================================================ events and drawing
    def _on_event(self, event: Event) -> None:
        self.events.append(event)
        if isinstance(event, RoundSettled):
            self._dealer_said = event

    def dealer_said(self) -> RoundSettled | None:
        """The engine's ``RoundSettled`` event of the open round once it has come (the dealer's natural and final
        total, for the table's announcement), else None."""
        view = self.round_view
        return self._dealer_said if view is not None and view.phase is Phase.SETTLED else None

    def insurance_results(self) -> dict[int, Money]:
        """Seat -> net gain of its settled insurance in the open round (``Round.insurance_net``).

        Seats whose insurance is not settled (or who had none) are missing; after a new
        round opens the dict is empty again.
        """
        rnd = self.game.round
        if rnd is None:
            return {}
        return {i: net for i in range(len(self.game.players)) if (net := rnd.insurance_net(i))}

    def _engine_moved(self) -> None:
        if not self.animations.get():
            self._flush_events()
            self.refresh()
        elif self._drain_after is None:
            self._drain()

    def _flush_events(self) -> None:
        self.events.clear()
        if self._drain_after is not None:
            self.root.after_cancel(self._drain_after)
            self._drain_after = None

    @property
    def animating(self) -> bool:
        """Events are still being shown, or the last one's animation has not finished: the action bar waits."""
        return bool(self.events) or self._drain_after is not None

    def _drain(self) -> None:
        """Show the next queued event, then come back after its delay (IDLE's ``poll_subprocess`` pattern).

        After the last event the window comes back once more when its animation is over, so the
        buttons (disabled while :attr:`animating`) come on only when every card lies in its place.
        """
        self._drain_after = None
        delay = 0
        event: Event | None = None
        while self.events and delay == 0:
            event = self.events.popleft()
            delay = DELAYS_MS.get(type(event), 0)
        if not self.animations.get():
            self._flush_events()
            self.refresh()
            return
        if delay:
            self._drain_after = self.root.after(delay, self._drain)
        self.refresh()  # once per tick: a second refresh would wipe the card _slide is moving
        if delay and isinstance(event, CardDealt):
            self._slide(event)

    def _slide(self, event: CardDealt) -> None:
        tag = "dealer" if event.seat is None else f"hand_{event.seat}_{event.hand}"
        uids = [t for item in self.table.find_withtag(tag) for t in self.table.gettags(item) if t.startswith("cardid")]
        if not uids:
            return
        uid = uids[-1]
        box = self.table.bbox(uid)
        if not box:
            return
        sx, sy = self.table.shoe_point()
        dx, dy = (sx - box[0]) / SLIDE_STEPS, (sy - box[1]) / SLIDE_STEPS
        self.table.move(uid, dx * SLIDE_STEPS, dy * SLIDE_STEPS)
        for step in range(1, SLIDE_STEPS + 1):
            self.root.after(step * SLIDE_MS, lambda: self.table.move(uid, -dx, -dy))

    def refresh(self) -> None:
        """Redraw the table and update the buttons, the betting rail, the panels and the status line.

        The table shows the cards drawn so far (the queued ones are held back). Everything that
        reads the cards waits for them: while the animation runs the action buttons stay off, and
        the hint, the count, the insurance offer and the status line keep what they showed
        until the last card lies in its place (with animations off that is at once).
        """
        view = self.round_view
        names = [p.name for p in self.game.players]
        self.table.render(view, pending_from(self.events), names, self.betting_seat, self.insurance_results(),
                          self.dealer_said())
        states = button_states(view)
        animating = self.animating
        for name, button in self.buttons.items():
            button.state(["!disabled"] if states.get(name) and not animating else ["disabled"])
        if not animating:
            self.buttons["insurance"].configure(text=insurance_label(view))
            self._show_insurance_box(view)
        elif insurance_limit(view) is None:
            self._show_insurance_box(view)  # an offer that has ended goes at once
        self._draw_chips(view)
        betting = view is not None and view.phase is Phase.BETTING and self.game.rules.wagering
        for widget in (self.bet_button, self.clear_button, self.same_button, self.bet_box):
            widget.state(["!disabled"] if betting else ["disabled"])
        self.chips.configure(takefocus=1 if betting else 0)
        if not betting and str(self.root.tk.call("focus")) in (str(self.bet_box), str(self.chips)):
            self.root.focus_set()  # a disabled box would keep the keys from the shortcuts
        self._draw_chip_focus()
        if not self.events:
            self._update_status()
        if view is not None and not animating:
            try:
                self.count_panel.show(advice.count(view, self.counting.get()))
            except advice.HintsUnavailable as err:
                self.count_panel.show_message(str(err))
            self._update_hint(view)
            if self.chart_window is not None and self.chart_rows is not None:
                self._show_chart(view)

    def _update_status(self) -> None:
        """The status line: the round's prompt, and what Enter does in the amount box that has the focus."""
        focus = str(self.root.tk.call("focus"))
        typing = "bet" if focus == str(self.bet_box) else "insurance" if focus == str(self.insurance_box) else None
        self.status.configure(text=status_text(self.round_view, typing))

    def _show_insurance_box(self, view: TableView | None) -> None:
        """Show the insurance amount box while an offer waits; fill it with the largest stake for each new offer.

        The box appears in its own slot right of the Insurance button, so no button moves.
        """
        most = insurance_limit(view)
        if most is None or view is None:
            if self._insurance_offer is not None:
                self._insurance_offer = None
                if str(self.root.tk.call("focus")) == str(self.insurance_box):
                    self.root.focus_set()  # a hidden box would keep the keys from the shortcuts
                self.insurance_box.pack_forget()
            return
        offer = (self.game.round, view.turn)
        old = self._insurance_offer
        if old is None or old[0] is not offer[0] or old[1] != offer[1]:
            self._insurance_offer = offer
            self.insurance_amount.set(format_money(most))
            self.insurance_box.pack(fill="both", expand=True)

    def _draw_chips(self, view: TableView | None) -> None:
        canvas = self.chips
        canvas.delete("all")
        allowed: list[int] = []
        if view is not None and view.phase is Phase.BETTING and self.game.rules.wagering:
            seat = view.seats[self.betting_seat]
            allowed = affordable_chips(seat.bankroll, seat.bet, view.rules)
        for k, value in enumerate(CHIP_VALUES):
            x, y, r = 24 + k * 46, 23, 20
            on = value in allowed
            tag = f"chip{value}"
            color = CHIP_COLORS[value]  # by value, also when it cannot be added (then faded)
            fill = color if on else dimmed(color)
            light = value == CHIP_VALUES[0]
            canvas.create_oval(x - r, y - r, x + r, y + r, fill=fill, outline="#333333" if on else "#9e9e9e",
                               width=2, tags=("chip", tag, f"chip_face{value}"))
            canvas.create_oval(x - r + 5, y - r + 5, x + r - 5, y + r - 5, outline="#777777" if light else "white",
                               dash=(4, 3), tags=("chip", tag))
            ink = "#111111" if light else "#ffffff"
            canvas.create_text(x, y, text=str(value), fill=ink if on else dimmed(ink),
                               font=("DejaVu Sans", -13 if value < 100 else -11, "bold"), tags=("chip", tag))
            if on:
                canvas.tag_bind(tag, "<Button-1>", self._chip_command(value, remove=False))
            canvas.tag_bind(tag, "<Button-3>", self._chip_command(value, remove=True))

    def _chip_command(self, value: int, remove: bool) -> Callable[[tk.Event[Any]], None]:
        def press(_event: tk.Event[Any]) -> None:
            self.add_chip(value, remove=remove)
        return press

    def _counting_command(self, key: str) -> Callable[[], None]:
        def choose() -> None:
            self.set_counting(key)
        return choose

    def _preset_command(self, name: str) -> Callable[[], None]:
        def choose() -> None:
            self.set_rules(Rules.preset(name))
        return choose

    # ============================================================ hints, coach, chart
    def _update_hint(self, view: TableView) -> None:
        if not self.hint_panel.shown.get():
            self._hint_token = None
            self.jobs.forget("hint")
            return
        if view.turn is None:
            self._hint_token = None
            self.jobs.forget("hint")
            self.hint_panel.show_message(self._idle_hint(view))
            return
        token = (view.turn, view.phase, view.current_hand, view.legal_actions, view.cards_remaining)
        if token == self._hint_token:
            return
        self._hint_token = token
        self.hint_panel.show_message("Thinking…")
        def failed(err: BaseException) -> None:
            self.hint_panel.show_message(_one_line(err))

        self.jobs.submit("hint", lambda: advice.advise(view), self.hint_panel.show, failed)

    def _idle_hint(self, view: TableView) -> str:
        """What the hint panel says when no one has a decision: what it will show, and where to look now."""
        if view.phase is not Phase.BETTING:
            return "No decision pending. The next hint comes with the next decision."
        text = "At your first decision: the best play and why, the bust chance, the dealer's totals, each EV."
        if self.count_panel.shown.get() and self.game.rules.wagering:
            try:
                balanced = advice.count(view, self.counting.get()).suggestion is not None
            except advice.HintsUnavailable:
                balanced = False
            if balanced:
                text += " Your bet: see the count panel."
        return text

    def _judge(self, before: TableView, action: Action) -> None:
        self._decisions += 1
        def failed(err: BaseException) -> None:
            self.coach_panel.show_verdict(_one_line(err))

        rnd = self.game.round
        self.jobs.submit(f"coach{self._decisions}", lambda: advice.judge(before, action),
                         lambda verdict: self._judged(verdict, rnd), failed)

    def _judged(self, verdict: advice.Verdict, rnd: object = None) -> None:
        """Count the verdict in the score; show it unless its round has ended since (the next round starts clean)."""
        self.score.record(verdict)
        if rnd is None or rnd is self.game.round:
            self.coach_panel.show_verdict(verdict.text(), CoachPanel.RIGHT if verdict.correct else CoachPanel.WRONG)
        self.coach_panel.show_score(self.score.text())

    def reset_score(self) -> None:
        """Start the coach's tally again."""
        self.score.reset()
        self.coach_panel.show_score(self.score.text())
        self.coach_panel.show_verdict("")

    def _drill_changed(self) -> None:
        drill = self.coach_panel.drill.get()
        self.say("Drill off." if drill == "off" else f"Drill: {drill} ({drills.DRILLS[drill]}), from the next deal.")

    def open_chart(self) -> None:
        """Open the basic-strategy chart window for the current rules."""
        if self.chart_window is None or not self.chart_window.winfo_exists():
            self.chart_window = ChartWindow(self.root, f"Basic strategy: {self.game.rules.name}",
                                            on_close=self._close_chart)
        self._load_chart()

    def _close_chart(self) -> None:
        if self.chart_window is not None:
            self.chart_window.destroy()
        self.chart_window = None

    def _load_chart(self) -> None:
        rules = self.game.rules
        if self.chart_window is not None:
            self.chart_window.title(f"Basic strategy: {rules.name} ({rules.summary()})")

        def loaded(rows: list[tuple[str, str, tuple[str, ...]]]) -> None:
            if rules == self.game.rules:
                self.chart_rows = rows
                view = self.round_view
                if view is not None:
                    self._show_chart(view)

        def failed(err: BaseException) -> None:
            if self.chart_window is not None:
                self.chart_window.show_message(_one_line(err))

        self.jobs.submit("chart", lambda: advice.chart_rows(rules), loaded, failed)

    def _show_chart(self, view: TableView) -> None:
        if self.chart_window is not None and self.chart_rows is not None and self.chart_window.winfo_exists():
            self.chart_window.show(self.chart_rows, advice.chart_cell(view))

    def open_session(self) -> None:
        """Open the session window: bankroll chart and ledger."""
        if self.session_window is None or not self.session_window.winfo_exists():
            self.session_window = SessionWindow(self.root)
        self.session_window.update_session(self.series, self.ledger_rows)

    def _record(self, view: TableView, insurance: list[Money]) -> None:
        number = self.rounds_before + self.game.rounds_played + 1  # counted on across rules changes
        for seat in view.seats:
            if seat.bet <= 0:
                continue
            outcomes = [h.outcome for h in seat.hands if h.outcome is not None]
            net = sum((o.net for o in outcomes), insurance[seat.index])
            bankroll = self.game.players[seat.index].bankroll
            self.ledger_rows.append(LedgerRow(number, seat.name, ", ".join(o.result.label for o in outcomes),
                                              net, bankroll))

    def _after_finish(self) -> None:
        for player in self.game.players:
            self.series.setdefault(player.name, []).append(player.bankroll)
        if self.session_window is not None and self.session_window.winfo_exists():
            self.session_window.update_session(self.series, self.ledger_rows)

    # ====================================================================== dialogs
    def open_new_game(self) -> None:
        """Open the New game dialog."""
        rnd = self.game.round
        dialog = NewGameDialog(self.root, self.game.rules, [p.name for p in self.game.players], self.start_new_game,
                               modal=self.modal)
        self.last_dialog: Any = dialog
        if rnd is not None and rnd.phase not in (Phase.BETTING, Phase.SETTLED):
            dialog.fail("A round is in progress: starting a new game abandons it.")
        dialog.run()

    def open_rules(self) -> None:
        """Open the rule switches dialog."""
        dialog = RulesDialog(self.root, self.game.rules, self.set_rules, modal=self.modal)
        self.last_dialog = dialog
        dialog.run()

    def open_stack(self) -> None:
        """Open the Stack the shoe dialog."""
        dialog = StackDialog(self.root, self.stack, modal=self.modal)
        self.last_dialog = dialog
        dialog.run()

    def show_text(self, title: str, text: str) -> TextWindow:
        """Open a help window."""
        window = TextWindow(self.root, title, text)
        self.last_dialog = window
        return window

    # ====================================================================== plumbing
    def say(self, text: str) -> None:
        """Show one line in the status bar."""
        self.status.configure(text=text)

    def _report_exception(self, kind: type[BaseException], value: BaseException,
                          tb: TracebackType | None) -> None:
        """A bug in a callback: log it, keep it for tests, tell the user in one line; the window stays usable.

        A starter stub (``NotImplementedError``) is not a bug but work still to do: the
        message names the function to write and what it should do.
        """
        if isinstance(value, NotImplementedError):
            text = unwritten(value)
            self.errors.append(text)
            self.messages.showerror("Not written yet", text)
            return
        # the traceback only for whoever turns debug logging on: the user gets the one-line box below
        log.debug("unexpected error in a Tk callback:\n%s", "".join(traceback.format_exception(kind, value, tb)))
        self.errors.append(f"{kind.__name__}: {value}")
        self.messages.showerror("Unexpected error", f"{kind.__name__}: {value}")

    def settle(self, timeout: float = 30.0) -> None:
        """Process Tk events until no animation is queued and no worker job is waiting (for tests and scripts)."""
        import time
        deadline = time.monotonic() + timeout
        while (self.events or self.jobs.busy or self._drain_after is not None) and time.monotonic() < deadline:
            self.root.update()
            time.sleep(0.01)
        self.root.update()

    def close(self) -> None:
        """Stop animations and workers and close the window."""
        self._flush_events()
        self.jobs.close()
        self.root.destroy()


def _takes_text(widget: object) -> bool:
    """``widget`` is a box that takes typed text now (not disabled or read-only): keys go to it, not to the shortcuts."""
    if isinstance(widget, ttk.Entry | ttk.Spinbox):  # ttk.Combobox is a ttk.Entry
        return widget.instate(["!disabled", "!readonly"])
    if isinstance(widget, tk.Entry | tk.Spinbox | tk.Text):
        return str(widget.cget("state")) == "normal"
    return False


def _presses(widget: object) -> bool:
    """``widget`` is an enabled button, check box or radio button: Space presses it (its own binding)."""
    return isinstance(widget, ttk.Button | ttk.Checkbutton | ttk.Radiobutton) and widget.instate(["!disabled"])


def _state_map(style: ttk.Style, name: str, option: str) -> list[tuple[str, str]]:
    """The theme's state map of ``option`` for style ``name`` (or of the root style ``.``), as (state, value) pairs."""
    entries: Any = style.map(name, option) or style.map(".", option)
    pairs: list[tuple[str, str]] = []
    for entry in entries:
        *states, value = tuple(entry)
        pairs.append((" ".join(str(s) for s in states), str(value)))
    return pairs


def _underline(menu: tk.Menu) -> None:
    """Underline a letter of every entry of ``menu`` (:func:`gui.logic.mnemonics`): Alt plus the letter picks it."""
    last = menu.index("end")
    if last is None:
        return
    entries = [i for i in range(last + 1) if menu.type(i) not in ("separator", "tearoff")]
    for i, index in zip(entries, mnemonics([str(menu.entrycget(i, "label")) for i in entries])):
        menu.entryconfigure(i, underline=index)


def _one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__
