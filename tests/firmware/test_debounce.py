"""The debouncer on its own: exact timings on a made-up clock, no pins."""

from __future__ import annotations

from sudoku_table.firmware.config import SensorConfig
from sudoku_table.firmware.debounce import ALL, COLUMN_MASKS, NOTHING, ROW_MASKS, Debouncer, bits
from sudoku_table.firmware.layout import SQUARES

B2 = 1 << SQUARES.index("b2")


def test_bits_and_masks() -> None:
    assert bits(0) == [] and bits(0b1010) == [1, 3]
    assert bits(ALL) == list(range(81))
    assert bits(ROW_MASKS[1]) == list(range(9, 18))
    assert bits(COLUMN_MASKS[2]) == [2 + 9 * r for r in range(9)]


def test_a_quiet_board_costs_nothing() -> None:
    debouncer = Debouncer(SensorConfig(), initial=B2)
    assert debouncer.update(B2, 1.0) is NOTHING
    assert debouncer.update(B2, 2.0) is NOTHING


def test_settle_time_counts_from_the_first_scan_that_saw_the_change() -> None:
    debouncer = Debouncer(SensorConfig(settle_ms=20.0, scan_interval_ms=4.0))
    assert debouncer.update(B2, 10.000) is NOTHING
    assert debouncer.update(B2, 10.018).events == ()  # 18 ms: not yet
    update = debouncer.update(B2, 10.0195)  # 19.5 ms: within the quarter-interval slack
    assert [(e.square, e.occupied, e.time) for e in update.events] == [("b2", True, 10.0195)]
    assert debouncer.reported == B2


def test_a_change_back_restarts_the_clock() -> None:
    debouncer = Debouncer(SensorConfig(settle_ms=20.0))
    debouncer.update(B2, 0.0)
    debouncer.update(0, 0.010)
    debouncer.update(B2, 0.015)
    assert debouncer.update(B2, 0.030).events == ()
    assert [e.square for e in debouncer.update(B2, 0.035).events] == ["b2"]


def test_a_line_fault_is_reported_once_and_released_when_quiet() -> None:
    config = SensorConfig(line_changes=4, chatter_quiet_ms=100.0)
    row = sum(1 << (18 + c) for c in range(5))  # a3..e3
    assert row & ROW_MASKS[2] == row
    debouncer = Debouncer(config, initial=row)
    update = debouncer.update(0, 1.0)  # all five vanish at once
    assert [f.kind for f in update.faults] == ["dead_row"] and update.events == ()
    assert debouncer.update(0, 1.05) is NOTHING
    assert debouncer.update(row, 1.06).faults == ()  # back: no second report
    assert debouncer.update(row, 1.2) is NOTHING  # released; nothing moved
    assert debouncer.broken_lines == {}


def test_the_initial_board_is_reported_as_is() -> None:
    debouncer = Debouncer(SensorConfig(), initial=B2 | 1)
    assert debouncer.reported == B2 | 1
