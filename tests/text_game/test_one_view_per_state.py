"""The text games take one snapshot of the table per state of the round (issue 34): a view is built at the deal,
after each move the round takes, and at the end, not again for every line they print."""

from __future__ import annotations

import io

import pytest

from blackjack.__main__ import main
from blackjack.round import Round
from blackjack.view import TableView

#: Ann's T-6 against the dealer's 9 (hole 8): she hits a 4 and stands on 20.
STACK = ["--names", "Ann", "--stack", "Th,9h,6c,8s,4d"]


@pytest.mark.parametrize("args, keys, won", [
    (["--rules", "cs111", "--bankroll", "100"], "20\nh\ns\nn\n", "Ann wins (+20)"),  # the course's game, week 2
    (["--rules", "cs111"], "h\ns\nn\n", "Ann wins"),  # the course's game, week 1
    (["--seed", "1"], "1\nh\ns\nn\n", "WIN +1"),  # the kit's text game
], ids=["course-money", "course", "text-game"])
def test_a_round_of_two_moves_builds_at_most_four_views(args: list[str], keys: str, won: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two moves (hit, stand): the deal's view, one after each move, one after the round is settled."""
    views: list[TableView] = []
    original = Round.view

    def counted(rnd: Round) -> TableView:
        views.append(original(rnd))
        return views[-1]

    monkeypatch.setattr(Round, "view", counted)
    out = io.StringIO()
    assert main([*args, *STACK], stdin=io.StringIO(keys), stdout=out) == 0
    assert won in out.getvalue()
    assert 1 <= len(views) <= 4, len(views)
