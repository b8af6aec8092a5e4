"""Run slow work off the Tk event loop: a thread pool polled with ``after`` (IDLE's ``poll_subprocess``).

The worker never touches a widget; a newer job with the same ``key`` makes an older one's answer stale.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import tkinter as tk
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Jobs"]

POLL_MS = 30


@dataclass
class _Job:
    key: str
    future: concurrent.futures.Future[Any]
    done: Callable[[Any], None]
    failed: Callable[[BaseException], None]


class Jobs:
    """A small thread pool whose results are delivered on the Tk thread.

    Args:
        widget: any widget of the window; its ``after`` drives the polling.
        workers: worker threads (the machine may be shared: keep it small).
    """

    def __init__(self, widget: tk.Misc, workers: int = 1) -> None:
        self._widget = widget
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gui-job")
        self._jobs: list[_Job] = []
        self._latest: dict[str, concurrent.futures.Future[Any]] = {}
        self._after: str | None = None
        self._closed = False

    def submit(self, key: str, work: Callable[[], Any], done: Callable[[Any], None],
               failed: Callable[[BaseException], None]) -> None:
        """Run ``work()`` in a worker; then ``done(result)`` or ``failed(error)`` on the Tk thread."""
        if self._closed:
            return
        older = self._latest.get(key)
        if older is not None:
            older.cancel()  # not started yet: never run it
        future = self._pool.submit(work)
        self._latest[key] = future
        self._jobs.append(_Job(key, future, done, failed))
        if self._after is None:
            self._after = self._widget.after(POLL_MS, self._poll)

    def forget(self, key: str) -> None:
        """Drop the answer of the latest job with ``key`` (it is no longer wanted)."""
        older = self._latest.pop(key, None)
        if older is not None:
            older.cancel()

    @property
    def busy(self) -> bool:
        """True while some job has not been delivered."""
        return bool(self._jobs)

    def _poll(self) -> None:
        self._after = None
        ready = [job for job in self._jobs if job.future.done()]
        self._jobs = [job for job in self._jobs if not job.future.done()]
        for job in ready:
            if self._latest.get(job.key) is not job.future or job.future.cancelled():
                continue  # a newer job with the same key replaced this one
            error = job.future.exception()
            if error is None:
                job.done(job.future.result())
            else:
                job.failed(error)
        if self._jobs and not self._closed:
            self._after = self._widget.after(POLL_MS, self._poll)

    def close(self) -> None:
        """Stop polling and drop waiting jobs (a running one finishes in the background)."""
        self._closed = True
        if self._after is not None:
            with contextlib.suppress(tk.TclError):
                self._widget.after_cancel(self._after)
            self._after = None
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._jobs.clear()
