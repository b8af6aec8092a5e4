"""The Monte Carlo simulator: play strategies through the real engine and measure them.

Command line: ``python -m blackjack.sim --rules vegas --strategy basic hi-lo --hands 1e6``
(``blackjack-kit-sim``). See ``docs/simulator.md``.

>>> from blackjack.sim import simulate
>>> report = simulate("basic", "vegas", hands=2000, seed=1)[0]
>>> report.rounds, report.ci95[0] < report.ev < report.ci95[1]
(2000, True)

The names load on first use (PEP 562, :mod:`blackjack._lazy`), so ``python -m blackjack.sim``
reaches its first line, which makes Ctrl-C quiet, at once.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up stays instant); deleted below
if TYPE_CHECKING:  # what the names are, for type checkers; at run time __getattr__ below imports them
    from .exact import basic_strategy_edge
    from .runner import Block, run_block, simulate
    from .stats import Report
    from .strategies import BUILTIN, Decision
else:  # (hidden from type checkers, which would otherwise accept any name as Any)
    from .._lazy import lazy_names as _lazy_names

    __getattr__, __dir__ = _lazy_names(__name__, {
        "basic_strategy_edge": ".exact", "Block": ".runner", "run_block": ".runner", "simulate": ".runner",
        "Report": ".stats", "BUILTIN": ".strategies", "Decision": ".strategies"})

del TYPE_CHECKING

__all__ = ["BUILTIN", "Block", "Decision", "Report", "basic_strategy_edge", "run_block", "simulate"]
