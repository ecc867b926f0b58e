"""The simulated table's sensors: gpiozero mock pins that behave like the diode matrix.

:class:`SimulatedBoard` holds the 81 simulated reed switches. Its row pins tell it which row is
driven low; its column pins compute their level when read: low when a closed switch sits on a
driven row, high (the pull-up) otherwise. The real :class:`~sudoku_table.firmware.matrix.ReedMatrix`
scans them through gpiozero exactly as it scans a real table.

What a hand does becomes a timeline of contact changes per square, played against the board's
clock: contact bounce after every make and break, a magnet slid across squares, a weak magnet
flickering, pieces put down at given times (two hands at once), all drawn from the physical
noise model of :mod:`sudoku_table.firmware.noise` with the config's seed. Faults can be injected
too: a stuck switch, a dead (broken) row or column, a column shorted to ground, a regularly
chattering switch.

The pins keep no state history (``MockPin`` keeps every change forever, tens of MB an hour),
and the factory is private to the simulator: gpiozero's global pin factory is left alone.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from gpiozero.pins.mock import MockFactory, MockPin

from .config import SensorConfig, SimulatorConfig
from .exc import SimulatorError
from .layout import SIZE, square_index
from .noise import NoiseModel, Slide, Transition, follow

if TYPE_CHECKING:
    from .matrix import ReedMatrix

Timeline = tuple[bool, list[float], list[bool]]
"""A square's scheduled contact changes: the state before the first, then times and states."""


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
        config = simulator or SimulatorConfig()
        self.clock = clock
        self.noise = NoiseModel(config.seed, config.bounce_ms)
        """The physical noise (bounce, flicker); reproducible from the config's seed."""
        self.factory = MockFactory()
        self._lock = threading.Lock()
        self._closed = [False] * (SIZE * SIZE)
        """What a hand has done: a piece on the square closes its switch."""
        self._stuck: dict[int, bool] = {}
        self._timelines: dict[int, Timeline] = {}
        self._chatter: dict[int, tuple[float, float, float]] = {}
        """Square to (start, end, period) of an injected regular chatter."""
        self._driven = 0
        self.dead_rows: set[int] = set()
        self.dead_columns: set[int] = set()
        self.shorted_columns: set[int] = set()
        for row, gpio in enumerate(sensors.rows):
            self.factory.pin(gpio, pin_class=RowPin, board=self, row=row)
        for column, gpio in enumerate(sensors.columns):
            self.factory.pin(gpio, pin_class=ColumnPin, board=self, column=column)

    # --- what a hand does ------------------------------------------------------------------

    def set_square(self, square: str, occupied: bool, at: float | None = None) -> None:
        """Put a piece on ``square`` (close its switch) or lift it, now or at the board-clock
        time ``at``; the contact bounces first. Two hands at once: two calls a few ms apart."""
        if not isinstance(occupied, bool):
            raise SimulatorError(f"occupied must be True or False, got {occupied!r}")
        i = square_index(square)
        with self._lock:
            if self._closed[i] == occupied:
                return
            self._closed[i] = occupied
            when = self.clock() if at is None else at
            self._schedule(i, self.noise.bounce(when, occupied), not occupied)

    def slide(self, path: Iterable[str], speed: float, *, at: float | None = None,
              reach_mm: float = 4.0, release_mm: float = 5.0, from_rest: bool = False,
              rest: bool = False) -> Slide:
        """Slide a piece along the centres of ``path`` at ``speed`` m/s (see
        :class:`~sudoku_table.firmware.noise.Slide`): every reed it passes closes briefly, with
        bounce. ``from_rest``: the piece stood on the first square; ``rest``: it stays on the last,
        otherwise it is lifted off beyond it. Returns the slide (its ``end`` is when it stops)."""
        with self._lock:
            when = self.clock() if at is None else at
            move = Slide(tuple(path), speed, when, reach_mm, release_mm, from_rest, rest)
            first = square_index(move.path[0])
            if from_rest and not self._closed[first]:
                raise SimulatorError(f"no piece stands on {move.path[0]} to slide from")
            for square in move.path[0 if not from_rest else 1:]:
                if self._closed[square_index(square)]:
                    raise SimulatorError(f"a piece stands on {square}: a slide cannot pass it")
            for index, changes in self.noise.slide(move).items():
                if self._closed[index] and not (from_rest and index == first):
                    continue  # a piece stands there: its reed is closed and stays closed
                if changes:
                    self._schedule(index, changes, self._closed[index])
                    self._closed[index] = changes[-1][1]
            if from_rest:
                self._closed[first] = False
            last = square_index(move.path[-1])
            if rest:
                self._closed[last] = True
            return move

    def flicker(self, square: str, seconds: float, at: float | None = None) -> None:
        """A weak magnet at the edge of ``square``'s range for ``seconds``: random closed and
        open runs of 1-50 ms; afterwards the switch shows what the hand left there."""
        i = square_index(square)
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not (
                0 < seconds <= 86400):
            raise SimulatorError(f"a flicker lasts more than 0 and at most 86400 s, "
                                 f"got {seconds!r}")
        with self._lock:
            when = self.clock() if at is None else at
            self._schedule(i, self.noise.flicker(when, seconds, self._closed[i]),
                           self._closed[i])

    def square(self, square: str) -> bool:
        """Whether a piece stands on ``square`` (what the hand did, not what the switch says)."""
        return self._closed[square_index(square)]

    def clear(self) -> None:
        """Lift every piece."""
        with self._lock:
            self._closed = [False] * (SIZE * SIZE)
            self._timelines.clear()
            self._chatter.clear()

    def _schedule(self, index: int, changes: list[Transition], before: bool) -> None:
        """Add contact changes to a square's timeline (under the lock); ``before`` is the
        contact's state before them when the square has no timeline yet."""
        timeline = self._timelines.get(index)
        times: list[float] = []
        states: list[bool] = []
        if timeline is None:
            base = before
        else:  # what the contact was still doing is cut short by the new make or break
            base, times, states = timeline
            keep = bisect.bisect_left(times, changes[0][0]) if changes else len(times)
            times, states = times[:keep], states[:keep]
        ordered = follow([], sorted(changes, key=lambda c: c[0]))
        times += [t for t, _ in ordered]
        states += [state for _, state in ordered]
        self._timelines[index] = (base, times, states)  # one assignment: the scan thread reads

    # --- injected faults --------------------------------------------------------------------

    def chatter(self, square: str, seconds: float, period: float = 0.01) -> None:
        """Make ``square``'s switch flip every ``period`` seconds for ``seconds`` (a failing
        switch; :meth:`flicker` is the irregular flicker of a weak magnet)."""
        i = square_index(square)
        with self._lock:
            now = self.clock()
            self._chatter[i] = (now, now + seconds, period)
            self._timelines.pop(i, None)

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
        """Whether the switch of square ``index`` conducts now (noise and faults included)."""
        stuck = self._stuck.get(index)
        if stuck is not None:
            return stuck
        if not self._timelines and not self._chatter:
            return self._closed[index]
        now = self.clock() if now is None else now
        chatter = self._chatter.get(index)
        if chatter is not None:
            start, end, period = chatter
            if now >= end:
                self._chatter.pop(index, None)
            elif now >= start:
                flips = int((now - start) / period)
                return self._closed[index] if flips % 2 else not self._closed[index]
        timeline = self._timelines.get(index)
        if timeline is not None:
            base, times, states = timeline
            k = bisect.bisect_right(times, now)
            if k < len(times):
                return base if k == 0 else states[k - 1]
            with self._lock:  # played out: the hand's state from now on
                if self._timelines.get(index) is timeline:
                    del self._timelines[index]
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


class ManualClock:
    """A clock that moves only when told to: runs the simulated table faster than real time
    (tests, the bench), with the board and the matrix reading the same time."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def scan_until(matrix: ReedMatrix, clock: ManualClock, until: float,
               after_scan: Callable[[], None] | None = None) -> int:
    """Scan ``matrix`` on ``clock`` until ``until``, at the intervals its scan thread would use
    (fast while a square is changing); ``after_scan`` runs after each scan. The scans done."""
    scans = 0
    while True:
        step = matrix.next_interval()
        if clock.now + step > until + 1e-12:
            break
        clock.now += step
        matrix.scan_once()
        scans += 1
        if after_scan is not None:
            after_scan()
    return scans
