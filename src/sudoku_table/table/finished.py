"""The finished games beside the running one: one read from the shelf as the panel and the
tools see it, and the games of an exported file loaded into the journal (``archive`` checks
them; the table supplies its locked writes, so the sensors and the phones are held up only for
a short write at a time)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from sudoku_table.rules.wording import N_

from .archive import (
    ArchiveError,
    ImportPlan,
    Readable,
    Reason,
    checking,
    existing_key,
    game_key,
    read_export,
)
from .journal import Journal, JournalError, now_iso, stored_size
from .shelf import Shelf, Stored

IMPORT_BATCH = 16
"""Imported games written in one transaction: a short hold of the lock each."""
IMPORT_BREATH = 0.001
"""A pause before each imported game is replayed, handing Python's interpreter lock to the
sensors' and the phones' threads (see ``sudoku_table.web.streaming.BREATH_SECONDS``)."""

Write = Callable[[Callable[[], object]], None]
"""One write of an import under the table's lock (``JournalError`` gives the import up)."""


def entry(g: Stored) -> dict[str, Any]:
    """One finished game as the table gives it: its id, variant, finish, record and state
    (parsed), and whether it was imported."""
    return {"id": g.id, "variant": g.variant, "finished": g.finished,
            "record": json.loads(g.record), "state": json.loads(g.state),
            "imported": g.imported}


def load(journal: Journal, stream: Readable, *, lock: threading.Lock, write: Write,
         counted: Callable[[], None], lost: Callable[[JournalError], None], max_growth: int,
         separate: bool) -> ImportPlan:
    """Add the finished games of an exported file to ``journal`` (``Table.import_file`` says
    how): each game checked outside the table's ``lock``, the new ones staged
    ``IMPORT_BATCH`` at a time through ``write`` (called under the lock), all of them made to
    count at once, then ``counted`` (under the lock). On any failure the staged games are
    removed again (``lost`` when even that fails) and the error is raised."""
    stamp = now_iso()
    plan = ImportPlan()
    try:
        with lock:  # an import given up earlier (on a failing card) may have left
            if journal.staged():  # games staged: they go first, or this commit takes them
                write(journal.discard_import)
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
                    _stage(journal, batch, stamp, lock, write)
                    batch = []
        if batch:
            _stage(journal, batch, stamp, lock, write)
        if plan.count("added"):
            with lock:
                write(lambda: journal.commit_import(stamp))
                counted()
    except BaseException:
        with lock:
            try:
                journal.discard_import(stamp)
            except JournalError as e:
                lost(e)
        raise
    return plan


def _stage(journal: Journal, games: list[dict[str, Any]], stamp: str, lock: threading.Lock,
           write: Write) -> None:
    with lock:
        write(lambda: journal.stage_import(games, stamp))
