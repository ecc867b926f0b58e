"""Live updates over Server-Sent Events under a real waitress server."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from sudoku_table.table import Table
from sudoku_table.web import create_app

from .helpers import LiveServer

pytestmark = pytest.mark.integration


class EventReader:
    """A minimal Server-Sent Events client over one HTTP connection."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=5)
        self.conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()

    def next_event(self) -> tuple[str, dict[str, Any]]:
        event, data = "message", ""
        while True:
            line = self.response.readline().decode()
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and data:
                return event, json.loads(data)

    def close(self) -> None:
        self.response.close()
        self.conn.close()


def post(url: str, path: str, body: dict) -> tuple[int, dict]:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = conn.getresponse()
    answer = json.loads(response.read())
    conn.close()
    return response.status, answer


@pytest.fixture
def live(table: Table, hardware: Any) -> Iterator[LiveServer]:
    app = create_app(table, hardware=hardware, test_config={"MAX_STREAMS": 3,
                                                            "KEEPALIVE_SECONDS": 0.2})
    server = LiveServer(app)
    yield server
    server.close()


def test_every_connected_view_gets_every_change(live: LiveServer) -> None:
    readers = [EventReader(live.url) for _ in range(3)]
    try:
        for reader in readers:
            event, view = reader.next_event()
            assert event == "view" and view["game"] is None
        status, _ = post(live.url, "/api/game", {"variant": "vierer-dominari"})
        assert status == 200
        for reader in readers:
            _, view = reader.next_event()
            assert view["game"]["variant"] == "vierer-dominari"
        status, answer = post(live.url, "/api/sim/square", {"square": "c3", "occupied": True})
        assert status == 200
        for reader in readers:
            view = reader.next_event()[1]
            while "c3" not in view["table"]["occupied"]:
                view = reader.next_event()[1]
            assert view["table"]["prompt"]["square"] == "c3"
    finally:
        for reader in readers:
            reader.close()


def test_streams_are_capped_and_a_closed_tab_frees_its_slot(live: LiveServer) -> None:
    readers = [EventReader(live.url) for _ in range(3)]
    for reader in readers:
        reader.next_event()
    extra = EventReader(live.url)
    assert extra.response.status == 429
    assert "no live view is free" in json.loads(extra.response.read())["error"]
    extra.close()
    readers.pop().close()
    deadline = time.monotonic() + 30
    while True:
        again = EventReader(live.url)
        if again.response.status == 200:
            break
        again.close()
        assert time.monotonic() < deadline, "a closed stream never freed its slot"
        time.sleep(0.1)
    assert again.next_event()[0] == "view"
    again.close()
    for reader in readers:
        reader.close()


def test_ordinary_requests_still_work_while_streams_are_open(live: LiveServer) -> None:
    readers = [EventReader(live.url) for _ in range(3)]
    for reader in readers:
        reader.next_event()
    status, answer = post(live.url, "/api/game", {"variant": "revers-dominari"})
    assert status == 200 and answer["game"]["variant"] == "revers-dominari"
    for reader in readers:
        reader.close()


def test_keep_alive_comments_flow_while_nothing_changes(live: LiveServer) -> None:
    reader = EventReader(live.url)
    reader.next_event()
    guard = time.monotonic() + 30  # only against a stream that sends nothing more
    line = b""
    while not line.startswith(b": keep-alive"):
        line = reader.response.readline()
        assert time.monotonic() < guard, "no keep-alive came"
    reader.close()


def test_stopping_the_server_ends_open_streams_at_once(table: Table, hardware: Any) -> None:
    app = create_app(table, hardware=hardware, test_config={"KEEPALIVE_SECONDS": 600})
    server = LiveServer(app)
    readers = [EventReader(server.url) for _ in range(2)]
    for reader in readers:
        reader.next_event()
    started = time.monotonic()
    server.close()
    # The streams end without waiting for their next poll of the stop flag (ten minutes away).
    assert time.monotonic() - started < 60
    for reader in readers:
        with pytest.raises(EOFError):
            reader.next_event()
        reader.close()
