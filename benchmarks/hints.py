"""Benchmark the exact hints on 500 cold mid-shoe decisions: ``python benchmarks/hints.py [--decisions N]``.

Each decision is drawn at random (seed 2026): a 6- or 8-deck shoe, 0-75% of it dealt
away at random, then a two-card hand, a pair, a soft hand or a hand of three or more
cards and an upcard from what is left. For each one every cache is cleared (cold) and
the work of ``hint()`` is timed: ``expected_values`` for the rules (exact, splits with
resplits by CDP1), the dealer's outcome probabilities and the bust chance. The same
decision is then timed with ``exact=False`` (the fallback) and its EVs compared, and
``hint()``'s default (exact when ``advice.exact_is_fast`` says it fits the budget, else
the fallback) is reported too.

Printed: the distribution of the cold exact times (median, p90, p99, max) in ms of wall
clock and of this process's CPU time (``time.process_time``: the machine is shared, so the
wall clock also counts other jobs), and as a multiple of a baseline measured in the same
run (the median of interleaved timings of ``dealer_probabilities(6)`` on a full 6-deck
shoe); the decisions over the 100 ms goal, the ten hardest decisions by name, the
fallback's time and largest EV error, and a calibration of ``advice.EXACT_BUDGET``: the
largest estimate (``advice.exact_work``) below which every exact decision of the run
took at most 100 ms of CPU. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackjack import Rules  # noqa: E402
from blackjack.actions import Action  # noqa: E402
from blackjack.hints import bust_probability, dealer_probabilities, expected_values  # noqa: E402
from blackjack.hints import _dealer, _player, strategy  # noqa: E402
from blackjack.hints.advice import EXACT_BUDGET, exact_is_fast, exact_work  # noqa: E402
from blackjack.hints.probability import full_shoe, without  # noqa: E402

LIMIT_MS = 100.0
RULES = {6: Rules(), 8: Rules(decks=8)}  # S17, DAS, peek, resplit to 4 hands (rank pairs)
KINDS = ("two-card", "pair", "soft", "3+ cards")


def clear() -> None:
    """Forget every memo: the next call is cold."""
    _dealer.clear_caches()
    _player._tree.cache_clear()


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
        if _player.total_of(sum(hand), 1 in hand) >= 21:
            continue
        counts = tuple(left.count(v) for v in range(1, 11))
        out.append((kind, tuple(hand), up, counts, decks))
    return out


def hint_work(hand: tuple[int, ...], up: int, counts: tuple[int, ...], rules: Rules,
              exact: bool) -> dict[Action, float]:
    """What ``hint()`` computes for a decision (the round's view is not needed for the timing)."""
    evs = expected_values(hand, up, counts, rules, exact=exact)
    dealer_probabilities(up, counts, rules)
    bust_probability(hand, counts, upcard=up, rules=rules)
    return evs


def timed(call) -> float:  # type: ignore[no-untyped-def]
    """Wall-clock ms of ``call()``."""
    return timed2(call)[0]


def timed2(call) -> tuple[float, float]:  # type: ignore[no-untyped-def]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=500)
    parser.add_argument("--dump", help="write one tab-separated line per decision here "
                        "(exact CPU ms, exact_work, exact=False CPU ms, name)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    for up in range(1, 11):  # the dealer tables are built once per process (not per decision)
        for h17 in (False, True):
            _dealer._table(up, h17, True)
    base_counts = without(full_shoe(6), (6,))
    baseline: list[float] = []
    baseline_cpu: list[float] = []
    cases = decisions(args.decisions)
    exact_ms: list[float] = []
    approx_ms: list[float] = []
    auto_ms: list[float] = []
    exact_cpu: list[float] = []
    approx_cpu: list[float] = []
    auto_cpu: list[float] = []
    work: list[int] = []
    auto_exact = 0
    auto_error = 0.0
    worst_error = 0.0
    worst_error_case = ""
    disagree = 0
    rows = []
    for i, (kind, hand, up, counts, decks) in enumerate(cases):
        rules = RULES[decks]
        if i % 10 == 0:
            clear()
            wall, cpu = timed2(lambda: dealer_probabilities(6, base_counts, Rules()))
            baseline.append(wall)
            baseline_cpu.append(cpu)
        clear()
        evs: dict[Action, float] = {}
        ms, cpu = timed2(lambda: evs.update(hint_work(hand, up, counts, rules, True)))
        clear()
        rough: dict[Action, float] = {}
        ams, acpu = timed2(lambda: rough.update(hint_work(hand, up, counts, rules, False)))
        exact_ms.append(ms)
        approx_ms.append(ams)
        exact_cpu.append(cpu)
        approx_cpu.append(acpu)
        work.append(exact_work(list(hand), up, rules))
        fast = exact_is_fast(list(hand), up, rules)
        auto_ms.append(ms if fast else ams)
        auto_cpu.append(cpu if fast else acpu)
        auto_exact += fast
        evs.pop(Action.INSURANCE, None)
        rough.pop(Action.INSURANCE, None)
        error = max((abs(evs[a] - rough[a]) for a in evs if a in rough), default=0.0)
        if not fast:
            auto_error = max(auto_error, error)
        if error > worst_error:
            worst_error, worst_error_case = error, name(kind, hand, up, counts, decks)
        if max(evs, key=lambda a: evs[a]) is not max(rough, key=lambda a: rough[a]):
            disagree += 1
        rows.append((cpu, name(kind, hand, up, counts, decks)))
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for cpu, w, acpu, (_, label) in zip(exact_cpu, work, approx_cpu, rows):
                out.write(f"{cpu:.2f}\t{w}\t{acpu:.2f}\t{label}\n")
    base = statistics.median(baseline)
    base_cpu = statistics.median(baseline_cpu)
    load_after = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"{len(cases)} cold decisions, 6 and 8 decks, S17 DAS peek, resplit to 4 hands; load average "
          f"(1, 5, 15 min) before {'/'.join(f'{v:.2f}' for v in load_before)}, "
          f"after {'/'.join(f'{v:.2f}' for v in load_after)}")
    print(f"baseline dealer_probabilities(6), full 6-deck shoe, cold: {base:.2f} ms wall, {base_cpu:.2f} ms CPU "
          f"(medians of {len(baseline)})")
    print(f"{'':<28}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    for label, values in (("exact hint work, wall ms", exact_ms), ("  CPU ms", exact_cpu),
                          ("exact=False fallback, wall ms", approx_ms), ("  CPU ms", approx_cpu),
                          ("hint() default, wall ms", auto_ms), ("  CPU ms", auto_cpu)):
        stats = [statistics.median(values), percentile(values, 0.90), percentile(values, 0.99), max(values)]
        unit = base_cpu if "CPU" in label else base
        print(f"{label:<32}" + "".join(f"{v:>9.1f}" for v in stats))
        print(f"{'    x baseline':<32}" + "".join(f"{v / unit:>9.1f}" for v in stats))
    for kind in KINDS:
        mine = [ms for (ms, label) in rows if f"({kind}," in label]
        print(f"  {kind:<10} exact CPU median {statistics.median(mine):7.1f} ms, max {max(mine):8.1f} ms, "
              f"over {LIMIT_MS:.0f} ms: {sum(m > LIMIT_MS for m in mine)}/{len(mine)}")
    over = sum(ms > LIMIT_MS for ms in exact_cpu)
    print(f"exact decisions over {LIMIT_MS:.0f} ms of CPU: {over} of {len(exact_cpu)} "
          f"(wall clock: {sum(ms > LIMIT_MS for ms in exact_ms)})")
    over_default = sum(ms > LIMIT_MS for ms in auto_cpu)
    print(f"hint() default over {LIMIT_MS:.0f} ms of CPU: {over_default} of {len(auto_cpu)} "
          f"(wall clock: {sum(ms > LIMIT_MS for ms in auto_ms)})")
    slow_work = [w for w, ms in zip(work, exact_cpu) if ms > LIMIT_MS]
    budget = max((w for w in work if not slow_work or w < min(slow_work)), default=0)
    print(f"calibration: every exact decision with exact_work below {min(slow_work, default=0):,} took at most "
          f"{LIMIT_MS:.0f} ms of CPU; the largest such work was {budget:,} ({sum(w <= budget for w in work)} "
          f"decisions); EXACT_BUDGET is {EXACT_BUDGET:,}")
    print("hardest decisions (exact, cold, CPU ms):")
    for ms, label in sorted(rows, reverse=True)[:10]:
        print(f"  {ms:8.1f} ms  {label}")
    print(f"exact=False: best action differs on {disagree} of {len(cases)}; largest EV error {worst_error:.4f} "
          f"({worst_error_case})")
    print(f"hint() default (exact_is_fast): exact on {auto_exact} of {len(cases)}; "
          f"largest EV error where it falls back {auto_error:.4f}")
    strategy.basic_strategy.cache_clear()
    first = timed(lambda: strategy.basic_strategy(Rules.preset("vegas")))
    print(f"basic_strategy(vegas) first call (shipped chart): {first:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
