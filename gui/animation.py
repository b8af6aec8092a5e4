"""The table's animation queue: the engine's events wait here and are shown one by one.

The engine plays at once; the window shows its events at a player's pace, drained with
``after`` and redrawn once per tick (docs/gui.md, "For developers").
"""

from __future__ import annotations

import tkinter as tk
from collections import deque
from collections.abc import Callable

from blackjack import CardDealt, Event, HandSettled, HoleCardRevealed, InsuranceSettled

from .logic import Pending, pending_from
from .table import TableCanvas

__all__ = ["Animator", "DELAYS_MS", "SLIDE_STEPS", "SPEEDS"]

#: Milliseconds each queued event takes to show at normal speed.
DELAYS_MS = {CardDealt: 300, HoleCardRevealed: 380, InsuranceSettled: 260, HandSettled: 260}
#: A dealt card's journey from the shoe: steps, and the share of its event's delay it takes.
SLIDE_STEPS, SLIDE_SHARE = 14, 0.8
#: The animation speeds (View ▸ Animation speed): name -> factor on every delay; 0 shows everything at once.
SPEEDS: dict[str, float] = {"off": 0.0, "fast": 0.5, "normal": 1.0, "slow": 1.7}


class Animator:
    """Holds the engine's events until the table has shown them.

    Args:
        root: the window (for ``after``).
        table: the canvas the cards slide on.
        redraw: draws the whole window from the round's current view (called once per tick).
        speed: the name of the speed in :data:`SPEEDS`, read at every tick.
    """

    def __init__(self, root: tk.Misc, table: TableCanvas, redraw: Callable[[], None], speed: tk.StringVar) -> None:
        self.root = root
        self.table = table
        self.redraw = redraw
        self.speed = speed
        self.events: deque[Event] = deque()
        self._tick: str | None = None
        self._slide: list[str] = []  # the timers of the card on its way
        self._card: tuple[CardDealt, int] | None = None  # the card to send on its way, and its time (ms)
        self._chips: list[str] = []  # the timers of chips on their way (swept or paid): they hold nothing up

    @property
    def factor(self) -> float:
        """The chosen speed's factor on every delay (0: animations off)."""
        return SPEEDS.get(self.speed.get(), 1.0)

    @property
    def busy(self) -> bool:
        """Events wait to be shown, or a card is still on its way: what reads the cards waits."""
        return bool(self.events) or self._tick is not None or bool(self._slide) or self._card is not None

    def pending(self) -> Pending:
        """What the table must not show yet (:func:`gui.logic.pending_from` of the queue)."""
        return pending_from(self.events)

    def push(self, event: Event) -> None:
        """Queue one of the engine's events (the engine's listener)."""
        self.events.append(event)

    def start(self) -> None:
        """The engine has moved: show its events, one per tick, or all at once with animations off."""
        if not self.factor:
            self.finish()
        elif self._tick is None and not self._slide:
            self._drain()

    def finish(self) -> None:
        """Show everything now: the queue empties, a card on its way lands, and the window is drawn once."""
        self.clear()
        self.redraw()

    def clear(self) -> None:
        """Forget the queue and stop every timer (a new game, closing the window); draws nothing."""
        self.events.clear()
        for ident in (self._tick, *self._slide, *self._chips):
            if ident is not None:
                self.root.after_cancel(ident)
        self._tick, self._slide, self._chips, self._card = None, [], [], None

    def _drain(self) -> None:
        """Show the next event that takes time (those that take none go with it), then come back after its delay."""
        self._tick = None
        for ident in (*self._slide, *self._chips):  # what is still on its way is drawn in its place below
            self.root.after_cancel(ident)
        self._slide, self._chips = [], []
        factor = self.factor
        if not factor:
            self.finish()
            return
        delay = 0
        event: Event | None = None
        while self.events and delay == 0:
            event = self.events.popleft()
            delay = round(DELAYS_MS.get(type(event), 0) * factor)
        while self.events and not DELAYS_MS.get(type(self.events[0]), 0):
            self.events.popleft()  # what takes no time to show (the round's end) goes with this tick
        if self.events:
            self._tick = self.root.after(delay, self._drain)
        self._card = (event, round(delay * SLIDE_SHARE)) if isinstance(event, CardDealt) and delay else None
        self.redraw()  # once per tick, before the slide's first step moves the new card
        if self._card is not None:
            self._move_card(*self._card)
        if isinstance(event, HandSettled) and delay:
            self._move_chips(event, round(delay * SLIDE_SHARE))

    def _move_card(self, event: CardDealt, duration: int) -> None:
        """Put the card just drawn at the shoe and send it to its place, fast at first, slow as it lands."""
        self._card = None
        table = self.table
        tag = "dealer" if event.seat is None else f"hand_{event.seat}_{event.hand}"
        uids = [t for item in table.find_withtag(tag) for t in table.gettags(item) if t.startswith("cardid")]
        box = table.bbox(uids[-1]) if uids else None
        if box:
            sx, sy = table.shoe_point()
            self._slide = self._travel(uids[-1], (sx - box[0], sy - box[1]), duration, self._landed)
        else:
            self._landed()

    def _landed(self) -> None:
        self._slide = []
        if self._tick is None:  # the last card has landed: now the buttons and panels follow
            self._drain() if self.events else self.redraw()

    def _move_chips(self, event: HandSettled, duration: int) -> None:
        """A settled hand's chips: a lost bet is swept from its circle to the dealer, a win's payout comes from
        the dealer to its place beside the bet (the chips' travel does not hold the window up)."""
        table = self.table
        dealer = table.dealer_point()
        if event.outcome.net < 0:
            tag = table.sweep(event.seat, -event.outcome.net)
            box = table.bbox(tag)
            if box:
                self._chips += self._travel(tag, (0.0, 0.0), duration, lambda: table.delete(tag),
                                            (dealer[0] - box[0], dealer[1] - box[1]))
        elif event.outcome.net > 0:
            tag = f"payout{event.seat}"
            box = table.bbox(tag)
            if box:
                self._chips += self._travel(tag, (dealer[0] - box[0], dealer[1] - box[1]), duration, lambda: None)

    def _travel(self, tag: str, start: tuple[float, float], duration: int, done: Callable[[], None],
                end: tuple[float, float] = (0.0, 0.0)) -> list[str]:
        """Move the items of ``tag`` by ``start`` pixels at once, then to ``end`` (from where they were drawn) in
        :data:`SLIDE_STEPS` steps over ``duration`` ms, fast at first and slow as they arrive; call ``done``."""
        self.table.move(tag, *start)
        dx, dy = end[0] - start[0], end[1] - start[1]
        timers: list[str] = []
        gone = 0.0
        for step in range(1, SLIDE_STEPS + 1):
            share = 1 - (1 - step / SLIDE_STEPS) ** 3  # ease out
            timers.append(self.root.after(round(step * duration / SLIDE_STEPS),
                                          self._step(tag, dx * (share - gone), dy * (share - gone),
                                                     done if step == SLIDE_STEPS else None)))
            gone = share
        return timers

    def _step(self, tag: str, dx: float, dy: float, done: Callable[[], None] | None) -> Callable[[], None]:
        def step() -> None:
            self.table.move(tag, dx, dy)
            if done is not None:
                done()
        return step
