"""Hands per second: our engine against the pure-Python peers, one simple policy, one process.

Ratios, each the median and range of ``--runs`` runs interleaved engine by engine (every
other run in the reverse order), so that a spell of load on the shared machine hits every
engine alike. Single-process figures are CPU seconds of this process; ``--jobs 2`` and its
one-job baseline are timed by the wall clock. Policy everywhere: hit below 17, else stand.
The engines, the goals, how to install the peers (a peer not installed is skipped) and
``--baseline``/``--only`` are described in benchmarks/README.md. Nothing here is needed by
the tests.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import importlib
import importlib.util
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from types import ModuleType

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import blackjack  # noqa: E402
from blackjack import Action, Blackjack, Phase, Rules, TableView  # noqa: E402
from blackjack.sim import Decision, simulate  # noqa: E402


def ours_fast(hands: int, engine: ModuleType = blackjack) -> None:
    """Our engine, simulator tier: real 6-deck shoe, full vegas rules and settlement."""
    game = engine.Blackjack(["A"], engine.Rules.preset("vegas"), seed=1)
    game.recycle_rounds = True  # as the simulator runs it: one Round object, reset for every round
    game.players[0].bankroll = 10 ** 15
    bet = 2  # int credits, as the simulator stakes: whole money stays int (3:2 on 2 nets 3)
    hit, stand, decline = engine.Action.HIT, engine.Action.STAND, engine.Action.DECLINE
    player_turn = engine.Phase.PLAYER_TURN
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


def ours_checked(hands: int, engine: ModuleType = blackjack) -> None:
    """Our engine, checked tier: a TableView per decision, events, ledgers."""
    game = engine.Blackjack(["A"], engine.Rules.preset("vegas"), seed=1)
    game.players[0].bankroll = Fraction(10 ** 15)
    hit, stand, decline, player_turn = engine.Action.HIT, engine.Action.STAND, engine.Action.DECLINE, \
        engine.Phase.PLAYER_TURN

    def decide(view: TableView) -> Action:
        hand = view.current_hand
        if view.phase is not player_turn or hand is None:
            return decline  # type: ignore[no-any-return]
        return hit if hand.total < 17 else stand  # type: ignore[no-any-return]
    for _ in range(hands):
        game.play_round(decide, [1])


def ours_basic(hands: int, simulate: Callable[..., object] = simulate, strategy: str = "basic", **options: int) -> None:
    """simulate(strategy) on vegas, seed 1 (``options``: ``jobs=2``); 'basic' is the chart, statistics and all."""
    simulate(strategy, "vegas", hands=hands, seed=1, **options)


def load_baseline(root: str, option: str = "--baseline") -> ModuleType:
    """The ``blackjack`` package of the checkout at ``root``, imported as ``baseline_blackjack`` beside ours.

    Its modules import one another relatively, so the whole package, ``sim`` and ``hints``
    included, loads under the other name; its charts and presets are its own files.
    ``option`` names the command-line option in the message when ``root`` has no package
    (benchmarks/hints.py's ``--against`` loads its copy here too).
    """
    name = "baseline_blackjack"
    folder = os.path.join(os.path.abspath(root), "blackjack")
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, "__init__.py"),
                                                  submodule_search_locations=[folder])
    if spec is None or spec.loader is None:
        raise SystemExit(f"{option}: no blackjack package in {root}")
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    return package


def baseline_engines(package: ModuleType) -> dict[str, Callable[[int], None]]:
    """The baseline's simulator tier, checked tier and simulate('basic'), run by the same code as ours."""
    sim = importlib.import_module(f"{package.__name__}.sim")
    sim.simulate("basic", "vegas", hands=100)  # the chart's derivation is paid before the clock starts
    return {"baseline: simulator tier, hit<17": functools.partial(ours_fast, engine=package),
            "baseline: checked tier + views, hit<17": functools.partial(ours_checked, engine=package),
            "baseline: simulate('basic'), 1 job": functools.partial(ours_basic, simulate=sim.simulate)}


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


def never_bust_decision(decision: Decision) -> Action:
    """``never-bust`` as a user writes it for the cheap decision context."""
    if decision.phase is not Phase.PLAYER_TURN:
        return Action.DECLINE
    limit = 17 if decision.soft else 11
    return Action.HIT if decision.total <= limit and decision.can(Action.HIT) else Action.STAND


def never_bust_view(view: TableView) -> Action:
    """``never-bust`` as a user writes it on a full table view (annotated ``TableView``, so it gets one)."""
    hand = view.current_hand
    if view.phase is not Phase.PLAYER_TURN or hand is None:
        return Action.DECLINE
    limit = 17 if hand.soft else 11
    return Action.HIT if hand.total <= limit and Action.HIT in view.legal_actions else Action.STAND


#: The engines measured by the wall clock (the work of two jobs is in other processes; one job, to compare).
WALL = {"ours: simulate('basic'), 1 job, wall", "ours: simulate('basic'), 2 jobs, wall"}


def measure(run: Callable[[int], None], hands: int, wall: bool = False) -> float:
    """Hands per second of one ``run(hands)``, output silenced (CPU time of this process, or the wall clock's)."""
    clock = time.perf_counter if wall else time.process_time
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        start = clock()
        run(hands)
        took = clock() - start
    return hands / took


def pool_cost() -> float:
    """Median wall seconds to start a 2-process pool, run a trivial task on each worker and shut it down."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
            list(pool.map(abs, [1, 2]))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print hands/s for each engine (median and range of interleaved runs) and the ratios against the goals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs-hands", type=int, default=200_000,
                        help="hands for the two wall-clock runs (one job, two jobs); a process pool's fixed "
                             "cost, printed below, is a tenth of a 50,000-hand run on two cores")
    parser.add_argument("--baseline", metavar="DIR", help="also measure the engine of the checkout in DIR, "
                        "interleaved, and print ours against it")
    parser.add_argument("--only", nargs="+", metavar="WORD",
                        help="measure only the engines whose names hold one of these words")
    args = parser.parse_args()
    engines: dict[str, Callable[[int], None]] = {
        "ours: simulator tier, hit<17": ours_fast, "ours: checked tier + views, hit<17": ours_checked,
        "ours: simulate('basic'), 1 job": ours_basic, "ours: simulate('basic'), 1 job, wall": ours_basic,
        "ours: simulate('basic'), 2 jobs, wall": functools.partial(ours_basic, jobs=2),
        # never-bust built in, and the same play as module:function policies taking a Decision, a TableView
        "policy: never-bust built in": functools.partial(ours_basic, strategy="never-bust"),
        "policy: Decision": functools.partial(ours_basic, strategy=f"{__name__}:never_bust_decision"),
        "policy: TableView": functools.partial(ours_basic, strategy=f"{__name__}:never_bust_view"),
        "floor: course classes, no engine": course_classes_floor,
        "gymnasium Blackjack-v1": gymnasium_v1, "jackblack Simulation": jackblack_sim, "py21 Game": py21_game}
    if args.baseline:
        baseline = load_baseline(args.baseline)
        print(f"baseline: the engine in {os.path.dirname(baseline.__file__ or '')}")
        engines.update(baseline_engines(baseline))
    if args.only:
        engines = {name: run for name, run in engines.items() if any(word in name for word in args.only)}
    simulate("basic", "vegas", hands=100)  # the chart's derivation is paid before the clock starts
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; Python {sys.version.split()[0]}; "
          f"{args.hands:,} hands x {args.runs} interleaved runs")
    rates: dict[str, list[float]] = {}
    skipped: set[str] = set()
    for number in range(args.runs):
        order = list(engines.items())
        if number % 2:
            order.reverse()  # every other run the other way round, so that no engine always goes first
        for name, run in order:
            if name in skipped:
                continue
            try:
                hands = args.jobs_hands if name in WALL else args.hands
                rates.setdefault(name, []).append(measure(run, hands, name in WALL))
            except ImportError as err:
                print(f"{name:40} skipped: not installed ({err.name})")
                skipped.add(name)
                rates.pop(name, None)
    for name, values in rates.items():
        print(f"{name:40} {statistics.median(values):>10,.0f} hands/s  ({min(values):,.0f}-{max(values):,.0f})")
    print(f"wall-clock runs (1 and 2 jobs): {args.jobs_hands:,} hands each; a 2-worker pool's fixed cost "
          f"(start, one tiny task each, shut down): {pool_cost() * 1000:.0f} ms")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    goals = [("simulate('basic') / baseline's", "ours: simulate('basic'), 1 job", "baseline: simulate('basic'), 1 job",
              1.0),
             ("simulator tier / baseline's", "ours: simulator tier, hit<17", "baseline: simulator tier, hit<17", None),
             ("checked tier / baseline's", "ours: checked tier + views, hit<17", "baseline: checked tier + views, hit<17",
              None),
             ("simulate('basic') / jackblack", "ours: simulate('basic'), 1 job", "jackblack Simulation", 2.0),
             ("simulator tier / jackblack", "ours: simulator tier, hit<17", "jackblack Simulation", 3.0),
             ("simulate('basic') 2 jobs / 1 job (wall)", "ours: simulate('basic'), 2 jobs, wall",
              "ours: simulate('basic'), 1 job, wall", 1.8),
             ("policy: built in / Decision", "policy: never-bust built in", "policy: Decision", None),
             ("policy: built in / TableView", "policy: never-bust built in", "policy: TableView", None),
             ("policy: Decision / TableView", "policy: Decision", "policy: TableView", None),
             ("simulator tier / floor", "ours: simulator tier, hit<17", "floor: course classes, no engine", None),
             ("simulator tier / py21", "ours: simulator tier, hit<17", "py21 Game", None),
             ("simulator tier / gymnasium", "ours: simulator tier, hit<17", "gymnasium Blackjack-v1", None)]
    for label, top, bottom, goal in goals:
        if top not in rates or bottom not in rates:
            if not (args.only or bottom.startswith("baseline") and not args.baseline):  # else not asked for
                print(f"{label:42} not measured ({bottom if bottom not in rates else top} missing)")
            continue
        values = [a / b for a, b in zip(rates[top], rates[bottom])]  # paired: the same run's figures
        median = statistics.median(values)
        verdict = "" if goal is None else f"  goal {goal}x: {'met' if median >= goal else 'not met'}"
        print(f"{label:42} {median:.2f}x ({min(values):.2f}-{max(values):.2f}){verdict}")


if __name__ == "__main__":
    main()
