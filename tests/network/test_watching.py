"""Looking on and clubs: a game followed with its watch code only, and a club's tables' games
listed on one page, live and after they end; a watch code can never act."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import pytest

from sudoku_table.network.club import Club
from sudoku_table.network.config import NetworkConfig
from sudoku_table.network.link import Link, parse_broker
from sudoku_table.network.watching import Following, Watcher, watch_keys
from sudoku_table.rules.game import variant_class
from sudoku_table.table import InputError, Table

from ..table.helpers import make_table
from .conftest import Mosquitto
from .test_tables import actions, carried_out, host_and_guest, may_take_over, play, until

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def resolve(start):  # type: ignore[no-untyped-def]
    return variant_class(start.variant)(start.players, start.options)


def a_watcher(mosquitto: Mosquitto, watch: str) -> tuple[Watcher, Link]:
    """Somebody looking on at the game of ``watch`` (a watch code), connected."""
    watcher = Watcher(watch_keys(watch), resolve)
    link = Link(parse_broker(mosquitto.url), "watcher", watcher.handle, clean=True)
    watcher.attach(link)
    link.start()
    return watcher, link


def test_a_watch_code_follows_the_game_and_cannot_join_it(tmp_path: Path,
                                                          mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    watch = host.view()["table"]["join"]["watch"]
    watcher, link = a_watcher(mosquitto, watch)
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
    stranger = Following(parse_broker(mosquitto.url), resolve, Club("another club"))
    follower = Following(parse_broker(mosquitto.url), resolve, Club(club))
    try:
        games = until(lambda: len([g for g in follower.club_games() if g["ready"]]) == 2
                      and follower.club_games())
        assert sorted(g["variant"] for g in games) == ["classic-sudoku", "vierer-dominari"]
        assert {g["host"] for g in games} == {"Table 0", "Table 1"}
        assert stranger.club_games() == []
        assert "join" in tables[0].view()["table"]
        assert tables[0].view()["table"]["join"]["codes"] == []
    finally:
        follower.stop()
        stranger.stop()
        for table in tables:
            table.close()


def test_the_panel_looks_on_by_a_watch_code_and_lists_the_club(tmp_path: Path,
                                                                mosquitto: Mosquitto) -> None:
    from sudoku_table.web import create_app

    club = "Spieleabend Nord 7f3k"
    host, _clock, _ = make_table(tmp_path / "host.db", network=NetworkConfig(
        broker=mosquitto.url, name="Anna's table", club=club))
    watch = host.new_game("vierer-dominari")["table"]["join"]["watch"]
    panel_table, _clock, _ = make_table()
    following = Following(parse_broker(mosquitto.url), club=Club(club))
    app = create_app(panel_table, following=following)
    lone = create_app(panel_table).test_client()
    client = app.test_client()
    try:
        assert client.post("/api/watch", json={"code": "nonsense-code"}).status_code == 422
        answer = client.post("/api/watch", json={"code": watch})
        assert answer.status_code == 200
        game = answer.get_json()["game"]
        seen = until(lambda: client.get(f"/api/watch/{game}").get_json()["ready"]
                     and client.get(f"/api/watch/{game}").get_json())
        assert seen["variant"] == "vierer-dominari" and seen["host"] == "Anna's table"
        assert client.get("/api/watch/" + "0" * 32).status_code == 404
        games = until(lambda: client.get("/api/club").get_json()["games"])
        assert [g["game"] for g in games] == [game]
        assert lone.get("/api/club").status_code == 404
        assert lone.post("/api/watch", json={"code": watch}).status_code == 404
    finally:
        following.stop()
        host.close()
        panel_table.close()


def test_a_watcher_who_comes_while_the_host_is_off_sees_the_game_so_far_and_then_live(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    """A game of one table in a club (no other table asks the host for anything): the table
    archives the game as it shuts down, so a watcher who comes while it is off sees every move
    so far; once it is back, the watcher follows its moves live."""
    from ..table.helpers import place

    config = NetworkConfig(broker=mosquitto.url, name="Anna's table", club="Nord 7f3k")
    host, clock, _ = make_table(tmp_path / "host.db", network=config)
    link = None
    try:
        watch = host.new_game("classic-sudoku")["table"]["join"]["watch"]
        for square, number in (("a1", 1), ("e5", 5), ("i9", 9)):
            place(host, clock, square, number)
        kept = actions(host)
        assert len(kept) == 3
        board = host.view()["table"]["occupied"]
        host.close()
        watcher, link = a_watcher(mosquitto, watch)
        assert until(lambda: watcher.view()["ready"]
                     and watcher.view()["record"]["actions"] == kept)
        host, clock, _ = make_table(tmp_path / "host.db", network=config)
        host.set_board(board)
        assert until(lambda: host.view()["table"]["network"]["connected"])
        place(host, clock, "b2", 2)
        assert until(lambda: watcher.view()["record"]["actions"] == actions(host))
        assert len(actions(host)) == 4
    finally:
        if link is not None:
            link.stop()
        host.close()


def test_a_game_watched_by_its_code_first_is_listed_once_the_club_announces_it(
        mosquitto: Mosquitto) -> None:
    from sudoku_table.network.codes import GameKeys, WatchCode

    following = Following(parse_broker(mosquitto.url), club=Club("Nord 7f3k"))
    try:
        keys = GameKeys.new()
        game = following.watch(WatchCode(keys).text())
        assert following.club_games() == []
        following._follow(keys, {"variant": "kakuro", "host": "Anna's table"}, club=True)
        listed = following.club_games()
        assert [g["game"] for g in listed] == [game]
        assert listed[0]["announced"]["host"] == "Anna's table"
    finally:
        following.stop()


def switch_off(table: Table) -> None:
    """The table's power is cut: its link to the broker goes without a word (the broker tells
    the others by the table's last will), and nothing more leaves it."""
    shared = table.remote.shared
    assert shared is not None
    client = shared.link._client  # paho's own client
    client.loop_stop()
    sock = client.socket()
    if sock is not None:
        sock.shutdown(socket.SHUT_RDWR)
        sock.close()


def test_a_watcher_who_comes_after_the_host_lost_its_power_sees_the_game_from_a_guest(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    """The host's table goes without a word mid-game (it cannot archive): the guest's copy of
    the log, as the host signed it, becomes the archive, and a watcher who comes then sees
    every move so far, checked against the host's signatures."""
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    link = None
    try:
        watch = host.view()["table"]["join"]["watch"]
        play(host, hc, guest, gc, random.Random(3), 5)
        assert carried_out([(host, hc), (guest, gc)])
        kept = actions(host)
        assert len(kept) >= 5
        switch_off(host)
        assert until(lambda: guest.view()["table"]["seats"][0]["connected"] is False)
        watcher, link = a_watcher(mosquitto, watch)
        assert until(lambda: watcher.view()["ready"]
                     and watcher.view()["record"]["actions"] == kept)
        assert watcher.view()["document"] == guest.view()["game"]
        assert watcher.problem is None
    finally:
        if link is not None:
            link.stop()
        guest.close()
        host.close()


def test_a_game_taken_over_is_listed_once_and_its_old_page_points_to_the_new_host(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both tables in a club; the host's table is gone and Ben's takes the game over: the club
    lists the game once, as Ben's table hosts it, with every move so far, and the page of the
    old game (watched by its code) names the table it goes on at."""

    from sudoku_table.table import remote

    from .clubs import CLUB, club_table

    anna, ac = club_table(tmp_path / "anna", "Anna's table", mosquitto.url)
    ben, bc = club_table(tmp_path / "ben", "Ben's table", mosquitto.url)
    follower = Following(parse_broker(mosquitto.url), resolve, Club(CLUB))
    try:
        view = anna.new_game("classic-sudoku", remote=[1])
        old = following_id = follower.watch(view["table"]["join"]["watch"])
        ben.join(view["table"]["join"]["codes"][0]["code"])
        play(anna, ac, ben, bc, random.Random(2), 4)
        assert carried_out([(anna, ac), (ben, bc)])
        kept = actions(ben)
        assert until(lambda: [g["game"] for g in follower.club_games()] == [old])
        anna.close()
        monkeypatch.setattr(remote, "TAKE_OVER_AFTER", 0.5)
        assert until(lambda: not ben.view()["table"]["seats"][0]["connected"])
        assert until(lambda: may_take_over(ben))
        ben.take_over()

        def moved() -> list[dict[str, object]] | None:
            games = follower.club_games()
            return games if [g["game"] for g in games] != [old] else None
        games = until(lambda: (found := moved()) and found[0]["ready"] and found)
        assert len(games) == 1
        assert games[0]["announced"]["host"] == "Ben's table"
        assert games[0]["announced"]["generation"] == 1
        assert until(lambda: follower.game(games[0]["game"])["record"]["actions"] == kept)
        page = follower.game(following_id)
        assert page is not None
        assert page["successor"] == {"game": games[0]["game"], "host": "Ben's table"}
        assert "successor" not in follower.game(games[0]["game"])  # type: ignore[operator]
    finally:
        follower.stop()
        ben.close()
        anna.close()


def test_codes_typed_at_a_page_never_push_the_clubs_games_out(tmp_path: Path,
                                                               mosquitto: Mosquitto) -> None:
    """Anyone who reaches a club's page can type watch codes: the club's games are held apart
    from them, and a made-up code (no game says hello to it) makes room before a real game;
    a game that stops being followed is unsubscribed."""
    from sudoku_table.network.codes import GameKeys, WatchCode

    following = Following(parse_broker(mosquitto.url), club=Club("Nord 7f3k"))
    following.LIMIT, following.CLUB_LIMIT = 3, 2
    host, _clock, _ = make_table(tmp_path / "host.db", network=NetworkConfig(
        broker=mosquitto.url, name="Anna's table"))
    try:
        club = [GameKeys.new() for _ in range(2)]
        for keys in club:
            following._follow(keys, {"variant": "kakuro", "host": "Anna's table"}, club=True)
        real = following.watch(host.new_game("vierer-dominari", remote=[1])
                               ["table"]["join"]["watch"])
        assert until(lambda: following.games[real][1].ready)
        made_up = [following.watch(WatchCode(GameKeys.new()).text()) for _ in range(6)]
        assert {k.game for k in club} <= set(following.games)
        assert real in following.games
        assert len(following.games) == 5
        assert [g for g in made_up if g in following.games] == made_up[-2:]
        gone = made_up[0]
        assert not any(gone in topic for topic in following.link._topics)
        assert any(real in topic for topic in following.link._topics)
        assert len(following.link._connected_hooks) == 5
        later = GameKeys.new()
        following._follow(later, {"variant": "kakuro"}, club=True)
        assert later.game in following.games and len(following.club_games()) == 2
    finally:
        following.stop()
        host.close()
