"""The scan the table had before the open-drain scan, kept as it was so that the ghost tests
and the Pi scan bench compare the new scan with it: rows idle high as push-pull outputs, one
driven low at a time, its nine columns read one by one straight after, through gpiozero's pins."""

from __future__ import annotations

from typing import Any

from gpiozero import DigitalOutputDevice, InputDevice

from sudoku_table.firmware.config import SensorConfig
from sudoku_table.firmware.layout import SIZE


class TodaysScan:
    """The scan as the table had it: rows idle high (push-pull), one row driven low, its nine
    columns read one by one straight after, through gpiozero's pins."""

    def __init__(self, config: SensorConfig, factory: Any) -> None:
        self._rows = [DigitalOutputDevice(g, active_high=False, initial_value=False,
                                          pin_factory=factory) for g in config.rows]
        self._columns = [InputDevice(g, pull_up=True, pin_factory=factory)
                         for g in config.columns]

    def read(self) -> tuple[int, int]:
        pins = [device.pin for device in self._columns]
        idle = 0
        for c, pin in enumerate(pins):
            if not pin.state:
                idle |= 1 << c
        raw = 0
        shift = 0
        for device in self._rows:
            row = device.pin
            row.state = False  # drive this row low
            try:
                for c, pin in enumerate(pins):
                    if not pin.state:
                        raw |= 1 << (shift + c)
            finally:
                row.state = True  # back to idle (high)
            shift += SIZE
        return raw, idle

    def close(self) -> None:
        for device in [*self._rows, *self._columns]:
            device.close()

    def scan_once(self) -> None:
        """One pass, its result dropped (what the bench times)."""
        self.read()
