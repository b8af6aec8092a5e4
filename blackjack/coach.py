"""The text game's window onto the hint library: hints, the count, the chart, tips and move feedback.

A thin adapter: every number comes from :mod:`blackjack.hints`; this module only
turns them into lines of text for the terminal.
"""

from __future__ import annotations

from .actions import Action
from .errors import BlackjackError
from .hints import TipBook, basic_strategy, count_summary, hint, system
from .hints.ahead import Ahead, Decision
from .money import format_money
from .rules import Rules
from .view import TableView

__all__ = ["Coach"]



class Coach:
    """Answers the text game's ``hint``, ``count`` and ``chart`` commands, and shows first-time tips.

    The exact EVs of each decision are worked out on a background thread from the moment
    the game calls :meth:`prepare` (:class:`.hints.ahead.Ahead`). The hint and the verdict
    wait for them, so both are exact and agree, and a transcript replays the same: a
    player who asks after reading the cards gets the answer at once; asked right away
    (or shown before the prompt in trainer mode), the hardest decisions take up to about
    0.3 s. :meth:`close` ends that thread.

    Args:
        rules: the table's rules (the ``chart`` command reads the presets' charts from shipped
            data; other rules, a preset with another deck count included, derive it on
            first use, 6-16 s here).
        counting: the counting system for the ``count`` command (default Hi-Lo).
        tips: show a tip the first time a situation comes up (justBlackjack's idea).
    """

    def __init__(self, rules: Rules, *, counting: str = "hi_lo", tips: bool = True) -> None:
        self.rules = rules
        self.counting = system(counting)
        self.tips = TipBook(enabled=tips)
        self._chart_text: str | None = None
        self._ahead = Ahead()

    def prepare(self, view: TableView) -> None:
        """Begin the exact EVs of the decision in ``view`` (call it as soon as the decision is known).

        Course code that is not written yet (a student's starter) or a view it cannot
        read leaves nothing begun: the hint then reports the problem when asked.
        """
        try:
            decision = Decision.from_view(view)
        except (NotImplementedError, BlackjackError):
            return
        self._ahead.start(decision)

    def close(self) -> None:
        """Stop the background work (the coach still answers afterwards, working in the caller's thread)."""
        self._ahead.close()

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
            self._chart_text = str(basic_strategy(self.rules))
        return self._chart_text

    def hint_text(self, view: TableView) -> str:
        """The recommended move for the decision in ``view``, with its reason and numbers."""
        if view.turn is None:  # the round sets a turn only while a decision waits
            return "No decision is pending."
        advice = hint(view, ahead=self._ahead, wait=None)
        return "\n".join([f"Hint: {advice.action.value}."] + [f"  {line}" for line in advice.lines()])

    def count_text(self, view: TableView) -> str:
        """The running count, true count, cards left and a bet suggestion, from the cards seen so far.

        The true count and bet are given for a balanced system only. Against an ace, at a table
        that offers insurance, the line adds the count's insurance decision when the system has
        a published insurance index (in the kit, Hi-Lo by the true count and KO by the running
        count); for the others it says nothing about insurance.
        """
        summary = count_summary(view, self.counting)
        text = f"{self.counting.name} running count {summary.running:+d}, {summary.cards_remaining} cards unseen"
        if summary.true is not None and summary.suggested_bet is not None:
            text += f", true count {summary.true:+.1f}; suggested bet {format_money(summary.suggested_bet)}"
        if summary.insure is not None:
            text += "; insurance: " + ("take it" if summary.insure else "decline")
        return text

    def new_tips(self, view: TableView) -> list[str]:
        """Tips for situations in ``view`` met for the first time this session, one line each."""
        return [f"Tip - {tip.title}: {tip.text}" for tip in self.tips.check(view)]

    def judge(self, view: TableView, action: Action) -> str | None:
        """Feedback when ``action`` departs from the recommended move, with its EV cost; None when it agrees.

        The verdict waits for the exact EVs of a prepared decision, as the hint does, so it
        does not depend on how fast the player answered.
        """
        if view.turn is None:
            return None
        try:
            advice = hint(view, ahead=self._ahead, wait=None)
        except BlackjackError:
            return None
        if advice.action is action:
            return "Coach: good move."
        cost = ""
        if action in advice.evs and advice.action in advice.evs:
            cost = f" (costs {advice.evs[advice.action] - advice.evs[action]:.3f} of the bet in EV)"
        return f"Coach: the recommended move was {advice.action.value}, not {action.value}{cost}."
