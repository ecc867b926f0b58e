"""Finished games from elsewhere: added whole in one transaction, or a large file staged in
small unsynced transactions and made to count at once (docs/DESIGN.md, "Trust", imports)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from ..view import count
from .chain import entry_digest, game_root, record_seal
from .disk import JournalError
from .schema import ACTION, FINISHED, IMPORTING, Tell, now_iso
from .writer import Writer


def stored_size(game: Mapping[str, Any]) -> int:
    """About how many bytes an imported game adds to the journal: the texts it stores and a
    row's overhead, for the import's cap on growth."""
    record = game["record"]
    actions = record.get("actions") or []
    return (len(json.dumps(record)) + len(json.dumps(game["state"]))
            + sum(len(json.dumps(a)) + 160 for a in actions) + 600)


def _insert(db: sqlite3.Connection, games: Sequence[Mapping[str, Any]], status: str,
            stamp: str, added: list[int]) -> list[int]:
    """Insert imported games (each ``{"record", "state", "finished"}``) with ``status``,
    marked imported with ``stamp``; their ids are appended to ``added``."""
    for g in games:
        record = g["record"]
        options_text = json.dumps(dict(record.get("options") or {}))
        setup_text = json.dumps(dict(record.get("setup") or {}))
        record_text, state_text = json.dumps(record), json.dumps(g["state"])
        names_text = json.dumps({"names": list(record.get("names") or []), "colors": []})
        cur = db.execute(
            "INSERT INTO games (variant, players, options, setup, hints, started, "
            "status, finished, record, state, seal, names, imported) "
            "VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record["variant"], record.get("players"), options_text, setup_text,
             g["finished"], status, g["finished"], record_text, state_text,
             record_seal(record_text, state_text), names_text, stamp))
        gid = int(cur.lastrowid or 0)
        digest = game_root(gid, record["variant"], record.get("players"), options_text,
                           setup_text, False)
        db.execute("UPDATE games SET root = ? WHERE id = ?", (digest, gid))
        for seq, action in enumerate(record.get("actions") or []):
            text = json.dumps(action)
            digest = entry_digest(digest, gid, seq, ACTION, text)
            db.execute("INSERT INTO entries (game, seq, kind, data, at, digest) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (gid, seq, ACTION, text, g["finished"], digest))
        added.append(gid)
    return added


class Imports:
    """Imports into one journal through ``writer``; none ever takes the game's reserve."""

    def __init__(self, writer: Writer, tell: Tell) -> None:
        self._writer = writer
        self._tell = tell

    def add(self, games: Sequence[Mapping[str, Any]]) -> list[int]:
        """Add finished games all in one transaction: all on disk when this returns, or none.
        Each is kept like a game played here (its actions as chained entries, its record
        sealed) and marked imported, so that the table never resumes it; their ids."""
        stamp = now_iso()
        added: list[int] = []

        def work(db: sqlite3.Connection) -> int:
            added.clear()  # a transaction run again starts afresh
            return len(_insert(db, games, FINISHED, stamp, added))

        try:
            self._writer.tx(work, spare=False)
        except JournalError:
            added.clear()
            raise
        return added

    def stage(self, games: Sequence[Mapping[str, Any]], stamp: str) -> list[int]:
        """Write a few games of the import ``stamp`` (one small transaction), not yet counted
        as finished; their ids."""
        added: list[int] = []
        try:
            self._writer.unsynced_tx(lambda db: len(_insert(db, games, IMPORTING, stamp, added)))
        except JournalError:
            added.clear()
            raise
        self._writer.checkpoint_if_large()  # the WAL stays bounded while a large import is staged
        return added

    def commit(self, stamp: str) -> int:
        """Every game staged by the import ``stamp`` counts as finished, at once."""
        committed = self._writer.tx(lambda db: db.execute(
            "UPDATE games SET status = ? WHERE status = ? AND imported = ?",
            (FINISHED, IMPORTING, stamp)).rowcount, spare=False)
        self._writer.checkpoint()
        return committed

    def discard(self, stamp: str | None = None) -> int:
        """Remove the games staged by the import ``stamp`` (every staged game: None)."""
        where = "status = ?" + ("" if stamp is None else " AND imported = ?")
        args: tuple[str, ...] = (IMPORTING,) if stamp is None else (IMPORTING, stamp)

        def work(db: sqlite3.Connection) -> int:
            db.execute(f"DELETE FROM entries WHERE game IN (SELECT id FROM games WHERE {where})",
                       args)
            return db.execute(f"DELETE FROM games WHERE {where}", args).rowcount

        discarded = self._writer.tx(work)
        self._writer.checkpoint()
        return discarded

    def staged(self) -> int:
        """How many staged games of an import the journal holds (0 while none runs; more
        only when an import was cut off or given up and its games could not be removed)."""
        db = self._writer.db
        if db is None:
            return 0
        return int(db.execute("SELECT count(*) FROM games WHERE status = ?",
                              (IMPORTING,)).fetchone()[0])

    def discard_cut(self) -> None:
        """An import cut off by a stop left staged games: they never counted, so they go."""
        staged = self.staged()
        if not staged:
            return
        try:
            self.discard()
        except JournalError as e:
            self._tell("journal_error", detail=str(e))
            return
        self._tell("import_cut_off", games=count(staged, "finished game"))
