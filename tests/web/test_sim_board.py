"""The panel's simulated board on the firmware's noisy simulator: what a tap does counts once
the piece has come to rest, and clearing sweeps the pieces off without a line fault."""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from sudoku_table.table import Table

from .helpers import put


def test_clearing_a_full_line_sweeps_it_off_without_a_line_fault(client: FlaskClient,
                                                                table: Table) -> None:
    rank = [f"{f}1" for f in "abcdefgh"]
    for square in rank:
        put(client, square)
    started = time.monotonic()
    response = client.post("/api/sim/clear", json={})
    assert response.status_code == 200
    view = response.get_json()
    assert view["table"]["occupied"] == []
    assert view["table"]["faults"] == []  # eight squares of rank 1, never four in one scan
    assert time.monotonic() - started < 1.0  # swept at once, not one settle time each (1.2 s)


def test_a_tap_counts_after_the_settle_time(client: FlaskClient) -> None:
    started = time.monotonic()
    view = put(client, "e5")
    assert "e5" in view["table"]["occupied"]
    assert time.monotonic() - started >= 0.14  # confirmed at rest, as on the real table
