"""The round's money path reads the student's wagering functions at each round (blackjack/money_path.py).

The graded suites stand their given parts in for a student's function wherever a module of the package
holds it (tests/milestone2/observe_given.py), so a money bug costs only its own function's points. A path
bound once at import would keep calling the student's functions through the swap.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import blackjack.money_path as money_path_module
from blackjack import Action, Blackjack, Rules
from blackjack.money_path import money_path


def test_a_function_swapped_into_the_module_is_the_one_the_round_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[Fraction] = []

    def given_take_stake(player: object, amount: Fraction) -> None:
        taken.append(Fraction(amount))
        player.bankroll -= amount  # type: ignore[attr-defined]

    monkeypatch.setattr(money_path_module, "take_stake", given_take_stake)
    assert money_path(Rules()).take_stake is given_take_stake
    game = Blackjack(["Ann"], rules=Rules(), seed=1)
    rnd = game.start_round(bets=[10])
    assert taken == [10] and rnd is not None


def test_no_money_rules_never_call_the_wagering_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("week 1 must not run week-2 code")

    for name in ("take_stake", "pay", "payout"):
        monkeypatch.setattr(money_path_module, name, refuse)
    game = Blackjack(["Ann"], rules=Rules.preset("cs111"), seed=1)
    rnd = game.start_round()
    while rnd.current_player is not None:
        rnd.apply(Action.STAND)
    game.finish_round()
