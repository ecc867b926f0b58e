"""The panel's simulated board on the firmware's noisy simulator: what a tap does counts once
the piece has come to rest, and clearing sweeps the pieces off without a line fault."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.table import Table

from .helpers import put

pytestmark = pytest.mark.integration


def test_clearing_a_full_line_sweeps_it_off_without_a_line_fault(
        client: FlaskClient, table: Table, hardware: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rank = [f"{f}1" for f in "abcdefgh"]
    for square in rank:
        put(client, square)
    lifted: list[float] = []  # when the hand lifts each piece, on the simulated board's clock
    set_square = hardware.simulator.set_square

    def lift(square: str, occupied: bool, at: float | None = None) -> None:
        lifted.append(hardware.simulator.clock() if at is None else at)
        set_square(square, occupied, at=at)

    monkeypatch.setattr(hardware.simulator, "set_square", lift)
    response = client.post("/api/sim/clear", json={})
    assert response.status_code == 200
    view = response.get_json()
    assert view["table"]["occupied"] == []
    assert view["table"]["faults"] == []  # eight squares of rank 1, never four in one scan
    assert len(lifted) == len(rank)
    # Swept at once, one hand's sweep, not one settle time each (the settle is 150 ms).
    assert max(lifted) - min(lifted) < 0.15


def test_a_tap_counts_after_the_settle_time(client: FlaskClient) -> None:
    started = time.monotonic()
    view = put(client, "e5")
    assert "e5" in view["table"]["occupied"]
    assert time.monotonic() - started >= 0.14  # confirmed at rest, as on the real table
