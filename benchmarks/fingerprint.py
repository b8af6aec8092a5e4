"""Print one sha256 of many simulator reports and checked-tier rounds: the same code result, bit for bit?

A speed edit must leave every result of a seed unchanged. Run this before and after it
(``git stash``, or on two checkouts) and compare the last line::

    python benchmarks/fingerprint.py        # about 10 s
    python benchmarks/fingerprint.py -v     # also one short hash per case, to find which changed
    python benchmarks/fingerprint.py --baseline ../base   # also hash another checkout's engine, and compare

With ``--baseline DIR`` the other checkout's ``blackjack`` is hashed by this same script in a second process
(``--root DIR``), and the last line says ``same`` or ``DIFFERENT`` (with ``-v``, the cases that differ are
named). What it hashes, the JSON of each ``Report.as_dict()`` and ``repr`` of outcomes and events, is listed
in benchmarks/README.md (issue 18's sixth session); :func:`fingerprint` builds it. Nothing here is needed by
the tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fingerprint(verbose: bool) -> list[str]:
    """The lines to print: with ``verbose`` the package's folder and one ``name hash`` per case; last the hash of all."""
    import blackjack
    from blackjack import Blackjack, Rules
    from blackjack.sim import simulate
    total = hashlib.sha256()
    lines: list[str] = [f"blackjack from {os.path.dirname(blackjack.__file__)}"] if verbose else []

    def feed(name: str, value: object) -> None:
        text = json.dumps(value, sort_keys=True, default=str)
        total.update(name.encode())
        total.update(text.encode())
        if verbose:
            lines.append(f"{name} {hashlib.sha256(text.encode()).hexdigest()[:12]}")

    for preset in Rules.preset_names():
        rules = Rules.preset(preset)
        for strategy in ("basic", "never-bust", "mimic-dealer", "hi-lo"):
            reports = simulate(strategy, preset, hands=6000, seed=11, sessions=6, bankroll=100)
            feed(f"{preset}/{strategy}", [r.as_dict() for r in reports])
        for strategy in ("random", "always-stand"):
            reports = simulate(strategy, preset, hands=3000, seed=5, players=min(3, rules.max_players),
                               player_error=0.1)
            feed(f"{preset}/{strategy}", [r.as_dict() for r in reports])
        for listen in (False, True):
            seen: list[object] = []
            game = Blackjack(["A", "B"][:min(2, rules.max_players)], rules, seed=9,
                             listeners=[seen.append] if listen else [])
            for player in game.players:
                player.bankroll = Fraction(10 ** 6)
            pick = random.Random(4)
            rounds = []
            for _ in range(150):
                rnd = game.start_round([rules.min_bet] * len(game.players))
                while rnd.turn is not None:
                    rnd.apply(pick.choice(sorted(rnd.legal_actions(), key=lambda a: a.value)))
                rounds.append([(s, j, repr(o)) for s, j, o in game.finish_round()])
            feed(f"{preset}/checked/listener={listen}",
                 [rounds, [repr(e) for e in seen], [str(p.bankroll) for p in game.players], str(game.house_net)])
    feed("vegas/2 seats", [r.as_dict() for r in simulate("basic", "vegas", hands=20000, seed=3, players=2)])
    feed("vegas/jobs=2", [r.as_dict() for r in simulate(["basic", "never-bust"], "vegas", hands=30000, seed=2,
                                                         jobs=2)])
    lines.append(total.hexdigest())
    return lines


def main() -> None:
    """Print the hash (and with ``-v`` one short hash per case); with ``--baseline``, compare with that checkout's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="one short hash per case")
    parser.add_argument("--root", default=HERE, help="the checkout whose blackjack package is hashed (default: this one)")
    parser.add_argument("--baseline", help="another checkout to hash in a second process and compare with")
    args = parser.parse_args()
    if args.baseline:
        other = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--root", args.baseline, "-v"],
                                 stdout=subprocess.PIPE, text=True)
    sys.path.insert(0, os.path.abspath(args.root))
    ours = fingerprint(args.verbose or bool(args.baseline))
    if not args.baseline:
        print("\n".join(ours))
        return
    theirs = other.communicate()[0].splitlines()
    if other.returncode:
        sys.exit(f"the baseline's run failed (exit status {other.returncode})")
    print(f"{ours[0]}: {ours[-1]}\nbaseline {theirs[0]}: {theirs[-1]}")
    if args.verbose:
        for mine, base in zip(ours[1:-1], theirs[1:-1]):
            print(mine, "" if mine == base else f"DIFFERENT (baseline {base.split()[-1]})")
    print("same" if ours[1:] == theirs[1:] else "DIFFERENT")


if __name__ == "__main__":
    main()
