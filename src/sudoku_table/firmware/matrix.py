"""The reed-switch matrix: 9 row lines and 9 column lines, scanned in a thread.

Every switch sits in series with a diode (cathode to its row), so any pattern of pieces reads
correctly. The rows are open-drain: released (high impedance) while idle, driven low only while
selected. A pass selects one row at a time, lets the lines settle for ``line_settle_us``, and
reads the nine columns (pulled up) in one call: a column that reads low has a closed switch on
the selected row. One extra read with no row selected finds columns pulled to ground by
something else (a shorted column, or a row shorted to ground under a piece). The readings go
through :class:`Debouncer`, and its events and faults go to the listeners given to
:meth:`ReedMatrix.start`.

Why the settle: a column that a closed switch held low rises through its pull-up (33-73 kOhm
on a Pi) into some 50-150 pF of wire and pins, an RC of up to 11 us. Read sooner after the row
change, it still shows the previous row's low, and a piece would appear on the next rank too.
The settle is a time, not a number of instructions, so a faster Pi or Python cannot shorten it.

The lines come from the pin factory passed in (see :mod:`.lines`): lgpio's group calls on a Pi,
the simulator's electrical model elsewhere, so both run this very code.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from .config import SensorConfig
from .debounce import Debouncer
from .exc import HardwareError
from .layout import SIZE, SQUARES
from .lines import LineGroup, default_factory, group_pins
from .ports import SensorEvent, SensorFault

log = logging.getLogger(__name__)

EventListener = Callable[[SensorEvent], None]
FaultListener = Callable[[SensorFault], None]


class ReedMatrix:
    """The sensor source of the table: satisfies ``sudoku_table.firmware.ports.SensorSource``."""

    def __init__(self, config: SensorConfig, pin_factory: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.interval = config.scan_interval_ms / 1000
        """The time between scans while the board is quiet."""
        self.fast_interval = config.fast_scan_ms / 1000
        """The time between scans while a square is changing."""
        self.settle_seconds = config.line_settle_us / 1e6
        """How long the lines settle after each row change before the columns are read."""
        factory = default_factory() if pin_factory is None else pin_factory
        self._lines = group_pins(factory)
        self._rows: LineGroup | None = None
        self._columns: LineGroup | None = None
        try:
            self._rows = self._lines.claim_open_drain_group(config.rows, self)
            self._columns = self._lines.claim_input_group(config.columns, self)
        except BaseException:
            self._release()
            raise
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_event: EventListener | None = None
        self._on_fault: FaultListener | None = None
        self._on_felt: EventListener | None = None
        self.scans = 0
        """Full scans done so far."""
        self.late_scans = 0
        """Scans of the thread that started more than a scan interval late (a busy CPU)."""
        raw, idle = self.read()
        self.last_raw, self.last_idle = raw, idle
        """The last full reading (closed switches) and its idle read (shorted columns)."""
        self.debouncer = Debouncer(config, initial=raw & ~_columns_mask(idle), now=clock())
        self.faults: list[SensorFault] = []
        """The last 100 faults found (each also went to the fault listener)."""

    # --- reading ---------------------------------------------------------------------------

    def read(self) -> tuple[int, int]:
        """One full scan: the 81-bit mask of closed switches and the mask of columns that read
        closed with no row selected. Twenty calls to the lines: the idle read (after a settle:
        the pass before may have ended a moment ago), then for each row one write (select it,
        release the one before) and one read after the settle, and the final release."""
        rows, columns = self._rows, self._columns
        if rows is None or columns is None:
            raise HardwareError("the reed matrix is closed")
        settle, wait = self.settle_seconds, self._lines.settle
        released = (1 << SIZE) - 1
        wait(settle)
        idle = ~columns.read() & released
        raw = 0
        try:
            for row in range(SIZE):
                rows.write(released & ~(1 << row))
                wait(settle)
                raw |= (~columns.read() & released) << (row * SIZE)
        finally:
            rows.write(released)
        return raw, idle

    def scan_once(self) -> None:
        """Read once and pass any debounced change or fault on (the scan thread's step)."""
        raw, idle = self.read()
        now = self.clock()
        self.last_raw, self.last_idle = raw, idle
        with self._lock:
            update = self.debouncer.update(raw, now, idle)
            self.scans += 1
            on_event, on_fault, on_felt = self._on_event, self._on_fault, self._on_felt
            if update.faults:
                self.faults.extend(update.faults)
                del self.faults[:-100]
        for fault in update.faults:
            log.warning("sensor fault: %s", fault.detail)
            if on_fault is not None:
                _call(on_fault, fault)
        if on_felt is not None:
            for event in update.felt:
                _call(on_felt, event)
        for event in update.events:
            if on_event is not None:
                _call(on_event, event)

    def next_interval(self) -> float:
        """How long until the next scan: short while a square is changing."""
        return self.fast_interval if self.debouncer.busy else self.interval

    # --- SensorSource ------------------------------------------------------------------------

    def listen(self, on_event: EventListener | None,
               on_fault: FaultListener | None = None,
               on_felt: EventListener | None = None) -> None:
        """Set the listeners without starting the thread (then :meth:`scan_once` drives).
        ``on_event`` hears confirmed changes (they count), ``on_felt`` tentative ones (LED
        feedback only; every confirmed change was felt first)."""
        with self._lock:
            if self._rows is None:
                raise HardwareError("the reed matrix is closed")
            self._on_event, self._on_fault, self._on_felt = on_event, on_fault, on_felt

    def start(self, on_event: EventListener, on_fault: FaultListener | None = None,
              on_felt: EventListener | None = None) -> None:
        """Scan in a background thread, calling the listeners from it."""
        self.listen(on_event, on_fault, on_felt)
        with self._lock:
            if self._thread is not None:
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="reed-matrix", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop scanning (idempotent); the devices stay open until :meth:`close`."""
        with self._lock:
            thread, self._thread = self._thread, None
            self._on_event = self._on_fault = self._on_felt = None
        self._stop.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)

    def occupied(self) -> frozenset[str]:
        """The confirmed squares that hold a piece."""
        reported = self.debouncer.reported
        return frozenset(SQUARES[i] for i in range(SIZE * SIZE) if reported >> i & 1)

    def felt(self) -> frozenset[str]:
        """The squares that hold a piece in the tentative state (what the LEDs were told)."""
        felt = self.debouncer.felt
        return frozenset(SQUARES[i] for i in range(SIZE * SIZE) if felt >> i & 1)

    def close(self) -> None:
        """Stop and release the pins; idempotent."""
        self.stop()
        with self._lock:
            self._release()

    def _conflicts_with(self, other: object) -> bool:
        """gpiozero's reservations ask this: no other device may share the matrix's lines."""
        return True

    @property
    def running(self) -> bool:
        return self._thread is not None

    def _release(self) -> None:
        for group in (self._rows, self._columns):
            if group is None:
                continue
            try:
                group.close()
            except Exception:  # closing goes on for the other group
                log.exception("cannot close %r", group)
        self._rows = self._columns = None

    def _run(self) -> None:
        next_scan = time.monotonic()
        while not self._stop.is_set():
            try:
                self.scan_once()
            except Exception:  # a broken read must not end scanning for good
                log.exception("the reed matrix could not be read")
                if self._stop.wait(0.5):
                    return
            interval = self.next_interval()
            next_scan += interval
            delay = next_scan - time.monotonic()
            if delay < 0:  # fell behind (a busy machine): do not try to catch up
                if delay < -interval:
                    self.late_scans += 1
                next_scan = time.monotonic()
                delay = 0
            if self._stop.wait(delay):
                return

    def __enter__(self) -> ReedMatrix:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _columns_mask(idle: int) -> int:
    mask = 0
    for c in range(SIZE):
        if idle >> c & 1:
            mask |= sum(1 << (r * SIZE + c) for r in range(SIZE))
    return mask


def _call(listener: Callable[[Any], None], value: Any) -> None:
    try:
        listener(value)
    except Exception:  # a listener's bug must not stop the scanner
        log.exception("a sensor listener failed on %r", value)
