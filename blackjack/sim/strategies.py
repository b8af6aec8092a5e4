"""Playing strategies for the simulator, built once per rules and asked once per decision.

:data:`BUILTIN` names the built-in ones and ``module:function`` a user's policy (docs/simulator.md,
"Strategies", tells how each plays). Every strategy declines insurance and even money and bets one unit, except
``hi-lo`` (by the count) and a user policy (which is asked).

The decision interface is internal and fast: ``decide(hand, upcard, rnd, tc)`` gets the
live :class:`~blackjack.hand.Hand`, the upcard's point value (ace 1), the round (for
``rnd.is_legal``) and the true count (0.0 unless the strategy counts). A strategy never
sees the hole card or the shoe order.
"""

from __future__ import annotations

import functools
import importlib
import math
import random
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..actions import Action, Phase
from ..errors import BlackjackError
from ..hand import Hand
from ..player import Dealer
from ..rules import Rules

if TYPE_CHECKING:
    from ..hints.strategy import Chart
    from ..round import Round
    from ..view import TableView

__all__ = ["BUILTIN", "Decision", "Strategy", "make_strategy", "wants_view"]

_H, _S, _D, _P, _R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER

#: The built-in strategy names, in the order ``--help`` lists them.
BUILTIN = ("basic", "perfect", "hi-lo", "mimic-dealer", "never-bust", "always-stand", "random")


class Strategy:
    """A way to play: the decisions of one seat, and its bet and insurance choices.

    Attributes:
        name: the name a report shows.
        counting: True when the strategy needs the true count (``hi-lo``); the runner
            then computes it before every bet and decision and splits results by it.
    """

    counting = False

    def __init__(self, name: str, rules: Rules) -> None:
        self.name = name
        self.rules = rules

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Return the action for the hand whose turn it is; it must be legal (``rnd.is_legal``)."""
        raise NotImplementedError

    def insure(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> bool:
        """Return True to take insurance (or even money) when it is offered. Default: never."""
        return False

    def early_surrender(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> bool:
        """Return True to take an early surrender when it is offered. Default: never."""
        return False

    def units(self, tc: float) -> int:
        """Return the bet for the next round in betting units (the table minimum). Default: 1."""
        return 1


class ChartStrategy(Strategy):
    """Basic strategy from the hint library's chart (:meth:`Chart.play`, its fallbacks included).

    Args:
        name: the name a report shows.
        rules: the table rules.
        chart: ``basic_strategy(rules)`` when the caller has it already (deriving it
            takes most of a second; the simulator hands it to its worker processes).
    """

    def __init__(self, name: str, rules: Rules, chart: Chart | None = None) -> None:
        super().__init__(name, rules)
        from ..hints.strategy import basic_strategy
        self.chart = chart if chart is not None else basic_strategy(rules)
        # Filled as hands are met, and shared by every strategy on an equal chart in this process
        # (the simulator makes one per block): (total, soft, pair, upcard) -> tree, and
        # (first value, second value, upcard) -> tree.
        self._trees, self._two_card = _play_trees(_chart_rows(self.chart))

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Play the chart, falling back as its code says when a move is not allowed (:func:`chart_play`).

        A two-card hand's tree is also kept under its two point values, so the commonest
        decisions skip scoring the hand (its total, softness and pair follow from them).
        """
        two = None
        play = None
        cards = hand._cards  # the hand's own list, read without Hand.__len__ and __iter__ calls
        if len(cards) == 2:
            first, second = cards
            two = (first.value, second.value, upcard)
            play = self._two_card.get(two)
        if play is None:
            pair = two[0] if two is not None and two[0] == two[1] else None
            key = (hand.get_score(), hand.is_soft(), pair, upcard)
            play = self._trees.get(key)
            if play is None:
                play = self._trees[key] = chart_play(self.chart, *key)
            if two is not None:
                self._two_card[two] = play
        if type(play) is tuple:
            is_legal = rnd.is_legal
            while type(play) is tuple:
                play = play[1] if is_legal(play[0]) else play[2]
        return play  # type: ignore[return-value]  # the walk ends at a leaf, an Action


#: :meth:`Chart.play` for one hand as a decision tree: an Action, or ``(move, tree if the move
#: is allowed, tree if not)``.
Play = Action | tuple[Action, "Play", "Play"]


_Rows = tuple[Rules, tuple[tuple[int, tuple[str, ...]], ...], tuple[tuple[int, tuple[str, ...]], ...],
              tuple[tuple[int, tuple[str, ...]], ...]]


def _chart_rows(chart: Chart) -> _Rows:
    """What :meth:`Chart.play` reads of ``chart``, as a hashable value: its rules and its rows."""
    return chart.rules, tuple(chart.hard.items()), tuple(chart.soft.items()), tuple(chart.pairs.items())


_Trees = tuple[dict[tuple[int, bool, int | None, int], Play], dict[tuple[int, int, int], Play]]


@functools.lru_cache(maxsize=8)
def _play_trees(rows: _Rows) -> _Trees:
    """The decision trees of :class:`ChartStrategy` for a chart with these rows, kept for every block in a process.

    A tree depends only on the chart (:func:`chart_play`), so the blocks of a run need not derive them again.
    """
    return {}, {}


class _Ask(Exception):
    """Raised by :func:`chart_play`'s probe when ``Chart.play`` asks about a move not yet answered."""

    def __init__(self, action: Action) -> None:
        super().__init__(action)
        self.action = action


def chart_play(chart: Chart, total: int, soft: bool, pair: int | None, upcard: int) -> Play:
    """Return ``chart.play(total, soft, pair, upcard, allowed)`` for every ``allowed`` at once, as a tree.

    The tree asks about the moves in the order ``Chart.play`` does and ends in the move it
    returns, so walking it with ``Round.is_legal`` gives what ``Chart.play`` gives, with no
    chart codes read during play. It is derived by calling ``Chart.play`` with each set of
    answers, so the chart's fallbacks stay written in one place;
    ``tests/sim/test_simulate.py`` checks the tree against ``Chart.play`` for every set of
    legal moves.
    """
    def probe(answers: dict[Action, bool]) -> Play:
        def allowed(action: Action) -> bool:
            if action not in answers:
                raise _Ask(action)
            return answers[action]
        try:
            return chart.play(total, soft, pair, upcard, allowed)
        except _Ask as ask:
            return (ask.action, probe({**answers, ask.action: True}), probe({**answers, ask.action: False}))
    return probe({})


class HiLoStrategy(ChartStrategy):
    """Basic strategy plus the Hi-Lo index plays and bet ramp of the hint library's counting module.

    Index plays: the Illustrious 18 and, where late surrender is allowed, the Fab 4
    (Schlesinger, *Blackjack Attack*), with the true count floored; bets by
    ``blackjack.hints.counting.bet_ramp``, never above the table's ``max_bet``.
    """

    counting = True

    def __init__(self, name: str, rules: Rules, *, spread: int = 8, chart: Chart | None = None) -> None:
        super().__init__(name, rules, chart)
        from ..hints.counting import FAB_4, ILLUSTRIOUS_18, bet_ramp
        # (total, pair, upcard) -> [(index, action at or above, action below, two cards only)]
        self._plays: dict[tuple[int, bool, int], list[tuple[int, Action, Action, bool]]] = {}
        surrender = rules.surrender == "late"
        for play in (FAB_4 if surrender else ()) + ILLUSTRIOUS_18[1:]:
            key = (play.total, play.pair, play.upcard)
            two_only = play.action in (_R, _D)  # as hints.counting.index_play filters them
            self._plays.setdefault(key, []).append((play.index, play.action, play.otherwise, two_only))
        self._insure_at = ILLUSTRIOUS_18[0].index
        self._units = {tc: int(bet_ramp(tc, 1, spread=spread)) for tc in range(-30, 31)}

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Apply the first index play whose move is allowed; otherwise play basic strategy."""
        total = hand.get_score()
        if total < 21 and not hand.is_soft():
            pair = len(hand) == 2 and hand[0].value == hand[1].value
            plays = self._plays.get((total, False, upcard))
            if pair:
                value = hand[0].value
                if value in (1, 8):
                    plays = None  # aces and eights are split, not played as a total
                paired = self._plays.get((total, True, upcard))
                if paired:
                    plays = paired + (plays or [])
            if plays:
                count = math.floor(tc)
                two = len(hand) == 2
                for index, above, below, two_only in plays:
                    if two_only and not two:
                        continue
                    action = above if count >= index else below
                    if rnd.is_legal(action):
                        return action
        return super().decide(hand, upcard, rnd, tc)

    def insure(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> bool:
        """Insure at a floored true count of +3 or more (Illustrious 18 no. 1)."""
        return math.floor(tc) >= self._insure_at

    def units(self, tc: float) -> int:
        """The hint library's bet ramp, in units."""
        return self._units[max(-30, min(30, math.floor(tc)))]


class PerfectStrategy(Strategy):
    """Composition-dependent play: the best EV from ``expected_values`` for this hand's cards.

    The composition is the rules' full shoe less the player's cards and the upcard (it
    does not count the shoe). The EVs are kept per hand (its cards as a multiset, split
    aces or not), upcard and the seat's hand count, so the first rounds are slow.
    """

    def __init__(self, name: str, rules: Rules) -> None:
        super().__init__(name, rules)
        from ..hints.probability import full_shoe
        self._full = full_shoe(rules.decks)
        self._known = _known_evs(rules)

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Take the legal action with the highest expected value."""
        values = tuple(card.value for card in hand)
        if len(values) >= 2 and hand.get_score() >= 21:
            return _S
        turn = rnd.turn
        hands = len(rnd.hands(turn[0])) if turn is not None else 1
        split_aces = hand.from_split and values[0] == 1
        key = (tuple(sorted(values)), upcard, hand.from_split, split_aces, hands)
        evs = self._known.get(key)
        if evs is None:
            from ..hints.probability import expected_values, without  # a miss costs milliseconds anyway
            counts = without(self._full, (*values, upcard))
            evs = self._known[key] = expected_values(values, upcard, counts, self.rules,
                                                     from_split=hand.from_split, hands=hands)
        best = _S
        best_ev = -math.inf
        for action, ev in evs.items():
            if ev > best_ev and action in (_H, _S, _D, _P, _R) and rnd.is_legal(action):
                best, best_ev = action, ev
        return best


_EvKey = tuple[tuple[int, ...], int, bool, bool, int]


@functools.lru_cache(maxsize=8)
def _known_evs(rules: Rules) -> dict[_EvKey, dict[Action, float]]:
    """The ``perfect`` strategy's EVs met so far under ``rules``, shared by every block in a process."""
    return {}


class MimicDealer(Strategy):
    """Hit exactly when the dealer would: below 17, and soft 17 under H17 (``Dealer.should_hit``)."""

    def __init__(self, name: str, rules: Rules) -> None:
        super().__init__(name, rules)
        self._dealer = Dealer()

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Ask the engine's dealer rule about this hand."""
        self._dealer.hand = hand
        return _H if self._dealer.should_hit(self.rules) and rnd.is_legal(_H) else _S


class NeverBust(Strategy):
    """Never take a card that could bust: hit hard 11 or less and soft 17 or less."""

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Hit only when no card can bust the hand (and a soft hand below 18)."""
        total = hand.get_score()
        limit = 17 if hand.is_soft() else 11
        return _H if total <= limit and rnd.is_legal(_H) else _S


class AlwaysStand(Strategy):
    """Stand on every hand."""

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Stand."""
        return _S


class RandomStrategy(Strategy):
    """A uniformly random legal action (HIT, STAND, DOUBLE, SPLIT, SURRENDER)."""

    def __init__(self, name: str, rules: Rules, rng: random.Random) -> None:
        super().__init__(name, rules)
        self.rng = rng

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Pick one of the legal actions at random."""
        return random_action(rnd, self.rng)


class Decision:
    """What a user's ``module:function`` policy is told for one decision: a few numbers, no table view.

    Building a full :class:`~blackjack.view.TableView` for every decision costs more than
    playing the hand; this costs about as much as a built-in strategy's own look at the
    hand. ``legal`` and ``true_count`` are worked out only when read.

    Attributes:
        phase: ``Phase.PLAYER_TURN`` for a playing decision; ``Phase.INSURANCE`` for an
            insurance (or even money) offer, answered with INSURANCE or DECLINE;
            ``Phase.EARLY_SURRENDER`` for an early-surrender offer, SURRENDER or DECLINE.
        total: the hand's best total (an ace counts 11 when that does not pass 21).
        soft: an ace counts 11 in ``total`` (A-6 is soft 17).
        pair: the point value (ace 1, ten-cards 10) of a two-card hand whose two cards
            have equal points, else None. Whether it may be split is in ``legal``.
        upcard: the dealer's upcard's point value, ace 1.
        cards: how many cards the hand holds.
        from_split: the hand was made by splitting a pair.

    Read a Decision during the call that gets it: ``legal``, ``true_count`` and
    :meth:`view` read the live round, which moves on after the policy answers.
    """

    __slots__ = ("phase", "total", "soft", "pair", "upcard", "cards", "from_split", "_round", "_decks")

    def __init__(self, rnd: Round, hand: Hand, upcard: int) -> None:
        self._round = rnd
        self._decks = rnd.rules.decks
        self.phase: Phase = rnd.phase
        self.total = hand.get_score()
        self.soft = hand.is_soft()
        self.cards = len(hand)
        self.pair: int | None = None
        if self.cards == 2:
            first, second = hand
            if first.value == second.value:
                self.pair = first.value
        self.upcard = upcard
        self.from_split = hand.from_split

    @property
    def legal(self) -> frozenset[Action]:
        """The actions allowed now (``Round.legal_actions``); STAND is always among them in play."""
        return self._round.legal_actions()

    def can(self, action: Action) -> bool:
        """Return True when ``action`` is allowed now (cheaper than ``action in decision.legal``)."""
        return self._round.is_legal(action)

    @property
    def true_count(self) -> float:
        """The Hi-Lo true count of the cards not yet seen (the hole card counts as unseen), unfloored."""
        from ..hints.counting import count_from_unseen, true_count
        unseen = self._round.unseen_counts()
        return true_count(count_from_unseen(unseen, self._decks), sum(unseen.values()))

    def view(self) -> TableView:
        """The full :class:`~blackjack.view.TableView` of the table now, for a policy that needs more."""
        return self._round.view()

    def __repr__(self) -> str:
        pair = f", pair={self.pair}" if self.pair is not None else ""
        return (f"Decision({self.phase.name}, total={self.total}, soft={self.soft}{pair}, upcard={self.upcard}, "
                f"cards={self.cards})")


def wants_view(policy: Callable[..., object]) -> bool:
    """Return True when ``policy``'s first parameter is annotated ``TableView``: it gets a full view.

    Any other policy (no annotation, or ``Decision``) gets a :class:`Decision`.
    """
    import inspect
    try:
        parameters = list(inspect.signature(policy).parameters.values())
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return False
    if not parameters:
        return False
    annotation = parameters[0].annotation
    if isinstance(annotation, str):  # from __future__ import annotations
        return annotation.rsplit(".", 1)[-1].strip("'\"") == "TableView"
    return getattr(annotation, "__name__", None) == "TableView"


class UserPolicy(Strategy):
    """A user's ``module:function`` policy, asked once per decision.

    It is called with a :class:`Decision`, or with ``rnd.view()`` (a full ``TableView``)
    when its first parameter is annotated ``TableView`` (:func:`wants_view`).

    Bets: one unit each round, unless the function has a ``units`` attribute, a callable
    ``units(true_count: float) -> int`` (1 to 64): the strategy then counts, as ``hi-lo``
    does, and bets that many units (docs/simulator.md).
    """

    def __init__(self, name: str, rules: Rules, policy: Callable[[Any], Action]) -> None:
        super().__init__(name, rules)
        self.policy = policy
        self.view = wants_view(policy)
        units = getattr(policy, "units", None)
        self._units: Callable[[float], object] | None = units if callable(units) else None
        self.counting = self._units is not None

    def units(self, tc: float) -> int:
        """The policy's ``units(tc)`` when it has one (a whole number, 1 to 64), else 1."""
        if self._units is None:
            return 1
        try:
            got = self._units(tc)
        except Exception as err:  # the user's own code, as _ask reports it
            raise BlackjackError(f"strategy {self.name}'s units raised {type(err).__name__}: {err}{_where(err)}") \
                from err
        if isinstance(got, bool) or not isinstance(got, int) or not 1 <= got <= _MOST_UNITS:
            raise BlackjackError(f"strategy {self.name}'s units({tc:+.2f}) returned {got!r}; "
                                 f"a bet is a whole number of units from 1 to {_MOST_UNITS}")
        return got

    def _ask(self, hand: Hand, upcard: int, rnd: Round) -> Action:
        try:
            action = self.policy(rnd.view() if self.view else Decision(rnd, hand, upcard))
        except Exception as err:  # the user's own code: one line saying what and where, not a traceback
            raise BlackjackError(f"strategy {self.name} raised {type(err).__name__}: {err}{_where(err)}") from err
        if not isinstance(action, Action) or not rnd.is_legal(action):
            raise BlackjackError(f"strategy {self.name} returned {action!r}, which is not legal now")
        return action

    def decide(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> Action:
        """Ask the user's policy."""
        return self._ask(hand, upcard, rnd)

    def insure(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> bool:
        """Ask the user's policy (INSURANCE or DECLINE)."""
        return self._ask(hand, upcard, rnd) is Action.INSURANCE

    def early_surrender(self, hand: Hand, upcard: int, rnd: Round, tc: float) -> bool:
        """Ask the user's policy (SURRENDER or DECLINE)."""
        return self._ask(hand, upcard, rnd) is _R


#: The largest bet in units a ``module:function`` policy's ``units`` may ask for (the runner's bet table).
_MOST_UNITS = 64


def _where(err: BaseException) -> str:
    """`` (file.py, line N)`` for the innermost frame of ``err`` outside this package, or ``""``."""
    package = Path(__file__).resolve().parents[1]
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if package not in Path(frame.filename).resolve().parents:
            return f" ({Path(frame.filename).name}, line {frame.lineno})"
    return ""


_ORDER = (_H, _S, _D, _P, _R)


def random_action(rnd: Round, rng: random.Random) -> Action:
    """Return a uniformly random legal playing action (the ``random`` strategy and ``--player-error``)."""
    if rnd.phase is not Phase.PLAYER_TURN:
        return rng.choice(sorted(rnd.legal_actions(), key=lambda a: a.value))
    legal = [a for a in _ORDER if rnd.is_legal(a)]
    return legal[rng.randrange(len(legal))]


#: The built-in strategies built from their name and the rules alone.
_PLAIN: dict[str, Callable[[str, Rules], Strategy]] = {
    "perfect": PerfectStrategy, "mimic-dealer": MimicDealer, "never-bust": NeverBust, "always-stand": AlwaysStand}


def make_strategy(name: str, rules: Rules, rng: random.Random, *, chart: Chart | None = None) -> Strategy:
    """Build the strategy called ``name`` for ``rules``.

    Args:
        name: one of :data:`BUILTIN`, or ``"module:function"`` naming a policy
            ``function(decision: Decision) -> Action`` (or ``function(view: TableView)``,
            see :func:`wants_view`) importable from ``module``.
        rules: the table rules (charts are derived for them).
        rng: the random source of the ``random`` strategy.
        chart: the basic-strategy chart for ``rules``, if the caller has it
            (``basic`` and ``hi-lo`` use it instead of deriving it again).

    Raises:
        ValueError: an unknown name, or a ``module:function`` that cannot be imported (its
            module missing, or raising while it loads) or is not callable; the message says which.
    """
    key = name.strip().lower().replace("_", "-")
    if key == "basic":
        return ChartStrategy("basic", rules, chart)
    if key in ("hi-lo", "hilo"):
        return HiLoStrategy("hi-lo", rules, chart=chart)
    if key == "random":
        return RandomStrategy("random", rules, rng)
    if key in _PLAIN:
        return _PLAIN[key](key, rules)
    if ":" in name:
        module_name, _, attr = name.strip().partition(":")
        try:
            module = importlib.import_module(module_name)
            policy = getattr(module, attr)
        except (ImportError, AttributeError) as err:
            raise ValueError(f"cannot load strategy {name!r}: {err}") from None
        except Exception as err:  # the user's module failed while it loaded (a SyntaxError, its own error)
            raise ValueError(f"cannot load strategy {name!r}: its module raised {type(err).__name__}: {err}") from None
        if not callable(policy):
            raise ValueError(f"strategy {name!r} is not a function")
        return UserPolicy(name, rules, policy)
    raise ValueError(f"unknown strategy: {name!r}; choose from {', '.join(BUILTIN)} or module:function")
