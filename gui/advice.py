"""What the hint, count, coach and chart panels show, computed from a table view (no Tk).

Every number comes from :mod:`blackjack.hints`; this module only picks the inputs out of a
:class:`~blackjack.TableView` and packs the answers. The window calls it in :mod:`gui.jobs`'s
worker. A hints library not finished yet (a student's starter) raises :class:`HintsUnavailable`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from blackjack import Action, BlackjackError, Card, Hand, Phase, Rules, TableView
from blackjack.hints import CountingSystem, basic_strategy, count_summary, expected_values, hint, system, systems

from .logic import legal_order  # re-exported: the hint panel's EVs and the status line share one order

__all__ = [
    "Advice", "CountInfo", "HintsUnavailable", "Verdict", "advise", "chart_cell", "chart_rows", "count",
    "counting_systems", "expected", "judge", "legal_order", "recommended",
]

_T = TypeVar("_T")


class HintsUnavailable(Exception):
    """The hints library cannot answer (not implemented yet, no decision pending, or an engine error)."""


def _call(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Call a hints function; a NotImplementedError (a student's starter) or a BlackjackError becomes
    :class:`HintsUnavailable` with a one-line reason."""
    try:
        return function(*args, **kwargs)
    except NotImplementedError as err:
        raise HintsUnavailable(f"{function.__name__}() is not written yet: {err}") from None
    except BlackjackError as err:
        raise HintsUnavailable(str(err)) from None


@dataclass(frozen=True)
class Advice:
    """What the hint panel shows for the deciding hand.

    Attributes:
        action: the recommended action.
        reason: one sentence saying why.
        bust_chance: the chance one more card busts the hand (0..1), or None.
        dealer: the dealer's final outcome -> probability (``"17"`` .. ``"21"``, ``"bust"``,
            ``"blackjack"``), for the unseen cards.
        evs: EV of each legal action, in units of the hand's initial bet.
    """

    action: Action
    reason: str
    bust_chance: float | None
    dealer: dict[str, float]
    evs: dict[Action, float]


def _decision(view: TableView) -> tuple[tuple[Card, ...], Card]:
    """The deciding hand's cards and the dealer's upcard; whether a decision waits is the engine's ``view.turn``."""
    hand, upcard = view.current_hand, view.dealer.upcard
    if hand is None or upcard is None:
        raise HintsUnavailable("no decision is pending")
    return hand.cards, upcard


def expected(view: TableView) -> dict[Action, float]:
    """The EV of each legal action of the deciding hand, per unit of its initial bet."""
    cards, upcard = _decision(view)
    hand, seat = view.current_hand, view.current_seat
    assert hand is not None and seat is not None
    evs = _call(expected_values, list(cards), upcard, dict(view.unseen_counts), view.rules,
                from_split=hand.from_split, hands=len(seat.hands))
    legal = view.legal_actions
    out = {a: float(v) for a, v in evs.items() if a in legal}
    if Action.DECLINE in legal and Action.DECLINE not in out:
        out[Action.DECLINE] = 0.0  # declining a side bet is worth nothing (hints docs)
    return out


def advise(view: TableView) -> Advice:
    """Compute the hint panel's content for the hand whose decision it is (``blackjack.hints.hint``), exactly.

    The window computes it on a worker thread, so the EVs are the exact ones (``exact=True``: at
    most about 0.2-0.3 s of CPU on the hardest decisions of a 6- or 8-deck shoe, benchmarks/hints.py).

    Raises:
        HintsUnavailable: no decision is pending, or the hints library cannot answer.
    """
    _decision(view)
    found = _call(hint, view, exact=True)
    legal = view.legal_actions
    evs = {a: float(v) for a, v in found.evs.items() if a in legal} or expected(view)
    reason = found.reason
    if view.even_money:  # the offer is even money: the advice names it so (the engine's action is insurance)
        reason = reason.replace("Decline insurance", "Decline even money (insurance on a natural)", 1).replace(
            "Take insurance", "Take even money (insurance on a natural)", 1)
    return Advice(action=found.action, reason=reason, bust_chance=found.bust_chance,
                  dealer={str(k): float(v) for k, v in found.dealer.items()}, evs=evs)


@dataclass(frozen=True)
class CountInfo:
    """What the count panel shows.

    Attributes:
        running: the running count of every card seen since the shuffle (an unbalanced system's
            initial count included).
        true: the running count per deck left to play; None for an unbalanced system.
        unseen: cards the players have not seen (the shoe and a face-down hole card).
        in_shoe: cards left in the shoe (``TableView.cards_remaining``, as the table's shoe shows).
        suggestion: a bet suggestion in credits; None for an unbalanced system.
        system: the counting system's display name.
        balanced: the system is balanced (a full deck's tags add up to 0).
        key_count: an unbalanced system's key count (where the player gains the edge), or None.
        insurance: against a dealer's ace, the count's insurance decision (True: take it), or None.
        insurance_index: how that decision is read, e.g. ``"true count +3"``, or None.
    """

    running: int
    true: float | None
    unseen: int
    in_shoe: int
    suggestion: Fraction | None
    system: str = "Hi-Lo"
    balanced: bool = True
    key_count: int | None = None
    insurance: bool | None = None
    insurance_index: str | None = None


def counting_systems() -> dict[str, str]:
    """The counting systems of ``blackjack/hints/counting.toml``: key -> display name, in file order.

    Raises:
        HintsUnavailable: the systems cannot be read.
    """
    return {key: found.name for key, found in _call(systems).items()}


def _insurance_index(chosen: CountingSystem) -> str | None:
    """The system's insurance index in words (``"true count +3"``), or None when it has none."""
    if chosen.insurance_running_count is not None:
        return f"running count {chosen.insurance_running_count:+d}"
    if chosen.insurance_true_count is not None:
        return f"true count {chosen.insurance_true_count:+d}"
    return None


def count(view: TableView, counting: str | CountingSystem = "hi_lo", *, spread: int = 8) -> CountInfo:
    """Compute the count in ``counting`` from what the players have seen (``blackjack.hints.count_summary``,
    which says how each figure is worked out; as the text game's ``count`` command).

    Args:
        view: the table view.
        counting: a system key of ``blackjack/hints/counting.toml`` or a :class:`~blackjack.hints.CountingSystem`.
        spread: the largest suggested bet in units of the table minimum.

    Raises:
        HintsUnavailable: an unknown system, or the counting functions are not written yet.
    """
    chosen = _call(system, counting)
    summary = _call(count_summary, view, chosen, spread=spread)
    return CountInfo(running=summary.running, true=summary.true, unseen=summary.cards_remaining,
                     in_shoe=view.cards_remaining, suggestion=summary.suggested_bet, system=chosen.name,
                     balanced=chosen.balanced, key_count=chosen.key_count, insurance=summary.insure,
                     insurance_index=_insurance_index(chosen))


@dataclass(frozen=True)
class Verdict:
    """The coach's judgement of one decision.

    Attributes:
        action: what the player did.
        recommended: what basic strategy (or the best EV) says.
        correct: the two agree.
        cost: EV given up by the player's action, in units of the initial bet (0 when
            correct; None when the EVs could not be computed).
        evs: the EVs the cost was taken from.
    """

    action: Action
    recommended: Action
    correct: bool
    cost: float | None
    evs: dict[Action, float] = field(default_factory=dict)

    def text(self) -> str:
        """One line for the coach panel."""
        if self.correct:
            return f"Right: {self.action.value} is the basic-strategy play."
        cost = "" if self.cost is None else f"; it cost {self.cost:.3f} of a bet in EV"
        return f"Basic strategy says {self.recommended.value}, you chose {self.action.value}{cost}."


def recommended(view: TableView) -> Action:
    """The basic-strategy action for the deciding hand, among the legal actions.

    Insurance offers: basic strategy never takes insurance or even money (it pays 2:1 on
    a 4/13 chance; :func:`blackjack.hints.probability.insurance_probability`), so the
    answer is DECLINE. Early surrender offers: the chart's surrender codes.

    Raises:
        HintsUnavailable: no decision is pending, or the chart cannot be built.
    """
    cards, upcard = _decision(view)
    legal = view.legal_actions
    if view.phase is Phase.INSURANCE:
        return Action.DECLINE
    chart = _call(basic_strategy, view.rules)
    if view.phase is Phase.EARLY_SURRENDER:
        choice = chart.action(list(cards), upcard, legal=legal | {Action.HIT, Action.STAND})
        return Action.SURRENDER if choice is Action.SURRENDER else Action.DECLINE
    return chart.action(list(cards), upcard, legal=legal)


def judge(view: TableView, action: Action) -> Verdict:
    """Judge the player's ``action`` in ``view`` (taken before the action was applied) for coach mode.

    Raises:
        HintsUnavailable: no decision was pending, or the hints library cannot answer.
    """
    best = recommended(view)
    if best is action:
        return Verdict(action, best, True, 0.0)
    try:
        evs = expected(view)
    except HintsUnavailable:
        return Verdict(action, best, False, None)
    cost = evs[best] - evs[action] if best in evs and action in evs else None
    return Verdict(action, best, False, cost, evs)


def chart_rows(rules: Rules) -> list[tuple[str, str, tuple[str, ...]]]:
    """The basic-strategy chart for ``rules`` as ``(section, label, codes)`` rows, upcards 2..10, A.

    Raises:
        HintsUnavailable: the hints library cannot build the chart.
    """
    return list(_call(basic_strategy, rules).rows())


#: The chart's columns, as the strategy module orders them.
CHART_UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")


def chart_cell(view: TableView) -> tuple[str, str, int] | None:
    """The chart cell of the deciding hand: ``(section, row label, column index)``, or None.

    Sections and labels are those of ``Chart.rows()``: hard ``"5"``..``"20"``, soft
    ``"A,2"``..``"A,9"``, pairs ``"2,2"``..``"A,A"``.
    """
    hand, upcard = view.current_hand, view.dealer.upcard
    if hand is None or upcard is None or view.phase is not Phase.PLAYER_TURN:
        return None
    column = _column(upcard.get_value())
    cards = hand.cards
    if len(cards) == 2 and Hand(cards).is_pair(by=view.rules.split_by) and Action.SPLIT in view.legal_actions:
        name = CHART_UPCARDS[_column(cards[0].get_value())]
        return "pairs", f"{name},{name}", column
    if hand.total >= 21:
        return None
    if hand.soft:
        return ("soft", f"A,{hand.total - 11}", column) if hand.total >= 13 else None
    return "hard", str(max(5, min(hand.total, 20))), column


def _column(value: int) -> int:
    """The index in :data:`CHART_UPCARDS` of a card worth ``value`` points (ace 1)."""
    return 9 if value == 1 else value - 2
