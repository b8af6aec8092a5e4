"""The course's week-1 text game, which the student writes: ``python -m blackjack --rules cs111``.

The course asks for "a simple text based game engine" that deals to 2 players, then N:
show each player's cards, ask hit or stand until the player stands or busts (never ask a
busted player), then show the dealer's play, print who won, and ask whether to play
again. This module is that front end, on top of the engine. The engine never prints or
reads: every function here gets an ``ask`` function (a prompt in, the answer out, like
:func:`input`) and a ``say`` function (one line out, like :func:`print`), so the tests
drive the game with scripted answers and read every line it writes.

The functions to write, and the lines the tests read, are listed in ``milestones/specs/milestone1.md``
(week 1) and ``milestone2.md`` (week 2); the rest of the wording is yours. The given :func:`run` is
the game as ``python -m blackjack --rules cs111`` starts it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from .actions import Action, Phase
from .errors import EmptyShoeError, InvalidBetError, unwritten
from .events import Outcome
from .money import format_money, parse_bet
from .player import Player
from .round import Round
from .rules import Rules
from .table import Blackjack
from .view import DealerView, HandView, TableView

if TYPE_CHECKING:
    from .coach import Coach

__all__ = ["Ask", "HELP", "HINT", "QUIT", "Say", "ask_bet", "ask_hit_or_stand", "ask_move", "dealer_text", "hand_text",
           "mistake_line", "play_game", "play_money_round", "play_round", "play_turn", "result_text", "run",
           "summary_lines", "take_bets"]

Ask = Callable[[str], str]
"""Shows a prompt and returns the answer typed, like :func:`input` (it may raise ``EOFError``)."""

Say = Callable[[str], None]
"""Writes one line, like :func:`print`."""

#: Answers that end the game at any prompt (handled by :func:`run`, not by the student's code).
QUIT = frozenset(("quit", "exit", "q"))

#: Answers that ask for advice on the decision in front of the player (handled by :func:`run`).
HINT = frozenset(("?", "hint"))

#: What ``help`` shows at any prompt of the course game (handled by :func:`run`).
HELP = ("At a hit-or-stand question type h or hit to take a card, s or stand to keep your hand; after a round, "
        "y or n to play again or stop. With money: a whole number of credits at a bet question, and a move by "
        "its name or letter (d double, p split, i insurance, n no). At any prompt: ? or hint (advice for this "
        "decision), help (this text), quit (end the game with a summary).")


class _Quit(Exception):
    """A player typed one of :data:`QUIT`."""


def hand_text(name: str, hand: HandView) -> str:
    """Return one line showing a player's hand: the name, every card, the score, and "bust" when over 21.

    Args:
        name: the player's name, e.g. ``"Ann"``.
        hand: the hand as the table shows it (``rnd.view().seats[i].hands[0]``): ``hand.cards``,
            ``hand.total`` (the score, an ace counted 11 when that fits) and ``hand.is_bust``.

    Returns:
        e.g. ``"Ann: Th 6c (16)"`` or ``"Ann: Th 6c 8d (24) bust"``. Write each card as
        ``str(card)`` (``"Th"``) or ``card.symbol`` (``"10♥"``).
    """
    # BEGIN SOLUTION m1: return one line with the name, every card (str(card)), the score (hand.total), and the word bust when hand.is_bust
    cards = " ".join(str(card) for card in hand.cards)
    return f"{name}: {cards} ({hand.total})" + (" bust" if hand.is_bust else "")
    # END SOLUTION


def dealer_text(dealer: DealerView) -> str:
    """Return one line showing the dealer's hand: "Dealer", the cards, and the score once the hole card is up.

    Args:
        dealer: ``rnd.view().dealer``. Until ``dealer.revealed`` the hole card is
            ``HIDDEN`` (``str()`` gives ``"??"``) and ``dealer.total`` counts the upcard only.

    Returns:
        e.g. ``"Dealer: 9s ??"`` while the hole card is down, ``"Dealer: 9s 7h 5c (21)"``
        after the dealer's play, ``"Dealer: Td 6h 9s (25) bust"`` over 21. Never show the
        hole card or a score that gives it away before ``dealer.revealed``.
    """
    # BEGIN SOLUTION m1: return one line with the word Dealer and every card (str(card); the hidden hole card shows as ??); once dealer.revealed, add the score (dealer.total) and the word bust when it is over 21
    cards = " ".join(str(card) for card in dealer.cards)
    if not dealer.revealed:
        return f"Dealer: {cards}"
    return f"Dealer: {cards} ({dealer.total})" + (" bust" if dealer.total > 21 else "")
    # END SOLUTION


def ask_hit_or_stand(name: str, ask: Ask, say: Say) -> Action:
    """Ask the player ``name`` whether to hit or stand, until the answer is one of those.

    Args:
        name: the player's name; the prompt names the player, e.g. ``"Ann, hit or stand? [h/s] "``.
        ask: shows a prompt and returns the answer.
        say: writes a line, e.g. ``"Please type h or s."`` after any other answer.

    Returns:
        ``Action.HIT`` for ``h`` or ``hit``, ``Action.STAND`` for ``s`` or ``stand`` (any
        case, spaces around ignored). Any other answer is refused with a line, and asked again.
    """
    # BEGIN SOLUTION m1: ask (the prompt names the player) until the answer, stripped and lower-cased, is h or hit (Action.HIT) or s or stand (Action.STAND), and return that action; after any other answer say a line and ask again
    while True:
        answer = ask(f"{name}, hit or stand? [h/s] ").strip().lower()
        if answer in ("h", "hit"):
            return Action.HIT
        if answer in ("s", "stand"):
            return Action.STAND
        say(f"Please type h (hit) or s (stand), not {answer!r}.")
    # END SOLUTION


def play_turn(rnd: Round, ask: Ask, say: Say) -> None:
    """Play the turn of the player whose turn it is: ask hit or stand until the player stands or busts.

    After each hit, show the player's hand again (:func:`hand_text`: the new card, the new
    score, "bust" when over 21). A player who busts is not asked again: the turn passes to
    the next player (``rnd.current_player`` changes), and so does it after a stand.

    Args:
        rnd: the round; ``rnd.current_player`` is the player to ask, ``rnd.turn`` is
            ``(seat, hand)``, ``rnd.apply(action)`` plays an action, ``rnd.view()`` shows the table.
        ask: shows a prompt and returns the answer.
        say: writes a line.
    """
    # BEGIN SOLUTION m1: as long as it is still this player's turn, ask_hit_or_stand and apply the answer to the round; after a hit, say hand_text of the player's hand as the round's view now shows it (the hand of this player's seat)
    player = rnd.current_player
    if player is None or rnd.turn is None:
        return
    seat = rnd.turn[0]
    while rnd.current_player is player:
        action = ask_hit_or_stand(player.name, ask, say)
        rnd.apply(action)
        if action is Action.HIT:
            say(hand_text(player.name, rnd.view().seats[seat].hands[0]))
    # END SOLUTION


def result_text(name: str, outcome: Outcome) -> str:
    """Return the line that says how one player's round ended.

    Args:
        name: the player's name.
        outcome: the hand's outcome; ``outcome.result.kind`` is ``"win"``, ``"loss"`` or ``"push"``.

    Returns:
        The name and one of the words "wins", "loses" or "pushes": ``"Ann wins"``,
        ``"Bob loses"``, ``"Cy pushes"`` (a busted player loses).
    """
    # BEGIN SOLUTION m1: return the name and the word wins, loses or pushes, from outcome.result.kind ("win", "loss" or "push")
    word = {"win": "wins", "loss": "loses", "push": "pushes"}[outcome.result.kind]
    return f"{name} {word}"
    # END SOLUTION


def play_round(game: Blackjack, ask: Ask, say: Say) -> list[tuple[int, int, Outcome]]:
    """Play one round of the course game for every player at ``game``, then the dealer (cs111 ``playRound``).

    In order: start the round (``game.start_round()`` deals two cards to each player and
    the dealer); show every player's hand (:func:`hand_text`) and the dealer's
    (:func:`dealer_text`, hole card hidden); let each player in turn play
    (:func:`play_turn`) while ``rnd.current_player`` is not None; show the dealer's play
    (:func:`dealer_text` once the round is over: the engine has turned the hole card and
    drawn to 17); finish the round (``game.finish_round()``) and say who won
    (:func:`result_text`, one line per player, in seat order).

    Returns:
        What ``game.finish_round()`` returns: ``(seat, hand, Outcome)`` for every hand.
    """
    # BEGIN SOLUTION m1: start the round; say hand_text for every seat and dealer_text (the hole card hidden); play_turn as long as some player still has a turn; say dealer_text again once the dealer has played; finish the round and say result_text for every outcome; return the outcomes
    rnd = game.start_round()
    view = rnd.view()
    for seat in view.seats:
        say(hand_text(seat.name, seat.hands[0]))
    say(dealer_text(view.dealer))
    while rnd.current_player is not None:
        play_turn(rnd, ask, say)
    say(dealer_text(rnd.view().dealer))
    outcomes = game.finish_round()
    for seat_index, _hand, outcome in outcomes:
        say(result_text(game.players[seat_index].name, outcome))
    return outcomes
    # END SOLUTION


def play_game(game: Blackjack, ask: Ask, say: Say) -> int:
    """Play rounds until the players say they do not want another one.

    After each round ask whether to play again (e.g. ``"Play again? [y/n] "``): ``y`` or
    ``yes`` plays another round, ``n`` or ``no`` stops (any case); any other answer is
    refused with a line and asked again.

    Returns:
        The number of rounds played (at least 1).
    """
    # BEGIN SOLUTION m1: play_round, then ask whether to play again until the answer is y/yes (play another) or n/no (stop); return the number of rounds played
    rounds = 0
    while True:
        play_round(game, ask, say)
        rounds += 1
        while True:
            answer = ask("Play again? [y/n] ").strip().lower()
            if answer in ("y", "yes"):
                break
            if answer in ("n", "no"):
                return rounds
            say("Please answer y or n.")
    # END SOLUTION


def ask_bet(player: Player, rules: Rules, ask: Ask, say: Say) -> Fraction:
    """Ask ``player`` for a bet until the answer is one the table takes (week 2: "allow him/her to wager").

    Args:
        player: the player to ask; the prompt names them and shows ``player.bankroll``.
        rules: the table's rules (``rules.min_bet`` and ``rules.max_bet``, the table limits).
        ask: shows a prompt and returns the answer.
        say: writes a line.

    Returns:
        The bet as exact money: a whole number of credits (:func:`~blackjack.money.parse_bet`)
        that your ``Player.check_bet`` accepts (within the table limits and the bankroll). Any
        other answer is refused with a line that gives the reason (the ``InvalidBetError``'s
        message) and asked again.
    """
    # BEGIN SOLUTION m2: ask (the prompt names the player and shows the bankroll) until parse_bet reads the answer as a whole number of credits and player.check_bet accepts it; after a refusal (InvalidBetError) say its reason and ask again; return the bet
    while True:
        answer = ask(f"{player.name}, you have {format_money(player.bankroll)}: your bet "
                     f"({format_money(rules.min_bet)}-{format_money(rules.max_bet)})? ")
        try:
            return player.check_bet(parse_bet(answer), rules)
        except InvalidBetError as err:
            say(f"Not a bet: {err}.")
    # END SOLUTION


def take_bets(game: Blackjack, ask: Ask, say: Say) -> dict[int, Fraction]:
    """Take the round's bets: every player who can cover the table minimum is asked, in seat order.

    A player who cannot (``player.can_cover(game.rules)`` is False) sits the round out: one
    line names them and says so, and they are not asked.

    Returns:
        Seat number -> bet (:func:`ask_bet`), for ``game.start_round(bets)``; empty when nobody can bet.
    """
    # BEGIN SOLUTION m2: for each player in seat order, ask_bet when the player's bankroll covers the table minimum (can_cover), else say a line naming the player that says they sit out; return the bets by seat number
    bets = {}
    for seat, player in enumerate(game.players):
        if player.can_cover(game.rules):
            bets[seat] = ask_bet(player, game.rules, ask, say)
        else:
            say(f"{player.name} has {format_money(player.bankroll)}, less than the table minimum of "
                f"{format_money(game.rules.min_bet)}, and sits this round out.")
    return bets
    # END SOLUTION


def ask_move(name: str, offered: Collection[Action], ask: Ask, say: Say) -> Action:
    """Ask the player ``name`` for one of the moves the round offers now, until the answer is one of them.

    Args:
        name: who is asked, e.g. ``"Ann"`` or ``"Ann (hand 2)"``; the prompt names them.
        offered: ``rnd.legal_actions()``: the moves your rules allow now (hit, stand, and double
            and split where your ``why_not_double``/``why_not_split`` allow them; insurance and
            decline while insurance is offered). The prompt lists every one of them, and no other.
        ask: shows a prompt and returns the answer.
        say: writes a line.

    Returns:
        The :class:`~blackjack.actions.Action` the answer names (``Action.parse``: its name or its
        letter, h s d p r i, and n or no to decline, any case). An answer that names no move, or
        a move not offered, is refused with a line and asked again.
    """
    # BEGIN SOLUTION m2: ask (the prompt names the player and lists every move offered, in Action order, e.g. by its label) until Action.parse reads the answer as one of the moves offered; after any other answer say a line and ask again; return the action
    moves = [action for action in Action if action in offered]
    while True:
        answer = ask(f"{name}: {', '.join(action.label for action in moves)}? ")
        try:
            action = Action.parse(answer)
        except ValueError:
            action = None
        if action in moves:
            return action
        say(f"Please type one of {', '.join(action.value for action in moves)}.")
    # END SOLUTION


def play_money_round(game: Blackjack, ask: Ask, say: Say) -> list[tuple[int, int, Outcome]]:
    """Play one round with money (week 2: "Give each player a bankroll ... then allow him/her to wager").

    In order: take the bets (:func:`take_bets`) and start the round with them
    (``game.start_round(bets)``: your ``take_stake`` takes each bet from the bankroll at the
    deal); show every betting player's hand with its bet, and the dealer's (hole card
    hidden); while the round has a decision (``rnd.turn``, ``(seat, hand)``), show a split
    hand when the turn moves to it, ask its player for a move from
    ``rnd.legal_actions()`` (:func:`ask_move`: the insurance offer, then hit, stand, double
    down, split ... as your rules allow) and apply it, showing the hand again after a move
    that deals it a card; then show the dealer's play, finish the round
    (``game.finish_round()``), say each hand's result with its net (signed, exact), each
    insurance bet's net (``rnd.insurance_net(seat)``) and every player's bankroll.

    Returns:
        What ``game.finish_round()`` returns: ``(seat, hand, Outcome)`` for every hand.
    """
    # BEGIN SOLUTION m2: start the round with take_bets' bets; say hand_text and the bet of every betting seat's hand, and dealer_text; as long as the round has a turn: say a split hand when the turn moves to it, ask_move from rnd.legal_actions() and apply it, saying the hand again after a move that adds a card; say dealer_text; finish the round; say result_text and the signed net of every outcome, and of every insurance bet (rnd.insurance_net), then every player's bankroll
    rnd = game.start_round(take_bets(game, ask, say))

    def who(table: TableView, seat: int, hand: int) -> str:
        view = table.seats[seat]
        return view.name if len(view.hands) == 1 else f"{view.name} (hand {hand + 1})"

    def shown(table: TableView, seat: int, hand: int) -> str:
        shown = table.seats[seat].hands[hand]
        return f"{hand_text(who(table, seat, hand), shown)}, bet {format_money(shown.bet)}"

    table = rnd.view()  # one snapshot per state of the round: built again only after a move
    for view in table.seats:
        if view.hands:
            say(shown(table, view.index, 0))
    say(dealer_text(table.dealer))
    last: tuple[int, int] | None = None
    while rnd.turn is not None:
        seat, hand = turn = rnd.turn
        if turn != last and hand > 0 and rnd.phase is Phase.PLAYER_TURN:  # a split hand: the deal showed the first
            say(shown(table, seat, hand))
        last = turn
        cards = table.seats[seat].hands[hand].cards
        rnd.apply(ask_move(who(table, seat, hand), rnd.legal_actions(), ask, say))
        table = rnd.view()
        if table.seats[seat].hands[hand].cards != cards:
            say(shown(table, seat, hand))
    say(dealer_text(table.dealer))  # the dealer has played
    outcomes = game.finish_round()
    table = rnd.view()
    def signed(net: Fraction | int) -> str:
        return ("+" if net > 0 else "") + format_money(net)

    for seat, hand, outcome in outcomes:
        say(f"{result_text(who(table, seat, hand), outcome)} ({signed(outcome.net)})")
    for view in table.seats:
        if view.insurance:
            say(f"{view.name}'s insurance: {signed(rnd.insurance_net(view.index))}")
    say("Bankrolls: " + ", ".join(f"{player.name} {format_money(player.bankroll)}" for player in game.players))
    return outcomes
    # END SOLUTION


def run(game: Blackjack, ask: Ask, say: Say, *, rounds: int | None = None) -> int:
    """Run the course game as ``python -m blackjack --rules cs111`` does (given code, not the student's).

    At any prompt, before the student's code sees the answer: ``quit`` ends the game;
    ``help`` shows :data:`HELP` and ``?`` or ``hint`` the hint for the decision in front of
    the player (:meth:`.Coach.hint_text`: one line saying why not where week 2's hints are a
    stub or fail), and the question is asked again. The game ends with the session summary
    (:func:`summary_lines`) when the rounds are played, at the end of input and at ``quit``.
    At a table with money (``--bankroll``) the rounds are week 2's :func:`play_money_round`,
    until the players say no or nobody can cover the table minimum.

    Args:
        game: the table, its players named and its shoe ready (``--stack`` cards on top).
        ask: reads an answer; ``EOFError`` at the end of input ends the game.
        say: writes a line.
        rounds: play exactly this many rounds with :func:`play_round`, without asking
            again (``--rounds``); None plays :func:`play_game`.

    Returns:
        The exit status: 0, or 1 when the game stopped on a mistake: the shoe ran out of
        cards in mid-round, ``say`` was given something that is not a str, or a course
        function raised. A mistake is one line, ``Stopped: <exception>: <text> (in
        <function>, <file>:<line>)``, naming the course function's line, not a traceback.

    Raises:
        NotImplementedError: a course function is still a starter stub; the command
            line turns it into one "... is not written yet" line.
    """
    coaches: list[Coach] = []  # made at the first hint: it loads the hint library

    def hinting() -> str:
        rnd = game.round
        if rnd is None or rnd.turn is None:
            return "No decision is waiting: a hint is for a hit-or-stand question."
        try:
            if not coaches:
                from .coach import Coach
                coaches.append(Coach(game.rules, tips=False))
            return coaches[0].hint_text(rnd.view())
        except NotImplementedError as err:  # a week-1 starter: the hints build on week 2's code
            return f"No hint: hints build on week 2's code, and {unwritten(err)}"
        except Exception as err:  # a mistake in the hints' course code: one line, and the game goes on
            return f"No hint: {mistake_line(err)}"

    def asking(prompt: str) -> str:
        while True:
            answer = ask(prompt)
            word = answer.strip().lower()
            if word in QUIT:
                raise _Quit
            if word == "help":
                say(HELP)
            elif word in HINT:
                say(hinting())
            else:
                return answer

    def saying(line: str) -> None:
        if not isinstance(line, str):
            raise _NotALine(f"say() was given {line!r}, not a line of text (a str): does the function that makes "
                            f"the line return it?")
        say(line)

    names = ", ".join(player.name for player in game.players)
    say(f"The course's blackjack: {names} against the dealer. {'Bet, then play' if game.rules.wagering else 'Hit or stand'}"
        "; ? for a hint, help for help, quit to stop.")
    try:
        if game.rules.wagering:
            _money_game(game, asking, saying, rounds)
        elif rounds is None:
            play_game(game, asking, saying)
        else:
            for _ in range(rounds):
                play_round(game, asking, saying)
    except EOFError:
        say("Input ended.")
    except _Quit:
        say("Quitting.")
    except EmptyShoeError as err:
        say(f"Stopped: {err}. (Check that every card dealt goes into a hand.)")
        return 1
    except NotImplementedError:
        raise
    except Exception as err:  # a mistake in a course function: one line where it happened, not a traceback
        say(f"Stopped: {mistake_line(err)}")
        return 1
    finally:
        for coach in coaches:
            coach.close()
    return _summarize(game, saying, say)


def _money_game(game: Blackjack, ask: Ask, say: Say, rounds: int | None) -> None:
    """:func:`play_money_round` until ``rounds`` are played (None: until the players say no) or nobody can bet."""
    played = 0
    while rounds is None or played < rounds:
        if not any(player.can_cover(game.rules) for player in game.players):
            say("Nobody can cover the table minimum: the game is over.")
            return
        play_money_round(game, ask, say)
        played += 1
        while rounds is None:
            again = ask("Another round? [y/n] ").strip().lower()
            if again in ("n", "no"):
                return
            if again in ("y", "yes"):
                break
            say("Please type y (another round) or n (stop).")


def _summarize(game: Blackjack, saying: Say, say: Say) -> int:
    """Say :func:`summary_lines` (while a stub, the rounds played) at the end of :func:`run`; return run's status."""
    played = game.rounds_played
    try:
        lines = summary_lines(game)
        if not isinstance(lines, list):
            raise _NotALine(f"summary_lines() returned {lines!r}, not a list of lines (str): is a return missing?")
        for line in lines:
            saying(line)
    except NotImplementedError as err:  # week 2's summary in a week-1 starter: the game itself is done
        say(f"Session summary: {played} round{'' if played == 1 else 's'} played.")
        say(f"  ({unwritten(err)})")
    except Exception as err:  # a mistake in summary_lines: one line where it happened, not a traceback
        say(f"Stopped: {mistake_line(err)}")
        return 1
    if game.round is not None:
        say("  (The round in play when the game stopped is not counted.)")
    return 0


def summary_lines(game: Blackjack) -> list[str]:
    """Return the session summary the game says when play ends: rounds played, then one line per player.

    The course: "see how much you win/lose over 10 rounds". Read everything from the
    table's records, which ``game.finish_round()`` fills: ``game.rounds_played`` (rounds
    finished), ``game.players`` (in seat order), and each player's ledger,
    ``player.ledger`` (a :class:`~blackjack.player.Ledger`): ``ledger.rounds`` (the
    rounds this player played: one who sat a round out has fewer), ``ledger.wins``,
    ``ledger.losses`` and ``ledger.pushes`` (hands won, lost and pushed; a bust and a
    surrender are losses, a natural is a win) and ``ledger.net`` (credits won, negative
    when lost; exact money, 0 at a table without money such as cs111's).

    Args:
        game: the table the game was played at.

    Returns:
        A list of lines (str), never printed here: first a line that starts with
        ``Session summary`` and gives the rounds played (``"Session summary: 10 rounds
        played."``); then one line per player, in seat order, holding the player's name
        and five numbers in this order: rounds played, hands won, lost, pushed, and the
        net in credits, exact and with its sign (``+7.5``, ``-10``, ``0``;
        :func:`~blackjack.money.format_money` writes an amount exactly). Name the columns
        on a header line of their own, not on a player's line: a line holding a player's
        name and a word such as "won" or "lost" reads as that player's result in the
        week-1 tests. E.g.::

            Session summary: 2 rounds played.
              player  rounds  won  lost  pushed  net
              Ann          2    1     0       1  +10
              Bob          2    0     2       0  -20
    """
    # BEGIN SOLUTION m2: return the summary's lines: first "Session summary" with the rounds the game played, then a header naming the columns, then one line per player (seat order) with the name and the player's rounds, hands won, lost and pushed, and net (exact, signed), all read from the player's ledger
    played = game.rounds_played
    lines = [f"Session summary: {played} round{'' if played == 1 else 's'} played."]
    width = max(len("player"), *(len(player.name) for player in game.players))
    lines.append(f"  {'player':<{width}}  rounds  won  lost  pushed  net")
    for player in game.players:
        ledger = player.ledger
        net = ledger.net
        signed = ("+" if net > 0 else "") + format_money(net)
        lines.append(f"  {player.name:<{width}}  {ledger.rounds:>6}  {ledger.wins:>3}  {ledger.losses:>4}  "
                     f"{ledger.pushes:>6}  {signed}")
    return lines
    # END SOLUTION


class _NotALine(TypeError):
    """A course function passed ``say`` something that is not a str."""


def mistake_line(err: Exception) -> str:
    """One line for an exception from a course function (or any code of the ``blackjack`` package).

    ``"TypeError: apply() takes an Action, not str (in Round.apply, blackjack/round.py:352,
    called from play_turn, blackjack/course_game.py:131)"``: the deepest frame in the
    package, and the deepest course function's frame when that is another (frames of
    :func:`run` and :func:`_summarize` themselves are left out). A :class:`_NotALine` is named by its message alone.
    """
    package = Path(__file__).resolve().parent
    frames: list[tuple[str, str, int]] = []
    tb = err.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        path = Path(code.co_filename).resolve()
        name = code.co_qualname
        if path.is_relative_to(package) and not (path == Path(__file__).resolve()
                                                and (name in ("run", "_summarize")
                                                     or name.startswith("run.<locals>."))):
            frames.append((name, "/".join(("blackjack", *path.relative_to(package).parts)), tb.tb_lineno))
        tb = tb.tb_next
    text = str(err) if isinstance(err, _NotALine) else f"{type(err).__name__}: {err}"
    if not frames:
        return text
    deepest = frames[-1]
    yours = next((f for f in reversed(frames) if f[1] == "blackjack/course_game.py"), deepest)
    where = f"{deepest[0]}, {deepest[1]}:{deepest[2]}"
    if yours != deepest:
        where += f", called from {yours[0]}, {yours[1]}:{yours[2]}"
    return f"{text} (in {where})"
