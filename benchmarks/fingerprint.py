"""Print one sha256 of many simulator reports and checked-tier rounds: the same code result, bit for bit?

A speed edit must leave every result of a seed unchanged. Run this before and after it
(``git stash``, or on two checkouts) and compare the last line::

    python benchmarks/fingerprint.py        # about 10 s
    python benchmarks/fingerprint.py -v     # also one short hash per case, to find which changed

What it hashes (the JSON of each ``Report.as_dict()``, and ``repr`` of outcomes and events):

* every preset with ``basic``, ``never-bust``, ``mimic-dealer`` and ``hi-lo`` (6,000 rounds
  in 6 sessions, a bankroll of 100 units), and ``random`` and ``always-stand`` (3,000
  rounds, up to 3 seats, 10% player error);
* every preset's checked tier, 150 rounds of random legal moves for up to 2 seats, with and
  without a listener: the outcomes, the event stream, the bankrolls and ``house_net``;
* ``basic`` with 2 seats (20,000 rounds), and ``basic`` and ``never-bust`` with ``jobs=2``.

Nothing here is needed by the tests.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from blackjack import Blackjack, Rules  # noqa: E402
from blackjack.sim import simulate  # noqa: E402


def main() -> None:
    """Print the hash (and with ``-v`` one short hash per case)."""
    verbose = "-v" in sys.argv[1:]
    total = hashlib.sha256()

    def feed(name: str, value: object) -> None:
        text = json.dumps(value, sort_keys=True, default=str)
        total.update(name.encode())
        total.update(text.encode())
        if verbose:
            print(name, hashlib.sha256(text.encode()).hexdigest()[:12])

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
    print(total.hexdigest())


if __name__ == "__main__":
    main()
