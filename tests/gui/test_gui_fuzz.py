"""Random clicking at the Tk table: no Tk callback ever raises, and no credit appears or vanishes.

Each seed picks a preset and one to three seats, then presses the table's controls in a
random order, many of them out of turn: deal, every action, insurance with typed stakes
(good and bad), chips on and off, typed bets (good and bad), seat changes, counting
systems, new rounds. The ``make_app`` fixture fails the test if a Tk callback raised.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from blackjack import Action, Rules

pytestmark = pytest.mark.gui

BETS = ["10", "", "abc", "2.5", "1e9", "-3", "0", "9" * 40]
STAKES = ["", "1", "0", "2.5", "x", "1/2", "99999", "-1"]


def press_at_random(app: Any, rng: random.Random, presses: int) -> None:
    """Press ``presses`` random controls of ``app``, letting Tk run after each."""
    controls: list[Callable[[], None]] = [
        app.deal, app.new_round, app.new_round, app.take_insurance, app.clear_bet, app.same_bet, app.reset_score,
        lambda: app.act(rng.choice(list(Action))),
        lambda: app.act(rng.choice([Action.HIT, Action.STAND])),
        lambda: app.add_chip(rng.choice([1, 5, 25, 100, 500]), remove=rng.random() < 0.2),
        lambda: (app.insurance_amount.set(rng.choice(STAKES)), app.take_insurance()),
        lambda: (app.bet_entry.set(rng.choice(BETS)), app.bet_from_entry()),
        lambda: app.choose_seat(rng.randint(-1, 3)),
        lambda: app.set_counting(rng.choice(["hi_lo", "ko", "zen"])),
    ]
    for _ in range(presses):
        rng.choice(controls)()
        app.root.update()
        assert not app.errors, app.errors


def credits(app: Any) -> object:
    """Every credit at the table: bankrolls, stakes still on the table, and the house's takings."""
    game = app.game
    rnd = game.round
    return (sum(p.bankroll for p in game.players) + (rnd.on_table if rnd is not None else 0)
            + game.house_net + (rnd.house_net if rnd is not None else 0))


@pytest.mark.parametrize("seed", range(12))
def test_random_presses_never_raise_and_conserve_credits(seed: int, make_app: Callable[..., Any]) -> None:
    rng = random.Random(seed)
    preset = rng.choice(Rules.preset_names())
    rules = Rules.preset(preset)
    seats = rng.randint(1, min(3, rules.max_players))
    app = make_app([f"P{i + 1}" for i in range(seats)], preset, seed=seed, hints=rng.random() < 0.5)
    start = credits(app)
    press_at_random(app, rng, 150)
    assert credits(app) == start, f"{preset}: credits went from {start} to {credits(app)}"
