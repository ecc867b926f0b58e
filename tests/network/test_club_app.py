"""``sudoku-table club``: the club's page and the watch page on a PC with no table, through a
real Mosquitto. It serves the pages, the looking-on API and what the pages draw with, and
nothing that needs a table; it follows a game move by move; a watch code opens any game;
without a club or a broker it says how to set one."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from sudoku_table.cli import main
from sudoku_table.web.api import openapi_document
from sudoku_table.web.club_app import create_club_app

from .clubs import CLUB, club_following, club_table, moves
from .conftest import Mosquitto
from .test_tables import until

pytestmark = pytest.mark.slow


@pytest.fixture
def hosted(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[tuple[Any, Any, str]]:
    """A table of the club hosting a Vierer-Dominari, two moves in: the table, its clock and
    the game's watch code."""
    table, clock = club_table(tmp_path / "anna", "Anna's table", mosquitto.url)
    watch = table.new_game("vierer-dominari", names=["Anna", "Ben"])["table"]["join"]["watch"]
    moves(table, clock, random.Random(2), 2)
    yield table, clock, watch
    table.close()


@pytest.fixture
def club(mosquitto: Mosquitto) -> Iterator[Flask]:
    following = club_following(mosquitto.url)
    yield create_club_app(following, test_config={"TESTING": True})
    following.stop()


@pytest.mark.integration
def test_the_club_app_lists_the_clubs_game_and_follows_it_move_by_move(
        club: Flask, hosted: tuple[Any, Any, str]) -> None:
    table, clock, _watch = hosted
    client = club.test_client()
    games = until(lambda: [g for g in client.get("/api/club").get_json()["games"] if g["ready"]
                           and len(g["record"]["actions"]) == 2])
    assert games, client.get("/api/club").get_json()
    game = games[0]
    assert game["variant"] == "vierer-dominari" and game["host"] == "Anna's table"
    assert game["document"] == table.view()["game"]
    assert game["tables"] == [{"name": "Anna's table", "online": True, "seats": [0, 1]}]
    answer = client.get("/api/club").get_json()
    assert answer["connected"] is True
    version = answer["version"]
    moves(table, clock, random.Random(3), 1)
    seen = until(lambda: client.get(f"/api/watch/{game['game']}").get_json()
                 if len(client.get(f"/api/watch/{game['game']}").get_json()["record"]["actions"])
                 == 3 else None)
    assert seen["document"] == table.view()["game"]
    assert seen["version"] > version
    assert seen["record"]["actions"] == table.record()["actions"]
    german = client.get(f"/api/watch/{game['game']}", headers={"Accept-Language": "de"})
    first = table.record()["actions"][0]
    assert german.get_json()["moves"][0] == f"{first['number']} auf {first['cell']}"
    assert len(german.get_json()["moves"]) == 3


@pytest.mark.integration
def test_a_watch_code_opens_any_game_and_a_bad_one_is_told(
        club: Flask, hosted: tuple[Any, Any, str]) -> None:
    _table, _clock, watch = hosted
    client = club.test_client()
    refused = client.post("/api/watch", json={"code": "ABCD-EFGH"})
    assert refused.status_code == 422
    assert "not a watch code" in refused.get_json()["error"]
    game = client.post("/api/watch", json={"code": watch}).get_json()["game"]
    assert until(lambda: client.get(f"/api/watch/{game}").get_json()["ready"])
    assert client.get(f"/watch/{game}").status_code == 200
    missing = client.get("/api/watch/" + "0" * 32)
    assert missing.status_code == 404 and missing.get_json()["code"] == "not_followed"
    assert client.get("/watch/not-a-game").status_code == 404
    # Another web page may not make this one look on (the panel's guards hold here too).
    assert client.post("/api/watch", json={"code": watch},
                       headers={"Origin": "http://elsewhere.example"}).status_code == 403
    assert client.get("/api/club", headers={"Host": "rebound.example"}).status_code == 403


@pytest.mark.integration
def test_the_club_app_serves_the_pages_and_what_they_draw_with_and_no_table(
        club: Flask) -> None:
    client = club.test_client()
    for path in ("/club", "/rules", "/rules/kakuro", "/api/variants", "/api/variants/kakuro",
                 "/api/legend", "/api/i18n", "/api/version", "/api/rules/kakuro",
                 "/api/openapi.json"):
        response = client.get(path)
        assert response.status_code == 200, path
    assert client.get("/").headers["Location"] == "/club"
    for path in ("/play", "/table", "/join", "/api/state", "/api/games", "/api/events",
                 "/review/1"):
        assert client.get(path).status_code == 404, path
    page = client.get("/club").get_data(as_text=True)
    assert not re.search(r'href="/(play|table)"', page)  # its bar leads to the club and rules
    for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        response = client.get(ref)
        response.close()
        assert response.status_code == 200, ref
    german = client.get("/club", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Die Spiele des Clubs" in german
    assert client.get("/language/de?next=/club").headers["Location"] == "/club"


@pytest.mark.integration
def test_every_route_of_the_club_app_is_documented(club: Flask) -> None:
    documented = {path.replace("{variant_id}", "<variant_id>").replace("{game}", "<game>")
                  for path in openapi_document()["paths"]}
    routes = {rule.rule for rule in club.url_map.iter_rules() if rule.rule.startswith("/api/")}
    assert routes <= documented
    assert {"/api/club", "/api/watch", "/api/watch/<game>"} <= routes


@pytest.mark.integration
def test_without_a_club_or_a_broker_the_page_is_told_how_to_set_one(
        mosquitto: Mosquitto) -> None:
    following = club_following(mosquitto.url, club=None)
    try:
        answer = create_club_app(following).test_client().get("/api/club")
        assert answer.status_code == 404 and answer.get_json()["code"] == "no_club"
    finally:
        following.stop()
    alone = create_club_app(None).test_client()
    answer = alone.get("/api/club")
    assert answer.status_code == 404 and answer.get_json()["code"] == "no_broker"
    assert alone.get("/club").status_code == 200


def test_the_command_needs_a_broker(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "club.toml"
    config.write_text('[network]\nclub = "our words"\n')
    assert main(["club", "--config", str(config)]) == 2
    assert "set broker in the config's [network] section" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.integration
def test_the_command_serves_the_clubs_games_until_it_is_stopped(
        tmp_path: Path, mosquitto: Mosquitto, hosted: tuple[Any, Any, str]) -> None:
    config = tmp_path / "club.toml"
    config.write_text(f'[network]\nbroker = "{mosquitto.url}"\nclub = "{CLUB}"\n')
    port = _free_port()
    with subprocess.Popen(
            [sys.executable, "-m", "sudoku_table.cli", "club", "--config", str(config),
             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}) as process:
        try:
            assert process.stdout is not None
            first = process.stdout.readline().strip()
            assert first == f"Sudoku Table club: http://127.0.0.1:{port}/club"

            def games() -> list[dict[str, Any]]:
                url = f"http://127.0.0.1:{port}/api/club"
                with urllib.request.urlopen(url, timeout=5) as r:
                    return [g for g in json.loads(r.read())["games"] if g["ready"]]
            found = until(games)
            assert [g["variant"] for g in found] == ["vierer-dominari"]
            process.send_signal(signal.SIGTERM)
            assert process.wait(15) == 0
            assert "Sudoku Table club stopped." in process.stdout.read()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


@pytest.mark.integration
def test_a_panel_with_a_broker_stops_following_when_it_closes(tmp_path: Path,
                                                              mosquitto: Mosquitto) -> None:
    from sudoku_table.assembly import open_panel
    from sudoku_table.web.looking import KEY

    config = tmp_path / "table.toml"
    config.write_text(f'[network]\nbroker = "{mosquitto.url}"\nclub = "{CLUB}"\n')
    panel = open_panel(sim=True, data=tmp_path / "data", config_path=str(config))
    following = panel.app.extensions[KEY]
    assert until(lambda: following.connected)
    panel.close()
    assert until(lambda: not following.connected)


@pytest.mark.integration
def test_a_club_page_started_after_a_game_ended_lists_it_with_its_record(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    table, clock = club_table(tmp_path / "anna", "Anna's table", mosquitto.url)
    try:
        table.new_game("vierer-dominari", names=["Anna", "Ben"])
        moves(table, clock, random.Random(1), 200)
        finished = table.view()["game"]
        record = table.record()
        assert finished["over"]
        table.new_game("classic-sudoku", names=["Anna", "Ben"], replace=True)
        # The host has left the finished game: no table answers for it any more, and yet a
        # club page that starts now lists it as it ended, every entry checked.
        following = club_following(mosquitto.url)
        try:
            client = create_club_app(following).test_client()

            def ended() -> dict[str, Any] | None:
                games = client.get("/api/club").get_json()["games"]
                done = [g for g in games if g["ready"] and g["variant"] == "vierer-dominari"
                        and g["document"]["over"]]
                return done[0] if done else None
            game = until(ended)
            assert game is not None, client.get("/api/club").get_json()
            assert game["document"] == finished
            assert game["record"]["actions"] == record["actions"]
            assert game["closed"] is True
            games = until(lambda: len(ready := [g for g in client.get("/api/club").get_json()
                                                ["games"] if g["ready"]]) == 2 and ready)
            assert [g["variant"] for g in games] == ["classic-sudoku", "vierer-dominari"]
        finally:
            following.stop()
    finally:
        table.close()
