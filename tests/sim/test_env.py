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


def _stacked_env(rules: str, cards: list[str]) -> object:
    """A BlackjackEnv whose next round is dealt from ``cards`` (agent, dealer up, agent, dealer hole, ...)."""
    from blackjack.env import BlackjackEnv
    env = BlackjackEnv(rules)
    env.reset(seed=1)
    assert env._game is not None and env._round is not None
    env._game.round = None  # abandon the dealt round
    env._game.shoe.discard(env._round.cards_on_table())
    env._round = None
    env._game.shoe.stack(cards)
    return env


def test_env_is_registered_with_gymnasium_and_made_by_id() -> None:
    """gymnasium.make("BlackjackKit-v0", rules=...) builds the environment with those rules,
    also through the "module:id" form that imports blackjack.env itself."""
    gymnasium = pytest.importorskip("gymnasium")
    import blackjack.env
    from blackjack.rules import Rules
    made = gymnasium.make("BlackjackKit-v0", rules="single_deck")
    assert made.unwrapped.rules == Rules.preset("single_deck"), "make() must pass rules= to the environment"
    assert blackjack.env.ENV_ID == "BlackjackKit-v0"
    other = gymnasium.make("blackjack.env:BlackjackKit-v0", rules="cs111")
    assert other.unwrapped.rules == Rules.preset("cs111")


def test_env_action_mask_is_an_int8_array_like_gymnasiums_masked_envs() -> None:
    """info["action_mask"] is a numpy int8 array of 0/1 matching action_masks(); all 0 once the round ends."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from blackjack.env import BlackjackEnv
    env = BlackjackEnv("vegas")
    _obs, info = env.reset(seed=5)
    mask = info["action_mask"]
    assert isinstance(mask, np.ndarray) and mask.dtype == np.int8, f"got {type(mask).__name__} {getattr(mask, 'dtype', '')}"
    assert mask.tolist() == [int(b) for b in env.action_masks()]
    assert mask[0] == 1 and mask[1] == 1, "stand and hit are legal at a first decision"
    terminated = False
    while not terminated:
        _obs, _reward, terminated, _truncated, info = env.step(0)
    assert info["action_mask"].dtype == np.int8 and not info["action_mask"].any()


@pytest.mark.parametrize(("cards", "actions", "expected"), [
    (["Th", "9c", "Kd", "8s"], [0], 1.0),          # agent T K = 20 stands; dealer 9 8 = 17: a win, +1
    (["Th", "Tc", "Kd", "Ts"], [0], 0.0),          # 20 against the dealer's T T = 20: a push, 0
    (["Th", "9c", "7d", "Ts", "8h"], [1], -1.0),   # agent T 7 hits an 8: a bust, -1
])
def test_env_under_rules_without_money_scores_each_hand_plus_minus_one(cards: list[str], actions: list[int],
                                                                       expected: float) -> None:
    """cs111 plays for no money, so every net is 0; the reward is +1 win, 0 push, -1 loss per hand,
    so the environment can be learned (it used to give 0 for every round)."""
    pytest.importorskip("gymnasium")
    env = _stacked_env("cs111", cards)
    env.reset()  # type: ignore[attr-defined]
    for action in actions:
        _obs, reward, terminated, _truncated, _info = env.step(action)  # type: ignore[attr-defined]
    assert terminated, f"cards {cards}: the round should end after {actions}"
    assert reward == expected, f"cards {cards}: expected reward {expected}, got {reward}"


def test_env_rounds_without_a_decision_are_reported_in_skipped() -> None:
    """A natural dealt to the agent asks nothing: reset settles it (+1.5 at 3:2) and reports it in
    info["skipped"], then deals the next round, as the module docstring says."""
    pytest.importorskip("gymnasium")
    env = _stacked_env("vegas", ["Ah", "9c", "Kd", "7s", "Th", "9d", "7c", "8s"])
    _obs, info = env.reset()  # type: ignore[attr-defined]
    assert info["skipped"] == 1.5, f"the agent's natural pays 3:2; skipped was {info['skipped']}"
    assert env._round is not None and env._round.turn is not None  # type: ignore[attr-defined]
