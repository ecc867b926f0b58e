"""The service heals: the watchdog beats only while the table is alive, and missing hardware
starts the panel in a degraded mode that says what is missing, instead of exiting.

The timings are the unit's own (``systemd/sudoku-table.service``: ``WatchdogSec``, ``Restart``),
read from the file. No test waits on a clock: time is stepped by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_table.assembly import Heartbeat, scan_advances, watchdog_interval
from sudoku_table.firmware.backend import NoSensors, open_degraded
from sudoku_table.firmware.config import HardwareConfig
from sudoku_table.firmware.problems import FIX_BOOT_LINE, FIX_GROUP, FIX_INSTALL, FIX_SPI, diagnose

from .test_systemd import UNIT, one, parse_unit


def unit_seconds(key: str) -> float:
    value = one(parse_unit(UNIT.read_text(encoding="utf-8")), "Service", key)
    assert value.isdigit(), f"{key}={value}: give it in seconds"
    return float(value)


class Scanner:
    """A stand-in for the reed matrix's counters."""

    def __init__(self) -> None:
        self.scans = 0
        self.running = True


def test_the_heartbeat_interval_is_half_the_unit_s_watchdog() -> None:
    watchdog = unit_seconds("WatchdogSec")
    assert watchdog_interval({"WATCHDOG_USEC": str(int(watchdog * 1e6))}) == watchdog / 2
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def test_a_watchdog_kill_is_restarted_by_the_unit() -> None:
    """systemd ends a service whose heartbeats stop with a failure: Restart= must cover it."""
    unit = parse_unit(UNIT.read_text(encoding="utf-8"))
    assert one(unit, "Service", "Restart") in {"on-failure", "on-watchdog", "on-abnormal",
                                               "always"}
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"


def beats_over(seconds: float, heartbeat: Heartbeat, scanner: Scanner | None,
               scans_per_beat: int) -> list[float]:
    """Step the service's time beat by beat (the unit's interval); the scan thread scans
    ``scans_per_beat`` times in each; returns when the beats were sent."""
    interval = unit_seconds("WatchdogSec") / 2
    sent, now = [], 0.0
    while now + interval <= seconds:
        now += interval
        if scanner is not None:
            scanner.scans += scans_per_beat
        if heartbeat.beat():
            sent.append(now)
    return sent


def test_the_watchdog_beats_while_the_scan_advances_and_the_panel_answers() -> None:
    scanner = Scanner()
    sent: list[str] = []
    heartbeat = Heartbeat([scan_advances(scanner), lambda: None], send=sent.append)
    watchdog = unit_seconds("WatchdogSec")
    times = beats_over(4 * watchdog, heartbeat, scanner, scans_per_beat=3750)
    assert len(times) == 8 and sent == ["WATCHDOG=1"] * 8


def test_a_hung_scan_stops_the_heartbeats_so_systemd_restarts_the_service() -> None:
    scanner = Scanner()
    heartbeat = Heartbeat([scan_advances(scanner), lambda: None], send=lambda m: True)
    watchdog = unit_seconds("WatchdogSec")
    assert beats_over(watchdog, heartbeat, scanner, scans_per_beat=10)
    times = beats_over(2 * watchdog, heartbeat, scanner, scans_per_beat=0)  # the scan hangs
    assert times == []  # nothing within WatchdogSec: systemd kills and restarts it
    assert "has not moved on" in heartbeat.missed[0]


def test_a_panel_that_no_longer_answers_stops_the_heartbeats() -> None:
    answers = [None, None, "the panel does not answer on 127.0.0.1:80: timed out"]
    heartbeat = Heartbeat([lambda: answers[min(heartbeat.beats, 2)]], send=lambda m: True)
    watchdog = unit_seconds("WatchdogSec")
    assert len(beats_over(watchdog, heartbeat, None, 0)) == 2
    assert beats_over(2 * watchdog, heartbeat, None, 0) == []
    assert heartbeat.missed == ["the panel does not answer on 127.0.0.1:80: timed out"]


def test_a_table_without_its_matrix_has_no_scan_to_hang() -> None:
    heartbeat = Heartbeat([scan_advances(NoSensors())], send=lambda m: True)
    assert heartbeat.beat() and heartbeat.beat()


def test_a_stopped_scan_is_not_a_hung_one() -> None:
    scanner = Scanner()
    scanner.running = False  # not started yet, or closing
    heartbeat = Heartbeat([scan_advances(scanner)], send=lambda m: True)
    assert heartbeat.beat() and heartbeat.beat()


# --- the degraded start -------------------------------------------------------------------------

class FailingFactory:
    """A pin factory whose lines cannot be claimed (``error`` is raised)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def claim_open_drain_group(self, gpios: Any, requester: object) -> Any:
        raise self.error

    def claim_input_group(self, gpios: Any, requester: object) -> Any:
        raise self.error

    def settle(self, seconds: float) -> None:
        pass


def test_missing_hardware_starts_without_it_and_says_what_to_do(tmp_path: Path,
                                                                 monkeypatch: Any) -> None:
    """No SPI and a GPIO chip that refuses the service user: both parts are left out, each
    with its fix; nothing raises."""
    from sudoku_table.firmware import leds

    monkeypatch.setattr(leds, "SPI_DEVICE", tmp_path / "spidev0.0")
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=audio=on\n", encoding="utf-8")
    hardware = open_degraded(HardwareConfig(),
                             pin_factory=FailingFactory(PermissionError(13, "Permission denied",
                                                                        "/dev/gpiochip0")),
                             boot_config=boot)
    try:
        assert [p.part for p in hardware.problems] == ["sensors", "leds"]
        sensors, leds_problem = hardware.problems
        assert sensors.fix == FIX_GROUP and sensors.params["group"] == "gpio"
        assert leds_problem.fix == FIX_SPI
        assert "sudo usermod -aG gpio sudoku-table" in sensors.english()
        assert isinstance(hardware.sensors, NoSensors)
        assert hardware.sensors.occupied() == frozenset()
        hardware.display.set_brightness(0.5)  # the display works, showing nothing
    finally:
        hardware.close()


def test_a_pin_held_through_config_txt_names_the_line(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=audio=on\ndtoverlay=w1-gpio\n", encoding="utf-8")
    problem = diagnose("sensors", OSError("GPIO busy"), {4: "matrix row rank 1"}, boot)
    assert problem.fix == FIX_BOOT_LINE
    assert problem.params == {"number": "2", "file": str(boot), "line": "dtoverlay=w1-gpio",
                              "pins": "GPIO4"}
    assert "Line 2 of" in problem.english() and "'dtoverlay=w1-gpio'" in problem.english()


def test_a_library_that_is_not_installed_says_to_run_the_installer() -> None:
    problem = diagnose("leds", ModuleNotFoundError("No module named 'neopixel_spi'"), {})
    assert problem.fix == FIX_INSTALL and "sudo make install" in problem.english()


@pytest.mark.parametrize("part", ["sensors", "leds"])
def test_every_problem_reads_as_one_line(part: str) -> None:
    problem = diagnose(part, RuntimeError("something odd"), {})
    assert "\n" not in problem.english() and "something odd" in problem.english()


@pytest.mark.integration
@pytest.mark.slow  # the unit's own WatchdogSec: the first heartbeat comes after half of it (15 s)
def test_the_service_starts_degraded_and_beats_with_the_unit_s_settings(tmp_path: Path) -> None:
    """``serve --real`` where no Pi hardware is (this machine: no GPIO chip, no SPI): READY=1,
    the Table page says what is missing, and the heartbeats come at the unit's interval."""
    import re
    import urllib.request

    from tests.notified import served

    watchdog = unit_seconds("WatchdogSec")
    with served(tmp_path, "--real", start_timeout=unit_seconds("TimeoutStartSec"),
                drop=("GPIOZERO_PIN_FACTORY",), WATCHDOG_USEC=str(int(watchdog * 1e6)),
                LG_WD=str(tmp_path)) as running:
        listener, server = running.listener, running.process
        assert listener.recv(64) == b"READY=1"
        assert server.stdout is not None
        said: list[str] = []  # everything is printed before READY=1
        while sum("Hardware missing" in line for line in said) < 2:
            said.append(server.stdout.readline())
            assert said[-1], f"the panel stopped: {said}"
        port = next(match.group(1) for line in said
                    if (match := re.search(r"http://127\.0\.0\.1:(\d+)/", line)))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/table", timeout=10) as page:
            html = page.read().decode()
        assert 'id="missing-hardware"' in html and "dtoverlay=spi0-0cs" in html
        listener.settimeout(watchdog)  # systemd's limit: a beat must come within it
        assert listener.recv(64) == b"WATCHDOG=1"
    assert server.returncode == 0, running.err
    assert "Sudoku Table stopped." in running.out
    assert any(line.startswith("Hardware missing: The reed switches") for line in said)
    assert any(line.startswith("Hardware missing: The LEDs") for line in said)
