"""A panel open to the local network: JSON only, same origin, known host, small bodies, PIN."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.table import Table
from app.web import create_app
from app.web.security import PinGuard, host_allowed, origin_matches

from .helpers import place


@pytest.fixture
def pin_client(table: Table, hardware: Any) -> FlaskClient:
    app = create_app(table, hardware=hardware, test_config={"TESTING": True, "PANEL_PIN": "4711"})
    return app.test_client()


def game_state(client: FlaskClient) -> Any:
    return client.get("/api/state").get_json()["game"]


def test_changes_must_be_json(client: FlaskClient) -> None:
    response = client.post("/api/game", data='{"variant": "vierer-dominari"}',
                           content_type="text/plain")
    assert response.status_code == 415
    assert "JSON" in response.get_json()["error"]
    form = client.post("/api/game", data={"variant": "vierer-dominari"})
    assert form.status_code == 415
    assert game_state(client) is None


def test_broken_json_is_a_400(client: FlaskClient) -> None:
    response = client.post("/api/game", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert "not valid JSON" in response.get_json()["error"]


def test_requests_from_another_origin_are_refused(client: FlaskClient) -> None:
    for origin in ("http://evil.example", "null", "http://localhost:9999"):
        response = client.post("/api/game", json={"variant": "vierer-dominari"},
                               headers={"Origin": origin})
        assert response.status_code == 403, origin
        assert "other web pages" in response.get_json()["error"]
    assert game_state(client) is None
    same = client.post("/api/game", json={"variant": "vierer-dominari"},
                       headers={"Origin": "http://localhost"})
    assert same.status_code == 200


def test_an_unknown_host_name_is_refused(client: FlaskClient) -> None:
    response = client.get("/api/state", headers={"Host": "rebound.example.com"})
    assert response.status_code == 403
    assert "rebound.example.com" in response.get_json()["error"]
    assert client.get("/api/state", headers={"Host": "192.168.1.20:8080"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "sudoku.local"}).status_code == 200


def test_configured_host_names_are_accepted(table: Table) -> None:
    app = create_app(table, test_config={"TESTING": True, "PANEL_HOSTS": ["spieltisch"]})
    assert app.test_client().get("/api/state",
                                 headers={"Host": "spieltisch:8080"}).status_code == 200


@pytest.mark.parametrize("host, allowed", [
    ("127.0.0.1:8080", True), ("[::1]:8080", True), ("localhost", True), ("pi.local:80", True),
    ("evil.com", False), ("", False), ("127.0.0.1.evil.com", False),
])
def test_host_allowed(host: str, allowed: bool) -> None:
    assert host_allowed(host) is allowed


def test_origin_matches_only_the_same_host_and_port() -> None:
    assert origin_matches("http://192.168.1.5:8080", "192.168.1.5:8080")
    assert not origin_matches("http://192.168.1.5:8081", "192.168.1.5:8080")
    assert not origin_matches("file://", "192.168.1.5:8080")


def test_large_bodies_are_refused(client: FlaskClient) -> None:
    response = client.post("/api/input", json={"type": "undo", "pad": "x" * 40_000})
    assert response.status_code == 413
    assert "too large" in response.get_json()["error"]


def test_unknown_paths_and_methods_are_json_errors(client: FlaskClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.get_json()["error"]
    wrong = client.get("/api/input")
    assert wrong.status_code == 405 and "GET" in wrong.get_json()["error"]


def test_pages_send_security_headers(client: FlaskClient) -> None:
    response = client.get("/play")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_never_in_debug_mode(app: Flask) -> None:
    assert app.debug is False


def test_a_running_game_is_ended_only_with_the_pin(pin_client: FlaskClient) -> None:
    assert pin_client.post("/api/game", json={"variant": "vierer-dominari"}).status_code == 200
    place(pin_client, "c3", 3)
    before = game_state(pin_client)
    response = pin_client.post("/api/game", json={"variant": "revers-dominari"})
    assert response.status_code == 401
    assert response.get_json() == {"error": "this needs the table's PIN", "pin": True}
    wrong = pin_client.post("/api/game", json={"variant": "revers-dominari"},
                            headers={"X-Table-Pin": "0000"})
    assert wrong.status_code == 401 and wrong.get_json()["error"] == "wrong PIN"
    assert game_state(pin_client) == before
    right = pin_client.post("/api/game", json={"variant": "revers-dominari", "pin": "4711"})
    assert right.status_code == 200
    assert right.get_json()["game"]["variant"] == "revers-dominari"


def test_settings_need_the_pin(pin_client: FlaskClient) -> None:
    assert pin_client.post("/api/table/brightness", json={"level": 0.3}).status_code == 401
    assert pin_client.post("/api/table/led-test", json={}).status_code == 401
    ok = pin_client.post("/api/table/brightness", json={"level": 0.3},
                         headers={"X-Table-Pin": "4711"})
    assert ok.status_code == 200
    assert pin_client.get("/api/table").get_json()["pin"] is True


def test_playing_needs_no_pin(pin_client: FlaskClient) -> None:
    pin_client.post("/api/game", json={"variant": "vierer-dominari"})
    view = place(pin_client, "c3", 3)
    assert view["game"]["cells"]["c3"]["number"] == 3


def test_wrong_pins_lock_out_for_a_while() -> None:
    now = [100.0]
    guard = PinGuard("4711", clock=lambda: now[0])
    for _ in range(5):
        with pytest.raises(Exception, match="wrong PIN"):
            guard.require("1234", "phone")
    with pytest.raises(Exception, match="too many wrong PINs") as caught:
        guard.require("4711", "phone")
    assert caught.value.status == 429  # type: ignore[attr-defined]
    guard.require("4711", "other phone")  # others are not locked out
    now[0] += 31
    guard.require("4711", "phone")
