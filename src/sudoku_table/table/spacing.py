"""Space for the journal (``Keeper.space``): its reserve, the last space of the memory card kept
for the game in progress (``journal.reserve``; docs/DESIGN.md, "When the disk fills or fails").
While the journal has given it to the game, or could not keep it, a new game or an import
waits, and the timer looks every ``SPACE_SECONDS`` for the space to take it again. Called under
the table's lock."""

from __future__ import annotations

from collections.abc import Callable

from sudoku_table.rules.wording import N_

from .errors import CannotSave
from .journal import FULL, Journal

SPACE_SECONDS = 30.0
"""While the journal's reserve is in use or missing, how often the table looks for the space
to take it again."""
LOW_SPACE = N_("the memory card is nearly full: the table keeps its last space for a game in "
               "progress, so a new game or an import waits until space is freed")


class Space:
    """The reserve of the journal that ``journal`` returns (None without one: nothing is
    reserved), watched on ``clock``: whether a new game has room, when to look for space."""

    def __init__(self, journal: Callable[[], Journal | None],
                 clock: Callable[[], float]) -> None:
        self._journal = journal
        self._clock = clock
        self.due: float | None = None
        """When the timer next looks for space (None while the reserve is held)."""

    def missing(self) -> bool:
        """The open journal keeps a reserve but does not hold it now."""
        journal = self._journal()
        return (journal is not None and journal.ok and journal.reserve > 0
                and not journal.reserve_held)

    def room_for_new(self) -> None:
        """A new game or an import may begin only while the reserve is held (``CannotSave``
        otherwise)."""
        if self.missing():
            raise CannotSave(LOW_SPACE, FULL)

    def low(self) -> str | None:
        """Why the space is low while the reserve is missing (``reserve_used``: the game took
        it; ``no_reserve``: it could not be kept), else None."""
        if not self.missing():
            return None
        journal = self._journal()
        return "reserve_used" if journal is not None and journal.reserve_used else "no_reserve"

    def watch(self) -> None:
        """Look for space to take the reserve again while it is missing."""
        missing = self.missing()
        if missing and self.due is None:
            self.due = self._clock() + SPACE_SECONDS
        elif not missing:
            self.due = None

    def check(self) -> bool:
        """On the timer while the reserve is missing: take it again if there is room now; True
        when it is taken."""
        self.due = None
        journal = self._journal()
        if journal is None or not journal.ok:
            return False
        if journal.keep_reserve():
            return True
        self.watch()
        return False
