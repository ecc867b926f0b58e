"""Finished games out to one file and back in: every record replayed, nothing trusted."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.table import Table
from sudoku_table.table.archive import (
    FORMAT,
    MAX_GAMES,
    ArchiveError,
    export_document,
    plan_import,
)
from sudoku_table.table.journal import Journal
from tests.web.appliance import EXAMPLES, example

FINISHED = sorted(p.name for p in EXAMPLES.glob("*.json")
                  if json.loads(p.read_text(encoding="utf-8"))["state"]["over"])
UNFINISHED = sorted(p.name for p in EXAMPLES.glob("*.json") if p.name not in FINISHED)


def file_of(*names: str, finished: str = "2025-01-{n:02d}T20:00:00+00:00") -> dict[str, Any]:
    games = [{"id": n, "variant": example(name)["record"]["variant"],
              "finished": finished.format(n=n + 1), **example(name)}
             for n, name in enumerate(names)]
    return export_document(games, "2025-02-01T10:00:00+00:00", {"version": "0.1.0"})


def test_every_finished_example_is_taken_and_every_unfinished_one_refused() -> None:
    assert len(FINISHED) >= 10 and UNFINISHED
    plan = plan_import(file_of(*FINISHED, *UNFINISHED[:2]), [])
    assert plan.count("added") == len(FINISHED)
    refused = [o for o in plan.outcomes if o.result == "rejected"]
    assert len(refused) == 2
    assert all(o.reason and o.reason.english == "the game in its record is not finished"
               for o in refused)
    for game in plan.new:  # ready for the journal: the replayed state, the record as parsed
        assert game["state"]["over"] and game["record"]["actions"]


def test_a_tampered_move_or_result_is_refused_with_the_reason() -> None:
    document = file_of(FINISHED[0], FINISHED[1], FINISHED[2])
    moves = document["games"][0]["record"]["actions"]
    moves[1] = dict(moves[0])  # the same square twice
    document["games"][1]["state"]["winners"] = [9]
    document["games"][2]["finished"] = "yesterday"
    plan = plan_import(document, [])
    reasons = [o.reason.english if o.reason else None for o in plan.outcomes]
    assert reasons[0] is not None and reasons[0].startswith("move 2 is not allowed: ")
    assert reasons[1] == "its moves do not lead to the result the file states (winners)"
    assert reasons[2] == ("its finish time is missing or not a date and time with a time "
                          "zone")
    assert plan.new == []


@pytest.mark.parametrize("document, words", [
    ([], "a JSON object was expected"),
    ({"format": "something-else", "version": 1, "games": []}, "exported by a Sudoku Table"),
    ({"format": FORMAT, "version": 2, "games": []}, "this file has version 2"),
    ({"format": FORMAT, "version": 1, "games": {}}, "no list of games"),
    ({"format": FORMAT, "version": 1, "games": [{}] * (MAX_GAMES + 1)}, "at most"),
])
def test_a_file_that_is_no_export_is_refused_whole(document: Any, words: str) -> None:
    with pytest.raises(ArchiveError, match=words):
        plan_import(document, [])


def test_duplicates_in_the_file_and_on_the_table_are_skipped() -> None:
    document = file_of(FINISHED[0], FINISHED[1])
    document["games"].append(copy.deepcopy(document["games"][0]))
    on_table = [{"record": document["games"][1]["record"],
                 "finished": document["games"][1]["finished"]}]
    plan = plan_import(document, on_table)
    assert [o.result for o in plan.outcomes] == ["added", "skipped", "skipped"]
    # The same record finished at another time is another game.
    again = file_of(FINISHED[0], finished="2025-03-{n:02d}T20:00:00+00:00")
    assert plan_import(again, [{"record": document["games"][0]["record"],
                                "finished": document["games"][0]["finished"]}]
                       ).count("added") == 1


@pytest.mark.integration
def test_imported_games_are_kept_like_played_ones_and_never_resumed(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Table(journal=path) as table:
        plan = table.finished.import_document(file_of(*FINISHED[:3]))
        assert plan.count("added") == 3
        listed = table.finished.every()
        assert len(listed) == 3 and all(g["imported"] for g in listed)
        assert table.view().get("game") is None  # nothing to resume, nothing shown
        again = table.finished.import_document(file_of(*FINISHED[:3]))
        assert again.count("skipped") == 3 and again.count("added") == 0
    # Reopened: the chain of every imported game holds, the mark agrees, no notice at all.
    journal = Journal(path)
    try:
        assert not journal.troubled, journal.notices
        assert journal.last_finished_game() is None
        assert len(journal.finished_games()) == 3
    finally:
        journal.close()
    with Table(journal=path) as table:
        assert table.view().get("game") is None
        assert not table.view()["table"]["notices"]


@pytest.mark.integration
def test_an_import_during_a_game_leaves_the_game_and_its_protection_alone(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Table(journal=path) as table:
        table.new_game("classic-sudoku")
        table.set_board({"a1"})
        table.input({"type": "number", "square": "a1", "number": 1})
        table.finished.import_document(file_of(*FINISHED[:2]))
    # The mark still guards the running game: losing its action is told after the import.
    db = sqlite3.connect(path)
    db.execute("DELETE FROM entries WHERE game = 1")
    db.commit()
    db.close()
    journal = Journal(path)
    try:
        assert journal.lost == {"game": 1, "actions": 1}
    finally:
        journal.close()


@pytest.mark.integration
def test_a_failing_disk_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Table(journal=path) as table:
        db = sqlite3.connect(path)
        db.execute("CREATE TRIGGER no_more BEFORE INSERT ON entries "
                   "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        db.commit()
        db.close()
        from sudoku_table.table.journal import JournalError

        with pytest.raises(JournalError, match="disk full"):
            table.finished.import_document(file_of(*FINISHED[:3]))
        assert table.finished.every() == []
