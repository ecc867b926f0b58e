"""A number piece put down in a DOMINARI blank phase hands the turn on: it is the next
player's action (``Game.actor``). When the next player plays at another table, the table where
the piece was put down may not count it: the log takes only that seat's own proposals, so a
table that counted it would hold an action the game does not have, and both tables would wait
on each other for good."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_table.rules.actions import Place

from ..table.helpers import lift, put
from ..table.test_computer import carry_out
from .conftest import Mosquitto
from .test_tables import actions, host_and_guest, until

pytestmark = [pytest.mark.integration, pytest.mark.slow]

OPENING = ["a2:5", "a3:2", "a4:4", "a5:1", "b2:2", "b3:3", "b1:1", "c2:4", "c3:5", "b4:5",
           "b5:4"]
"""Vierer-Dominari, seat 0 at the host and seat 1 at the guest in turn: after b5 the host's
seat 0 is in its blank phase (a dead field at b6), and seat 1 moves next."""


def test_the_next_players_piece_at_the_wrong_table_does_not_count(tmp_path: Path,
                                                                  mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "vierer-dominari")
    try:
        for i, move in enumerate(OPENING):
            cell, number = move.split(":")
            action = Place(cell, int(number))
            here, here_clock, there, there_clock = ((host, hc, guest, gc) if i % 2 == 0
                                                    else (guest, gc, host, hc))
            carry_out(here, here_clock, action)
            assert until(lambda there=there: there.view()["table"]["plan"] is not None)
            carry_out(there, there_clock, action)
            assert until(lambda i=i: len(actions(host)) == len(actions(guest)) == i + 1)
        assert host.view()["table"]["next"]["code"] == "blanks_or_end"
        # A number piece put down at the host now would be seat 1's, who plays at Ben's table.
        put(host, hc, "d2")
        view = host.input({"type": "number", "square": "d2", "number": 3})
        assert "d2" not in view["game"]["cells"]
        assert view["table"]["signals"].get("d2") == "illegal"  # take it away again
        assert actions(host) == actions(guest) == [a.to_json() for a in
                                                   host.remote.shared.actions()]
        # The piece is taken away again; the host's seat ends its turn, and the game goes on.
        lift(host, hc, "d2")
        host.input({"type": "end_turn"})
        assert until(lambda: len(actions(guest)) == len(OPENING) + 1)
        assert guest.view()["table"]["next"]["actor"] == 1
    finally:
        host.close()
        guest.close()
