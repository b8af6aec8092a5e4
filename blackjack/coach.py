"""The text game's window onto the hint library: hints, the count, the chart, tips and move feedback.

A thin adapter: every number comes from :mod:`blackjack.hints`; this module only
turns them into lines of text for the terminal.
"""

from __future__ import annotations

import textwrap

from .actions import Action
from .errors import BlackjackError
from .hints import CODES, UPCARDS, Chart, TipBook, basic_strategy, count_summary, hint, system
from .hints.ahead import Ahead, Decision
from .money import format_money
from .rules import Rules
from .view import TableView

__all__ = ["SCREEN_ROWS", "Coach", "chart_lines"]

#: The rows of the smallest screen the chart is laid out for: every this many consecutive
#: lines of :func:`chart_lines` hold a header line (the dealer's upcards).
SCREEN_ROWS = 24

#: Columns of a chart row's label ("  16", "  A,7") and of a header's section name ("Pairs").
_LABEL = 7


def chart_lines(chart: Chart, width: int | None = None, rows: int = SCREEN_ROWS) -> list[str]:
    """The basic-strategy chart as lines laid out for a screen ``width`` columns wide and ``rows`` high.

    Every ``rows`` consecutive lines (a screenful) hold a header naming the dealer's upcards
    over the columns. The columns are 4 wide, 3 where that is too wide, and a screen too narrow
    for all ten upcards gets the chart once for each group of upcards that fits. Every code
    comes from the chart (:meth:`.Chart.rows`).

    Args:
        chart: the chart (:func:`~blackjack.hints.basic_strategy`).
        width: the screen's width in columns (suit-free ASCII, so ``len()`` counts cells);
            None: no limit (one legend line, as ``str(chart)``).
        rows: the screen's height; at least 2.

    Returns:
        The lines, none wider than ``width`` when it is at least 10 (one 3-wide column).

    Raises:
        ValueError: ``rows`` is under 2.
    """
    if rows < 2:
        raise ValueError(f"a screen of {rows} rows cannot show a header and a line of the chart")
    limit = width if width is not None else 10**6
    cell = 4 if limit >= _LABEL + 4 * len(UPCARDS) else 3
    per_group = max(1, min(len(UPCARDS), (limit - _LABEL) // cell))
    groups = [list(range(i, min(i + per_group, len(UPCARDS)))) for i in range(0, len(UPCARDS), per_group)]
    names = ["A" if u == 1 else str(u) for u in UPCARDS]
    table = chart.rows()
    title = f"Basic strategy for {chart.rules.summary()} (derived from expected values); columns: the dealer's upcard"
    lines = [(line, False) for line in textwrap.wrap(title, limit, subsequent_indent="  ")]  # (line, is a header)
    for columns in groups:
        def header(section: str) -> str:
            return f"{section:<{_LABEL}}" + "".join(f"{names[c]:>{cell}}" for c in columns)
        section = ""
        for name, label, codes in table:
            if name != section:
                section = name
                lines.append((header(name.capitalize()), True))
            lines.append((f"  {label:<{_LABEL - 2}}" + "".join(f"{codes[c]:>{cell}}" for c in columns), False))
    used = [code for code in CODES if any(code in codes for _n, _l, codes in table)]
    legend: list[str] = []
    joinable = False  # the last legend line holds whole entries only, so another may follow on it
    for entry in (f"{code} = {CODES[code]}" for code in used):
        if joinable and len(legend[-1]) + 2 + len(entry) <= limit:
            legend[-1] += "  " + entry
            continue
        wrapped = textwrap.wrap(entry, limit, subsequent_indent="  ")
        legend.extend(wrapped)
        joinable = len(wrapped) == 1
    lines.extend((line, False) for line in legend)
    out: list[str] = []
    since = 0
    repeat = f"{'':<{_LABEL}}" + "".join(f"{names[c]:>{cell}}" for c in groups[0])
    for line, is_header in lines:
        if is_header:
            repeat = f"{'':<{_LABEL}}" + line[_LABEL:]
        elif since >= rows - 1:
            out.append(repeat)
            since = 0
        out.append(line)
        since = 0 if is_header else since + 1
    return out


class Coach:
    """Answers the text game's ``hint``, ``count`` and ``chart`` commands, and shows first-time tips.

    The exact EVs of each decision are worked out on a background thread from :meth:`prepare`
    on (:class:`.hints.ahead.Ahead`; :meth:`close` ends it). The hint and the verdict wait for
    them, so both are exact and a transcript replays the same; the hardest decisions take up
    to about 0.3 s when asked at once.

    Args:
        rules: the table's rules (the ``chart`` command reads the presets' charts from shipped
            data; other rules, a preset with another deck count included, derive it on
            first use, 6-16 s here).
        counting: the counting system for the ``count`` command (default Hi-Lo).
        tips: show a tip the first time a situation comes up (justBlackjack's idea).
        width: the screen's width in columns, which the chart is laid out for
            (:func:`chart_lines`); None: no limit.
    """

    def __init__(self, rules: Rules, *, counting: str = "hi_lo", tips: bool = True, width: int | None = None) -> None:
        self.rules = rules
        self.counting = system(counting)
        self.tips = TipBook(enabled=tips)
        self.width = width
        self._chart: Chart | None = None
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
        """The basic-strategy chart derived for these rules, laid out for :attr:`width` and a 24-row screen."""
        if self._chart is None:
            self._chart = basic_strategy(self.rules)
        return "\n".join(chart_lines(self._chart, self.width))

    def hint_text(self, view: TableView) -> str:
        """The recommended move for the decision in ``view``, with its reason and numbers."""
        if view.turn is None:
            return "No decision is pending."
        advice = hint(view, ahead=self._ahead, wait=None)
        return "\n".join([f"Hint: {advice.action.value}."] + [f"  {line}" for line in advice.lines()])

    def count_text(self, view: TableView) -> str:
        """The running count, true count, cards left and a bet suggestion, from the cards seen so far.

        The true count and bet are given for a balanced system only; the insurance decision where
        insurance is offered and the system has a published insurance index (Hi-Lo, KO).
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
        """Feedback on ``action``: a good move, or the recommended one and the EV cost (exact, as the hint's)."""
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
