"""Level 2 hints: exact probabilities and expected values for the cards left in the shoe.

A *composition* is either ``None`` (an infinite deck: every ace..nine has chance 1/13,
ten-valued cards 4/13) or the cards still unseen by the player: a mapping point value
1..10 -> count, a :class:`~blackjack.deck.Shoe` (its undealt cards), or a sequence of ten
counts. The upcard and the player's cards must already be out of it; during a round
pass ``view.unseen_counts``, which also holds the dealer's face-down hole card.

All results are exact for the composition (EVs are floats, rounding error far below 1e-12); docs/hints.md
("Level 2: method and conditioning") tells how the EV engine (``_dealer``, ``_stand``, ``_player``, ``_split``)
works them out.

>>> round(dealer_probabilities(6)["bust"], 4)
0.4232
>>> round(bust_probability([10, 6]), 4)
0.6154
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..cards import Card
from ..errors import EmptyShoeError, IllegalActionError, InvalidCardError
from ..rules import Rules
from ._dealer import INFINITE, OUTCOMES, forbidden_hole
from ._player import Game, can_double, draws, insurance_value, natural_chance, total_of, tree_for
from ._split import split_value

__all__ = [
    "OUTCOMES", "counts_from", "full_shoe", "without", "bust_probability", "dealer_probabilities", "expected_values",
    "insurance_probability"
]

Counts = tuple[int, ...]
_DEFAULT_RULES = Rules()


@runtime_checkable
class HasCounts(Protocol):
    """Anything with ``counts()`` -> ``{1..10: count}``, such as :class:`~blackjack.deck.Shoe`."""

    def counts(self) -> Mapping[int, int]:
        """The undealt cards by point value."""
        ...


CardLike = Card | int
ShoeLike = Mapping[int, int] | HasCounts | Sequence[int] | None


def card_value(card: object) -> int:
    """Return the point value 1..10 (ace 1) of a :class:`Card` or an int.

    Raises:
        InvalidCardError: an int outside 1..10.
        TypeError: neither a Card nor an int.
    """
    if isinstance(card, Card):
        return card.get_value()
    if isinstance(card, bool) or not isinstance(card, int):
        raise TypeError(f"a card must be a Card or a point value 1..10, not {type(card).__name__}")
    if not 1 <= card <= 10:
        raise InvalidCardError(f"card point value must be 1..10 (ace = 1), got {card}", str(card))
    return card


def full_shoe(decks: int) -> Counts:
    """The composition of ``decks`` full 52-card decks as a count vector (layout of :func:`counts_from`).

    >>> full_shoe(1)
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    """
    return (4 * decks,) * 9 + (16 * decks,)


def without(counts: Counts, values: Iterable[int]) -> Counts:
    """The count vector ``counts`` less one card of each point value in ``values`` (ace 1).

    The caller makes sure every card is there to take: a count may not go below zero.

    >>> without(full_shoe(1), (1, 10, 10))
    (3, 4, 4, 4, 4, 4, 4, 4, 4, 14)
    """
    out = list(counts)
    for value in values:
        out[value - 1] -= 1
    return tuple(out)


def counts_from(shoe: ShoeLike) -> Counts | None:
    """Convert a composition to the internal rank-count vector.

    Layout: a tuple of 10 ints, index 0 = aces, index 1 = twos, ..., index 8 = nines,
    index 9 = every ten-valued card (10, J, Q, K). ``None`` stays ``None`` (infinite deck).

    Args:
        shoe: ``None``; a mapping point value 1..10 -> count (missing values count 0);
            an object with ``counts()`` such as a ``Shoe``; or a sequence of 10 counts.

    Returns:
        The tuple, or None.

    Raises:
        ValueError: a key outside 1..10, a negative count, a sequence not of length 10,
            or an empty composition.
        TypeError: a count that is not an int.
    """
    if shoe is None:
        return None
    if isinstance(shoe, HasCounts) and not isinstance(shoe, Mapping):
        shoe = shoe.counts()
    if isinstance(shoe, Mapping):
        bad = [key for key in shoe if isinstance(key, bool) or key not in range(1, 11)]
        if bad:
            raise ValueError(f"composition keys must be point values 1..10, got {bad[0]!r}")
        values = [shoe.get(v, 0) for v in range(1, 11)]
    else:
        values = list(shoe)
        if len(values) != 10:
            raise ValueError(f"a count vector needs 10 entries (ace..ten), got {len(values)}")
    for count in values:
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"card counts must be ints, got {count!r}")
        if count < 0:
            raise ValueError(f"card counts must not be negative, got {count}")
    if sum(values) == 0:
        raise ValueError("the composition has no cards")
    return tuple(values)


def game_for(upcard: int, rules: Rules, peeked: bool | None = None, *, exact: bool = True, pair: int = 1) -> Game:
    """Collect the rule facts the EV engine needs for one upcard.

    ``peeked`` defaults to ``rules.dealer_peeks`` for an ace or ten upcard when the rules
    have naturals; for 2..9 it does not matter (no natural is possible) and is False.
    ``pair`` (1..10), for a hand that may split a pair of that value, only makes the
    exact EVs faster (``Game.lead``): the split hands' shoes differ in that rank.
    """
    possible = rules.naturals and forbidden_hole(upcard) is not None
    peek = possible and (rules.dealer_peeks if peeked is None else bool(peeked))
    return Game(upcard=upcard, h17=rules.dealer_hits_soft_17, naturals=rules.naturals, peek=peek,
                double_on=rules.double_on, das=rules.double_after_split, max_hands=rules.max_split_hands,
                resplit_aces=rules.resplit_aces, hit_split_aces=rules.hit_split_aces, split_by=rules.split_by,
                charlie=rules.charlie_cards, charlie_pays=float(rules.charlie_pays), exact=exact,
                decks=rules.decks, lead=pair - 1)


def dealer_probabilities(upcard: CardLike, shoe: ShoeLike = None, rules: Rules | None = None,
                         peeked: bool | None = None, *, exact: bool = False) -> dict[str, float] | dict[str, Fraction]:
    """Return the dealer's final-total distribution for an upcard.

    Exact for the composition: every way the dealer can draw (hole card first, then hits
    by the rules' S17/H17), without replacement, enumerated and summed (in fractions
    with ``exact``, else in floats).

    Args:
        upcard: the dealer's upcard, a :class:`Card` or a point value 1..10 (ace 1).
        shoe: the unseen cards, upcard and player cards already out (see
            :func:`counts_from`); None for an infinite deck.
        rules: the table rules (default ``Rules()``: S17, naturals, peek).
        peeked: condition on the dealer not having a natural. Default: the rules'
            ``dealer_peeks`` for an ace or ten upcard. Then ``"blackjack"`` is 0.
        exact: return :class:`~fractions.Fraction` values instead of floats.

    Returns:
        ``{"17", "18", "19", "20", "21", "bust", "blackjack": probability}``, summing to 1.
        ``"21"`` is a 21 of three or more cards (or any 21 when the rules have no
        naturals); ``"blackjack"`` is a two-card 21 (a natural).

    Raises:
        InvalidCardError: the upcard is not 1..10.
        ValueError, TypeError: a bad composition (see :func:`counts_from`).
        EmptyShoeError: the unseen cards can run out before the dealer finishes.

    Infinite deck S17, upcard 6: bust 0.4232 (Wizard of Odds, "Dealer Bust Probability").
    """
    # BEGIN SOLUTION m2: recurse over the dealer's draws (hole card first, then hits by S17/H17) without replacement, memoised on the cards left; a card's chance is its count / cards left (None: 1/13 each, tens 4/13); when peeked the hole card cannot make a natural; add up each final total; EmptyShoeError if the cards can run out
    rules = _DEFAULT_RULES if rules is None else rules
    up = card_value(upcard)
    counts = counts_from(shoe)
    infinite = counts is None
    deck = (1,) * 9 + (4,) if counts is None else counts  # infinite deck: weights 1/13 and 4/13
    # the hole card that would give the dealer a natural: a ten under an ace, an ace under a ten
    natural_maker = {1: 10, 10: 1}.get(up) if rules.naturals else None
    peek = natural_maker is not None and (rules.dealer_peeks if peeked is None else bool(peeked))
    zero: Fraction | float = Fraction(0) if exact else 0.0

    def chance(count: int, cards_left: int) -> Fraction | float:
        """The chance that the next card is one of ``count`` cards out of ``cards_left``."""
        return Fraction(count, cards_left) if exact else count / cards_left

    def final(hard: int, ace: bool, cards: int) -> int | None:
        """Where a dealer hand of ``cards`` cards (hard total ``hard``, an ace or not) ends:
        its index in OUTCOMES, or None while it draws."""
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            return OUTCOMES.index("bust")
        if cards == 2 and total == 21 and rules.naturals:
            return OUTCOMES.index("blackjack")
        if total >= 17 and not (total == 17 and soft and rules.dealer_hits_soft_17):
            return OUTCOMES.index(str(total))
        return None

    @functools.lru_cache(maxsize=None)
    def draw(left: Counts, hard: int, ace: bool, cards: int) -> tuple[Fraction | float, ...]:
        """Chances of OUTCOMES for a dealer hand that must draw from the cards ``left``."""
        barred = natural_maker if cards == 1 and peek else None  # the hole card, after a peek
        cards_left = sum(left) - (left[barred - 1] if barred is not None else 0)
        if cards_left == 0:
            raise EmptyShoeError(f"the unseen cards can run out before the dealer (showing {up}) finishes")
        sums = [zero] * len(OUTCOMES)
        for value in range(1, 11):
            count = left[value - 1]
            if count == 0 or value == barred:
                continue
            p = chance(count, cards_left)
            now_hard, now_ace = hard + value, ace or value == 1
            end = final(now_hard, now_ace, cards + 1)
            if end is not None:
                sums[end] += p
            else:
                after = left if infinite else left[:value - 1] + (count - 1,) + left[value:]
                for index, q in enumerate(draw(after, now_hard, now_ace, cards + 1)):
                    if q:
                        sums[index] += p * q
        return tuple(sums)

    result = draw(deck, up, up == 1, 1)  # the upcard alone: the hole card comes next
    if exact:
        return {name: Fraction(p) for name, p in zip(OUTCOMES, result)}
    return {name: float(p) for name, p in zip(OUTCOMES, result)}
    # END SOLUTION


def bust_probability(player_cards: Iterable[CardLike], shoe: ShoeLike = None, *,
                     upcard: CardLike | None = None, rules: Rules | None = None) -> float:
    """Return the chance that one more card takes the player's best total over 21.

    Args:
        player_cards: the hand, Cards or point values (ace 1).
        shoe: the unseen cards (player cards and upcard out); None for an infinite deck.
        upcard: with ``rules``, the dealer's upcard; when the dealer has peeked an ace or
            ten and has no natural, the hole card is known not to be the natural-maker,
            which shifts the next card's chances slightly (exact conditioning).
        rules: the table rules; only used with ``upcard``.

    Returns:
        A probability in [0, 1]; 0 when the hand is soft or 11 or less.

    Raises:
        InvalidCardError, TypeError, ValueError: bad cards or composition.
    """
    # BEGIN SOLUTION m2: add up the chances of the next cards that take the hard total over 21
    values = [card_value(c) for c in player_cards]
    hard, ace = sum(values), 1 in values
    counts = counts_from(shoe)
    if upcard is not None:
        game = game_for(card_value(upcard), _DEFAULT_RULES if rules is None else rules)
    else:
        game = game_for(2, _DEFAULT_RULES)  # no natural possible: no conditioning
    chance = 0.0
    for v, p, _after in draws(counts, game):
        if total_of(hard + v, ace or v == 1) > 21:
            chance += p
    return chance
    # END SOLUTION


def insurance_probability(shoe: ShoeLike = None) -> float:
    """Return the chance that the dealer's hole card is a ten (what insurance bets on).

    Insurance pays 2:1, so it is worth taking when this is above 1/3. Infinite deck: 4/13.
    """
    comp = counts_from(shoe) or INFINITE
    return comp[9] / sum(comp)


def expected_values(player_cards: Sequence[CardLike], upcard: CardLike, shoe: ShoeLike = None,
                    rules: Rules | None = None, *, from_split: bool = False, hands: int = 1,
                    peeked: bool | None = None, exact: bool = True) -> dict[Action, float]:
    """Return the expected value of every legal action, per unit of the hand's initial bet.

    Conditioning: when the dealer peeks (the rules' ``dealer_peeks`` with an ace or ten
    up, or ``peeked=True``) every EV is conditioned on the dealer not having a natural.
    Otherwise a dealer natural takes the whole bet, doubled and split bets included.

    Actions (each only when the rules and the hand allow it, as the round does):

    * STAND: exact.
    * HIT: one card, then the best of hit/stand at every later card, chosen with the
      exact composition at that point (composition-dependent optimal play); exact.
    * DOUBLE: one card then stand, EV per initial bet (so between -2 and +2); exact.
    * SPLIT: sum over the split hands, exact with resplits up to ``max_split_hands``
      (split aces resplit only with ``resplit_aces``). Every split hand is played by the
      CDP1 post-split strategy: the best play for the first split hand (the shoe with
      both pair cards out), doubling when the rules allow (DAS); split aces take one card
      unless ``hit_split_aces``. Rank pairs of tens average over how many unseen tens
      share the pair's rank. Left out when the cards could run out. Method and the
      CDZ- alternative: ``_split``. With ``exact=False``: a constant re-pair chance.
    * SURRENDER: -0.5 (half the bet back).
    * INSURANCE: the side bet's own EV, ``(3p - 1)/2`` where ``p`` is the chance the
      hole card is a ten before the peek; add it to the hand's EV. DECLINE is worth 0.

    A player natural has only STAND (worth ``blackjack_pays``, or ``thunderjack_pays``
    for a suited A + J/Q/K when given as Cards; 0 against an unpeeked dealer natural).
    Charlie rule: a hand reaching ``charlie_cards`` cards without busting is worth
    ``charlie_pays`` at once. A 21 takes no more cards (only STAND).

    Args:
        player_cards: the hand, Cards or point values, in the order received. A hand
            ``from_split`` whose first card is an ace is a split-ace hand.
        upcard: the dealer's upcard (Card or 1..10).
        shoe: the unseen cards, the player's cards and the upcard already out; None for
            an infinite deck.
        rules: the table rules (default ``Rules()``).
        from_split: the hand came from a split (no natural, no surrender, DAS applies).
        hands: how many hands the seat holds now (limits resplits).
        peeked: override the peek conditioning (see :func:`dealer_probabilities`).
        exact: False uses the starting composition for the dealer throughout the hit
            tree and approximates resplits (faster; errors up to about 0.01 of a bet,
            see benchmarks/hints.py). Shoes of 26 cards or fewer are computed exactly
            either way.

    Returns:
        ``{Action: EV}``; the best action is ``max(evs, key=evs.get)``.

    Raises:
        IllegalActionError: the hand has fewer than two cards or is bust.
        InvalidCardError, TypeError, ValueError: bad cards or composition.
        EmptyShoeError: the unseen cards can run out before the hand is decided.
    """
    # BEGIN SOLUTION m2: decide which actions this hand is offered (insurance against an ace before the first decision; a natural or a 21 only STAND; split aces take one card unless the rules say otherwise; a double when can_double allows it; a pair split while the seat has fewer than rules.max_split_hands hands; surrender on a first decision) and form each EV from the given building blocks: game_for (the rule facts for the upcard), tree_for's stand, hit and double over the exact cards left, split_value, insurance_value and natural_chance; a natural is paid rules.blackjack_pays (thunderjack_pays for a Thunderjack) and pushes against an unpeeked dealer natural
    rules = _DEFAULT_RULES if rules is None else rules
    values = tuple(card_value(c) for c in player_cards)
    up = card_value(upcard)
    counts = counts_from(shoe)
    n = len(values)
    if n < 2:
        raise IllegalActionError(f"a hand needs two cards before a decision, got {n}")
    hard, ace = sum(values), 1 in values
    total = total_of(hard, ace)
    if total > 21:
        raise IllegalActionError(f"hand {values} is bust: no decision is left")
    game = game_for(up, rules, peeked, exact=exact, pair=values[0] if n == 2 and values[0] == values[1] else 1)
    tree = tree_for(counts, game)
    as_cards = [c for c in player_cards if isinstance(c, Card)]
    faces_known = n == 2 and len(as_cards) == 2  # two Cards: their faces and suits are known
    first_decision = n == 2 and not from_split and hands == 1
    evs: dict[Action, float] = {}

    # insurance: a side bet offered against an ace before the first decision
    if first_decision and up == 1 and rules.insurance:
        evs[Action.INSURANCE] = insurance_value(counts)
    # a natural takes no decision: it stands and is paid, but pushes against a dealer
    # natural (none after a peek); a Thunderjack (suited A + J/Q/K) is paid even then
    if first_decision and total == 21 and rules.naturals:
        suited_ace_jack = (faces_known and as_cards[0].suit == as_cards[1].suit
                           and {min(c.face, 11) for c in as_cards} == {1, 11})
        if rules.thunderjack_pays is not None and suited_ace_jack:
            evs[Action.STAND] = float(rules.thunderjack_pays)
        else:
            dealer_natural = 0.0 if game.peek else natural_chance(counts, up)
            evs[Action.STAND] = float(rules.blackjack_pays) * (1.0 - dealer_natural)
        return evs

    stand = tree.stand(hard, ace, counts)
    if stand == float("-inf"):
        raise EmptyShoeError("the unseen cards can run out before the dealer finishes")
    evs[Action.STAND] = stand
    if total == 21:  # a 21 takes no more cards
        return evs
    split_aces = from_split and values[0] == 1  # one card each, unless the rules say otherwise
    if not split_aces or rules.hit_split_aces:
        evs[Action.HIT] = tree.hit(hard, ace, n, counts)
    if n == 2 and can_double(game, total, from_split, split_aces):
        evs[Action.DOUBLE] = tree.double(hard, ace, n, counts)
    same_rank = rules.split_by == "value" or not faces_known or as_cards[0].face == as_cards[1].face
    if (n == 2 and values[0] == values[1] and same_rank and hands < rules.max_split_hands
            and (not split_aces or rules.resplit_aces)):
        evs[Action.SPLIT] = split_value(values[0], counts, game, hands)
    if first_decision and rules.surrender != "none":
        evs[Action.SURRENDER] = -0.5  # half the bet back
    # an action after which the cards could run out is left out
    return {action: ev for action, ev in evs.items() if ev != float("-inf")}
    # END SOLUTION
