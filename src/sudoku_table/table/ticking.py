"""The table's timer (``Table.ticker``): what waits for the board to settle (a Halma jump
sequence, a take-back made on the board) and what waits for the disk (a write tried again, the
journal's reserve taken back). A part that says when it is next due and what came due; the
table runs it under its lock, from a thread of its own with the real clock (with a test clock,
tests call ``Table.tick()``)."""

from __future__ import annotations

from .keeping import Keeper
from .sessions import Current

IDLE_WAIT = 5.0
"""How long the timer's thread sleeps when nothing is due (a change wakes it sooner)."""


class Ticker:
    """The deadlines of ``current``'s game and of the ``keeper``."""

    def __init__(self, current: Current, keeper: Keeper) -> None:
        self._current = current
        self._keeper = keeper

    def due(self, now: float) -> bool:
        """Under the table's lock: finish whatever waited until ``now``; True when the players
        see a change."""
        changed = self._keeper.tick(now)
        companion = self._current.companion
        if companion is not None and companion.tick(now):
            self._keeper.after(companion)
            changed = True
        return changed

    def deadline(self) -> float | None:
        """Under the table's lock: when the timer is next due (None: nothing waits)."""
        companion = self._current.companion
        deadlines = [t for t in (companion.next_deadline() if companion else None,
                                 *self._keeper.deadlines()) if t is not None]
        return min(deadlines) if deadlines else None
