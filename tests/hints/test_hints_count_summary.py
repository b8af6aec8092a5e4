"""count_summary(view): the count and bet suggestion the text game's coach and the GUI's count panel show."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from blackjack import Blackjack, Rules, TableView, parse_cards
from blackjack.hints import CountSummary, count_summary, running_count

VEGAS = Rules.preset("vegas")


def view_of(codes: str, rules: Rules = VEGAS) -> TableView:
    """The view after dealing a stacked shoe to one player (deal order: player, upcard, player, hole card)."""
    game = Blackjack(["Ann"], rules, seed=5)
    game.shoe.stack(codes.split())
    return game.start_round([rules.min_bet]).view()


def table_limits(preset: str, low: int, high: int) -> Rules:
    """A preset with the table minimum and maximum changed."""
    return dataclasses.replace(Rules.preset(preset), min_bet=Fraction(low), max_bet=Fraction(high))


class TestCountSummary:
    def test_hi_lo_after_the_deal(self) -> None:
        """8, 6, 8 seen of six decks (the hole card unseen): running +1, 309 cards = 309/52 decks, TC 52/309."""
        summary = count_summary(view_of("8s 6d 8h Th"))
        assert isinstance(summary, CountSummary) and summary.system.name == "Hi-Lo"
        assert (summary.running, summary.cards_remaining) == (1, 309)
        assert summary.decks_remaining == Fraction(309, 52)
        assert summary.true == pytest.approx(52 / 309)

    def test_low_count_suggests_the_table_minimum(self) -> None:
        """A true count below +2 suggests one unit: the table minimum, as exact money."""
        summary = count_summary(view_of("As Qd Kh 7c"))
        assert summary.running == -3
        assert summary.suggested_bet == VEGAS.min_bet and isinstance(summary.suggested_bet, Fraction)

    def test_high_count_ramps_the_bet_in_table_minimums(self) -> None:
        """Single deck, 2, 3, 4 seen: running +3 over 49 unseen cards, TC 3.18 floors to 3: 4 units of 10 = 40."""
        summary = count_summary(view_of("2s 3d 4h 5c", table_limits("single_deck", 10, 500)))
        assert (summary.running, summary.cards_remaining) == (3, 49)
        assert summary.true == pytest.approx(3 * 52 / 49)
        assert summary.suggested_bet == Fraction(40)

    def test_bet_is_capped_at_the_table_maximum(self) -> None:
        """The same count at a 10-25 table suggests 25, not 40."""
        summary = count_summary(view_of("2s 3d 4h 5c", table_limits("single_deck", 10, 25)))
        assert summary.suggested_bet == Fraction(25)

    def test_spread_limits_the_ramp(self) -> None:
        """With a spread of 2 the same count suggests 2 units, 20."""
        view = view_of("2s 3d 4h 5c", table_limits("single_deck", 10, 500))
        assert count_summary(view, spread=2).suggested_bet == Fraction(20)

    def test_no_unseen_cards_is_true_count_zero(self) -> None:
        """With nothing unseen (a shoe dealt out) the true count is 0 and the bet one unit, not an error."""
        view = dataclasses.replace(view_of("8s 6d 8h Th"), unseen_counts={})
        summary = count_summary(view)
        assert (summary.cards_remaining, summary.decks_remaining, summary.true) == (0, 0, 0.0)
        assert summary.suggested_bet == VEGAS.min_bet

    def test_unbalanced_system_has_no_true_count_or_bet(self) -> None:
        """KO starts at 4 - 4 x 6 decks = -20 and adds the seen 8, 6, 8: -19; no true count, no bet."""
        summary = count_summary(view_of("8s 6d 8h Th"), "ko")
        assert summary.running == running_count(parse_cards("8s 6d 8h"), "ko", decks=6) == -19
        assert (summary.true, summary.suggested_bet) == (None, None)

    def test_level_two_system(self) -> None:
        """Omega II tags a 4 and a 5 +2 and a ten -2: seen 4, 5, K is +2, and it has a true count."""
        summary = count_summary(view_of("4s 5d Kh 8c"), "omega_2")
        assert summary.running == 2 and summary.true == pytest.approx(2 * 52 / 309)

    def test_insurance_decision_against_an_ace(self) -> None:
        """Against an ace the summary carries the count's insurance call for systems with an index
        (Hi-Lo -1 and KO -20 both decline); none for Zen, for a non-ace upcard, or where the rules offer no insurance."""
        ace_up = view_of("9h As 7d 8s")
        assert count_summary(ace_up).insure is False
        assert count_summary(ace_up, "ko").insure is False
        assert count_summary(ace_up, "zen").insure is None
        assert count_summary(view_of("9h 6s 7d 8s")).insure is None
        assert count_summary(view_of("9h As 7d 8s", Rules.preset("thunderjack"))).insure is None

    def test_insurance_take_it_at_a_high_count(self) -> None:
        """One deck: 2 3 4 5 6 2 seen (+6) and the ace (-1): Hi-Lo +5 over 45 cards, above +3, so take it."""
        game = Blackjack(["Ann", "Bob", "Cy"], dataclasses.replace(VEGAS, decks=1), seed=5)
        game.shoe.stack("2h 3h 4h As 5h 6h 2d Kc".split())
        summary = count_summary(game.start_round([1, 1, 1]).view())
        assert (summary.running, summary.cards_remaining, summary.insure) == (5, 45, True)
