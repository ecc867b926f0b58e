"""The archive at the edges: reads never wait on the game, an import stays within bounds.

The attack found that listing the finished games, a record download and the export loaded every
record while holding the table's lock (32 readers made a phone's tap take 6-10 s), and that an
import of 8 MB of empty objects was parsed whole (about 260 MB), written in one transaction
holding the lock, and grew the journal and its WAL by 58 MB each. Speed is measured in
``bench/bench_archive.py``; here the behaviour: reads answer while the lock is held, memory is
bounded by construction, an import is all or nothing, and the WAL is cut back.
"""

from __future__ import annotations

import io
import json
import sqlite3
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.table import Table
from sudoku_table.table.archive import MAX_GAMES, ArchiveError, export_chunks, read_export
from sudoku_table.table.journal import IMPORTING, WAL_LIMIT, Journal

from .test_archive import FINISHED, file_of


def table_with_games(path: Path, copies: int = 2) -> Table:
    table = Table(journal=path)
    for n in range(copies):
        table.finished.import_document(file_of(
            *FINISHED, finished=f"2025-{n + 1:02d}-{{n:02d}}T20:00:00+00:00"))
    return table


@pytest.mark.integration
def test_reading_the_finished_games_never_takes_the_tables_lock(tmp_path: Path) -> None:
    """With the lock held by somebody else (a long game step), every read still answers."""
    table = table_with_games(tmp_path / "j.db")
    total = 2 * len(FINISHED)
    answers: dict[str, Any] = {}

    def read() -> None:
        shelf = table.finished.shelf()
        assert shelf is not None
        with shelf:
            answers["page"] = shelf.page(None, 5)
            answers["count"] = shelf.count()
            first = answers["page"][0][0].id
            answers["game"] = shelf.game(first)
            answers["export"] = json.loads("".join(export_chunks(shelf.every(), "now", {})))
        answers["all"] = table.finished.every()

    try:
        with table.lock:  # the game holds the lock all the while
            reader = threading.Thread(target=read)
            reader.start()
            reader.join(timeout=30)
            assert not reader.is_alive(), "a read waited for the table's lock"
        page, following = answers["page"]
        assert len(page) == 5 and following == page[-1].id
        assert answers["count"] == total and answers["game"] is not None
        assert len(answers["export"]["games"]) == total == len(answers["all"])
    finally:
        table.close()


@pytest.mark.integration
def test_pages_follow_each_other_without_gaps_newest_first(tmp_path: Path) -> None:
    table = table_with_games(tmp_path / "j.db")
    try:
        shelf = table.finished.shelf()
        assert shelf is not None
        with shelf:
            seen, after = [], None
            while True:
                page, after = shelf.page(after, 7)
                seen += page
                if after is None:
                    break
        keys = [(g.finished, g.id) for g in seen]
        assert keys == sorted(keys, reverse=True)
        assert len({g.id for g in seen}) == len(seen) == 2 * len(FINISHED)
    finally:
        table.close()


@pytest.mark.integration
def test_a_damaged_record_is_left_out_of_a_page_and_told(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    table = table_with_games(path, copies=1)
    try:
        db = sqlite3.connect(path)
        victim = db.execute("SELECT max(id) FROM games").fetchone()[0]
        db.execute("UPDATE games SET record = replace(record, '\"actions\"', '\"actionz\"') "
                   "WHERE id = ?", (victim,))
        db.commit()
        db.close()
        shelf = table.finished.shelf()
        assert shelf is not None
        with shelf:
            page, _ = shelf.page(None, 100)
            assert victim not in {g.id for g in page} and len(page) == len(FINISHED) - 1
            assert shelf.game(victim) is None
        assert any("damaged" in n for n in table.view()["table"]["notices"])
    finally:
        table.close()


# --- import bombs --------------------------------------------------------------------------------

def empty_objects(size: int) -> bytes:
    head = b'{"format": "sudoku-table-games", "version": 1, "games": ['
    count = (size - len(head)) // 3
    return head + b",".join([b"{}"] * count) + b"]}"


def peak_while(work: Any) -> int:
    """The most memory Python held while ``work`` ran (bytes, tracemalloc)."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
@pytest.mark.parametrize("bomb", [
    empty_objects(8 * 1024 * 1024),  # 2.8 million games of nothing
    b'{"format": "sudoku-table-games", "version": 1, "games": [[' + b"1," * 3_000_000 + b'1]]}',
    b'{"format": "sudoku-table-games", "version": 1, "games": ["' + b"x" * 6_000_000 + b'"]}',
    b'{"format": "sudoku-table-games", "version": 1, "games": [' + b"[" * 100_000,
])
def test_an_import_bomb_is_refused_reading_at_most_one_game(bomb: bytes) -> None:
    """Bounded by construction: the parser stops at the first cap a game passes, holding at
    most one game (and never a whole text of megabytes: ijson's buffer is 64 KiB)."""
    def read() -> None:
        with pytest.raises(ArchiveError):
            for _ in read_export(io.BytesIO(bomb)):
                pass

    assert peak_while(read) < 16 * 1024 * 1024  # the file alone is 6-8 MB, not held twice


@pytest.mark.integration
def test_an_import_of_empty_objects_refuses_the_file_and_adds_nothing(tmp_path: Path) -> None:
    with Table(journal=tmp_path / "j.db") as table:
        with pytest.raises(ArchiveError, match=f"more than {MAX_GAMES} games"):
            table.finished.import_file(io.BytesIO(empty_objects(1024 * 1024)))
        assert table.finished.every() == []


@pytest.mark.integration
def test_an_import_over_its_growth_cap_adds_nothing(tmp_path: Path) -> None:
    with Table(journal=tmp_path / "j.db") as table:
        document = json.dumps(file_of(*FINISHED)).encode()
        with pytest.raises(ArchiveError, match="split it"):
            table.finished.import_file(io.BytesIO(document), max_growth=50_000)
        assert table.finished.every() == []
        db = sqlite3.connect(tmp_path / "j.db")
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0  # staged ones gone
        db.close()


@pytest.mark.integration
def test_an_import_that_breaks_off_late_is_all_or_nothing(tmp_path: Path) -> None:
    """Games are written a few at a time, but none counts until the whole file is in."""
    with Table(journal=tmp_path / "j.db") as table:
        text = json.dumps(file_of(*FINISHED, *FINISHED, finished="2025-05-{n:02d}T20:00:00"
                                  "+00:00"))
        with pytest.raises(ArchiveError):
            table.finished.import_file(io.BytesIO(text[:-40].encode()))  # cut off near its end
        assert table.finished.every() == []
        plan = table.finished.import_file(io.BytesIO(text.encode()))
        assert plan.count("added") == len(table.finished.every()) > 16


@pytest.mark.integration
def test_an_import_cut_off_by_a_stop_is_taken_out_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    journal = Journal(path)
    games = [{"record": json.loads(json.dumps(g["record"])), "state": g["state"],
              "finished": g["finished"]} for g in file_of(*FINISHED[:3])["games"]]
    journal.stage_import(games, "2025-01-01T00:00:00+00:00")
    journal.close()  # a stop before commit_import
    with Table(journal=path) as table:
        assert table.finished.every() == []
        assert any("cut off" in n for n in table.view()["table"]["notices"])
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM games WHERE status = ?", (IMPORTING,)
                      ).fetchone()[0] == 0
    db.close()
    journal = Journal(path)
    try:
        assert not journal.troubled, journal.notices  # no false alarm from the mark
    finally:
        journal.close()


@pytest.mark.integration
def test_imports_leave_the_wal_small(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Table(journal=path) as table:
        for n in range(4):
            table.finished.import_document(file_of(*FINISHED, *FINISHED, *FINISHED,
                                          finished=f"2025-{n + 1:02d}-{{n:02d}}T20:00:00"
                                                   "+00:00"))
            table.set_board([])  # the next write after the checkpoint cuts the WAL back
            wal = path.with_name(path.name + "-wal")
            assert not wal.exists() or wal.stat().st_size <= WAL_LIMIT + 512 * 1024


@pytest.mark.integration
def test_a_second_import_at_once_is_refused_unread(tmp_path: Path) -> None:
    from sudoku_table.table.archive import ArchiveBusy

    with Table(journal=tmp_path / "j.db") as table:
        started, release = threading.Event(), threading.Event()

        class Slow:
            def __init__(self, data: bytes) -> None:
                self.data = io.BytesIO(data)

            def read(self, size: int = -1) -> bytes:
                started.set()
                release.wait(10)
                return self.data.read(size)

        first = threading.Thread(target=table.finished.import_file, args=(
            Slow(json.dumps(file_of(FINISHED[0])).encode()),))
        first.start()
        started.wait(10)
        unread = io.BytesIO(b"never read")
        with pytest.raises(ArchiveBusy):
            table.finished.import_file(unread)
        assert unread.tell() == 0
        release.set()
        first.join(10)
        assert len(table.finished.every()) == 1


@pytest.mark.integration
@pytest.mark.slow
def test_a_large_import_replays_its_games_in_a_worker_process(tmp_path: Path) -> None:
    """The same outcome as replaying here, with the replay out of the table's interpreter."""
    from .test_archive import UNFINISHED

    text = json.dumps(file_of(*FINISHED, UNFINISHED[0])).encode()
    with Table(journal=tmp_path / "a.db") as here, Table(journal=tmp_path / "b.db") as apart:
        local = here.finished.import_file(io.BytesIO(text))
        worker = apart.finished.import_file(io.BytesIO(text), separate=True)
        assert [(o.result, o.reason and o.reason.english) for o in worker.outcomes] == [
            (o.result, o.reason and o.reason.english) for o in local.outcomes]
        assert len(apart.finished.every()) == len(FINISHED)
