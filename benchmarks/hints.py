"""Benchmark the exact hints on 500 cold mid-shoe decisions: ``python benchmarks/hints.py [--decisions N]``.

Each decision is drawn at random (seed 2026): a 6- or 8-deck shoe, 0-75% of it dealt
away at random, then a two-card hand, a pair, a soft hand or a hand of three or more
cards and an upcard from what is left. For each one every cache is cleared (cold) and
the work of ``hint()`` is timed: ``expected_values`` for the rules (exact, splits with
resplits by CDP1), the dealer's outcome probabilities and the bust chance. The same
decision is then timed with ``exact=False`` (the fallback) and its EVs compared, and
``hint()``'s default (exact when ``advice.exact_is_fast`` says it fits the budget, else
the fallback) is reported too.

Printed: the distribution of the cold exact times (median, p90, p99, max) in ms and as a
multiple of a baseline measured in the same run (the median of interleaved timings of
``dealer_probabilities(6)`` on a full 6-deck shoe), the decisions over the 100 ms goal,
the ten hardest decisions by name, and the fallback's time and largest EV error. The
machine is shared: the load average is printed with the figures.
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
from blackjack.hints.advice import exact_is_fast  # noqa: E402
from blackjack.hints.probability import full_shoe, without  # noqa: E402

LIMIT_MS = 100.0
RULES = {6: Rules(), 8: Rules(decks=8)}  # S17, DAS, peek, resplit to 4 hands (rank pairs)
KINDS = ("two-card", "pair", "soft", "3+ cards")


def clear() -> None:
    """Forget every memo: the next call is cold."""
    _dealer.dealer_float.cache_clear()
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
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def name(kind: str, hand: tuple[int, ...], up: int, counts: tuple[int, ...], decks: int) -> str:
    faces = "-".join("A" if v == 1 else ("T" if v == 10 else str(v)) for v in hand)
    return f"{faces} v {'A' if up == 1 else up} ({kind}, {decks} decks, {sum(counts)} cards left)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=500)
    args = parser.parse_args(argv)
    for up in range(1, 11):  # the dealer tables are built once per process (not per decision)
        for h17 in (False, True):
            _dealer._table(up, h17, True)
    base_counts = without(full_shoe(6), (6,))
    baseline: list[float] = []
    cases = decisions(args.decisions)
    exact_ms: list[float] = []
    approx_ms: list[float] = []
    auto_ms: list[float] = []
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
            baseline.append(timed(lambda: dealer_probabilities(6, base_counts, Rules())))
        clear()
        evs: dict[Action, float] = {}
        ms = timed(lambda: evs.update(hint_work(hand, up, counts, rules, True)))
        clear()
        rough: dict[Action, float] = {}
        ams = timed(lambda: rough.update(hint_work(hand, up, counts, rules, False)))
        exact_ms.append(ms)
        approx_ms.append(ams)
        fast = exact_is_fast(list(hand), up, rules)
        auto_ms.append(ms if fast else ams)
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
        rows.append((ms, name(kind, hand, up, counts, decks)))
    base = statistics.median(baseline)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(cases)} cold decisions, 6 and 8 decks, S17 DAS peek, resplit to 4 hands; "
          f"load average {load:.2f}")
    print(f"baseline dealer_probabilities(6), full 6-deck shoe, cold: {base:.2f} ms (median of {len(baseline)})")
    print(f"{'':<28}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    for label, values in (("exact hint work, ms", exact_ms), ("exact=False fallback, ms", approx_ms),
                          ("hint() default, ms", auto_ms)):
        stats = [statistics.median(values), percentile(values, 0.90), percentile(values, 0.99), max(values)]
        print(f"{label:<28}" + "".join(f"{v:>9.1f}" for v in stats))
        print(f"{'  x baseline':<28}" + "".join(f"{v / base:>9.1f}" for v in stats))
    for kind in KINDS:
        mine = [ms for (ms, label) in rows if f"({kind}," in label]
        print(f"  {kind:<10} exact median {statistics.median(mine):7.1f} ms, max {max(mine):8.1f} ms, "
              f"over {LIMIT_MS:.0f} ms: {sum(m > LIMIT_MS for m in mine)}/{len(mine)}")
    over = sum(ms > LIMIT_MS for ms in exact_ms)
    print(f"exact decisions over {LIMIT_MS:.0f} ms: {over} of {len(exact_ms)}")
    print("hardest decisions (exact, cold):")
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
