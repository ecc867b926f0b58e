"""A table lets go of the broker (it closes, or starts another game) under its lock, and
paho's thread, handing on a message, waits for that lock: letting go must not wait for that
thread in turn, or the table hangs for good (found by bench/bench_network_faults.py, a table
closed at a power cut while the other table's action arrived)."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from .conftest import Mosquitto
from .test_tables import actions, host_and_guest, step, until

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_a_table_lets_go_while_a_message_for_it_waits_on_its_lock(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    let_go = threading.Event()
    try:
        rng = random.Random(5)
        assert step(host, hc, rng)  # Anna's action, carried out at Ben's table
        assert until(lambda: step(guest, gc, rng) and len(actions(guest)) == 1)
        shared = host.remote.shared
        assert shared is not None
        held = threading.Event()

        def close_as_the_table_does() -> None:
            with host.lock:  # as Table.close and a new game hold it while letting go
                held.set()
                # Ben's action reaches the host meanwhile: its link hands it on and waits
                assert until(lambda: len(shared.actions()) == 2)
                host.remote.detach_locked(leaving=False)
            let_go.set()

        threading.Thread(target=close_as_the_table_does, daemon=True).start()
        assert held.wait(10)
        assert until(lambda: step(guest, gc, rng))  # Ben's action, sent to the host
        assert let_go.wait(15), "the table hangs: it waits for paho, which waits for it"
    finally:
        guest.close()
        if let_go.is_set():
            host.close()
