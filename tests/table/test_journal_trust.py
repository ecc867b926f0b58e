"""The journal proves its integrity: chained entries, a mark against going back in time, and
damage that is either recovered or told in the view, never silent."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.table.journal import SCHEMA_VERSION, Journal

from .attack import (
    DAMAGE,
    FULL_GAME,
    RUNNING_ENTRIES,
    build_snapshot,
    damage_outcome,
    outcome,
    place,
)
from .helpers import make_table


def entry_count(path: Path, game: int) -> int:
    with sqlite3.connect(path) as db:
        n = db.execute("SELECT count(*) FROM entries WHERE game = ?", (game,)).fetchone()[0]
    db.close()
    return int(n)


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A journal with a finished game and a running game of 30 entries, all still in the WAL."""
    snap, expected = build_snapshot(tmp_path_factory.mktemp("killed"))
    assert (snap / "j.db-wal").stat().st_size > 0
    return {"dir": snap, "expected": expected}


def damaged_copy(killed: dict[str, Any], tmp_path: Path) -> Path:
    work = tmp_path / "work"
    shutil.copytree(killed["dir"], work)
    return work / "j.db"


@pytest.mark.integration
@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_no_damage_is_silent(killed: dict[str, Any], tmp_path: Path, case: str) -> None:
    result, view, files = damage_outcome(killed["dir"], killed["expected"], tmp_path / "w", case)
    assert result in ("recovered", "told"), (case, view["table"]["notices"])
    assert "j.db" in files  # a damaged journal is never deleted, only set aside


@pytest.mark.integration
def test_the_snapshot_itself_recovers_everything(killed: dict[str, Any],
                                                 tmp_path: Path) -> None:
    path = damaged_copy(killed, tmp_path)
    result, table = outcome(path, killed["expected"])
    table.close()
    assert result == "recovered"
    assert entry_count(path, 2) == RUNNING_ENTRIES


@pytest.mark.integration
def test_a_deleted_wal_is_told(killed: dict[str, Any], tmp_path: Path) -> None:
    path = damaged_copy(killed, tmp_path)
    path.with_name("j.db-wal").unlink()
    result, table = outcome(path, killed["expected"])
    notices = table.view()["table"]["notices"]
    table.close()
    assert result == "told", notices
    assert any("lost" in n and "game 2" in n.lower() for n in notices), notices


@pytest.mark.integration
@pytest.mark.parametrize("seed", range(8))
def test_a_damaged_wal_survives_the_clean_stop_that_follows(
        killed: dict[str, Any], tmp_path: Path, seed: int) -> None:
    case = f"200 random bytes into the WAL, seed {seed}"
    work = tmp_path / "w"
    result, view, files = damage_outcome(killed["dir"], killed["expected"], work, case)
    if result == "told":  # the WAL as found is kept, although the clean stop checkpointed
        kept = [f for f in files if "damaged" in f and f.endswith("-wal")]
        assert len(kept) == 1, files
        assert any(kept[0].removesuffix("-wal") in n for n in view["table"]["notices"])
        original = (killed["dir"] / "j.db-wal").read_bytes()
        assert len((work / kept[0]).read_bytes()) == len(original)
        assert (work / kept[0]).read_bytes() != original  # the damaged one, as found
    assert "j.db-wal" not in files or result == "recovered"


def test_the_mark_is_written_atomically_after_each_entry(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    journal = Journal(path)
    game = journal.start_game("fake-kosmos", 2, {}, {}, False)
    journal.append(game, "action", {"type": "place", "cell": "b2", "number": 3})
    mark = json.loads(path.with_name("j.db.mark").read_text())
    assert (mark["game"], mark["seq"], mark["finished"]) == (game, 0, 0)
    assert mark["digest"] == journal.current_mark()["digest"]
    assert not path.with_name("j.db.mark.tmp").exists()
    journal.close()


@pytest.mark.integration
def test_a_damaged_entry_resumes_the_valid_prefix_and_sets_the_rest_aside(
        killed: dict[str, Any], tmp_path: Path) -> None:
    path = damaged_copy(killed, tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET data = '{\"type\": \"pla' WHERE game = 2 AND seq = 17")
    db.close()
    table, _, _ = make_table(path)
    view = table.view()
    assert view["game"] is not None and not view["game"]["over"]
    assert view["table"]["recovery"]["recovered"] == 17
    assert view["table"]["recovery"]["set_aside"] == RUNNING_ENTRIES - 17
    name = view["table"]["recovery"]["file"]
    assert any("resumed with 17 actions" in n and name in n for n in view["table"]["notices"])
    aside = json.loads((path.parent / name).read_text())
    assert [e["seq"] for e in aside["entries"]] == list(range(17, RUNNING_ENTRIES))
    assert "checksum" in aside["entries"][0]["reason"]
    assert len(table.record()["actions"]) == 9  # actions 0, 2, ..., 16 were placements
    table.close()
    assert entry_count(path, 2) == 17
    again, _, _ = make_table(path)  # the set-aside entries do not come back as damage
    assert again.view()["table"]["recovery"] is None
    assert len(again.record()["actions"]) == 9
    again.close()


@pytest.mark.integration
def test_a_damaged_finished_record_hides_no_other_and_is_told(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    table, clock, _ = make_table(path)
    for _ in range(2):
        table.new_game("fake-kosmos")
        table.set_board([])
        for square, number in FULL_GAME:
            place(table, clock, square, number)
    table.new_game("fake-kosmos")
    table.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET record = '{\"varia' WHERE id = 1")
    db.close()
    again, _, _ = make_table(path)
    finished = again.finished.every()
    assert [g["id"] for g in finished] == [2]
    notices = again.view()["table"]["notices"]
    assert any("game 1" in n.lower() and "damaged" in n for n in notices), notices
    again.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT record FROM games WHERE id = 1").fetchone()[0] == '{"varia'
    db.close()


@pytest.mark.integration
def test_a_game_that_ended_before_a_cut_is_shown_finished_after_restart(
        tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    table, clock, _ = make_table(path)
    table.new_game("fake-kosmos")
    for square, number in FULL_GAME:
        place(table, clock, square, number)
    expected, record = table.view()["game"], table.record()
    assert expected["over"]
    table.close()
    again, clock2, _ = make_table(path)
    assert again.view()["game"] == expected
    assert again.record() == record
    # taking back the last action (confirmed) reopens it, as before the cut; its record as it
    # ended stays among the finished games
    again.input({"type": "undo", "confirm": True})
    assert not again.view()["game"]["over"]
    assert len(again.finished.every()) == 1
    again.close()


@pytest.mark.integration
def test_a_version_1_journal_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, variant TEXT NOT NULL,
                players INTEGER, options TEXT NOT NULL, setup TEXT NOT NULL,
                hints INTEGER NOT NULL DEFAULT 0, started TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'running', finished TEXT, record TEXT,
                state TEXT, note TEXT);
            CREATE TABLE entries (game INTEGER NOT NULL REFERENCES games(id),
                seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, at TEXT NOT NULL,
                PRIMARY KEY (game, seq));
            INSERT INTO meta VALUES ('schema', '1');
            INSERT INTO games (variant, players, options, setup, started)
                VALUES ('fake-kosmos', 2, '{}', '{}', '2026-01-01T00:00:00+00:00');
            INSERT INTO entries VALUES (1, 0, 'action',
                '{"type": "place", "cell": "b2", "number": 3}', '2026-01-01T00:00:01+00:00');
            INSERT INTO entries VALUES (1, 1, 'hints', 'true', '2026-01-01T00:00:02+00:00');
        """)
    db.close()
    table, clock, _ = make_table(path)
    view = table.view()
    assert view["game"]["cells"] == {"b2": {"owner": 0, "number": 3}}
    assert view["table"]["hints"] is True
    assert not [p for p in tmp_path.iterdir() if "unreadable" in p.name]
    table.set_board(["b2"])
    place(table, clock, "c3", 1)
    table.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(
            SCHEMA_VERSION)
        assert db.execute("SELECT count(*) FROM entries WHERE digest IS NULL").fetchone()[0] == 0
    db.close()
    journal = Journal(path)
    stored = journal.running_game()
    assert stored is not None and len(stored.entries) == 3 and not stored.damaged
    journal.close()


@pytest.mark.integration
def test_a_game_whose_end_was_not_written_is_finished_on_restart(tmp_path: Path) -> None:
    """A cut between the last action's commit and the finished record."""
    path = tmp_path / "j.db"
    journal = Journal(path)
    game = journal.start_game("fake-kosmos", 2, {}, {}, False)
    for square, number in FULL_GAME:
        journal.append(game, "action", {"type": "place", "cell": square, "number": number})
    journal.close()
    table, _, _ = make_table(path)
    assert table.view()["game"]["over"]
    assert [g["id"] for g in table.finished.every()] == [game]
    assert table.view()["table"]["notices"] == []
    table.close()
