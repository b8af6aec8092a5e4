"""Milestone 3's shell of a GUI: one player, a dealer, and the Deal, Hit and Stand buttons.

The course gives "a shell of a GUI (like in the maze hw assignment)", where the player
"can choose to hit/stand, and you report the result of the round". This module is that
shell. The window, its canvas, the card drawing and the buttons are given; the student
writes (milestone-3 regions) what the buttons do and what the canvas shows:

==============================  ==============================================================
name                            what it is
==============================  ==============================================================
``button_states(view)``         student: which of Deal, Hit, Stand are enabled for a view
``round_result(view)``          student: the round's result as the window reports it
``Shell``                       the window (given), with the student's handlers and drawing:
``Shell.deal/hit/stand``        student: step the round through the engine, then redraw
``Shell.finish_if_settled``     student: record a settled round (``game.finish_round()``)
``Shell.render(view)``          student: draw the hands, the totals and the result
``main(argv)``                  ``python -m gui.shell``: open the window
==============================  ==============================================================

The shell holds no blackjack rule: the legal actions come from ``view.legal_actions``,
totals from ``HandView.total_text`` and ``DealerView.total_text``, results from
``HandView.outcome``. The engine (``Round.apply``) deals the cards, plays the dealer's
hand once the player stands or busts, and settles the round. The full table with
betting, hints and counting is ``python -m gui``.
"""

from __future__ import annotations

if __name__ == "__main__":  # before anything else loads: Ctrl-C while the window opens ends quietly, status 130
    from blackjack.cli import exit_on_interrupt
    exit_on_interrupt()

import argparse  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
import tkinter as tk  # noqa: E402
import tkinter.font as tkfont  # noqa: E402
import traceback  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from tkinter import ttk  # noqa: E402
from types import TracebackType  # noqa: E402

from blackjack import (Action, Blackjack, BlackjackError, Card, Hidden, Phase, Round, Rules, TableView,  # noqa: E402
                       parse_cards)
from blackjack.cli import OneLineParser  # noqa: E402
from blackjack.errors import unwritten  # noqa: E402

from .cards import FONT_FAMILY, draw_card  # noqa: E402
from .launch import run_window  # noqa: E402
from .logic import Box, signed_money  # noqa: E402

__all__ = ["BUTTON_NAMES", "ROWS", "TEXTS", "Shell", "build_parser", "button_states", "check_rules", "main",
           "round_result"]

log = logging.getLogger(__name__)

#: The shell's buttons, left to right: the keys of :func:`button_states` and of ``Shell.buttons``.
BUTTON_NAMES: tuple[str, ...] = ("deal", "hit", "stand")

#: The two rows of cards on the canvas: the name :meth:`Shell.draw_card` takes, and the row's top edge (pixels).
ROWS: dict[str, float] = {"dealer": 48.0, "player": 238.0}

#: The places :meth:`Shell.write` writes at: name -> (x, y) of the text's left edge, pixels.
TEXTS: dict[str, tuple[float, float]] = {
    "dealer_total": (78.0, 170.0),
    "player_total": (78.0, 360.0),
    "result": (400.0, 200.0),
}

#: Canvas size and card size, pixels (a poker card's proportions, 63 x 88 mm).
WIDTH, HEIGHT = 720.0, 400.0
CARD_W, CARD_H = 76.0, 106.0
CARD_STEP = 58.0  # cards fan out and overlap a little: 11 cards (the most a 21 can hold from one deck) fit
FELT = "#0f6b34"


def button_states(view: TableView | None) -> dict[str, bool]:
    """Decide which of the shell's buttons are enabled.

    Args:
        view: the round's view (``Round.view()``), or None before the first Deal.

    Returns:
        ``{"deal": ..., "hit": ..., "stand": ...}``: Hit and Stand exactly when the engine
        lists :attr:`Action.HIT` / :attr:`Action.STAND` in ``view.legal_actions``; Deal
        when no round is being played: there is no view yet, or its phase is
        ``Phase.SETTLED``. With None: only Deal (the window's state before the first round).
    """
    # BEGIN SOLUTION m3: return which buttons are enabled, a dict from "deal", "hit" and "stand" to True or False: with no round yet (view is None) only Deal; else Hit and Stand exactly when the engine lists Action.HIT / Action.STAND in view.legal_actions, and Deal once the round is settled (view.phase is Phase.SETTLED)
    if view is None:
        return {"deal": True, "hit": False, "stand": False}
    return {"deal": view.phase is Phase.SETTLED,
            "hit": Action.HIT in view.legal_actions,
            "stand": Action.STAND in view.legal_actions}
    # END SOLUTION


def round_result(view: TableView | None) -> str:
    """Write the result of the round as the window reports it.

    Args:
        view: the round's view, or None before the first Deal.

    Returns:
        ``""`` while there is no settled round (None, or the phase is not
        ``Phase.SETTLED``). Once settled, the table word of the player's hand's result
        (``view.seats[0].hands[0].outcome.result.label``: ``"WIN"``, ``"LOSE"``,
        ``"PUSH"``, ``"BUST"``, ``"BLACKJACK"`` ...); at a table with money
        (``view.rules.wagering``) followed by a space and the net gain with its sign,
        as :func:`gui.logic.signed_money` writes it: ``"WIN +10"``, ``"LOSE -1"``, ``"PUSH 0"``.
    """
    # BEGIN SOLUTION m3: the result to report: "" until the round is settled (view.phase is Phase.SETTLED); once it is, the table word (label) of the result of the player's hand (view.seats[0].hands[0].outcome), followed at a table with money (view.rules.wagering) by a space and the net gain as signed_money writes it
    if view is None or view.phase is not Phase.SETTLED:
        return ""
    outcome = view.seats[0].hands[0].outcome
    if outcome is None:  # a settled round settles every hand; kept for the type checker
        return ""
    if view.rules.wagering:
        return f"{outcome.result.label} {signed_money(outcome.net)}"
    return outcome.result.label
    # END SOLUTION


def check_rules(rules: Rules) -> None:
    """Refuse rules that ask the player more than hit or stand before play.

    The shell has no Insurance, No thanks or Surrender button, so a round that offers
    insurance or early surrender could not go on. Double, split and late surrender are
    simply not offered by the shell (the engine lists them; the shell has no button).

    Raises:
        ValueError: ``rules.insurance`` is on or ``rules.surrender`` is ``"early"``; the
            message names the rules and suggests the full table.
    """
    if rules.insurance or rules.surrender == "early":
        offer = "insurance" if rules.insurance else "early surrender"
        raise ValueError(f"the shell has only Deal, Hit and Stand, and the {rules.name} rules offer {offer}: "
                         f"choose rules without it (cs111) or play them at the full table (python -m gui)")


class Shell:
    """The milestone-3 window: a canvas for the cards, and the Deal, Hit and Stand buttons.

    Given: the widgets, :meth:`draw_card`, :meth:`write`, :meth:`set_buttons`,
    :meth:`refresh`, and :meth:`shown` / :meth:`text` to read the canvas back. The
    student writes :meth:`deal`, :meth:`hit`, :meth:`stand`, :meth:`finish_if_settled`
    and :meth:`render`.

    Args:
        root: the Tk root window to build in (its errors in callbacks go to the status label).
        rules: the table rules (default: the course's ``cs111``); see :func:`check_rules`.
        name: the player's name.
        seed: seeds the shoe, so a seed replays the same cards.
        game: a ready table with one player to drive instead (its rules are checked the same way).

    Attributes:
        game: the :class:`~blackjack.Blackjack` table the window drives.
        round: the round on show (still shown once finished), or None before the first Deal.
        canvas: the green table.
        buttons: ``{"deal": ..., "hit": ..., "stand": ...}``, ttk buttons.
        status: the one-line status label under the buttons.
        errors: every error message a button's handler raised, in order (tests read it).

    Raises:
        ValueError: rules the shell cannot play (:func:`check_rules`), or a ``game`` with
            more than one player (the shell shows one).
    """

    def __init__(self, root: tk.Tk, rules: Rules | None = None, *, name: str = "Player", seed: int | None = None,
                 game: Blackjack | None = None) -> None:
        self.game = game if game is not None else Blackjack([name], rules or Rules.preset("cs111"), seed=seed)
        check_rules(self.game.rules)
        if len(self.game.players) != 1:
            raise ValueError(f"the shell shows one player, and this table has {len(self.game.players)}: "
                             f"play them at the full table (python -m gui)")
        self.root = root
        self.round: Round | None = None
        self.errors: list[str] = []
        root.report_callback_exception = self._report_exception
        top = root.winfo_toplevel()
        top.title("Blackjack: the milestone 3 shell")
        self.canvas = tk.Canvas(root, width=WIDTH, height=HEIGHT, background=FELT, highlightthickness=0)
        self.canvas.pack(side="top", fill="both", expand=True)
        self._draw_table()
        bar = ttk.Frame(root, padding=6)
        bar.pack(side="top", fill="x")
        self._refreshes = 0
        self.buttons: dict[str, ttk.Button] = {}
        for key in BUTTON_NAMES:
            button = ttk.Button(bar, text=key.capitalize(), underline=0, command=self._handler(key))
            button.pack(side="left", padx=4)
            self.buttons[key] = button
        # the status line keeps room for three lines, so the window keeps its height whatever the message
        line = tkfont.nametofont("TkDefaultFont", root=root).metrics("linespace")
        holder = ttk.Frame(root, height=3 * line + 10)
        holder.pack_propagate(False)
        holder.pack(side="top", fill="x")
        self.status = ttk.Label(holder, text="Press Deal (D) for a round.", padding=(8, 2, 8, 6), anchor="nw",
                                wraplength=int(WIDTH) - 16)
        self.status.pack(side="top", fill="both", expand=True)
        for key in BUTTON_NAMES:  # a key presses its button, so a disabled button ignores its key too
            top.bind(f"<KeyPress-{key[0]}>", self._presser(key))
        self.set_buttons({"deal": True, "hit": False, "stand": False})
        try:
            self.refresh()
        except Exception as err:  # the student's render(None) failed: say so and keep the window, Deal enabled
            text = (f"the window opened with no round, and render(None) failed: {self._describe(err)}; "
                    f"with no view, render only sets the buttons")
            self.set_buttons({"deal": True, "hit": False, "stand": False})
            self.errors.append(text)
            self.say(text)

    def _handler(self, key: str) -> Callable[[], None]:
        """The command of the button ``key``: the student's handler (``self.deal`` ...), then a word if it drew nothing.

        A handler that returns without :meth:`refresh` leaves the window as it was, the
        status line still asking for the button just pressed; the status line says so instead.
        """
        def command() -> None:
            self._refreshes = 0
            getattr(self, key)()
            if not self._refreshes:
                self.say(f"Shell.{key}() returned without calling self.refresh(), so the window still shows what it "
                         f"showed before: end it with self.refresh()")
        return command

    def _presser(self, key: str) -> Callable[[tk.Event[tk.Misc]], None]:
        """A key binding that presses the button ``key`` (a disabled button does nothing)."""
        def press(_event: tk.Event[tk.Misc]) -> None:
            self.buttons[key].invoke()
        return press

    # ============================================================ given: drawing helpers
    def _draw_table(self) -> None:
        """The fixed labels: the dealer's and the player's row names, and "Total" before each total."""
        font = (FONT_FAMILY, -16, "bold")
        player = self.game.players[0].name
        for name, row, total in (("Dealer", "dealer", "dealer_total"), (player, "player", "player_total")):
            self.canvas.create_text(24, ROWS[row] - 24, text=name, anchor="w", fill="white", font=font,
                                    tags=("static",))
            self.canvas.create_text(24, TEXTS[total][1], text="Total", anchor="w", fill="#b8dcc4",
                                    font=(FONT_FAMILY, -14), tags=("static",))

    def draw_card(self, row: str, index: int, card: Card | Hidden) -> None:
        """Draw one card in a row: face up, or face down for :data:`blackjack.HIDDEN` (the hole card).

        Args:
            row: ``"dealer"`` or ``"player"`` (:data:`ROWS`).
            index: the card's place in the row, 0 for the leftmost.
            card: the card, or ``HIDDEN`` as the view gives the dealer's hole card.

        Raises:
            KeyError: an unknown row.
        """
        if row not in ROWS:
            raise KeyError(f"no row {row!r} on the table: the rows are {' and '.join(map(repr, ROWS))}")
        top = ROWS[row]
        box = Box(24 + index * CARD_STEP, top, CARD_W, CARD_H)
        draw_card(self.canvas, box, card if isinstance(card, Card) else None, tags=(row, "shown"))

    def write(self, place: str, text: str) -> None:
        """Show ``text`` at a named place of the canvas, replacing what was written there.

        Args:
            place: ``"dealer_total"``, ``"player_total"`` or ``"result"`` (:data:`TEXTS`).
            text: what to show.

        Raises:
            KeyError: an unknown place.
        """
        if place not in TEXTS:
            raise KeyError(f"no place {place!r} to write at: the places are {', '.join(map(repr, TEXTS))}")
        x, y = TEXTS[place]
        self.canvas.delete(place)
        big = place == "result"
        font = (FONT_FAMILY, -34 if big else -16, "bold")
        self.canvas.create_text(x, y, text=text, anchor="w", font=font, fill="#ffe066" if big else "white",
                                tags=(place, "shown"))

    def set_buttons(self, states: dict[str, bool]) -> None:
        """Enable each button whose name maps to True, disable the others (names from :data:`BUTTON_NAMES`)."""
        for key, button in self.buttons.items():
            button.state(["!disabled"] if states.get(key, False) else ["disabled"])

    def clear(self) -> None:
        """Take every card and text drawn by :meth:`draw_card` and :meth:`write` off the canvas."""
        self.canvas.delete("shown")

    def view(self) -> TableView | None:
        """The round's view (``self.round.view()``), or None before the first Deal."""
        return None if self.round is None else self.round.view()

    def refresh(self) -> None:
        """Redraw the window for the round as it is now: clear the canvas, :meth:`render` the view, prompt.

        The status line then says which keys do something (from the enabled buttons), or,
        when render left a button disabled that the player needs now (Hit or Stand that
        the engine lists in ``view.legal_actions``; Deal with no round in play), which one.
        A body not written yet (the starter) is named in the status line instead.
        """
        self._refreshes += 1
        self.clear()
        view = self.view()
        try:
            self.render(view)
        except NotImplementedError as err:  # the starter: say what to write instead of drawing nothing
            self.say(unwritten(err))
            self.errors.append(unwritten(err))
            return
        on = self.enabled()
        if view is None or view.phase is Phase.SETTLED:
            off, why = ["deal"], "the round is over" if view else "there is no round yet"
        else:
            off = [key for key, action in (("hit", Action.HIT), ("stand", Action.STAND))
                   if action in view.legal_actions]
            why = f"the engine offers {'them' if len(off) > 1 else 'it'} (view.legal_actions)"
        off = [key for key in off if key not in on]
        if off:
            self.say(f"{' and '.join(key.capitalize() for key in off)} should be enabled, as {why}: "
                     f"render should end with self.set_buttons(button_states(view))")
            return
        moves = " or ".join(f"{key.capitalize()} ({key[0].upper()})" for key in on if key != "deal")
        self.say(f"{moves}?" if moves else "Press Deal (D) for a round." if on else "")

    def say(self, text: str) -> None:
        """Show one line in the status label."""
        self.status.configure(text=text)

    # ============================================================ given: reading the canvas
    def shown(self, row: str) -> list[str]:
        """The cards drawn in a row, left to right: card codes, ``"??"`` for a face-down card.

        >>> shell.shown("dealer")  # doctest: +SKIP
        ['9c', '??']
        """
        cards: dict[str, tuple[float, str]] = {}
        for item in self.canvas.find_withtag(row):
            tags = self.canvas.gettags(item)
            uid = next((t for t in tags if t.startswith("cardid")), None)
            if uid is None or uid in cards:
                continue
            code = next((t[len("card_"):] for t in tags if t.startswith("card_")), "??")
            x = self.canvas.bbox(uid)[0]
            cards[uid] = (x, code)
        return [code for _x, code in sorted(cards.values())]

    def text(self, place: str) -> str:
        """What is written at a place (``"dealer_total"``, ``"player_total"``, ``"result"``), ``""`` if nothing."""
        texts = [self.canvas.itemcget(item, "text")  # type: ignore[no-untyped-call]
                 for item in self.canvas.find_withtag(place)]
        return " ".join(str(t) for t in texts)

    def enabled(self) -> list[str]:
        """The names of the enabled buttons, in :data:`BUTTON_NAMES` order."""
        return [key for key in BUTTON_NAMES if self.buttons[key].instate(["!disabled"])]

    def _report_exception(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        """An error in a button's handler: one line in the status label, never a traceback; the window stays usable.

        A starter stub (``NotImplementedError``) names the function to write; an engine
        error (an illegal action, an empty shoe) shows the engine's message; anything
        else is shown as ``"<Error>: <message>"`` (its traceback goes to the ``gui.shell``
        logger at DEBUG level, which prints nothing unless logging is configured). Both
        name the last line of the student's code in this module the error passed through
        (not the given helpers, :data:`_GIVEN`), e.g.
        ``" (in Shell.finish_if_settled, gui/shell.py:<line>)"``; a stop from outside (the
        grader's time limit, Ctrl-C) names every such line, the outermost first.
        """
        text = self._describe(value)
        self.errors.append(text)
        self.say(text)

    @staticmethod
    def _describe(err: BaseException) -> str:
        """One line for an error a handler or :meth:`render` raised (see :meth:`_report_exception`)."""
        tb = err.__traceback__
        if isinstance(err, NotImplementedError):
            return unwritten(err)
        if isinstance(err, BlackjackError):
            return (str(err).strip().splitlines() or [type(err).__name__])[0] + _where(tb)
        # the traceback only for whoever turns debug logging on: the user sees the one line below
        log.debug("an error in a handler or in render of the shell:\n%s",
                  "".join(traceback.format_exception(type(err), err, tb)))
        # a stop from outside (a time limit, Ctrl-C) lands anywhere in a loop: name every student call it was in
        text = f"{type(err).__name__}: {err}{_where(tb, every=not isinstance(err, Exception))}"
        if isinstance(err, RecursionError):
            text += (": a call that never ends, as a function that calls itself; render must not call "
                     "self.refresh(), which calls render")
        return text

    # ============================================================ student: the handlers
    def deal(self) -> None:
        """Deal button: start a new round through the engine and show it.

        The engine's ``game.start_round()`` opens the round, bets the table minimum at
        a table with money, and deals two cards to the player and two to the dealer (the
        hole card face down). Then the round may already be over (a dealer natural under
        rules with naturals): :meth:`finish_if_settled` records it. Last, :meth:`refresh`.
        """
        # BEGIN SOLUTION m3: start a new round from the game (start_round) and keep it as the round on show; a round can be settled at once (a dealer natural), so finish it if it is; last, redraw the window (refresh)
        self.round = self.game.start_round()
        self.finish_if_settled()
        self.refresh()
        # END SOLUTION

    def hit(self) -> None:
        """Hit button: the player takes a card (``Round.apply(Action.HIT)``), then redraw.

        A bust ends the player's turn, and the engine plays the dealer's turn and
        settles the round itself; :meth:`finish_if_settled` records it; then :meth:`refresh`.
        """
        # BEGIN SOLUTION m3: apply Action.HIT to the round on show (the engine deals the card and, after a bust, plays the dealer and settles), finish the round if that settled it, and redraw the window (refresh)
        if self.round is None:  # no round yet: nothing to hit (the button is disabled then)
            return
        self.round.apply(Action.HIT)
        self.finish_if_settled()
        self.refresh()
        # END SOLUTION

    def stand(self) -> None:
        """Stand button: the player stands (``Round.apply(Action.STAND)``), then redraw.

        Standing ends the player's turn: the engine turns the hole card over, draws for
        the dealer until 17 or more, and settles the round. :meth:`finish_if_settled`
        records it; then :meth:`refresh`.
        """
        # BEGIN SOLUTION m3: apply Action.STAND to the round on show (the engine then reveals the hole card, plays the dealer's hand and settles), finish the round if that settled it, and redraw the window (refresh)
        if self.round is None:  # no round yet: nothing to stand (the button is disabled then)
            return
        self.round.apply(Action.STAND)
        self.finish_if_settled()
        self.refresh()
        # END SOLUTION

    def finish_if_settled(self) -> None:
        """Once the round on show is settled, record it: ``self.game.finish_round()`` (the course's finishRound).

        That adds the round to the player's ledger and puts its cards on the discard
        pile. ``self.round`` keeps the finished round so the window still shows it.
        Nothing happens while the round is being played, or when it was already finished
        (``self.game.round`` is then None).
        """
        # BEGIN SOLUTION m3: once the round on show is settled (its phase is Phase.SETTLED) and the table still holds it as its current round, record it with the table's finish_round (once only: a finished round is no longer the table's)
        if self.round is not None and self.round.phase is Phase.SETTLED and self.game.round is self.round:
            self.game.finish_round()
        # END SOLUTION

    # ============================================================ student: the drawing
    def render(self, view: TableView | None) -> None:
        """Draw the round (the canvas is already cleared): hands, totals, the result; then set the buttons.

        With a view: the dealer's cards (``view.dealer.cards``, the hole card is
        ``HIDDEN`` until revealed) with ``self.draw_card("dealer", i, card)``; the
        player's cards (``view.seats[0].hands[0].cards``) with
        ``self.draw_card("player", i, card)``; ``self.write("dealer_total",
        view.dealer.total_text)`` (the face-up cards only, until the reveal);
        ``self.write("player_total", hand.total_text)``; ``self.write("result",
        round_result(view))``. With or without a view: ``self.set_buttons(button_states(view))``.
        """
        # BEGIN SOLUTION m3: with a view, draw the dealer's cards as the view shows them (the hole card stays face down) in row "dealer" and the cards of the player's hand in row "player" (draw_card), and write the totals (the dealer's and the hand's total_text) at "dealer_total" and "player_total" and round_result at "result"; with or without a view, set the buttons last, from button_states
        if view is not None:
            for i, dealt in enumerate(view.dealer.cards):
                self.draw_card("dealer", i, dealt)
            hand = view.seats[0].hands[0]
            for i, card in enumerate(hand.cards):
                self.draw_card("player", i, card)
            self.write("dealer_total", view.dealer.total_text)
            self.write("player_total", hand.total_text)
            self.write("result", round_result(view))
        self.set_buttons(button_states(view))
        # END SOLUTION


#: The given methods of :class:`Shell`: an error passing through them is named at the student's line that called them.
_GIVEN = frozenset({"Shell.__init__", "Shell._handler", "Shell._presser", "Shell.draw_card", "Shell.write",
                    "Shell.set_buttons", "Shell.clear", "Shell.view", "Shell.refresh", "Shell.say", "Shell.shown",
                    "Shell.text", "Shell.enabled"})


def _where(tb: TracebackType | None, *, every: bool = False) -> str:
    """``" (in <function>, gui/shell.py:<line>)"`` for the innermost frame of the student's code of this module in
    ``tb`` (a function of this module other than the given ones, :data:`_GIVEN`), else ``""``.

    A comprehension or lambda is named by the function that holds it (``Shell.render``, not ``<genexpr>``).
    With ``every``, each such frame from the outermost in, joined by ``", then "`` (for a stop from outside,
    which may land in a function the loop calls rather than in the loop).
    """
    places = []
    for frame, line in traceback.walk_tb(tb):
        name = frame.f_code.co_qualname.split(".<locals>.<")[0]
        if frame.f_code.co_filename == __file__ and frame.f_code.co_qualname.split(".<locals>.")[0] not in _GIVEN:
            places.append(f"{name}, gui/shell.py:{line}")
    if not places:
        return ""
    return f" (in {', then '.join(places) if every else places[-1]})"


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m gui.shell``: rules, name, seed, stacked cards."""
    parser = OneLineParser(prog="python -m gui.shell",
                           description="The milestone 3 shell: one player, Deal, Hit and Stand.")
    parser.add_argument("--rules", default="cs111", metavar="PRESET_OR_FILE",
                        help="a preset or a rules TOML file without insurance or early surrender (default: cs111)")
    parser.add_argument("--name", default="Player", help="the player's name (default: Player)")
    parser.add_argument("--seed", type=int, help="seed the shoe, to replay a session")
    parser.add_argument("--stack", metavar="CARDS",
                        help='cards dealt first, in deal order (player, dealer up, player, hole), e.g. "Th 9c 6d 8s"')
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Open the shell window and run until it is closed.

    Returns:
        The exit status: 0; 2 for bad options (a one-line message); 1 when no window can open or
        the course code the table needs is not written yet (a one-line message naming it).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = Rules.load(args.rules)
        check_rules(rules)
        stack = [card.code for card in parse_cards(args.stack)] if args.stack else []
    except (BlackjackError, ValueError) as err:
        parser.error(str(err))

    def build(root: tk.Tk) -> None:
        shell = Shell(root, rules, name=args.name, seed=args.seed)
        if stack:
            shell.game.shoe.stack(stack)

    return run_window("python -m gui.shell", build)


if __name__ == "__main__":
    sys.exit(main())
