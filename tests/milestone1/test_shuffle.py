"""Milestone 1, shuffle: mix the 52 cards, every order equally likely (cs111 week 1; 4 points).

The course: "shuffle(Card[] cardArray) should take an array of 52 cards, and shuffle all
the cards into some random order". The kit's ``shuffle(cards, rng)`` shuffles in place
and draws every random number from ``rng``, so a seed replays a game. The course's own
algorithm ("for each card c: choose a random position p in the deck, swap c with the card
at p") is biased, and the last test here finds it (see ``milestones/specs/milestone1.md``).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from milestones.grader.judge import Raised, Student

#: Shuffles of a 4-card deck in the uniformity test, and its significance level (a correct
#: shuffle fails with this probability for whatever random numbers it draws; see the test).
SHUFFLES = 4800
ALPHA = 1e-6


def fresh_deck() -> list[str]:
    """The codes of the 52 cards, A-K of spades, diamonds, clubs, hearts (the observation reads them with the given
    parse_cards, not the student's create_card_array)."""
    return [face + suit for suit in "sdch" for face in "A23456789TJQK"]


def as_text(codes: list[str]) -> str:
    """Card codes as one string, as the observations take them."""
    return " ".join(codes)


def chi_square_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with ``df`` degrees of freedom (the regularized upper gamma
    function Q(df/2, x/2), summed as its series; Abramowitz and Stegun 6.5.29)."""
    s, half = df / 2, x / 2
    term = total = 1 / s
    k = s
    while term > 1e-17 * total:
        k += 1
        term *= half / k
        total += term
    return 1 - total * math.exp(-half + s * math.log(half) - math.lgamma(s))


def chi_square_critical(df: int, alpha: float) -> float:
    """The x with P(X > x) = alpha for a chi-square variable with ``df`` degrees of freedom (bisection)."""
    low, high = 0.0, 1000.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if chi_square_sf(middle, df) > alpha else (low, middle)
    return (low + high) / 2


def course_shuffle_odds(n: int) -> dict[tuple[int, ...], Fraction]:
    """The chance of each order of n cards under the course's "swap card i with any position" shuffle,
    from its n**n equally likely swap sequences."""
    counts: Counter[tuple[int, ...]] = Counter()
    for targets in itertools.product(range(n), repeat=n):
        items = list(range(n))
        for i, j in enumerate(targets):
            items[i], items[j] = items[j], items[i]
        counts[tuple(items)] += 1
    return {order: Fraction(counts[order], n ** n) for order in itertools.permutations(range(n))}


def chi_square(tally: Counter[tuple[int, ...]], odds: dict[tuple[int, ...], Fraction], total: int) -> float:
    """Pearson's statistic of the observed ``tally`` against the expected ``odds``."""
    return sum((tally[order] - total * float(p)) ** 2 / (total * float(p)) for order, p in odds.items())


def unreached(tally: Counter[tuple[int, ...]], deck: list[str]) -> str:
    """What the shuffles that came up show about the orders that never did, in words.

    ``tally`` counts orders by position in ``deck``. Named in turn: a card that never left
    its place (a shuffle whose swaps never reach the last position leaves the last card
    there), no card ever left in its place (each card swapped only with a position before
    it), a card that never reached some position; with the concept they break.
    """
    n, shuffles = len(deck), sum(tally.values())
    stayed = [i for i in range(n) if all(order[i] == i for order in tally)]
    if stayed:
        last = " (the last card)" if stayed[-1] == n - 1 else ""
        return (f"{', '.join(str(deck[i]) for i in stayed)}{last} never moved in {shuffles} shuffles: every position "
                f"must be able to receive every card, so the swaps must reach every position, the first and the "
                f"last too")
    if not any(order[i] == i for order in tally for i in range(n)):
        return (f"no card ever stayed in its place in {shuffles} shuffles: every order must be possible, those that "
                f"leave a card where it was too, so a card must be allowed to stay put (swapped with its own "
                f"position)")
    missed = [(card, place) for card in range(n) for place in range(n)
              if not any(order[place] == card for order in tally)]
    if missed:
        card, place = missed[0]
        return (f"{deck[card]} never reached position {place + 1} in {shuffles} shuffles: every position must be "
                f"able to receive every card")
    return "Every card reached every position, but not in every combination: every order must be possible"


@pytest.mark.points(1)
def test_shuffle_is_a_permutation_of_its_input_in_place(student: Student) -> None:
    """shuffle(cards, rng) changes the list it is given, keeps exactly its 52 cards, and mixes them."""
    try:
        got = student("shuffle_in_place", as_text(fresh_deck()), 111)
    except Raised as err:
        if err.imported or not err.is_a("IndexError"):
            raise
        pytest.fail(f"shuffle(<the 52 cards>, random.Random(111)) raised IndexError: {err.message}. The positions of "
                    f"52 cards are 0 to 51, and rng.randint(a, b) can return b itself: draw with rng.randint(0, i) for i up to "
                    f"len(cards) - 1, or rng.randrange(n), which stops before n", pytrace=False)
    cards = got["cards"]
    kept = Counter(cards) == Counter(fresh_deck())
    assert len(cards) == 52 and kept, \
        (f"shuffle(<the 52 cards>, random.Random(111)) should leave the same 52 cards, each once, in the list; "
         f"after it the list holds {len(cards)} cards, missing {sorted(map(str, Counter(fresh_deck()) - Counter(cards)))}"
         f", extra {sorted(map(str, Counter(cards) - Counter(fresh_deck())))}: swap cards, never copy one over another")
    in_place = sum(a == b for a, b in zip(cards, fresh_deck()))
    assert in_place < 10, \
        (f"after shuffle(<the 52 cards in order>, random.Random(111)) {in_place} of the 52 cards are still in their "
         f"place" + (" and shuffle returned a list: shuffle must change the list it is given (in place), "
                     "not return a new one" if not got["returned_none"] else "") + "; a shuffle mixes every card")


@pytest.mark.points(1)
def test_shuffle_draws_only_from_the_rng_it_is_given(student: Student) -> None:
    """The same seed gives the same order whatever the random module does; another seed another order."""
    first = student("shuffle_after_module_seed", as_text(fresh_deck()), 1, 7)
    # after random.seed(2), a shuffle that calls random.randint (the module) instead of rng.randint now differs
    again = student("shuffle_after_module_seed", as_text(fresh_deck()), 2, 7)
    assert first == again, \
        ("two shuffles of the same 52 cards with random.Random(7) gave different orders (first cards "
         f"{' '.join(map(str, first[:5]))} ... and {' '.join(map(str, again[:5]))} ...): shuffle must draw every "
         "random number from the rng it is given (rng.randint, rng.randrange ...), never from random.randint, "
         "random.shuffle or another source, so that a seed replays a game")
    got = student("shuffle_and_next_draw", as_text(fresh_deck()), 8)
    other = got["cards"]
    drew = got["next_draw"] != random.Random(8).getrandbits(64)  # rng's next number is still its first
    assert drew and other != first, \
        ("shuffle(cards, random.Random(8)) " + ("drew no number from the rng it was given"
                                                 if not drew else
                                                 "gave the same order as with random.Random(7)") +
         ": every random choice must come from rng, so another seed gives another order")


@pytest.mark.points(2)
def test_shuffle_makes_every_order_equally_likely(student: Student) -> None:
    """Chi-square test over the 24 orders of a 4-card deck, 4,800 shuffles from one seed.

    The statistic has 23 degrees of freedom; the test fails above the critical value for
    alpha = 1e-6, 70.55 (computed by ``chi_square_critical``, whose 0.001 value, 49.728, is
    the NIST/SEMATECH e-Handbook's table value). A correct shuffle fails with probability
    1e-6 for whatever numbers it draws; the seed makes the outcome the same at every run.
    Against the course's "swap each card with any position" shuffle (orders 8/256 to
    15/256 likely), the noncentrality is 4800 * 0.029785 = 143.0 and the power is
    0.999998 (noncentral chi-square as a Poisson mixture of central ones, computed when
    these numbers were chosen).
    """
    deck = fresh_deck()[:4]
    tally: Counter[tuple[int, ...]] = Counter(tuple(order) for order in
                                              student("shuffle_many", as_text(deck), SHUFFLES, 2024))
    uniform = {order: Fraction(1, 24) for order in itertools.permutations(range(4))}
    strange = [order for order in tally if order not in uniform]
    assert not strange, \
        (f"shuffling the 4 cards As 2s 3s 4s gave {sum(tally[o] for o in strange)} times a list that is not an "
         f"order of them (e.g. {strange[0]}, by position in As 2s 3s 4s, -1 a card that was not there): swap cards")
    never = [order for order in uniform if not tally[order]]
    assert not never, \
        (f"in {SHUFFLES} shuffles of 4 cards, {len(never)} of the 24 orders never came up (e.g. "
         f"{' '.join(str(deck[i]) for i in never[0])}): some orders cannot happen. {unreached(tally, deck)}")
    statistic = chi_square(tally, uniform, SHUFFLES)
    critical = chi_square_critical(23, ALPHA)
    counts = sorted(tally.values())
    course = chi_square(tally, course_shuffle_odds(4), SHUFFLES)
    looks_like_course = course < critical
    assert statistic <= critical, \
        (f"in {SHUFFLES} shuffles of 4 cards the 24 orders came up {counts[0]} to {counts[-1]} times, not about "
         f"{SHUFFLES // 24} each (chi-square {statistic:.1f}, above {critical:.1f}, the limit a fair shuffle passes "
         f"999,999 times in a million): the shuffle is biased. "
         + ("These counts fit the course's algorithm, " if looks_like_course else "The usual cause is ")
         + "\"swap each card with any position\" (the course's Deck.shuffle): its n**n equally likely swap "
         "sequences (4**4 = 256) cannot fall evenly on the n! orders (4! = 24; 256 is not a multiple of 24), so "
         "some orders come up 15/256 of the time and others 8/256. Swap card i only with a position j from 0 "
         "to i, going from the last card down (Fisher-Yates): n * (n-1) * ... * 1 = n! sequences, one per order")


# ---------------------------------------------------------------- no points: the test's own numbers

@pytest.mark.points(0)
def test_chi_square_critical_value_matches_the_table() -> None:
    """The critical value computed here is the NIST/SEMATECH table's 49.728 for 23 degrees of freedom at 0.001."""
    assert round(chi_square_critical(23, 0.001), 3) == 49.728
    assert round(chi_square_critical(23, ALPHA), 2) == 70.55


@pytest.mark.points(0)
def test_course_shuffle_odds_are_uneven() -> None:
    """The course's shuffle gives the 24 orders of 4 cards odds from 8/256 to 15/256, summing to 1."""
    odds = course_shuffle_odds(4)
    assert sum(odds.values()) == 1 and min(odds.values()) == Fraction(8, 256) and max(odds.values()) == Fraction(15, 256)


@pytest.mark.points(0)
def test_shuffle_without_rng_works(student: Student) -> None:
    """shuffle(cards) with no rng uses a fresh random source and still keeps every card."""
    try:
        cards = student("shuffle_without_rng", as_text(fresh_deck()))
    except Raised as err:
        if err.imported or not err.is_a("AttributeError", "TypeError"):
            raise
        pytest.fail(f"shuffle(<the 52 cards>) with no rng raised {err.type}: {err.message}. When rng is None, draw "
                    f"from a fresh random.Random() instead", pytrace=False)
    assert Counter(cards) == Counter(fresh_deck()), \
        "shuffle(<the 52 cards>) with no rng should keep exactly the 52 cards, each once"
