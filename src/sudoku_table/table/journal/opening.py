"""How the journal's file is opened: WAL, ``synchronous=FULL``, checkpoints left to the writer,
every page read once, and a version-1 file given its chain."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from . import disk
from .chain import entry_digest, game_root, record_seal
from .disk import JournalError
from .schema import FINISHED, SCHEMA, SCHEMA_VERSION, WAL_LIMIT


def open_database(path: Path, checkpoint_bytes: int) -> tuple[sqlite3.Connection, bool]:
    """The journal at ``path`` opened, checked whole and at the current schema, and whether a
    version-1 file was migrated. ``JournalError`` or ``sqlite3.Error`` when it cannot be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = disk.connect(path, check_same_thread=False, isolation_level=None, timeout=5.0)
    # Damaged text reads as text with replacement characters, so that the chain (not the
    # decoder) finds it, and one bad row never stops the others from being read.
    db.text_factory = lambda b: b.decode("utf-8", errors="replace")
    try:
        _set_up(db, checkpoint_bytes)
        migrated = _bring_up_to_date(db)
        # Reading every row proves the pages are readable before a game relies on them.
        db.execute("SELECT count(*), max(length(data)) FROM entries").fetchone()
        db.execute("SELECT count(*), max(length(options)) FROM games").fetchone()
    except BaseException:
        db.close()
        raise
    return db, migrated


def _set_up(db: sqlite3.Connection, checkpoint_bytes: int) -> None:
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise JournalError(f"the save file cannot use WAL mode (got {mode})")
    db.execute("PRAGMA synchronous=FULL")
    # Checkpoints are run by the writer, where their failures are seen; the WAL is cut back
    # after each one (to no more than ``WAL_LIMIT``).
    db.execute("PRAGMA wal_autocheckpoint=0")
    limit = min(int(checkpoint_bytes), WAL_LIMIT)
    db.execute(f"PRAGMA journal_size_limit={limit}")
    check = db.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        raise JournalError(f"the save file is damaged ({check})")


def _bring_up_to_date(db: sqlite3.Connection) -> bool:
    """Create or complete the tables; True when a version-1 file was migrated."""
    row = None
    migrated = False
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is not None and row[0] == "1":
        _migrate_1(db)
        migrated = True
    elif row is not None and row[0] != str(SCHEMA_VERSION):
        raise JournalError(f"the save file has schema {row[0]}, expected {SCHEMA_VERSION}")
    db.executescript(SCHEMA)
    columns = {c[1] for c in db.execute("PRAGMA table_info(games)").fetchall()}
    if "names" not in columns:  # journals before names were kept
        db.execute("ALTER TABLE games ADD COLUMN names TEXT")
    if "imported" not in columns:  # journals before games could be imported
        db.execute("ALTER TABLE games ADD COLUMN imported TEXT")
    if row is None:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    return migrated


def _migrate_1(db: sqlite3.Connection) -> None:
    """Version 1 had no chain: add the columns and compute the chain for every row."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("ALTER TABLE games ADD COLUMN root TEXT")
        db.execute("ALTER TABLE games ADD COLUMN seal TEXT")
        db.execute("ALTER TABLE entries ADD COLUMN digest TEXT")
        games = db.execute("SELECT id, variant, players, options, setup, hints, status, "
                           "record, state FROM games").fetchall()
        for gid, variant, players, options, setup, hints, status, record, state in games:
            digest = game_root(gid, variant, players, options, setup, hints)
            seal = record_seal(record, state) if status == FINISHED else None
            db.execute("UPDATE games SET root = ?, seal = ? WHERE id = ?", (digest, seal, gid))
            rows: list[tuple[Any, ...]] = db.execute(
                "SELECT seq, kind, data FROM entries WHERE game = ? ORDER BY seq",
                (gid,)).fetchall()
            for seq, kind, data in rows:
                digest = entry_digest(digest, gid, seq, kind, data)
                db.execute("UPDATE entries SET digest = ? WHERE game = ? AND seq = ?",
                           (digest, gid, seq))
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
