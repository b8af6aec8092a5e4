"""Benchmark: grade four sample submissions over every milestone, against a baseline kit, in one run.

Usage::

    git worktree add /tmp/bj-baseline <commit>       # the kit to compare with
    python benchmarks/grading.py --baseline /tmp/bj-baseline [--rounds 3] [--milestone 2]

Each round grades the same four submissions (the reference, the bare starter, a partial
solution and a week-2-only one, from ``tests/submissions/make_samples.py``) over milestones
1-3 (or the ``--milestone`` ones) with ``python -m milestones grade --jobs 2``, once with this kit and once with the
baseline, interleaved; the machine is shared, so the script prints each kit's median wall
time and the ratio of the medians (issue 26 asks for at most 2x the grader before the judge).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
SAMPLES = ("full", "starter", "partial", "week2_only")


def grade_seconds(kit: Path, submissions: list[Path], milestones: list[int] | None = None) -> float:
    """Wall seconds for ``kit``'s grader to grade ``submissions`` over ``milestones`` (default: every milestone)."""
    start = time.perf_counter()
    chosen = [arg for number in milestones or [] for arg in ("--milestone", str(number))]
    subprocess.run([sys.executable, "-m", "milestones", "grade", *map(str, submissions), *chosen, "--jobs", "2",
                    "--format", "json", "--output", str(Path(tempfile.gettempdir()) / "bj-bench-grades.json")],
                   cwd=kit, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    """Run the interleaved rounds and print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of the kit to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--milestone", type=int, action="append", help="grade only milestone N (repeatable)")
    args = parser.parse_args()
    sys.path.insert(0, str(KIT / "tests" / "submissions"))
    from make_samples import make_samples  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="bj-bench-") as scratch:
        samples = make_samples(Path(scratch))
        submissions = [samples[name] for name in SAMPLES]
        times: dict[str, list[float]] = {"this kit": [], "baseline": []}
        for _round in range(args.rounds):
            times["baseline"].append(grade_seconds(args.baseline.resolve(), submissions, args.milestone))
            times["this kit"].append(grade_seconds(KIT, submissions, args.milestone))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:>9}: median {medians[name]:6.1f} s  ({', '.join(f'{v:.1f}' for v in values)})")
    print(f"ratio this kit / baseline: {medians['this kit'] / medians['baseline']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
