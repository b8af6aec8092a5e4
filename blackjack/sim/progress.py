"""A one-line progress bar on stderr: share done, hands per second and time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """Draw ``[#####-----]  52%  520,000/1,000,000 hands  31.2k hands/s  0:15 left`` on a terminal.

    Silent when ``stream`` is not a terminal or ``enabled`` is False. Redraws at most
    ten times a second; call it with the rounds just finished.

    Args:
        total: rounds expected.
        stream: where to draw (default ``sys.stderr``).
        enabled: False for ``--quiet``.
    """

    def __init__(self, total: int, *, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = max(total, 1)
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.done = 0
        self.start = time.perf_counter()
        self._drawn = 0.0

    def __call__(self, rounds: int) -> None:
        """Count ``rounds`` more finished rounds and redraw if due."""
        self.done += rounds
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._drawn >= 0.1 or self.done >= self.total:
            self._drawn = now
            self.stream.write("\r" + self.line(now - self.start))
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        """The bar's text after ``elapsed`` seconds."""
        share = min(self.done / self.total, 1.0)
        filled = int(share * 30)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        minutes, seconds = divmod(int(left), 60)
        return (f"[{'#' * filled}{'-' * (30 - filled)}] {share:4.0%}  {self.done:,}/{self.total:,} hands  "
                f"{rate / 1000:.1f}k hands/s  {minutes}:{seconds:02d} left ")

    def close(self) -> None:
        """End the line so later output starts on a fresh one."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
