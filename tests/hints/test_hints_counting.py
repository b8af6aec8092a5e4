"""Counting systems, counts, index plays, bet ramp and the drill (blackjack.hints.counting, .drill)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from blackjack import Action, Card, IllegalActionError, Rules, RulesError, create_card_array, parse_cards
from blackjack.hints import (FAB_4, ILLUSTRIOUS_18, Counter, CountingDrill, basic_advice, bet_ramp, count_advice,
                             count_from_unseen, index_play, insure_by_count, running_count, system, systems,
                             true_count)

#: Published tags, ace first (Wikipedia "Card counting", systems table; KO: Vancura & Fuchs).
PUBLISHED = {
    "hi_lo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "ko": (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    "hi_opt_1": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "omega_2": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
}


class TestSystems:
    """The TOML tag tables."""

    def test_tags_as_published(self) -> None:
        """Every system's tags equal the published table."""
        assert {k: s.tags for k, s in systems().items()} == PUBLISHED

    @pytest.mark.parametrize("key", list(PUBLISHED))
    def test_balance_over_a_deck(self, key: str) -> None:
        """Summing the tags over the 52 real cards gives 0 exactly for the balanced systems (KO: +4)."""
        chosen = system(key)
        total = sum(chosen.tag(card) for card in create_card_array())
        assert total == chosen.deck_sum()
        assert (total == 0) == chosen.balanced
        if key == "ko":
            assert total == 4

    def test_lookup(self) -> None:
        """Keys are forgiving; unknown ones raise RulesError listing the choices."""
        assert system("Hi-Lo").key == "hi_lo" and system("Zen Count").key == "zen"
        with pytest.raises(RulesError, match="hi_lo"):
            system("red seven")


class TestCounts:
    """Running and true counts."""

    def test_running_count(self) -> None:
        """Hi-Lo of 2 5 K A 9 is 0; of 2 3 4 is +3; KO starts at 4 - 4 x decks."""
        assert running_count(parse_cards("2c 5d Kh As 9s")) == 0
        assert running_count([2, 3, 4]) == 3
        assert running_count([7], "ko", decks=6) == 4 - 24 + 1
        assert running_count([4, 5, 10], "omega_2") == 2

    def test_true_count(self) -> None:
        """The true count divides by decks left; no cards left is an error."""
        assert true_count(6, 156) == 2.0
        assert true_count(-3, 26) == -6.0
        with pytest.raises(ValueError):
            true_count(1, 0)

    def test_counter_and_unseen_agree(self) -> None:
        """A Counter over dealt cards equals the count read from the unseen cards."""
        rng = random.Random(5)
        shoe = create_card_array() * 2
        rng.shuffle(shoe)
        counter = Counter("hi_lo", decks=2)
        dealt = shoe[:40]
        counter.see(*dealt)
        unseen = {v: sum(1 for c in shoe[40:] if c.get_value() == v) for v in range(1, 11)}
        assert counter.running == count_from_unseen(unseen, 2) == running_count(dealt)
        assert counter.true_count() == pytest.approx(counter.running * 52 / 64)
        counter.reset()
        assert counter.running == 0 and counter.seen == 0

    def test_insurance_by_count(self) -> None:
        """Hi-Lo insures at true count +3; KO at running count +3; others need the exact chance."""
        assert insure_by_count(9, 156) and not insure_by_count(8, 156)
        assert insure_by_count(3, 100, "ko") and not insure_by_count(2, 100, "ko")
        with pytest.raises(RulesError):
            insure_by_count(5, 100, "zen")


class TestIndexPlays:
    """Illustrious 18 and Fab 4."""

    def test_tables(self) -> None:
        """18 plays and 4 surrender plays, the famous ones with their published indices."""
        assert len(ILLUSTRIOUS_18) == 18 and len(FAB_4) == 4
        by_label = {p.label: p.index for p in ILLUSTRIOUS_18}
        assert by_label["insurance"] == 3 and by_label["16 vs 10"] == 0 and by_label["15 vs 10"] == 4
        assert by_label["12 vs 4"] == 0 and by_label["13 vs 2"] == -1
        assert {p.label: p.index for p in FAB_4} == {"14 vs 10": 3, "15 vs 10": 0, "15 vs 9": 2, "15 vs A": 1}

    def test_lookup(self) -> None:
        """index_play finds 16 vs 10, T-T vs 6, Fab 4 first when surrender is allowed, nothing for soft hands."""
        assert [p.label for p in index_play([10, 6], 10)] == ["16 vs 10"]
        assert [p.label for p in index_play([10, 5], 10, surrender=True)] == ["15 vs 10", "15 vs 10"]
        assert index_play([10, 5], 10, surrender=True)[0].action is Action.SURRENDER
        assert index_play([Card.parse("Kd"), Card.parse("Qs")], 6)[0].action is Action.SPLIT
        assert index_play([1, 5], 10) == ()
        assert index_play([8, 8], 10) == ()
        assert index_play([], 1, insurance_offer=True)[0].label == "insurance"

    def test_split_pairs_are_not_read_as_totals(self) -> None:
        """6,6 v 2-6 is split by basic strategy, so the 12 vs X indices do not apply (unless it cannot split)."""
        for up in (2, 3, 4, 5, 6):
            assert index_play([6, 6], up) == (), up
        assert [p.label for p in index_play([6, 6], 4, split_allowed=False)] == ["12 vs 4"]
        assert [p.label for p in index_play([7, 5], 4)] == ["12 vs 4"]

    def test_only_under_the_published_rules(self) -> None:
        """Every index cites Blackjack Attack and holds for multi-deck S17 with a peek; not for H17, 1-2 decks or no peek."""
        for play in ILLUSTRIOUS_18 + FAB_4:
            assert "Blackjack Attack" in play.source
            assert play.applies_to(Rules(surrender="late"))
        h17 = Rules(dealer_hits_soft_17=True)
        assert index_play([6, 5], 1, rules=h17) == ()
        assert index_play([6, 5], 1) != ()
        assert index_play([10, 6], 10, rules=Rules.preset("downtown")) == ()
        assert index_play([10, 6], 10, rules=Rules.preset("european")) == ()
        assert index_play([10, 5], 10, surrender=True, rules=Rules())[0].action is Action.STAND  # no late surrender


def test_bet_ramp() -> None:
    """The ramp is 1 unit to TC +1, then 2 units per point, capped by the spread; money stays exact."""
    assert [bet_ramp(tc, 10) for tc in (-3, 1.9, 2, 3.5, 4, 5, 9)] == [10, 10, 20, 40, 60, 80, 80]
    assert bet_ramp(3, Fraction(5, 2), spread=4) == Fraction(10)
    with pytest.raises(ValueError):
        bet_ramp(2, 0)


class TestCountAdvice:
    """count_advice: basic_advice changed by the insurance index (+3) and 16 v 10 (0), as the Illustrious 18 list them."""

    OFFER = frozenset({Action.INSURANCE, Action.DECLINE})

    def test_indices_are_the_illustrious_18s(self) -> None:
        """The two indices are I18 nos. 1 and 2, read from the table the hint engine shows."""
        from blackjack.hints.counting import INSURANCE_INDEX, STAND_16_V_10_INDEX
        assert (ILLUSTRIOUS_18[0].label, ILLUSTRIOUS_18[0].index) == ("insurance", INSURANCE_INDEX)
        assert (ILLUSTRIOUS_18[1].label, ILLUSTRIOUS_18[1].index) == ("16 vs 10", STAND_16_V_10_INDEX)

    def test_insurance_by_the_count_as_insure_by_count_decides(self) -> None:
        """Taken from +3 up, declined below: the same decision as insure_by_count for the running count and cards."""
        for running, left in ((18, 312), (17, 312), (6, 104), (5, 104), (-4, 52), (0, 260)):
            tc = true_count(running, left)
            action, reason = count_advice([10, 6], 1, tc, legal=self.OFFER)
            assert (action is Action.INSURANCE) == insure_by_count(running, left), (running, left)
            assert "true count" in reason and "\n" not in reason

    def test_16_against_a_ten(self) -> None:
        """Hard 16 v 10 stands from 0 and hits below; 8-8 is still split, a soft 16 and 16 v 9 are basic_advice's."""
        for cards in ([10, 6], [9, 7], [10, 4, 2]):
            assert count_advice(cards, 10, 0.0)[0] is Action.STAND
            assert count_advice(cards, 10, -0.01)[0] is Action.HIT
        assert count_advice([8, 8], 10, 2.0)[0] is Action.SPLIT
        assert count_advice([8, 8], 10, 2.0, legal={Action.HIT, Action.STAND})[0] is Action.STAND
        for cards, up in (([1, 5], 10), ([10, 6], 9), ([10, 2], 4), ([10, 7], 10)):
            for tc in (-3.0, 0.0, 4.0):
                assert count_advice(cards, up, tc) == basic_advice(cards, up), (cards, up, tc)

    def test_a_surrender_stays(self) -> None:
        """Under late surrender basic_advice surrenders 16 v 10 at any count; count_advice keeps it."""
        vegas = Rules.preset("vegas")
        assert count_advice([10, 6], 10, 5.0, vegas)[0] is Action.SURRENDER


class TestDrill:
    """The counting drill scores answers."""

    def test_scores_right_and_wrong(self) -> None:
        """The expected count is the running count of every flashed card; answers are scored."""
        drill = CountingDrill("hi_lo", rounds=3, cards_per_round=5, seed=11)
        seen: list[Card] = []
        first = drill.next_cards()
        seen += first
        right = drill.answer(str(running_count(seen)))
        assert right.correct and right.expected == running_count(seen) and right.round == 1
        seen += drill.next_cards()
        wrong = drill.answer(running_count(seen) + 1)
        assert not wrong.correct and "wrong" in wrong.message()
        assert drill.score == (1, 2) and not drill.finished
        drill.next_cards()
        drill.answer("+0")
        assert drill.finished and drill.summary().startswith("Hi-Lo drill:")

    def test_same_seed_same_cards(self) -> None:
        """Two drills with one seed flash the same cards."""
        a, b = CountingDrill(seed=3), CountingDrill(seed=3)
        assert a.next_cards() == b.next_cards()

    def test_ko_starts_at_initial_count(self) -> None:
        """A KO drill over two decks counts from 4 - 8 = -4."""
        drill = CountingDrill("ko", decks=2, rounds=1, cards_per_round=3, seed=1)
        cards = drill.next_cards()
        assert drill.expected == -4 + running_count(cards, "ko")

    def test_misuse(self) -> None:
        """Answering before cards, bad text, flashing twice and playing past the end raise IllegalActionError."""
        drill = CountingDrill(rounds=1, seed=2)
        with pytest.raises(IllegalActionError):
            drill.answer(0)
        drill.next_cards()
        with pytest.raises(IllegalActionError):
            drill.next_cards()
        with pytest.raises(IllegalActionError):
            drill.answer("three")
        assert drill.waiting
        drill.answer(drill.expected)
        with pytest.raises(IllegalActionError):
            drill.next_cards()
        with pytest.raises(ValueError):
            CountingDrill(rounds=20, cards_per_round=5)
