"""The table on the firmware's simulated board: real scanning, debouncing and LED frames."""

from __future__ import annotations

import pytest

from sudoku_table.firmware.backend import open_hardware
from sudoku_table.firmware.config import HardwareConfig
from sudoku_table.table import Table
from sudoku_table.table.signals import LIGHTS

from ..waiting import until
from .fakes import resolve

pytestmark = pytest.mark.integration


def test_a_piece_on_the_simulated_board_reaches_the_leds() -> None:
    hardware = open_hardware(HardwareConfig(), simulate=True)
    table = Table(hardware.display, resolve=resolve, settle=0.2)
    try:
        table.new_game("fake-kosmos")
        table.attach(hardware.sensors)
        hardware.simulator.set_square("b2", True)
        assert table.wait_for_occupied("b2", True, timeout=5)
        assert table.view()["table"]["prompt"]["square"] == "b2"
        assert until(lambda: dict(hardware.display.last_frame).get("b2")
                          == LIGHTS["number"])
        table.input({"type": "number", "number": 3})
        assert until(lambda: getattr(dict(hardware.display.last_frame).get("b2"),
                                          "pattern", None) == "flash")
        hardware.simulator.set_square("a2", True)
        assert table.wait_for_occupied("a2", True, timeout=5)
        table.input({"type": "number", "square": "a2", "number": 3})
        assert table.view()["table"]["signals"]["a2"] == "illegal"
        assert until(lambda: dict(hardware.display.last_frame).get("a2")
                          == LIGHTS["illegal"])
        hardware.simulator.set_square("a2", False)
        assert table.wait_for_occupied("a2", False, timeout=5)
        assert table.view()["table"]["signals"] == {"b2": "last"}
    finally:
        table.close()
        hardware.close()
