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
chattering switch, a reversed diode, a row shorted to ground.

The lines are electrical (:class:`LinePhysics`), on a clock of their own in nanoseconds that
every call into the pins moves on by ``call_us`` and a settle by its length: a column rises
through its pull-up into its capacitance (an RC of up to 11 us) and reads high only once it
crossed the input's threshold; a row is driven low, driven high (a push-pull output) or
released, and a push-pull output that meets ground or a low output through the switches is
counted as a fight (a current no GPIO is rated for). So a scan that reads too soon after a row
change sees the previous row's low, and one that drives idle rows high fights a reversed diode
or a shorted row, in the simulator as on the table.

The pins keep no state history (``MockPin`` keeps every change forever, tens of MB an hour),
and the factory is private to the simulator: gpiozero's global pin factory is left alone.
"""

from __future__ import annotations

import bisect
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from gpiozero.pins.mock import MockFactory, MockPin

from .config import SensorConfig, SimulatorConfig
from .exc import SimulatorError
from .layout import SIZE, square_index
from .lines import pin_names
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


RowMode = Literal["released", "low", "high"]
"""What a row's GPIO does: high impedance, driven low, or driven high (push-pull)."""


@dataclass(frozen=True)
class LinePhysics:
    """The electrical figures of the matrix's lines (the defaults are the worst case of a
    Raspberry Pi build: the weakest pull-up and the longest wires)."""

    pull_up_ohm: float = 73_000.0
    """The GPIO's internal pull-up: 33-73 kOhm on a Pi (BCM2711 and RP1 datasheets)."""
    line_pf: float = 150.0
    """A column's capacitance: its wire under the board, the diodes and the pin (50-150 pF)."""
    supply_v: float = 3.3
    diode_v: float = 0.45
    """A 1N4148's forward voltage at the tens of microamps a pull-up passes."""
    driver_ohm: float = 40.0
    """A GPIO output's resistance, low or high."""
    low_v: float = 0.8
    """The input reads low at or below this (VIL), high at or above ``high_v`` (VIH); in
    between it keeps what it last read."""
    high_v: float = 2.0
    call_us: float = 3.5
    """The time one call into the pins takes (Python and the kernel): on a Pi 5 the first
    column read comes some 7 us after the row change that went before it."""

    def __post_init__(self) -> None:
        positive = ("pull_up_ohm", "line_pf", "supply_v", "driver_ohm", "call_us")
        if any(not getattr(self, name) > 0 for name in positive):
            raise SimulatorError(f"{', '.join(positive)} must be above 0")
        if not 0 <= self.diode_v < self.low_v < self.high_v < self.supply_v:
            raise SimulatorError("the levels must rise: 0 <= diode_v < low_v < high_v < supply_v")


class RowPin(QuietMockPin):
    """A row line driven one pin at a time: tells the board how it drives its row."""

    def __init__(self, factory: Any, info: Any, board: SimulatedBoard, row: int) -> None:
        self._board = board
        self._row = row
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and self._function == "output":
            self._board._drive_rows({self._row: "high" if value else "low"})
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        mode: RowMode = "released"
        if value == "output":
            mode = "high" if self._state else "low"
        self._board._drive_rows({self._row: mode})


class ColumnPin(QuietMockPin):
    """A column line with its pull-up, read one pin at a time: its level comes from the
    board's electrical model at the line clock's time."""

    def __init__(self, factory: Any, info: Any, board: SimulatedBoard, column: int) -> None:
        self._board = board
        self._column = column
        super().__init__(factory, info)

    def _get_state(self) -> bool:
        if self._function == "input" and self._pull == "up":
            return self._board._read_columns((self._column,)) == 1
        return bool(self._state)

    def _set_pull(self, value: str) -> None:
        # Applying the pull-up only sets the idle level; a closed switch still wins on reading.
        super()._set_pull(value)


class SimulatedGroup:
    """Some of the matrix's lines claimed as a group of the simulated factory."""

    def __init__(self, board: SimulatedBoard, gpios: Sequence[int], requester: object,
                 open_drain: bool) -> None:
        self._board = board
        self._requester = requester
        self._names = pin_names(gpios)
        wanted = board.rows if open_drain else board.columns
        try:
            self._lines = tuple(wanted.index(gpio) for gpio in gpios)
        except ValueError:
            kind = "rows" if open_drain else "columns"
            raise SimulatorError(f"GPIOs {list(gpios)} are not all the simulated board's "
                                 f"{kind} {list(wanted)}") from None
        self._open_drain = open_drain
        board.factory.reserve_pins(requester, *self._names)
        self._open = True
        if open_drain:
            self.write((1 << len(self._lines)) - 1)

    def read(self) -> int:
        if self._open_drain:  # a row reads what drives it: released rows are pulled up
            return self._board._row_levels(self._lines)
        return self._board._read_columns(self._lines)

    def write(self, bits: int) -> None:
        if not self._open_drain:
            raise SimulatorError("an input group cannot be written")
        self._board._write_rows(self._lines, bits)

    def close(self) -> None:
        if self._open:
            self._open = False
            if self._open_drain:
                self._board._drive_rows(dict.fromkeys(self._lines, "released"))
            self._board.factory.release_pins(self._requester, *self._names)


class SimulatedFactory(MockFactory):
    """The simulator's pin factory: gpiozero's mock pins plus the group calls of
    :class:`~sudoku_table.firmware.lines.GroupPins`, on the board's electrical model."""

    def __init__(self, board: SimulatedBoard) -> None:
        super().__init__()
        self.board = board

    def claim_input_group(self, gpios: Sequence[int], requester: object) -> SimulatedGroup:
        return SimulatedGroup(self.board, gpios, requester, open_drain=False)

    def claim_open_drain_group(self, gpios: Sequence[int],
                               requester: object) -> SimulatedGroup:
        return SimulatedGroup(self.board, gpios, requester, open_drain=True)

    def settle(self, seconds: float) -> None:
        self.board.line_time_ns += round(seconds * 1e9)


class _Column:
    """A column line's voltage: it moves from ``v0`` at ``t0`` towards ``target`` with the
    time constant ``tau_ns``; ``high`` is what the input last read."""

    __slots__ = ("high", "t0", "target", "tau_ns", "v0")

    def __init__(self, volts: float, tau_ns: float) -> None:
        self.v0 = self.target = volts
        self.t0 = 0
        self.tau_ns = tau_ns
        self.high = True

    def volts(self, t_ns: int) -> float:
        elapsed = t_ns - self.t0
        if elapsed <= 0 or self.v0 == self.target:
            return self.v0
        if elapsed > 30 * self.tau_ns:  # settled to within 1e-13 of the way
            return self.target
        return self.target + (self.v0 - self.target) * math.exp(-elapsed / self.tau_ns)


class SimulatedBoard:
    """81 simulated reed switches wired as a diode matrix on a private ``MockFactory``."""

    def __init__(self, sensors: SensorConfig, simulator: SimulatorConfig | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 physics: LinePhysics | None = None) -> None:
        config = simulator or SimulatorConfig()
        self.clock = clock
        self.noise = NoiseModel(config.seed, config.bounce_ms)
        """The physical noise (bounce, flicker); reproducible from the config's seed."""
        self.physics = physics or LinePhysics()
        self.rows = tuple(sensors.rows)
        self.columns = tuple(sensors.columns)
        self.line_time_ns = 0
        """The lines' clock: every call into the pins moves it on, and it never falls behind
        the board's clock."""
        self._row_modes: list[RowMode] = ["released"] * SIZE
        self._columns_v: list[_Column] = [
            _Column(self.physics.supply_v, self._tau_ns(1 / self.physics.pull_up_ohm))
            for _ in range(SIZE)]
        self._levels: dict[tuple[int, int, bool], tuple[float, float]] = {}
        self.reversed_diodes: set[int] = set()
        """Squares whose diode was soldered the wrong way round."""
        self.shorted_rows: set[int] = set()
        """Rows whose line touches ground."""
        self.fights = 0
        """Times a push-pull output met ground or a low output through the matrix."""
        self.fight_details: list[str] = []
        """The first few fights, described."""
        self.factory = SimulatedFactory(self)
        self._lock = threading.Lock()
        self._closed = [False] * (SIZE * SIZE)
        """What a hand has done: a piece on the square closes its switch."""
        self._stuck: dict[int, bool] = {}
        self._timelines: dict[int, Timeline] = {}
        self._chatter: dict[int, tuple[float, float, float]] = {}
        """Square to (start, end, period) of an injected regular chatter."""
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
        self._lines_changed()

    def set_dead_column(self, column: int, dead: bool = True) -> None:
        """Break column line ``column`` (0-8, file): it always reads its pull-up."""
        _line(column)
        (self.dead_columns.add if dead else self.dead_columns.discard)(column)
        self._lines_changed()

    def set_shorted_column(self, column: int, shorted: bool = True) -> None:
        """Short column line ``column`` to ground: it reads closed on every row."""
        _line(column)
        (self.shorted_columns.add if shorted else self.shorted_columns.discard)(column)
        self._lines_changed()

    def set_reversed_diode(self, square: str, reversed_: bool = True) -> None:
        """Solder ``square``'s diode the wrong way round (anode to the row): its switch then
        never pulls its column low, and a row driven high pushes current into the column."""
        i = square_index(square)
        (self.reversed_diodes.add if reversed_ else self.reversed_diodes.discard)(i)
        self._lines_changed()

    def set_shorted_row(self, row: int, shorted: bool = True) -> None:
        """Short row line ``row`` to ground: its closed switches pull their columns low
        whatever row is selected, and a push-pull output driving it high fights the short."""
        _line(row)
        (self.shorted_rows.add if shorted else self.shorted_rows.discard)(row)
        self._lines_changed()

    # --- the electrical model ---------------------------------------------------------------

    def _tau_ns(self, conductance: float) -> float:
        return self.physics.line_pf * 1e-12 / conductance * 1e9

    def _lines_changed(self) -> None:
        """A fault came or went now (on the board's clock): the lines head for their new
        levels from now on, not from the next call into the pins."""
        self.line_time_ns = max(self.line_time_ns, round(self.clock() * 1e9))
        self._retarget(self.line_time_ns)

    def _tick(self) -> int:
        """One call into the pins: the line clock moves on (and catches up with the board's)."""
        board_ns = round(self.clock() * 1e9)
        self.line_time_ns = max(self.line_time_ns + round(self.physics.call_us * 1e3),
                                board_ns)
        return self.line_time_ns

    def _drive_rows(self, modes: dict[int, RowMode]) -> None:
        """A call that changes how rows are driven: the columns head for their new levels."""
        now = self._tick()
        for row, mode in modes.items():
            self._row_modes[row] = mode
        self._retarget(now)

    def _write_rows(self, rows: Sequence[int], bits: int) -> None:
        """An open-drain group write: bit clear drives that row low, bit set releases it."""
        now = self._tick()
        modes = self._row_modes
        for i, row in enumerate(rows):
            modes[row] = "released" if bits >> i & 1 else "low"
        self._retarget(now)

    def _row_levels(self, rows: Sequence[int]) -> int:
        """What the row lines read: low when driven low or shorted, else high."""
        self._tick()
        bits = 0
        for i, row in enumerate(rows):
            if self._row_modes[row] != "low" and row not in self.shorted_rows:
                bits |= 1 << i
        return bits

    def _read_columns(self, columns: Sequence[int]) -> int:
        """One call reading ``columns``: bit ``i`` set when ``columns[i]`` reads high."""
        now = self._tick()
        high_v, low_v = self.physics.high_v, self.physics.low_v
        lines = self._columns_v
        bits = 0
        for i, column in enumerate(columns):
            line = lines[column]
            volts = line.target if line.v0 == line.target else line.volts(now)
            if volts >= high_v:
                line.high = True
            elif volts <= low_v:
                line.high = False
            if line.high:
                bits |= 1 << i
        return bits

    def _retarget(self, now: int) -> None:
        """Every column's steady level and time constant for the rows and switches as they are
        now (the resistors, diodes and outputs on it as one source), starting from the voltage
        it has now; fights found on the way are counted."""
        modes = self._row_modes
        dead = self.dead_rows
        board_now = self.clock()
        faults = (self.reversed_diodes or self.shorted_columns or self.dead_columns
                  or self.shorted_rows or dead or "high" in modes)
        if not faults and modes.count("low") <= 1:  # the scan's usual case: quick
            self._retarget_one(now, modes.index("low") if "low" in modes else None, board_now)
            return
        low_rows = [r for r in range(SIZE) if r not in dead
                    and (modes[r] == "low" or r in self.shorted_rows)]
        high_rows = [r for r in range(SIZE) if modes[r] == "high" and r not in dead]
        for row in high_rows:
            if row in self.shorted_rows:
                self._fight(f"row {row + 1} is driven high into its short to ground")
        for column, line in enumerate(self._columns_v):
            lows = highs = 0
            for row in low_rows:
                index = row * SIZE + column
                if index not in self.reversed_diodes and self.switch_closed(index, board_now):
                    lows += 1
            if faults:
                if column in self.dead_columns:
                    lows = 0
                for row in high_rows:
                    index = row * SIZE + column
                    if index in self.reversed_diodes and self.switch_closed(index, board_now):
                        highs += 1
                if highs and (lows or column in self.shorted_columns):
                    self._fight(f"column {column + 1}: a row driven high meets a low through "
                                "a reversed diode")
            target, tau_ns = self._level(lows, highs, column in self.shorted_columns)
            if target != line.target:
                line.v0 = line.volts(now)
                line.t0 = now
                line.target = target
                line.tau_ns = tau_ns

    def _retarget_one(self, now: int, row: int | None, board_now: float) -> None:
        """:meth:`_retarget` with no fault and at most one row low."""
        idle = self._level(0, 0, False)
        pulled = self._level(1, 0, False)
        base = -1 if row is None else row * SIZE
        quiet = not self._timelines and not self._chatter and not self._stuck
        closed = self._closed
        for column, line in enumerate(self._columns_v):
            if base < 0:
                target, tau_ns = idle
            elif quiet:
                target, tau_ns = pulled if closed[base + column] else idle
            else:
                target, tau_ns = (pulled if self.switch_closed(base + column, board_now)
                                  else idle)
            if target != line.target:
                line.v0 = line.volts(now)
                line.t0 = now
                line.target = target
                line.tau_ns = tau_ns

    def _level(self, lows: int, highs: int, shorted: bool) -> tuple[float, float]:
        """A column's steady voltage and time constant with its pull-up, ``lows`` outputs
        pulling it low through a diode, ``highs`` pushing it high through one, and a short to
        ground (the one source they make together)."""
        key = (lows, highs, shorted)
        cached = self._levels.get(key)
        if cached is None:
            physics = self.physics
            conductance = 1 / physics.pull_up_ohm + (lows + highs) / physics.driver_ohm
            current = (physics.supply_v / physics.pull_up_ohm
                       + lows * physics.diode_v / physics.driver_ohm
                       + highs * (physics.supply_v - physics.diode_v) / physics.driver_ohm)
            if shorted:
                conductance += 1 / physics.driver_ohm
            cached = self._levels[key] = (current / conductance, self._tau_ns(conductance))
        return cached

    def _fight(self, detail: str) -> None:
        self.fights += 1
        if len(self.fight_details) < 20:
            self.fight_details.append(detail)

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
