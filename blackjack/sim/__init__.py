"""The Monte Carlo simulator: play strategies through the real engine and measure them.

=======================  ===============================================================
name                     what it is
=======================  ===============================================================
``simulate(...)``        run strategies, return a ``Report`` per strategy
``Report``               EV, standard error, 95% interval, house edge, frequencies, ...
``run_block(block)``     the unit of work (one shoe's worth of rounds, or a session)
``basic_strategy_edge``  the hint library's exact house edge for basic strategy
``BUILTIN``              the built-in strategy names
``Decision``             what a ``module:function`` policy is told for one decision
=======================  ===============================================================

Command line: ``python -m blackjack.sim --rules vegas --strategy basic hi-lo --hands 1e6``
(``blackjack-kit-sim``). See ``docs/simulator.md``.

>>> report = simulate("basic", "vegas", hands=2000, seed=1)[0]
>>> report.rounds, report.ci95[0] < report.ev < report.ci95[1]
(2000, True)
"""

from .exact import basic_strategy_edge
from .runner import Block, run_block, simulate
from .stats import Report
from .strategies import BUILTIN, Decision

__all__ = ["BUILTIN", "Block", "Decision", "Report", "basic_strategy_edge", "run_block", "simulate"]
