"""Level 4 hints: card counting with data-defined systems, index plays and a bet ramp.

>>> running_count(parse_cards("2c 5d Kh As 9s"))
0
>>> true_count(6, 156)
2.0
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources

from ..actions import Action
from ..cards import parse_cards  # noqa: F401  (used by the doctest)
from ..errors import RulesError
from ..rules import Rules
from ..view import TableView
from .advice import basic_advice, fresh_moves
from .probability import CardLike, card_value
from .strategy import basic_strategy

#: The game the indices were published for: 6 decks, S17, DAS, peek, late surrender.
_PUBLISHED_GAME = Rules(surrender="late")

__all__ = [
    "FAB_4", "ILLUSTRIOUS_18", "INSURANCE_INDEX", "SCHLESINGER", "STAND_16_V_10_INDEX", "CountSummary", "Counter",
    "CountingSystem", "IndexPlay", "bet_ramp", "count_advice", "count_from_unseen", "count_summary", "index_play",
    "insure_by_count", "running_count", "system", "systems", "true_count"
]


@dataclass(frozen=True)
class CountingSystem:
    """One card-counting system, as defined in ``counting.toml``.

    Attributes:
        key: the short name (``"hi_lo"``).
        name: the display name (``"Hi-Lo"``).
        level: the largest tag size (1 or 2).
        tags: the tag of ace, 2, ..., 9, ten-valued card (index 0 = ace).
        balanced: the published claim that a full deck's tags sum to 0.
        initial_count_constant, initial_count_per_deck: the initial running count of an
            unbalanced system is ``constant + per_deck * decks`` (0 for balanced ones).
        key_count: unbalanced systems: the running count where the player has the edge.
        insurance_true_count: balanced systems: insure at or above this true count.
        insurance_running_count: unbalanced systems: insure at or above this running count.
        source: where the tags come from.
    """

    key: str
    name: str
    level: int
    tags: tuple[int, ...]
    balanced: bool
    initial_count_constant: int = 0
    initial_count_per_deck: int = 0
    key_count: int | None = None
    insurance_true_count: int | None = None
    insurance_running_count: int | None = None
    source: str = ""

    def tag(self, card: CardLike) -> int:
        """Return the tag of one card (a Card or a point value 1..10)."""
        return self.tags[card_value(card) - 1]

    def deck_sum(self) -> int:
        """Return the sum of the tags over one 52-card deck (0 for a balanced system)."""
        return sum(4 * t for t in self.tags[:9]) + 16 * self.tags[9]

    def initial_count(self, decks: int) -> int:
        """Return the running count at the start of a shoe of ``decks`` decks (KO: 4 - 4 x decks)."""
        return self.initial_count_constant + self.initial_count_per_deck * decks


@functools.cache
def systems() -> dict[str, CountingSystem]:
    """Return every counting system in ``counting.toml``, by key, in file order."""
    data = tomllib.loads(resources.files(__package__).joinpath("counting.toml").read_text(encoding="utf-8"))
    return {key: CountingSystem(key=key, **{**table, "tags": tuple(table["tags"])}) for key, table in data.items()}


def system(key: str | CountingSystem) -> CountingSystem:
    """Return the counting system with this key (``"hi_lo"``, ``"ko"``, ``"hi_opt_1"``, ``"omega_2"``, ``"zen"``).

    Names are case-insensitive; ``-`` and spaces count as ``_``; a CountingSystem is returned as is.

    Raises:
        RulesError: (a ValueError) no system has that key; the message lists them.
    """
    if isinstance(key, CountingSystem):
        return key
    table = systems()
    wanted = key.strip().lower().replace("-", "_").replace(" ", "_")
    if wanted in table:
        return table[wanted]
    for found in table.values():
        if found.name.lower() == key.strip().lower():
            return found
    raise RulesError(f"unknown counting system: {key!r}; choose from: {', '.join(table)}")


def running_count(cards: Iterable[CardLike], counting: str | CountingSystem = "hi_lo", *,
                  decks: int | None = None) -> int:
    """Return the running count after seeing ``cards``: the sum of their tags.

    Args:
        cards: the cards seen since the shuffle, Cards or point values (ace 1).
        counting: the system or its key (default Hi-Lo).
        decks: for an unbalanced system, the decks in the shoe: the count then starts at
            the system's initial count (KO: 4 - 4 x decks). Ignored for balanced systems.

    Returns:
        The running count, an int.

    Raises:
        RulesError: an unknown system. InvalidCardError, TypeError: a bad card.
    """
    # BEGIN SOLUTION m2: add the tag of every card seen to the system's starting count
    chosen = system(counting)
    start = chosen.initial_count(decks) if decks is not None and not chosen.balanced else 0
    return start + sum(chosen.tag(card) for card in cards)
    # END SOLUTION


def true_count(running: int, cards_remaining: int) -> float:
    """Return the true count: the running count divided by the decks not yet seen.

    Args:
        running: the running count of a balanced system.
        cards_remaining: the cards not yet seen (``view.cards_remaining`` plus the hole
            card, or the length of the unseen composition); 52 cards make one deck.

    Returns:
        ``running / (cards_remaining / 52)`` as a float (not rounded; Hi-Lo players
        usually floor it before comparing with an index).

    Raises:
        ValueError: ``cards_remaining`` is not positive.
    """
    # BEGIN SOLUTION m2: divide the running count by the number of decks left (cards / 52)
    if cards_remaining <= 0:
        raise ValueError(f"cards_remaining must be positive, got {cards_remaining}")
    return running * 52 / cards_remaining
    # END SOLUTION


class Counter:
    """A running count kept through a shoe: call :meth:`see` for every card turned face up.

    Args:
        counting: the system or its key (default Hi-Lo).
        decks: decks in the shoe (sets an unbalanced system's initial count).
    """

    def __init__(self, counting: str | CountingSystem = "hi_lo", *, decks: int = 6) -> None:
        self.system = system(counting)
        self.decks = decks
        self.running = self.system.initial_count(decks)
        self.seen = 0

    def see(self, *cards: CardLike) -> int:
        """Count the cards; return the new running count."""
        for card in cards:
            self.running += self.system.tag(card)
            self.seen += 1
        return self.running

    def reset(self) -> None:
        """Start again after a shuffle."""
        self.running = self.system.initial_count(self.decks)
        self.seen = 0

    def true_count(self, cards_remaining: int | None = None) -> float:
        """The true count; ``cards_remaining`` defaults to the shoe less the cards seen."""
        left = self.decks * 52 - self.seen if cards_remaining is None else cards_remaining
        return true_count(self.running, left)

    def __repr__(self) -> str:
        return f"<Counter {self.system.name} running={self.running} seen={self.seen}>"


def insure_by_count(running: int, cards_remaining: int, counting: str | CountingSystem = "hi_lo") -> bool:
    """Return True when the count says to take insurance (or even money).

    Hi-Lo: at a true count of +3 or more (Illustrious 18 no. 1, Schlesinger, *Blackjack
    Attack*). KO: at a running count of +3 or more (Vancura & Fuchs). For an exact answer
    from the cards themselves use :func:`.insurance_probability` (insure above 1/3).

    Raises:
        RulesError: the system has no published insurance index.
    """
    chosen = system(counting)
    if chosen.insurance_running_count is not None:
        return running >= chosen.insurance_running_count
    if chosen.insurance_true_count is not None:
        return true_count(running, cards_remaining) >= chosen.insurance_true_count
    raise RulesError(f"{chosen.name} has no published insurance index in this kit; "
                     "use insurance_probability(unseen cards) > 1/3")


#: Where the Illustrious 18 and Fab 4 come from (cited on every :class:`IndexPlay`).
SCHLESINGER = ("Don Schlesinger, Blackjack Attack: Playing the Pros' Way, 3rd ed. (2005), ch. 5 "
               "(Illustrious 18) and ch. 5 'The Fab 4' (late surrender); Hi-Lo, multi-deck (4-8 decks), "
               "dealer stands on soft 17, dealer peeks")


@dataclass(frozen=True)
class IndexPlay:
    """A count-dependent departure from basic strategy (Hi-Lo true count).

    Take ``action`` when the true count is at least ``index``; below it play ``otherwise``.

    Attributes:
        label: how players write it, e.g. ``"16 vs 10"``.
        total: the player's hard total (pairs: the pair total, 20 for T,T; 0 for insurance).
        pair: the hand is that pair (T,T) rather than any total.
        upcard: the dealer's upcard (ace 1).
        action: the play at or above the index.
        otherwise: the basic-strategy play below it.
        index: the true count.
        min_decks: the fewest decks the index was derived for (published: 4-8 decks).
        h17: derived for a dealer who hits soft 17 (the published I18 and Fab 4: False).
        source: the publication.
    """

    label: str
    total: int
    pair: bool
    upcard: int
    action: Action
    otherwise: Action
    index: int
    min_decks: int = 4
    h17: bool = False
    source: str = SCHLESINGER

    def applies_to(self, rules: Rules) -> bool:
        """Whether the index was derived for these rules.

        The published indices hold for a US hole-card game with naturals and a peek, at
        least ``min_decks`` decks, and the same soft-17 rule; a surrender index also
        needs late surrender. Other games (single and double deck, H17, no peek) have
        other indices, so none is shown there.
        """
        if not (rules.naturals and rules.dealer_peeks and rules.hole_card):
            return False
        if rules.decks < self.min_decks or rules.dealer_hits_soft_17 != self.h17:
            return False
        if self.action is Action.SURRENDER and rules.surrender != "late":
            return False
        if self.action is Action.INSURANCE and not rules.insurance:
            return False
        return True


_S, _H, _D, _P, _R, _I = Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER, Action.INSURANCE

#: The Illustrious 18 for Hi-Lo, multi-deck S17, in order of value (Don Schlesinger,
#: *Blackjack Attack*, 3rd ed., ch. 5).
ILLUSTRIOUS_18: tuple[IndexPlay, ...] = (
    IndexPlay("insurance", 0, False, 1, _I, Action.DECLINE, 3),
    IndexPlay("16 vs 10", 16, False, 10, _S, _H, 0),
    IndexPlay("15 vs 10", 15, False, 10, _S, _H, 4),
    IndexPlay("T,T vs 5", 20, True, 5, _P, _S, 5),
    IndexPlay("T,T vs 6", 20, True, 6, _P, _S, 4),
    IndexPlay("10 vs 10", 10, False, 10, _D, _H, 4),
    IndexPlay("12 vs 3", 12, False, 3, _S, _H, 2),
    IndexPlay("12 vs 2", 12, False, 2, _S, _H, 3),
    IndexPlay("11 vs A", 11, False, 1, _D, _H, 1),
    IndexPlay("9 vs 2", 9, False, 2, _D, _H, 1),
    IndexPlay("10 vs A", 10, False, 1, _D, _H, 4),
    IndexPlay("9 vs 7", 9, False, 7, _D, _H, 3),
    IndexPlay("16 vs 9", 16, False, 9, _S, _H, 5),
    IndexPlay("13 vs 2", 13, False, 2, _S, _H, -1),
    IndexPlay("12 vs 4", 12, False, 4, _S, _H, 0),
    IndexPlay("12 vs 5", 12, False, 5, _S, _H, -2),
    IndexPlay("12 vs 6", 12, False, 6, _S, _H, -1),
    IndexPlay("13 vs 3", 13, False, 3, _S, _H, -2),
)

#: The Fab 4 late-surrender index plays for Hi-Lo, multi-deck S17 (Schlesinger,
#: *Blackjack Attack*, 3rd ed., ch. 5, "The Fab 4").
FAB_4: tuple[IndexPlay, ...] = (
    IndexPlay("14 vs 10", 14, False, 10, _R, _H, 3),
    IndexPlay("15 vs 10", 15, False, 10, _R, _H, 0),
    IndexPlay("15 vs 9", 15, False, 9, _R, _H, 2),
    IndexPlay("15 vs A", 15, False, 1, _R, _H, 1),
)


def index_play(player_cards: Iterable[CardLike], upcard: CardLike, *, surrender: bool = False,
               insurance_offer: bool = False, rules: Rules | None = None,
               split_allowed: bool = True) -> tuple[IndexPlay, ...]:
    """Return the index plays that apply to this hand, surrender plays (Fab 4) first.

    Args:
        player_cards: the hand (hard totals only: soft hands have no I18 entry).
        upcard: the dealer's upcard.
        surrender: surrender is allowed now (then the Fab 4 apply).
        insurance_offer: the decision is the insurance offer.
        rules: the table rules; when given, only indices derived for them
            (:meth:`IndexPlay.applies_to`) are returned, and a pair is read by the
            basic-strategy chart for these rules. Default: a game the indices were
            published for (``Rules(surrender="late")``: 6 decks, S17, DAS, peek).
        split_allowed: the pair may be split now; a pair that basic strategy splits (8,8;
            6,6 v 2-6 ...) has no hard-total index unless it cannot be split.

    Returns:
        The matching plays; apply the first one whose action is allowed:
        ``play.action if tc >= play.index else play.otherwise``.
    """
    up = card_value(upcard)
    table = _PUBLISHED_GAME if rules is None else rules
    if insurance_offer:
        return tuple(p for p in ILLUSTRIOUS_18[:1] if up == 1 and p.applies_to(table))
    values = [card_value(c) for c in player_cards]
    hard = sum(values)
    if 1 in values and hard + 10 <= 21:
        return ()  # soft
    pair = len(values) == 2 and values[0] == values[1]
    found = [p for p in FAB_4 if surrender and len(values) == 2 and p.total == hard and p.upcard == up
             and p.applies_to(table)]
    splits = pair and split_allowed and _chart_splits(table, values[0], up)
    for play in ILLUSTRIOUS_18[1:]:
        if play.upcard == up and play.total == hard and (not play.pair or pair) and play.applies_to(table):
            if splits and not play.pair:
                continue  # basic strategy splits this pair: it is not played as its total
            if play.action is _D and len(values) != 2:
                continue
            found.append(play)
    if splits:
        found = [p for p in found if p.pair]  # the Fab 4 are for hard totals that hit, not split pairs
    return tuple(found)


def _chart_splits(rules: Rules, value: int, up: int) -> bool:
    """Whether the basic-strategy chart for ``rules`` splits a pair of ``value`` against ``up``."""
    code = basic_strategy(rules).pair_code(value, up)
    return code in ("P", "Rp") or (code == "Ph" and rules.double_after_split)


def bet_ramp(true_count_value: float, unit: int | Fraction, *, spread: int = 8) -> Fraction:
    """Suggest a bet for the true count: 1 unit up to +1, then 2 units per true count point.

    The ramp (the true count floored: below +2 1 unit, +2 2 units, +3 4, +4 6, +5 and up 8,
    capped at ``spread`` units; ``2 x (tc - 1)`` from +2 up) follows
    the common rule of betting in proportion to the edge: the player's edge rises about
    0.5% per Hi-Lo true count and is roughly zero near +1 (Wizard of Odds, "Card
    Counting"). It is a teaching ramp, not an optimal (Kelly) one.

    Args:
        true_count_value: the true count (floored before use).
        unit: the base bet in credits (the table minimum, say); an int or Fraction.
        spread: the largest bet in units.

    Returns:
        The bet in credits, a Fraction (money is never a float).

    Raises:
        ValueError: ``unit`` is not positive or ``spread`` is less than 1.
    """
    # BEGIN SOLUTION m2: refuse a unit that is not positive or a spread below 1 with ValueError; floor the true count; bet 1 unit below +2, else 2 units for each point above +1, never more than spread units; return unit times that as exact money (a Fraction)
    if unit <= 0 or spread < 1:
        raise ValueError(f"unit must be positive and spread at least 1, got {unit} and {spread}")
    tc = math.floor(true_count_value)
    units = 1 if tc < 2 else min(spread, 2 * (tc - 1))
    return Fraction(unit) * units
    # END SOLUTION


#: The true count at or above which :func:`count_advice` takes insurance (Illustrious 18 no. 1).
INSURANCE_INDEX = 3
#: The true count at or above which :func:`count_advice` stands on a hard 16 against a ten (Illustrious 18 no. 2).
STAND_16_V_10_INDEX = 0


def count_advice(player_cards: Iterable[CardLike], upcard: CardLike, true_count_value: float,
                 rules: Rules | None = None, *, legal: Collection[Action] | None = None) -> tuple[Action, str]:
    """Return the play your hints advise at this Hi-Lo true count, and why in one line: the count put to use.

    It is :func:`.basic_advice`'s play (your rules without the count), changed where the
    count says the cards left are not a full shoe's. At least the two most valuable Hi-Lo
    index plays (Schlesinger, *Blackjack Attack*, the Illustrious 18 nos. 1 and 2):

    * **insurance**: on the insurance offer (``legal`` holds INSURANCE and DECLINE) take
      INSURANCE at a true count of +3 or more (:data:`INSURANCE_INDEX`) and DECLINE below:
      from about +3 up a third of the unseen cards are tens, and the 2:1 side bet pays;
    * **16 against a ten**: a hard 16 (no ace counted as 11; not a pair of 8s you split)
      against a ten STANDs at a true count of 0 or more (:data:`STAND_16_V_10_INDEX`) and
      HITs below; a surrender your ``basic_advice`` chose stays.

    Compare the true count with an index as it is (``true_count_value >= 3``): for a whole
    index that is the same as flooring it first. Other index plays (:data:`ILLUSTRIOUS_18`)
    are yours to add. ``python -m milestones defend`` plays it, with :func:`bet_ramp` for
    the bets, beside your hints without the count.

    Args:
        player_cards: the hand, Cards or point values (ace 1).
        upcard: the dealer's upcard.
        true_count_value: the Hi-Lo true count of the cards seen (:func:`true_count`).
        rules: the table rules (default ``Rules()``).
        legal: the actions allowed now (default: :func:`.fresh_moves`).

    Returns:
        ``(action, reason)``: one of the legal actions, and a one-line reason that names the
        count when the count decided the play.

    Raises:
        InvalidCardError, TypeError: bad cards.
    """
    # BEGIN SOLUTION m2: on the insurance offer take INSURANCE at a true count of +3 or more and DECLINE below; otherwise start from basic_advice's play and reason, but play a hard 16 against a ten (not a pair of 8s you split, not a surrender basic_advice chose) by the count: STAND at 0 or more, HIT below; the reason names the count when it decided
    cards = list(player_cards)
    moves = fresh_moves(cards, rules) if legal is None else frozenset(legal)
    shown = f"{true_count_value:+.1f}"
    if Action.INSURANCE in moves and Action.DECLINE in moves:
        if true_count_value >= INSURANCE_INDEX:
            return Action.INSURANCE, (f"Take insurance: at a true count of {shown} (+{INSURANCE_INDEX} or more) "
                                      f"a third or more of the unseen cards are tens, so the 2:1 side bet pays.")
        return Action.DECLINE, (f"Decline insurance: at a true count of {shown} (below +{INSURANCE_INDEX}) too few "
                                f"of the unseen cards are tens for the 2:1 side bet to pay.")
    play, why = basic_advice(cards, upcard, rules, legal=moves)
    values = [card_value(card) for card in cards]
    hard = sum(values)
    soft = 1 in values and hard + 10 <= 21
    if hard == 16 and not soft and card_value(upcard) == 10 and play in (Action.HIT, Action.STAND):
        if true_count_value >= STAND_16_V_10_INDEX:
            return Action.STAND, (f"Stand: at a true count of {shown} (0 or more) the unseen cards are rich "
                                  f"enough in tens that hitting 16 against a ten busts too often.")
        if Action.HIT in moves:
            return Action.HIT, (f"Hit: at a true count of {shown} (below 0) the unseen cards are rich in small "
                                f"cards, so hitting 16 against a ten beats standing.")
    return play, why
    # END SOLUTION


def count_from_unseen(unseen: Mapping[int, int], decks: int, counting: str | CountingSystem = "hi_lo") -> int:
    """Return the running count of every card already seen, from the unseen cards alone.

    The seen cards are the full shoe less the unseen ones, so the running count is the
    initial count plus ``decks x deck_sum`` minus the tags of the unseen cards. This
    is how a hint reads the count from ``view.unseen_counts`` (the hole card, being
    unseen, is not counted).

    Args:
        unseen: point value 1..10 -> count of cards not seen.
        decks: decks in the shoe.
        counting: the system or its key.
    """
    chosen = system(counting)
    unseen_sum = sum(chosen.tags[v - 1] * n for v, n in unseen.items())
    return chosen.initial_count(decks) + decks * chosen.deck_sum() - unseen_sum


@dataclass(frozen=True)
class CountSummary:
    """The count a player knows at a point of the shoe, and the bet it suggests (see :func:`count_summary`).

    Attributes:
        system: the counting system used.
        running: the running count of every card seen since the shuffle (an unbalanced
            system's initial count included).
        cards_remaining: cards the players have not seen: the undealt shoe and a
            face-down hole card.
        decks_remaining: ``cards_remaining / 52``, exact.
        true: the true count, ``running / decks_remaining`` as a float (not floored);
            0.0 when no card is unseen; None for an unbalanced system (KO is played on
            the running count, without a true count).
        suggested_bet: the :func:`bet_ramp` bet for ``true`` in units of the table
            minimum, capped at the table maximum, in credits (a Fraction); None for an
            unbalanced system.
        insure: the count's insurance decision (:func:`insure_by_count`) when the table
            offers insurance, the dealer shows an ace and the system has a published
            insurance index (Hi-Lo by the true count, KO by the running count); else None.
    """

    system: CountingSystem
    running: int
    cards_remaining: int
    decks_remaining: Fraction
    true: float | None
    suggested_bet: Fraction | None
    insure: bool | None = None


def count_summary(view: TableView, counting: str | CountingSystem = "hi_lo", *, spread: int = 8) -> CountSummary:
    """Return the count from what the players have seen in ``view``, with a bet suggestion (:class:`CountSummary`).

    Args:
        view: a table view (``view.unseen_counts``, ``view.decks`` and ``view.rules`` are read).
        counting: the system or its key (default Hi-Lo).
        spread: the largest bet in units of the table minimum, before the table maximum caps it.

    Raises:
        RulesError: an unknown system. ValueError: ``spread`` is less than 1.
    """
    chosen = system(counting)
    left = sum(view.unseen_counts.values())
    running = count_from_unseen(view.unseen_counts, view.decks, chosen)
    tc: float | None = None
    bet: Fraction | None = None
    if chosen.balanced:
        tc = true_count(running, left) if left else 0.0
        bet = min(bet_ramp(tc, view.rules.min_bet, spread=spread), Fraction(view.rules.max_bet))
    insure: bool | None = None
    has_index = chosen.insurance_true_count is not None or chosen.insurance_running_count is not None
    upcard = view.dealer.upcard
    if has_index and view.rules.insurance and upcard is not None and upcard.face == 1 and left:
        insure = insure_by_count(running, left, chosen)
    return CountSummary(system=chosen, running=running, cards_remaining=left, decks_remaining=Fraction(left, 52),
                        true=tc, suggested_bet=bet, insure=insure)
