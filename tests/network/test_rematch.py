"""A rematch with the same people at two tables: the host's new game keeps the remote seat
with its table, its player's name and its link; the other table follows by itself, and
nobody types a code."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ..waiting import until
from .conftest import Mosquitto
from .test_tables import actions, carried_out, connected, host_and_guest, play

pytestmark = pytest.mark.integration


def test_a_rematch_keeps_the_other_table_its_seat_and_its_name(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "vierer-dominari",
                                         names=["Anna", "Ben"])
    try:
        play(host, hc, guest, gc, random.Random(2), 2)
        assert carried_out([(host, hc), (guest, gc)])
        old = guest.view()["table"]["join"] if "join" in guest.view()["table"] else None
        assert old is None  # a guest shows no codes
        first = guest.game_id
        view = host.new_game("vierer-dominari", names=["Anna", "Ben"], remote=[1],
                             same_tables=True, replace=True)
        assert actions(host) == []
        # Ben's table follows into the new game on its own: no code typed there.
        joined = until(lambda: guest.game_id != first and actions(guest) == []
                       and guest.view()["table"]["network"]["role"] == "guest")
        assert joined, guest.view()["table"]["network"]
        assert until(lambda: connected(host) and connected(guest))
        for table in (host, guest):
            shown = table.view()
            assert shown["table"]["names"] == ["Anna", "Ben"]
            assert "left the game" not in (shown["table"]["message"] or "")
        assert guest.view()["table"]["seats"][0]["table"] == "Anna's table"
        assert host.view()["table"]["seats"][1]["table"] == "Ben's table"
        assert [c["seat"] for c in view["table"]["join"]["codes"]] == [1]
        # The new game is played between the same two tables.
        guest.set_board([])
        host.set_board([])
        play(host, hc, guest, gc, random.Random(3), 2)
        assert carried_out([(host, hc), (guest, gc)]) and len(actions(guest)) >= 2
    finally:
        host.close()
        guest.close()
