"""Opening the table's hardware: the real one on a Raspberry Pi, the simulator elsewhere.

``open_hardware(config)`` returns a :class:`Hardware` with the same parts either way: the
sensors (a :class:`~sudoku_table.firmware.matrix.ReedMatrix`), the display (a
:class:`~sudoku_table.firmware.leds.LedDisplay`) and, in the simulator, the simulated board whose
``set_square`` moves a piece.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero import GPIOZeroError
from gpiozero.pins.mock import MockPWMPin

from .buzzer import Buzzer
from .config import HardwareConfig
from .exc import HardwareUnavailable
from .leds import LedDisplay, pi_display, recording_display
from .matrix import ReedMatrix
from .ports import SensorEvent, SensorFault
from .problems import BOOT_CONFIG, HardwareProblem, diagnose
from .simulator import SimulatedBoard

log = logging.getLogger(__name__)

MODEL_PATH = Path("/proc/device-tree/model")


def on_raspberry_pi(model_path: str | os.PathLike[str] = MODEL_PATH) -> bool:
    """Whether this machine is a Raspberry Pi (its device tree says so)."""
    try:
        return Path(model_path).read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


class NoSensors:
    """The sensors of a table whose matrix could not be opened: no piece is ever felt (the
    panel says why; see :class:`~.problems.HardwareProblem`)."""

    def start(self, on_event: Callable[[SensorEvent], None],
              on_fault: Callable[[SensorFault], None] | None = None,
              on_felt: Callable[[SensorEvent], None] | None = None) -> None:
        """Nothing to scan."""

    def stop(self) -> None:
        """Nothing to stop."""

    def occupied(self) -> frozenset[str]:
        return frozenset()

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Hardware:
    """The opened table: sensors, display and (simulated only) the simulated board."""

    sensors: ReedMatrix | NoSensors
    display: LedDisplay
    simulator: SimulatedBoard | None = None
    config: HardwareConfig = field(default_factory=HardwareConfig)
    buzzer: Buzzer | None = None
    """The piezo buzzer; None when its pin could not be opened (``buzzer_error`` says why)."""
    buzzer_error: str | None = None
    problems: tuple[HardwareProblem, ...] = ()
    """Parts that could not be opened (the table runs without them, and says so)."""
    _closed: bool = field(default=False, repr=False)

    @property
    def is_simulated(self) -> bool:
        return self.simulator is not None

    def close(self) -> None:
        """Stop scanning, darken the LEDs and release the pins; idempotent."""
        if self._closed:
            return
        self._closed = True
        for part in (self.buzzer, self.sensors, self.display, self.simulator):
            if part is None:
                continue
            try:
                part.close()
            except Exception:  # closing goes on for the other parts
                log.exception("cannot close %r", part)

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_simulator(config: HardwareConfig) -> Hardware:
    """The simulated table: mock-pin matrix scanned by the real code, recording LEDs."""
    board = SimulatedBoard(config.sensors, config.simulator)
    try:
        sensors = ReedMatrix(config.sensors, pin_factory=board.factory)
    except BaseException:
        board.close()
        raise
    plain = board.factory.pin_class
    board.factory.pin_class = MockPWMPin  # a buzzer pin does PWM, as lgpio's pins do on a Pi
    try:
        buzzer, error = open_buzzer(config, board.factory)
    finally:
        board.factory.pin_class = plain
    return Hardware(sensors=sensors, display=recording_display(config.leds),
                    simulator=board, config=config, buzzer=buzzer, buzzer_error=error)


def open_buzzer(config: HardwareConfig,
                pin_factory: Any = None) -> tuple[Buzzer | None, str | None]:
    """The buzzer on its pin, or None and the reason: it is optional, so a pin that cannot be
    opened is reported (log and panel) and the table goes on without sound."""
    try:
        return Buzzer(config.buzzer, pin_factory=pin_factory), None
    except (GPIOZeroError, OSError) as e:
        log.warning("no buzzer on GPIO%d: %s", config.buzzer.pin, e)
        return None, f"GPIO{config.buzzer.pin}: {e}"


def open_real(config: HardwareConfig, pin_factory: Any = None) -> Hardware:
    """The real table: gpiozero's default pin factory and the LED chain of the configured
    driver."""
    sensors = ReedMatrix(config.sensors, pin_factory=pin_factory)
    try:
        display = pi_display(config.leds)
    except BaseException:
        sensors.close()
        raise
    buzzer, error = open_buzzer(config, pin_factory)
    return Hardware(sensors=sensors, display=display, config=config, buzzer=buzzer,
                    buzzer_error=error)


def open_degraded(config: HardwareConfig, pin_factory: Any = None,
                  boot_config: Path = BOOT_CONFIG) -> Hardware:
    """The real table with whatever parts open: a part that cannot be opened is left out (no
    pieces felt, or LEDs that show nothing), and :attr:`Hardware.problems` and the log say
    what is missing and how to fix it. The panel, the games and the journal run on."""
    problems: list[HardwareProblem] = []
    sensors: ReedMatrix | NoSensors
    try:
        sensors = ReedMatrix(config.sensors, pin_factory=pin_factory)
    except Exception as e:  # any failure to open: the panel must come up and say it
        problems.append(_problem("sensors", e, matrix_pins(config), boot_config))
        sensors = NoSensors()
    try:
        display = pi_display(config.leds)
    except Exception as e:  # as above
        problems.append(_problem("leds", e, {config.leds.data_pin: "the LED data line"},
                                 boot_config))
        display = recording_display(config.leds)
    buzzer, error = (None, None)
    if not problems:
        buzzer, error = open_buzzer(config, pin_factory)
    return Hardware(sensors=sensors, display=display, config=config, buzzer=buzzer,
                    buzzer_error=error, problems=tuple(problems))


def _problem(part: str, error: Exception, pins: dict[int, str],
             boot_config: Path) -> HardwareProblem:
    problem = diagnose(part, error, pins, boot_config)
    log.error("hardware missing: %s", problem.english())
    log.debug("opening the %s failed", part, exc_info=error)
    return problem


def matrix_pins(config: HardwareConfig) -> dict[int, str]:
    """The matrix's GPIOs and what each one is."""
    pins = {gpio: f"matrix row rank {i + 1}" for i, gpio in enumerate(config.sensors.rows)}
    pins.update({gpio: f"matrix column file {'abcdefghi'[i]}"
                 for i, gpio in enumerate(config.sensors.columns)})
    return pins


def open_hardware(config: HardwareConfig, simulate: bool | None = None,
                  degraded: bool = False) -> Hardware:
    """The table's hardware: ``simulate`` None means real on a Raspberry Pi, simulated
    elsewhere. ``degraded``: on the real table, leave out a part that cannot be opened (and
    say why in :attr:`Hardware.problems`) instead of raising."""
    if simulate is None:
        simulate = not on_raspberry_pi()
    if simulate:
        return open_simulator(config)
    if degraded:
        return open_degraded(config)
    try:
        return open_real(config)
    except (ImportError, NotImplementedError) as e:
        raise HardwareUnavailable(
            f"the LED or GPIO libraries of the Pi are not usable: {e} (install the project "
            "with its [pi] extra, or start with --sim)") from e
    except GPIOZeroError as e:  # a pin in use by another program, no permission, ..
        raise HardwareUnavailable(f"cannot open the table's GPIO pins: {e}") from e
