"""The table's sensors (``Table.sensors``): the board they feel, confirmed and tentative, and
their faults. A part that only keeps state: the scanning thread calls the table
(``Table.handle_felt``, ``handle_sensor``, ``handle_fault``), which takes its lock and asks this
part what an event changed (docs/DESIGN.md, "one sensor event through them")."""

from __future__ import annotations

import logging
from typing import Any

from sudoku_table.firmware.ports import SensorFault, SensorSource

log = logging.getLogger(__name__)

MAX_FAULTS = 20
"""The sensor faults the view lists, newest last."""


class Sensors:
    """The physical board as the sensors report it: ``occupied`` (confirmed: the board the
    game's companion shares and updates; always this one set, changed in place), ``felt``
    (tentative: felt a few ms after the switch, before the piece has come to rest; only the
    square's LED and the view's ``table.felt`` show it) and the last ``faults``. Changed only
    under the table's lock."""

    def __init__(self) -> None:
        self.occupied: set[str] = set()
        self.felt: set[str] = set()
        self.faults: list[dict[str, Any]] = []
        self.source: SensorSource | None = None

    def unconfirmed(self) -> set[str]:
        """The squares whose tentative state differs from the confirmed board."""
        return self.felt ^ self.occupied

    def take_board(self, squares: set[str]) -> None:
        """``squares`` are the physical board, confirmed and felt."""
        self.occupied.clear()
        self.occupied.update(squares)
        self.felt = set(squares)

    def feel(self, square: str, occupied: bool) -> bool:
        """A tentative change of ``square``; True when it is new to the felt board."""
        if (square in self.felt) == occupied:
            return False
        (self.felt.add if occupied else self.felt.discard)(square)
        return True

    def confirm(self, square: str, occupied: bool) -> bool:
        """A confirmed change reaches the felt board too; True when the felt board had not
        felt it (its feedback light changes)."""
        felt = (square in self.felt) != occupied
        (self.felt.add if occupied else self.felt.discard)(square)
        return felt

    def occupy(self, square: str, occupied: bool) -> bool:
        """Before a game: the confirmed board itself changes (with a game, its companion
        changes the board the two share). True when it did."""
        changed = (square in self.occupied) != occupied
        (self.occupied.add if occupied else self.occupied.discard)(square)
        return changed

    def fault(self, fault: SensorFault) -> None:
        """A sensor fault, kept for the view (the newest ``MAX_FAULTS``)."""
        self.faults.append({"square": fault.square, "kind": fault.kind,
                            "detail": fault.detail, "line": fault.line,
                            "shorted": fault.shorted})
        del self.faults[:-MAX_FAULTS]

    def detach(self) -> SensorSource | None:
        """Forget the sensor source (the table closes); the source, for the table to stop."""
        source, self.source = self.source, None
        return source


def stop_source(source: SensorSource | None) -> None:
    """Stop listening; a sensor source that fails to stop is logged (closing must finish)."""
    if source is None:
        return
    try:
        source.stop()
    except Exception:  # closing must always finish
        log.exception("the sensors could not be stopped")
