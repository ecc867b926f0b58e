"""The panel as an appliance: version, safe shutdown (with a fake bus, never the real one),
and all finished games out to one file and back in."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.power import LogindPower
from sudoku_table.table import Table
from sudoku_table.version import current
from sudoku_table.web import create_app

from .appliance import calls, fake_busctl, play_to_the_end
from .helpers import LiveServer, open_composition

pytestmark = pytest.mark.integration

PIN = "4711"


def test_the_version_is_served_and_at_the_foot_of_every_page(client: FlaskClient) -> None:
    answer = client.get("/api/version").get_json()
    assert answer == current().to_json()
    for page in ("/", "/play", "/rules", "/table"):
        html = client.get(page).get_data(as_text=True)
        assert f"version {current().label}" in html, page
    german = client.get("/table", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert f"Version {current().label}" in german


def test_the_simulated_table_never_offers_to_power_off(client: FlaskClient) -> None:
    status = client.get("/api/table/power").get_json()
    assert status["available"] is False and status["actions"] == []
    assert status["reason"] == "not_pi" and "not a Raspberry Pi" in status["message"]
    assert client.get("/api/table").get_json()["power"] == status
    answer = client.post("/api/table/power", json={"action": "poweroff", "confirm": True})
    assert answer.status_code == 503 and answer.get_json()["reason"] == "not_pi"


@pytest.fixture
def powered(table: Table, hardware: Any, tmp_path: Path) -> tuple[FlaskClient, Path]:
    busctl, log = fake_busctl(tmp_path)
    app = create_app(table, hardware=hardware, test_config={
        "TESTING": True, "PANEL_PIN": PIN, "POWER": LogindPower([str(busctl)])})
    return app.test_client(), log


def test_shutting_down_needs_the_pin_and_a_confirmation(
        powered: tuple[FlaskClient, Path]) -> None:
    client, log = powered
    assert client.get("/api/table/power").get_json()["available"] is True
    asked = len(calls(log))
    no_pin = client.post("/api/table/power", json={"action": "poweroff", "confirm": True})
    assert no_pin.status_code == 401 and no_pin.get_json()["pin"] is True
    unconfirmed = client.post("/api/table/power", json={"action": "poweroff", "pin": PIN})
    assert unconfirmed.status_code == 409
    assert unconfirmed.get_json()["confirm"] == "poweroff"
    assert unconfirmed.get_json()["error"] == "Shut the table down?"
    for bad in ({"action": "halt", "pin": PIN}, {"action": "reboot", "confirm": "yes", "pin": PIN},
                {"action": "reboot", "now": True, "pin": PIN}):
        assert client.post("/api/table/power", json=bad).status_code == 400
    assert len(calls(log)) == asked  # nothing reached the bus
    done = client.post("/api/table/power", json={"action": "reboot", "confirm": True},
                       headers={"X-Table-Pin": PIN})
    assert done.status_code == 200 and done.get_json() == {"action": "reboot", "started": True}
    assert calls(log)[-1][-3:] == ["Reboot", "b", "false"]


def test_a_refusal_by_the_system_is_told(table: Table, hardware: Any, tmp_path: Path) -> None:
    busctl, _ = fake_busctl(tmp_path, fail=True)
    client = create_app(table, hardware=hardware, test_config={
        "TESTING": True, "POWER": LogindPower([str(busctl)])}).test_client()
    answer = client.post("/api/table/power", json={"action": "poweroff", "confirm": True})
    assert answer.status_code == 503 and "Access denied" in answer.get_json()["error"]


def test_export_then_import_on_another_table_keeps_every_game(
        client: FlaskClient, tmp_path: Path, hardware: Any) -> None:
    play_to_the_end(client)
    listed = client.get("/api/games").get_json()
    assert len(listed) == 1 and listed[0]["imported"] is False
    download = client.get("/api/games/export?download=1")
    assert re.fullmatch(r'attachment; filename="sudoku-table-games-\d{4}-\d{2}-\d{2}\.json"',
                        download.headers["Content-Disposition"])
    document = json.loads(download.get_data(as_text=True))
    assert document["format"] == "sudoku-table-games" and len(document["games"]) == 1
    # Back onto the same table: the game is there already.
    again = client.post("/api/games/import", json=document).get_json()
    assert (again["added"], again["skipped"], again["rejected"]) == (0, 1, 0)
    # Onto another table: added, listed, and its record is the same.
    other = Table(journal=tmp_path / "other.sqlite3")
    try:
        second = create_app(other, test_config={"TESTING": True}).test_client()
        answer = second.post("/api/games/import", json=document).get_json()
        assert (answer["added"], answer["skipped"], answer["rejected"]) == (1, 0, 0)
        games = second.get("/api/games").get_json()
        assert [(g["variant"], g["winners"], g["imported"]) for g in games] == [
            (listed[0]["variant"], listed[0]["winners"], True)]
        record = second.get(f"/api/games/{games[0]['id']}/record").get_json()
        assert record == document["games"][0]["record"]
    finally:
        other.close()


def test_a_bad_import_changes_nothing_and_says_why_in_the_reader_s_language(
        client: FlaskClient) -> None:
    play_to_the_end(client)
    document = client.get("/api/games/export?download=0").get_json()
    before = client.get("/api/games").get_json()
    german = {"Accept-Language": "de"}
    wrong = client.post("/api/games/import", json={"format": "x"}, headers=german)
    assert wrong.status_code == 422
    assert wrong.get_json()["error"].endswith("Es wurde nichts geändert.")
    not_json = client.post("/api/games/import", data=b"{not json",
                           content_type="application/json", headers=german)
    assert not_json.status_code == 400
    assert not_json.get_json()["error"].startswith("das ist keine Datei mit beendeten Spielen")
    tampered = json.loads(json.dumps(document))
    tampered["games"][0]["finished"] = "2020-01-01T00:00:00+00:00"  # another game...
    tampered["games"][0]["record"]["actions"][3]["number"] = 9  # ...whose move is illegal
    answer = client.post("/api/games/import", json=tampered, headers=german).get_json()
    assert (answer["added"], answer["rejected"]) == (0, 1)
    assert answer["games"][0]["reason"].startswith("Zug 4 ist nicht erlaubt: ")
    assert client.get("/api/games").get_json() == before


def test_the_import_needs_the_pin(table: Table, hardware: Any) -> None:
    client = create_app(table, hardware=hardware, test_config={
        "TESTING": True, "PANEL_PIN": PIN}).test_client()
    document = {"format": "sudoku-table-games", "version": 1, "games": []}
    assert client.post("/api/games/import", json=document).status_code == 401
    answer = client.post("/api/games/import", json=document, headers={"X-Table-Pin": PIN})
    assert answer.status_code == 200 and answer.get_json()["added"] == 0


def _post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_only_the_import_may_send_more_than_16_kib(tmp_path: Path) -> None:
    """Under waitress: the import takes a large file, every other endpoint still refuses a
    body over 16 KiB before reading it, and a file over the import's cap gets the panel's
    JSON message in the reader's language."""
    panel = open_composition(tmp_path / "data")
    panel.app.config["IMPORT_MAX_BYTES"] = 256 * 1024  # smaller, for a quick test
    live = LiveServer(panel.app)
    try:
        padding = b" " * (100 * 1024)
        empty = b'{"format": "sudoku-table-games", "version": 1, "games": []}'
        status, text = _post(live.url + "/api/games/import", empty + padding)
        assert status == 200 and json.loads(text)["added"] == 0
        status, text = _post(live.url + "/api/table/brightness", b'{"level": 0.5}' + padding)
        assert status == 413  # by the server, from its length, unread: JSON as every error
        assert json.loads(text) == {"error": "the request body is too large"}
        status, text = _post(live.url + "/api/table/brightness", b'{"level": 0.5}' + padding,
                             {"Accept-Language": "de"})
        assert status == 413 and json.loads(text)["error"].startswith("Die Anfrage ist zu groß")
        status, text = _post(live.url + "/api/games/import", empty + b" " * (300 * 1024),
                             {"Accept-Language": "de"})
        assert status == 413
        assert json.loads(text)["error"].startswith("die Datei ist zu groß: 0,3 MB")
    finally:
        live.close()
        panel.close()
