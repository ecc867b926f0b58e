"""The table's sensors (``Table.sensors``): the board they feel, confirmed and tentative, and
their faults. The scanning thread calls ``handle_felt``, ``handle_sensor`` and ``handle_fault``
(never raising into it); each takes the table's lock, hands the event on once and shows the
newest frame outside the lock (docs/DESIGN.md, "one sensor event through them")."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sudoku_table.firmware.ports import SensorEvent, SensorFault, SensorSource
from sudoku_table.rules.squares import is_square
from sudoku_table.rules.wording import N_

from .errors import InputError
from .keeping import Keeper
from .notices import Notices
from .sessions import Current
from .view import View

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)

MAX_FAULTS = 20
"""The sensor faults the view lists, newest last."""


class Sensors:
    """The physical board as the sensors report it: ``occupied`` (confirmed: the board the
    game's companion shares and updates), ``felt`` (tentative: felt a few ms after the switch,
    before the piece has come to rest; only the square's LED and the view's ``table.felt`` show
    it) and the last ``faults``. Part of ``table``, under its lock."""

    def __init__(self, table: Table, current: Current, keeper: Keeper, notices: Notices,
                 clock: Callable[[], float]) -> None:
        self._table = table
        self._current = current
        self._keeper = keeper
        self._notices = notices
        self._clock = clock
        self.occupied: set[str] = set()
        self.felt: set[str] = set()
        self.faults: list[dict[str, Any]] = []
        self._source: SensorSource | None = None

    def unconfirmed(self) -> set[str]:
        """The squares whose tentative state differs from the confirmed board."""
        return self.felt ^ self.occupied

    def attach(self, source: SensorSource) -> None:
        """Take the sensors' board as the physical board, then listen to their events."""
        table = self._table
        with table.lock:
            self._source = source
            self._take_board_locked(set(source.occupied()))
        table.show()
        source.start(self.handle_sensor, self.handle_fault, self.handle_felt)

    def stop(self) -> None:
        """Stop listening (the table closes); a sensor source that fails to stop is logged."""
        with self._table.lock:
            source, self._source = self._source, None
        if source is not None:
            try:
                source.stop()
            except Exception:  # closing must always finish
                log.exception("the sensors could not be stopped")

    def set_board(self, occupied: set[str] | frozenset[str] | list[str]) -> View:
        """Take ``occupied`` as the physical board (tools and tests without a sensor source)."""
        squares = set(occupied)
        bad = [s for s in squares if not is_square(s)]
        if bad:
            raise InputError(N_("{bad} is not a square a1..i9"), bad=repr(bad[0]))
        table = self._table
        with table.lock:
            self._take_board_locked(squares)
            view = table.view_locked()
        table.show()
        return view

    def _take_board_locked(self, squares: set[str]) -> None:
        """Under the lock: ``squares`` are the physical board, confirmed and felt."""
        self.occupied.clear()
        self.occupied.update(squares)
        self.felt = set(squares)
        companion = self._current.companion
        if companion is not None:
            companion.set_board(squares)
        self._table.bump_locked()

    def handle_felt(self, event: SensorEvent) -> None:
        """One tentative change: the square's LED shows it at once; the game does not hear it
        (it waits for the confirmed change). Never raises into the scanning thread."""
        square, occupied = event.square, bool(event.occupied)
        if not is_square(square):
            return  # the confirmed event, if one follows, tells the players
        table = self._table
        with table.lock:
            if table.closed or (square in self.felt) == occupied:
                return
            (self.felt.add if occupied else self.felt.discard)(square)
            table.felt_changed_locked()
        table.show()

    def handle_sensor(self, event: SensorEvent) -> None:
        """One confirmed change on one square; never raises into the scanning thread."""
        square, occupied = event.square, bool(event.occupied)
        table = self._table
        if not is_square(square):
            with table.lock:
                self._notices.notice("unknown_square", square=repr(square))
                table.bump_locked()
            table.show()
            return
        with table.lock:
            if table.closed:
                return
            ended = table.replay.end_locked()  # a hand at the board: back to the game at once
            felt = (square in self.felt) != occupied
            (self.felt.add if occupied else self.felt.discard)(square)
            try:
                companion = self._current.companion
                if companion is not None:  # it updates the board the two share, once
                    changed = companion.sensor(square, occupied, self._clock())
                    self._keeper.after(companion)
                else:
                    changed = (square in self.occupied) != occupied
                    (self.occupied.add if occupied else self.occupied.discard)(square)
            except Exception:  # a rules bug must not kill the scanner
                log.exception("a sensor event could not be handled")
                self._notices.notice("internal_error")
                changed = True
            if changed:
                table.bump_locked()
            elif felt:
                table.felt_changed_locked()
        if changed or felt or ended:
            table.show()

    def handle_fault(self, fault: SensorFault) -> None:
        """A sensor fault: reported on the panel, never taken as a move."""
        table = self._table
        with table.lock:
            self.faults.append({"square": fault.square, "kind": fault.kind,
                                "detail": fault.detail, "line": fault.line,
                                "shorted": fault.shorted})
            del self.faults[:-MAX_FAULTS]
            table.bump_locked()
        table.show()

    def wait_for_occupied(self, square: str, occupied: bool, timeout: float) -> bool:
        """True once the sensors have reported ``square`` in that state (False on timeout)."""
        with self._table.cond:
            return self._table.cond.wait_for(lambda: (square in self.occupied) == occupied,
                                             timeout=timeout)

    def wait_for_felt(self, square: str, occupied: bool, timeout: float) -> bool:
        """True once the scan has felt ``square`` in that state, before it comes to rest
        (False on timeout)."""
        with self._table.cond:
            return self._table.cond.wait_for(lambda: (square in self.felt) == occupied,
                                             timeout=timeout)
