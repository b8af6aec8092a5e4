"""The Gymnasium environment over the engine (skipped when gymnasium is not installed)."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_env_without_gymnasium_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing blackjack.env without gymnasium raises ImportError naming pip install blackjack-kit[gym]."""
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "blackjack.env", raising=False)
    with pytest.raises(ImportError, match=r"pip install blackjack-kit\[gym\]"):
        importlib.import_module("blackjack.env")


@pytest.mark.parametrize("kwargs", [{}, {"observe_count": True}, {"rules": "european"}, {"rules": "single_deck"}])
def test_env_passes_gymnasium_check_env(kwargs: dict[str, object]) -> None:
    """BlackjackEnv passes gymnasium.utils.env_checker.check_env for several presets."""
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from blackjack.env import BlackjackEnv
    check_env(BlackjackEnv(**kwargs), skip_render_check=True)  # type: ignore[arg-type]


def test_env_reward_is_net_in_bets() -> None:
    """Standing on 20 against a dealer 10-7 wins one bet."""
    pytest.importorskip("gymnasium")
    from blackjack.env import BlackjackEnv
    env = BlackjackEnv("vegas")
    env.reset(seed=1)
    env._round = None  # abandon the dealt round and stack the next one
    assert env._game is not None
    env._game.round = None
    env._game.shoe.stack(["Th", "Tc", "Kd", "7s"])  # agent T K = 20; dealer T up, 7 in the hole
    env._game.dealer.start_round()
    env._round = env._game.start_round([1])
    obs, reward, terminated, _truncated, info = env.step(0)
    assert (reward, terminated, info["illegal"]) == (1.0, True, False)


def test_env_illegal_action_stands_and_is_flagged() -> None:
    """An action the hand does not allow is played as stand and flagged in info."""
    pytest.importorskip("gymnasium")
    from blackjack.env import BlackjackEnv
    env = BlackjackEnv("vegas")
    _obs, info = env.reset(seed=3)
    mask = info["action_mask"]
    if mask[3]:
        pytest.skip("the seeded hand is a pair")
    _obs, _reward, terminated, _truncated, info = env.step(3)
    assert info["illegal"] and terminated


@pytest.mark.parametrize("action", [-1, 5, 99, "h", 2.0, True, None])
def test_env_refuses_an_action_outside_the_space_and_changes_nothing(action: object) -> None:
    """-1 used to pick surrender (Python's negative index) and 99 raised IndexError; now both are a
    ValueError naming the space, and the round is left as it was."""
    pytest.importorskip("gymnasium")
    from blackjack.env import BlackjackEnv
    env = BlackjackEnv("vegas")
    env.reset(seed=1)
    assert env._round is not None
    before = (env._round.phase, env._round.turn, list(env._round.history), env._game.cards_in_play())  # type: ignore[union-attr]
    with pytest.raises(ValueError, match=r"action must be a number 0\.\.4"):
        env.step(action)  # type: ignore[arg-type]
    after = (env._round.phase, env._round.turn, list(env._round.history), env._game.cards_in_play())  # type: ignore[union-attr]
    assert after == before
