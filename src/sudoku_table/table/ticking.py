"""The table's timer (``Table.ticker``): it finishes what waits for the board to settle (a
Halma jump sequence, a take-back made on the board) and what waits for the disk (a write tried
again, the journal's reserve taken back). With the real clock a thread of its own runs it;
with a test clock, tests call ``tick()``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from .keeping import Keeper
from .sessions import Current

if TYPE_CHECKING:
    from .table import Table

IDLE_WAIT = 5.0
"""How long the thread sleeps when nothing is due (a change wakes it sooner)."""


class Ticker:
    """The deadlines of ``current``'s game and of the ``keeper``, met on ``clock``: a part of
    ``table``, under its lock."""

    def __init__(self, table: Table, current: Current, keeper: Keeper,
                 clock: Callable[[], float]) -> None:
        self._table = table
        self._current = current
        self._keeper = keeper
        self._clock = clock
        self._thread: threading.Thread | None = None

    def tick(self) -> None:
        """Finish whatever waited for the board to settle, if its time has come."""
        table = self._table
        with table.lock:
            if table.closed:
                return
            now = self._clock()
            changed = self._keeper.tick(now)
            companion = self._current.companion
            if companion is not None and companion.tick(now):
                self._keeper.after(companion)
                changed = True
            if not changed:
                return
            table.bump_locked()
        table.show()

    def start(self) -> None:
        """Run the timer in a thread of its own until the table closes."""
        self._thread = threading.Thread(target=self._loop, name="table-ticker", daemon=True)
        self._thread.start()

    def join(self, timeout: float = 1.0) -> None:
        """Wait for the thread to end (the table has closed)."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=timeout)

    def _deadline(self) -> float | None:
        """Under the lock: when the timer is next due (None: nothing waits)."""
        companion = self._current.companion
        deadlines = [t for t in (companion.next_deadline() if companion else None,
                                 *self._keeper.deadlines()) if t is not None]
        return min(deadlines) if deadlines else None

    def _loop(self) -> None:
        cond = self._table.cond
        while True:
            with cond:
                if self._table.closed:
                    return
                deadline = self._deadline()
                if deadline is None:
                    cond.wait(timeout=IDLE_WAIT)
                    continue
                delay = deadline - self._clock()
                if delay > 0:
                    cond.wait(timeout=delay)
                    continue
            self.tick()
