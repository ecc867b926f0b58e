"""Opening the hardware: the simulator off a Pi, and its parts working together."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sudoku_table.firmware import backend
from sudoku_table.firmware.backend import on_raspberry_pi, open_hardware
from sudoku_table.firmware.config import HardwareConfig
from sudoku_table.firmware.layout import led_indices
from sudoku_table.firmware.leds import wire_color
from sudoku_table.firmware.ports import Light, SensorEvent


def test_a_pi_is_recognised_by_its_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(model)
    model.write_bytes(b"Generic x86 board\x00")
    assert not on_raspberry_pi(model)
    assert not on_raspberry_pi(tmp_path / "missing")


def test_off_a_pi_the_default_is_the_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend, "on_raspberry_pi", lambda: False)
    with open_hardware(HardwareConfig()) as hardware:
        assert hardware.is_simulated and hardware.simulator is not None


def test_on_a_pi_without_its_libraries_the_error_is_clear(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend, "on_raspberry_pi", lambda: True)

    def no_gpio(config: HardwareConfig, pin_factory: object = None) -> None:
        raise ImportError("No module named 'lgpio'")

    monkeypatch.setattr(backend, "open_real", no_gpio)
    with pytest.raises(OSError, match="start with --sim"):
        open_hardware(HardwareConfig())


def test_the_simulated_table_senses_and_lights() -> None:
    hardware = open_hardware(HardwareConfig(), simulate=True)
    try:
        assert hardware.sensors.occupied() == frozenset()
        events: list[SensorEvent] = []
        hardware.sensors.start(events.append)
        assert hardware.simulator is not None
        hardware.simulator.set_square("e5", True)
        deadline = time.monotonic() + 2
        while not events and time.monotonic() < deadline:
            time.sleep(0.005)
        assert [(e.square, e.occupied) for e in events] == [("e5", True)]
        assert hardware.sensors.occupied() == frozenset({"e5"})
        hardware.display.show({"e5": Light((255, 0, 0))})
        assert hardware.display.last_frame["e5"] == Light((255, 0, 0))
        index = led_indices(hardware.config.leds)["e5"]
        assert wire_color(hardware.display.pixels.last_bytes, index)[0] > 0
    finally:
        hardware.close()
        hardware.close()  # idempotent
    assert not any(hardware.display.pixels.last_bytes)
    assert not hardware.sensors.running


def test_two_simulated_tables_do_not_share_pins() -> None:
    with open_hardware(HardwareConfig(), simulate=True) as one, \
            open_hardware(HardwareConfig(), simulate=True) as two:
        assert one.simulator is not None and two.simulator is not None
        one.simulator.set_square("a1", True)
        assert not two.simulator.square("a1")


def test_the_idle_simulator_scans_on_little_cpu() -> None:
    with open_hardware(HardwareConfig(), simulate=True) as hardware:
        hardware.sensors.start(lambda event: None)
        time.sleep(0.1)
        cpu, wall, scans = time.process_time(), time.monotonic(), hardware.sensors.scans
        time.sleep(1.0)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        rate = (hardware.sensors.scans - scans) / wall
    assert cpu / wall < 0.25  # about 6% of one core on a PC (a busy machine gives it less)
    assert 10 < rate <= 260  # it scans, one scan every 4 ms and never more


@pytest.mark.integration
def test_real_hardware_off_a_pi_is_a_clear_error() -> None:
    import subprocess
    import sys

    script = ("from sudoku_table.firmware.backend import open_hardware\n"
              "from sudoku_table.firmware.config import HardwareConfig\n"
              "try:\n"
              "    open_hardware(HardwareConfig(), simulate=False)\n"
              "except OSError as e:\n"
              "    print('OSError:', e)\n")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", script], cwd=root,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OSError: the LED or GPIO libraries of the Pi are not usable")
    assert "--sim" in result.stdout


def test_a_gpio_error_on_a_pi_is_an_os_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import GPIOPinInUse

    def busy(config: HardwareConfig, pin_factory: object = None) -> None:
        raise GPIOPinInUse("pin GPIO4 is already in use by another program")

    monkeypatch.setattr(backend, "open_real", busy)
    with pytest.raises(OSError, match="cannot open the table's GPIO pins: pin GPIO4"):
        open_hardware(HardwareConfig(), simulate=False)
