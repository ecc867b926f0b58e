"""The reed-switch matrix: 9 row outputs and 9 column inputs, scanned in a thread.

Every switch sits in series with a diode (cathode to its row), so any pattern of pieces reads
correctly. Rows idle high; a scan drives one row low at a time and reads the columns, which have
pull-ups: a column that reads low has a closed switch on the driven row. One extra read with no
row driven finds columns shorted to ground. The readings go through :class:`Debouncer`, and its
events and faults go to the listeners given to :meth:`ReedMatrix.start`.

The devices are built on the pin factory passed in (gpiozero's default on a Pi, a
``MockFactory`` with matrix pins in the simulator), so both run this very code.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalOutputDevice, InputDevice

from .config import SensorConfig
from .debounce import Debouncer
from .exc import HardwareError
from .layout import SIZE, SQUARES
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
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[InputDevice] = []
        try:
            for gpio in config.rows:
                # active_high=False: on() drives the row low; off() (idle) keeps it high.
                self._rows.append(DigitalOutputDevice(gpio, active_high=False,
                                                      initial_value=False,
                                                      pin_factory=pin_factory))
            for gpio in config.columns:
                # InputDevice, not DigitalInputDevice: the scan polls, so the columns need no
                # edge detection (on lgpio that is an alert thread and a Python callback for
                # every edge the scan itself makes on a column).
                self._columns.append(InputDevice(gpio, pull_up=True,
                                                 pin_factory=pin_factory))
        except BaseException:
            self._release()
            raise
        # The devices own and set up the pins; the scan then uses the pins' states directly,
        # which is 2-3x faster than going through ``device.value`` / ``on()`` / ``off()``.
        self._row_pins = [device.pin for device in self._rows]
        self._column_pins = [device.pin for device in self._columns]
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
        closed with no row driven."""
        pins = self._column_pins
        idle = 0
        for c, pin in enumerate(pins):
            if not pin.state:
                idle |= 1 << c
        raw = 0
        shift = 0
        for row in self._row_pins:
            row.state = False  # drive this row low
            try:
                for c, pin in enumerate(pins):
                    if not pin.state:
                        raw |= 1 << (shift + c)
            finally:
                row.state = True  # back to idle (high)
            shift += SIZE
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
            if not self._rows:
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

    @property
    def running(self) -> bool:
        return self._thread is not None

    def _release(self) -> None:
        for device in [*self._rows, *self._columns]:
            try:
                device.close()
            except Exception:  # closing goes on for the others
                log.exception("cannot close %r", device)
        self._rows, self._columns, self._row_pins, self._column_pins = [], [], [], []

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
