"""The finished games, read beside the game: never under the table's lock, a page at a time.

The journal is SQLite in WAL mode, where readers on connections of their own see a consistent
snapshot while the one writer (the table, under its lock) goes on committing: so a list, a
record download or the export never waits on the game and the game never waits on them. Each
read opens its own read-only connection (``Shelf``), checks every record's seal as it goes (a
damaged one is left out and reported through ``on_damaged``, as ``Journal.finished_games``
does), and hands out the stored JSON text where it can, so that the export streams what is on
disk without building a Python object of each game.

Order: newest first by finish time (then id) for the list, oldest first for the export.
A page is asked for with the id of the last game of the previous page (``after``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from .journal import record_seal

Damaged = Callable[[int, str], None]
"""Told about a finished game whose record is damaged: its id and the notice code."""

FINISHED_ROWS = "record IS NOT NULL AND status != 'importing'"
"""The games that count as finished (an import under way is not one of them yet)."""

OVER_ONLY = "CASE WHEN json_valid(state) THEN json_extract(state, '$.over') END IS NOT 0"
"""Leaves out the games kept unfinished (replaced by a new game before their end)."""

NEWEST_FIRST = "ORDER BY coalesce(finished, '') DESC, id DESC"
OLDEST_FIRST = "ORDER BY coalesce(finished, '') ASC, id ASC"


@dataclass(frozen=True, slots=True)
class Summary:
    """One finished game for the list: what the table shows without its record."""

    id: int
    variant: str
    finished: str | None
    imported: bool
    names: list[str] | None
    players: int | None
    scores: Any
    winners: Any
    end_reason: Any
    unfinished: bool = False
    """Replaced by a new game before its end: its record as far as it went."""


@dataclass(frozen=True, slots=True)
class Stored:
    """One finished game as stored: its record and final state as JSON text (sealed)."""

    id: int
    variant: str
    finished: str | None
    imported: bool
    record: str
    state: str


def _json(text: object) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError:
        return None


class Shelf:
    """A read-only connection to the journal's finished games (a context manager).

    Opening and reading never take the table's lock; SQLite's WAL gives each read its own
    snapshot. ``on_damaged`` hears of every record whose seal does not hold or whose JSON
    does not parse; such a game is left out."""

    def __init__(self, path: str | Path, on_damaged: Damaged | None = None) -> None:
        self.path = Path(path)
        self._on_damaged = on_damaged
        self._db: sqlite3.Connection | None = None

    def __enter__(self) -> Shelf:
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        db = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=5.0,
                             isolation_level=None)
        db.text_factory = lambda b: b.decode("utf-8", errors="replace")
        db.execute("PRAGMA query_only = ON")
        self._db = db
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the shelf is not open")
        return self._db

    def _sound(self, gid: int, record: str, state: str, seal: str, valid: int) -> bool:
        """True if the game's record holds; else reported once and left out."""
        reason = None
        if seal != record_seal(record, state):
            reason = "record_bad_checksum"
        elif not valid:
            reason = "record_not_json"
        if reason is not None and self._on_damaged is not None:
            self._on_damaged(gid, reason)
        return reason is None

    def count(self) -> int:
        """How many finished games there are (damaged ones included)."""
        return int(self.db.execute(f"SELECT count(*) FROM games WHERE {FINISHED_ROWS}"
                                   ).fetchone()[0])

    def page(self, after: int | None, limit: int) -> tuple[list[Summary], int | None]:
        """Up to ``limit`` finished games, newest first, after the game ``after`` (None: from
        the newest); and the id to ask the next page with (None: this was the last page). Only
        the few fields of the list are taken out of the JSON, by SQLite."""
        found: list[Summary] = []
        cursor = after
        more = False
        while len(found) < limit:
            rows = self._rows(cursor, limit - len(found) + 1)
            if not rows:
                break
            more = len(rows) > limit - len(found)
            for row in rows[:limit - len(found)]:
                cursor = row[0]
                if self._sound(row[0], row[4], row[5], row[6], row[7]):
                    found.append(Summary(
                        id=row[0], variant=row[1], finished=row[2], imported=row[3] is not None,
                        names=_json(row[8]), players=row[9] if isinstance(row[9], int) else None,
                        scores=_json(row[10]), winners=_json(row[11]),
                        end_reason=row[12] if isinstance(row[12], str) else None,
                        unfinished=row[13] == 0))
            if not more:
                break
        return found, (cursor if more and found else None)

    def _rows(self, after: int | None, limit: int) -> list[tuple[Any, ...]]:
        fields = ("id, variant, finished, imported, record, state, seal, "
                  "json_valid(record) AND json_valid(state), "
                  "CASE WHEN json_valid(record) THEN json_extract(record, '$.names') END, "
                  "CASE WHEN json_valid(state) THEN json_extract(state, '$.players') END, "
                  "CASE WHEN json_valid(state) THEN json_extract(state, '$.scores') END, "
                  "CASE WHEN json_valid(state) THEN json_extract(state, '$.winners') END, "
                  "CASE WHEN json_valid(state) THEN json_extract(state, '$.end_reason') END, "
                  "CASE WHEN json_valid(state) THEN json_extract(state, '$.over') END")
        # (json_extract gives arrays as JSON text, parsed here; scalars as SQL values)
        if after is None:
            return self.db.execute(f"SELECT {fields} FROM games WHERE {FINISHED_ROWS} "
                                   f"{NEWEST_FIRST} LIMIT ?", (limit,)).fetchall()
        return self.db.execute(
            f"SELECT {fields} FROM games WHERE {FINISHED_ROWS} AND "
            "(coalesce(finished, ''), id) < (SELECT coalesce(finished, ''), id FROM games "
            f"WHERE id = ?) {NEWEST_FIRST} LIMIT ?", (after, limit)).fetchall()

    def game(self, gid: int) -> Stored | None:
        """One finished game as stored, or None (none such, or its record is damaged)."""
        if not 0 <= gid < 2**63:  # no game has such an id (SQLite's ids are 64-bit)
            return None
        row = self.db.execute(
            "SELECT id, variant, finished, imported, record, state, seal, "
            f"json_valid(record) AND json_valid(state) FROM games WHERE id = ? AND "
            f"{FINISHED_ROWS}", (gid,)).fetchone()
        if row is None or not self._sound(row[0], row[4], row[5], row[6], row[7]):
            return None
        return Stored(row[0], row[1], row[2], row[3] is not None, row[4], row[5])

    def every(self, batch: int = 16, finished_only: bool = False) -> Iterator[Stored]:
        """Every finished game, oldest first, as one snapshot (a read transaction), a few rows
        in memory at a time; ``finished_only`` leaves out the games kept unfinished."""
        db = self.db
        db.execute("BEGIN")
        which = f"{FINISHED_ROWS} AND {OVER_ONLY}" if finished_only else FINISHED_ROWS
        try:
            rows = db.execute(
                "SELECT id, variant, finished, imported, record, state, seal, "
                f"json_valid(record) AND json_valid(state) FROM games WHERE {which} "
                f"{OLDEST_FIRST}")
            while True:
                chunk = rows.fetchmany(batch)
                if not chunk:
                    return
                for row in chunk:
                    if self._sound(row[0], row[4], row[5], row[6], row[7]):
                        yield Stored(row[0], row[1], row[2], row[3] is not None, row[4], row[5])
        finally:
            if self._db is not None and self._db.in_transaction:
                self._db.execute("COMMIT")

    def records_finished_at(self, finished: str) -> list[Any]:
        """The records (parsed) of the finished games that finished at ``finished``: the only
        ones an imported game with that finish time can be the same as."""
        return [_json(r[0]) for r in self.db.execute(
            f"SELECT record FROM games WHERE {FINISHED_ROWS} AND finished = ?", (finished,))]
