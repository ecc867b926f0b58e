"""A panel open to the local network: JSON only, same origin, known host, small bodies, PIN."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from sudoku_table.table import Table
from sudoku_table.web import create_app
from sudoku_table.web.errors import ApiError
from sudoku_table.web.security import PinGuard, host_allowed, origin_matches

from .helpers import place


@pytest.fixture
def pin_client(table: Table, hardware: Any) -> FlaskClient:
    app = create_app(table, hardware=hardware, test_config={"TESTING": True, "PANEL_PIN": "4711"})
    return app.test_client()


def game_state(client: FlaskClient) -> Any:
    return client.get("/api/state").get_json()["game"]


@pytest.mark.integration
def test_changes_must_be_json(client: FlaskClient) -> None:
    response = client.post("/api/game", data='{"variant": "vierer-dominari"}',
                           content_type="text/plain")
    assert response.status_code == 415
    assert "JSON" in response.get_json()["error"]
    form = client.post("/api/game", data={"variant": "vierer-dominari"})
    assert form.status_code == 415
    assert game_state(client) is None


@pytest.mark.integration
def test_broken_json_is_a_400(client: FlaskClient) -> None:
    response = client.post("/api/game", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert "not valid JSON" in response.get_json()["error"]


@pytest.mark.integration
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


@pytest.mark.integration
def test_an_unknown_host_name_is_refused(client: FlaskClient) -> None:
    response = client.get("/api/state", headers={"Host": "rebound.example.com"})
    assert response.status_code == 403
    assert "rebound.example.com" in response.get_json()["error"]
    assert client.get("/api/state", headers={"Host": "192.168.1.20:8080"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "sudoku.local"}).status_code == 200


@pytest.mark.integration
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


@pytest.mark.integration
def test_large_bodies_are_refused(client: FlaskClient) -> None:
    response = client.post("/api/input", json={"type": "undo", "pad": "x" * 40_000})
    assert response.status_code == 413
    assert "too large" in response.get_json()["error"]


@pytest.mark.integration
def test_unknown_paths_and_methods_are_json_errors(client: FlaskClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.get_json()["error"]
    wrong = client.get("/api/input")
    assert wrong.status_code == 405 and "GET" in wrong.get_json()["error"]


@pytest.mark.integration
def test_pages_send_security_headers(client: FlaskClient) -> None:
    response = client.get("/play")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.integration
def test_never_in_debug_mode(app: Flask) -> None:
    assert app.debug is False


PIN = {"X-Table-Pin": "4711"}


def version(client: FlaskClient) -> int:
    return int(client.get("/api/state").get_json()["version"])


def start(client: FlaskClient, variant: str = "vierer-dominari") -> None:
    response = client.post("/api/game", json={"variant": variant}, headers=PIN)
    assert response.status_code == 200, response.get_json()


@pytest.mark.integration
def test_a_new_game_needs_the_pin(pin_client: FlaskClient) -> None:
    first = pin_client.post("/api/game", json={"variant": "vierer-dominari"})
    assert first.status_code == 401
    assert first.get_json() == {"error": "this needs the table's PIN", "pin": True}
    start(pin_client)
    place(pin_client, "c3", 3)
    before = game_state(pin_client)
    response = pin_client.post("/api/game", json={"variant": "revers-dominari"})
    assert response.status_code == 401
    wrong = pin_client.post("/api/game", json={"variant": "revers-dominari"},
                            headers={"X-Table-Pin": "0000"})
    assert wrong.status_code == 401 and wrong.get_json()["error"] == "wrong PIN"
    assert game_state(pin_client) == before
    unasked = pin_client.post("/api/game", json={"variant": "revers-dominari", "pin": "4711"})
    assert unasked.status_code == 409 and unasked.get_json()["code"] == "confirm_replace"
    assert game_state(pin_client) == before
    right = pin_client.post("/api/game", json={"variant": "revers-dominari", "pin": "4711",
                                                "replace": True})
    assert right.status_code == 200
    assert right.get_json()["game"]["variant"] == "revers-dominari"


@pytest.mark.integration
def test_undo_without_the_pin_takes_nothing_back(pin_client: FlaskClient) -> None:
    """The attack: six undos without the PIN took a running game back to zero actions."""
    start(pin_client)
    place(pin_client, "c3", 3)
    place(pin_client, "d4", 4)
    before, seen = game_state(pin_client), version(pin_client)
    for _ in range(6):
        response = pin_client.post("/api/input", json={"type": "undo"})
        assert response.status_code == 401 and response.get_json()["pin"] is True
    assert game_state(pin_client) == before and version(pin_client) == seen
    undone = pin_client.post("/api/input", json={"type": "undo"}, headers=PIN)
    assert undone.status_code == 200
    assert "d4" not in undone.get_json()["game"]["cells"]


@pytest.mark.integration
@pytest.mark.parametrize("data", [{"type": "hints", "on": True}, {"type": "end_turn"},
                                  {"type": "undo"}, {"type": "discard", "number": 3}])
def test_inputs_that_change_the_game_without_a_piece_need_the_pin(
        pin_client: FlaskClient, data: dict[str, Any]) -> None:
    start(pin_client, "classic-sudoku")
    seen = version(pin_client)
    response = pin_client.post("/api/input", json=data)
    assert response.status_code == 401, response.get_json()
    assert version(pin_client) == seen


@pytest.mark.integration
def test_playing_needs_no_pin(pin_client: FlaskClient) -> None:
    start(pin_client)
    view = place(pin_client, "c3", 3)
    assert view["game"]["cells"]["c3"]["number"] == 3
    pre_chosen = pin_client.post("/api/input", json={"type": "number", "number": 2})
    assert pre_chosen.status_code == 200


def test_answers_to_the_tables_question_need_no_pin() -> None:
    from sudoku_table.web.security import input_needs_pin

    asked = {"kind": "discard", "number": 7, "square": "c3"}
    assert not input_needs_pin({"type": "discard", "number": 7}, asked)
    assert input_needs_pin({"type": "discard", "number": 6}, asked)
    assert input_needs_pin({"type": "discard", "number": 7}, None)
    joker = {"kind": "joker", "square": "e5", "number": 4}
    assert not input_needs_pin({"type": "joker", "square": "e5", "number": 4}, joker)
    assert input_needs_pin({"type": "joker", "square": "e6", "number": 4}, joker)
    for kind in ("number", "blank", "bear_off"):
        assert not input_needs_pin({"type": kind}, None)
    for kind in ("undo", "hints", "end_turn"):
        assert input_needs_pin({"type": kind}, {"kind": kind})


@pytest.mark.integration
def test_settings_need_the_pin(pin_client: FlaskClient) -> None:
    assert pin_client.post("/api/table/brightness", json={"level": 0.3}).status_code == 401
    assert pin_client.post("/api/table/led-test", json={}).status_code == 401
    assert pin_client.post("/api/table/sound", json={"on": True}).status_code == 401
    ok = pin_client.post("/api/table/brightness", json={"level": 0.3},
                         headers={"X-Table-Pin": "4711"})
    assert ok.status_code == 200
    assert pin_client.get("/api/table").get_json()["pin"] is True


def test_wrong_pins_lock_out_the_whole_table_for_longer_and_longer() -> None:
    now = [100.0]
    guard = PinGuard("4711", clock=lambda: now[0])
    for i in range(5):
        with pytest.raises(ApiError, match="wrong PIN"):
            guard.require("1234", f"10.0.0.{i}")  # every guess from another address
    with pytest.raises(ApiError, match="too many wrong PINs") as caught:
        guard.require("4711", "10.0.0.99")  # a new address is locked out too
    assert caught.value.status == 429 and caught.value.extra["retry_after"] == 30
    now[0] += 31
    with pytest.raises(ApiError, match="wrong PIN"):
        guard.require("1111", "10.0.0.7")
    now[0] += 31  # the second lockout is twice as long
    with pytest.raises(ApiError, match="too many wrong PINs"):
        guard.require("4711", "10.0.0.8")
    now[0] += 30
    guard.require("4711", "10.0.0.8")  # the right PIN clears the count
    assert guard.failures == 0


def test_guessing_every_pin_takes_months() -> None:
    """The attack: 943 rotating addresses found a four-digit PIN in 5.8 s."""
    now = [0.0]
    guard = PinGuard("9999", clock=lambda: now[0])
    guesses = 0
    day = 24 * 3600.0
    while now[0] < day:
        try:
            guard.require(f"{guesses:04d}", f"127.0.{guesses // 250}.{guesses % 250 + 1}")
        except ApiError as e:
            if e.status == 429:
                now[0] += e.extra["retry_after"]
                continue
        guesses += 1
    assert guesses <= 40  # so all 10,000 take more than 250 days
    assert guard.lockout_seconds(100) == 3600


@pytest.mark.integration
def test_a_lockout_answers_429_with_retry_after(pin_client: FlaskClient) -> None:
    for i in range(5):
        response = pin_client.post("/api/table/led-test", json={"pin": "0000"},
                                   environ_base={"REMOTE_ADDR": f"127.0.0.{i + 2}"})
        assert response.status_code == 401
    locked = pin_client.post("/api/table/led-test", json={}, headers=PIN)
    assert locked.status_code == 429
    assert locked.headers["Retry-After"] == "30"
    assert locked.get_json()["retry_after"] == 30


# --- redirect tricks ------------------------------------------------------------------------------

@pytest.mark.integration
@pytest.mark.parametrize("target", [
    "/%09/evil.example",      # a browser drops the tab: //evil.example
    "/%0a/evil.example", "/%0d/evil.example", "/%0d%0aSet-Cookie:%20x=1",  # header splitting
    "//evil.example", "/\\evil.example", "/%5Cevil.example", "\\\\evil.example",
    "https://evil.example/", "http:/evil.example", "javascript:alert(1)", "evil.example",
    "", "%20/evil.example", "/ /evil.example", "/%00", "/%7F", "/%C2%85",
])
def test_the_language_switch_redirects_only_to_pages_of_the_panel(
        client: FlaskClient, target: str) -> None:
    response = client.get(f"/language/de?next={target}")
    assert response.status_code == 400, (target, response.headers.get("Location"))
    assert "Location" not in response.headers
    assert "lang=" not in response.headers.get("Set-Cookie", "")


@pytest.mark.integration
@pytest.mark.parametrize("target", ["/", "/play", "/rules/kakuro", "/table?x=1", "/play#top"])
def test_the_language_switch_goes_back_to_the_page(client: FlaskClient, target: str) -> None:
    response = client.get("/language/de", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == target


# --- racing inputs --------------------------------------------------------------------------------

@pytest.mark.integration
@pytest.mark.parametrize("attempt", range(3))
def test_two_phones_tapping_undo_at_once_take_back_exactly_one_action(
        table: Table, hardware: Any, attempt: int) -> None:
    """Real concurrent requests through the real server: both phones saw the same view."""
    import http.client
    import json
    import threading

    from .helpers import LiveServer

    app = create_app(table, hardware=hardware, test_config={"TESTING": True})
    client = app.test_client()
    client.post("/api/game", json={"variant": "vierer-dominari"})
    for square, number in (("e3", 3), ("d3", 1)):
        place(client, square, number)
    view = client.get("/api/state").get_json()
    assert len(table.record()["actions"]) == 2
    server = LiveServer(app)
    host, port = server.url.removeprefix("http://").split(":")
    barrier = threading.Barrier(2)
    answers: list[tuple[int, dict[str, Any]]] = []

    def tap() -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        body = json.dumps({"type": "undo", "version": view["version"],
                           "confirm": True})  # the action is the other player's: Undo asks
        barrier.wait()
        conn.request("POST", "/api/input", body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        answers.append((response.status, json.loads(response.read())))
        conn.close()

    try:
        threads = [threading.Thread(target=tap) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.close()
    assert sorted(status for status, _ in answers) == [200, 409]
    stale = next(body for status, body in answers if status == 409)
    assert stale["code"] == "stale" and stale["error"]
    assert stale["view"]["version"] > view["version"] and "table" in stale["view"]
    assert len(table.record()["actions"]) == 1


@pytest.mark.integration
def test_a_stale_input_is_409_with_the_current_view_in_the_readers_language(
        client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    old = client.get("/api/state").get_json()["version"]
    place(client, "d4", 4)
    response = client.post("/api/input", json={"type": "undo", "version": old},
                           headers={"Accept-Language": "de"})
    assert response.status_code == 409
    body = response.get_json()
    assert body["code"] == "stale" and "nichts" in body["error"].lower()
    assert body["view"]["version"] == client.get("/api/state").get_json()["version"]
    bad = client.post("/api/input", json={"type": "undo", "version": "new"})
    assert bad.status_code == 400


# --- read floods ----------------------------------------------------------------------------------

@pytest.mark.integration
def test_the_finished_games_are_read_while_the_game_holds_the_table(table: Table,
                                                                    hardware: Any) -> None:
    """The attack: 32 clients reading records or the export made a tap on the board take
    6-10 s, because every read held the table's lock. Now a read never takes it: with the lock
    held all the while, every read answers (and a crowd of readers gets 503, not a queue)."""
    import json
    import threading

    from tests.table.test_archive import FINISHED, file_of

    table.finished.import_document(file_of(*FINISHED))
    app = create_app(table, hardware=hardware, test_config={
        "TESTING": True, "ARCHIVE_READERS": 2, "ARCHIVE_READERS_PER_HOST": 2})
    client = app.test_client()
    answers: dict[str, Any] = {}

    def read() -> None:
        page = client.get("/api/games?limit=3").get_json()
        answers["page"] = page
        answers["next"] = client.get(f"/api/games?limit=3&after={page['next']}").get_json()
        answers["all"] = client.get("/api/games").get_json()
        record = client.get(f"/api/games/{page['games'][0]['id']}/record")
        answers["record"] = (record.status_code, json.loads(record.get_data(as_text=True)))
        answers["export"] = client.get("/api/games/export?download=0").get_data(as_text=True)

    with table.lock:
        reader = threading.Thread(target=read)
        reader.start()
        reader.join(timeout=60)
        assert not reader.is_alive(), "a read of the finished games waited for the game"
    page = answers["page"]
    assert len(page["games"]) == 3 and page["total"] == len(FINISHED)
    assert not {g["id"] for g in page["games"]} & {g["id"] for g in answers["next"]["games"]}
    assert [g["id"] for g in answers["all"]][:6] == [g["id"] for g in page["games"]
                                                     + answers["next"]["games"]]
    assert answers["record"][0] == 200 and answers["record"][1]["actions"]
    export = json.loads(answers["export"])
    assert len(export["games"]) == len(FINISHED)
    # Two reads at once at most: a third is told to come back, it does not queue.
    panel = app.extensions["sudoku_table"]
    assert panel.readers.acquire("127.0.0.1") is None
    assert panel.readers.acquire("127.0.0.1") is None
    try:
        busy = client.get("/api/games?limit=3")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
    finally:
        panel.readers.release("127.0.0.1")
        panel.readers.release("127.0.0.1")
    assert client.get("/api/games?limit=101").status_code == 400
    assert client.get("/api/games?after=3").status_code == 400
