"""Hints for every front end: advice in words, exact probabilities, basic strategy, counting.

The four levels of issue 4, as one library the text game, the GUI and the simulator share:

==========================  ====================================================================
level / name                what it gives
==========================  ====================================================================
1 ``basic_advice``          your hints: the play by rules you can defend, with a one-line reason
1 ``TipBook``               tips shown the first time a situation occurs
2 ``dealer_probabilities``  the dealer's final totals for an upcard, exact for the unseen cards
2 ``bust_probability``      the chance one more card busts the hand
2 ``expected_values``       the EV of every legal action, per unit of the initial bet
3 ``basic_strategy``        the :class:`Chart` derived from EVs for any :class:`Rules`
4 ``running_count`` ...     Hi-Lo, KO, Hi-Opt I, Omega II, Zen; index plays; bet ramp
4 ``count_advice``          your hints at a true count (insurance at +3, 16 v 10 at 0)
4 ``count_summary(view)``   the count and a bet suggestion for a table view
4 ``CountingDrill``         a counting drill the front ends drive
all ``hint(view)``          one :class:`Hint` for the current decision of a round
all ``Ahead``               a worker thread that computes a decision's exact EVs before
                            they are asked for (``hint(view, ahead=...)`` takes them)
==========================  ====================================================================

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
