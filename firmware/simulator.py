"""The simulated table's sensors: gpiozero mock pins that behave like the diode matrix.

:class:`SimulatedBoard` holds the 81 simulated reed switches. Its row pins tell it which row is
driven low; its column pins compute their level when read: low when a closed switch sits on a
driven row, high (the pull-up) otherwise. The real :class:`~firmware.matrix.ReedMatrix` scans
them through gpiozero exactly as it scans a real table. Faults can be injected: bounce after
every change, a stuck switch, a dead (broken) row or column and a column shorted to ground.

The pins keep no state history (``MockPin`` keeps every change forever, tens of MB an hour),
and the factory is private to the simulator: gpiozero's global pin factory is left alone.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from .config import SensorConfig, SimulatorConfig
from .exc import SimulatorError
from .layout import SIZE, square_index

BOUNCE_PERIOD = 0.0003
"""How often a bouncing simulated switch flips (300 us, like a real reed contact)."""


class QuietMockPin(MockPin):
    """A mock pin that keeps no history of its states."""

    _state: bool

    def _change_state(self, value: bool) -> bool:
        if self._state != value:
            self._state = value
            return True
        return False

    def clear_states(self) -> None:
        self._last_change = time.monotonic()
        self.states: list[Any] = []


class RowPin(QuietMockPin):
    """A row line: tells the board when it drives its row low."""

    def __init__(self, factory: Any, info: Any, board: SimulatedBoard, row: int) -> None:
        self._board = board
        self._row = row
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed:
            self._board._row_driven(self._row, self._function == "output" and not value)
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._board._row_driven(self._row, value == "output" and not self._state)


class ColumnPin(QuietMockPin):
    """A column line with its pull-up: its level comes from the switches of the driven row."""

    def __init__(self, factory: Any, info: Any, board: SimulatedBoard, column: int) -> None:
        self._board = board
        self._column = column
        super().__init__(factory, info)

    def _get_state(self) -> bool:
        if self._function == "input" and self._pull == "up":
            return not self._board._column_low(self._column)
        return bool(self._state)

    def _set_pull(self, value: str) -> None:
        # Applying the pull-up only sets the idle level; a closed switch still wins on reading.
        super()._set_pull(value)


class SimulatedBoard:
    """81 simulated reed switches wired as a diode matrix on a private ``MockFactory``."""

    def __init__(self, sensors: SensorConfig, simulator: SimulatorConfig | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.bounce = (simulator or SimulatorConfig()).bounce_ms / 1000
        self.factory = MockFactory()
        self._lock = threading.Lock()
        self._closed = [False] * (SIZE * SIZE)
        """What a hand has done: a piece on the square closes its switch."""
        self._stuck: dict[int, bool] = {}
        self._bouncing: dict[int, tuple[float, float, bool, float]] = {}
        """Square to (start, end, settled state, flip period) of its bounce."""
        self._driven = 0
        self.dead_rows: set[int] = set()
        self.dead_columns: set[int] = set()
        self.shorted_columns: set[int] = set()
        for row, gpio in enumerate(sensors.rows):
            self.factory.pin(gpio, pin_class=RowPin, board=self, row=row)
        for column, gpio in enumerate(sensors.columns):
            self.factory.pin(gpio, pin_class=ColumnPin, board=self, column=column)

    # --- what a hand does ------------------------------------------------------------------

    def set_square(self, square: str, occupied: bool) -> None:
        """Put a piece on ``square`` (close its switch) or lift it; the switch bounces first."""
        if not isinstance(occupied, bool):
            raise SimulatorError(f"occupied must be True or False, got {occupied!r}")
        i = square_index(square)
        with self._lock:
            if self._closed[i] == occupied:
                return
            self._closed[i] = occupied
            if self.bounce > 0:
                now = self.clock()
                self._bouncing[i] = (now, now + self.bounce, occupied, BOUNCE_PERIOD)

    def square(self, square: str) -> bool:
        """Whether a piece stands on ``square`` (what the hand did, not what the switch says)."""
        return self._closed[square_index(square)]

    def clear(self) -> None:
        """Lift every piece."""
        with self._lock:
            self._closed = [False] * (SIZE * SIZE)
            self._bouncing.clear()

    # --- injected faults --------------------------------------------------------------------

    def chatter(self, square: str, seconds: float, period: float = 0.01) -> None:
        """Make ``square``'s switch flip every ``period`` seconds for ``seconds`` (a weak
        magnet at the edge of the reed's range)."""
        i = square_index(square)
        with self._lock:
            now = self.clock()
            self._bouncing[i] = (now, now + seconds, self._closed[i], period)

    def set_stuck(self, square: str, closed: bool | None) -> None:
        """Weld ``square``'s switch closed (True) or open (False); None repairs it."""
        i = square_index(square)
        with self._lock:
            if closed is None:
                self._stuck.pop(i, None)
            else:
                self._stuck[i] = bool(closed)

    def set_dead_row(self, row: int, dead: bool = True) -> None:
        """Break row line ``row`` (0-8, rank - 1): its switches no longer pull any column."""
        _line(row)
        (self.dead_rows.add if dead else self.dead_rows.discard)(row)

    def set_dead_column(self, column: int, dead: bool = True) -> None:
        """Break column line ``column`` (0-8, file): it always reads its pull-up."""
        _line(column)
        (self.dead_columns.add if dead else self.dead_columns.discard)(column)

    def set_shorted_column(self, column: int, shorted: bool = True) -> None:
        """Short column line ``column`` to ground: it reads closed on every row."""
        _line(column)
        (self.shorted_columns.add if shorted else self.shorted_columns.discard)(column)

    # --- the electrical model ---------------------------------------------------------------

    def _row_driven(self, row: int, driven: bool) -> None:
        if driven:
            self._driven |= 1 << row
        else:
            self._driven &= ~(1 << row)

    def switch_closed(self, index: int, now: float | None = None) -> bool:
        """Whether the switch of square ``index`` conducts now (bounce and faults included)."""
        stuck = self._stuck.get(index)
        if stuck is not None:
            return stuck
        bounce = self._bouncing.get(index)
        if bounce is not None:
            now = self.clock() if now is None else now
            start, end, settled, period = bounce
            if now >= end:
                self._bouncing.pop(index, None)
            else:
                flips = int((now - start) / period)
                return settled if flips % 2 else not settled
        return self._closed[index]

    def _column_low(self, column: int) -> bool:
        if column in self.dead_columns:
            return False
        if column in self.shorted_columns:
            return True
        driven = self._driven
        if not driven:
            return False
        if not driven & (driven - 1):  # one row driven: the scan's usual case
            row = driven.bit_length() - 1
            return row not in self.dead_rows and self.switch_closed(row * SIZE + column)
        for row in range(SIZE):
            if driven >> row & 1 and row not in self.dead_rows:
                if self.switch_closed(row * SIZE + column):
                    return True
        return False

    def close(self) -> None:
        """Forget the pins (the matrix must be closed first)."""
        self.factory.reset()


def _line(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < SIZE:
        raise SimulatorError(f"a line number must be 0 to 8, got {n!r}")
