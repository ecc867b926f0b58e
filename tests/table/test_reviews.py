"""Reviews of finished games: computed off the table's lock, progressively, kept beside the
journal; and a finished game replayed on the board's LEDs, which leaves the table as it was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.ai import ComputerConfig
from sudoku_table.firmware.ports import SensorEvent
from sudoku_table.table import InputError, Table
from sudoku_table.table.reviews import DONE, NONE, WAITING, Reviews, ReviewStore, review_key
from sudoku_table.table.signals import light
from tests.web.appliance import example

from .helpers import RecordingDisplay
from .test_archive import file_of

QUICK = ComputerConfig(strong_positions=60, strong_seconds=30.0)
"""Few positions: the tests look at how reviews are made and kept, not at their judgement."""
SHORT = "vierer-dominari-7-12.json"
"""A finished game of 12 moves."""


def _record(name: str = SHORT) -> dict[str, Any]:
    return dict(example(name)["record"])


def _judged(judgements: list[Any]) -> list[dict[str, Any]]:
    """The judgements as data, without the time each took."""
    return [{k: v for k, v in j.to_json().items() if k != "seconds"} for j in judgements]


def test_a_review_fills_in_move_by_move_and_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3.reviews"
    record = _record()
    reviews = Reviews(path, QUICK, workers="thread")
    assert reviews.progress(record).status == NONE
    seen = reviews.changes
    started = reviews.request(record)
    assert started.total == 12 and started.status in ("running", WAITING)
    counts = []
    while True:
        seen = reviews.wait_for_change(seen, timeout=60)
        progress = reviews.progress(record)
        counts.append(progress.done)
        if progress.status == DONE:
            break
    assert counts == sorted(counts) and counts[-1] == 12, "one judgement after another"
    assert [j.index for j in progress.judged] == list(range(12))
    reviews.close()
    # Kept: a new table finds it done and starts nothing.
    again = Reviews(path, QUICK, workers="thread")
    kept = again.request(record)
    assert kept.status == DONE and [j.to_json() for j in kept.judged] == \
        [j.to_json() for j in progress.judged]
    assert again._collector is None, "nothing is computed twice"
    again.close()


def test_the_names_do_not_matter_the_level_and_effort_do() -> None:
    record = _record()
    named = {**record, "names": ["Anna", "Ben"]}
    assert review_key(record, "strong", 60) == review_key(named, "strong", 60)
    assert review_key(record, "strong", 60) != review_key(record, "strong", 800)
    assert review_key(record, "strong", 60) != review_key(record, "normal", 60)


def test_a_review_cut_short_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "reviews"
    record = _record()
    reviews = Reviews(path, QUICK, workers="thread")
    key = reviews.key(record, "strong")
    reviews.request(record)
    reviews.wait(record)
    judged = reviews.progress(record).judged
    reviews.close()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM judged WHERE key = ? AND idx >= 5", (key,))
    db.execute("UPDATE reviews SET finished = NULL WHERE key = ?", (key,))
    db.commit()
    db.close()
    again = Reviews(path, QUICK, workers="thread")
    half = again.progress(record)
    assert (half.status, half.done) == (WAITING, 5), "kept half done, waits to be asked"
    asked: list[int] = []
    import sudoku_table.table.reviews as module

    original = module.judge_move

    def counting(*args: Any) -> dict[str, Any]:
        asked.append(args[2])
        return original(*args)

    module.judge_move = counting  # type: ignore[assignment]
    try:
        again.request(record)
        done = again.wait(record)
    finally:
        module.judge_move = original  # type: ignore[assignment]
    assert asked == list(range(5, 12))
    assert _judged(done.judged) == _judged(judged)
    again.close()


def test_an_unreadable_file_of_reviews_is_moved_aside_and_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3.reviews"
    path.write_bytes(b"this is no database" * 100)
    reviews = Reviews(path, QUICK, workers="thread")
    assert reviews.progress(_record()).status == NONE
    reviews.close()
    assert [p.name for p in tmp_path.iterdir() if ".unreadable-" in p.name]


def test_a_file_of_reviews_busy_elsewhere_is_not_taken_for_damaged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Held locked by another program past the wait: the reviews go on in memory, and the file,
    which is sound, stays where it is (it was moved aside as unreadable)."""
    monkeypatch.setattr(ReviewStore, "busy_wait", 0.05)  # the wait itself is not the point
    path = tmp_path / "reviews"
    Reviews(path, QUICK, workers="thread").close()
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        reviews = Reviews(path, QUICK, workers="thread")
        assert reviews.progress(_record()).status == NONE
        reviews.close()
    finally:
        holder.close()
    assert not [p.name for p in tmp_path.iterdir() if ".unreadable-" in p.name]


@pytest.mark.integration
def test_a_review_never_needs_the_tables_lock(tmp_path: Path) -> None:
    """The whole review is made while the table's lock is held elsewhere: it never waits for
    it (sensors and inputs never wait for a review)."""
    table = Table(journal=tmp_path / "journal.sqlite3", computer=QUICK, review_workers="thread")
    table.finished.import_document(file_of(SHORT))
    record = table.finished.every()[0]["record"]
    with table.lock:
        table.reviews.request(record)
        assert table.reviews.wait(record, timeout=60).status == DONE
    table.close()


@pytest.mark.slow
def test_a_review_is_made_in_a_worker_process(tmp_path: Path) -> None:
    import os

    import sudoku_table.table.reviews as module

    reviews = Reviews(tmp_path / "reviews", QUICK, workers="process")
    record = _record()
    reviews.request(record)
    assert reviews.wait(record, timeout=120).status == DONE
    pool = reviews._pool
    assert isinstance(pool, module.futures.ProcessPoolExecutor), "not the thread fallback"
    assert pool.submit(os.getpid).result() != os.getpid()
    reviews.close()


# --- the replay on the board ------------------------------------------------------------------

def _table_with_a_game(tmp_path: Path) -> tuple[Table, RecordingDisplay]:
    display = RecordingDisplay()
    table = Table(display, tmp_path / "journal.sqlite3", computer=QUICK, review_workers="thread",
                  ticker=False)
    table.finished.import_document(file_of(SHORT, "classic-sudoku-7-66.json"))
    table.new_game("classic-sudoku", 2)
    table.set_board({"a1"})
    table.input({"type": "number", "square": "a1", "number": 1})
    table.set_board({"a1", "e5"})  # a piece the game does not expect: a light
    return table, display


def _without(view: dict[str, Any], *keys: str) -> dict[str, Any]:
    table = {k: v for k, v in view["table"].items() if k not in (*keys, "version")}
    if table.get("say"):  # each table numbers its own announcements
        table["say"] = {k: v for k, v in table["say"].items() if k != "id"}
    return {**view, "table": table, "version": None, "boot": None}  # each names its own start


@pytest.mark.integration
def test_a_replay_lights_the_move_and_leaves_the_table_as_it_was(tmp_path: Path) -> None:
    table, display = _table_with_a_game(tmp_path)
    before_view, before_frame = table.view(), table.frame()
    assert before_frame and display.last_frame == before_frame
    game_id = table.finished.every()[0]["id"]
    record = table.finished.every()[0]["record"]
    view = table.show_replay(game_id, 3)
    shown = view["table"]["replay"]
    action = record["actions"][2]
    assert shown["move"] == 3 and shown["moves"] == 12 and shown["action"] == action
    assert view["table"]["signals"] == before_view["table"]["signals"], "the game's own words"
    player = shown["player"]
    assert display.last_frame == {action["cell"]: light("replayed", player)}
    assert view["game"] == before_view["game"]
    table.show_replay(game_id, 4)
    assert display.last_frame == {record["actions"][3]["cell"]: light("replayed", 1 - player)}
    left = table.leave_replay()
    assert left["table"]["replay"] is None
    assert display.last_frame == before_frame == table.frame()
    assert _without(left, "replay") == _without(before_view, "replay")
    table.close()


@pytest.mark.integration
def test_the_better_move_lights_once_the_review_has_it(tmp_path: Path) -> None:
    table, display = _table_with_a_game(tmp_path)
    entry = table.finished.every()[0]
    table.reviews.request(entry["record"])
    judged = table.reviews.wait(entry["record"]).judged
    weaker = next(j for j in judged if j.best != j.action)
    view = table.show_replay(entry["id"], weaker.index + 1)
    better_cells = [c for c, w in view["table"]["replay"]["signals"].items() if w == "better"]
    assert better_cells == [weaker.best.cell]  # type: ignore[union-attr]
    assert display.last_frame[better_cells[0]] == light("better")
    assert view["table"]["replay"]["better"] == weaker.best.to_json()
    table.close()


@pytest.mark.integration
def test_a_sensor_event_during_a_replay_ends_it_and_counts_for_the_game(tmp_path: Path) -> None:
    """Two tables in the same game; one shows a replay when a piece is lifted. Both then show
    the same game, view and lights: the event was neither lost nor read as a step."""
    first, first_display = _table_with_a_game(tmp_path / "a")
    second, second_display = _table_with_a_game(tmp_path / "b")
    first.show_replay(first.finished.every()[0]["id"], 2)
    for table in (first, second):
        table.handle_sensor(SensorEvent("e5", False, 10.0))
    one, two = first.view(), second.view()
    assert one["table"]["replay"] is None
    assert _without(one, "replay") == _without(two, "replay")
    assert first.frame() == second.frame() == first_display.last_frame == second_display.last_frame
    first.close()
    second.close()


@pytest.mark.integration
def test_an_input_or_a_new_game_ends_a_replay(tmp_path: Path) -> None:
    table, _ = _table_with_a_game(tmp_path)
    game_id = table.finished.every()[0]["id"]
    table.show_replay(game_id, 1)
    table.input({"type": "number", "square": "e5", "number": 2})
    assert table.view()["table"]["replay"] is None
    table.show_replay(game_id, 1)
    table.new_game("vierer-dominari", replace=True)
    assert table.view()["table"]["replay"] is None
    table.close()


@pytest.mark.integration
def test_a_replay_of_a_game_or_move_that_is_not_there_changes_nothing(tmp_path: Path) -> None:
    table, display = _table_with_a_game(tmp_path)
    frames = len(display.frames)
    with pytest.raises(InputError, match="no finished game 99"):
        table.show_replay(99, 1)
    with pytest.raises(InputError, match="moves 1 to 12"):
        table.show_replay(table.finished.every()[0]["id"], 13)
    assert table.view()["table"]["replay"] is None and len(display.frames) == frames
    table.close()


@pytest.mark.integration
def test_reviews_are_kept_in_their_own_file_beside_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    table = Table(journal=journal, computer=QUICK, review_workers="thread")
    table.finished.import_document(file_of(SHORT))
    table.reviews.request(table.finished.every()[0]["record"])
    table.reviews.wait(table.finished.every()[0]["record"])
    table.close()
    kept = journal.with_name("journal.sqlite3.reviews")
    assert kept.is_file()
    tables = {r[0] for r in sqlite3.connect(journal).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "judged" not in tables, "the journal's schema is untouched"
    assert json.loads(sqlite3.connect(kept).execute(
        "SELECT data FROM judged WHERE idx = 0").fetchone()[0])["index"] == 0


def test_closing_while_a_move_is_judged_loses_nothing_kept_and_says_no_error(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The table stops in the middle of a review: the move being judged is dropped (judged
    again next time), nothing fails, and what was kept stays kept."""
    path = tmp_path / "reviews"
    record = _record("classic-sudoku-7-66.json")
    reviews = Reviews(path, QUICK, workers="thread")
    seen = reviews.changes
    reviews.request(record)
    while reviews.progress(record).done < 1:
        seen = reviews.wait_for_change(seen, timeout=60)
    reviews.close()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    again = Reviews(path, QUICK, workers="thread")
    kept = again.progress(record)
    assert kept.status == WAITING and 1 <= kept.done < 66
    again.close()
