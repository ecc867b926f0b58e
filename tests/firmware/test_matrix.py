"""The real scan path (gpiozero devices on mock pins wired as a diode matrix) and debouncing."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

from sudoku_table.firmware.config import SensorConfig, SimulatorConfig
from sudoku_table.firmware.exc import SimulatorError
from sudoku_table.firmware.layout import SQUARES
from sudoku_table.firmware.matrix import ReedMatrix
from sudoku_table.firmware.ports import SensorEvent, SensorFault
from sudoku_table.firmware.simulator import SimulatedBoard

from ..waiting import until

SETTLE = SensorConfig().settle_ms / 1000
"""The default confirmation time: a change counts once it has held this long."""
WAIT = SETTLE + 0.03
"""Long enough for a change to be confirmed."""


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Rig:
    """A simulated board scanned by the real matrix code, one scan at a time on a fake clock."""

    def __init__(self, bounce_ms: float = 0.0, **sensors: object) -> None:
        self.clock = FakeClock()
        self.config = SensorConfig(**sensors)  # type: ignore[arg-type]
        self.board = SimulatedBoard(self.config, SimulatorConfig(bounce_ms=bounce_ms),
                                    clock=self.clock)
        self.matrix = ReedMatrix(self.config, pin_factory=self.board.factory, clock=self.clock)
        self.events: list[SensorEvent] = []
        self.faults: list[SensorFault] = []
        self.felt: list[SensorEvent] = []
        self.matrix.listen(self.events.append, self.faults.append, self.felt.append)

    def scan(self, seconds: float, step: float | None = None) -> None:
        """Scan every ``step`` (the scan interval) for ``seconds`` of fake time."""
        step = step or self.config.scan_interval_ms / 1000
        for _ in range(round(seconds / step)):
            self.clock.now += step
            self.matrix.scan_once()

    def place(self, squares: list[str]) -> None:
        """Put pieces down one by one, as a hand does (several at once is a line fault)."""
        for square in squares:
            self.board.set_square(square, True)
            self.scan(0.03)
        self.scan(WAIT)

    def moves(self) -> list[tuple[str, bool]]:
        return [(e.square, e.occupied) for e in self.events]

    def close(self) -> None:
        self.matrix.close()
        self.board.close()


@pytest.fixture
def rig() -> object:
    r = Rig()
    yield r
    r.close()


def raw_squares(matrix: ReedMatrix) -> set[str]:
    raw, idle = matrix.read()
    assert idle == 0
    return {SQUARES[i] for i in range(81) if raw >> i & 1}


def test_a_scan_reads_exactly_the_closed_switches_without_ghosts(rig: Rig) -> None:
    assert raw_squares(rig.matrix) == set()
    # Three corners of a rectangle: a matrix without diodes would also see the fourth (b2).
    for square in ("a1", "a2", "b1"):
        rig.board.set_square(square, True)
    assert raw_squares(rig.matrix) == {"a1", "a2", "b1"}
    generator = random.Random(7)
    for _ in range(20):
        wanted = set(generator.sample(SQUARES, generator.randint(0, 81)))
        rig.board.clear()
        for square in wanted:
            rig.board.set_square(square, True)
        assert raw_squares(rig.matrix) == wanted


def test_rows_are_selected_one_at_a_time_and_released_when_idle(rig: Rig) -> None:
    seen: list[list[str]] = []
    original = rig.board._retarget

    def spy(now: int) -> None:
        original(now)
        seen.append(list(rig.board._row_modes))

    rig.board._retarget = spy  # type: ignore[method-assign]
    rig.matrix.read()
    assert len(seen) == 10  # one write per row and the release at the end
    assert all(modes.count("low") <= 1 and "high" not in modes for modes in seen)
    assert [modes.index("low") for modes in seen[:9]] == list(range(9))
    assert seen[-1] == ["released"] * 9  # idle: every row high impedance, none driven high


def test_the_pins_keep_no_history(rig: Rig) -> None:
    rig.board.set_square("e5", True)
    for _ in range(50):
        rig.matrix.read()
    pins = [rig.board.factory.pin(g) for g in (*rig.config.rows, *rig.config.columns)]
    assert all(len(pin.states) == 0 for pin in pins)


def test_a_change_is_reported_once_it_has_settled(rig: Rig) -> None:
    start = rig.clock.now
    rig.board.set_square("b2", True)
    rig.scan(0.008)  # felt at once (the LED's feedback) ...
    assert [(e.square, e.occupied) for e in rig.felt] == [("b2", True)]
    assert rig.felt[0].time - start == pytest.approx(0.008)  # first seen at 4 ms, + 2 scans
    rig.scan(0.144)  # ... but seen for 148 ms: still settling (150 ms)
    assert rig.events == []
    rig.scan(0.004)
    assert rig.moves() == [("b2", True)]
    event = rig.events[0]
    assert event.time - start == pytest.approx(0.156)  # first seen at 4 ms, + 150 ms settle
    assert rig.matrix.occupied() == frozenset({"b2"})
    rig.board.set_square("b2", False)
    rig.scan(WAIT)
    assert rig.moves() == [("b2", True), ("b2", False)]
    assert rig.matrix.occupied() == frozenset()


def test_a_touch_shorter_than_the_settle_time_is_no_move(rig: Rig) -> None:
    rig.board.set_square("c3", True)
    rig.scan(SETTLE - 0.01)
    rig.board.set_square("c3", False)
    rig.scan(0.3)
    assert rig.events == [] and rig.faults == []
    assert [e.occupied for e in rig.felt] == [True, False]  # its LED said so, and took it back


def test_a_bouncing_switch_gives_one_event_after_it_settles() -> None:
    rig = Rig(bounce_ms=5.0)
    try:
        bounced = 0
        for k in range(10):
            occupied = k % 2 == 0
            start = rig.clock.now
            rig.board.set_square("d4", occupied)
            raws = []
            last_flip = start
            for _ in range(24):  # 0.25 ms steps through the bounce
                rig.clock.now += 0.00025
                raws.append(bool(rig.matrix.read()[0] >> SQUARES.index("d4") & 1))
                if len(raws) > 1 and raws[-1] != raws[-2]:
                    last_flip = rig.clock.now
            bounced += len({*raws}) == 2
            rig.scan(WAIT, step=0.001)
            assert rig.moves()[-1] == ("d4", occupied) and len(rig.events) == k + 1
            assert len(rig.felt) == k + 1  # the LED's feedback never doubled either
            # the last flip + settle (less its quarter-interval slack for scan jitter)
            assert rig.events[-1].time - last_flip >= SETTLE - 0.001
        assert bounced >= 3  # the raw readings did bounce
        assert rig.faults == []  # a normal bounce is not chatter
    finally:
        rig.close()


def test_a_chattering_switch_is_a_fault_not_a_move(rig: Rig) -> None:
    rig.board.set_square("e5", True)
    rig.scan(WAIT)
    rig.board.chatter("e5", 0.6, period=0.012)
    rig.scan(0.6)
    assert rig.moves() == [("e5", True)]  # nothing while it chattered
    assert [(f.square, f.kind) for f in rig.faults] == [("e5", "chatter")]
    assert "e5 changed 9 times" in rig.faults[0].detail
    assert rig.matrix.felt() == frozenset({"e5"})  # its LED's feedback was taken back
    rig.scan(1.2)  # quiet again: it counts again, and nothing changed
    assert rig.moves() == [("e5", True)]
    rig.board.set_square("e5", False)
    rig.scan(WAIT)
    assert rig.moves() == [("e5", True), ("e5", False)]


def test_a_stuck_switch_reads_closed_whatever_the_hand_does(rig: Rig) -> None:
    rig.board.set_stuck("f6", True)
    rig.scan(WAIT)
    assert rig.moves() == [("f6", True)]
    rig.board.set_square("f6", True)
    rig.board.set_square("f6", False)
    rig.scan(WAIT)
    assert rig.matrix.occupied() == frozenset({"f6"})
    rig.board.set_stuck("f6", None)
    rig.scan(WAIT)
    assert rig.matrix.occupied() == frozenset()


def test_a_dead_row_is_a_fault_and_its_pieces_do_not_vanish(rig: Rig) -> None:
    rank4 = [f"{f}4" for f in "abcdef"]
    rig.place(rank4)
    assert rig.matrix.occupied() == frozenset(rank4)
    rig.events.clear()
    rig.board.set_dead_row(3)
    rig.scan(0.5)
    assert rig.events == []
    assert [(f.square, f.kind) for f in rig.faults] == [(None, "dead_row")]
    assert "row 4" in rig.faults[0].detail and "6 squares" in rig.faults[0].detail
    assert (rig.faults[0].line, rig.faults[0].shorted) == ("4", False)  # worded by the panel
    assert rig.matrix.occupied() == frozenset(rank4)
    rig.board.set_square("a4", False)  # a move on a dead row cannot be seen: nothing either
    rig.scan(0.5)
    assert rig.events == []
    rig.board.set_dead_row(3, False)  # repaired: the readings match again except a4
    rig.scan(2.0)
    assert rig.moves() == [("a4", False)]
    assert len(rig.faults) == 1


def test_other_rows_keep_working_while_one_is_dead(rig: Rig) -> None:
    rig.place(["a4", "b4", "c4", "d4"])
    rig.events.clear()
    rig.board.set_dead_row(3)
    rig.scan(0.05)
    rig.board.set_square("g7", True)
    rig.scan(WAIT)
    assert rig.moves() == [("g7", True)]


def test_a_dead_column_with_pieces_is_a_fault(rig: Rig) -> None:
    file_c = [f"c{r}" for r in range(1, 8)]
    rig.place(file_c)
    rig.events.clear()
    rig.board.set_dead_column(2)
    rig.scan(0.1)
    assert rig.events == []
    assert [(f.square, f.kind) for f in rig.faults] == [(None, "dead_column")]
    assert "file c" in rig.faults[0].detail
    assert (rig.faults[0].line, rig.faults[0].shorted) == ("c", False)


def test_a_column_shorted_to_ground_is_found_by_the_idle_read(rig: Rig) -> None:
    rig.board.set_shorted_column(5)
    rig.scan(0.1)
    assert rig.events == []
    assert [(f.square, f.kind) for f in rig.faults] == [(None, "dead_column")]
    assert "no row driven" in rig.faults[0].detail
    assert (rig.faults[0].line, rig.faults[0].shorted) == ("f", True)
    rig.board.set_square("a1", True)  # other columns still work
    rig.scan(WAIT)
    assert rig.moves() == [("a1", True)]
    rig.board.set_shorted_column(5, False)
    rig.scan(0.1)
    assert rig.moves() == [("a1", True)]  # the short ending is not a move either


def test_a_short_at_start_is_not_taken_as_pieces() -> None:
    clock = FakeClock()
    config = SensorConfig()
    board = SimulatedBoard(config, SimulatorConfig(bounce_ms=0), clock=clock)
    board.set_shorted_column(0)
    matrix = ReedMatrix(config, pin_factory=board.factory, clock=clock)
    try:
        assert matrix.occupied() == frozenset()
        faults: list[SensorFault] = []
        matrix.listen(None, faults.append)
        matrix.scan_once()
        assert [f.kind for f in faults] == ["dead_column"]
    finally:
        matrix.close()
        board.close()


def test_pieces_present_at_start_are_the_initial_board_not_events() -> None:
    clock = FakeClock()
    config = SensorConfig()
    board = SimulatedBoard(config, SimulatorConfig(bounce_ms=0), clock=clock)
    board.set_square("h8", True)
    matrix = ReedMatrix(config, pin_factory=board.factory, clock=clock)
    events: list[SensorEvent] = []
    matrix.listen(events.append)
    for _ in range(10):
        clock.now += 0.004
        matrix.scan_once()
    assert matrix.occupied() == frozenset({"h8"}) and events == []
    matrix.close()
    board.close()


def test_a_failing_listener_does_not_stop_scanning(rig: Rig) -> None:
    calls: list[SensorEvent] = []

    def broken(event: SensorEvent) -> None:
        calls.append(event)
        raise RuntimeError("listener bug")

    rig.matrix.listen(broken)
    rig.board.set_square("a1", True)
    rig.board.set_square("i9", True)
    rig.scan(WAIT)
    assert [e.square for e in calls] == ["a1", "i9"]


def test_the_thread_scans_in_real_time_and_stops() -> None:
    config = SensorConfig()
    board = SimulatedBoard(config, SimulatorConfig(bounce_ms=1.0))
    matrix = ReedMatrix(config, pin_factory=board.factory)
    got = threading.Event()
    events: list[tuple[SensorEvent, float]] = []
    felt: list[tuple[SensorEvent, float]] = []

    def on_event(event: SensorEvent) -> None:
        events.append((event, time.monotonic()))
        got.set()

    try:
        matrix.start(on_event, None, lambda e: felt.append((e, time.monotonic())))
        assert matrix.running
        assert until(lambda: matrix.scans > 2)  # scanning
        board.set_square("g3", True)
        assert got.wait(30)
        (event, at), = events
        assert (event.square, event.occupied) == ("g3", True)
        (tentative, felt_at), = felt
        assert (tentative.square, tentative.occupied) == ("g3", True)
        # Felt first, confirmed after (how soon each comes is checked on the scan's manual
        # clock in test_noise.py, and measured in bench/bench_noise.py).
        assert tentative.time < event.time and felt_at < at
        matrix.stop()
        matrix.stop()
        assert not matrix.running
        scans = matrix.scans
        time.sleep(0.05)
        assert matrix.scans == scans
        assert not any(t.name == "reed-matrix" for t in threading.enumerate())
    finally:
        matrix.close()
        matrix.close()
        board.close()
    with pytest.raises(RuntimeError, match="closed"):
        matrix.start(on_event)


def test_the_pins_are_released_on_close() -> None:
    config = SensorConfig()
    board = SimulatedBoard(config)
    matrix = ReedMatrix(config, pin_factory=board.factory)
    matrix.close()
    again = ReedMatrix(config, pin_factory=board.factory)  # would fail if still reserved
    again.close()
    board.close()


def test_a_pin_used_twice_on_one_factory_is_refused() -> None:
    config = SensorConfig()
    board = SimulatedBoard(config)
    matrix = ReedMatrix(config, pin_factory=board.factory)
    with pytest.raises(Exception, match="GPIO4|in use|reserved|already"):
        ReedMatrix(config, pin_factory=board.factory)
    matrix.close()
    board.close()


@pytest.mark.parametrize(("method", "argument"), itertools.product(
    ("set_dead_row", "set_dead_column", "set_shorted_column"), (-1, 9, True)))
def test_bad_line_numbers_are_refused(rig: Rig, method: str, argument: int) -> None:
    with pytest.raises(ValueError, match="line number"):
        getattr(rig.board, method)(argument)


def test_bad_squares_are_refused(rig: Rig) -> None:
    with pytest.raises(ValueError, match="is not a square"):
        rig.board.set_square("k1", True)
    with pytest.raises(SimulatorError, match="occupied must be"):
        rig.board.set_square("a1", 1)  # type: ignore[arg-type]


def test_the_columns_are_polled_without_edge_detection(rig: Rig) -> None:
    """A polled matrix needs no edge callbacks; on lgpio each would be an alert thread and a
    Python call for every edge the scan itself makes on a column."""
    for gpio in rig.config.columns:
        assert rig.board.factory.pin(gpio).when_changed is None
