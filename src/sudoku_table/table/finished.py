"""The finished games beside the running one: one read from the shelf as the panel and the
tools see it, and the games of an exported file loaded into the journal (``archive`` checks
them; each write runs under the table's lock through the ``Act`` the table lends, so the
sensors and the phones are held up only for a short write at a time)."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from sudoku_table.rules.wording import N_

from .acting import Act
from .archive import (
    MAX_GROWTH,
    ArchiveBusy,
    ArchiveError,
    ImportPlan,
    Readable,
    Reason,
    checking,
    existing_key,
    game_key,
    read_export,
)
from .errors import CannotSave
from .journal import Journal, JournalError, now_iso, stored_size
from .keeping import Keeper
from .notices import Notices
from .shelf import Shelf, Stored

IMPORT_BATCH = 16
"""Imported games written in one transaction: a short hold of the lock each."""
IMPORT_BREATH = 0.001
"""A pause before each imported game is replayed, handing Python's interpreter lock to the
sensors' and the phones' threads (see ``sudoku_table.web.streaming.BREATH_SECONDS``)."""

Write = Callable[[Callable[[], object]], None]
"""One write of an import under the table's lock (``JournalError`` gives the import up)."""
Locked = Callable[[Callable[[], bool]], None]
"""Runs a step under the table's lock (True: the players see a change); its error raised."""


class FinishedGames:
    """The finished games of the ``keeper``'s journal, read beside the game (each read with a
    connection of its own, never under the table's ``lock``, so the review's polling never
    holds anyone up), and loaded from exported files. What goes wrong is told in ``notices``.
    It never takes the table's lock: every step under it is handed to ``act``."""

    def __init__(self, keeper: Keeper, act: Act, notices: Notices) -> None:
        self._keeper = keeper
        self._act = act
        self._notices = notices
        self._importing = threading.Lock()

    def shelf(self) -> Shelf | None:
        """The finished games, to read beside the game (``shelf.Shelf``, a context manager
        with a connection of its own: never under the table's lock); None without a journal.
        A damaged record met on the way is left out and told in the view's notices."""
        journal = self._keeper.journal
        if journal is None:
            return None
        return Shelf(journal.path, self._damaged_record)

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One finished game as ``every`` gives it, or None: one row read beside the
        game (never under the table's lock), so the review's polling never holds anyone up."""
        shelf = self.shelf()
        if shelf is None:
            return None
        try:
            with shelf:
                g = shelf.game(game_id)
                return entry(g) if g is not None else None
        except sqlite3.Error as e:  # a damaged journal is reported, not raised
            self._unreadable(e)
            return None

    def every(self) -> list[dict[str, Any]]:
        """Finished games kept in the journal, oldest first, each with its record and state
        (parsed: for tools and tests; the panel reads them a page at a time from ``shelf``),
        and whether it is unfinished (replaced by a new game before its end); a damaged record
        is left out and told in the view's notices."""
        shelf = self.shelf()
        if shelf is None:
            return []
        try:
            with shelf:
                games = [entry(g) for g in shelf.every()]
                for game in games:
                    game["unfinished"] = not (isinstance(game["state"], dict)
                                              and game["state"].get("over"))
                return games
        except sqlite3.Error as e:  # a damaged journal is reported, not raised
            self._unreadable(e)
            return []

    def _unreadable(self, error: sqlite3.Error) -> None:
        def tell() -> bool:
            self._notices.notice("finished_unreadable", detail=str(error))
            return True
        self._act(tell)

    def _damaged_record(self, game: int, code: str) -> None:
        self._act(lambda: self._notices.notice(code, game=game))

    def _locked(self, step: Callable[[], bool]) -> None:
        """``step`` under the table's lock (through ``act``; True: the players see a change);
        an error it raises is raised here once the lock is let go (the players are shown the
        table as the failed step left it). ``JournalError`` when the table has closed."""
        failed: list[Exception] = []

        def change() -> bool:
            try:
                return step()
            except Exception as e:  # raised again below, outside the lock
                failed.append(e)
                return True
        if not self._act(change):
            raise JournalError("the table has closed")
        if failed:
            raise failed[0]

    def import_document(self, document: object) -> ImportPlan:
        """``import_file`` for a file already parsed (tools and tests)."""
        return self.import_file(io.BytesIO(json.dumps(document).encode("utf-8")))

    def import_file(self, stream: Readable, max_growth: int = MAX_GROWTH,
                    separate: bool = False) -> ImportPlan:
        """Add the finished games of an exported file (``archive``), read from ``stream`` as it
        comes, one game in memory at a time. Each game is replayed outside the lock; the new
        ones are written a few at a time (``IMPORT_BATCH`` per transaction, each a short hold
        of the lock, so that the sensors and the phones are never held up for long), staged
        until the whole file has been read; then all of them count at once. ``ArchiveError``
        for a file that is no export or too large (``max_growth`` bytes for the journal),
        ``ArchiveBusy`` while another import runs, ``JournalError`` when they cannot be kept:
        in every case the staged games are removed again and nothing changed. The plan lists
        every game's outcome (its ``new`` stays empty: the games are in the journal). With
        ``separate`` the games are replayed in a worker process (``archive.checking``: for a
        large file, so that the replay never holds this process's interpreter lock)."""
        journal = self._keeper.journal
        if journal is None or not journal.ok:
            raise JournalError("the table keeps no save file, so it cannot keep imported games")
        def room() -> bool:
            self._keeper.room_for_new()  # an import never takes the game's last space
            return False
        try:
            self._locked(room)
        except CannotSave as e:
            raise JournalError(str(e), e.cause) from None
        if not self._importing.acquire(blocking=False):
            raise ArchiveBusy(N_("another file of finished games is being loaded: try again "
                                 "when it is done"))
        try:
            return load(journal, stream, locked=self._locked, write=self._write,
                        counted=self._counted, lost=self._lost, max_growth=max_growth,
                        separate=separate)
        finally:
            self._importing.release()

    def _write(self, write: Callable[[], object]) -> None:
        """Under the lock, one write of an import: when it fails the table cannot save until
        a write succeeds (and says so); the import is then given up (``JournalError``)."""
        try:
            write()
        except JournalError as e:
            self._keeper.failed(e)  # the players see it: ``_locked`` returns True for an error
            raise
        self._keeper.saved()

    def _counted(self) -> bool:
        """Under the lock: an import's games count (the players see them)."""
        self._keeper.take_notices()
        return True

    def _lost(self, error: JournalError) -> None:
        """Under the lock: an import's staged games could not be removed again."""
        self._notices.notice("journal_error", detail=str(error))


def entry(g: Stored) -> dict[str, Any]:
    """One finished game as the table gives it: its id, variant, finish, record and state
    (parsed), and whether it was imported."""
    return {"id": g.id, "variant": g.variant, "finished": g.finished,
            "record": json.loads(g.record), "state": json.loads(g.state),
            "imported": g.imported}


def load(journal: Journal, stream: Readable, *, locked: Locked, write: Write,
         counted: Callable[[], bool], lost: Callable[[JournalError], None], max_growth: int,
         separate: bool) -> ImportPlan:
    """Add the finished games of an exported file to ``journal`` (``FinishedGames.import_file`` says
    how): each game checked outside the table's lock, the new ones staged ``IMPORT_BATCH`` at
    a time through ``write`` (each a step run under the lock by ``locked``), all of them made
    to count at once, then ``counted`` (in the same step). On any failure the staged games are
    removed again (``lost`` when even that fails) and the error is raised."""
    stamp = now_iso()
    plan = ImportPlan()

    def leftovers() -> bool:  # an import given up earlier (on a failing card) may have left
        if journal.staged():  # games staged: they go first, or this commit takes them
            write(journal.discard_import)
        return False

    def commit() -> bool:
        write(lambda: journal.commit_import(stamp))
        return counted()

    def discard() -> bool:
        try:
            journal.discard_import(stamp)
        except JournalError as e:
            lost(e)
        return False

    try:
        locked(leftovers)
        batch: list[dict[str, Any]] = []
        growth = 0
        seen: set[str] = set()
        with Shelf(journal.path) as shelf, checking(separate) as check:
            for index, item in read_export(stream):
                time.sleep(IMPORT_BREATH)  # the interpreter's lock to the game's threads
                outcome, checked = check(index, item)
                plan.outcomes.append(outcome)
                if checked is None:
                    continue
                finished = checked["finished"]
                key = game_key(checked["record"], finished)
                if key in seen or key in {existing_key(r, finished)
                                          for r in shelf.records_finished_at(finished)}:
                    outcome.result = "skipped"
                    outcome.reason = Reason(N_("already on the table"))
                    continue
                seen.add(key)
                growth += stored_size(checked)
                if growth > max_growth:
                    raise ArchiveError(N_(
                        "the games of this file would add more than {most} MB to the "
                        "table's save file, the most one file may add: split it and load "
                        "the parts one after the other"), most=max_growth // (1024 * 1024))
                batch.append(checked)
                if len(batch) >= IMPORT_BATCH:
                    _stage(journal, batch, stamp, locked, write)
                    batch = []
        if batch:
            _stage(journal, batch, stamp, locked, write)
        if plan.count("added"):
            locked(commit)
    except BaseException:
        with contextlib.suppress(JournalError):  # the table has closed: left staged, as above
            locked(discard)
        raise
    return plan


def _stage(journal: Journal, games: list[dict[str, Any]], stamp: str, locked: Locked,
           write: Write) -> None:
    def stage() -> bool:
        write(lambda: journal.stage_import(games, stamp))
        return False
    locked(stage)
