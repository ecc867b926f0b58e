"""Looking on and clubs: a game followed with its watch code only, and a club's tables' games
listed on one page, live and after they end; a watch code can never act."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sudoku_table.network.club import Club
from sudoku_table.network.config import NetworkConfig
from sudoku_table.network.link import Link, parse_broker
from sudoku_table.network.watching import ClubFollower, Watcher, watch_keys
from sudoku_table.rules.game import variant_class
from sudoku_table.table import InputError

from ..table.helpers import make_table
from .conftest import Mosquitto
from .test_tables import actions, host_and_guest, play, until

pytestmark = pytest.mark.slow


def resolve(start):  # type: ignore[no-untyped-def]
    return variant_class(start.variant)(start.players, start.options)


def test_a_watch_code_follows_the_game_and_cannot_join_it(tmp_path: Path,
                                                          mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    watch = host.view()["table"]["join"]["watch"]
    watcher = Watcher(watch_keys(watch), resolve)
    link = Link(parse_broker(mosquitto.url), "watcher", watcher.handle, clean=True)
    watcher.attach(link)
    link.start()
    try:
        play(host, hc, guest, gc, random.Random(5), 4)
        assert until(lambda: watcher.view().get("record", {}).get("actions") == actions(host))
        assert watcher.view()["document"] == host.view()["game"]
        assert watcher.view()["host"] == "Anna's table"
        with pytest.raises(InputError, match="watch code"):
            guest.join(watch)
    finally:
        link.stop()
        host.close()
        guest.close()


def test_a_club_page_lists_every_game_of_its_tables_live_and_after(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    club = "Spieleabend Nord 7f3k"
    tables = []
    for i, variant in enumerate(("vierer-dominari", "classic-sudoku")):
        table, _clock, _ = make_table(tmp_path / f"t{i}.db", network=NetworkConfig(
            broker=mosquitto.url, name=f"Table {i}", club=club))
        table.new_game(variant)  # no remote seat: in a club, still on the broker to watch
        tables.append(table)
    stranger = ClubFollower(parse_broker(mosquitto.url), Club("another club"), resolve)
    follower = ClubFollower(parse_broker(mosquitto.url), Club(club), resolve)
    try:
        games = until(lambda: len([g for g in follower.view() if g["ready"]]) == 2
                      and follower.view())
        assert sorted(g["variant"] for g in games) == ["classic-sudoku", "vierer-dominari"]
        assert {g["host"] for g in games} == {"Table 0", "Table 1"}
        assert stranger.view() == []
        assert "join" in tables[0].view()["table"]
        assert tables[0].view()["table"]["join"]["codes"] == []
    finally:
        follower.stop()
        stranger.stop()
        for table in tables:
            table.close()
