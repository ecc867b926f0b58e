"""``sudoku-table selftest`` on the simulated table, with and without injected faults."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sudoku_table.cli import main as cli
from sudoku_table.firmware.debounce import ALL, ROW_MASKS
from sudoku_table.firmware.selftest import Coverage, analyse, render_matrix, report


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli(["selftest", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.integration  # the simulated table scanned in real time
def test_a_healthy_simulated_table_passes(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SUDOKU_TABLE_CONFIG", raising=False)
    code, out, _ = run(capsys, "--sim")
    assert code == 0, out
    assert "Self-test of the simulated table" in out
    assert "LEDs: 81 of 81 squares lit exactly their own LED" in out
    assert "1 + + + + + + + + +" in out and "9 + + + + + + + + +" in out
    assert "all 81 switches closed and opened; no faults" in out
    assert "ghost probe: a magnet on e5, its 8 neighbours read open in all" in out


@pytest.mark.integration  # the simulated table scanned in real time
def test_injected_faults_are_all_found(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--sim", "--inject", "stuck:c3", "--inject", "dead-row:4",
                       "--inject", "chatter:g7", "--inject", "short-column:b")
    assert code == 1
    assert "dead row 4 (rank 4): no switch on it ever closed" in out
    assert "shorted column 2 (file b)" in out
    assert "stuck (never opened; or a piece stayed there): c3" in out
    assert "fault chatter: g7 changed" in out
    assert "silent" not in out  # the dead row explains its squares


@pytest.mark.integration  # the simulated table scanned in real time
def test_a_dead_column_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--sim", "--inject", "dead-column:e")
    assert code == 1
    assert "dead column 5 (file e): no switch on it ever closed" in out
    assert "silent" not in out and "dead row" not in out


@pytest.mark.integration  # the simulated table scanned in real time
def test_a_short_run_reports_what_was_not_reached(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--sim", "--seconds", "0.05")
    assert code == 1
    assert "dead row 9" in out  # the simulated hand had not got there


@pytest.mark.parametrize(("args", "message"), [
    (["--inject", "stuck:c3"], "--inject needs --sim"),
    (["--sim", "--inject", "melted:c3"], "--inject must be one of"),
    (["--sim", "--inject", "stuck:z3"], "'z3' is not a square"),
    (["--sim", "--inject", "dead-row:10"], "a row is a rank 1..9"),
    (["--sim", "--inject", "dead-column:j"], "a column is a file a..i"),
    (["--sim", "--seconds", "0"], "--seconds must be above 0"),
])
def test_bad_arguments_are_one_clear_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                          message: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_bad_config_cannot_start(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[leds]\nrotation = 45\n")
    code, _, err = run(capsys, "--sim", "--config", str(bad))
    assert code == 2
    assert err.startswith("sudoku-table selftest: cannot start:")
    assert "leds.rotation" in err


def test_nothing_closed_means_nobody_swept_the_board() -> None:
    coverage = Coverage()
    coverage.add(0)
    findings = analyse(coverage)
    assert findings.nothing_closed and not findings.ok
    assert "no switch closed at all" in report(findings)
    assert findings.dead_rows == ()  # not 9 dead rows


def test_analysis_of_single_squares() -> None:
    coverage = Coverage()
    coverage.add(ALL & ~(1 << 10))  # everything but b2 closed once
    coverage.add(1 << 80)  # then everything but i9 open
    findings = analyse(coverage)
    assert findings.silent == ("b2",) and findings.stuck == ("i9",)
    assert not findings.dead_rows and not findings.dead_columns


def test_the_matrix_text_marks_every_state() -> None:
    coverage = Coverage()
    coverage.add(ROW_MASKS[0])  # rank 1 closed
    coverage.add(1 << 9)  # rank 1 open again, a2 closed
    text = render_matrix(1 << 9, coverage)
    lines = text.splitlines()
    assert lines[0] == "9 . . . . . . . . ."
    assert lines[7] == "2 # . . . . . . . ."
    assert lines[8] == "1 + + + + + + + + +"
    assert lines[9] == "  a b c d e f g h i"
    coverage.add(0, idle=1 << 3)
    assert render_matrix(0, coverage).splitlines()[0] == "9 . . . ! . . . . ."


@pytest.mark.integration  # the simulated table scanned in real time
def test_the_live_view_redraws_in_place_on_a_terminal() -> None:
    from sudoku_table.firmware.backend import open_hardware
    from sudoku_table.firmware.config import HardwareConfig
    from sudoku_table.firmware.selftest import watch_sensors

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    hardware = open_hardware(HardwareConfig(), simulate=True)
    try:
        coverage = watch_sensors(hardware, None, out, live=True)
    finally:
        hardware.close()
    assert coverage.seen_closed == ALL
    assert "\x1b[10F" in out.getvalue()


@pytest.mark.integration  # the simulated table scanned in real time
def test_one_part_at_a_time_while_building(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The build guide tests each stage as it is finished: the LEDs before any switch is in,
    the switches (rows and columns) without watching LEDs, the buzzer by ear."""
    monkeypatch.delenv("SUDOKU_TABLE_CONFIG", raising=False)
    code, out, _ = run(capsys, "--sim", "--part", "leds")
    assert code == 0 and "81 of 81 squares lit exactly their own LED" in out
    assert "+ + +" not in out and out.rstrip().endswith("no faults")
    code, out, _ = run(capsys, "--sim", "--part", "sensors", "--inject", "dead-column:e")
    assert code == 1 and "dead column 5 (file e)" in out and "LEDs:" not in out
    code, out, _ = run(capsys, "--sim", "--part", "buzzer")
    assert code == 0 and "Buzzer: an illegal piece, points, your turn (listen)" in out
    assert "LEDs:" not in out and "+ + +" not in out


def test_a_missing_buzzer_fails_its_test() -> None:
    from sudoku_table.firmware.backend import open_hardware
    from sudoku_table.firmware.config import HardwareConfig
    from sudoku_table.firmware.selftest import run as selftest_run

    hardware = open_hardware(HardwareConfig(), simulate=True)
    try:
        assert hardware.buzzer is not None
        hardware.buzzer.close()
        hardware.buzzer, hardware.buzzer_error = None, "GPIO8: pin busy"
        out = io.StringIO()
        findings = selftest_run(hardware, None, out, 0.0, part="buzzer")
    finally:
        hardware.close()
    assert not findings.ok and report(findings, sensors=False) == "no buzzer: GPIO8: pin busy"


def test_the_ghost_probe_finds_a_magnet_that_is_never_felt(
        capsys: pytest.CaptureFixture[str]) -> None:
    """e5's diode reversed: the magnet held there is never felt (and the sweep says silent)."""
    code, out, _ = run(capsys, "--sim", "--inject", "reversed-diode:e5")
    assert code == 1
    assert "ghost probe: the magnet on e5 was never felt" in out
    assert "silent (never closed): e5" in out


def test_the_ghost_probe_counts_readings_next_to_the_magnet() -> None:
    """Lines that settle too briefly for their RC (a settle cut to 1 us, calls as fast as a
    fast Pi's): the rank above the magnet reads closed too, and the probe says so."""
    from sudoku_table.firmware.backend import Hardware
    from sudoku_table.firmware.config import HardwareConfig, SensorConfig, SimulatorConfig
    from sudoku_table.firmware.leds import recording_display
    from sudoku_table.firmware.matrix import ReedMatrix
    from sudoku_table.firmware.selftest import ghost_probe
    from sudoku_table.firmware.simulator import LinePhysics, SimulatedBoard

    config = HardwareConfig(sensors=SensorConfig(line_settle_us=1.0),
                            simulator=SimulatorConfig(bounce_ms=0))
    # The lines' clock moves by the calls alone (a board clock that stands still): a busy
    # machine's pause between two calls must not give a line the time the scan did not.
    board = SimulatedBoard(config.sensors, config.simulator, clock=lambda: 0.0,
                           physics=LinePhysics(call_us=0.5))
    hardware = Hardware(sensors=ReedMatrix(config.sensors, pin_factory=board.factory),
                        display=recording_display(config.leds), simulator=board, config=config)
    try:
        probe = ghost_probe(hardware, "e5", 0.05, io.StringIO())
    finally:
        hardware.close()
    assert probe.held == probe.scans > 0
    assert dict(probe.ghosts).get("e6", 0) == probe.scans
    text = report(analyse(Coverage()), sensors=False)
    assert "ghost probe" not in text
    from dataclasses import replace

    from sudoku_table.firmware.selftest import Findings
    said = report(replace(Findings(), probe=probe))
    assert "its neighbours read closed: e6" in said and "line_settle_us" in said
