"""Level 1 hints: advice in words, first-time tips, and the EVs a hint shows within a work budget.

The front ends' one call, ``hint(view)``, is :func:`blackjack.hints.table_hint.hint`,
above every level (``from blackjack.hints import hint``).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..actions import Action, Phase
from ..rules import Rules
from ..view import TableView
from ._player import total_of
from ._work import OutOfWork, work_budget
from .ahead import Ahead, Decision
from .probability import CardLike, bust_probability, card_value, dealer_probabilities, expected_values
from .strategy import moves_for

__all__ = ["AHEAD_WAIT", "EXACT_WORK_BUDGET", "Tip", "TipBook", "basic_advice", "fresh_moves", "hint_evs"]

_DEFAULT_RULES = Rules()
_NAMES = {1: "an ace", 8: "an 8"}


def _card_name(value: int) -> str:
    return _NAMES.get(value, "a ten" if value == 10 else f"a {value}")


def _percent(p: float) -> str:
    return f"{100 * p:.0f}%"


def _reason(action: Action, values: list[int], up: int, bust: float, dealer_bust: float) -> str:
    """The plain-language reason for ``action`` (level 1 wording shared by every hint)."""
    hard = sum(values)
    total = total_of(hard, 1 in values)
    soft = total != hard
    shows = f"the dealer shows {_card_name(up)}"
    if action is Action.STAND:
        if total >= 17:
            return f"Stand: {total} is a strong total, and one more card busts you {_percent(bust)} of the time."
        if 2 <= up <= 6:
            return (f"Stand: {shows} and is likely to bust ({_percent(dealer_bust)}); "
                    f"don't risk busting yourself ({_percent(bust)} if you hit).")
        return f"Stand: hitting {total} busts you {_percent(bust)} of the time, which costs more than it gains."
    if action is Action.HIT:
        if total <= 11 and not soft:
            return f"Hit: you cannot bust with {total}, and one more card can only help."
        if soft:
            return f"Hit: a soft {total} cannot bust with one card, and it is not yet good enough to stand on."
        return (f"Hit: {shows} and will usually make 17 or more (it busts only {_percent(dealer_bust)}), "
                f"so {total} will lose if you stand; one card busts you {_percent(bust)} of the time.")
    if action is Action.DOUBLE:
        return (f"Double: {'soft ' if soft else ''}{total} against {_card_name(up)} is a strong spot; "
                f"double your bet for exactly one more card.")
    if action is Action.SPLIT:
        if values[0] == 1:
            return "Split: each ace starts a new hand that a ten turns into 21."
        if values[0] == 8:
            return "Split: 16 is the worst total, while two hands starting with 8 are much better."
        return f"Split: two hands starting with {_card_name(values[0])} are worth more than one {total} here."
    if action is Action.SURRENDER:
        return (f"Surrender: {total} against {_card_name(up)} loses more than half the bet on average; "
                f"surrender and keep half.")
    if action is Action.INSURANCE:
        return "Take insurance: the unseen cards are rich enough in tens to make the 2:1 side bet pay."
    return "Decline insurance: it pays 2:1 but needs the hole card to be a ten more than 1 time in 3."


def basic_advice(player_cards: Iterable[CardLike], upcard: CardLike, rules: Rules | None = None, *,
                 legal: Collection[Action] | None = None) -> tuple[Action, str]:
    """Return the play your hints advise for a hand, and why in one line of plain words.

    The strategy is yours: rules you wrote down (which totals hit or stand, when to double,
    split or surrender against which upcards) and can defend; ``python -m milestones defend``
    plays it through the simulator beside basic strategy and mimic-the-dealer. Whatever it
    is, the play is one of ``legal``. The tests hold every hint to that, to a non-empty
    one-line reason, and to a short list of plays no defensible strategy makes: hitting
    (or doubling) a hard 17 or more, standing on 11 or less, splitting 5s or tens.

    The kit's own rules (this reference) are a multi-deck basic strategy written out by
    hand, for the rules' S17/H17, double-after-split and surrender; they agree with the
    chart derived from exact EVs (:func:`.basic_strategy`) on every two-card hand of the
    6-deck presets (``tests/hints/test_hints_advice.py``). The reason quotes the
    infinite-deck chances of busting with one more card and of the dealer busting
    (:func:`.bust_probability`, :func:`.dealer_probabilities`).

    Args:
        player_cards: the hand, Cards or point values (ace 1).
        upcard: the dealer's upcard.
        rules: the table rules (default ``Rules()``).
        legal: the actions allowed now, such as ``view.legal_actions`` (default:
            :func:`fresh_moves`, what the rules offer a hand of these cards before any
            other play). On an insurance offer it is ``{INSURANCE, DECLINE}``: the
            answer is one of those two.

    Returns:
        ``(action, reason)``, e.g. ``(Action.STAND, "Stand: the dealer shows a 6 and is
        likely to bust (42%); ...")``.

    Raises:
        InvalidCardError, TypeError: bad cards.
    """
    # BEGIN SOLUTION m2: choose the play for this hand against the upcard by rules of your own that you can defend (which totals hit or stand, when to double, split or surrender), always one of the legal moves (when none are given, the moves fresh_moves offers the hand; an insurance offer is answered INSURANCE or DECLINE), and explain it in one line that quotes the chance to bust with one more card and the dealer's chance to bust
    rules = _DEFAULT_RULES if rules is None else rules
    cards = list(player_cards)
    values = [card_value(c) for c in cards]
    up = card_value(upcard)
    moves = fresh_moves(cards, rules) if legal is None else frozenset(legal)
    if Action.INSURANCE in moves or Action.DECLINE in moves:  # the insurance offer: it loses without a count
        return Action.DECLINE, _reason(Action.DECLINE, values, up, 0.0, 0.0)

    def first(*plays: Action) -> Action:
        """The first of ``plays`` allowed now (STAND when none is: a hand in play may always stand)."""
        return next((play for play in plays if play in moves), Action.STAND)

    hard = sum(values)
    total = total_of(hard, 1 in values)
    soft = total != hard
    h17, das = rules.dealer_hits_soft_17, rules.double_after_split
    peek = rules.hole_card and rules.dealer_peeks  # else a dealer natural also takes doubled and split bets
    # the upcards each pair is split against (5s and tens never: 10 and 20 are better kept)
    splits = {1: range(1 if peek else 2, 11), 8: range(1, 11) if peek else range(2, 10), 9: (2, 3, 4, 5, 6, 8, 9),
              7: range(2, 8), 6: range(2 if das else 3, 7), 4: (5, 6) if das else (),
              3: range(2 if das else 4, 8), 2: range(2 if das else 4, 8)}
    pair = values[0] if len(values) == 2 and values[0] == values[1] else None
    worst = {16: (9, 10, 1), 15: (10, 1) if h17 else (10,), 17: (1,) if h17 else ()}  # hands to surrender
    if (Action.SURRENDER in moves and not soft and up in worst.get(total, ())
            and (pair != 8 or h17 and up == 1)):
        action = Action.SURRENDER
    elif pair is not None and Action.SPLIT in moves and up in splits.get(pair, ()):
        action = Action.SPLIT
    elif soft:
        if total >= 20 or total == 19 and not (h17 and up == 6):
            action = Action.STAND
        elif total == 19:
            action = first(Action.DOUBLE, Action.STAND)
        elif total == 18:
            if (2 if h17 else 3) <= up <= 6:
                action = first(Action.DOUBLE, Action.STAND)
            else:
                action = Action.STAND if up in (2, 7, 8) else first(Action.HIT)
        else:  # soft 12 (two aces kept) to soft 17
            lowest = {17: 3, 16: 4, 15: 4, 14: 5, 13: 5}.get(total, 7)
            action = first(Action.DOUBLE, Action.HIT) if lowest <= up <= 6 else first(Action.HIT)
    elif total >= 17:
        action = Action.STAND
    elif total >= 12:
        action = Action.STAND if (4 if total == 12 else 2) <= up <= 6 else first(Action.HIT)
    elif (total == 11 and (up != 1 or h17) and (peek or up != 10) or total == 10 and 2 <= up <= 9
          or total == 9 and 3 <= up <= 6):
        action = first(Action.DOUBLE, Action.HIT)
    else:
        action = first(Action.HIT)
    bust = bust_probability(values)
    dealer_bust = float(dealer_probabilities(up, None, rules)["bust"])
    return action, _reason(action, values, up, bust, dealer_bust)
    # END SOLUTION


def fresh_moves(player_cards: Iterable[CardLike], rules: Rules | None = None) -> frozenset[Action]:
    """The moves the rules offer a hand of these cards before any other play: :func:`basic_advice`'s default ``legal``.

    HIT and STAND; on two cards DOUBLE when ``rules.double_on`` allows the total and
    SURRENDER when the rules have it; SPLIT on a pair (two cards of one rank, or of one
    value under ``split_by="value"``; point values given as ints count as a pair) when
    ``rules.max_split_hands`` is above 1. A round's own ``legal_actions`` also knows the
    bankroll, the hands already split and a split hand's rules: pass it when you have it.

    Args:
        player_cards: the hand, Cards or point values (ace 1).
        rules: the table rules (default ``Rules()``).

    Raises:
        InvalidCardError, TypeError: bad cards.
    """
    return moves_for(list(player_cards), _DEFAULT_RULES if rules is None else rules)


#: Work units (:mod:`._work`) ``hint()`` gives the exact EVs before it falls back to ``exact=False``: 49-87 ms
#: of CPU on this shared 2-core machine as its speed varied (benchmarks/hints.py, 2026-11-23; docs/hints.md gives
#: the exact share and times). Unlike a time limit the budget does not see a slow machine: the price of a
#: replayable choice.
EXACT_WORK_BUDGET = 250_000

#: Seconds ``hint(..., ahead=...)`` waits for the exact EVs that :class:`.Ahead` is still
#: working out before it shows the ``exact=False`` ones (a few ms) instead: with them the
#: answer comes within about 0.1 s of the question (benchmarks/hints.py measures it).
AHEAD_WAIT = 0.06


def hint_evs(cards: Sequence[CardLike], upcard: int, unseen: Mapping[int, int], rules: Rules, *, from_split: bool = False,
             hands: int = 1, exact: bool | None = None, ahead: Ahead | None = None,
             wait: float | None = AHEAD_WAIT) -> tuple[dict[Action, float], bool]:
    """The EVs a hint shows: :func:`~.probability.expected_values`, exact when they fit the work budget or were worked out ahead.

    Args:
        cards: the hand.
        upcard: the dealer's upcard, 1..10.
        unseen: the unseen cards by point value.
        rules: the table rules.
        from_split: the hand came from a split.
        hands: the hands the seat holds now.
        exact: True or False forces the mode; None (the default) computes exactly within
            :data:`EXACT_WORK_BUDGET` work units (:mod:`._work`: the choice depends only on the
            decision and the call history, never the clock) and, if they run out, falls back
            to ``exact=False`` (the starting-composition approximation).
        ahead: with ``exact=None``, take the exact EVs from this worker when it has begun
            this decision (:meth:`.Ahead.start`): at once if they are ready, else after
            waiting up to ``wait`` seconds (None: until they are). Still running after
            that, ``exact=False`` answers; not begun there, the work budget decides as above.
            With a bounded ``wait``, whether a begun decision's answer is exact depends on
            how long the player took to ask, not only on the call history.
        wait: see ``ahead``.

    Returns:
        ``(evs, exact)``: the EVs and whether they are the exact ones.

    Raises:
        As :func:`~.probability.expected_values`.
    """
    evs = functools.partial(expected_values, cards, upcard, unseen, rules, from_split=from_split, hands=hands)
    if exact is not None:
        return evs(exact=exact), exact
    if ahead is not None:
        decision = Decision.of(cards, upcard, unseen, rules, from_split=from_split, hands=hands)
        ready = ahead.evs(decision, wait)
        if ready is not None:
            return ready, True
        if ahead.pending(decision):
            return evs(exact=False), False
    try:
        with work_budget(EXACT_WORK_BUDGET):
            return evs(), True
    except OutOfWork:
        return evs(exact=False), False


@dataclass(frozen=True)
class Tip:
    """A tip shown the first time a situation comes up.

    Attributes:
        key: the situation (``"ace"``, ``"pair"``, ``"insurance"`` ...).
        title: a few words.
        text: one or two sentences.
    """

    key: str
    title: str
    text: str


#: Every tip, by situation (justBlackjack's "first time" tips idea).
TIPS: dict[str, Tip] = {tip.key: tip for tip in (
    Tip("natural", "Blackjack!", "An ace with a ten-card as your first two cards is a blackjack. It beats every "
        "other hand and usually pays 3:2."),
    Tip("ace", "Your first ace", "An ace counts 1 or 11, whichever helps. A hand counting an ace as 11 is 'soft': "
        "one more card cannot bust it."),
    Tip("pair", "Your first pair", "Two cards of the same rank can be split into two hands, each with its own bet. "
        "Always split aces and eights; never split fives or tens."),
    Tip("double", "Doubling down", "Doubling down doubles your bet for exactly one more card. It is best with 10 or "
        "11 when the dealer shows a weak card."),
    Tip("stiff", "A stiff hand", "12 to 16 is a 'stiff' hand: one card may bust it. Stand when the dealer shows "
        "2-6 (the dealer may bust), hit against 7 to ace."),
    Tip("insurance", "Insurance", "Insurance is a side bet of up to half your bet that the dealer's hole card is "
        "a ten; it pays 2:1. Unless you count cards, decline it."),
    Tip("surrender", "Surrender", "Surrender gives up half your bet to end the hand at once. Use it for your "
        "worst hands, like 16 against a 10."),
    Tip("dealer_ace", "The dealer shows an ace", "An ace is the dealer's best card: it makes 21 with any "
        "ten-card, and often 17-21 otherwise."),
)}


class TipBook:
    """Remembers which tips a player has seen; a front end keeps one per player.

    Args:
        seen: tip keys already shown (e.g. loaded from a profile).
        enabled: False silences every tip.
    """

    def __init__(self, seen: Iterable[str] = (), *, enabled: bool = True) -> None:
        self.seen: set[str] = set(seen)
        self.enabled = enabled

    def situations(self, state: TableView) -> list[str]:
        """The tip keys that apply to the current decision, in :data:`TIPS` order."""
        found: set[str] = set()
        hand = state.current_hand
        up = state.dealer.upcard
        legal = state.legal_actions
        if state.phase is Phase.INSURANCE:
            found.add("insurance")
        if up is not None and up.get_value() == 1:
            found.add("dealer_ace")
        if hand is not None:
            values = [c.get_value() for c in hand.cards]
            if 1 in values:
                found.add("ace")
            if getattr(hand, "is_blackjack", False):
                found.add("natural")
            if Action.SPLIT in legal:
                found.add("pair")
            if Action.DOUBLE in legal:
                found.add("double")
            if Action.SURRENDER in legal:
                found.add("surrender")
            hard = sum(values)
            if total_of(hard, 1 in values) == hard and 12 <= hard <= 16:
                found.add("stiff")
        return [key for key in TIPS if key in found]

    def check(self, state: TableView) -> tuple[Tip, ...]:
        """Return the tips for situations seen now for the first time, and mark them seen."""
        if not self.enabled:
            return ()
        new = [TIPS[key] for key in self.situations(state) if key not in self.seen]
        self.seen.update(tip.key for tip in new)
        return tuple(new)

    def reset(self) -> None:
        """Forget every tip shown, so they appear again."""
        self.seen.clear()
