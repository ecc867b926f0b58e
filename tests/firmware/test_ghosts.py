"""The scan against the simulator's electrical physics, on simulated time: a column's RC rise
after its row is released, a reversed diode, a row shorted to ground, a weak magnet.

Each test runs twice: with the table's scan (:class:`ReedMatrix`) and with the scan the table
had before (:class:`TodaysScan`, kept here as it was: rows idle high as push-pull outputs, the
columns read one by one at once after the row change). The old scan must fail every one of
them (``xfail(strict=True)``: should it pass, the physics would prove nothing).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import pytest

from sudoku_table.firmware.config import SensorConfig, SimulatorConfig
from sudoku_table.firmware.debounce import Debouncer
from sudoku_table.firmware.layout import SIZE, SQUARES
from sudoku_table.firmware.matrix import ReedMatrix
from sudoku_table.firmware.ports import SensorFault
from sudoku_table.firmware.simulator import LinePhysics, ManualClock, SimulatedBoard

from .old_scan import TodaysScan


class Scan(Protocol):
    def read(self) -> tuple[int, int]: ...

    def close(self) -> None: ...


TODAY = pytest.param("today", marks=pytest.mark.xfail(
    strict=True, reason="the scan the table had before: reads too soon, drives idle rows high"))


@dataclass
class Bench:
    """A simulated board (worst-case lines) scanned by one of the scans, debounced."""

    board: SimulatedBoard
    scan: Scan
    clock: ManualClock
    config: SensorConfig
    debouncer: Debouncer
    faults: list[SensorFault]
    readings: dict[str, int]
    """How many scans read each square closed."""

    def run(self, seconds: float) -> None:
        step = self.config.scan_interval_ms / 1000
        for _ in range(round(seconds / step)):
            self.clock.now += step
            raw, idle = self.scan.read()
            for i in range(SIZE * SIZE):
                if raw >> i & 1:
                    self.readings[SQUARES[i]] = self.readings.get(SQUARES[i], 0) + 1
            self.faults.extend(self.debouncer.update(raw, self.clock.now, idle).faults)

    def confirmed(self) -> set[str]:
        reported = self.debouncer.reported
        return {SQUARES[i] for i in range(SIZE * SIZE) if reported >> i & 1}


@pytest.fixture(params=["table", TODAY])
def bench(request: pytest.FixtureRequest) -> Iterator[Bench]:
    config = SensorConfig()
    clock = ManualClock()
    board = SimulatedBoard(config, SimulatorConfig(bounce_ms=0), clock=clock,
                           physics=LinePhysics())
    scan: Scan
    if request.param == "table":
        scan = ReedMatrix(config, pin_factory=board.factory, clock=clock)
    else:
        scan = TodaysScan(config, board.factory)
    yield Bench(board, scan, clock, config, Debouncer(config, now=clock.now), [], {})
    scan.close()
    board.close()


def test_the_default_physics_are_the_worst_case_of_a_pi() -> None:
    physics = LinePhysics()
    assert (physics.pull_up_ohm, physics.line_pf) == (73_000.0, 150.0)
    rc_us = physics.pull_up_ohm * physics.line_pf * 1e-12 * 1e6
    assert 10.9 < rc_us < 11.0  # the 1.5-11 us, at its top


def test_a_piece_does_not_appear_on_the_next_rank(bench: Bench) -> None:
    """A column a piece held low must have risen before the next row's read (RC rise)."""
    bench.board.set_square("a5", True)
    bench.run(0.5)
    assert "a6" not in bench.readings
    assert bench.confirmed() == {"a5"}


def test_pieces_on_every_square_of_a_rank_leave_the_next_rank_empty(bench: Bench) -> None:
    for square in ("a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3"):
        bench.board.set_square(square, True)
        bench.run(0.03)  # one by one, as a hand puts them down
    bench.run(0.3)
    assert bench.confirmed() == {f"{f}3" for f in "abcdefghi"}
    assert not any(square.endswith("4") for square in bench.readings)


def test_a_reversed_diode_makes_no_two_outputs_fight(bench: Bench) -> None:
    """b3's diode is the wrong way round: its piece cannot be felt, but b5 on the same column
    must read right, and no GPIO may drive current into another."""
    bench.board.set_reversed_diode("b3")
    bench.board.set_square("b3", True)
    bench.board.set_square("b5", True)
    bench.run(0.5)
    assert bench.board.fights == 0, bench.board.fight_details
    assert bench.confirmed() == {"b5"}


def test_a_row_shorted_to_ground_is_reported_and_fights_nothing(bench: Bench) -> None:
    bench.board.set_square("c7", True)
    bench.run(0.3)
    bench.board.set_shorted_row(6)
    bench.run(0.3)
    assert bench.board.fights == 0, bench.board.fight_details
    assert [(f.kind, f.line) for f in bench.faults] == [("dead_column", "c")]
    assert "a row under a piece" in bench.faults[0].detail


def test_a_weak_magnet_flickers_on_its_own_square_only(bench: Bench) -> None:
    """A weak magnet at the edge of a5's range closes and opens its reed at random: its
    neighbours must never read closed (file a: its column is read first after a row change)."""
    bench.board.flicker("a5", 2.0)
    bench.run(2.0)
    assert bench.readings.get("a5", 0) > 0  # it did close now and then
    neighbours = {"a4", "b4", "b5", "a6", "b6"}
    assert not neighbours & set(bench.readings)


def test_faster_calls_do_not_make_the_table_s_scan_ghost() -> None:
    """The settle is a time: calls ten times faster than a Pi 5's change nothing."""
    config = SensorConfig()
    clock = ManualClock()
    board = SimulatedBoard(config, SimulatorConfig(bounce_ms=0), clock=clock,
                           physics=LinePhysics(call_us=0.35))
    matrix = ReedMatrix(config, pin_factory=board.factory, clock=clock)
    try:
        board.set_square("e5", True)
        clock.now += 0.004
        raw, _ = matrix.read()
        assert {SQUARES[i] for i in range(81) if raw >> i & 1} == {"e5"}
    finally:
        matrix.close()
        board.close()


def test_too_short_a_settle_ghosts_in_the_simulator_too() -> None:
    """The physics bite the table's own scan when its settle is cut below the RC rise."""
    config = SensorConfig(line_settle_us=1.0)
    clock = ManualClock()
    board = SimulatedBoard(config, SimulatorConfig(bounce_ms=0), clock=clock,
                           physics=LinePhysics(call_us=0.5))
    matrix = ReedMatrix(config, pin_factory=board.factory, clock=clock)
    try:
        board.set_square("e5", True)
        clock.now += 0.004
        raw, _ = matrix.read()
        read = {SQUARES[i] for i in range(81) if raw >> i & 1}
        assert {"e5", "e6"} <= read  # the column is still low when the next rank is read
    finally:
        matrix.close()
        board.close()
