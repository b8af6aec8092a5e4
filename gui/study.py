"""The table's study aids: the hint and the coach's verdicts (worked out in :mod:`gui.jobs`'s worker from
what :mod:`gui.advice` says), the strategy chart and the session window with its ledger."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

from blackjack import Action, Blackjack, Money, Phase, TableView

from . import advice
from .coach import Score
from .jobs import Jobs
from .panels import ChartWindow, CoachPanel, CountPanel, HintPanel, LedgerRow, SessionWindow

__all__ = ["Study", "one_line"]


class Study:
    """The hint panel's advice, the coach's score and verdicts, the chart window and the session's records.

    Args:
        root: the main window (the chart and session windows open over it).
        jobs: the worker for hints, verdicts and the chart.
        hint_panel, count_panel, coach_panel: the side column's panels.
        counting: the chosen counting system's key (the idle hint points to its bet).
        game: gives the game being played (it changes with a new game or new rules).

    Attributes:
        score: the coach's tally for the session.
        series: each player's bankroll after each round, from the start of the game.
        ledger_rows: one row per player per round.
        rounds_before: rounds of this game played under earlier rules (the ledger numbers on).
        chart_window, chart_rows, session_window: the open windows and the chart's rows, if any.
    """

    def __init__(self, root: tk.Misc, jobs: Jobs, hint_panel: HintPanel, count_panel: CountPanel,
                 coach_panel: CoachPanel, counting: tk.StringVar, game: Callable[[], Blackjack]) -> None:
        self.root, self.jobs, self.counting, self.game = root, jobs, counting, game
        self.hint_panel, self.count_panel, self.coach_panel = hint_panel, count_panel, coach_panel
        self.score = Score()
        self.hint_token: object = None  # the decision the hint panel's advice is for
        self._decisions = 0
        self.series: dict[str, list[Money]] = {}
        self.ledger_rows: list[LedgerRow] = []
        self.rounds_before = 0
        self.chart_window: ChartWindow | None = None
        self.chart_rows: list[tuple[str, str, tuple[str, ...]]] | None = None
        self.session_window: SessionWindow | None = None

    def new_game(self) -> None:
        """A new game: the records start again from each player's bankroll."""
        self.series = {p.name: [p.bankroll] for p in self.game().players}
        self.ledger_rows = []
        self.rounds_before = 0
        self.chart_rows = None

    # ------------------------------------------------------------------ hint and coach
    def update_hint(self, view: TableView) -> None:
        """Advise on ``view``'s decision (worked out in the worker), or say what the panel will show."""
        shown = self.hint_panel.shown.get()
        if not shown or view.turn is None:
            self.hint_token = None
            self.jobs.forget("hint")
            if shown:
                self.hint_panel.show_message(self._idle_hint(view))
            return
        token = (view.turn, view.phase, view.current_hand, view.legal_actions, view.cards_remaining)
        if token == self.hint_token:
            return
        self.hint_token = token
        self.hint_panel.show_message("Thinking…")
        self.jobs.submit("hint", lambda: advice.advise(view), self.hint_panel.show,
                         lambda err: self.hint_panel.show_message(one_line(err)))

    def _idle_hint(self, view: TableView) -> str:
        """What the hint panel says when no one has a decision: what it will show, and where to look now."""
        if view.phase is not Phase.BETTING:
            return "No decision pending. The next hint comes with the next decision."
        text = "At your first decision: the best play and why, the bust chance, the dealer's totals, each EV."
        if self.count_panel.shown.get() and self.game().rules.wagering:
            try:
                balanced = advice.count(view, self.counting.get()).suggestion is not None
            except advice.HintsUnavailable:
                balanced = False
            if balanced:
                text += " Your bet: see the count panel."
        return text

    def judge(self, before: TableView, action: Action) -> None:
        """Have the coach judge ``action`` taken at ``before`` (in the worker); the verdict names the player."""
        self._decisions += 1
        rnd = self.game().round
        name = before.current_seat.name if before.current_seat is not None else ""
        self.jobs.submit(f"coach{self._decisions}", lambda: advice.judge(before, action),
                         lambda verdict: self.judged(verdict, rnd, name),
                         lambda err: self.coach_panel.show_verdict(one_line(err)))

    def judged(self, verdict: advice.Verdict, rnd: object = None, name: str = "") -> None:
        """Count the verdict in the score; show it, headed by the player's ``name``, unless its round has ended
        since (the next round starts clean)."""
        self.score.record(verdict)
        if rnd is None or rnd is self.game().round:
            text = f"{name}: {verdict.text()}" if name else verdict.text()
            self.coach_panel.show_verdict(text, CoachPanel.RIGHT if verdict.correct else CoachPanel.WRONG)
        self.coach_panel.show_score(self.score.text())

    def reset_score(self) -> None:
        """Start the coach's tally again."""
        self.score.reset()
        self.coach_panel.show_score(self.score.text())
        self.coach_panel.show_verdict("")

    # ------------------------------------------------------------------ chart
    def open_chart(self, view: TableView | None) -> None:
        """Open the basic-strategy chart window for the current rules (``view``: the round, to outline its cell)."""
        if self.chart_window is None or not self.chart_window.winfo_exists():
            self.chart_window = ChartWindow(self.root, f"Basic strategy: {self.game().rules.name}",
                                            on_close=self._close_chart)
        self.load_chart(view)

    def _close_chart(self) -> None:
        if self.chart_window is not None:
            self.chart_window.destroy()
        self.chart_window = None

    def load_chart(self, view: TableView | None) -> None:
        """Work out the chart for the current rules (new rules: a new chart) and show it."""
        rules = self.game().rules
        self.chart_rows = None
        if self.chart_window is None:
            return
        self.chart_window.title(f"Basic strategy: {rules.name} ({rules.summary()})")

        def loaded(rows: list[tuple[str, str, tuple[str, ...]]]) -> None:
            if rules == self.game().rules:
                self.chart_rows = rows
                current = self.game().round
                if current is not None:
                    self.show_chart(current.view())

        def failed(err: BaseException) -> None:
            if self.chart_window is not None:
                self.chart_window.show_message(one_line(err))

        self.jobs.submit("chart", lambda: advice.chart_rows(rules), loaded, failed)

    def show_chart(self, view: TableView) -> None:
        """Outline ``view``'s cell in the open chart."""
        if self.chart_window is not None and self.chart_rows is not None and self.chart_window.winfo_exists():
            self.chart_window.show(self.chart_rows, advice.chart_cell(view))

    # ------------------------------------------------------------------ session
    def open_session(self) -> None:
        """Open the session window: bankroll chart and ledger."""
        if self.session_window is None or not self.session_window.winfo_exists():
            self.session_window = SessionWindow(self.root)
        self.session_window.update_session(self.series, self.ledger_rows)

    def record(self, view: TableView, insurance: list[Money]) -> None:
        """Write the settled round ``view`` in the ledger (``insurance``: each seat's insurance net)."""
        game = self.game()
        number = self.rounds_before + game.rounds_played + 1  # counted on across rules changes
        for seat in view.seats:
            if seat.bet <= 0:
                continue
            outcomes = [h.outcome for h in seat.hands if h.outcome is not None]
            net = sum((o.net for o in outcomes), insurance[seat.index])
            bankroll = game.players[seat.index].bankroll
            self.ledger_rows.append(LedgerRow(number, seat.name, ", ".join(o.result.label for o in outcomes),
                                              net, bankroll))

    def finished(self) -> None:
        """The round is finished: each bankroll joins its series, and an open session window shows it."""
        for player in self.game().players:
            self.series.setdefault(player.name, []).append(player.bankroll)
        if self.session_window is not None and self.session_window.winfo_exists():
            self.session_window.update_session(self.series, self.ledger_rows)


def one_line(err: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none)."""
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__
