"""How far the Pi's LED stack gets on this machine, step by step.

Run with the project installed (its ``pi`` extra; ``pi-neopixel`` too for ``--driver
neopixel``) and Blinka forced to a board::

    BLINKA_FORCEBOARD=RASPBERRY_PI_4B BLINKA_FORCECHIP=BCM2XXX python hardware/led_probe.py

It imports what the firmware imports on a Pi, in the order it does (Blinka's platform
detection, ``board``, ``busio``, the driver's module, the firmware's LED module), then opens the
LED chain the way ``sudoku-table serve`` does. Each step prints one line, ``ok`` or ``STOP`` with
the error and the place it was raised, and the steps after a STOP still run. Off a Pi the
chain's device (``/dev/spidev0.0``, ``/dev/gpiochip0``, ``/dev/pio0``) is missing, so opening it
is expected to stop; those steps tell only how far it came.

Exit status: 0 when every import worked (whatever opening the chain did), 1 when an import
failed, 2 when Blinka does not see a 40-pin Raspberry Pi.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# What the service sets (systemd/sudoku-table.service): Blinka must never offer to pip-install.
os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")

ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("sudoku_table") is None:  # the installed project comes first
    sys.path.append(str(ROOT / "src"))

DISTRIBUTIONS = ("Adafruit-Blinka", "Adafruit-PlatformDetect", "adafruit-circuitpython-neopixel",
                 "adafruit-circuitpython-neopixel-spi", "adafruit-circuitpython-pixelbuf",
                 "Adafruit-Blinka-Raspberry-Pi5-Neopixel", "Adafruit-Blinka-Raspberry-Pi-PWM",
                 "rpi-ws281x", "spidev", "gpiod", "lgpio", "gpiozero")


def where(error: BaseException) -> str:
    """The file and line where an error was raised, shortened to the package path."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    frame = frames[-1]
    name = frame.filename
    for marker in ("site-packages/", "dist-packages/"):
        if marker in name:
            name = name.split(marker, 1)[1]
            break
    else:
        try:
            name = str(Path(name).resolve().relative_to(ROOT))
        except ValueError:
            pass
    return f"{name}:{frame.lineno}"


def step(label: str, action: Callable[[], Any]) -> tuple[bool, Any]:
    """Run one step and print ``ok LABEL: detail`` or ``STOP LABEL: error (at file:line)``."""
    try:
        value = action()
    except BaseException as e:  # SystemExit and KeyboardInterrupt from a library count too
        if isinstance(e, KeyboardInterrupt):
            raise
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        print(f"STOP {label}: {type(e).__name__}: {message} (at {where(e)})", flush=True)
        return False, e
    detail = value if isinstance(value, str) else ""
    print(f"ok   {label}{': ' + detail if detail else ''}", flush=True)
    return True, value


def versions() -> str:
    """The installed versions of the distributions of the LED and GPIO stack."""
    found = []
    for name in DISTRIBUTIONS:
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return ", ".join(found)


def detect() -> str:
    """Blinka's platform detection, as ``board`` will see it."""
    from adafruit_platformdetect import Detector

    detector = Detector()
    board_id, chip_id = detector.board.id, detector.chip.id
    if not (detector.board.any_raspberry_pi_40_pin or detector.board.any_raspberry_pi_5_board):
        raise RuntimeError(f"board {board_id} (chip {chip_id}) is not a 40-pin Raspberry Pi")
    return f"board {board_id}, chip {chip_id}"


def platform_packages() -> str:
    """The packages Blinka's own dependency check asks for on a real Pi of the forced kind,
    and which of them are missing here.

    Blinka's check keys on the Pi's revision code (``/proc/cpuinfo``), which a forced board
    does not have, so it is asked with the board's answers of a real Pi.
    """
    try:
        dependencies = importlib.import_module("adafruit_blinka.platform_dependencies")
    except ImportError:
        return "this Blinka has no dependency check"
    from adafruit_platformdetect import Detector

    pi5 = Detector().board.any_raspberry_pi_5_board
    real_pi = SimpleNamespace(board=SimpleNamespace(any_raspberry_pi=True,
                                                    any_raspberry_pi_5_board=pi5,
                                                    any_jetson_board=False),
                              chip=SimpleNamespace(id="BCM2XXX"))
    wanted = dependencies.get_platform_dependencies(real_pi)
    missing = [requirement for module, requirement in wanted
               if importlib.util.find_spec(module) is None]
    listed = ", ".join(requirement for _, requirement in wanted)
    if missing:
        return f"{listed}; MISSING here: {', '.join(missing)}"
    return f"{listed}; all importable"


def import_module(name: str) -> Callable[[], str]:
    """A step that imports one module and names the file it came from."""

    def action() -> str:
        module = importlib.import_module(name)
        origin = getattr(module, "__file__", None) or "built in"
        return where_file(origin)

    return action


def where_file(path: str) -> str:
    """A module's file, shortened to the package path."""
    for marker in ("site-packages/", "dist-packages/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def import_failed(error: BaseException) -> bool:
    """Whether an error is a module that could not be imported (Python's own ImportError, or
    Blinka's RuntimeError for a platform library it did not find), not a missing device."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ImportError) or where(seen).startswith("adafruit_blinka/importing.py"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def open_spi_bus() -> str:
    """Open SPI0 through Blinka, as ``board.SPI()`` does for the ``spi`` driver."""
    import board

    bus = board.SPI()
    try:
        return f"opened: {type(bus).__name__}"
    finally:
        bus.deinit()


def open_chain(driver: str) -> Callable[[], str]:
    """A step that opens the LED chain exactly as the firmware does on a Pi, then closes it."""

    def action() -> str:
        from sudoku_table.firmware.config import LedConfig
        from sudoku_table.firmware.leds import pi_display

        display = pi_display(LedConfig(driver=driver))
        try:
            return f"opened: {type(display).__name__}"
        finally:
            display.close()

    return action


DRIVER_MODULES = {"spi": "neopixel_spi", "neopixel": "neopixel"}
"""The module each LED driver of the firmware imports (``leds.driver``)."""


def main(argv: list[str] | None = None) -> int:
    """Print one line per step; exit 0 when every import worked."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--driver", choices=sorted(DRIVER_MODULES), default="spi",
                        help="the firmware's LED driver to follow (leds.driver; default spi)")
    driver = parser.parse_args(argv).driver
    forced = os.environ.get("BLINKA_FORCEBOARD"), os.environ.get("BLINKA_FORCECHIP")
    print(f"forced: BLINKA_FORCEBOARD={forced[0]} BLINKA_FORCECHIP={forced[1]}; "
          f"LED driver {driver}", flush=True)
    print(f"versions: {versions()}", flush=True)
    ok, _ = step("platform detection", detect)
    if not ok:
        return 2
    step("Blinka's platform packages", platform_packages)
    imports_ok = True
    for name in ("board", "busio", DRIVER_MODULES[driver], "sudoku_table.firmware.leds"):
        ok, _ = step(f"import {name}", import_module(name))
        imports_ok = imports_ok and ok
    if driver == "spi":
        ok, error = step("open SPI0 (board.SPI())", open_spi_bus)
        if not ok and import_failed(error):
            imports_ok = False
    ok, error = step(f"open the LED chain as the firmware does (driver {driver}, 81 LEDs)",
                     open_chain(driver))
    if not ok and import_failed(error):
        imports_ok = False  # a backend imported only when the chain opens
    return 0 if imports_ok else 1


if __name__ == "__main__":
    sys.exit(main())
