"""Hints for every front end: advice in words, exact probabilities, basic strategy, counting.

The four levels of docs/hints.md (its table lists what each name gives), as one library the text game, the GUI
and the simulator share; ``hint(view)`` gives one :class:`Hint` for the current decision of a round.

>>> from blackjack.actions import Action
>>> evs = expected_values([10, 6], 10)
>>> max(evs, key=evs.get) is Action.HIT
True
"""

from .advice import TIPS, Tip, TipBook, basic_advice, fresh_moves
from .ahead import Ahead, Decision
from .counting import (FAB_4, ILLUSTRIOUS_18, CountSummary, Counter, CountingSystem, IndexPlay, bet_ramp,
                       count_advice, count_from_unseen, count_summary, index_play, insure_by_count, running_count,
                       system, systems, true_count)
from .drill import CountingDrill, DrillResult
from .probability import (OUTCOMES, bust_probability, counts_from, dealer_probabilities, expected_values,
                          insurance_probability)
from .strategy import CODES, UPCARDS, Chart, basic_strategy, code_for
from .table_hint import Hint, hint

__all__ = [
    "CODES", "FAB_4", "ILLUSTRIOUS_18", "OUTCOMES", "TIPS", "UPCARDS", "Ahead", "Chart", "CountSummary", "Counter",
    "CountingDrill", "CountingSystem", "Decision", "DrillResult", "Hint", "IndexPlay", "Tip", "TipBook", "basic_advice",
    "basic_strategy", "bet_ramp", "bust_probability", "code_for", "count_advice", "count_from_unseen", "count_summary",
    "counts_from", "dealer_probabilities", "expected_values", "fresh_moves", "hint", "index_play",
    "insurance_probability", "insure_by_count", "running_count", "system", "systems", "true_count"
]
