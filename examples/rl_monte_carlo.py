"""Tabular Monte Carlo control on the real engine, compared with basic strategy.

Needs the gym extra: ``pip install blackjack-kit[gym]``. Run::

    python examples/rl_monte_carlo.py --minutes 3 --rules vegas

Every-visit Monte Carlo control with an epsilon-greedy policy (Sutton & Barto,
*Reinforcement Learning*, 2nd ed., section 5.4) learns Q(observation, action) on
:class:`blackjack.env.BlackjackEnv`: a 6-deck shoe, double, split and surrender, not the
toy infinite deck of ``Blackjack-v1``. Illegal actions are masked. Afterwards it prints
how often the greedy policy agrees with the hint library's basic strategy on the
states it visited often, and both policies' average reward over the same number of
fresh rounds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from blackjack import Card, Suit
from blackjack.env import ACTIONS, BlackjackEnv
from blackjack.hints.strategy import basic_strategy

Obs = tuple[int, ...]


def greedy(q: dict[Obs, list[float]], obs: Obs, mask: list[bool]) -> int:
    """The legal action with the highest Q value (stand when the state is new)."""
    values = q.get(obs)
    if values is None:
        return 0
    return max((a for a in range(len(ACTIONS)) if mask[a]), key=lambda a: values[a])


def train(env: BlackjackEnv, seconds: float, epsilon: float, rng: random.Random) -> tuple[dict[Obs, list[float]],
                                                                                        dict[Obs, int]]:
    """Run Monte Carlo control for ``seconds``; return Q and the visit counts."""
    q: dict[Obs, list[float]] = defaultdict(lambda: [0.0] * len(ACTIONS))
    n: dict[tuple[Obs, int], int] = defaultdict(int)
    visits: dict[Obs, int] = defaultdict(int)
    end = time.monotonic() + seconds
    obs, info = env.reset(seed=rng.randrange(2 ** 31))
    episodes = 0
    while time.monotonic() < end:
        steps: list[tuple[Obs, int]] = []
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"]
            legal = [a for a in range(len(ACTIONS)) if mask[a]]
            action = rng.choice(legal) if rng.random() < epsilon else greedy(q, obs, mask)
            steps.append((obs, action))
            obs, reward, done, _truncated, info = env.step(action)
        for state, action in steps:  # no discount: every step gets the round's result
            n[(state, action)] += 1
            visits[state] += 1
            q[state][action] += (reward - q[state][action]) / n[(state, action)]
        obs, info = env.reset()
        episodes += 1
    print(f"trained on {episodes:,} rounds")
    return q, visits


def chart_action(env: BlackjackEnv, obs: Obs, mask: list[bool]) -> int:
    """Basic strategy's action number for an observation (two cards standing in for the total)."""
    chart = basic_strategy(env.rules)
    total, up, soft = obs[0], obs[1], obs[2]
    if mask[3]:  # a splittable pair: total / 2 each (aces: soft 12)
        value = 1 if soft else total // 2
        cards = [value, value]
    elif soft:
        cards = [1, total - 11]
    else:
        cards = [10, min(total - 10, 10)] if total >= 12 else [total - 2, 2]
    legal = {a for a, ok in zip(ACTIONS, mask) if ok}
    action = chart.action([Card(Suit.SPADES, v) for v in cards], up, legal=legal)
    return ACTIONS.index(action) if action in ACTIONS else 0


def evaluate(env: BlackjackEnv, pick: object, rounds: int, seed: int) -> float:
    """Average reward per round of a policy ``pick(obs, mask) -> action`` on fresh shoes."""
    total = 0.0
    obs, info = env.reset(seed=seed)
    for _ in range(rounds):
        done = False
        while not done:
            obs, reward, done, _t, info = env.step(pick(obs, info["action_mask"]))  # type: ignore[operator]
        total += reward  # only reset() plays rounds out and reports them as "skipped"
        obs, info = env.reset()
        total += info.get("skipped", 0.0)
    return total / rounds


def main() -> None:
    """Train, compare with basic strategy, print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--rules", default="vegas")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--eval-rounds", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = BlackjackEnv(args.rules)
    q, visits = train(env, args.minutes * 60, args.epsilon, random.Random(args.seed))
    common = [s for s, count in visits.items() if count >= 200]
    masks = {state: [True, True, bool(state[3]), bool(state[4]), True] for state in common}
    agree = sum(greedy(q, state, mask) == chart_action(env, state, mask) for state, mask in masks.items())
    print(f"greedy policy agrees with basic strategy in {agree}/{len(common)} often-visited states "
          f"({agree / max(len(common), 1):.0%})")
    learned = evaluate(env, lambda o, m: greedy(q, o, m), args.eval_rounds, args.seed + 1)
    chart = evaluate(env, lambda o, m: chart_action(env, o, m), args.eval_rounds, args.seed + 1)
    print(f"average reward per round: learned {learned:+.4f}, basic strategy {chart:+.4f} "
          f"({args.eval_rounds:,} rounds each, same shoes)")


if __name__ == "__main__":
    main()
