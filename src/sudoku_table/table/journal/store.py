"""``Journal``: one open journal file, put together from its parts. Opening runs every check
of docs/DESIGN.md, "The journal"; each write and read is handed to the part that owns it."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..view import Message, message
from . import evidence
from .chain import Integrity
from .disk import FULL, OTHER, JournalError, cause_of, set_aside, transient
from .games import GameWrites, seats_text
from .imports import Imports
from .mark import Lost, Mark, current_mark
from .opening import open_database
from .reading import Reader, StoredGame
from .reserve import RESERVE_BYTES, Reserve
from .writer import CHECKPOINT_BYTES, Writer


class Journal:
    """An open journal file. Not thread-safe by itself: the table calls it under its lock.

    What opening found is in ``notices``, ``lost`` (``{"game": id, "actions": n}`` when the
    journal went back in time) and ``troubled`` (anything at all was wrong). ``open_error``
    says why the journal could not be opened although nothing is wrong with it (no space, a
    read-only disk): it stays closed, and a new ``Journal(path)`` tries again."""

    def __init__(self, path: str | os.PathLike[str], *, reserve: int = RESERVE_BYTES,
                 checkpoint: int = CHECKPOINT_BYTES) -> None:
        """``reserve``: bytes kept beside the journal for the game in progress (0: none);
        ``checkpoint``: the WAL size after which a commit is followed by a checkpoint."""
        self.path = Path(path)
        self.notices: list[Message] = []
        self.troubled = False
        self.migrated = False
        self._reserve = Reserve(self.path, reserve)
        self._mark = Mark(self.path, self._tell)
        self._writer = Writer(self.path, self._reserve, self._mark, checkpoint)
        self._integrity = Integrity(self._tell)
        self._games = GameWrites(self._writer)
        self._imports = Imports(self._writer, self._tell)
        self._reader = Reader(self._integrity)
        self._open_and_check()

    # --- opening ---------------------------------------------------------------------------

    def _open_and_check(self) -> None:
        """Open the file and run every check, in the order docs/DESIGN.md tells them."""
        mark, mark_problem = self._mark.read()
        held = evidence.hold(self.path, self._tell)
        fresh = self._open_or_set_aside()
        db = self._writer.db
        if db is not None and not fresh:
            try:
                self.troubled = self._integrity.check_games(db) or self.troubled
                self.troubled = self._integrity.check_records(db) or self.troubled
                self.troubled = self._mark.compare(db, mark, mark_problem, self.migrated,
                                                   self._integrity) or self.troubled
            except (sqlite3.Error, TypeError, ValueError) as e:  # rows that cannot be read
                self.troubled = True
                self.start_over(f"the save file could not be read: {e}")
        evidence.settle(self.path, held, self.troubled and not fresh, self._tell)
        if self._writer.db is not None:
            self._imports.discard_cut()
            self.write_mark()
            self.keep_reserve()

    def _open_or_set_aside(self) -> bool:
        """Open the file; a file SQLite finds damaged is set aside and a fresh one started
        (True), a file that cannot be opened now is left as it is, closed."""
        try:
            self._writer.attach(self._open_with_reserve())
        except (sqlite3.DatabaseError, JournalError) as e:
            if transient(e):
                self._closed_by(e)
                return False
            self.troubled = True
            try:
                self._set_aside(str(e))  # on failure its notice says so; nothing is saved
                self._writer.attach(self._open())
            except (sqlite3.Error, OSError, JournalError) as e2:
                self._tell("journal_fresh_failed", file=self.path.name, detail=str(e2))
            return True
        except OSError as e:
            self._closed_by(e)
        return False

    def _closed_by(self, error: BaseException) -> None:
        """The journal cannot be opened now, through no fault of its own: say why, keep it."""
        cause = cause_of(error, self.path.parent)
        self._writer.refuse(JournalError(str(error), cause))
        self._tell("journal_cannot_open" if cause != OTHER else "journal_open_failed",
                   file=self.path.name, detail=str(error))

    def _open_with_reserve(self) -> sqlite3.Connection:
        try:
            return self._open()
        except sqlite3.OperationalError as e:
            if cause_of(e, self.path.parent) != FULL or not self._reserve.release():
                raise
        return self._open()

    def _open(self) -> sqlite3.Connection:
        db, migrated = open_database(self.path, self._writer.checkpoint_bytes)
        self.migrated = self.migrated or migrated
        return db

    def _set_aside(self, reason: str) -> None:
        try:
            aside = set_aside(self.path)
        except OSError as e:
            self._tell("journal_unmovable", file=self.path.name, detail=reason, error=str(e))
            raise JournalError(str(e)) from None
        self._tell("journal_set_aside", file=self.path.name, detail=reason, kept=aside.name)

    def start_over(self, reason: str) -> None:
        """The open file turned out unreadable: keep it aside and continue with a fresh one."""
        self.close()
        self.troubled = True
        try:
            self._set_aside(reason)
            self._writer.attach(self._open())
            self.write_mark()
        except (sqlite3.Error, OSError, JournalError) as e:
            self._tell("journal_restart_failed", detail=str(e))

    def _tell(self, code: str, **params: Any) -> None:
        """A notice for the view (a code of ``view.MESSAGES``), once."""
        notice = message(code, **params)
        if notice not in self.notices:
            self.notices.append(notice)

    @property
    def lost(self) -> Lost | None:
        """``{"game": id, "actions": n}`` when the journal went back in time (``Mark``)."""
        return self._mark.lost

    @property
    def _db(self) -> sqlite3.Connection | None:
        return self._writer.db

    @property
    def ok(self) -> bool:
        """True while entries reach the disk."""
        return self._writer.db is not None

    @property
    def open_error(self) -> JournalError | None:
        return self._writer.open_error

    def close(self) -> None:
        """Close. The last connection checkpoints the WAL into the main file and removes it;
        that destroys nothing, as a WAL found damaged at start was copied aside first."""
        self._writer.close()

    # --- the mark, the reserve, checkpoints --------------------------------------------------

    @property
    def mark_path(self) -> Path:
        return self._mark.path

    @property
    def mark_behind(self) -> bool:
        """The last mark could not be written (it is written again after the next commit)."""
        return self._mark.behind

    def current_mark(self) -> dict[str, Any]:
        """What the mark records now (``mark.current_mark``)."""
        assert self._writer.db is not None
        return current_mark(self._writer.db)

    def write_mark(self) -> None:
        """Record the journal's newest state in the mark (``Mark.write``)."""
        self._writer.write_mark()

    @property
    def reserve(self) -> int:
        """The bytes kept beside the journal for the game in progress (0: none)."""
        return self._reserve.size

    @property
    def reserve_path(self) -> Path:
        return self._reserve.path

    @property
    def reserve_held(self) -> bool:
        """The reserve file stands, at its full size (as this journal made or found it)."""
        return self._reserve.held

    @property
    def reserve_used(self) -> bool:
        """The disk filled and the reserve was given back to go on writing."""
        return self._reserve.used

    def keep_reserve(self) -> bool:
        """Take the reserve's space (again) if the disk has room for it twice over; True when
        it is held (or none is wanted). Called at start and, while it is missing, now and
        then by the table."""
        return self._reserve.keep()

    @property
    def checkpoint_bytes(self) -> int:
        return self._writer.checkpoint_bytes

    @property
    def checkpoint_failures(self) -> int:
        """Checkpoints that failed (nothing is lost: the entries stay in the WAL)."""
        return self._writer.checkpoint_failures

    def checkpoint(self) -> None:
        """Copy the WAL into the main file as far as readers allow (``Writer.checkpoint``)."""
        self._writer.checkpoint()

    def probe(self) -> None:
        """One small real write (``JournalError`` when it fails): whether the disk takes
        writes again."""
        self._writer.probe()

    # --- games played here -------------------------------------------------------------------

    def start_game(self, variant: str, players: int | None, options: Mapping[str, Any],
                   setup: Mapping[str, Any], hints: bool, names: list[str] | None = None,
                   colors: list[str] | None = None,
                   computers: Mapping[str, str] | None = None,
                   draw_seed: int | None = None, deal_seed: int | None = None,
                   network: Mapping[str, Any] | None = None) -> int:
        """A new running game; any other running game is kept, marked abandoned. The seats'
        names, colours, the computer's seats and the seed of the table's draws for it are kept
        beside the game's start data (outside its checksum: they change nothing in the game)."""
        return self._games.start(variant, players, options, setup, hints,
                                 seats_text(names, colors, computers, draw_seed, deal_seed,
                                            network))

    def set_seats(self, game: int, names: list[str], colors: list[str],
                  computers: Mapping[str, str], draw_seed: int | None,
                  deal_seed: int | None, network: Mapping[str, Any] | None) -> None:
        """The seats kept beside a running game's start, written again: a game shared with
        other tables that changed its host (``network``), and so the computer's seats."""
        self._games.set_seats(game, seats_text(names, colors, computers, draw_seed, deal_seed,
                                               network))

    def append(self, game: int, kind: str, data: Any, reopen: bool = False) -> None:
        """One entry (``action`` with its JSON, ``undo``, ``hints``, ``draw``), on disk when this
        returns. ``reopen``: the entry takes back the last action of a finished game, which
        runs again; both are kept in one transaction."""
        self._games.append(game, kind, data, reopen)

    def finish(self, game: int, record: Mapping[str, Any], state: Mapping[str, Any]) -> None:
        """Keep the finished game as a record with its final state."""
        self._games.finish(game, record, state)

    def keep_unfinished(self, game: int, record: Mapping[str, Any],
                        state: Mapping[str, Any]) -> None:
        """Keep a running game that a new game replaces as a record of how far it went, with
        its state: it is listed among the finished games, marked unfinished. A game that has
        a record already (it finished, then was reopened) keeps the record it finished with."""
        self._games.keep_unfinished(game, record, state)

    def reopen(self, game: int) -> None:
        """A finished game whose last action was taken back is running again. Its record as
        it finished is kept (and still listed among the finished games) until it finishes
        again."""
        self._games.reopen(game)

    def set_unreadable(self, game: int, note: str) -> None:
        """Set a game aside that cannot be replayed; it stays in the file for inspection."""
        self._games.set_unreadable(game, note)

    def set_aside_entries(self, game: int, entries: list[dict[str, Any]]) -> str:
        """Move entries that cannot be resumed out of the game: first into a JSON file next to
        the journal (on disk), then into the ``set_aside`` table; the file's name."""
        aside = self._games.file_aside(game, entries)
        self.troubled = True
        self._games.move_aside(game, entries, aside)
        self._integrity.forget(game)
        return aside.name

    # --- imports -----------------------------------------------------------------------------

    def import_finished(self, games: Sequence[Mapping[str, Any]]) -> list[int]:
        """Add finished games from elsewhere (each checked by replaying it: ``archive``), all
        in one transaction, marked imported so that the table never resumes them (a large
        file goes in by ``stage_import`` and ``commit_import`` instead); their ids."""
        return self._imports.add(games)

    def stage_import(self, games: Sequence[Mapping[str, Any]], stamp: str) -> list[int]:
        """Write a few games of an import under way (one small transaction), not yet counted
        as finished: ``commit_import`` makes the whole import count at once, and
        ``discard_import`` (or the next start, after a cut) removes them."""
        return self._imports.stage(games, stamp)

    def commit_import(self, stamp: str) -> int:
        """Every game staged by the import ``stamp`` counts as finished, at once."""
        return self._imports.commit(stamp)

    def discard_import(self, stamp: str | None = None) -> int:
        """Remove the games staged by the import ``stamp`` (every staged game: None)."""
        return self._imports.discard(stamp)

    def staged(self) -> int:
        """How many staged games of an import the journal holds (``Imports.staged``)."""
        return self._imports.staged()

    # --- reading -----------------------------------------------------------------------------

    def running_game(self) -> StoredGame | None:
        """The most recent running game, its entries the longest prefix whose chain holds."""
        db = self._writer.db
        return None if db is None else self._reader.running_game(db)

    def last_finished_game(self) -> StoredGame | None:
        """The newest game played here if it is finished (no newer game was started), else
        None; imported games are never resumed."""
        db = self._writer.db
        return None if db is None else self._reader.last_finished_game(db)

    def finished_games(self, game: int | None = None) -> list[dict[str, Any]]:
        """Every finished game, oldest first (or only ``game``): id, variant, finish time,
        record, state, whether it was imported, and whether it is unfinished (replaced by a new
        game before its end; its time is when it was replaced). A damaged record is left out
        with a notice (it stays in the file)."""
        db = self._writer.db
        return [] if db is None else self._reader.finished_games(db, game)
