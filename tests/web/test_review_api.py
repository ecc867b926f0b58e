"""The review's endpoints: started at once, filled in as the computer judges, worded in the
request's language; the positions for the small board; the replay on the board."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.ai import ComputerConfig
from sudoku_table.table import Table
from sudoku_table.web import create_app
from tests.table.test_archive import file_of

pytestmark = pytest.mark.integration

QUICK = ComputerConfig(strong_positions=60, strong_seconds=30.0)
GAMES = ("vierer-dominari-7-12.json", "sudoku-family-7-34.json")


@pytest.fixture
def reviewing(tmp_path: Path) -> Iterator[tuple[FlaskClient, Table]]:
    table = Table(journal=tmp_path / "journal.sqlite3", computer=QUICK, review_workers="thread",
                  ticker=False)
    table.finished.import_document(file_of(*GAMES))
    app = create_app(table, test_config={"TESTING": True, "PANEL_PIN": "4711",
                                         "SETTINGS_PATH": tmp_path / "settings.json"})
    yield app.test_client(), table
    table.close()


def _ids(table: Table) -> dict[str, int]:
    return {g["variant"]: g["id"] for g in table.finished.every()}


def _until_done(client: FlaskClient, game: int, **headers: str) -> dict[str, Any]:
    seen = []
    for _ in range(600):
        doc = client.get(f"/api/games/{game}/review", headers=headers).get_json()
        seen.append(doc["done"])
        if doc["status"] == "done":
            assert seen == sorted(seen)
            return doc
        time.sleep(0.1)
    raise AssertionError(f"the review did not finish: {seen[-5:]}")


def test_a_review_starts_at_once_and_fills_in(reviewing: tuple[FlaskClient, Table]) -> None:
    client, table = reviewing
    game = _ids(table)["vierer-dominari"]
    untouched = client.get(f"/api/games/{game}/review").get_json()
    assert untouched["status"] == "none" and untouched["done"] == 0
    started = client.post(f"/api/games/{game}/review", json={})
    assert started.status_code == 200
    doc = started.get_json()
    assert doc["status"] in ("waiting", "running", "done") and doc["total"] == 12
    # Every move is there at once, with what was played; the judgements come after.
    assert [m["move"] for m in doc["moves"]] == list(range(1, 13))
    assert doc["moves"][0]["text"].startswith("Move 1: White: ")
    assert len(doc["scores"]) == 13
    done = _until_done(client, game)
    assert all(m["verdict"] for m in done["moves"])
    assert [s["name"] for s in done["summary"]] == ["White", "Black"]
    assert done["summary"][0]["text"].startswith("White: ")
    assert "as good as the computer's" in done["summary"][0]["text"]
    assert done["measure"] == "chance" and done["result"]["winners"] is not None


def test_the_review_speaks_the_readers_language(reviewing: tuple[FlaskClient, Table]) -> None:
    client, table = reviewing
    game = _ids(table)["sudoku-family"]
    client.post(f"/api/games/{game}/review", json={})
    english = _until_done(client, game)
    german = client.get(f"/api/games/{game}/review",
                        headers={"Accept-Language": "de"}).get_json()
    assert english["known"].startswith("Each move is judged only with what its player knew")
    assert german["known"] != english["known"]
    assert german["summary"][0]["text"].startswith("Spieler 1: ")
    assert "so gut wie" in german["summary"][0]["text"]
    assert german["moves"][0]["text"].startswith("Zug 1: Spieler 1: ")
    judged = german["moves"][0]
    assert judged["verdict_text"] and judged["verdict_text"] != english["moves"][0]["verdict_text"]


def test_unknown_games_and_bodies_are_refused(reviewing: tuple[FlaskClient, Table]) -> None:
    client, table = reviewing
    assert client.get("/api/games/999/review").status_code == 404
    assert client.post("/api/games/999/review", json={}).status_code == 404
    game = _ids(table)["vierer-dominari"]
    assert client.post(f"/api/games/{game}/review", json={"level": "easy"}).status_code == 400
    assert client.get(f"/api/games/{game}/review?level=easy").status_code == 400
    assert client.get("/api/games/999/positions").status_code == 404


def test_every_position_for_the_small_board(reviewing: tuple[FlaskClient, Table]) -> None:
    client, table = reviewing
    game = _ids(table)["vierer-dominari"]
    positions = client.get(f"/api/games/{game}/positions").get_json()["positions"]
    assert len(positions) == 13 and positions[0]["cells"] == {}
    assert positions[-1]["over"] is True


def test_the_replay_on_the_board_needs_the_pin_and_leaving_does_not(
        reviewing: tuple[FlaskClient, Table]) -> None:
    client, table = reviewing
    game = _ids(table)["vierer-dominari"]
    refused = client.post("/api/replay", json={"game": game, "move": 2})
    assert refused.status_code == 401 and table.view()["table"]["replay"] is None
    shown = client.post("/api/replay", json={"game": game, "move": 2},
                        headers={"X-Table-Pin": "4711"})
    assert shown.status_code == 200
    assert shown.get_json()["table"]["replay"]["move"] == 2
    words = client.get("/api/replay", headers={"Accept-Language": "de"}).get_json()
    assert words["entry"]["text"].startswith("Zug 2: Schwarz: ")
    assert client.post("/api/replay", json={"game": game, "move": 99},
                       headers={"X-Table-Pin": "4711"}).status_code == 422
    assert client.post("/api/replay", json={"game": 999, "move": 1},
                       headers={"X-Table-Pin": "4711"}).status_code == 404
    left = client.post("/api/replay/leave", json={})
    assert left.status_code == 200 and left.get_json()["table"]["replay"] is None
    assert client.get("/api/replay").get_json() == {"replay": None, "entry": None}


def test_the_pages_of_a_review(reviewing: tuple[FlaskClient, Table]) -> None:
    client, table = reviewing
    game = _ids(table)["vierer-dominari"]
    page = client.get(f"/review/{game}")
    assert page.status_code == 200 and b"vendor/d3.min.js" in page.data
    latest = max(table.finished.every(), key=lambda g: (g["finished"] or "", g["id"]))
    newest = client.get("/review/current")
    assert newest.status_code == 302 and newest.headers["Location"] == f"/review/{latest['id']}"


def test_the_review_of_the_current_game_reads_no_list_of_records(
        reviewing: tuple[FlaskClient, Table], monkeypatch: pytest.MonkeyPatch) -> None:
    client, table = reviewing

    def every_record() -> None:
        raise AssertionError("every finished game was read for one redirect")

    monkeypatch.setattr(table.finished, "every", every_record)
    assert client.get("/review/current").headers["Location"].startswith("/review/")
    empty = Table(ticker=False)
    try:
        app = create_app(empty, test_config={"TESTING": True})
        assert app.test_client().get("/review/current").headers["Location"] == "/table"
    finally:
        empty.close()
