"""Milestone 2d, static probabilities: dealer outcomes, bust chances and expected values (20 points).

* ``dealer_probabilities(upcard, shoe=None, rules=None)`` -> ``{"17", "18", "19", "20",
  "21", "bust", "blackjack": probability}`` summing to 1. ``shoe=None`` is an infinite
  deck; a dict ``{point value: count}`` is the cards still unseen.
* ``bust_probability(player_cards, shoe=None)`` -> the chance one more card busts.
* ``expected_values(player_cards, upcard, shoe=None, rules=None)`` -> ``{Action: EV}`` per
  unit of the initial bet, conditioned on the dealer not having blackjack when the
  dealer peeks, for exactly the actions the hand is offered.

The dealer tests block the hint engine's dealer code (``dealer_float``, ``dealer_numerators``
and ``_table`` in ``blackjack/hints/_dealer.py``): ``dealer_probabilities`` must enumerate
the dealer's draws itself.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import NoReturn

import pytest

from blackjack import Action, Card, Rules
from blackjack.hints import _dealer, bust_probability, dealer_probabilities, expected_values
from m2_helpers import check_number, check_quiet, check_type, shown

PART = "probabilities"

#: The hint engine's dealer code, which dealer_probabilities must not call.
DEALER_ENGINE = ("dealer_float", "dealer_numerators", "_table")


def _blocked(name: str) -> Callable[..., NoReturn]:
    def blocked(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError(f"dealer_probabilities must enumerate the draws itself, not call the hint engine's "
                             f"{name} (blackjack/hints/_dealer.py)")
    return blocked


@pytest.fixture
def no_dealer_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replace the engine's dealer functions, wherever a blackjack module holds them, by ones that fail."""
    for name in DEALER_ENGINE:
        real = getattr(_dealer, name)
        for module in [m for key, m in sys.modules.items() if key == "blackjack" or key.startswith("blackjack.")]:
            for attr, value in list(vars(module).items()):
                if value is real:
                    monkeypatch.setattr(module, attr, _blocked(name))


OUTCOMES = {"17", "18", "19", "20", "21", "bust", "blackjack"}


def dealer_chances(up: int, *args: object, **kwargs: object) -> dict[str, float]:
    """``dealer_probabilities(up, ...)``, checked to be a dict with the seven outcome keys."""
    call = f"dealer_probabilities({', '.join([str(up), *map(repr, args), *(f'{k}={v!r}' for k, v in kwargs.items())])})"
    got = dealer_probabilities(up, *args, **kwargs)  # type: ignore[arg-type]
    check_type(call, got, dict, 'a dict {"17", ..., "21", "bust", "blackjack": chance}')
    assert set(got) == OUTCOMES, \
        f"{call} should have exactly the keys 17, 18, 19, 20, 21, bust, blackjack (strings); got {sorted(map(str, got))}"
    return got


def evs_of(call: str, got: object) -> dict[Action, float]:
    """``got`` from ``expected_values``, checked to be a dict keyed by Action."""
    check_type(call, got, dict, "a dict {Action: EV}")
    assert isinstance(got, dict), f"{call} should return a dict {{Action: EV}}; got {shown(got)}"
    assert all(isinstance(action, Action) for action in got), \
        f"{call} should key its dict by Action (Action.STAND ...); got keys {sorted(map(repr, got))}"
    return got


def _arg(value: object) -> str:
    if isinstance(value, Rules):
        return f"{value.name or 'custom'} rules"
    if isinstance(value, dict):
        return "a shoe"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return repr(value)


def evs_for(*args: object, **kwargs: object) -> dict[Action, float]:
    """``expected_values(*args, **kwargs)``, checked to be a dict keyed by Action."""
    call = "expected_values(" + ", ".join([*map(_arg, args), *(f"{k}={_arg(v)}" for k, v in kwargs.items())]) + ")"
    return evs_of(call, expected_values(*args, **kwargs))  # type: ignore[arg-type]


def offered(evs: dict[Action, float]) -> list[str]:
    """The actions of an EV dict, by name, for a message."""
    return sorted(a.value for a in evs)


def one_deck_without(*values: int) -> dict[int, int]:
    counts = {v: 4 for v in range(1, 10)}
    counts[10] = 16
    for v in values:
        counts[v] -= 1
    return counts


@pytest.mark.points(2)
@pytest.mark.usefixtures("no_dealer_engine")
def test_dealer_probabilities_sum_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    """For every upcard the dealer's outcomes add up to 1 (infinite deck and one deck), and nothing is printed."""
    for up in range(1, 11):
        for shoe in (None, one_deck_without(up)):
            got = dealer_chances(up, shoe)
            check_number(f"the chances of dealer_probabilities({up}, {'one deck' if shoe else 'None'}) added up",
                         sum(got.values()), 1, "every dealer hand ends in exactly one of the outcomes")
    check_quiet(capsys, "dealer_probabilities")


@pytest.mark.points(2)
@pytest.mark.usefixtures("no_dealer_engine")
def test_dealer_bust_infinite_deck() -> None:
    """Infinite deck, dealer stands on soft 17: a 6 busts 42.32%, a 10 21.21% (Wizard of Odds)."""
    check_number('dealer_probabilities(6)["bust"]', dealer_chances(6)["bust"], 0.4232,
                 "an infinite deck, dealer stands on soft 17 (Wizard of Odds)", tol=1e-4)
    check_number('dealer_probabilities(10, rules=Rules(dealer_peeks=False))["bust"]',
                 dealer_chances(10, rules=Rules(dealer_peeks=False))["bust"], 0.2121,
                 "a 10 up without a peek, infinite deck (Wizard of Odds)", tol=1e-4)


@pytest.mark.points(2)
@pytest.mark.usefixtures("no_dealer_engine")
def test_dealer_tens_and_sixes() -> None:
    """Upcard 6 with two 6s and two tens left: the dealer makes 18 one time in 6 and busts otherwise."""
    got = dealer_chances(6, {6: 2, 10: 2})
    check_number('dealer_probabilities(6, {6: 2, 10: 2})["18"]', got["18"], 1 / 6,
                 "the hole card is a 6 (2 of the 4 cards) and the next card the last 6 (1 of the 3 left): "
                 "2/4 x 1/3, because cards are drawn without replacement", tol=1e-12)
    check_number('dealer_probabilities(6, {6: 2, 10: 2})["bust"]', got["bust"], 5 / 6,
                 "every other way the dealer draws past 21", tol=1e-12)


@pytest.mark.points(1)
@pytest.mark.usefixtures("no_dealer_engine")
def test_dealer_peeked_ace_has_no_blackjack() -> None:
    """After the peek, an ace up has blackjack 0; without it the chance is 4/13 (infinite deck)."""
    got = dealer_chances(1, peeked=True)["blackjack"]
    assert got == 0, f'dealer_probabilities(1, peeked=True)["blackjack"] should be 0: the peek found no natural; got {got}'
    check_number('dealer_probabilities(1, peeked=False)["blackjack"]', dealer_chances(1, peeked=False)["blackjack"],
                 4 / 13, "before the peek, an ace up makes a natural when the hole card is one of the 4 ten-values "
                 "of 13 ranks", tol=1e-12)


@pytest.mark.points(1)
def test_bust_probability_infinite(capsys: pytest.CaptureFixture[str]) -> None:
    """Hard 16 busts on a 6, 7, 8, 9 or ten-card: 8/13; a soft 17 cannot bust."""
    check_number("bust_probability([10, 6])", bust_probability([10, 6]), 8 / 13,
                 "16 busts on a 6, 7, 8, 9 or ten-card: 8 of 13 ranks, infinite deck", tol=1e-12)
    got = bust_probability([1, 6])
    check_number("bust_probability([1, 6])", got, 0, "a soft 17 (ace-6) counts the ace as 1 when it must, "
                 "so one card cannot bust it", tol=0)
    check_quiet(capsys, "bust_probability")


@pytest.mark.points(1)
def test_bust_probability_from_the_shoe() -> None:
    """With three tens and a five left, 16 busts 3 times in 4."""
    check_number("bust_probability([10, 6], {10: 3, 5: 1})", bust_probability([10, 6], {10: 3, 5: 1}), 0.75,
                 "3 of the 4 cards left are tens, which bust 16", tol=1e-12)


@pytest.mark.points(1)
def test_bust_probability_after_the_peek() -> None:
    """16 against a ten from one deck (T, 6, T out) after the peek: 0.590741, not 0.591837.

    The dealer peeked and has no natural, so the hole card is not an ace: one of the 50 unseen
    cards is known to be a non-ace, which makes the next card an ace a little more often
    (and a busting card a little less). ``draws(counts, game_for(upcard, rules))`` in
    ``_player.py`` gives each next card's chance with this conditioning.
    """
    shoe = one_deck_without(10, 6, 10)
    got = bust_probability([10, 6], shoe, upcard=10, rules=Rules())
    check_number("bust_probability([10, 6], one deck without T 6 T, upcard=10, rules=Rules())", got, 0.590741,
                 "the dealer peeked under the ten and found no ace in the hole, so the next card's chances are "
                 "conditioned on that; ignoring the peek gives 0.591837", tol=1e-6)
    got = bust_probability([10, 6], shoe, upcard=10, rules=Rules(dealer_peeks=False))
    check_number("bust_probability([10, 6], one deck without T 6 T, upcard=10, rules=Rules(dealer_peeks=False))",
                 got, 0.591837, "without a peek nothing is known about the hole card: 29 busting cards of 49", tol=1e-6)


@pytest.mark.points(2)
def test_stand_20_against_6_by_enumeration() -> None:
    """Standing on 10-10 against a 6 from one deck: EV = P(dealer < 20 or bust) - P(dealer 21)."""
    shoe = one_deck_without(10, 10, 6)
    dealer = dealer_chances(6, shoe)
    want = dealer["17"] + dealer["18"] + dealer["19"] + dealer["bust"] - dealer["21"]
    evs = evs_of("expected_values([10, 10], 6, one deck)", expected_values([10, 10], 6, shoe))
    assert Action.STAND in evs, f"expected_values([10, 10], 6, one deck) should offer STAND; got {offered(evs)}"
    got = evs[Action.STAND]
    check_number("expected_values([10, 10], 6, one deck)[Action.STAND]", got, want,
                 "standing wins +1 when the dealer ends under 20 or busts, pushes on 20, loses -1 on 21", tol=1e-12)
    assert 0.6 < got < 0.8, f"standing on 20 vs 6 wins most of the time (EV ≈ +0.70); got {got:.4f}"


@pytest.mark.points(1)
@pytest.mark.hidden
def test_16_against_10_infinite_deck() -> None:
    """16 vs 10, infinite deck: stand -0.5404, hit -0.5398, so hitting is (barely) better."""
    evs = evs_of("expected_values([10, 6], 10)", expected_values([10, 6], 10))
    assert {Action.STAND, Action.HIT} <= set(evs), f"16 vs 10 should offer STAND and HIT; got {offered(evs)}"
    check_number("expected_values([10, 6], 10)[Action.STAND]", evs[Action.STAND], -0.5404,
                 "16 wins only when the dealer busts, infinite deck", tol=1e-4)
    check_number("expected_values([10, 6], 10)[Action.HIT]", evs[Action.HIT], -0.5398,
                 "hit once, then play on optimally, infinite deck", tol=1e-4)


@pytest.mark.points(1)
def test_surrender_and_legal_actions(capsys: pytest.CaptureFixture[str]) -> None:
    """Under late surrender, 16 vs 10 lists stand, hit, double and surrender (-0.5); no split for 10-6."""
    evs = evs_of('expected_values([10, 6], 10, None, vegas)', expected_values([10, 6], 10, None, Rules.preset("vegas")))
    assert set(evs) == {Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER}, \
        f"10-6 vs 10 under vegas rules should offer stand, hit, double, surrender; got {offered(evs)}"
    check_number("expected_values([10, 6], 10, None, vegas)[Action.SURRENDER]", evs[Action.SURRENDER], -0.5,
                 "surrender gives back half the bet", tol=0)
    assert evs[Action.DOUBLE] < evs[Action.HIT], \
        f"doubling 16 vs 10 should be worse than hitting (twice the bet on one card); got double " \
        f"{evs[Action.DOUBLE]:.4f}, hit {evs[Action.HIT]:.4f}"
    check_quiet(capsys, "expected_values")


@pytest.mark.points(1)
def test_natural_only_stands_and_is_paid() -> None:
    """A natural (A + ten) is offered only STAND, worth 3:2; against an unpeeked ten it pushes 1 time in 13."""
    evs = evs_for([1, 10], 6)
    assert set(evs) == {Action.STAND}, \
        f"a natural takes no decision: only STAND should be offered; got {sorted(a.value for a in evs)}"
    assert evs[Action.STAND] == pytest.approx(1.5), \
        f"a natural against a 6 is paid 3:2, so STAND is worth 1.5; got {evs[Action.STAND]}"
    evs = evs_for([1, 10], 1)
    assert set(evs) == {Action.INSURANCE, Action.STAND}, \
        f"a natural against an ace is offered insurance and STAND only; got {sorted(a.value for a in evs)}"
    assert evs[Action.STAND] == pytest.approx(1.5), \
        f"after the dealer peeks there is no dealer natural: STAND is worth 1.5; got {evs[Action.STAND]}"
    got = evs_for([1, 10], 10, None, Rules(dealer_peeks=False))[Action.STAND]
    assert got == pytest.approx(1.5 * 12 / 13), \
        f"without a peek a dealer natural (ace in the hole, 1/13) pushes: 1.5 x 12/13 ≈ 1.3846; got {got}"


@pytest.mark.points(1)
def test_21_takes_no_more_cards() -> None:
    """A 21 of three cards, or of two cards after a split, is offered only STAND (and a split 21 is no natural)."""
    evs = evs_for([5, 6, 10], 6)
    assert set(evs) == {Action.STAND}, \
        f"a 21 takes no more cards: only STAND should be offered for 5-6-T; got {sorted(a.value for a in evs)}"
    evs = evs_for([10, 1], 6, from_split=True, hands=2)
    assert set(evs) == {Action.STAND}, \
        f"a split hand T-A is a 21: only STAND should be offered; got {sorted(a.value for a in evs)}"
    assert evs[Action.STAND] < 1, \
        f"a 21 after a split is not a natural: it wins 1:1 at most, not 3:2; got {evs[Action.STAND]:.4f}"


@pytest.mark.points(1)
def test_split_aces_take_one_card() -> None:
    """Split aces stand on one card: no hit (unless hit_split_aces), no double, no resplit (unless resplit_aces)."""
    evs = evs_for([1, 6], 10, from_split=True, hands=2)
    assert set(evs) == {Action.STAND}, \
        f"a split ace takes one card: only STAND should be offered for A-6 after splitting aces; " \
        f"got {sorted(a.value for a in evs)}"
    evs = evs_for([1, 6], 10, None, dataclasses.replace(Rules(), hit_split_aces=True), from_split=True,
                          hands=2)
    assert set(evs) == {Action.STAND, Action.HIT}, \
        f"with hit_split_aces a split ace may hit (but never double); got {sorted(a.value for a in evs)}"
    evs = evs_for([1, 1], 10, from_split=True, hands=2)
    assert Action.SPLIT not in evs, "split aces may not be split again unless rules.resplit_aces"
    evs = evs_for([1, 1], 10, None, dataclasses.replace(Rules(), resplit_aces=True), from_split=True,
                          hands=2)
    assert Action.SPLIT in evs, "with rules.resplit_aces, a second ace on a split ace may be split again"


@pytest.mark.points(1)
def test_insurance_only_on_an_ace() -> None:
    """Insurance is offered on the first two cards against an ace, worth (3p - 1)/2 (infinite deck: -1/26)."""
    evs = evs_for([10, 6], 1)
    assert Action.INSURANCE in evs, "insurance should be offered when the dealer shows an ace"
    assert evs[Action.INSURANCE] == pytest.approx(-1 / 26), \
        f"insurance wins 2:1 with chance 4/13: (3 x 4/13 - 1)/2 = -1/26 ≈ -0.0385; got {evs[Action.INSURANCE]}"
    assert Action.INSURANCE not in evs_for([10, 6], 10), "insurance is offered only against an ace"
    assert Action.INSURANCE not in evs_for([10, 2, 4], 1), \
        "insurance is offered before the first decision only, not after a hit"
    assert Action.INSURANCE not in evs_for([10, 6], 1, from_split=True, hands=2), \
        "insurance is not offered on a split hand"
    assert Action.INSURANCE not in evs_for([10, 6], 1, None, dataclasses.replace(Rules(), insurance=False)), \
        "rules.insurance False: no insurance"


@pytest.mark.points(1)
def test_surrender_only_on_the_first_two_cards() -> None:
    """Surrender is offered only on the first two cards of an unsplit hand, and only when the rules allow it."""
    vegas = Rules.preset("vegas")
    assert Action.SURRENDER not in evs_for([10, 4, 2], 10, None, vegas), \
        "surrender is offered on the first two cards only, not after a hit"
    assert Action.SURRENDER not in evs_for([10, 6], 10, None, vegas, from_split=True, hands=2), \
        "surrender is not offered on a hand from a split"
    assert Action.SURRENDER not in evs_for([10, 6], 10, None, Rules()), \
        "Rules() has surrender 'none': no surrender"


@pytest.mark.points(1)
def test_split_hands_follow_the_rules() -> None:
    """A pair is split again only while the seat has fewer than max_split_hands; double after split needs DAS."""
    vegas = Rules.preset("vegas")  # split to 4 hands, double after split
    evs = evs_for([8, 8], 10, None, vegas, from_split=True, hands=3)
    assert Action.SPLIT in evs, "with 3 hands of at most 4, a pair of 8s may be split again"
    evs = evs_for([8, 8], 10, None, vegas, from_split=True, hands=4)
    assert Action.SPLIT not in evs, "the seat already holds max_split_hands (4) hands: no more splits"
    assert Action.DOUBLE in evs_for([8, 3], 6, None, vegas, from_split=True, hands=2), \
        "vegas doubles after a split: 8-3 from a split may double"
    no_das = Rules.preset("single_deck")
    assert Action.DOUBLE not in evs_for([8, 3], 6, None, no_das, from_split=True, hands=2), \
        "single_deck has no double after split: 8-3 from a split may not double"
    kings_queens = [Card.parse("Kd"), Card.parse("Qc")]
    assert Action.SPLIT not in evs_for(kings_queens, 6), "K-Q is no pair when split_by is 'rank'"
    assert Action.SPLIT in evs_for(kings_queens, 6, None, dataclasses.replace(Rules(), split_by="value")), \
        "K-Q is a pair when split_by is 'value'"


@pytest.mark.points(0)
@pytest.mark.usefixtures("no_dealer_engine")
def test_exact_fractions_are_available() -> None:
    """(Ungraded) exact=True returns fractions."""
    got = dealer_probabilities(6, {6: 2, 10: 2}, exact=True)
    assert got["18"] == Fraction(1, 6)
