"""A user's ``module:function`` policy: a cheap :class:`Decision` per decision, or a full ``TableView`` when
its parameter is annotated so; the same play as a built-in gives the built-in's figures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from blackjack import Phase
from blackjack.hints.counting import count_from_unseen, true_count
from blackjack.sim import Decision, simulate

POLICIES = '''
from __future__ import annotations

from blackjack import Action, Phase, TableView
from blackjack.sim import Decision

SEEN: list[object] = []


def never_bust(decision: Decision) -> Action:
    """The built-in never-bust, written as a user would: hit hard 11 or less and soft 17 or less."""
    if decision.phase is not Phase.PLAYER_TURN:
        return Action.DECLINE
    limit = 17 if decision.soft else 11
    return Action.HIT if decision.total <= limit and decision.can(Action.HIT) else Action.STAND


def plain(decision):
    """No annotation: a Decision too."""
    SEEN.append(decision)
    return Action.STAND if decision.phase is Phase.PLAYER_TURN else Action.DECLINE


def with_view(view: TableView) -> Action:
    """Annotated TableView: the full view."""
    SEEN.append(view)
    return Action.STAND if view.phase is Phase.PLAYER_TURN else Action.DECLINE


def doubled(decision: Decision) -> Action:
    """never_bust's play with a bet of two units every round (a ``units`` attribute)."""
    return never_bust(decision)


doubled.units = lambda true_count: 2  # type: ignore[attr-defined]


def by_count(decision: Decision) -> Action:
    """never_bust's play, betting 3 units from a true count of +1 and 1 below."""
    return never_bust(decision)


by_count.units = lambda true_count: 3 if true_count >= 1 else 1  # type: ignore[attr-defined]


def too_big(decision: Decision) -> Action:
    return never_bust(decision)


too_big.units = lambda true_count: 0  # type: ignore[attr-defined]


def checks(decision: Decision) -> Action:
    """Compares each figure of the Decision with the full view of the same moment."""
    view = decision.view()
    hand = view.current_hand
    SEEN.append((decision.phase is view.phase, decision.total == hand.total, decision.soft == hand.soft,
                 decision.cards == len(hand.cards), decision.from_split == hand.from_split,
                 decision.upcard == view.dealer.upcard.value, decision.legal == view.legal_actions,
                 decision.pair == (hand.cards[0].value if len(hand.cards) == 2
                                   and hand.cards[0].value == hand.cards[1].value else None),
                 decision.true_count, dict(view.unseen_counts), view.decks))
    if decision.phase is not Phase.PLAYER_TURN:
        return Action.DECLINE
    for action in (Action.SPLIT, Action.DOUBLE, Action.HIT):
        if decision.can(action) and decision.total < 17:
            return action
    return Action.STAND
'''


@pytest.fixture
def policies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    (tmp_path / "user_policies.py").write_text(POLICIES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "user_policies", raising=False)
    import user_policies  # type: ignore[import-not-found]
    return user_policies


def test_a_decision_policy_gives_the_built_in_figures(policies: object) -> None:
    """The same play written as a Decision policy and built in: the same report, figure for figure."""
    mine, built_in = simulate(["user_policies:never_bust", "never-bust"], "vegas", hands=3000, seed=6)
    assert {**mine.as_dict(), "strategy": ""} == {**built_in.as_dict(), "strategy": ""}


def test_an_unannotated_policy_gets_a_decision_and_a_table_view_annotation_gets_the_view(policies: object) -> None:
    from blackjack import TableView
    seen: list[object] = policies.SEEN  # type: ignore[attr-defined]
    simulate("user_policies:plain", "vegas", hands=200, seed=1)
    assert seen and all(isinstance(d, Decision) for d in seen)
    seen.clear()
    simulate("user_policies:with_view", "vegas", hands=200, seed=1)
    assert seen and all(isinstance(v, TableView) for v in seen)


@pytest.mark.parametrize("preset", ["vegas", "atlantic_city", "justblackjack"])
def test_every_figure_of_a_decision_matches_the_view(policies: object, preset: str) -> None:
    """Total, softness, cards, split, pair, upcard, legal moves and the Hi-Lo true count, decision by decision,
    also on insurance and early-surrender offers, splits and doubles."""
    seen: list[tuple[object, ...]] = policies.SEEN  # type: ignore[attr-defined]
    simulate("user_policies:checks", preset, hands=1500, seed=2)
    for *same, tc, unseen, decks in seen:
        assert all(same)
        assert tc == true_count(count_from_unseen(unseen, decks), sum(unseen.values()))
    assert len(seen) > 1500


def test_decision_phases_cover_the_offers(policies: object) -> None:
    """Insurance offers reach the policy as Decisions with phase INSURANCE and INSURANCE/DECLINE legal."""
    seen: list[Decision] = policies.SEEN  # type: ignore[attr-defined]
    simulate("user_policies:plain", "vegas", hands=800, seed=3)
    offers = [d for d in seen if d.phase is Phase.INSURANCE]
    assert offers and all(d.upcard == 1 for d in offers)
    assert "INSURANCE" in repr(offers[0])


def test_a_policy_with_units_bets_them(policies: object) -> None:
    """A policy whose function has ``units`` bets that many units a round: two units every round is the same play as
    one unit, so the EV per unit bet is the built-in's to the last bit, and the average bet is 2."""
    mine, built_in = simulate(["user_policies:doubled", "never-bust"], "vegas", hands=3000, seed=6)
    assert mine.average_bet == 2 and mine.ev == built_in.ev and mine.rounds == built_in.rounds


def test_a_policy_with_units_counts(policies: object) -> None:
    """``units`` is asked with the true count before each deal: the results are split by the count, and the bets
    are 3 units exactly in the rows from +1 up."""
    report = simulate("user_policies:by_count", "vegas", hands=4000, seed=2)[0]
    rows = {row["true_count"]: row for row in report.by_true_count}
    assert any(tc >= 1 for tc in rows) and any(tc < 1 for tc in rows)
    assert all(row["average_bet"] == (3 if tc >= 1 else 1) for tc, row in rows.items())


def test_units_outside_1_to_64_stop_the_run_in_one_line(policies: object) -> None:
    from blackjack import BlackjackError
    with pytest.raises(BlackjackError, match=r"units\(\+0\.00\) returned 0; a bet is a whole number of units from 1 to 64"):
        simulate("user_policies:too_big", "vegas", hands=10, seed=1)
