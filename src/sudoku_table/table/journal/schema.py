"""The journal's file: its tables and the words stored in them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

SCHEMA_VERSION = 2

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
    note TEXT,
    root TEXT,
    seal TEXT,
    names TEXT,
    imported TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    digest TEXT,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS games_finished ON games (finished);
CREATE TABLE IF NOT EXISTS set_aside (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT,
    data TEXT,
    at TEXT,
    digest TEXT,
    reason TEXT NOT NULL,
    file TEXT
);
"""

RUNNING, FINISHED, ABANDONED, UNREADABLE = "running", "finished", "abandoned", "unreadable"
IMPORTING = "importing"
"""A game of an import under way: written in small transactions, counted as finished only once
the whole file is in (``commit_import``), removed if the import fails or is cut off."""

WAL_LIMIT = 4 * 1024 * 1024
"""Bytes the WAL file is cut back to after a checkpoint (``journal_size_limit``), so that an
import or a long read does not leave it large."""
ACTION, UNDO, HINTS, DRAW = "action", "undo", "hints", "draw"
DAMAGED = "damaged"
"""Stands for a stored value that is no longer valid JSON; replaying it fails with a reason."""

Tell = Callable[..., None]
"""How a part of the journal leaves a notice for the view: a code of ``view.MESSAGES`` and its
parameters (each notice kept once)."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
