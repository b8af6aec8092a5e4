"""Benchmark the exact hints on 500 cold mid-shoe decisions: ``python benchmarks/hints.py [--decisions N]``.

Each decision is drawn at random (seed 2026) and timed cold (every cache cleared), as
``hint()`` runs it: exact, with ``exact=False``, ``hint()``'s default within its work budget,
and worked out ahead on the :class:`~blackjack.hints.ahead.Ahead` thread. What is drawn, what
is printed, and ``--ask-after``, ``--against ROOT`` and ``--dump FILE``: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackjack import Rules  # noqa: E402
from blackjack.actions import Action  # noqa: E402
from blackjack.hints import bust_probability, dealer_probabilities, expected_values  # noqa: E402
from blackjack.hints import _dealer, _player, _stand, _work, strategy  # noqa: E402
from blackjack.hints.advice import AHEAD_WAIT, EXACT_WORK_BUDGET, hint_evs  # noqa: E402
from blackjack.hints.ahead import Ahead, Decision  # noqa: E402
from blackjack.hints.probability import full_shoe, without  # noqa: E402
from sim import load_baseline  # noqa: E402  (benchmarks/sim.py, beside this script)

LIMIT_MS = 100.0
RULES = {6: Rules(), 8: Rules(decks=8)}  # S17, DAS, peek, resplit to 4 hands (rank pairs)
KINDS = ("two-card", "pair", "soft", "3+ cards")


def clear() -> None:
    """Forget every memo: the next call is cold."""
    _player.clear_caches()


def decisions(count: int, seed: int = 2026) -> list[tuple[str, tuple[int, ...], int, tuple[int, ...], int]]:
    """``count`` random decisions: (kind, player cards, upcard, unseen counts, decks)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        decks = rng.choice((6, 8))
        cards = [v for v in range(1, 11) for _ in range(decks * (16 if v == 10 else 4))]
        rng.shuffle(cards)
        dealt = int(len(cards) * rng.uniform(0.0, 0.75))
        left = cards[dealt:]
        kind = KINDS[len(out) % len(KINDS)]
        up = left.pop()
        if kind == "pair":
            value = left[-1]
            second = next((i for i in range(len(left) - 2, -1, -1) if left[i] == value), None)
            if second is None:
                continue
            hand = [left.pop(), left.pop(second)]
        elif kind == "soft":
            ace = next((i for i in range(len(left) - 1, -1, -1) if left[i] == 1), None)
            if ace is None:
                continue
            hand = [left.pop(ace)]
            other = next(i for i in range(len(left) - 1, -1, -1) if left[i] != 10)
            hand.append(left.pop(other))
        else:
            hand = [left.pop(), left.pop()]
            if kind == "3+ cards":
                while _player.total_of(sum(hand), 1 in hand) < 13 or len(hand) < 3:
                    hand.append(left.pop())
        if _player.total_of(sum(hand), 1 in hand) >= 21:
            continue
        counts = tuple(left.count(v) for v in range(1, 11))
        out.append((kind, tuple(hand), up, counts, decks))
    return out


def hint_work(hand: tuple[int, ...], up: int, counts: tuple[int, ...], rules: Rules,
              exact: bool) -> dict[Action, float]:
    """What ``hint()`` computes for a decision, as it does (cyclic GC paused; the round's view is not needed)."""
    with _work.collector_paused():
        evs = expected_values(hand, up, counts, rules, exact=exact)
        dealer_probabilities(up, counts, rules)
        bust_probability(hand, counts, upcard=up, rules=rules)
    return evs


def other_copy(root: str):  # type: ignore[no-untyped-def]
    """Import the ``blackjack`` package of another checkout (``root``) beside this one (``sim.load_baseline``).

    Returns ``(expected_values, clear)`` of that copy, for an A/B comparison in one process.
    """
    package = load_baseline(root, "--against")
    name = package.__name__
    probability = importlib.import_module(f"{name}.hints.probability")
    dealer = importlib.import_module(f"{name}.hints._dealer")
    player = importlib.import_module(f"{name}.hints._player")

    def clear_ref() -> None:
        for cache in ("dealer_float", "dealer_float_less", "_level_sums", "_rank_sums"):
            if hasattr(dealer, cache):
                getattr(dealer, cache).cache_clear()
        player._tree.cache_clear()
        if importlib.util.find_spec(f"{name}.hints._stand") is not None:
            importlib.import_module(f"{name}.hints._stand").clear_caches()

    def evs(hand, up, counts, decks):  # type: ignore[no-untyped-def]
        rules = package.Rules(decks=decks)
        return {a.value: v for a, v in probability.expected_values(hand, up, counts, rules).items()}

    return evs, clear_ref


def default_work(hand: tuple[int, ...], up: int, counts: tuple[int, ...], rules: Rules) -> bool:
    """What ``hint()`` computes by default (exact within the work budget, else the fallback); True if exact."""
    with _work.collector_paused():
        _evs, exact = hint_evs(list(hand), up, dict(zip(range(1, 11), counts)), rules)  # type: ignore[arg-type]
        dealer_probabilities(up, counts, rules)
        bust_probability(hand, counts, upcard=up, rules=rules)
    return exact


def ahead_work(hand: tuple[int, ...], up: int, counts: tuple[int, ...], rules: Rules,
               ask_after: float, wait: float | None) -> tuple[float, bool]:
    """Begin the decision on a new worker (one that had begun it before would answer from that computation), ask
    ``ask_after`` s later, waiting up to ``wait`` s (None: until exact); return ``(wall ms to the answer, exact)``."""
    unseen = dict(zip(range(1, 11), counts))
    decision = Decision.of(hand, up, unseen, rules)
    with Ahead() as worker:
        worker.start(decision)
        time.sleep(ask_after)  # the player reads the table; the worker has the CPU
        start = time.perf_counter()
        with _work.collector_paused():
            _evs, exact = hint_evs(list(hand), up, unseen, rules, ahead=worker, wait=wait)
            dealer_probabilities(up, counts, rules)
            bust_probability(hand, counts, upcard=up, rules=rules)
        ms = (time.perf_counter() - start) * 1000
        worker.evs(decision, wait=None)  # let it finish, so that it cannot overlap the next timing
    return ms, exact


def timed(call) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """``(wall ms, CPU ms of this process)`` of ``call()``."""
    start, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def name(kind: str, hand: tuple[int, ...], up: int, counts: tuple[int, ...], decks: int) -> str:
    faces = "-".join("A" if v == 1 else ("T" if v == 10 else str(v)) for v in hand)
    return f"{faces} v {'A' if up == 1 else up} ({kind}, {decks} decks, {sum(counts)} cards left)"


def load() -> str:
    """The load average (1, 5, 15 min) as ``a/b/c``."""
    return "/".join(f"{v:.2f}" for v in (os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=500)
    parser.add_argument("--against", metavar="ROOT",
                        help="the root of another copy of the kit (e.g. `git archive <commit> blackjack | tar -x -C "
                        "/tmp/old`): time its exact expected_values on the same decisions, interleaved, and compare "
                        "CPU time and EVs")
    parser.add_argument("--ask-after", type=float, default=0.2, metavar="SECONDS",
                        help="time the hint worked out ahead when asked this long after the decision appears "
                        "(and at once); 0 skips the second")
    parser.add_argument("--dump", help="write one tab-separated line per decision here "
                        "(CPU ms: exact, exact=False, hint() default; name)")
    args = parser.parse_args(argv)
    load_before = load()
    for up in range(1, 11):  # the dealer tables are built once per process (not per decision)
        for h17 in (False, True):
            _dealer._table(up, h17, True)
    for up in range(1, 11):  # and so are the stand EVs' merged tables (for S17 and the peek)
        for lead in range(10):
            _stand.stands_for(up, False, True, up in (1, 10), lead)
    base_counts = without(full_shoe(6), (6,))
    cases = decisions(args.decisions)
    reference = other_copy(args.against) if args.against else None
    wall: dict[str, list[float]] = defaultdict(list)  # ms by what was timed: "exact", "approx", "auto" ...
    cpu: dict[str, list[float]] = defaultdict(list)
    exact = Counter[str]()  # decisions answered exactly, by how: "auto", "at once" ...
    units: list[int] = []
    rows = []  # (exact CPU ms, the decision's name)
    ratios: list[float] = []
    mismatch = disagree = differ = 0
    auto_error = worst_error = 0.0
    worst_error_case = ""
    ahead = [("at once", 0.0, None), ("bounded", 0.0, AHEAD_WAIT)]
    ahead += [("later", args.ask_after, None)] if args.ask_after > 0 else []

    def timing(what: str, call) -> None:  # type: ignore[no-untyped-def]
        """Time ``call()`` into ``wall[what]`` and ``cpu[what]``."""
        ms, cpu_ms = timed(call)
        wall[what].append(ms)
        cpu[what].append(cpu_ms)
    for i, (kind, hand, up, counts, decks) in enumerate(cases):
        rules = RULES[decks]
        if reference is not None:  # exact EVs only, this copy and the other one in turn
            ref_evs, clear_ref = reference
            evs_of = {"new": lambda: {a.value: v for a, v in expected_values(hand, up, counts, rules).items()},
                      "ref": lambda: ref_evs(hand, up, counts, decks)}
            got: dict[str, dict[str, float]] = {}
            for which in ("new", "ref") if i % 2 else ("ref", "new"):
                clear()
                clear_ref()
                timing(which, lambda: got.update({which: evs_of[which]()}))
            ratios.append(cpu["ref"][-1] / max(cpu["new"][-1], 1e-3))
            differ += got["new"] != got["ref"]
        if i % 10 == 0:
            clear()
            timing("baseline", lambda: dealer_probabilities(6, base_counts, Rules()))
        clear()
        evs: dict[Action, float] = {}
        with _work.work_budget(10 ** 18) as meter:  # counts the units, never stops
            timing("exact", lambda: evs.update(hint_work(hand, up, counts, rules, True)))
        units.append(meter.used)
        clear()
        rough: dict[Action, float] = {}
        timing("approx", lambda: rough.update(hint_work(hand, up, counts, rules, False)))
        clear()
        auto: list[bool] = []
        timing("auto", lambda: auto.append(default_work(hand, up, counts, rules)))
        fast = auto[0]
        exact["auto"] += fast
        mismatch += fast != (meter.used <= EXACT_WORK_BUDGET)
        evs.pop(Action.INSURANCE, None)
        rough.pop(Action.INSURANCE, None)
        error = max((abs(evs[a] - rough[a]) for a in evs if a in rough), default=0.0)
        if not fast:
            auto_error = max(auto_error, error)
        if error > worst_error:
            worst_error, worst_error_case = error, name(kind, hand, up, counts, decks)
        if max(evs, key=lambda a: evs[a]) is not max(rough, key=lambda a: rough[a]):
            disagree += 1
        rows.append((cpu["exact"][-1], name(kind, hand, up, counts, decks)))
        for how, ask_after, wait in ahead:
            clear()
            ms_now, exact_now = ahead_work(hand, up, counts, rules, ask_after, wait)
            wall[how].append(ms_now)
            exact[how] += exact_now
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for exact_ms, approx_ms, auto_ms, used, (_, label) in zip(cpu["exact"], cpu["approx"], cpu["auto"],
                                                                      units, rows):
                out.write(f"{exact_ms:.2f}\t{approx_ms:.2f}\t{auto_ms:.2f}\t{used}\t{label}\n")
    base = statistics.median(wall["baseline"])
    base_cpu = statistics.median(cpu["baseline"])
    print(f"{len(cases)} cold decisions, 6 and 8 decks, S17 DAS peek, resplit to 4 hands; load average "
          f"(1, 5, 15 min) before {load_before}, after {load()}")
    print(f"baseline dealer_probabilities(6), full 6-deck shoe, cold: {base:.2f} ms wall, {base_cpu:.2f} ms CPU "
          f"(medians of {len(wall['baseline'])})")
    print(f"{'':<28}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    for label, values in (("exact hint work, wall ms", wall["exact"]), ("  CPU ms", cpu["exact"]),
                          ("exact=False fallback, wall ms", wall["approx"]), ("  CPU ms", cpu["approx"]),
                          (f"hint() default ({EXACT_WORK_BUDGET:,} u), wall ms", wall["auto"]),
                          ("  CPU ms", cpu["auto"])):
        stats = [statistics.median(values), percentile(values, 0.90), percentile(values, 0.99), max(values)]
        unit = base_cpu if "CPU" in label else base
        print(f"{label:<32}" + "".join(f"{v:>9.1f}" for v in stats))
        print(f"{'    x baseline':<32}" + "".join(f"{v / unit:>9.1f}" for v in stats))
    for kind in KINDS:
        mine = [ms for (ms, label) in rows if f"({kind}," in label]
        print(f"  {kind:<10} exact CPU median {statistics.median(mine):7.1f} ms, max {max(mine):8.1f} ms, "
              f"over {LIMIT_MS:.0f} ms: {sum(m > LIMIT_MS for m in mine)}/{len(mine)}")
    for label, key in (("exact decisions", "exact"), ("hint() default", "auto")):
        print(f"{label} over {LIMIT_MS:.0f} ms of CPU: {sum(ms > LIMIT_MS for ms in cpu[key])} of {len(cpu[key])} "
              f"(wall clock: {sum(ms > LIMIT_MS for ms in wall[key])})")
    print("hardest decisions (exact, cold, CPU ms):")
    for ms, label in sorted(rows, reverse=True)[:10]:
        print(f"  {ms:8.1f} ms  {label}")
    print(f"exact=False: best action differs on {disagree} of {len(cases)}; largest EV error {worst_error:.4f} "
          f"({worst_error_case})")
    print(f"hint() default: exact on {exact['auto']} of {len(cases)}; "
          f"largest EV error where it falls back {auto_error:.4f}; exact where the cold exact work was within "
          f"the budget on {len(cases) - mismatch} of {len(cases)}")
    print(f"work units of the cold exact EVs: median {statistics.median(units):,.0f}, "
          f"p90 {percentile(units, 0.90):,.0f}, p99 {percentile(units, 0.99):,.0f}, max {max(units):,}; "
          f"budget {EXACT_WORK_BUDGET:,}")
    per_unit = [1000 * c / u for c, u in zip(cpu["exact"], units) if c > 20 and u]  # us per unit
    if len(per_unit) >= 2:
        print(f"CPU us per unit (the {len(per_unit)} decisions over 20 ms): min {min(per_unit):.3f}, "
              f"p10 {percentile(per_unit, 0.10):.3f}, median {statistics.median(per_unit):.3f}, "
              f"p90 {percentile(per_unit, 0.90):.3f}, max {max(per_unit):.3f}; correlation of units and CPU ms "
              f"(all {len(units)}) {statistics.correlation([float(u) for u in units], cpu['exact']):.4f}; the "
              f"budget is {EXACT_WORK_BUDGET * statistics.median(per_unit) / 1000:.1f} ms at the median "
              f"({EXACT_WORK_BUDGET * max(per_unit) / 1000:.1f} at the max)")
    stopped = [d for d, u in zip(cpu["auto"], units) if u > EXACT_WORK_BUDGET]
    done = [d for d, u in zip(cpu["auto"], units) if u <= EXACT_WORK_BUDGET]
    if stopped and done:
        print(f"hint() default CPU ms where exact: max {max(done):.1f}; where it fell back (budget spent, then "
              f"exact=False): median {statistics.median(stopped):.1f}, max {max(stopped):.1f}")
    asked = {"at once": "at once, waiting for the exact EVs (the text game)",
             "bounded": f"at once, waiting {AHEAD_WAIT:g} s, then exact=False",
             "later": f"{args.ask_after:g} s later, waiting for the exact EVs (the text game)"}
    for how, label in asked.items():
        values = wall[how]
        if values:
            print(f"worked out ahead (hints.ahead), asked {label}: wall ms from question to "
                  f"answer median {statistics.median(values):.1f}, p90 {percentile(values, 0.90):.1f}, "
                  f"p99 {percentile(values, 0.99):.1f}, max {max(values):.1f}; over {LIMIT_MS:.0f} ms: "
                  f"{sum(ms > LIMIT_MS for ms in values)} of {len(values)}; exact on {exact[how]} of {len(values)}")
    if reference is not None:
        ref_cpu, new_cpu = cpu["ref"], cpu["new"]
        print(f"A/B against {args.against} (exact expected_values, CPU ms, interleaved): "
              f"other copy median {statistics.median(ref_cpu):.1f}, p99 {percentile(ref_cpu, 0.99):.1f}, "
              f"max {max(ref_cpu):.1f}; this copy median {statistics.median(new_cpu):.1f}, "
              f"p99 {percentile(new_cpu, 0.99):.1f}, max {max(new_cpu):.1f}; speed-up per decision median "
              f"{statistics.median(ratios):.2f}x (p10 {percentile(ratios, 0.10):.2f}x, "
              f"p90 {percentile(ratios, 0.90):.2f}x); total {sum(ref_cpu) / sum(new_cpu):.2f}x; "
              f"EVs bit-identical on {len(ratios) - differ} of {len(ratios)}")
    strategy.basic_strategy.cache_clear()
    first = timed(lambda: strategy.basic_strategy(Rules.preset("vegas")))[0]
    print(f"basic_strategy(vegas) first call (shipped chart): {first:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
