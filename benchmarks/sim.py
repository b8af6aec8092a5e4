"""Hands per second: our engine against the pure-Python peers, one simple policy, one process.

Policy everywhere: hit below 17, else stand (no doubles, splits, insurance). Peers:

* Gymnasium ``Blackjack-v1`` (infinite deck, hit/stand only),
* ``jackblack`` ``Simulation`` with its ``Simple17`` strategy,
* ``py21`` ``Game.play_round`` with ``hit_to_seventeen``.

None of the peers deals a finite shoe with a cut card and full rules and settlement; ours
does (``vegas`` preset: 6 decks, peek, insurance offer, late surrender offered, 3:2).
Our figures: the hit-below-17 policy through the simulator's tier (``Round(events=False)``
+ ``_apply_unchecked``), the same through the checked tier (``apply`` with a ``TableView``
per decision, as a front end would), and ``simulate("basic")`` (the basic-strategy chart,
statistics included) on one core and with ``--jobs 2``. The simulator stakes ``int`` chips,
so its money is exact ``int`` arithmetic (see ``blackjack.sim.runner.chips_per_unit``).

A last line, ``floor``, is not an engine: the course's ``Card``, ``Hand`` and ``Dealer``
dealt by hand with no table around them. It bounds what any engine built on those classes
can cost, and so shows how much of our time is the round state machine itself.

The peers are installed only for this script, in a separate virtual environment::

    python -m venv /tmp/bjbench && /tmp/bjbench/bin/pip install gymnasium jackblack py21 altair
    /tmp/bjbench/bin/python benchmarks/sim.py [--hands 50000]

A peer that is not installed is skipped with a note. Nothing here is needed by the tests.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
from collections.abc import Callable
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from blackjack import Action, Blackjack, Phase, Rules, TableView  # noqa: E402
from blackjack.sim import simulate  # noqa: E402


def ours_fast(hands: int) -> None:
    """Our engine, simulator tier: real 6-deck shoe, full vegas rules and settlement."""
    game = Blackjack(["A"], Rules.preset("vegas"), seed=1)
    game.players[0].bankroll = 10 ** 15
    bet = 2  # int credits, as the simulator stakes: whole money stays int (3:2 on 2 nets 3)
    hit, stand, decline = Action.HIT, Action.STAND, Action.DECLINE
    player_turn = Phase.PLAYER_TURN
    for _ in range(hands):
        rnd = game.new_round(events=False)
        rnd._place_bet_unchecked(0, bet)
        rnd.deal()
        while (hand := rnd.current_hand) is not None:
            if rnd.phase is not player_turn:
                rnd._apply_unchecked(decline)
                continue
            rnd._apply_unchecked(hit if hand.get_score() < 17 else stand)
        game.finish_round(record=False)


def ours_checked(hands: int) -> None:
    """Our engine, checked tier: a TableView per decision, events, ledgers."""
    game = Blackjack(["A"], Rules.preset("vegas"), seed=1)
    game.players[0].bankroll = Fraction(10 ** 15)

    def decide(view: TableView) -> Action:
        hand = view.current_hand
        if view.phase is not Phase.PLAYER_TURN or hand is None:
            return Action.DECLINE
        return Action.HIT if hand.total < 17 else Action.STAND
    for _ in range(hands):
        game.play_round(decide, [1])


def ours_basic(hands: int) -> None:
    """simulate('basic'): the chart, statistics and all, one process."""
    simulate("basic", "vegas", hands=hands, seed=1)


def ours_basic_2_jobs(hands: int) -> None:
    """simulate('basic', jobs=2)."""
    simulate("basic", "vegas", hands=hands, seed=1, jobs=2)


def course_classes_floor(hands: int) -> None:
    """Not a simulator: a lower bound on the cost of any engine built on the course's classes.

    The course's ``Card``, ``Hand`` and ``Dealer`` on a bare list of six decks, dealt by
    hand: hit below 17, even-money settlement of naturals, no table, seats, offers,
    surrender, outcomes, events, cut card or conservation checks. What the engine costs
    above this line is its state machine; see benchmarks/README.md.
    """
    import random
    from blackjack.cards import Card, create_card_array
    from blackjack.hand import Hand
    from blackjack.player import Dealer
    rules = Rules.preset("vegas")
    rng = random.Random(1)
    cards = [card for _ in range(6) for card in create_card_array()]
    rng.shuffle(cards)
    used: list[Card] = []
    bankroll = 10 ** 15
    for _ in range(hands):
        if len(cards) < 78:
            cards.extend(used)
            used.clear()
            rng.shuffle(cards)
        deal = cards.pop
        hand, dealer = Hand(), Dealer()
        hand.add_card(deal())
        dealer.hand.add_card(deal())
        hand.add_card(deal())
        dealer.hand.add_card(deal())
        bankroll -= 2
        up = dealer.hand[0].value
        natural = hand.is_blackjack()
        dealer_natural = up in (1, 10) and dealer.hand.is_blackjack()
        if natural or dealer_natural:
            net = 0 if natural and dealer_natural else (-2 if dealer_natural else 3)
        else:
            while hand.get_score() < 17:
                hand.add_card(deal())
            total = hand.get_score()
            if total > 21:
                net = -2
            else:
                while dealer.should_hit(rules):
                    dealer.hand.add_card(deal())
                dealer_total = dealer.hand.get_score()
                net = 2 if dealer_total > 21 or total > dealer_total else (-2 if total < dealer_total else 0)
        bankroll += 2 + net
        used.extend(hand)
        used.extend(dealer.hand)


def gymnasium_v1(hands: int) -> None:
    """Gymnasium Blackjack-v1: infinite deck, hit/stand."""
    import gymnasium
    env = gymnasium.make("Blackjack-v1")
    obs, _ = env.reset(seed=1)
    for _ in range(hands):
        done = False
        while not done:
            obs, _reward, terminated, truncated, _ = env.step(1 if obs[0] < 17 else 0)
            done = terminated or truncated
        obs, _ = env.reset()


def jackblack_sim(hands: int) -> None:
    """jackblack Simulation with Simple17 (8 decks, reshuffled when empty)."""
    import jackblack
    player = jackblack.Player("A", chips=10 ** 12, strategy=jackblack.Simple17())
    sim = jackblack.Simulation([player])
    sim.run(n_times=hands)


def py21_game(hands: int) -> None:
    """py21 Game.play_round with hit_to_seventeen."""
    from py21 import Game, Player
    from py21.strategies import hit_to_seventeen
    game = Game([Player(10 ** 12, strategy_func=hit_to_seventeen)], seed=1)
    for _ in range(hands):
        game.play_round()


def measure(run: Callable[[int], None], hands: int) -> float:
    """Hands per second of ``run(hands)``, best of two runs, output silenced."""
    best = 0.0
    for _ in range(2):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            run(hands)
        best = max(best, hands / (time.perf_counter() - start))
    return best


def main() -> None:
    """Print hands/s for each engine and our ratios to the peers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    args = parser.parse_args()
    ours = {"ours: simulator tier, hit<17": ours_fast, "ours: checked tier + views, hit<17": ours_checked,
            "ours: simulate('basic'), 1 job": ours_basic, "ours: simulate('basic'), 2 jobs": ours_basic_2_jobs,
            "floor: course classes, no engine": course_classes_floor}
    peers = {"gymnasium Blackjack-v1": gymnasium_v1, "jackblack Simulation": jackblack_sim, "py21 Game": py21_game}
    rates: dict[str, float] = {}
    for name, run in {**ours, **peers}.items():
        try:
            rates[name] = measure(run, args.hands)
        except ImportError as err:
            print(f"{name:38} skipped: not installed ({err.name})")
            continue
        print(f"{name:38} {rates[name]:>10,.0f} hands/s")
    fast = rates["ours: simulator tier, hit<17"]
    print()
    for name in peers:
        if name in rates:
            print(f"ours (simulator tier) / {name}: {fast / rates[name]:.2f}x")
    done = [rates[n] for n in peers if n in rates]
    if done:
        print(f"ours / fastest peer: {fast / max(done):.2f}x (goal 2x)")
    floor = rates["floor: course classes, no engine"]
    print(f"ours (simulator tier) / floor: {fast / floor:.2f}x; simulate('basic') / floor: "
          f"{rates['ours: simulate(' + repr('basic') + '), 1 job'] / floor:.2f}x")
    print(f"simulate('basic') jobs 2 / jobs 1: "
          f"{rates['ours: simulate(' + repr('basic') + '), 2 jobs'] / rates['ours: simulate(' + repr('basic') + '), 1 job']:.2f}x"
          " (goal 1.8x)")


if __name__ == "__main__":
    main()
