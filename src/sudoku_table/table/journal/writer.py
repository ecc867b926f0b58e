"""The write path: the journal's one SQLite connection, each transaction on disk or refused
whole with its cause, the reserve given back when the disk fills, the mark after every commit,
and checkpoints run where their failures are seen."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from . import disk
from .disk import FULL, OTHER, JournalError, cause_of
from .mark import Mark
from .reserve import Reserve
from .schema import now_iso

log = logging.getLogger(__name__)

CHECKPOINT_BYTES = 1024 * 1024
"""A WAL larger than this after a commit is checkpointed (SQLite's own default is 4 MiB)."""

Work = Callable[[sqlite3.Connection], int]
"""What one transaction does; it must start from what it reads (it may be run twice)."""


class Writer:
    """Writes to one journal file. ``open_error`` says why the file could not be opened
    although nothing is wrong with it (no space, a read-only disk): the writer then has no
    connection and every write is refused with that cause."""

    def __init__(self, path: Path, reserve: Reserve, mark: Mark, checkpoint: int) -> None:
        self.path = path
        self.reserve = reserve
        self.mark = mark
        self.checkpoint_bytes = checkpoint
        self.checkpoint_failures = 0
        self.open_error: JournalError | None = None
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection | None:
        """The connection (None while the journal is closed)."""
        return self._db

    def attach(self, db: sqlite3.Connection) -> None:
        """Write through ``db`` from now on (the journal just opened)."""
        self._db = db

    def refuse(self, error: JournalError) -> None:
        """The journal cannot be opened now: every write is refused for this reason."""
        self.open_error = error

    def close(self) -> None:
        """Close the connection (the last one checkpoints the WAL into the main file)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def tx(self, work: Work, spare: bool = True) -> int:
        """Run ``work`` in one transaction, on disk when this returns (``JournalError``, and
        nothing of it in the file, when not). For want of space the reserve is given back and
        the transaction run once more (``spare``: the write is for the game in progress; a new
        game or an import never takes the reserve)."""
        try:
            result = self._commit(work)
        except JournalError as e:
            if e.cause != FULL or not spare or not self.reserve.release():
                raise
            result = self._commit(work)
        self.write_mark()
        self.checkpoint_if_large()
        return result

    def _commit(self, work: Work) -> int:
        if self._db is None:
            raise JournalError("the save file is not open", self.open_error.cause
                               if self.open_error is not None else OTHER)
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            result = work(db)
            db.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                if db.in_transaction:
                    db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise JournalError(f"cannot write the save file: {e}",
                               cause_of(e, self.path.parent)) from None
        return result

    def unsynced_tx(self, work: Work) -> int:
        """A transaction for staged games: not synced to disk and no mark written (they count
        for nothing until the import commits, in a transaction synced as every other, and a
        cut before that discards them anyway). It costs no fsync, so the lock is held briefly."""
        if self._db is None:
            raise JournalError("the save file is not open")
        db = self._db
        try:
            db.execute("PRAGMA synchronous=OFF")
            db.execute("BEGIN IMMEDIATE")
            result = work(db)
            db.execute("COMMIT")
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise JournalError(f"cannot write the save file: {e}",
                               cause_of(e, self.path.parent)) from None
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA synchronous=FULL")
        return result

    def probe(self) -> None:
        """One small real write (``JournalError`` when it fails): whether the disk takes
        writes again."""
        self.tx(lambda db: db.execute("INSERT OR REPLACE INTO meta VALUES ('written', ?)",
                                      (now_iso(),)).rowcount)

    def checkpoint_if_large(self) -> None:
        """Copy the WAL into the main file once it has grown past ``checkpoint_bytes``. A
        checkpoint that fails (no space to grow the main file) loses nothing: the entries stay
        in the WAL, and the next commit tries again."""
        if self._db is None:
            return
        try:
            size = self.path.with_name(self.path.name + "-wal").stat().st_size
        except OSError:
            return
        if size <= self.checkpoint_bytes:
            return
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as e:
            self.checkpoint_failures += 1
            log.warning("the journal's checkpoint failed (nothing is lost: the entries stay "
                        "in the WAL): %s", e)

    def checkpoint(self) -> None:
        """Copy the WAL into the main file as far as readers allow, without waiting for them
        (its file is then cut back at the next write). A checkpoint that fails loses nothing."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def write_side(self, path: Path, text: str) -> None:
        """A side file written atomically; for want of space the reserve is given back and the
        write tried once more (``OSError`` if it still fails)."""
        try:
            disk.write_atomically(path, text)
        except OSError as e:
            if cause_of(e, self.path.parent) != FULL or not self.reserve.release():
                raise
            disk.write_atomically(path, text)

    def write_mark(self) -> None:
        """Record the journal's newest state in the mark (after every commit)."""
        if self._db is not None:
            self.mark.write(self._db, self.write_side)
