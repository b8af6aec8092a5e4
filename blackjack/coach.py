"""The text game's window onto the hint library: hints, the count, the chart, and move feedback.

A thin adapter: every number comes from :mod:`blackjack.hints`; this module only
turns them into lines of text for the terminal.
"""

from __future__ import annotations

from .actions import Action, Phase
from .rules import Rules
from .view import TableView

__all__ = ["Coach"]


class Coach:
    """Answers the text game's ``hint``, ``count`` and ``chart`` commands for one table's rules.

    Args:
        rules: the table's rules (the chart is derived for them once, on first use).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._chart_text: str | None = None

    def command(self, word: str, view: TableView | None) -> str:
        """Answer ``?``/``hint``, ``count`` or ``chart`` as text (several lines for the chart)."""
        if word == "chart":
            return self.chart_text()
        if view is None:
            return "There is no round on the table yet."
        if word == "count":
            return self.count_text(view)
        return self.hint_text(view)

    def chart_text(self) -> str:
        """The basic-strategy chart derived for these rules."""
        if self._chart_text is None:
            from .hints import basic_strategy
            self._chart_text = f"Basic strategy for {self.rules.name} ({self.rules.summary()}):\n" + str(
                basic_strategy(self.rules))
        return self._chart_text

    def hint_text(self, view: TableView) -> str:
        """The recommended move for the decision in ``view``, with its reason, on one or two lines."""
        if view.turn is None or view.phase not in (Phase.PLAYER_TURN, Phase.INSURANCE, Phase.EARLY_SURRENDER):
            return "No decision is pending."
        from .hints import hint
        advice = hint(view)
        return f"Hint: {advice.action.value}. {advice.reason}"

    def count_text(self, view: TableView) -> str:
        """The Hi-Lo running count, true count and cards left, from the cards the players have seen."""
        from .hints import count_summary
        return count_summary(view)

    def judge(self, view: TableView, action: Action) -> str | None:
        """Feedback when ``action`` departs from the recommended move, with its cost in EV; None when it agrees."""
        if view.phase is not Phase.PLAYER_TURN:
            return None
        from .hints import hint
        advice = hint(view)
        if advice.action is action:
            return None
        cost = ""
        evs = getattr(advice, "evs", None)
        if evs and action in evs and advice.action in evs:
            cost = f" (costs {evs[advice.action] - evs[action]:.3f} of the bet in EV)"
        return f"Coach: the recommended move was {advice.action.value}, not {action.value}{cost}."
