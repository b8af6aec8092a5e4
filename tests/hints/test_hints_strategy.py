"""The basic-strategy chart derived from EVs equals the published charts (blackjack.hints.strategy)."""

from __future__ import annotations

import dataclasses

import pytest

from blackjack import Action, Card, Rules
from blackjack.hints import UPCARDS, basic_strategy, code_for

#: Wizard of Odds, "4-Deck to 8-Deck Blackjack Strategy", dealer stands on soft 17, with
#: late surrender codes (Rh) and the DAS codes (Ph). Columns: 2 3 4 5 6 7 8 9 T A.
WIZARD_S17 = """
hard 5   H  H  H  H  H  H  H  H  H  H
hard 6   H  H  H  H  H  H  H  H  H  H
hard 7   H  H  H  H  H  H  H  H  H  H
hard 8   H  H  H  H  H  H  H  H  H  H
hard 9   H  Dh Dh Dh Dh H  H  H  H  H
hard 10  Dh Dh Dh Dh Dh Dh Dh Dh H  H
hard 11  Dh Dh Dh Dh Dh Dh Dh Dh Dh H
hard 12  H  H  S  S  S  H  H  H  H  H
hard 13  S  S  S  S  S  H  H  H  H  H
hard 14  S  S  S  S  S  H  H  H  H  H
hard 15  S  S  S  S  S  H  H  H  Rh H
hard 16  S  S  S  S  S  H  H  Rh Rh Rh
hard 17  S  S  S  S  S  S  S  S  S  S
hard 18  S  S  S  S  S  S  S  S  S  S
hard 19  S  S  S  S  S  S  S  S  S  S
hard 20  S  S  S  S  S  S  S  S  S  S
soft 13  H  H  H  Dh Dh H  H  H  H  H
soft 14  H  H  H  Dh Dh H  H  H  H  H
soft 15  H  H  Dh Dh Dh H  H  H  H  H
soft 16  H  H  Dh Dh Dh H  H  H  H  H
soft 17  H  Dh Dh Dh Dh H  H  H  H  H
soft 18  S  Ds Ds Ds Ds S  S  H  H  H
soft 19  S  S  S  S  S  S  S  S  S  S
soft 20  S  S  S  S  S  S  S  S  S  S
pair 2   Ph Ph P  P  P  P  H  H  H  H
pair 3   Ph Ph P  P  P  P  H  H  H  H
pair 4   H  H  H  Ph Ph H  H  H  H  H
pair 5   Dh Dh Dh Dh Dh Dh Dh Dh H  H
pair 6   Ph P  P  P  P  H  H  H  H  H
pair 7   P  P  P  P  P  P  H  H  H  H
pair 8   P  P  P  P  P  P  P  P  P  P
pair 9   P  P  P  P  P  S  P  P  S  S
pair 10  S  S  S  S  S  S  S  S  S  S
pair 1   P  P  P  P  P  P  P  P  P  P
"""

#: The same page's dealer-hits-soft-17 chart differs in these cells (with surrender).
WIZARD_H17_CHANGES = {("hard", 11, 1): "Dh", ("hard", 15, 1): "Rh", ("hard", 17, 1): "Rs",
                      ("soft", 18, 2): "Ds", ("soft", 19, 6): "Ds", ("pair", 8, 1): "Rp"}


def published(changes: dict[tuple[str, int, int], str] | None = None) -> dict[tuple[str, int, int], str]:
    cells = {}
    for line in WIZARD_S17.strip().splitlines():
        kind, row, *codes = line.split()
        for up, code in zip(UPCARDS, codes):
            cells[(kind, int(row), up)] = code
    cells.update(changes or {})
    return cells


def derived(rules: Rules) -> dict[tuple[str, int, int], str]:
    chart = basic_strategy(rules)
    cells = {}
    for up_index, up in enumerate(UPCARDS):
        for total in range(5, 21):
            cells[("hard", total, up)] = chart.hard[total][up_index]
        for total in range(13, 21):
            cells[("soft", total, up)] = chart.soft[total][up_index]
        for value in range(1, 11):
            cells[("pair", value, up)] = chart.pairs[value][up_index]
    return cells


def no_surrender(cells: dict[tuple[str, int, int], str]) -> dict[tuple[str, int, int], str]:
    return {key: (code[1].upper() if code[0] == "R" else code) for key, code in cells.items()}


def compare(got: dict[tuple[str, int, int], str], want: dict[tuple[str, int, int], str]) -> None:
    wrong = [f"{kind} {row} vs {'A' if up == 1 else up}: derived {got[(kind, row, up)]}, published {code}"
             for (kind, row, up), code in want.items() if got[(kind, row, up)] != code]
    assert not wrong, "\n".join(wrong)


class TestPublishedCharts:
    """Cell-by-cell equality with the Wizard of Odds 4-8 deck charts."""

    def test_six_deck_s17_das_no_surrender(self) -> None:
        """6 decks S17 DAS, no surrender: the published chart with surrender read as its fallback."""
        compare(derived(Rules()), no_surrender(published()))

    def test_six_deck_s17_das_late_surrender(self) -> None:
        """6 decks S17 DAS late surrender (vegas preset): the published chart including Rh cells."""
        compare(derived(Rules.preset("vegas")), published())

    def test_eight_deck_s17_das_late_surrender(self) -> None:
        """8 decks (atlantic_city preset) gives the same 4-8 deck chart."""
        compare(derived(Rules.preset("atlantic_city")), published())

    def test_six_deck_h17_das_late_surrender(self) -> None:
        """6 decks H17 DAS LS: the published H17 chart."""
        rules = dataclasses.replace(Rules.preset("vegas"), dealer_hits_soft_17=True)
        compare(derived(rules), published(WIZARD_H17_CHANGES))


class TestChartLookups:
    """Chart.code / Chart.action fall back as the codes say."""

    chart = basic_strategy(Rules.preset("vegas"))

    def test_codes(self) -> None:
        """Lookups read the right row for hard, soft, pair and multi-card hands."""
        assert self.chart.code([10, 6], 10) == "Rh"
        assert self.chart.code([1, 7], 3) == "Ds"
        assert self.chart.code([8, 8], 10) == "P"
        assert self.chart.code([2, 3, 1, 1], 6) == "Dh"  # soft 17 on four cards: the soft row
        assert self.chart.code([10, 10, 1], 6) == "S"

    def test_fallbacks(self) -> None:
        """Double and surrender fall back when not allowed; a pair that cannot split reads its total."""
        assert self.chart.action([10, 6], 10) is Action.SURRENDER
        assert self.chart.action([10, 4, 2], 10) is Action.HIT
        assert self.chart.action([1, 2, 5], 4) is Action.STAND  # soft 18 vs 4: Ds on three cards
        assert self.chart.action([1, 7], 4) is Action.DOUBLE
        legal = frozenset({Action.HIT, Action.STAND, Action.DOUBLE})
        assert self.chart.action([8, 8], 6, legal=legal) is Action.STAND  # 16 vs 6
        assert self.chart.action([Card.parse("Kd"), Card.parse("Qh")], 6) is Action.STAND

    def test_ph_without_das(self) -> None:
        """Without DAS the chart never says Ph and 4-4 vs 5 is a hit."""
        rules = dataclasses.replace(Rules(), double_after_split=False)
        chart = basic_strategy(rules)
        assert all(code != "Ph" for _s, _l, codes in chart.rows() for code in codes)
        assert chart.action([4, 4], 5) is Action.HIT

    def test_str_prints_every_row(self) -> None:
        """str(chart) has a header, every row label and the code legend."""
        text = str(self.chart)
        for label in ("16", "A,7", "8,8", "A,A", "Rh = surrender if allowed, otherwise hit"):
            assert label in text
        assert len(self.chart.rows()) == 16 + 8 + 10

    def test_code_for(self) -> None:
        """code_for picks the best action and its fallback."""
        assert code_for({Action.HIT: -0.1, Action.STAND: -0.2, Action.DOUBLE: 0.0}) == "Dh"
        assert code_for({Action.HIT: -0.3, Action.STAND: -0.2, Action.SURRENDER: -0.5}) == "S"
        assert code_for({Action.HIT: -0.6, Action.STAND: -0.55, Action.SURRENDER: -0.5}) == "Rs"

    @pytest.mark.parametrize("name", Rules.preset_names())
    def test_every_preset_builds(self, name: str) -> None:
        """A chart is derived for every preset."""
        chart = basic_strategy(Rules.preset(name))
        assert chart.code([10, 10], 6) == "S"
