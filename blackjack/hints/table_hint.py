"""The front ends' one call: ``hint(view)``, one :class:`Hint` for the decision in front of a player.

Above every level: the play with the highest EV (level 2), the chart's play (level 3),
the count and an index play (level 4), in the words of level 1. ``hint`` takes only a
:class:`~blackjack.view.TableView` (or any object with the same attributes), never the
round: it sees what a player at the table sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..actions import Action, Phase
from ..cards import Card
from ..errors import IllegalActionError
from ..rules import Rules
from ..view import TableView
from ._player import before_peek, insurance_ev
from ._work import collector_paused
from .advice import AHEAD_WAIT, _percent, _reason, hint_evs
from .ahead import Ahead
from .counting import count_from_unseen, index_play, true_count
from .probability import bust_probability, dealer_probabilities, insurance_probability
from .strategy import chart_if_ready

__all__ = ["APPROXIMATE_NOTE", "Hint", "hint", "split_model"]


#: The line :meth:`Hint.lines` adds under EVs that are not the exact ones.
APPROXIMATE_NOTE = ("EVs approximate: the dealer's odds for the cards left now are used all the way down "
                    "(close, not exact).")


@dataclass(frozen=True)
class Hint:
    """One piece of advice for the decision in front of a player.

    Attributes:
        action: the play with the highest expected value among the legal ones.
        reason: why, in one or two plain sentences.
        evs: ``{Action: EV}`` per unit of the initial bet, for the legal actions
            (conditioned on no dealer natural when the dealer has peeked).
        bust_chance: the chance one more card busts the hand (None for insurance).
        dealer: the dealer's final-total distribution for the unseen cards, conditioned
            as the EVs are.
        basic: the basic-strategy chart's play (it may differ from ``action`` when the
            cards left in the shoe favour another play).
        exact: the EVs are exact for the unseen cards (False: the hit tree used the
            starting composition, see :func:`.expected_values`).
        running_count: the Hi-Lo running count of the cards seen (from the unseen cards).
        true_count: the Hi-Lo true count.
        index_note: an Illustrious 18 / Fab 4 play that applies at this count, or "".
        split_model: how the SPLIT EV was computed (post-split strategy, resplits, pair
            model), or "" when splitting is not offered.
    """

    action: Action
    reason: str
    evs: Mapping[Action, float] = field(default_factory=dict)
    bust_chance: float | None = None
    dealer: Mapping[str, float] = field(default_factory=dict)
    basic: Action | None = None
    exact: bool = True
    running_count: int = 0
    true_count: float = 0.0
    index_note: str = ""
    split_model: str = ""

    def lines(self) -> list[str]:
        """The hint as short lines of text for a front end to show (no printing here)."""
        out = [self.reason]
        if self.evs:
            ranked = sorted(self.evs.items(), key=lambda item: -item[1])
            out.append("EV per unit bet: " + ", ".join(f"{a.value} {v:+.3f}" for a, v in ranked))
            if not self.exact:
                out.append(APPROXIMATE_NOTE)
        if self.split_model:
            out.append(self.split_model)
        if self.bust_chance is not None:
            out.append(f"Chance to bust if you hit: {_percent(self.bust_chance)}")
        if self.dealer:
            parts = ", ".join(f"{k} {_percent(v)}" for k, v in self.dealer.items() if v > 0)
            out.append(f"Dealer finishes: {parts}")
        if self.basic is not None and self.basic is not self.action:
            favour = "the cards left favour" if self.exact else "the approximate EVs favour"
            out.append(f"Basic strategy says {self.basic.value}; {favour} {self.action.value}.")
        out.append(f"Hi-Lo count: running {self.running_count:+d}, true {self.true_count:+.1f}")
        if self.index_note:
            out.append(self.index_note)
        return out


def hint(state: TableView, *, exact: bool | None = None, ahead: Ahead | None = None,
         wait: float | None = AHEAD_WAIT) -> Hint:
    """Return the best play for the current decision of a round, with the numbers behind it.

    Args:
        state: the round's view (``round.view()``); uses ``phase``, ``rules``,
            ``dealer.upcard``, ``seats``, ``turn``, ``legal_actions`` and ``unseen_counts``.
        exact: force exact EVs (True) or the fast approximation (False). Default: exact
            within a work budget, else the approximation (:func:`.advice.hint_evs`), and
            ``Hint.exact`` says which.
        ahead: a worker that may have begun this decision's exact EVs
            (:class:`.Ahead`, started when the cards were dealt); see :func:`.advice.hint_evs`.
        wait: the most seconds to wait for ``ahead`` (None: until it is done).

    Returns:
        A :class:`Hint`. Insurance offers compare the hole card's ten chance with 1/3;
        early surrender compares -0.5 with the best play's EV before the peek.

    Raises:
        IllegalActionError: no decision is pending (the view has no turn).
    """
    with collector_paused():
        return _hint(state, exact, ahead, wait)


def _hint(state: TableView, exact: bool | None, ahead: Ahead | None, wait: float | None) -> Hint:
    rules = state.rules
    if state.turn is None or state.dealer.upcard is None:  # the round sets a turn only while a decision waits
        raise IllegalActionError("no decision to give a hint for right now")
    seat_index, hand_index = state.turn
    seat = state.seats[seat_index]
    hand = seat.hands[hand_index]
    cards: list[Card] = list(hand.cards)
    values = [c.get_value() for c in cards]
    up = state.dealer.upcard.get_value()
    unseen = dict(state.unseen_counts)
    legal = state.legal_actions
    decks = rules.decks
    running = count_from_unseen(unseen, decks)
    left = sum(unseen.values())
    tc = true_count(running, left) if left else 0.0

    if state.phase is Phase.INSURANCE:
        p = insurance_probability(unseen)
        ev = insurance_ev(p)
        take = p > 1 / 3 and Action.INSURANCE in legal
        action = Action.INSURANCE if take else Action.DECLINE
        reason = (_reason(action, values, up, 0.0, 0.0)
                  + f" The hole card is a ten with chance {100 * p:.1f}%.")
        plays = index_play(values, up, insurance_offer=True, rules=rules)
        note = f"Illustrious 18: insure at true count +{plays[0].index} or more." if plays else ""
        return Hint(action, reason, {Action.INSURANCE: ev, Action.DECLINE: 0.0}, None, {}, Action.DECLINE,
                    True, running, tc, note)

    evs_all, exact = hint_evs(cards, up, unseen, rules, from_split=hand.from_split, hands=len(seat.hands),
                              exact=exact, ahead=ahead, wait=wait)
    evs_all.pop(Action.INSURANCE, None)
    dealer = dealer_probabilities(up, unseen, rules)
    if state.phase is Phase.EARLY_SURRENDER:
        keep = max(v for a, v in evs_all.items() if a is not Action.SURRENDER)
        playing_on = keep  # without a peek the EVs already count a dealer natural
        when = "counting a dealer blackjack, which takes the whole bet"
        if rules.dealer_peeks:  # the decision comes before the peek: its EV and odds are the unpeeked ones
            dealer = dealer_probabilities(up, unseen, rules, peeked=False)
            playing_on = before_peek(keep, float(dealer["blackjack"]))
            when = "before the dealer checks for blackjack"
        action = Action.SURRENDER if -0.5 > playing_on else Action.DECLINE
        reason = (f"{'Surrender' if action is Action.SURRENDER else 'Decline surrender'}: playing on is worth "
                  f"{playing_on:+.3f} of a bet {when}, surrender -0.500.")
        return Hint(action, reason, {Action.SURRENDER: -0.5, Action.DECLINE: playing_on}, None,
                    {k: float(v) for k, v in dealer.items()}, None, exact, running, tc)

    evs = {a: v for a, v in evs_all.items() if a in legal}
    if not evs:
        raise IllegalActionError("no decision to give a hint for right now")
    action = max(evs, key=lambda a: evs[a])
    bust = bust_probability(values, unseen, upcard=up, rules=rules)
    chart = chart_if_ready(rules)  # deriving one takes seconds: a hint does not wait for it
    basic = chart.action(cards, up, legal=legal) if chart is not None else None
    reason = _reason(action, values, up, bust, float(dealer["bust"]))
    note = ""
    for play in index_play(values, up, surrender=Action.SURRENDER in legal, rules=rules,
                           split_allowed=Action.SPLIT in legal):
        if play.action in legal or play.action is Action.STAND:
            chosen = play.action if tc >= play.index else play.otherwise
            note = f"Hi-Lo index {play.label}: {play.action.value} at true count {play.index:+d} or more " \
                   f"(now {tc:+.1f}: {chosen.value})."
            break
    model = split_model(rules, values[0], len(seat.hands), exact) if Action.SPLIT in evs else ""
    return Hint(action, reason, evs, bust, {k: float(v) for k, v in dealer.items()}, basic, exact,
                running, tc, note, model)


def split_model(rules: Rules, pair: int, hands: int = 1, exact: bool = True) -> str:
    """One sentence on how the SPLIT EV is computed, for showing next to it.

    Args:
        rules: the table rules.
        pair: the pair's point value (ace 1).
        hands: the hands the seat holds now.
        exact: the EVs are exact (False: the resplit approximation of ``exact=False``).

    Returns:
        E.g. "Split EV: each split hand played as best for the first one (CDP1), up to 4
        hands, pairs by rank (K-K, not K-Q)."
    """
    most = rules.max_split_hands - hands + 1
    if pair == 1 and not rules.resplit_aces:
        most = 2
    how = ("each split hand played as best for the first one (CDP1)" if exact
           else "approximate (starting-composition dealer, constant re-pair chance)")
    pairs = "pairs by rank (K-K, not K-Q)" if rules.split_by == "rank" else "pairs by value (any two tens)"
    return f"Split EV: {how}, up to {most} hands, {pairs}."
