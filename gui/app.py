"""The main window: table, action bar, betting rail, side panels, menus; it drives the engine.

The window holds no rule: a button press calls :meth:`Round.apply` (or ``deal``,
``place_bet``) and shows the engine's :class:`~blackjack.BlackjackError` message on one
line if it refuses. How the parts work together: docs/gui.md, "For developers".

Construct with ``modal=False`` and a :class:`gui.testing.Mbox` for tests (IDLE's
``_utest``): dialogs then return at once and message boxes are recorded.
"""

from __future__ import annotations

import itertools
import logging
import random
import tkinter as tk
import tkinter.font as tkfont
import traceback
from collections import deque
from collections.abc import Sequence
from fractions import Fraction
from tkinter import messagebox, ttk
from types import TracebackType
from typing import Any, Protocol

from blackjack import (Action, Blackjack, BlackjackError, Card, Event, Money, Phase, Player, Rules,
                       RoundSettled, TableView, format_money, parse_bet)
from blackjack.errors import unwritten
from blackjack.money import parse_amount
from blackjack.hints import system

from . import advice, drills
from .animation import Animator
from .bar import ActionBar, focus_rings
from .dialogs import ABOUT, HELP_KEYS, Dialog, NewGameDialog, NewGameResult, RulesDialog, StackDialog, TextWindow
from .jobs import Jobs
from .logic import (BUTTONS, MIN_WINDOW, WINDOW, affordable_chips, button_states, insurance_label,
                    insurance_limit, preset_title, status_text, window_size)
from .menus import build_menus
from .panels import CoachPanel, CountPanel, HintPanel, SidePanel
from .rail import BetRail
from .study import Study
from .table import TableCanvas

__all__ = ["App", "MessageBoxes"]

log = logging.getLogger(__name__)

#: Event state bits of Control and Alt (Mod1): a letter pressed with them is a menu key, not a shortcut.
MODIFIERS = 0x4 | 0x8
#: The fonts that grow with the window (:meth:`App.rescale`), and the window's scale at most.
SCALED_FONTS, MOST_SCALE = ("TkDefaultFont", "TkTextFont", "TkHeadingFont", "TkMenuFont", "TkFixedFont"), 1.8


class MessageBoxes(Protocol):
    """What the window needs of :mod:`tkinter.messagebox` (a :class:`gui.testing.Mbox` in tests)."""

    def showinfo(self, title: str, message: str, **options: Any) -> str:
        """Show an information box; return the button pressed (``"ok"``)."""

    def showerror(self, title: str, message: str, **options: Any) -> str:
        """Show an error box; return the button pressed (``"ok"``)."""


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
        counting: the count panel's counting system, a key of ``blackjack/hints/counting.toml``.
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
        self._dealer_said: RoundSettled | None = None  # the last RoundSettled event (dealer_said())
        self.jobs = Jobs(root)
        self.last_bets: dict[int, Money] = {}
        self.betting_seat = 0
        self._moment: object = None  # (round, phase, turn) the keyboard focus was last placed for
        self.notice = ""  # a confirmation the status line keeps until the next deal (the stacked cards)
        self.animations = tk.BooleanVar(root, value=animations)
        self.speed = tk.StringVar(root, value="normal" if animations else "off")
        self.animations.trace_add("write", lambda *_a: self._animations_switched())
        self.counting = tk.StringVar(root, value=system(counting).key)
        root.report_callback_exception = self._report_exception
        root.title("Blackjack Kit")
        root.protocol("WM_DELETE_WINDOW", self.close)
        self.create_widgets()
        self.hint_panel.set_shown(hints)
        self.count_panel.set_shown(count)
        self.game: Blackjack = self._make_game(names, rules or Rules.preset("vegas"), bankroll)
        self.study.new_game()
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
        focus_rings(root)
        self.table = TableCanvas(root, on_seat_click=self.choose_seat, width=700, height=520)
        self.table.grid(row=0, column=0, sticky="nsew")
        self.animator = Animator(root, self.table, self.refresh, self.speed)
        # Created in the order Tab visits them: the action bar, the betting rail, then the side panels.
        self.bar = ActionBar(root, self._command, self._key_on_button, self._insurance_return)
        self.bar.grid(row=1, column=0, columnspan=2, sticky="we")
        self.buttons, self.insurance_box, self.insurance_amount = self.bar.buttons, self.bar.box, self.bar.amount
        self.insurance_slot = self.bar.slot
        self.rail = BetRail(root, self.choose_seat, self.add_chip, self.bet_from_entry, self.clear_bet, self.same_bet,
                            self._bet_return)
        self.rail.grid(row=2, column=0, columnspan=2, sticky="we")
        rail = self.rail
        self.seat_box, self.chips, self.bet_box, self.bet_entry = rail.seat_box, rail.chips, rail.bet_box, rail.bet_entry
        self.bet_button, self.clear_button, self.same_button = rail.bet_button, rail.clear_button, rail.same_button
        self.bet_error = rail.bet_error
        for box, sequence in itertools.product((self.bet_box, self.insurance_box), ("<FocusIn>", "<FocusOut>")):
            box.bind(sequence, lambda _e: self.root.after_idle(self._update_status), add="+")
        self.side = SidePanel(root)
        self.side.grid(row=0, column=1, sticky="ns")
        side = self.side.inner
        self.hint_panel = HintPanel(side)
        self.count_panel = CountPanel(side)
        self.coach_panel = CoachPanel(side, list(drills.DRILLS))
        for row, panel in enumerate((self.hint_panel, self.count_panel, self.coach_panel)):
            panel.grid(row=row, column=0, sticky="we", pady=(0, 3) if panel is not self.coach_panel else 0)
        for toggle in (self.hint_panel.shown, self.count_panel.shown):
            toggle.trace_add("write", lambda *_a: self.root.after_idle(self.refresh))
        self.coach_panel.drill.trace_add("write", lambda *_a: self._drill_changed())
        self.side.adopt()
        self.study = Study(root, self.jobs, self.hint_panel, self.count_panel, self.coach_panel, self.counting,
                           lambda: self.game)

        self.status = ttk.Label(root, text="", anchor="w", padding=(8, 3), relief="sunken")
        self.status.grid(row=3, column=0, columnspan=2, sticky="we")
        self.preset = tk.StringVar(root, value="vegas")
        self.menubar, self.counting_menu = build_menus(self)
        self._bind_keys()
        self._base_fonts = {name: int(tkfont.nametofont(name, root=root).cget("size")) for name in SCALED_FONTS}
        padding = root.tk.splitlist(root.tk.call("ttk::style", "lookup", "TButton", "-padding")) or ("3",)
        self._button_padding = [int(float(str(p))) for p in padding]
        self.ui_scale = 1.0
        root.bind("<Configure>", self._resized, add="+")

    def _resized(self, event: tk.Event[Any]) -> None:
        if event.widget is self.root:
            self.rescale(event.width, event.height)

    def rescale(self, width: int, height: int) -> None:
        """Grow the controls, the chips and the panels with a window larger than :data:`~gui.logic.WINDOW`, by the
        smaller of the two sizes' ratios, up to :data:`MOST_SCALE`."""
        scale = min(MOST_SCALE, max(1.0, min(width / WINDOW[0], height / WINDOW[1])))
        if abs(scale - self.ui_scale) < 0.05:
            return
        self.ui_scale = scale
        for name, size in self._base_fonts.items():
            tkfont.nametofont(name, root=self.root).configure(size=round(size * scale))
        ttk.Style(self.root).configure("TButton", padding=[round(p * scale) for p in self._button_padding])
        self.rail.scale(scale)
        self.side.scale(scale)
        self.bar.fit_slot()

    def _bind_keys(self) -> None:
        """The shortcuts: a letter presses its button wherever the focus is; Enter and Space press the focused
        button, or do the status line's default (Deal or New round) when no button has the focus. Alt plus a
        letter is left to the menus. While cards are moving, any key or click shows everything at once."""
        for key in dict.fromkeys(key for spec in BUTTONS for key in spec.keys):  # Deal and New round share theirs
            letter = len(key) == 1
            for sequence in [f"<KeyPress-{key}>", f"<KeyPress-{key.upper()}>"] if letter else [f"<KeyPress-{key}>"]:
                self.root.bind(sequence, self._on_key)
                if letter:  # in an amount box a shortcut letter presses its button instead of typing
                    for box in (self.bet_box, self.insurance_box):
                        box.bind(sequence, self._box_letter)
        self.root.bind("<KeyPress-KP_Enter>", self._on_key)
        self.root.bind("<KeyPress>", self._any_key)
        self.root.bind("<ButtonPress>", self._any_key, add="+")
        self.root.bind("<F1>", lambda _e: self.show_text("Keyboard shortcuts", HELP_KEYS))
        self.root.bind("<Tab>", lambda _e: self._tabbing(backward=False))
        self.root.bind("<<PrevWindow>>", lambda _e: self._tabbing(backward=True))

    def _tabbing(self, backward: bool) -> None:
        self.rail.backward = backward  # read by the chips when Tab brings them the focus

    def _any_key(self, _event: tk.Event[Any]) -> str | None:
        """A key or click while cards are moving finishes the animation (and does nothing else)."""
        if self.animator.busy:
            self.animator.finish()
            return "break"
        return None

    def _on_key(self, event: tk.Event[Any]) -> str | None:
        """A shortcut key pressed anywhere in the window (after the focused widget's own bindings)."""
        if int(event.state) & MODIFIERS:
            return None  # Alt+letter opens a menu; Control is not ours
        if self._any_key(event):
            return "break"
        if _takes_text(event.widget):
            return None  # typed into the box (the boxes' own bindings handle Enter and the letters)
        key = event.keysym if len(event.keysym) > 1 else event.keysym.lower()
        if key == "KP_Enter":
            key = "Return"
        if key == "space" and _presses(event.widget):
            return None  # Space pressed the focused check box: nothing more
        if key in ("space", "Return") and self._bet_again():
            return "break"
        return self._press(key)

    def _key_on_button(self, event: tk.Event[Any]) -> str:
        """Space or Enter on an action-bar button presses it; on one that is off, they do the default (Deal, New
        round, the same bet again). Once only: the window's own binding does not run again."""
        if self._any_key(event):
            return "break"
        if isinstance(event.widget, ttk.Button) and event.widget.instate(["!disabled"]):
            event.widget.invoke()
        else:
            self._on_key(event)
        return "break"

    def _box_letter(self, event: tk.Event[Any]) -> str | None:
        """A shortcut letter typed in the bet or insurance box: it presses its button if that is enabled
        (I takes insurance for the typed stake), else it is typed."""
        if int(event.state) & MODIFIERS:
            return None
        return self._press(event.keysym.lower())

    def _press(self, key: str) -> str | None:
        """Press the enabled button whose shortcut is ``key``; ``"break"`` when one was pressed."""
        for spec in BUTTONS:
            if key in spec.keys and self.buttons[spec.name].instate(["!disabled"]):
                self.buttons[spec.name].invoke()
                return "break"
        return None

    @property
    def chip_cursor(self) -> int:
        """The chip the keyboard is on (an index into :data:`~gui.logic.CHIP_VALUES`)."""
        return self.rail.chip_cursor

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
        """Apply a player's ``action``; show the engine's message if it is not allowed.

        ``amount``: only for INSURANCE, the stake as typed (:func:`blackjack.money.parse_amount`);
        None takes the engine's default.
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
            self.study.judge(before, action)
        self.animator.start()

    def take_insurance(self) -> None:
        """Take insurance (or even money) for the stake in the amount box (the Insurance button and the I key);
        a stake the engine refuses shows its message and changes nothing: the box keeps the text to correct."""
        if self.bar.offer is None:
            self.act(Action.INSURANCE)  # no box on show: the engine answers (its default, or why not)
        else:
            self.act(Action.INSURANCE, self.insurance_amount.get())

    def _insurance_return(self, _event: tk.Event[Any]) -> str:
        if self.buttons["insurance"].instate(["!disabled"]):
            self.take_insurance()
        return "break"

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
        bets = {i: rnd.bet(i) for i in range(len(self.game.players)) if rnd.bet(i) > 0}
        if not bets:
            self.bet_error.configure(text="Put a chip in a bet circle first (or type an amount), then Deal.")
            self.say("No bets yet: click a chip, or type an amount and press Bet.")
            return
        drill = self.coach_panel.drill.get()
        try:
            if drill != "off":
                self.game.shoe.stack(drills.opening(drill, len(bets), self.rng, rules.decks))
            rnd.deal()
        except BlackjackError as err:
            self.say(str(err))
            return
        self.last_bets = bets
        self.notice = ""
        self.animator.start()

    def new_round(self) -> None:
        """Finish the settled round (ledgers, session chart) and open betting for the next one."""
        rnd = self.game.round
        if rnd is not None and rnd.phase is Phase.BETTING:
            self.say("Betting is open: place your bets and deal.")
            return
        if rnd is not None and rnd.phase is not Phase.SETTLED:
            self.say("Finish the round first.")
            return
        self.animator.clear()
        if rnd is not None:
            self.study.record(rnd.view(), [rnd.insurance_net(i) for i in range(len(self.game.players))])
            self.game.finish_round()
            self.study.finished()
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

    def _bets_out(self, view: TableView) -> Money:
        """The credits bet so far this round, all seats."""
        return sum((seat.bet for seat in view.seats), Fraction(0))

    def _last_bets_text(self) -> str:
        names = [p.name for p in self.game.players]
        return ", ".join(f"{names[i]} {format_money(a)}" if len(names) > 1 else format_money(a)
                         for i, a in self.last_bets.items() if i < len(names))

    def _bet_again(self) -> bool:
        """Enter or Space while betting with nothing bet yet: the last deal's bets again, and deal (as the text
        game repeats a bet on Enter). Returns whether it did; with no bet to repeat, says what to do."""
        view = self.round_view
        if view is None or view.phase is not Phase.BETTING or not self.game.rules.wagering or self._bets_out(view):
            return False
        if not self.last_bets:
            self.bet_error.configure(text="Put a chip in a bet circle first (or type an amount), then Deal.")
            return True
        self.same_bet()
        if self.buttons["deal"].instate(["!disabled"]):
            self.deal()
        return True

    def same_bet(self) -> None:
        """Place the bets of the last deal again."""
        if not self.last_bets:
            self.say("No earlier bet to repeat.")
            return
        for seat, amount in self.last_bets.items():
            if not self.place_bet(seat, amount):
                return

    def bet_from_entry(self) -> bool:
        """Bet the amount typed in the bet box for the chosen seat; return whether the bet was placed, else show why."""
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
        self.study.rounds_before += self.game.rounds_played  # the ledger numbers on; its rows and bets stay
        self.animator.clear()
        self.game = self._make_game(self.game.players, rules, None)
        self.game.new_round()
        self.say(f"Rules: {preset_title(rules)} ({rules.summary()}).")
        self.refresh()
        self.study.load_chart(self.round_view)

    def start_new_game(self, result: NewGameResult) -> None:
        """Seat new players with a bankroll under new rules (from the New game dialog)."""
        self.animator.clear()
        self.game = self._make_game(result.names, result.rules, result.bankroll)
        self.last_bets = {}
        self.study.new_game()
        self.study.score.reset()
        self.game.new_round()
        self.say(f"New game: {', '.join(result.names)} at the {result.rules.name} table.")
        self.refresh()

    def stack(self, cards: list[Card]) -> None:
        """Stack the shoe with the given cards (raises BlackjackError for the dialog to show)."""
        self.game.shoe.stack(cards)
        self.notice = f"Stacked: {' '.join(card.code for card in cards)} come next, in deal order."
        self._update_status()

    # ============================================================ events and drawing
    def _on_event(self, event: Event) -> None:
        self.animator.push(event)
        if isinstance(event, RoundSettled):
            self._dealer_said = event

    @property
    def events(self) -> deque[Event]:
        """The engine's events still waiting to be shown (:attr:`Animator.events`)."""
        return self.animator.events

    def dealer_said(self, view: TableView | None = None) -> RoundSettled | None:
        """The engine's ``RoundSettled`` event of the open round once it has come (the dealer's natural and final
        total, for the table's announcement), else None. ``view``: the round's view, if at hand."""
        view = view if view is not None else self.round_view
        return self._dealer_said if view is not None and view.phase is Phase.SETTLED else None

    def insurance_results(self) -> dict[int, Money]:
        """Seat -> net gain of its settled insurance in the open round (``Round.insurance_net``), credits; seats
        whose insurance is not settled (or who had none) are missing."""
        rnd = self.game.round
        if rnd is None:
            return {}
        return {i: net for i in range(len(self.game.players)) if (net := rnd.insurance_net(i))}

    @property
    def animating(self) -> bool:
        """Events are still being shown, or the last card is still on its way: the action bar waits."""
        return self.animator.busy

    def set_speed(self, name: str) -> None:
        """Animate at the speed ``name`` of :data:`gui.animation.SPEEDS` (``"off"`` shows every change at once)."""
        self.speed.set(name)
        if self.animations.get() != (name != "off"):
            self.animations.set(name != "off")
        if name == "off":
            self.animator.finish()

    def _animations_switched(self) -> None:
        on = self.animations.get()
        if on != (self.speed.get() != "off"):
            self.set_speed("normal" if on else "off")

    def refresh(self) -> None:
        """Redraw the table and update the buttons, the betting rail, the panels and the status line, from one view.

        The queued cards are held back, and what reads the cards waits for them: while the animation
        runs the action buttons stay off, and the count, a new hint and the insurance offer keep what
        they showed. Advice for a decision that is over goes at once.
        """
        rnd = self.game.round
        view = rnd.view() if rnd is not None else None
        busy = self.animator.busy
        names = [p.name for p in self.game.players]
        self.table.render(view, self.animator.pending(), names, self.betting_seat, self.insurance_results(),
                          self.dealer_said(view))
        states = button_states(view)
        for name, button in self.buttons.items():
            button.state(["!disabled"] if states.get(name) and not busy else ["disabled"])
        if not busy:
            self.buttons["insurance"].configure(text=insurance_label(view))
            self.bar.show_offer(view, rnd)
        elif insurance_limit(view) is None:
            self.bar.show_offer(view, rnd)  # an offer that has ended goes at once
        betting = view is not None and view.phase is Phase.BETTING and self.game.rules.wagering
        self.rail.set_betting(betting)
        if not betting and str(self.root.tk.call("focus")) in (str(self.bet_box), str(self.chips)):
            self.root.focus_set()  # a disabled box would keep the keys from the shortcuts
        allowed: list[int] = []
        if betting and view is not None:
            seat = view.seats[self.betting_seat]
            allowed = affordable_chips(seat.bankroll, seat.bet, view.rules)
        self.rail.draw_chips(allowed)
        self._update_status(view)
        if view is None:
            return
        if busy:
            if view.turn is None and self.study.hint_token is not None:
                self.study.update_hint(view)  # the decision is over: its advice goes now
            return
        try:
            self.count_panel.show(advice.count(view, self.counting.get()))
        except advice.HintsUnavailable as err:
            self.count_panel.show_message(str(err))
        self.study.update_hint(view)
        self.study.show_chart(view)
        self._place_focus(view)

    def _place_focus(self, view: TableView) -> None:
        """At each new moment of the round, put the keyboard focus on its main action: Hit (else the first
        enabled action) at a decision, No thanks at an offer, New round when the round is over, and while
        betting the chips (or Deal when bets are in). Space and Enter then do what the status line says."""
        moment = (self.game.round, view.phase, view.turn)
        if moment == self._moment:
            return
        self._moment = moment
        buttons = self.buttons
        if view.phase is Phase.SETTLED:
            target: tk.Misc | None = buttons["new_round"]
        elif view.phase is Phase.BETTING:
            target = buttons["deal"] if buttons["deal"].instate(["!disabled"]) else (
                self.chips if self.game.rules.wagering else None)
        else:
            order = ("decline", "hit", "stand") if view.phase in (Phase.INSURANCE, Phase.EARLY_SURRENDER) else (
                "hit", "stand")
            target = next((buttons[n] for n in (*order, *buttons) if buttons[n].instate(["!disabled"])), None)
        if target is not None:
            target.focus_set()
            self._update_status(view)

    def _update_status(self, view: TableView | None = None) -> None:
        """The status line: what the felt shows now, the round's prompt, and what Enter and Space do."""
        view = view if view is not None else self.round_view
        focus = str(self.root.tk.call("focus"))
        if self.animator.busy and view is not None:
            dealing = view.phase is not Phase.SETTLED and view.turn is not None
            self.status.configure(text=("Dealing…" if dealing else "The dealer plays…") + " (any key shows all)")
            return
        typing = "bet" if focus == str(self.bet_box) else "insurance" if focus == str(self.insurance_box) else None
        text = status_text(view, typing)
        pressed = next((b for b in self.buttons.values() if str(b) == focus and b.instate(["!disabled"])), None)
        if pressed is not None and view is not None and view.phase not in (Phase.BETTING, Phase.SETTLED):
            text += f"  Enter or Space: {pressed.cget('text')}."
        elif view is not None and view.phase is Phase.BETTING and self._bets_out(view) == 0 and self.last_bets:
            text += f"  Enter: the same bet again ({self._last_bets_text()}) and deal."
        self.status.configure(text=f"{self.notice}  {text}" if self.notice else text)

    # ============================================================ study aids
    def reset_score(self) -> None:
        """Start the coach's tally again."""
        self.study.reset_score()

    def _drill_changed(self) -> None:
        drill = self.coach_panel.drill.get()
        self.say("Drill off." if drill == "off" else f"Drill: {drill} ({drills.DRILLS[drill]}), from the next deal.")

    def open_chart(self) -> None:
        """Open the basic-strategy chart window for the current rules."""
        self.study.open_chart(self.round_view)

    def open_session(self) -> None:
        """Open the session window: bankroll chart and ledger."""
        self.study.open_session()

    # ====================================================================== dialogs
    def open_new_game(self) -> None:
        """Open the New game dialog."""
        rnd = self.game.round
        dialog = NewGameDialog(self.root, self.game.rules, [p.name for p in self.game.players], self.start_new_game,
                               modal=self.modal)
        if rnd is not None and rnd.phase not in (Phase.BETTING, Phase.SETTLED):
            dialog.fail("A round is in progress: starting a new game abandons it.")
        self._run(dialog)

    def open_rules(self) -> None:
        """Open the rule switches dialog."""
        self._run(RulesDialog(self.root, self.game.rules, self.set_rules, modal=self.modal))

    def open_stack(self) -> None:
        """Open the Stack the shoe dialog."""
        self._run(StackDialog(self.root, self.stack, modal=self.modal))

    def _run(self, dialog: Dialog[Any]) -> None:
        self.last_dialog: Any = dialog
        dialog.run()

    def show_about(self) -> None:
        """Help ▸ About."""
        self.messages.showinfo("About Blackjack Kit", ABOUT)

    def show_text(self, title: str, text: str) -> TextWindow:
        """Open a help window."""
        window = TextWindow(self.root, title, text)
        self.last_dialog = window
        return window

    # ====================================================================== plumbing
    def say(self, text: str) -> None:
        """Show one line in the status bar."""
        self.status.configure(text=text)

    def _report_exception(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        """A bug in a callback: log it, keep it for tests, tell the user in one line; the window stays usable.
        A starter stub (``NotImplementedError``) is work still to do: the message names the function to write."""
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
        while (self.animator.busy or self.jobs.busy) and time.monotonic() < deadline:
            self.root.update()
            time.sleep(0.01)
        self.root.update()

    def close(self) -> None:
        """Stop animations and workers and close the window."""
        self.animator.clear()
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
