"""The terminal game: people play the engine's rounds by typing at prompts.

:class:`TextGame` reads answers from one stream and writes to another, so tests and
teachers drive it with piped input. It renders the engine's views and events (see
:mod:`blackjack.text_render`) and sends the engine one action at a time; it knows
no rule of its own: the menu is ``round.legal_actions()``, and whatever the engine
rejects is shown as one line and asked again. End of input ends the game with a
summary, never a traceback.

Commands at any prompt: ``?``/``hint``, ``count``, ``chart``, ``stats``, ``help``, ``quit``.

Text is wrapped to :func:`terminal_width`; card drawings and the strategy chart are built to fit
it instead. Widths are counted with ``len()``: every character the game writes is one cell wide
(the suits, box drawing, ``…``), except player and rules names, which may hold wide characters.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

from .actions import Action, Phase
from .errors import BlackjackError, EmptyShoeError, quoted, unwritten
from .events import Event, HandSettled
from .money import parse_bet
from .round import Round
from .table import Blackjack
from .view import TableView
from .text_render import action_menu, announced, describe_event, money_text, table_text
from . import coach

__all__ = ["MIN_WIDTH", "QUIT_WORDS", "Console", "QuitGame", "TextGame", "TextOptions", "is_terminal",
           "terminal_width"]

#: The help text: one paragraph per line, wrapped to the terminal when shown.
HELP = ("Commands: a move by its letter or name (h, hit, s, stand, d, double, p, split, r, surrender, "
        "i, insurance (i 2 insures 2 whole credits; i alone insures half the bet), n, no), or ? / hint "
        "(advice for this decision), count (the running and true count), chart (the basic-strategy chart "
        "for these rules), stats (each player's session ledger), help (this text), quit (end the game with "
        "a summary).\n"
        "At a bet prompt, Enter repeats your last bet.")

#: The narrowest width the game wraps to: a narrower ``COLUMNS`` or terminal is taken as this wide.
MIN_WIDTH = 20

#: Columns a wrapped prompt leaves free on its last line for the answer.
ANSWER_ROOM = 10

#: Answers that end the game (or the drill) at any prompt.
QUIT_WORDS = frozenset(("quit", "exit", "q"))


class QuitGame(Exception):
    """Raised inside the game loop when a player types ``quit``."""


class Console:
    """Line-based input and output over two text streams.

    Args:
        stdin: where answers come from (a terminal, a pipe or a StringIO).
        stdout: where everything is written.
        echo: repeat each answer after its prompt; on by default when ``stdin`` is not
            a terminal, so a piped game's transcript reads like a played one.
        width: wrap what is said to this many columns (at least :data:`MIN_WIDTH`); None does not wrap.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, *, echo: bool | None = None, width: int | None = None) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.echo = (not is_terminal(stdin)) if echo is None else echo
        self.width = None if width is None else max(width, MIN_WIDTH)

    def say(self, text: str = "") -> None:
        """Write one or more lines, each wrapped to :attr:`width` (:meth:`wrap`)."""
        self.stdout.write("\n".join(self.wrap(text)) + "\n")
        self.stdout.flush()

    def wrap(self, text: str) -> list[str]:
        """Return the lines that ``text`` (one or more lines) is written as: none wider than :attr:`width`.

        A line that fits is kept exactly; one too wide is broken between words (a word wider
        than the line is cut), its continuation lines indented two spaces more than itself.
        """
        lines = text.split("\n")
        width = self.width
        if width is None:
            return lines
        out: list[str] = []
        for line in lines:
            if len(line) <= width:
                out.append(line)
                continue
            body = line.lstrip(" ")
            indent = " " * min(len(line) - len(body), width // 2)
            out.extend(textwrap.wrap(body, width, initial_indent=indent, subsequent_indent=indent + "  ",
                                     break_on_hyphens=False) or [""])
        return out

    def _fit_prompt(self, prompt: str) -> str:
        """``prompt`` as written: wrapped, when too wide, so that its last line leaves :data:`ANSWER_ROOM` columns."""
        width = self.width
        if width is None or len(prompt) <= width - ANSWER_ROOM:
            return prompt
        lines = textwrap.wrap(prompt, width - ANSWER_ROOM, subsequent_indent="  ", break_on_hyphens=False)
        return "\n".join(lines) + (" " if prompt.endswith(" ") else "")

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the next line, stripped.

        A line holding U+FFFD (bytes not in the input's encoding, as :func:`blackjack.__main__.main`
        reads stdin) gets a one-line message and the prompt again.

        Raises:
            EOFError: the input has ended, or a strict stream met bytes it cannot decode, or its
                decoder cannot start (UTF-16 without a byte-order mark), after a one-line message.
        """
        prompt = self._fit_prompt(prompt)
        while True:
            self.stdout.write(prompt)
            self.stdout.flush()
            try:
                line = self.stdin.readline()
            except UnicodeError as err:
                self.stdout.write("\n")
                reason = err.reason if isinstance(err, UnicodeDecodeError) else str(err)
                self.say(f"The input is not {self.encoding} text ({reason}); it cannot be read on.")
                raise EOFError from None
            if not line:
                self.stdout.write("\n")
                raise EOFError
            answer = line.strip()
            if self.echo:
                self.stdout.write(answer + "\n")
            if "\ufffd" not in answer:
                return answer
            self.say(f"That line is not {self.encoding} text (a byte could not be read); please type it again.")

    @property
    def encoding(self) -> str:
        """The input's encoding as its stream names it (``"utf-8"`` for a stream that names none)."""
        return getattr(self.stdin, "encoding", None) or "utf-8"


def terminal_width(stream: TextIO, environ: Mapping[str, str] | None = None) -> int | None:
    """The width, in columns, the game wraps its output ``stream`` to; None for no wrapping.

    ``COLUMNS`` in ``environ`` (default ``os.environ``) decides when it holds a positive whole
    number, whatever the output is; otherwise a terminal's own width when ``stream`` is one;
    otherwise (a pipe, a file, a StringIO) None: a log is not wrapped.
    """
    columns = (os.environ if environ is None else environ).get("COLUMNS", "").strip()
    if columns.isdecimal() and columns.isascii() and int(columns) > 0:
        return int(columns)
    if not is_terminal(stream):
        return None
    try:
        width = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):  # no file descriptor, or not a real terminal after all
        return None
    return width if width > 0 else None


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is an interactive terminal (False for pipes, files and StringIO)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True)
class TextOptions:
    """How the text game looks and runs.

    Attributes:
        plain: one line per hand, no card drawings (screen readers, logs).
        unicode: draw suit symbols and box lines; False for ASCII only.
        rounds: play exactly this many rounds without asking; None asks after each.
        auto_hint: show the hint before every decision and judge every move (trainer mode).
        tips: show a tip the first time a situation comes up (first ace, first pair ...).
        counting: the counting system of the ``count`` command.
    """

    plain: bool = False
    unicode: bool = True
    rounds: int | None = None
    auto_hint: bool = False
    tips: bool = True
    counting: str = "hi_lo"


class TextGame:
    """Play rounds of ``game`` at a terminal.

    Args:
        game: the table, with its players, rules and shoe.
        console: the input and output streams.
        options: display and pacing options.
    """

    def __init__(self, game: Blackjack, console: Console, options: TextOptions = TextOptions()) -> None:
        self.game = game
        self.console = console
        self.options = options
        self._last_bets: dict[int, str] = {}
        self._coach = coach.Coach(game.rules, counting=options.counting, tips=options.tips, width=console.width)

    # ------------------------------------------------------------------ the session
    def run(self) -> int:
        """Play until the players stop, the rounds run out, or input ends.

        Returns:
            The exit status: 0, or 1 when the shoe ran out of cards in mid-round (only broken course code does that).
        """
        say = self.console.say
        rules = self.game.rules
        say(f"Blackjack Kit: {rules.name} rules ({rules.summary()}). Type help for commands.")
        try:
            played = 0
            while self._play_round():
                played += 1
                if self.options.rounds is not None:
                    if played >= self.options.rounds:
                        break
                elif not self._ask_yes_no("Play another round? [y/n] "):
                    break
        except EOFError:
            say("Input ended.")
        except QuitGame:
            say("Quitting.")
        except EmptyShoeError as err:
            say(f"Stopped: {err}; every card is on the table, so this round cannot be finished and its bets "
                "are not settled. (Writing the course code? Check that every card drawn goes into a hand.)")
            return 1
        finally:
            self._coach.close()
        self._abandon_open_round()
        say(self._summary())
        return 0

    def _play_round(self) -> bool:
        """Play one round; return False when nobody can bet."""
        rnd = self.game.new_round()
        if not self._take_bets(rnd):
            return False
        events = rnd.deal()
        view = rnd.view()  # one snapshot per state of the round: built again only after a move the round took
        self._show_events(view, events, opening=True)
        shown: tuple[object, ...] = ()
        while view.turn is not None:
            now = (view.turn, len(view.seats[view.turn[0]].hands))  # redraw when the turn moves or a split adds a hand
            if now != shown:
                self.console.say(table_text(view, unicode=self.options.unicode, plain=self.options.plain,
                                            width=self.console.width))
                shown = now
            view = self._decide(rnd, view)
        insurance = {i: rnd.insurance_net(i) for i in range(len(self.game.players))}
        self.console.say("Results:\n" + table_text(view, unicode=self.options.unicode, plain=True,
                                                    insurance=insurance, width=self.console.width))
        self.game.finish_round()
        if self.game.rules.wagering:
            self.console.say("Bankrolls: " + ", ".join(
                f"{p.name} {self._money(p.bankroll)}" for p in self.game.players))
        if self.game.shoe.cut_card_reached and not self.game.rules.reshuffle_every_round:
            self.console.say("The cut card is out: the shoe will be shuffled before the next round.")
        return True

    def _take_bets(self, rnd: Round) -> bool:
        rules = self.game.rules
        able = [i for i, p in enumerate(self.game.players) if p.can_cover(rules)]
        for i, player in enumerate(self.game.players):
            if i not in able:
                self.console.say(f"{player.name} cannot cover the table minimum of "
                                 f"{self._money(rules.min_bet)} and sits out.")
        if not able:
            self.console.say("Nobody can cover the table minimum. The game is over.")
            return False
        for i in able:
            if not rules.wagering:
                rnd.place_bet(i, rules.min_bet)
                continue
            player = self.game.players[i]
            default = self._last_bets.get(i, self._money(rules.min_bet))
            limit = min(rules.max_bet, Fraction(math.floor(player.bankroll)))  # bets are whole: 7.5 covers 7
            while True:
                answer = self.ask(f"{player.name}, your bet ({self._money(rules.min_bet)}-{self._money(limit)}, "
                                  f"Enter = {default}): ", rnd)
                if answer is None:
                    continue
                text = answer or default
                try:
                    rnd.place_bet(i, parse_bet(text))
                except BlackjackError as err:
                    self.console.say(str(err))
                    continue
                self._last_bets[i] = text
                break
        return True

    def _decide(self, rnd: Round, view: TableView) -> TableView:
        """Ask for one decision on ``view`` (``rnd``'s state now) and apply it; return the round's view after it."""
        seat = view.current_seat
        hand = view.current_hand
        assert seat is not None and hand is not None and view.turn is not None
        if view.phase is Phase.INSURANCE:
            even = view.even_money
            question = "Even money" if even else "Insurance"
            menu = action_menu(view.legal_actions, even_money=even)
            if view.insurance_limit is None:  # no credits left to stake
                prompt = f"Dealer shows an ace. {seat.name} has no credits left for {question.lower()}. {menu}: "
            else:
                prompt = (f"Dealer shows an ace. {seat.name}, {question.lower()} (up to "
                          f"{self._money(view.insurance_limit)}; 'i 2' for less)? {menu}: ")
        elif view.phase is Phase.EARLY_SURRENDER:
            prompt = f"{seat.name}, surrender before the dealer checks for blackjack? {action_menu(view.legal_actions)}: "
        else:
            which = f" hand {view.turn[1] + 1}" if len(seat.hands) > 1 else ""
            prompt = f"{seat.name}{which} ({hand.total_text}): {action_menu(view.legal_actions)}: "
        self._coach.prepare(view)  # the exact EVs, worked out while the player reads the table
        for tip in self._coach.new_tips(view):
            self.console.say(tip)
        if self.options.auto_hint:
            self.console.say(self._coach.hint_text(view))
        answer = self.ask(prompt, view=view)
        while answer == "":  # Enter alone: ask again at once; the view, tips and table have not changed
            self.console.say("Please type a move: " + action_menu(view.legal_actions))
            answer = self.ask(prompt, view=view)
        if answer is None:
            return view
        word, _, rest = answer.partition(" ")
        amount = rest.strip()
        try:
            action = Action.parse(word)
        except ValueError:
            self.console.say(f"Unknown move {quoted(answer)}: type one of {action_menu(view.legal_actions)}, or help.")
            return view
        if amount and action is not Action.INSURANCE:
            self.console.say(f"One move at a time: {quoted(answer)} has more after {quoted(word)}. "
                             f"Type one of {action_menu(view.legal_actions)}.")
            return view
        stake: Fraction | None = None
        if amount:
            try:
                stake = parse_bet(amount, what="insurance stake")
            except BlackjackError as err:
                self.console.say(f"{err} ('i' alone stakes the most allowed).")
                return view
        feedback = self._coach.judge(view, action) if self.options.auto_hint else None
        try:
            events = rnd.apply(action, stake) if action is Action.INSURANCE else rnd.apply(action)
        except EmptyShoeError:
            raise  # not a bad move: the round cannot go on
        except BlackjackError as err:
            self.console.say(str(err))
            return view  # the round refused the move and changed nothing
        if feedback:
            self.console.say(feedback)
        view = rnd.view()
        self._show_events(view, events)
        return view

    # ------------------------------------------------------------------ prompts
    def ask(self, prompt: str, rnd: Round | None = None, *, view: TableView | None = None) -> str | None:
        """Ask a question; answer the game commands here and return None after one, else the answer.

        Hint, count and chart read ``view`` when given, else ``rnd.view()``.

        Raises:
            EOFError: input ended.
            QuitGame: the player typed quit.
        """
        answer = self.console.ask(prompt)
        word = answer.lower()
        if word in QUIT_WORDS:
            raise QuitGame
        if word == "help":
            self.console.say(HELP)
            return None
        if word == "stats":
            self.console.say(self._summary())
            return None
        if word in ("?", "hint", "count", "chart"):
            if view is None and rnd is not None:
                view = rnd.view()
            try:
                self.console.say(self._coach.command(word, view))
            except NotImplementedError as err:  # a student's starter: hints build on later milestones' code
                self.console.say(f"{word} needs code that is not written yet: {unwritten(err)}")
            return None
        return answer

    def _ask_yes_no(self, prompt: str) -> bool:
        while True:
            answer = self.ask(prompt, None)
            if answer is None:
                continue
            word = answer.lower()
            if word in ("y", "yes"):
                return True
            if word in ("n", "no"):
                return False
            self.console.say("Please answer y or n.")

    # ------------------------------------------------------------------ output
    def _show_events(self, view: TableView, events: Sequence[Event], *, opening: bool = False) -> None:
        for event in events:
            if isinstance(event, HandSettled) and view.phase is Phase.SETTLED and not announced(event, view):
                continue  # the results table at the end of the round shows these
            line = describe_event(event, view, unicode=self.options.unicode, opening=opening)
            if line:
                self.console.say(line)

    def _summary(self) -> str:
        lines = ["Session summary:"]
        wagering = self.game.rules.wagering
        for player in self.game.players:
            lines.append(f"  {player.name}: {player.ledger.summary(money=wagering, show=self._money)}")
        if wagering:
            house = self.game.house_net
            lines.append(f"  House: {'+' if house >= 0 else ''}{self._money(house)}")
        return "\n".join(lines)

    def _money(self, amount: Fraction | int) -> str:
        return money_text(amount, self.options.unicode)

    def _abandon_open_round(self) -> None:
        """Input ended mid-round: play the rest of it by standing, so every bet is settled and recorded."""
        rnd = self.game.round
        if rnd is None:
            return
        if rnd.phase is Phase.BETTING:
            self.game.round = None
            return
        while rnd.turn is not None:
            legal = rnd.legal_actions()
            rnd.apply(Action.DECLINE if Action.DECLINE in legal else Action.STAND)
        self.game.finish_round()
        self.console.say("The open round was finished by standing on every hand.")
