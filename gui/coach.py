"""Coach mode's session score: how many decisions matched basic strategy, and what the others cost.

The judgement itself is :func:`gui.advice.judge` (run off the event loop); this
module only keeps the tally, so it is tested without a display.

>>> from blackjack import Action
>>> from gui.advice import Verdict
>>> score = Score()
>>> score.record(Verdict(Action.HIT, Action.HIT, True, 0.0))
>>> score.record(Verdict(Action.HIT, Action.STAND, False, 0.125))
>>> score.text()
'Score: 1 of 2 decisions right (50%); EV given up 0.125 bets'
"""

from __future__ import annotations

from dataclasses import dataclass

from .advice import Verdict

__all__ = ["Score"]


@dataclass
class Score:
    """The session's coach tally.

    Attributes:
        decisions: decisions judged.
        correct: decisions that matched the recommended play.
        cost: EV given up by the wrong ones, in units of the initial bet (those with a known cost).
    """

    decisions: int = 0
    correct: int = 0
    cost: float = 0.0

    def record(self, verdict: Verdict) -> None:
        """Count one judged decision."""
        self.decisions += 1
        if verdict.correct:
            self.correct += 1
        elif verdict.cost is not None:
            self.cost += max(0.0, verdict.cost)

    def reset(self) -> None:
        """Start the tally again."""
        self.decisions = self.correct = 0
        self.cost = 0.0

    def text(self) -> str:
        """One line: ``"Score: 7 of 9 decisions right (78%); EV given up 0.350 bets"``."""
        if not self.decisions:
            return "Score: no decisions judged yet."
        share = round(100 * self.correct / self.decisions)
        return (f"Score: {self.correct} of {self.decisions} decisions right ({share}%); "
                f"EV given up {self.cost:.3f} bets")
