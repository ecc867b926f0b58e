"""The panel's side of tables connected, through the API of two panels and a real broker:
hosting with a remote seat, joining by the code, the seats' list, a remote seat refused a
phone here, taking over, and every refusal with its status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_table.network.codes import GameKeys, JoinCode, SeatKeys
from sudoku_table.network.config import NetworkConfig
from sudoku_table.web import create_app

from ..table.helpers import make_table
from .conftest import Mosquitto
from .test_tables import until

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def panel(folder: Path, name: str, broker: str) -> Any:
    table, _clock, _ = make_table(folder / "journal.db",
                                  network=NetworkConfig(broker=broker, name=name))
    return table, create_app(table).test_client()


def test_two_panels_host_and_join_through_the_api(tmp_path: Path, mosquitto: Mosquitto) -> None:
    anna, host = panel(tmp_path / "anna", "Anna's table", mosquitto.url)
    ben, guest = panel(tmp_path / "ben", "Ben's table", mosquitto.url)
    try:
        view = host.post("/api/game", json={"variant": "vierer-dominari", "remote": [1],
                                            "names": ["Anna", "Ben"]}).get_json()
        assert view["table"]["network"]["role"] == "host"
        code = view["table"]["join"]["codes"][0]["code"]
        assert guest.post("/api/join", json={"code": code[:-3] + "000"}).status_code == 422
        answer = guest.post("/api/join", json={"code": code})
        assert answer.status_code == 200, answer.get_json()
        joined = answer.get_json()
        assert joined["game"]["variant"] == "vierer-dominari"
        assert joined["table"]["names"] == ["Anna", "Ben"]
        state = until(lambda: all(s["connected"] for s in
                                  guest.get("/api/state").get_json()["table"]["seats"])
                      and guest.get("/api/state").get_json())
        assert [(s["kind"], s["table"]) for s in state["table"]["seats"]] == [
            ("remote", "Anna's table"), ("here", "Ben's table")]
        assert state["table"]["next"]["code"] == "remote_waiting"
        # A phone here plays only a seat played here.
        refused = host.post("/api/seats/1/join", json={})
        assert refused.status_code == 409 and "another table" in refused.get_json()["error"]
        assert guest.post("/api/take-over", json={}).status_code == 422
        assert guest.post("/api/input", json={"type": "redo"}).status_code == 422
    finally:
        anna.close()
        ben.close()


def test_what_cannot_be_shared_is_refused_and_changes_nothing(tmp_path: Path,
                                                               mosquitto: Mosquitto) -> None:
    lone_table, _clock, _ = make_table()
    lone = create_app(lone_table).test_client()
    anna, host = panel(tmp_path, "Anna's table", mosquitto.url)
    nobody = JoinCode(GameKeys.new(), SeatKeys.new(1)).text()
    try:
        cases = [
            (lone, "/api/game", {"variant": "vierer-dominari", "remote": [1]}, 422),
            (lone, "/api/join", {"code": nobody}, 422),
            (host, "/api/game", {"variant": "vierer-dominari", "remote": [0, 1]}, 422),
            (host, "/api/game", {"variant": "vierer-dominari", "remote": [2]}, 422),
            (host, "/api/game", {"variant": "vierer-dominari", "remote": ["1"]}, 400),
            (host, "/api/game", {"variant": "vierer-dominari", "remote": [1],
                                 "computers": {"1": "easy"}}, 422),
            (host, "/api/join", {"code": 7}, 400),
            (host, "/api/join", {"code": "x" * 201}, 400),
            (host, "/api/join", {"code": "ABCD"}, 422),
            (host, "/api/take-over", {}, 422),
            (lone, "/api/watch", {"code": nobody}, 404),
        ]
        for client, path, body, status in cases:
            answer = client.post(path, json=body)
            assert answer.status_code == status, (path, body, answer.get_json())
            assert answer.get_json()["error"]
        assert host.get("/api/state").get_json()["game"] is None
        assert lone.get("/api/state").get_json()["table"]["network"]["ready"] is False
    finally:
        anna.close()
        lone_table.close()


def test_a_silent_host_is_a_504_and_nothing_changes(tmp_path: Path, mosquitto: Mosquitto,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_table.table import remote

    original = remote.Remote.joined
    monkeypatch.setattr(remote.Remote, "joined",
                        lambda self, code, timeout=10.0: original(self, code, 0.5))
    ben, guest = panel(tmp_path, "Ben's table", mosquitto.url)
    try:
        nobody = JoinCode(GameKeys.new(), SeatKeys.new(1)).text()
        answer = guest.post("/api/join", json={"code": nobody})
        assert answer.status_code == 504 and "no answer" in answer.get_json()["error"]
        assert guest.get("/api/state").get_json()["game"] is None
    finally:
        ben.close()


def test_the_codes_go_to_the_shared_panel_with_their_qr_and_never_to_a_phone(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    anna, host = panel(tmp_path, "Anna's table", mosquitto.url)
    try:
        view = host.post("/api/game", json={"variant": "classic-sudoku", "remote": [1]}
                         ).get_json()
        code = view["table"]["join"]["codes"][0]
        assert code["qr"].startswith("<svg") and code["code"] in host.get(
            "/api/state").get_json()["table"]["join"]["codes"][0]["code"]
        invite = host.post("/api/seats/0/join", json={}).get_json()
        token = host.post("/api/seats/claim", json={"token": invite["token"]}).get_json()["token"]
        phone = host.get("/api/state", headers={"X-Seat-Token": token}).get_json()
        assert phone["table"]["seat"] == 0 and "join" not in phone["table"]
    finally:
        anna.close()
