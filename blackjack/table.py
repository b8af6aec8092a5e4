"""The table: :class:`Blackjack` seats the players, owns the shoe and the dealer, and runs rounds.

The course's ``Blackjack.playRound`` is :meth:`Blackjack.play_round`: start a round,
let every player decide through a policy, let the dealer play, finish the round.
Front ends that ask a person instead step the same :class:`~blackjack.round.Round`
one decision at a time::

    >>> from blackjack import Blackjack, Rules, Action
    >>> game = Blackjack(["Ann"], Rules.preset("vegas"), seed=7)
    >>> game.shoe.stack(["Th", "9c", "7d", "8s"])   # Ann: T 7; dealer: 9 up, 8 in the hole
    >>> rnd = game.start_round([10])
    >>> rnd.view().seats[0].hands[0].total, sorted(a.value for a in rnd.legal_actions())
    (17, ['double', 'hit', 'stand', 'surrender'])
    >>> events = rnd.apply(Action.STAND)
    >>> [(seat, hand, outcome.result.value, int(outcome.net)) for seat, hand, outcome in game.finish_round()]
    [(0, 0, 'push', 0)]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from .actions import Phase
from .deck import Shoe
from .errors import IllegalActionError, quoted
from .events import Outcome
from .money import Money
from .player import Dealer, Player, Policy
from .round import Listener, Round
from .rules import Rules

# Module constants: on Python 3.11 each Phase.X lookup is slow, and the simulator opens a round for every hand.
_SETTLED, _BETTING = Phase.SETTLED, Phase.BETTING

__all__ = ["Blackjack"]

Bets = Sequence[int | Fraction | str | None] | Mapping[int, int | Fraction | str]


class Blackjack:
    """A blackjack table: players, a dealer, a shoe, the rules, and the house's account.

    Args:
        players: player names or :class:`Player` objects, left to right (1..rules.max_players).
        rules: the table rules (default: the ``vegas`` preset).
        seed: seeds the shoe's random source, so the same seed replays the same game.
        rng: the shoe's random source (give one of seed and rng).
        shoe: a ready shoe (e.g. for tests); by default one is built from ``rules``.
        listeners: called with every event of every round, in order.

    Attributes:
        players: the :class:`Player` list.
        dealer: the :class:`Dealer`.
        shoe: the :class:`Shoe`.
        house_net: the house's total gain over finished rounds, credits. The players'
            bankroll changes and ``house_net`` always sum to zero.
        round: the round in progress, or None.
        rounds_played: rounds finished.
        recycle_rounds: False (the default) makes every round new objects, and a finished
            round stays as it ended, for its view. True (the simulator's) makes :meth:`new_round`
            reset and return the finished ``Round`` object, which is cheaper; between rounds the
            dealer then still holds the last round's cards (they are on the discard pile too).

    Raises:
        ValueError: no players, too many for the rules, or duplicate names.
        TypeError: ``seed`` is not an int (a str or float seed would be hashed or rounded
            by :mod:`random`, so a typed "7" and 7 would replay different games).
    """

    def __init__(self, players: Sequence[str | Player] = ("Player",), rules: Rules | None = None, *,
                 seed: int | None = None, rng: random.Random | None = None, shoe: Shoe | None = None,
                 listeners: Iterable[Listener] = ()) -> None:
        self.rules = rules if rules is not None else Rules.preset("vegas")
        if seed is not None and type(seed) is not int:
            raise TypeError(f"seed must be an int, got {type(seed).__name__} {quoted(seed)}")
        if not players:
            raise ValueError("a table needs at least one player")
        if len(players) > self.rules.max_players:
            raise ValueError(f"the {self.rules.name} table seats at most {self.rules.max_players} players, "
                             f"got {len(players)}")
        self.players = [p if isinstance(p, Player) else Player(p, self.rules.starting_bankroll) for p in players]
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ, got {names}")
        self.shoe = shoe if shoe is not None else Shoe.from_rules(self.rules, rng=rng, seed=seed)
        self.dealer = Dealer()
        self.house_net: Money = 0
        self.round: Round | None = None
        self.rounds_played = 0
        self._listeners = list(listeners)
        self.recycle_rounds = False
        self._spare: Round | None = None  # the last finished round, kept when recycle_rounds is on

    def new_round(self, *, events: bool = True) -> Round:
        """Open a new round in the BETTING phase (finishing a settled previous round first).

        Args:
            events: build event objects; False (with no listeners) is the simulator's
                faster tier, where ``deal()`` and ``apply()`` return ``()``.

        Raises:
            IllegalActionError: a round is still being played.
        """
        if self.round is not None:
            if self.round.phase is _SETTLED:
                self.finish_round()
            elif self.round.phase is not _BETTING:
                raise IllegalActionError("a round is in progress: finish it before starting another", "new round")
        spare = self._spare
        if spare is not None:
            self._spare = None
            if spare._record == (events or bool(self._listeners)):
                spare._restart()
                self.round = spare
                return spare
        self.round = rnd = Round(self.rules, self.shoe, self.players, self.dealer, self._listeners, events=events)
        return rnd

    def start_round(self, bets: Bets | None = None) -> Round:
        """Open a round, place the bets, and deal (cs111 ``startRound`` for every seat).

        Args:
            bets: one bet per seat (``None`` or 0 sits a seat out), or a mapping from
                seat index to bet. By default every player who can cover the table
                minimum bets the minimum; the others sit out.

        Returns:
            The round, past the deal: in INSURANCE, EARLY_SURRENDER, PLAYER_TURN or
            already SETTLED (e.g. a dealer natural).

        Raises:
            InvalidBetError: a bet breaks the table limits or the bankroll, or a mapping's
                key is not a seat number (0 to players - 1); nothing is dealt.
            IllegalActionError: a round is still in progress, or nobody bets.
        """
        rnd = self.new_round()
        if bets is None:
            amounts: dict[int, int | Fraction | str] = {
                i: self.rules.min_bet for i, p in enumerate(self.players) if p.can_cover(self.rules)}
        elif isinstance(bets, Mapping):
            amounts = dict(bets)
        else:
            if len(bets) > len(self.players):
                raise IllegalActionError(f"{len(bets)} bets for {len(self.players)} seats", "bet")
            amounts = {i: b for i, b in enumerate(bets) if b is not None and b != 0}
        for seat, amount in amounts.items():
            rnd.place_bet(seat, amount)
        rnd.deal()
        return rnd

    def finish_round(self, *, record: bool = True) -> list[tuple[int, int, Outcome]]:
        """Record the settled round in every player's ledger and clear the table (cs111 ``finishRound``).

        Args:
            record: add the round to each player's :class:`Ledger`. The simulator passes
                False and keeps its own statistics; bankrolls, ``house_net`` and the
                discards are updated either way.

        Returns:
            Every hand's ``(seat, hand, Outcome)``.

        Raises:
            IllegalActionError: there is no round, or it is not settled yet.
        """
        rnd = self.round
        if rnd is None:
            raise IllegalActionError("no round to finish: start one first", "finish")
        if rnd.phase is not _SETTLED:
            waiting = rnd.current_player
            raise IllegalActionError(
                f"the round is not over: {waiting.name} still has a turn, so let every player play first"
                if waiting is not None else f"the round is not over yet ({rnd.phase.value})", "finish")
        outcomes = rnd.outcomes()
        if record:
            for i, player in enumerate(rnd.players):
                if rnd.bet(i) > 0:
                    player.finish_round([o for s, _, o in outcomes if s == i], rnd.insurance_net(i))
        self.shoe.discard(rnd.cards_on_table())
        if self.recycle_rounds:
            self._spare = rnd  # new_round resets it, and its dealer, for the next round
        else:
            self.dealer = Dealer()  # a fresh dealer: the finished round keeps its own for its view and insurance
        self.house_net += rnd.house_net
        self.rounds_played += 1
        self.round = None
        return outcomes

    def play_round(self, decide: Policy, bets: Bets | None = None) -> list[tuple[int, int, Outcome]]:
        """Play one whole round, every decision taken by ``decide`` (cs111 ``Blackjack.playRound``).

        Args:
            decide: called with the table view for each decision; returns a legal action.
            bets: as for :meth:`start_round`.

        Returns:
            Every hand's ``(seat, hand, Outcome)``.

        Raises:
            IllegalActionError: ``decide`` chose an illegal action (the round stays open).
        """
        # BEGIN SOLUTION m1: start the round with the bets, let each player whose turn it is play it (the player's play_round, with decide) until no player has a turn, and return what finish_round gives
        rnd = self.start_round(bets)
        while rnd.current_player is not None:
            rnd.current_player.play_round(rnd, decide)
        return self.finish_round()
        # END SOLUTION

    def cards_in_play(self) -> int:
        """Cards in the shoe, on the table and in the discards (always ``decks * 52``)."""
        on_table = len(self.round.cards_on_table()) if self.round is not None else 0
        return len(self.shoe) + len(self.shoe.discards) + on_table
