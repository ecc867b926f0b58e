"""The journal: every accepted action on disk before the LEDs confirm it.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only once the entry is on disk,
so a power cut right after the LEDs changed never loses that action. One row per game, one row
per entry (an action or a take-back) in order, so a game is rebuilt by replaying its entries.
Finished games stay as records.

A file that is not a journal, or a damaged one, is renamed aside (never deleted) and a fresh
journal is started; the reason is kept in ``notices`` for the panel to show.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    players INTEGER,
    options TEXT NOT NULL,
    setup TEXT NOT NULL,
    hints INTEGER NOT NULL DEFAULT 0,
    started TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    finished TEXT,
    record TEXT,
    state TEXT,
    note TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""

RUNNING, FINISHED, ABANDONED, UNREADABLE = "running", "finished", "abandoned", "unreadable"
ACTION, UNDO, HINTS = "action", "undo", "hints"
DAMAGED = "damaged"
"""Stands for a stored value that is no longer valid JSON; replaying it fails with a reason."""


class JournalError(Exception):
    """The journal could not be written; the message says why."""


@dataclass
class StoredGame:
    """One game as the journal holds it: how it started and its entries in order."""

    id: int
    variant: str
    players: int | None
    options: Any
    setup: Any
    hints: bool
    entries: list[tuple[str, Any]] = field(default_factory=list)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Journal:
    """An open journal file. Not thread-safe by itself: the table calls it under its lock."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.notices: list[str] = []
        self._db: sqlite3.Connection | None = None
        try:
            self._db = self._open()
        except (sqlite3.DatabaseError, JournalError) as e:
            self._set_aside(str(e))
            try:
                self._db = self._open()
            except (sqlite3.Error, OSError, JournalError) as e2:
                self.notices.append(f"cannot start a fresh journal at {self.path.name}: {e2}; "
                                    "this game is not saved")
        except OSError as e:
            self.notices.append(f"cannot open the journal {self.path.name}: {e}; "
                                "this game is not saved")

    # --- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                             timeout=5.0)
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"the journal cannot use WAL mode (got {mode})")
            db.execute("PRAGMA synchronous=FULL")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise JournalError(f"the journal is damaged ({check})")
            db.executescript(SCHEMA)
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise JournalError(f"the journal has schema {row[0]}, expected {SCHEMA_VERSION}")
            # Reading every row proves the pages are readable before a game relies on them.
            db.execute("SELECT count(*), max(length(data)) FROM entries").fetchone()
            db.execute("SELECT count(*), max(length(options)) FROM games").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _set_aside(self, reason: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}-{n}")
            n += 1
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    os.replace(side, aside.with_name(aside.name + suffix))
        except OSError as e:
            self.notices.append(f"the journal {self.path.name} is unreadable ({reason}) and "
                                f"could not be moved aside: {e}")
            raise JournalError(str(e)) from None
        self.notices.append(f"the journal {self.path.name} was unreadable ({reason}); it was "
                            f"kept as {aside.name} and a fresh journal started")

    def start_over(self, reason: str) -> None:
        """The open file turned out unreadable: keep it aside and continue with a fresh one."""
        self.close()
        try:
            self._set_aside(reason)
            self._db = self._open()
        except (sqlite3.Error, OSError, JournalError) as e:
            self.notices.append(f"cannot start a fresh journal: {e}; this game is not saved")

    @property
    def ok(self) -> bool:
        """True while entries reach the disk."""
        return self._db is not None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- writing ---------------------------------------------------------------------------

    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        if self._db is None:
            raise JournalError("the journal is not open")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            cur = self._db.execute(sql, args)
            self._db.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise JournalError(f"cannot write the journal: {e}") from None
        return int(cur.lastrowid or 0)

    def start_game(self, variant: str, players: int | None, options: Mapping[str, Any],
                   setup: Mapping[str, Any], hints: bool) -> int:
        """A new running game; any other running game is kept, marked abandoned."""
        if self._db is None:
            raise JournalError("the journal is not open")
        self._write("UPDATE games SET status = ? WHERE status = ?", (ABANDONED, RUNNING))
        return self._write(
            "INSERT INTO games (variant, players, options, setup, hints, started) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (variant, players, json.dumps(dict(options)), json.dumps(dict(setup)), int(hints),
             now_iso()),
        )

    def append(self, game: int, kind: str, data: Any) -> None:
        """One entry (``action`` with its JSON, ``undo``, ``hints``), on disk when this returns."""
        self._write(
            "INSERT INTO entries (game, seq, kind, data, at) VALUES "
            "(?, (SELECT coalesce(max(seq), -1) + 1 FROM entries WHERE game = ?), ?, ?, ?)",
            (game, game, kind, json.dumps(data), now_iso()),
        )

    def finish(self, game: int, record: Mapping[str, Any], state: Mapping[str, Any]) -> None:
        """Keep the finished game as a record with its final state."""
        self._write(
            "UPDATE games SET status = ?, finished = ?, record = ?, state = ? WHERE id = ?",
            (FINISHED, now_iso(), json.dumps(record), json.dumps(state), game),
        )

    def reopen(self, game: int) -> None:
        """A finished game whose last action was taken back is running again."""
        self._write(
            "UPDATE games SET status = ?, finished = NULL, record = NULL, state = NULL "
            "WHERE id = ?", (RUNNING, game))

    def set_unreadable(self, game: int, note: str) -> None:
        """Set a game aside that cannot be replayed; it stays in the file for inspection."""
        self._write("UPDATE games SET status = ?, note = ? WHERE id = ?", (UNREADABLE, note, game))

    # --- reading ---------------------------------------------------------------------------

    def running_game(self) -> StoredGame | None:
        """The most recent running game with its entries, or None."""
        if self._db is None:
            return None
        row = self._db.execute(
            "SELECT id, variant, players, options, setup, hints FROM games "
            "WHERE status = ? ORDER BY id DESC LIMIT 1", (RUNNING,)).fetchone()
        if row is None:
            return None
        try:
            options, setup = json.loads(row[3]), json.loads(row[4])
        except (json.JSONDecodeError, TypeError):
            options, setup = DAMAGED, DAMAGED
        game = StoredGame(row[0], row[1], row[2], options, setup, bool(row[5]))
        for kind, data in self._db.execute(
                "SELECT kind, data FROM entries WHERE game = ? ORDER BY seq", (game.id,)):
            try:
                game.entries.append((kind, json.loads(data)))
            except (json.JSONDecodeError, TypeError):
                game.entries.append((DAMAGED, data))
        return game

    def finished_games(self) -> list[dict[str, Any]]:
        """Every finished game, oldest first: id, variant, finish time, record and state."""
        if self._db is None:
            return []
        rows = self._db.execute(
            "SELECT id, variant, finished, record, state FROM games WHERE status = ? "
            "ORDER BY id", (FINISHED,)).fetchall()
        return [{"id": r[0], "variant": r[1], "finished": r[2], "record": json.loads(r[3]),
                 "state": json.loads(r[4])} for r in rows]
