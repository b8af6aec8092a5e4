"""A Gymnasium environment over the real engine: any preset, a finite shoe, all five plays.

Install the extra first: ``pip install blackjack-kit[gym]``. Importing this module registers
the environment with Gymnasium as ``BlackjackKit-v0``. Episodes, actions, rewards and
observations are described in docs/simulator.md ("Reinforcement learning"); Gymnasium's
``Blackjack-v1`` is the toy version (infinite deck, hit and stand only). The observation:
``(total 0..31, upcard 1..10 (ace 1), usable ace, can double, can split[, true count + 10, 0..20])``,
of the hand being played after a split.

Version history: v0, first version (Blackjack Kit 0.1).
"""
# mypy: disable-error-code="import-not-found, import-untyped", allow-subclassing-any

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("blackjack.env needs gymnasium: pip install blackjack-kit[gym]") from err

from .actions import Action, Phase
from .player import Player
from .round import Round
from .rules import Rules
from .table import Blackjack

__all__ = ["ACTIONS", "ENV_ID", "BlackjackEnv"]

#: The id under which importing this module registers :class:`BlackjackEnv` with Gymnasium.
ENV_ID = "BlackjackKit-v0"

#: Action numbers of the environment, in order.
ACTIONS = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
_BANKROLL = 10 ** 12
#: A hand's reward under rules that play for no money, by :attr:`Result.kind`.
_HAND_SCORE = {"win": 1, "push": 0, "loss": -1}


class BlackjackEnv(gymnasium.Env):
    """Blackjack on the Blackjack Kit engine for reinforcement learning (docs/simulator.md).

    Args:
        rules: a :class:`Rules` value, a preset name or a rules TOML file (default ``"vegas"``).
        observe_count: add the floored Hi-Lo true count to the observation.
        render_mode: None or ``"ansi"`` (``render()`` returns the table as text).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, rules: Rules | str = "vegas", *, observe_count: bool = False,
                 render_mode: str | None = None) -> None:
        self.rules = Rules.load(rules) if isinstance(rules, str) else rules
        self.observe_count = observe_count
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(ACTIONS))
        parts = [spaces.Discrete(32), spaces.Discrete(11), spaces.Discrete(2), spaces.Discrete(2), spaces.Discrete(2)]
        if observe_count:
            parts.append(spaces.Discrete(21))
        self.observation_space = spaces.Tuple(parts)
        self._game: Blackjack | None = None
        self._round: Round | None = None
        self._bet = self.rules.min_bet

    # --- helpers ------------------------------------------------------------------------
    def _new_game(self) -> Blackjack:
        seed = int(self.np_random.integers(0, 2 ** 63 - 1))
        return Blackjack([Player("agent", _BANKROLL)], self.rules, rng=random.Random(seed))

    def _true_count(self) -> int:
        from .hints.counting import count_from_unseen, true_count
        assert self._game is not None
        unseen = self._round.unseen_counts() if self._round is not None else self._game.shoe.counts()
        tc = true_count(count_from_unseen(unseen, self.rules.decks), max(sum(unseen.values()), 1))
        return max(-10, min(10, math.floor(tc))) + 10

    def _obs(self) -> tuple[int, ...]:
        rnd = self._round
        assert rnd is not None and self._game is not None
        turn = rnd.turn
        up = rnd.dealer.hand[0].get_value()
        if turn is None:
            hand = rnd.hands(0)[-1]
            double = split = 0
        else:
            hand = rnd.hands(turn[0])[turn[1]]
            double, split = int(rnd.is_legal(Action.DOUBLE)), int(rnd.is_legal(Action.SPLIT))
        total = min(hand.get_score(), 31)
        obs = [total, up, int(hand.is_soft()), double, split]
        if self.observe_count:
            obs.append(self._true_count())
        return tuple(obs)

    def action_masks(self) -> list[bool]:
        """Which of the five actions are legal now (all False between rounds)."""
        rnd = self._round
        return [rnd is not None and rnd.is_legal(a) for a in ACTIONS]

    def _mask(self) -> Any:
        """:meth:`action_masks` as ``info["action_mask"]`` gives it: a ``numpy.int8`` array of 0/1."""
        return np.array(self.action_masks(), dtype=np.int8)

    def _answer_offers(self) -> None:
        """Decline insurance and early surrender for the agent."""
        rnd = self._round
        assert rnd is not None
        while rnd.turn is not None and rnd.phase in (Phase.INSURANCE, Phase.EARLY_SURRENDER):
            rnd.apply(Action.DECLINE)

    def _net(self) -> float:
        """Settle the round; return the reward (docs/simulator.md)."""
        assert self._game is not None
        outcomes = self._game.finish_round(record=False)
        self._round = None
        if not self.rules.wagering:
            return float(sum(_HAND_SCORE[o.result.kind] for _s, _h, o in outcomes))
        return float(sum((o.net for _s, _h, o in outcomes), Fraction(0)) / self._bet)

    # --- the Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[tuple[int, ...], dict[str, Any]]:
        """Deal a new round (a new shoe when ``seed`` is given) and return the first decision's observation."""
        super().reset(seed=seed)
        if seed is not None or self._game is None:
            self._game = self._new_game()
        elif self._round is not None:
            self._game.round = None  # an abandoned round: its cards are left out of the shoe until a reshuffle
            self._game.shoe.discard(self._round.cards_on_table())
        skipped = 0.0
        while True:
            self._round = self._game.start_round([self._bet])
            self._answer_offers()
            if self._round.turn is not None:
                break
            skipped += self._net()
        return self._obs(), {"skipped": skipped, "action_mask": self._mask()}

    def step(self, action: int) -> tuple[tuple[int, ...], float, bool, bool, dict[str, Any]]:
        """Play action number ``action`` (0 stand, 1 hit, 2 double, 3 split, 4 surrender; an illegal one as stand).

        Raises:
            ValueError: ``action`` is not one of the numbers 0..4; nothing is played.
            RuntimeError: no round is open (call :meth:`reset`).
        """
        rnd = self._round
        if rnd is None:
            raise RuntimeError("call reset() before step(), and again after a round ends")
        if isinstance(action, bool) or not self.action_space.contains(action):
            raise ValueError(f"action must be a number 0..{len(ACTIONS) - 1} "
                             f"({', '.join(a.value for a in ACTIONS)}), got {action!r}")
        chosen = ACTIONS[int(action)]
        illegal = not rnd.is_legal(chosen)
        rnd.apply(Action.STAND if illegal else chosen)
        self._answer_offers()
        if rnd.turn is None:
            obs = self._obs()
            return obs, self._net(), True, False, {"illegal": illegal, "action_mask": self._mask()}
        return self._obs(), 0.0, False, False, {"illegal": illegal, "action_mask": self._mask()}

    def render(self) -> str | None:
        """Return the table as text (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi" or self._game is None:
            return None
        dealer = self._round.dealer if self._round is not None else self._game.dealer
        shown = str(dealer.hand) if dealer.revealed else f"{dealer.hand[0]} ??"
        rnd = self._round
        hands = " | ".join(str(h) for h in rnd.hands(0)) if rnd is not None else ""
        return f"dealer: {shown}   you: {hands}"


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:BlackjackEnv")
