"""The people at the table: :class:`Player` (with a bankroll and a :class:`Ledger`) and the :class:`Dealer`.

The course's ``start_round`` / ``play_round`` / ``finish_round`` live here as thin
steps of the one round state machine in :mod:`blackjack.round`; none of them prints
or reads input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from .actions import Action, Result
from .cards import Card
from .errors import InvalidBetError, quoted
from .events import Outcome
from .hand import Hand
from .money import Money, format_money, to_money
from .rules import Rules

if TYPE_CHECKING:
    from .view import TableView

__all__ = ["MAX_NAME_LENGTH", "Dealer", "Ledger", "Player", "Policy", "RoundInPlay", "check_name", "parse_names"]

#: The longest player name, in characters: a name has to fit a seat on the table and a one-line message.
MAX_NAME_LENGTH = 20


#: A decision function: given what the table shows, return one of ``view.legal_actions``.
Policy = Callable[["TableView"], Action]


@dataclass
class Ledger:
    """One player's session record: money after every round and counts of results.

    Attributes:
        starting: the bankroll at the start of the session, credits.
        bankrolls: the bankroll after each finished round, credits.
        wins: hands won (WIN, BLACKJACK, THUNDERJACK, BLITZ).
        losses: hands lost (LOSE, BUST, SURRENDER).
        pushes: hands pushed.
        blackjacks: naturals and Thunderjacks paid.
        biggest_win: the best net gain of one round, credits (0 before any win).
        biggest_loss: the worst net loss of one round as a positive number, credits.
    """

    starting: Money
    bankrolls: list[Money] = field(default_factory=list)
    wins: int = 0
    losses: int = 0
    pushes: int = 0
    blackjacks: int = 0
    biggest_win: Money = Fraction(0)
    biggest_loss: Money = Fraction(0)

    @property
    def rounds(self) -> int:
        """Rounds recorded."""
        return len(self.bankrolls)

    @property
    def net(self) -> Money:
        """Credits won (positive) or lost (negative) over the session."""
        return (self.bankrolls[-1] if self.bankrolls else self.starting) - self.starting

    def record(self, bankroll: Money, outcomes: Sequence[Outcome], round_net: Money) -> None:
        """Add one finished round: the bankroll after it, its hand outcomes, and its net gain."""
        self.bankrolls.append(bankroll)
        for outcome in outcomes:
            kind = outcome.result.kind
            if kind == "push":
                self.pushes += 1
            elif kind == "win":
                self.wins += 1
            else:
                self.losses += 1
            if outcome.result in (Result.BLACKJACK, Result.THUNDERJACK):
                self.blackjacks += 1
        self.biggest_win = max(self.biggest_win, round_net)
        self.biggest_loss = max(self.biggest_loss, -round_net)

    def summary(self, *, money: bool = True, show: Callable[[Money], str] = format_money) -> str:
        """One line: rounds, hands won/lost/pushed and, with ``money``, bankroll, net and biggest win.

        Args:
            money: include the money figures (False for rules without wagering, e.g. cs111).
            show: writes an amount of credits (the text game's rounds 10/3 to ``3.33…``).
        """
        text = (f"{self.rounds} round{'' if self.rounds == 1 else 's'}; hands won {self.wins}, "
                f"lost {self.losses}, pushed {self.pushes}")
        if not money:
            return text
        now = self.bankrolls[-1] if self.bankrolls else self.starting
        sign = "+" if self.net >= 0 else ""
        return f"{text}; bankroll {show(now)} ({sign}{show(self.net)}); biggest win {show(self.biggest_win)}"


def check_name(name: str) -> str:
    """Return ``name`` without the spaces around it, when it can name a player.

    Raises:
        ValueError: the name is empty, longer than :data:`MAX_NAME_LENGTH` characters, or
            holds a control character (a tab, a newline, a terminal escape).
    """
    name = name.strip()
    if not name:
        raise ValueError("a player needs a name")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"a player's name may have at most {MAX_NAME_LENGTH} characters, got {len(name)}")
    if not name.isprintable():
        raise ValueError(f"a player's name may hold only printable characters, got {quoted(name)}")
    return name


def parse_names(*given: str) -> list[str]:
    """Return the player names of a command line's ``--names``: each argument split at its commas.

    ``parse_names("Ann,Bob")`` and ``parse_names("Ann", "Bob")`` both give ``["Ann", "Bob"]``
    (the text game takes one argument, the Tk table several); empty pieces are dropped and
    each name goes through :func:`check_name`.

    Raises:
        ValueError: a name :func:`check_name` refuses, or no name at all.
    """
    names = [check_name(name) for argument in given for name in argument.split(",") if name.strip()]
    if not names:
        raise ValueError("--names: give at least one name, e.g. --names Ann,Bob")
    return names


class RoundInPlay(Protocol):
    """What a player's turn uses of the round in progress (a :class:`~blackjack.round.Round`)."""

    @property
    def current_player(self) -> Player | None:
        """The player whose decision it is, or None."""

    def apply(self, action: Action) -> object:
        """Take one decision for the seat whose turn it is."""

    def view(self) -> TableView:
        """What the table shows now, the hole card hidden."""


class Player:
    """A player at the table: a name, a bankroll in credits, and a session ledger.

    Args:
        name: shown by front ends; see :func:`check_name`.
        bankroll: starting credits (int, Fraction, Decimal or numeric str; never a float).

    Raises:
        ValueError: a name :func:`check_name` refuses, or a negative bankroll.
    """

    def __init__(self, name: str, bankroll: int | Fraction | str = 1000) -> None:
        self.name = check_name(name)
        self.bankroll: Money = to_money(bankroll)
        if self.bankroll < 0:
            raise ValueError(f"bankroll must not be negative, got {format_money(self.bankroll)}")
        self.ledger = Ledger(starting=self.bankroll)

    def start_round(self, bet: int | Fraction | str, rules: Rules) -> Fraction:
        """Ready the player for a new round and return the stake for it (cs111 ``startRound``).

        With ``rules.wagering`` the bet is checked by :meth:`check_bet`; without it (cs111) the
        stake is a marker of ``rules.min_bet`` (:mod:`blackjack.money_path`).

        Returns:
            The stake as exact ``Money``; the round takes it off the bankroll when it deals.

        Raises:
            InvalidBetError: the bet breaks the table limits or the bankroll (wagering only).
        """
        if not rules.wagering:
            return rules.min_bet
        return self.check_bet(bet, rules)

    def check_bet(self, bet: int | Fraction | str, rules: Rules) -> Fraction:
        """Check a bet against the table limits and the bankroll; return it as exact ``Money``.

        Raises:
            InvalidBetError: the bet is not an exact number, under ``rules.min_bet``, over
                ``rules.max_bet``, or more than the bankroll.
        """
        # BEGIN SOLUTION m2: turn the bet into exact money (to_money) and reject one below rules.min_bet, above rules.max_bet, or above the bankroll; a bet that is not exact money (a float, text that is not a number) is refused too: every refusal is an InvalidBetError whose message says why
        try:
            amount = to_money(bet)
        except TypeError:
            raise InvalidBetError(f"a bet must be an exact number of credits, got {bet!r}", bet) from None
        if amount < rules.min_bet:
            raise InvalidBetError(f"{self.name}: the table minimum is {format_money(rules.min_bet)}, "
                                  f"got {format_money(amount)}", bet)
        if amount > rules.max_bet:
            raise InvalidBetError(f"{self.name}: the table maximum is {format_money(rules.max_bet)}, "
                                  f"got {format_money(amount)}", bet)
        if amount > self.bankroll:
            raise InvalidBetError(f"{self.name}: cannot bet {format_money(amount)} with a bankroll of "
                                  f"{format_money(self.bankroll)}", bet)
        return amount
        # END SOLUTION

    def can_cover(self, rules: Rules) -> bool:
        """True when the bankroll covers the table minimum; otherwise the player sits out."""
        return self.bankroll >= rules.min_bet

    def play_round(self, rnd: RoundInPlay, decide: Policy) -> None:
        """Take this player's decisions in ``rnd`` until the turn passes on (cs111 ``playRound``).

        Args:
            rnd: the round in progress.
            decide: called with ``rnd.view()`` for every decision; returns a legal action.

        Raises:
            IllegalActionError: ``decide`` returned an action that is not legal.
        """
        # BEGIN SOLUTION m1: as long as it is this player's turn, ask decide for an action, giving it the round's view, and apply that action to the round
        while rnd.current_player is self:
            rnd.apply(decide(rnd.view()))
        # END SOLUTION

    def finish_round(self, outcomes: Sequence[Outcome], insurance_net: Money = Fraction(0)) -> Money:
        """Record a finished round in the ledger and return its net gain in credits (cs111 ``finishRound``)."""
        net = sum((o.net for o in outcomes), insurance_net)
        self.ledger.record(self.bankroll, outcomes, net)
        return net

    def __repr__(self) -> str:
        return f"Player({self.name!r}, bankroll={format_money(self.bankroll)})"


class Dealer:
    """The house's hand: the dealer plays by fixed rules and never decides anything.

    Attributes:
        hand: the dealer's cards; the first is the upcard, the second the hole card.
        revealed: the hole card has been turned face up.
    """

    name = "Dealer"

    def __init__(self) -> None:
        self.hand = Hand()
        self.revealed = False

    def start_round(self) -> None:
        """Get ready for a new round: the same hand emptied (its cards already discarded), hole card not revealed."""
        self.hand.clear()
        self.revealed = False

    def should_hit(self, rules: Rules) -> bool:
        """Return True while the dealer must draw: below 17, or on soft 17 when the rules say H17.

        The cs111 dealer "hits until his score is 17 or higher"; casinos differ only on
        soft 17 (``rules.dealer_hits_soft_17``).
        """
        # BEGIN SOLUTION m1: hit below 17; also hit a soft 17 when rules.dealer_hits_soft_17
        score = self.hand.get_score()
        return score < 17 or (score == 17 and rules.dealer_hits_soft_17 and self.hand.is_soft())
        # END SOLUTION

    def play_round(self, draw: Callable[[], Card], rules: Rules) -> None:
        """Draw cards until the rules say stand (cs111 dealer ``playRound``).

        Args:
            draw: deals the next card from the shoe.
            rules: whether the dealer hits soft 17.
        """
        # BEGIN SOLUTION m1: draw cards into the dealer's hand (draw() gives the next one) for as long as should_hit says the dealer must hit
        while self.should_hit(rules):
            self.hand.add_card(draw())
        # END SOLUTION
