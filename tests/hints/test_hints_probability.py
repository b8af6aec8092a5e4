"""Exact dealer probabilities, bust chances and expected values (blackjack.hints.probability)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import pytest

from blackjack import Action, Card, EmptyShoeError, IllegalActionError, InvalidCardError, Rules, Shoe
from blackjack.hints import bust_probability, counts_from, dealer_probabilities, expected_values
from blackjack.hints import insurance_probability

S17 = Rules()
H17 = dataclasses.replace(S17, dealer_hits_soft_17=True)
NO_PEEK = dataclasses.replace(S17, dealer_peeks=False)

#: Dealer bust chance by upcard, infinite deck, S17, no peek (Wizard of Odds, "Dealer
#: Bust Probability" / "Blackjack Dealer Outcome Probabilities"), 4 decimals.
WIZARD_BUST_S17 = {2: 0.3536, 3: 0.3739, 4: 0.3945, 5: 0.4164, 6: 0.4232, 7: 0.2623, 8: 0.2447, 9: 0.2284,
                   10: 0.2121, 1: 0.1153}


def full_shoe(decks: int) -> list[int]:
    return [4 * decks] * 9 + [16 * decks]


def minus(counts: list[int], *values: int) -> tuple[int, ...]:
    out = list(counts)
    for v in values:
        out[v - 1] -= 1
    return tuple(out)


def brute_dealer(up: int, cards: list[int], h17: bool = False, naturals: bool = True) -> dict[str, Fraction]:
    """Oracle: play the dealer on every ordering of a tiny shoe (independent of the library)."""
    tally: dict[str, Fraction] = {k: Fraction(0) for k in ("17", "18", "19", "20", "21", "bust", "blackjack")}
    orders = list(itertools.permutations(cards))
    for order in orders:
        hand = [up]
        for card in order:
            hand.append(card)
            hard = sum(hand)
            soft = 1 in hand and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if len(hand) == 2 and total == 21 and naturals:
                tally["blackjack"] += Fraction(1, len(orders))
                break
            if total > 21:
                tally["bust"] += Fraction(1, len(orders))
                break
            if total >= 17 and not (h17 and soft and total == 17):
                tally[str(total)] += Fraction(1, len(orders))
                break
        else:
            raise AssertionError("shoe too small for the oracle")
    return tally


class TestDealerProbabilities:
    """dealer_probabilities: sums, published values, hand-worked and brute-force cases."""

    @pytest.mark.parametrize("rules", [S17, H17, NO_PEEK], ids=["S17", "H17", "no-peek"])
    @pytest.mark.parametrize("up", range(1, 11))
    def test_sums_to_one(self, rules: Rules, up: int) -> None:
        """The seven outcomes add up to 1, for an infinite deck and a 6-deck shoe."""
        for shoe in (None, minus(full_shoe(6), up)):
            dist = dealer_probabilities(up, shoe, rules)
            assert list(dist) == ["17", "18", "19", "20", "21", "bust", "blackjack"]
            assert abs(sum(dist.values()) - 1) < 1e-12

    @pytest.mark.parametrize("up", range(1, 11))
    def test_infinite_deck_bust_matches_published(self, up: int) -> None:
        """Bust chances equal the Wizard of Odds infinite-deck S17 table to 4 decimals."""
        got = dealer_probabilities(up, None, S17, peeked=False)["bust"]
        assert abs(got - WIZARD_BUST_S17[up]) <= 1e-4

    def test_tens_and_sixes_by_hand(self) -> None:
        """Upcard 6 with two 6s and two tens left: 18 with chance 1/6, bust 5/6 (worked by hand)."""
        dist = dealer_probabilities(6, {6: 2, 10: 2}, exact=True)
        assert dist["18"] == Fraction(1, 6)
        assert dist["bust"] == Fraction(5, 6)
        assert sum(dist.values()) == 1

    def test_ten_up_tens_and_sixes(self) -> None:
        """Upcard 10 with two 6s and two tens: 20 half the time, bust otherwise."""
        dist = dealer_probabilities(10, {6: 2, 10: 2}, exact=True)
        assert dist["20"] == Fraction(1, 2) and dist["bust"] == Fraction(1, 2)

    def test_peek_conditions_on_no_natural(self) -> None:
        """An ace up over one ten and one six: peeked, the hole card must be the six."""
        assert dealer_probabilities(1, {6: 1, 10: 1}, S17, exact=True)["17"] == 1
        unpeeked = dealer_probabilities(1, {6: 1, 10: 1}, S17, peeked=False, exact=True)
        assert unpeeked["blackjack"] == Fraction(1, 2) and unpeeked["17"] == Fraction(1, 2)

    def test_peek_default_follows_rules(self) -> None:
        """Peek rules give blackjack 0 for a ten up; no-peek rules give 4/13 x 1/13... (infinite: 1/13)."""
        assert dealer_probabilities(10, None, S17)["blackjack"] == 0
        assert dealer_probabilities(10, None, NO_PEEK)["blackjack"] == pytest.approx(1 / 13, abs=1e-15)
        assert dealer_probabilities(1, None, NO_PEEK)["blackjack"] == pytest.approx(4 / 13, abs=1e-15)

    def test_h17_hits_soft_17(self) -> None:
        """Ace up over a 6 with a ten left: S17 stands on soft 17, H17 draws to hard 17 - both 17."""
        shoe = {6: 1, 10: 1}
        assert dealer_probabilities(1, shoe, H17, exact=True)["17"] == 1
        # 6 up, an ace and three 4s left, hole card the ace (1/4): S17 stands on soft 17,
        # H17 takes a 4 for soft 21
        s17 = dealer_probabilities(6, {1: 1, 4: 3}, S17, exact=True)
        h17 = dealer_probabilities(6, {1: 1, 4: 3}, H17, exact=True)
        assert s17 == brute_dealer(6, [1, 4, 4, 4]) and h17 == brute_dealer(6, [1, 4, 4, 4], h17=True)
        assert h17["17"] < s17["17"]

    @pytest.mark.parametrize("seed", range(12))
    def test_matches_brute_force(self, seed: int) -> None:
        """Exact fractions equal a brute-force play over every ordering of a random 7-card shoe."""
        rng = random.Random(seed)
        cards = [rng.choice([1, 2, 3, 5, 6, 7, 9, 10, 10, 10]) for _ in range(7)]
        up = rng.choice([1, 2, 6, 10])
        h17 = bool(seed % 2)
        rules = dataclasses.replace(S17, dealer_hits_soft_17=h17)
        shoe = {v: cards.count(v) for v in set(cards)}
        try:
            want = brute_dealer(up, cards, h17)
        except AssertionError:
            with pytest.raises(EmptyShoeError):
                dealer_probabilities(up, shoe, rules, peeked=False)
            return
        got = dealer_probabilities(up, shoe, rules, peeked=False, exact=True)
        assert got == want

    def test_large_shoe_tends_to_infinite_deck(self) -> None:
        """A 2000-deck shoe gives the infinite-deck figures to within 1e-3."""
        big = [4 * 2000] * 9 + [16 * 2000]
        for up in (2, 6, 10, 1):
            finite = dealer_probabilities(up, minus(big, up), S17)
            infinite = dealer_probabilities(up, None, S17)
            for key in finite:
                assert abs(finite[key] - infinite[key]) < 1e-3, (up, key)

    def test_card_upcard_and_shoe_object(self) -> None:
        """A Card upcard and a Shoe work like their point values and counts."""
        shoe = Shoe(2, seed=3)
        assert dealer_probabilities(Card.parse("Kd"), shoe) == dealer_probabilities(10, shoe.counts())

    def test_float_agrees_with_exact(self) -> None:
        """The float result equals the exact fractions to 1e-15."""
        shoe = minus(full_shoe(1), 10, 10, 6)
        exact = dealer_probabilities(6, shoe, exact=True)
        floats = dealer_probabilities(6, shoe)
        for key in exact:
            assert abs(float(exact[key]) - floats[key]) < 1e-15

    def test_bad_input(self) -> None:
        """Bad upcards and compositions raise the documented errors."""
        with pytest.raises(InvalidCardError):
            dealer_probabilities(11)
        with pytest.raises(TypeError):
            dealer_probabilities("6")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            dealer_probabilities(6, {11: 3})
        with pytest.raises(ValueError):
            dealer_probabilities(6, {5: -1})
        with pytest.raises(ValueError):
            counts_from([1, 2, 3])
        with pytest.raises(EmptyShoeError):
            dealer_probabilities(2, {2: 2})


def dealer_oracle(up: int, counts: list[int]) -> dict[int, float]:
    """Independent recursion: dealer final totals (bust = 22) without replacement, S17, no natural check."""
    out: dict[int, float] = {}

    def go(hand: list[int], left: list[int], p: float) -> None:
        hard = sum(hand)
        total = hard + 10 if 1 in hand and hard + 10 <= 21 else hard
        if total >= 17:
            key = 22 if total > 21 else total
            out[key] = out.get(key, 0.0) + p
            return
        n = sum(left)
        for v in range(1, 11):
            if left[v - 1]:
                left[v - 1] -= 1
                go(hand + [v], left, p * (left[v - 1] + 1) / n)
                left[v - 1] += 1

    go([up], list(counts), 1.0)
    return out


class TestExpectedValues:
    """expected_values: independent oracles, published figures and rules."""

    def test_stand_20_vs_6_by_enumeration(self) -> None:
        """Standing on T-T against a 6 from one deck equals an independent enumeration."""
        counts = list(minus(full_shoe(1), 10, 10, 6))
        final = dealer_oracle(6, counts)
        want = sum(p for t, p in final.items() if t < 20 or t == 22) - final.get(21, 0.0)
        got = expected_values([10, 10], 6, counts)[Action.STAND]
        assert abs(got - want) < 1e-12

    def test_16_vs_10_infinite_deck(self) -> None:
        """16 vs 10, infinite deck S17: stand -0.5404, hit -0.5398 (Wizard of Odds hand calculator)."""
        evs = expected_values([10, 6], 10)
        assert evs[Action.STAND] == pytest.approx(-0.5404, abs=1e-4)
        assert evs[Action.HIT] == pytest.approx(-0.5398, abs=1e-4)
        assert evs[Action.DOUBLE] == pytest.approx(2 * -0.5398, abs=1e-3)

    def test_hit_once_then_stand_bound(self) -> None:
        """Hitting is worth at least hitting once and standing (computed independently)."""
        counts = list(minus(full_shoe(1), 10, 2, 4))
        n = sum(counts)
        once = 0.0
        for v in range(1, 11):
            if not counts[v - 1]:
                continue
            p = counts[v - 1] / n
            after = list(counts)
            after[v - 1] -= 1
            total = 12 + v + (10 if v == 1 and 12 + v + 10 <= 21 else 0)
            if total > 21:
                once -= p
                continue
            final = dealer_oracle(4, after)
            once += p * (sum(q for t, q in final.items() if t < total or t == 22)
                         - sum(q for t, q in final.items() if total < t <= 21))
        evs = expected_values([10, 2], 4, counts)
        assert evs[Action.HIT] >= once - 1e-12
        assert evs[Action.DOUBLE] == pytest.approx(2 * once, abs=1e-12)

    def test_infinite_matches_large_shoe(self) -> None:
        """EVs for a 2000-deck shoe are within 2e-3 of the infinite deck."""
        big = [4 * 2000] * 9 + [16 * 2000]
        for cards, up in (([10, 6], 10), ([9, 2], 6)):
            finite = expected_values(cards, up, minus(big, *cards, up))
            infinite = expected_values(cards, up)
            for action, value in infinite.items():
                assert abs(finite[action] - value) < 2e-3, (cards, up, action)

    def test_legal_actions_follow_rules(self) -> None:
        """Surrender, double and split appear only when the rules and the hand allow them."""
        vegas = Rules.preset("vegas")
        assert set(expected_values([8, 8], 10, None, vegas)) == {Action.STAND, Action.HIT, Action.DOUBLE,
                                                                 Action.SPLIT, Action.SURRENDER}
        euro = Rules.preset("european")
        assert Action.DOUBLE not in expected_values([10, 2], 6, None, euro)
        assert Action.DOUBLE in expected_values([6, 4], 6, None, euro)
        assert set(expected_values([5, 6, 2], 6)) == {Action.STAND, Action.HIT}
        assert Action.INSURANCE in expected_values([5, 6], 1)
        assert set(expected_values([10, 1], 9)) == {Action.STAND}
        assert Action.SPLIT not in expected_values([Card.parse("Kd"), Card.parse("Qd")], 6)
        assert Action.SURRENDER not in expected_values([10, 6], 10, None, vegas, from_split=True, hands=2)

    def test_surrender_and_insurance_values(self) -> None:
        """Surrender is -0.5; insurance is (3p - 1)/2 with p the ten density (infinite: -1/26)."""
        evs = expected_values([10, 6], 1, None, Rules.preset("vegas"))
        assert evs[Action.SURRENDER] == -0.5
        assert evs[Action.INSURANCE] == pytest.approx(-1 / 26, abs=1e-15)
        shoe = {1: 3, 10: 8, 5: 9}
        assert insurance_probability(shoe) == pytest.approx(8 / 20)
        assert expected_values([5, 5], 1, shoe)[Action.INSURANCE] == pytest.approx((3 * 0.4 - 1) / 2)

    def test_natural_pays(self) -> None:
        """A natural is worth 3:2 against a peeked ace, 6:5 under 6:5 rules."""
        assert expected_values([1, 10], 1)[Action.STAND] == pytest.approx(1.5)
        six_five = Rules.preset("single_deck")
        assert expected_values([1, 10], 5, None, six_five)[Action.STAND] == pytest.approx(1.2)

    def test_no_hole_card_loses_doubles_to_a_natural(self) -> None:
        """Under ENHC a dealer natural takes the doubled bet: double vs 10 is worth less than with a peek."""
        euro = Rules.preset("european")
        peek = dataclasses.replace(euro, hole_card=True, dealer_peeks=True)
        enhc = expected_values([6, 5], 10, None, euro)[Action.DOUBLE]
        peeked = expected_values([6, 5], 10, None, peek)[Action.DOUBLE]
        # dealer natural 1/13 costs 2 units: EV_enhc = (12/13) * EV_peek + (1/13) * -2
        assert enhc == pytest.approx(12 / 13 * peeked - 2 / 13, abs=1e-12)

    def test_split_no_resplit_is_twice_one_hand(self) -> None:
        """Without resplitting a split is worth twice one 8 hand played for itself (infinite deck)."""
        rules = dataclasses.replace(S17, max_split_hands=2)
        split = expected_values([8, 8], 6, None, rules)[Action.SPLIT]
        one = 0.0
        for v in range(1, 11):
            p = (4 if v == 10 else 1) / 13
            evs = expected_values([8, v], 6, None, rules, from_split=True, hands=2)
            one += p * max(evs.values())
        assert split == pytest.approx(2 * one, abs=1e-12)

    def test_charlie_pays(self) -> None:
        """With a 5-card Charlie paying 1:1, a 4-card 12 gains from hitting."""
        charlie = dataclasses.replace(S17, charlie_cards=5)
        assert expected_values([2, 3, 4, 3], 10, None, charlie)[Action.HIT] > expected_values(
            [2, 3, 4, 3], 10)[Action.HIT]

    def test_errors(self) -> None:
        """A bust or one-card hand has no decision."""
        with pytest.raises(IllegalActionError):
            expected_values([10, 9, 5], 6)
        with pytest.raises(IllegalActionError):
            expected_values([10], 6)


class TestBustProbability:
    """bust_probability: one more card over 21."""

    def test_infinite(self) -> None:
        """Hard 16 busts on 6-T: 8/13; soft hands and 11 never bust."""
        assert bust_probability([10, 6]) == pytest.approx(8 / 13)
        assert bust_probability([1, 6]) == 0
        assert bust_probability([5, 6]) == 0
        assert bust_probability([10, 2]) == pytest.approx(4 / 13)

    def test_composition(self) -> None:
        """From a shoe of 3 tens and 1 five, 16 busts with chance 3/4... the five makes 21."""
        assert bust_probability([10, 6], {10: 3, 5: 1}) == pytest.approx(0.75)

    def test_peek_shifts_next_card(self) -> None:
        """After a peek under an ace the next card is a ten slightly more often."""
        shoe = minus(full_shoe(1), 10, 6, 1)
        plain = bust_probability([10, 6], shoe)
        peeked = bust_probability([10, 6], shoe, upcard=1, rules=S17)
        assert peeked > plain


def _prefix_tree_floats(counts: tuple[int, ...], up: int, h17: bool, naturals: bool,
                        peek: bool) -> tuple[float, ...]:
    """The dealer's floats as computed before the aces were set aside: ``dealer_numerators``
    (one product per row of the dealer's table), then per outcome the quotients added in order of
    ``n`` and divided by the no-natural chance."""
    from blackjack.hints import _dealer
    numerators, denominators, allowed = _dealer.dealer_numerators(counts, up, h17, naturals, peek)
    if allowed == 0:
        return (0.0,) * len(_dealer.OUTCOMES)
    out = []
    for per_n in numerators:
        value = 0.0
        for n, num in per_n.items():
            if num:
                value += num / denominators[n]
        out.append(value * sum(counts) / allowed)
    return tuple(out)


def test_dealer_engine_with_aces_set_aside_is_bit_identical_to_one_pass_per_composition() -> None:
    """The engine's shared per-ace-count sums give the very floats of a full pass, on random shoes and rules."""
    from blackjack.hints import _dealer
    rng = random.Random(19)
    for _ in range(400):
        up = rng.randint(1, 10)
        h17, naturals, peek = rng.random() < 0.5, rng.random() < 0.8, rng.random() < 0.5
        decks = rng.choice((1, 2, 6, 8))
        shoe = [4 * decks] * 9 + [16 * decks]
        for _ in range(rng.randint(0, 52 * decks - 3)):
            shoe[rng.choices(range(10), weights=shoe)[0]] -= 1
        counts = tuple(shoe)
        # the same other cards with fewer aces share their sums: ask for several in a row
        for aces in sorted({counts[0], max(counts[0] - 1, 0), rng.randint(0, counts[0])}, reverse=True):
            comp = (aces,) + counts[1:]
            if sum(comp) == 0:
                continue
            got = _dealer.dealer_float(comp, up, h17, naturals, peek)
            assert got == _prefix_tree_floats(comp, up, h17, naturals, peek), (comp, up, h17, naturals, peek)


def test_dealer_engine_matches_exact_fractions() -> None:
    """The engine's floats are within 1e-15 of the independent exact recursion (``dealer_probabilities``)."""
    from blackjack.hints import _dealer
    rng = random.Random(23)
    for _ in range(12):
        up = rng.randint(1, 10)
        h17, peek = rng.random() < 0.5, rng.random() < 0.5
        counts = tuple(rng.randint(0, 6) for _ in range(9)) + (rng.randint(4, 20),)
        rules = Rules(dealer_hits_soft_17=h17)
        exact = dealer_probabilities(up, list(counts), rules, peeked=peek, exact=True)
        got = _dealer.dealer_float(counts, up, h17, True, peek and up in (1, 10))
        for name, value in zip(_dealer.OUTCOMES, got):
            assert abs(value - float(exact[name])) <= 1e-15, (counts, up, name)
