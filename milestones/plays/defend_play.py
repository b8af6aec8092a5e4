"""Defend's rows, in the student's process (the host's calls :func:`setup`, then :func:`row` per row, and
:func:`timing`): the student's hints and the comparison rows played through the project's simulator, each
decision's EV loss measured, by situation, and each call of a student's hint function timed. A function not
written yet makes its row say so; another error ends its row in one line.

Every row plays the round's money moves and the advanced play on the milestone-2 suite's given parts
(:data:`GIVEN`, from ``observe_given.py``: the rules as the spec states them), so a row needs only the student's
week-1 engine and its own hint functions.
"""

from __future__ import annotations

import math
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported in the student's process only: it must be the project's package, not the kit's
    from blackjack import Action, Rules, TableView

__all__ = ["PROGRESS", "basic_policy", "counting_policy", "hints_policy", "mimic_policy", "row", "setup", "timing"]

#: A row's progress line starts so (then the rounds finished); the tool reads no other printed line.
PROGRESS = "\x1edefend-progress "
#: The costliest situations a row sends back, and the calls of each function kept to time on the kit's code.
SITUATIONS, SAMPLES = 5, 40
#: The given parts every row plays on (``observe_given.STUDENT``'s names).
GIVEN = ("check_bet", "take_stake", "payout", "pay", "double_down", "split", "deal_split_card", "why_not_double",
         "why_not_split", "insurance_limit", "insurance_net")


class _Stop(Exception):
    """Raised by a policy to end its row; the row's message is already in :data:`_STATE`."""


@dataclass
class _State:
    """What the policies of the row being played share, in the student's process: ``project``, ``rules``,
    ``oracle``, ``given`` and ``chances`` are :func:`setup`'s; :func:`row` starts the others afresh."""

    project: str = ""
    rules: Rules | None = None
    oracle: _Oracle | None = None
    decisions: int = 0
    lost: float = 0.0
    status: str = "ok"
    message: str = ""
    advice: dict[tuple[object, ...], Action] = field(default_factory=dict)
    #: ``(situation, move taken, best move) -> [decisions, EV lost]``
    situations: dict[tuple[str, str, str], list[float]] = field(default_factory=dict)
    #: ``function -> [calls, seconds]``, and up to :data:`SAMPLES` of its calls' arguments (plain data)
    calls: dict[str, list[float]] = field(default_factory=dict)
    samples: dict[str, list[list[Any]]] = field(default_factory=dict)
    given: Callable[..., Any] | None = None
    #: the row's time limit (``time.monotonic()``), its rounds (counted at decisions, between the simulator's
    #: counts of rounds finished), the discards of the round seen last, when it last said so, whether it stopped
    deadline: float = math.inf
    rounds: int = 0
    finished: int = 0
    discards: int = -1
    said: float = 0.0
    stopped: bool = False
    chances: tuple[str, ...] = ()


_STATE = _State()


def setup(options: dict[str, Any]) -> dict[str, Any]:
    """Load the rules ``options["rules"]`` (None: ``Rules()``) on the project's packages (in ``options["project"]``)
    for the rows to come; return ``{"rules": label}``, ``{"usage": message}`` or ``{"row": {...}}`` (see the
    module's docstring)."""
    _STATE.project = options["project"]
    try:
        from blackjack import Rules
        from blackjack.errors import BlackjackError
    except Exception as err:  # noqa: BLE001 - the student's package does not import: say where, in one line
        return {"row": {"key": "hints", "status": "error", "message": f"your blackjack package does not import: "
                                                                     f"{_one_line(err)}"}}
    try:
        rules = Rules() if options["rules"] is None else Rules.load(options["rules"])
    except (BlackjackError, OSError, ValueError) as err:
        return {"usage": f"cannot load the rules {options['rules']!r}: {_one_line(err)}"}
    import blackjack.sim  # noqa: F401 - given code: the kit's simulator, as the project holds it
    _STATE.rules = rules
    _STATE.given = _given_parts()
    _STATE.chances = _unwritten_chances() if _STATE.given is not None else ()
    _STATE.oracle = _Oracle(rules)
    return {"rules": f"{'Rules()' if options['rules'] is None else rules.name}: {rules.summary()}",
            "given": list(_STATE.chances)}


def _unwritten_chances() -> tuple[str, ...]:
    """The student's probability functions a hint's reason may quote that are not written yet: the rows play the
    suite's given ones in their place (as the hints tests do), so that the hints need nothing else."""
    from blackjack.hints.probability import bust_probability, dealer_probabilities

    unwritten = []
    for name, probe in (("bust_probability", lambda: bust_probability([10, 6])),
                        ("dealer_probabilities", lambda: dealer_probabilities(6))):
        try:
            probe()
        except NotImplementedError:
            unwritten.append(name)
        except Exception:  # noqa: BLE001, S110 - written, with a mistake: the row that calls it says so
            pass
    return tuple(unwritten)


def _given_parts() -> Callable[..., Any] | None:
    """``observe_given.given`` of the kit's milestone-2 suite (its folder put on ``sys.path``), or None when the
    suite is not there (a row then plays the student's money moves too)."""
    from milestones import REPO_ROOT
    from milestones.config import suite_name, suites_dir

    folder = suites_dir(REPO_ROOT) / suite_name(2)
    if not (folder / "observe_given.py").is_file():
        return None
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
    from observe_given import given  # type: ignore[import-not-found]  # the suite's, found at run time
    return given  # type: ignore[no-any-return]


def row(key: str, options: dict[str, Any]) -> dict[str, Any]:
    """Play the row ``key`` for ``options["hands"]`` rounds from ``options["seed"]`` (after :func:`setup`), on the
    given parts (:data:`GIVEN`); stop it, keeping the rounds finished, after ``options["seconds"]`` (None: no limit).
    Print a :data:`PROGRESS` line every 1,000 rounds, and a second after the last at a decision. Return its fields
    (:class:`milestones.defend.Row`)."""
    import contextlib

    from blackjack.sim import simulate  # given code: the kit's simulator, as the project holds it

    global _STATE
    began, limit = time.monotonic(), options.get("seconds")
    _STATE = _State(project=_STATE.project, rules=_STATE.rules, oracle=_STATE.oracle, given=_STATE.given,
                    chances=_STATE.chances, said=began, deadline=math.inf if limit is None else began + limit)
    assert _STATE.rules is not None  # setup() came first

    def progress(rounds: int) -> None:
        _STATE.finished += rounds
        _STATE.rounds, _STATE.said = _STATE.finished, time.monotonic()
        print(f"{PROGRESS}{_STATE.rounds}", flush=True)

    found: dict[str, Any] = {"key": key}
    try:
        with _STATE.given(*GIVEN, *_STATE.chances) if _STATE.given is not None else contextlib.nullcontext():
            report = simulate(f"{__name__}:{_POLICIES[key]}", _STATE.rules, hands=options["hands"],
                              seed=options["seed"], progress=progress)[0]
    except Exception as err:  # noqa: BLE001 - the student's code (hints, or the round's) ends this row only
        cause = _cause(err)
        if _STATE.status != "ok":  # a policy said what went wrong before it stopped the row
            found.update(status=_STATE.status, message=_STATE.message)
        elif isinstance(cause, NotImplementedError):
            found.update(status="not written", message=_unwritten(cause))
        else:
            found.update(status="error", message=f"the round stopped: {_one_line(err)}")
    else:
        costly = sorted(_STATE.situations.items(), key=lambda item: -item[1][1])[:SITUATIONS]
        found.update(edge=report.house_edge, se=report.se, rounds=report.rounds, decisions=_STATE.decisions,
                     ev_lost=_STATE.lost / _STATE.decisions if _STATE.decisions else 0.0,
                     average_bet=report.average_bet, stopped=_STATE.stopped, lost=_STATE.lost,
                     situations=[[*where, int(n), lost] for where, (n, lost) in costly if lost > 1e-12])
    found.update(seconds=time.monotonic() - began, calls=_STATE.calls, samples=_STATE.samples)
    return found


def _tick(view: TableView) -> None:
    """At a decision: count a round whose discards are new; print the :data:`PROGRESS` line a second after the last;
    at the time limit stop the row: the simulator keeps the rounds finished (a ``KeyboardInterrupt``, as Ctrl-C
    stops ``simulate``)."""
    if view.discards != _STATE.discards:
        _STATE.discards = view.discards
        _STATE.rounds += 1
    now = time.monotonic()
    if now - _STATE.said > 1:
        _STATE.said = now
        print(f"{PROGRESS}{_STATE.rounds}", flush=True)
    if now > _STATE.deadline and not _STATE.stopped:
        _STATE.stopped = True
        raise KeyboardInterrupt


def timing(samples: dict[str, list[list[Any]]]) -> dict[str, float]:
    """Seconds per call of each hint function of this process's ``blackjack`` on ``samples`` (as :func:`row` sends
    them: ``function -> [arguments, ...]``), after :func:`setup`: each call made twice, the second pass timed.
    The tool asks this of the kit's own code, to set beside the student's times."""
    from blackjack import Action, parse_cards
    from blackjack.hints import basic_advice
    from blackjack.hints.counting import bet_ramp, count_advice, true_count

    rules = _STATE.rules

    def call(name: str, args: list[Any]) -> object:
        if name not in ("basic_advice", "count_advice"):
            return true_count(*args) if name == "true_count" else bet_ramp(args[0], 1)
        hand, upcard, legal = parse_cards(args[0]), parse_cards(args[1])[0], frozenset(Action[n] for n in args[-1])
        if name == "basic_advice":
            return basic_advice(hand, upcard, rules, legal=legal)
        return count_advice(hand, upcard, args[2], rules, legal=legal)

    out = {}
    for name, calls in samples.items():
        for _second in (False, True):
            began = time.perf_counter()
            for args in calls:
                call(name, args)
        out[name] = (time.perf_counter() - began) / max(1, len(calls))
    return out


def _timed(name: str, function: Callable[..., Any], args: list[Any], *call: Any, **keywords: Any) -> Any:
    """``function(*call, **keywords)``, its time added to ``name``'s; ``args`` (plain data) kept as a sample."""
    began = time.perf_counter()
    try:
        return function(*call, **keywords)
    finally:
        spent = _STATE.calls.setdefault(name, [0, 0.0])
        spent[0] += 1
        spent[1] += time.perf_counter() - began
        kept = _STATE.samples.setdefault(name, [])
        if len(kept) < SAMPLES:
            kept.append(args)


def _cause(err: BaseException) -> BaseException:
    """The NotImplementedError ``err`` was raised from (the simulator wraps a policy's error), else ``err``."""
    cause: BaseException | None = err
    while cause is not None and not isinstance(cause, NotImplementedError):
        cause = cause.__cause__
    return cause or err


def _one_line(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}".strip().splitlines()
    return (text[0] if text else type(err).__name__)[:300] + _where(err)


def _frame(err: BaseException, *, simulator: bool) -> traceback.FrameSummary | None:
    """The innermost frame of ``err`` in the project's ``blackjack`` (its simulator too when ``simulator``)."""
    package = Path(_STATE.project, "blackjack")
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        path = Path(frame.filename)
        if path.is_relative_to(package) and (simulator or not path.is_relative_to(package / "sim")):
            return frame
    return None


def _where(err: BaseException) -> str:
    """`` (file.py, line N)`` for the innermost frame of ``err`` in the project's ``blackjack`` (not its simulator),
    or ``""``."""
    frame = _frame(err, simulator=False)
    return "" if frame is None else f" ({Path(frame.filename).name}, line {frame.lineno})"


def _unwritten(err: NotImplementedError) -> str:
    """``<function>() is not written yet (file.py, line N)``: the innermost function of the project's ``blackjack``
    that raised ``err``."""
    frame = _frame(err, simulator=True)
    return f"{'a function' if frame is None else f'{frame.name}()'} is not written yet{_where(err)}"


def _fail(function: str, err: BaseException) -> _Stop:
    """Record that the student's ``function`` raised ``err``; return the stop."""
    if isinstance(err, NotImplementedError):
        _STATE.status, _STATE.message = "not written", _unwritten(err)
    else:
        _STATE.status, _STATE.message = "error", f"{function} raised {_one_line(err)}"
    return _Stop(_STATE.message)


def _codes(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards)


def _decide(view: TableView, choose: Callable[[TableView], Action], who: str) -> Action:
    """Ask ``choose`` for the move of the decision in ``view``, check it is legal, and add its EV loss to the row."""
    from blackjack import Action, Phase

    _tick(view)
    if view.phase is Phase.EARLY_SURRENDER:  # no row surrenders early; not counted as a decision
        return Action.DECLINE
    action = choose(view)
    legal = view.legal_actions
    hand = view.current_hand
    upcard = view.dealer.upcard
    assert hand is not None and upcard is not None and view.turn is not None  # a decision is pending
    if not isinstance(action, Action) or action not in legal:
        _STATE.status = "error"
        said = action.name if isinstance(action, Action) else f"{action!r:.60}"
        cards = ", ".join(map(str, hand.cards))
        _STATE.message = (f"{who} said {said} for [{cards}] against {upcard}, which is not one of the "
                          f"legal moves there ({', '.join(sorted(a.name for a in legal))})")
        raise _Stop(_STATE.message)
    evs = _evs(view)
    best = max(evs, key=evs.__getitem__)
    lost = evs[best] - evs[action]
    _STATE.decisions += 1
    _STATE.lost += lost
    where = _STATE.situations.setdefault((_situation(view), action.name, best.name), [0, 0.0])
    where[0] += 1
    where[1] += lost
    return action


def _situation(view: TableView) -> str:
    """The decision as a player names it: ``16 v 10``, ``soft 18 v 6``, ``pair of 8s v A``, ``insurance v A``."""
    from blackjack import Action

    hand, upcard = view.current_hand, view.dealer.upcard
    assert hand is not None and upcard is not None
    up = "A" if upcard.value == 1 else str(upcard.value)
    if Action.DECLINE in view.legal_actions:
        return f"insurance v {up}"
    values = [card.value for card in hand.cards]
    if Action.SPLIT in view.legal_actions:
        return f"pair of {_PAIRS.get(values[0], f'{values[0]}s')} v {up}"
    return f"{'soft ' if hand.soft else ''}{hand.total} v {up}"


_PAIRS = {1: "aces", 6: "6s", 10: "tens"}


def _student_hint(view: TableView) -> Action:
    """The student's ``basic_advice``, asked once per hand (faces in order), upcard face and legal moves."""
    from blackjack.hints import basic_advice

    hand, upcard = view.current_hand, view.dealer.upcard
    assert hand is not None and upcard is not None
    key = (tuple(card.face for card in hand.cards), upcard.face, view.legal_actions)
    if key not in _STATE.advice:
        _STATE.advice[key] = _advice("basic_advice", basic_advice, view)
    return _STATE.advice[key]


def _advice(name: str, function: Callable[..., Any], view: TableView, *count: float) -> Action:
    """The action the student's ``name`` (``basic_advice``, or ``count_advice`` at the true count ``count``) gives
    for the decision in ``view`` (checked later against the legal moves)."""
    hand, upcard, legal = view.current_hand, view.dealer.upcard, view.legal_actions
    assert hand is not None and upcard is not None
    try:
        got = _timed(name, function, [_codes(hand.cards), str(upcard), *count, sorted(a.name for a in legal)],
                     list(hand.cards), upcard, *count, _STATE.rules, legal=legal)
    except Exception as err:
        raise _fail(name, err) from None
    if not (isinstance(got, tuple) and len(got) == 2):
        _STATE.status, _STATE.message = "error", f"{name} returned {got!r:.80}; it should return (action, reason)"
        raise _Stop(_STATE.message)
    return got[0]  # type: ignore[no-any-return]


def _true_count(view: TableView) -> float:
    """The Hi-Lo true count of the cards the players have not seen: the given ``count_from_unseen`` and the
    student's ``true_count``."""
    from blackjack.hints.counting import count_from_unseen, true_count

    unseen = view.unseen_counts
    left = sum(unseen.values())
    try:
        running = count_from_unseen(unseen, view.decks)
        return float(_timed("true_count", true_count, [float(running), left], running, left)) if left else 0.0
    except Exception as err:
        raise _fail("true_count", err) from None


def _student_count_hint(view: TableView) -> Action:
    """The student's ``count_advice`` at the true count of the cards not seen."""
    from blackjack.hints.counting import count_advice

    return _advice("count_advice", count_advice, view, _true_count(view))


def _ramp_units(tc: float) -> int:
    """The student's ``bet_ramp(tc, 1)``: each round's bet in units."""
    from fractions import Fraction

    from blackjack.hints.counting import bet_ramp

    try:
        got = _timed("bet_ramp", bet_ramp, [tc], tc, 1)
    except Exception as err:
        raise _fail("bet_ramp", err) from None
    if isinstance(got, bool) or not isinstance(got, (int, Fraction)) or got != int(got) or not 1 <= got <= 64:
        _STATE.status = "error"
        _STATE.message = f"bet_ramp({tc:+.2f}, 1) returned {got!r:.60}; the simulator bets a whole 1 to 64 units"
        raise _Stop(_STATE.message)
    return int(got)


def _evs(view: TableView) -> dict[Action, float]:
    """The exact EV of each legal move of the decision in ``view`` (:class:`_Oracle`)."""
    hand, upcard = view.current_hand, view.dealer.upcard
    assert hand is not None and upcard is not None and view.turn is not None and _STATE.oracle is not None
    return _STATE.oracle.evs([card.value for card in hand.cards], upcard.value, len(view.seats[view.turn[0]].hands),
                             view.legal_actions)


def _best(view: TableView) -> Action:
    """The legal move with the best exact EV (full shoe less the hand and the upcard); the first of a tie."""
    evs = _evs(view)
    return max(evs, key=evs.__getitem__)


def _mimic(view: TableView) -> Action:
    """The dealer's rule: hit below 17, and a soft 17 when the dealer hits it; decline every offer."""
    from blackjack import Action, Phase

    hand = view.current_hand
    assert hand is not None and _STATE.rules is not None
    if view.phase is not Phase.PLAYER_TURN:
        return Action.DECLINE
    hits = hand.total < 17 or hand.total == 17 and hand.soft and _STATE.rules.dealer_hits_soft_17
    return Action.HIT if hits and Action.HIT in view.legal_actions else Action.STAND


def hints_policy(view: TableView) -> Action:
    """The ``my hints`` row: the student's ``basic_advice``."""
    return _decide(view, _student_hint, "basic_advice")


def counting_policy(view: TableView) -> Action:
    """The ``my hints + counting`` row: the student's ``count_advice``; bets by ``bet_ramp`` (``units``)."""
    return _decide(view, _student_count_hint, "count_advice")


counting_policy.units = _ramp_units  # type: ignore[attr-defined]  # the simulator's bets by the count


def basic_policy(view: TableView) -> Action:
    """The ``basic strategy`` row: the best exact EV."""
    return _decide(view, _best, "basic strategy")


def mimic_policy(view: TableView) -> Action:
    """The ``mimic the dealer`` row."""
    return _decide(view, _mimic, "mimic the dealer")


#: Each row's policy function in this module.
_POLICIES = {"hints": "hints_policy", "counting": "counting_policy", "basic": "basic_policy", "mimic": "mimic_policy"}


class _Oracle:
    """Exact EVs of the legal moves of a hand, from the hint engine's given building blocks, kept once computed.

    The composition is the rules' full shoe less the hand's cards and the upcard. Stand, hit and
    double come from one :class:`~blackjack.hints._player.Tree` per upcard (its memo is keyed by
    composition, so the cards after a hit are worked out once with the two-card hand's hit);
    a split from ``split_value`` (exact, resplits by the seat's hands); insurance from
    ``insurance_value``; a surrender is -0.5. EVs are conditioned on no dealer natural where the
    dealer peeks, as the decisions come after the peek.
    """

    def __init__(self, rules: Rules) -> None:
        from blackjack.hints.probability import full_shoe
        self.rules = rules
        self.full = full_shoe(rules.decks)
        self.trees: dict[int, Any] = {}
        self.known: dict[tuple[object, ...], float] = {}

    def evs(self, values: list[int], upcard: int, hands: int, legal: frozenset[Action]) -> dict[Action, float]:
        """``{move: exact EV}`` for every legal move (INSURANCE and DECLINE on an insurance offer)."""
        from blackjack import Action
        from blackjack.hints._player import Tree, insurance_value
        from blackjack.hints._split import split_value
        from blackjack.hints.probability import game_for, without

        ordered = tuple(sorted(values))
        counts = without(self.full, (*values, upcard))
        hard, ace, n = sum(values), 1 in values, len(values)
        out: dict[Action, float] = {}
        for action in legal:
            key = (action, ordered, upcard, hands if action is Action.SPLIT else 0)
            value = self.known.get(key)
            if value is None:
                if action is Action.INSURANCE:
                    value = insurance_value(counts)
                elif action in (Action.DECLINE, Action.SURRENDER):
                    value = 0.0 if action is Action.DECLINE else -0.5
                elif action is Action.SPLIT:
                    value = split_value(values[0], counts, game_for(upcard, self.rules, pair=values[0]), hands)
                else:
                    tree = self.trees.get(upcard)
                    if tree is None:
                        tree = self.trees[upcard] = Tree(None, game_for(upcard, self.rules))
                    if action is Action.STAND:
                        value = tree.stand(hard, ace, counts)
                    elif action is Action.HIT:
                        value = tree.hit(hard, ace, n, counts)
                    else:
                        value = tree.double(hard, ace, n, counts)
                self.known[key] = value
            out[action] = value
        return out
