"""Reviews of finished games: computed off the table's lock, kept once computed.

A review judges every move of a game with the engine (``sudoku_table.ai.review``): a second or more
per move on a Pi, a minute or more for a long game. So it never runs under the table's lock
nor in the panel's request threads:

- **One worker process** (``multiprocessing``, started with ``spawn`` so that nothing of the
  table's threads and locks is copied into it, and at a lower priority) judges one move per
  task; a collector thread of this process hands it the moves in order and keeps each
  judgement as it comes. The GIL of the table's process is never held by the search, so the
  scan thread, the computer's own search and the panel keep their pace. Where a process cannot
  be started, the same work runs in a thread (and says so in the log).
- **Kept beside the journal** in a small SQLite file of its own (``<journal>.reviews``): one
  row per judged move, written as it comes, so a review shows its first moves at once, fills in
  the rest, survives a restart and resumes where it stopped, and is never computed twice. The
  journal's own schema is untouched. A review is found by what decides it: the record's
  moves (not its names), the level, the level's positions and ``REVIEW_VERSION``; so an
  imported copy of a game shares its review, and a changed engine makes a new one. The file
  holds only what can be computed again: one that cannot be read is moved aside and a fresh one
  started, with a log line; one that cannot be used now (a full or read-only card, held locked
  by another program) is left as it is, and the reviews are kept in memory meanwhile.
"""

from __future__ import annotations

import concurrent.futures as futures
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import queue
import sqlite3
import threading
from collections.abc import Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sudoku_table.ai import ComputerConfig
from sudoku_table.ai.review import REVIEW_VERSION, Judgement, judge, review_budget

from .journal import set_aside, transient

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reviews (
    key TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    level TEXT NOT NULL,
    total INTEGER NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    failed TEXT
);
CREATE TABLE IF NOT EXISTS judged (
    key TEXT NOT NULL,
    idx INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (key, idx)
);
"""
STORE_VERSION = "1"

WAITING, RUNNING, DONE, FAILED, NONE = "waiting", "running", "done", "failed", "none"
"""A review's status: queued behind another; being computed; complete; stopped by an error
(its ``failed`` says why); never asked for."""


def review_key(record: Mapping[str, Any], level: str, positions: int) -> str:
    """What decides a review: the record's game and moves (its names do not matter), the
    level, its positions and the version of the judgement."""
    decisive = {k: record.get(k) for k in ("variant", "players", "options", "setup", "actions")}
    text = json.dumps([decisive, level, positions, REVIEW_VERSION], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Progress:
    """Where a review stands: its status, the judgements found so far (in order), how many
    moves it has in all, and why it stopped if it failed."""

    status: str
    total: int
    judged: list[Judgement] = field(default_factory=list)
    failed: str | None = None

    @property
    def done(self) -> int:
        return len(self.judged)


class ReviewStore:
    """The kept reviews: SQLite in its own file beside the journal (or in memory). Safe to use
    from several threads (one connection behind a lock)."""

    busy_wait = 5.0
    """Seconds to wait for a file another program holds locked before the reviews go on in
    memory."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._in_memory()
        path = self.path
        try:
            return self._prepare(sqlite3.connect(path, check_same_thread=False,
                                                 timeout=self.busy_wait))
        except sqlite3.DatabaseError as e:
            if transient(e):  # the disk (or another program), not the file, is at fault
                return self._in_memory(e)
            try:
                aside = set_aside(path)
            except OSError as cannot:
                return self._in_memory(cannot)
            log.warning("the kept reviews %s could not be read (%s): moved to %s, a fresh "
                        "file started; they are computed again when asked for", path, e,
                        aside.name)
            try:
                return self._prepare(sqlite3.connect(path, check_same_thread=False,
                                                     timeout=self.busy_wait))
            except sqlite3.DatabaseError as again:
                return self._in_memory(again)

    def _in_memory(self, why: Exception | None = None) -> sqlite3.Connection:
        """Reviews kept in memory: without a file, or when the file cannot be used now (a
        full or read-only card, a file held locked by another program must not keep the table
        from starting; the reviews are derived data, computed again when asked for). The
        file, if any, is left as it is."""
        if why is not None:
            log.warning("the kept reviews %s cannot be used on this disk (%s): reviews are "
                        "kept in memory until the table restarts", self.path, why)
        return self._prepare(sqlite3.connect(":memory:", check_same_thread=False))

    @staticmethod
    def _prepare(db: sqlite3.Connection) -> sqlite3.Connection:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # derived data: computed again if lost
            db.executescript(SCHEMA)
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('version', ?)", (STORE_VERSION,))
            elif row[0] != STORE_VERSION:
                raise sqlite3.DatabaseError(f"the file has version {row[0]}, expected "
                                            f"{STORE_VERSION}")
            db.execute("SELECT count(*) FROM judged").fetchone()
            db.commit()
        except BaseException:
            db.close()
            raise
        return db

    def progress(self, key: str) -> Progress | None:
        """The kept part of a review, or None if it was never started."""
        with self._lock:
            row = self._db.execute("SELECT total, finished, failed FROM reviews WHERE key = ?",
                                   (key,)).fetchone()
            if row is None:
                return None
            rows = self._db.execute("SELECT idx, data FROM judged WHERE key = ? ORDER BY idx",
                                    (key,)).fetchall()
        judged: list[Judgement] = []
        for index, data in rows:
            if index != len(judged):
                break  # a gap: the rest is judged again
            try:
                judged.append(Judgement.from_json(json.loads(data)))
            except (ValueError, KeyError, TypeError):
                break
        total, finished, failed = row
        status = FAILED if failed else DONE if finished and len(judged) >= total else RUNNING
        return Progress(status, int(total), judged, failed)

    def start(self, key: str, variant: str, level: str, total: int) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO reviews (key, variant, level, total, started) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET failed = NULL",
                (key, variant, level, total, datetime.now(UTC).isoformat(timespec="seconds")))

    def add(self, key: str, judgement: Judgement) -> None:
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO judged (key, idx, data) VALUES (?, ?, ?)",
                             (key, judgement.index, json.dumps(judgement.to_json())))

    def finish(self, key: str, failed: str | None = None) -> None:
        with self._lock, self._db:
            if failed is None:
                self._db.execute("UPDATE reviews SET finished = ? WHERE key = ?",
                                 (datetime.now(UTC).isoformat(timespec="seconds"), key))
            else:
                self._db.execute("UPDATE reviews SET failed = ? WHERE key = ?", (failed, key))

    def close(self) -> None:
        with self._lock:
            self._db.close()


# --- the worker process -------------------------------------------------------------------------

_REPLAYED: dict[str, Any] = {}
"""In the worker: the one record replayed last (its key, game and states)."""


def _lower_priority() -> None:
    """The worker yields the processor to the table's own process."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def judge_move(key: str, record: Mapping[str, Any], index: int, level: str, positions: int,
               seconds: float) -> dict[str, Any]:
    """In the worker: judge move ``index`` of ``record``; the judgement as JSON."""
    from sudoku_table.ai import Budget
    from sudoku_table.rules.record import Record, replay

    if _REPLAYED.get("key") != key:
        rec = Record.from_json(record)
        game, states = replay(rec)
        _REPLAYED.clear()
        _REPLAYED.update(key=key, game=game, states=states, actions=rec.actions)
    game, states, actions = _REPLAYED["game"], _REPLAYED["states"], _REPLAYED["actions"]
    return judge(game, states[index], actions[index], index=index, level=level,
                 budget=Budget(positions, seconds)).to_json()


@dataclass
class _Job:
    key: str
    record: dict[str, Any]
    level: str
    total: int


class Reviews:
    """Reviews asked for, computed one at a time by the worker, kept in the store.

    ``request`` starts a review (or finds it kept, or under way) and returns at once;
    ``progress`` says where it stands. ``workers="thread"`` judges in a thread instead of a
    process (tools and tests that must not start processes)."""

    def __init__(self, path: str | os.PathLike[str] | None,
                 computer: ComputerConfig | None = None, workers: str = "process") -> None:
        self.store = ReviewStore(path)
        self.computer = computer or ComputerConfig()
        self.workers = workers
        self._lock = threading.Condition()
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._queued: dict[str, _Job] = {}
        self._running: str | None = None
        self._collector: threading.Thread | None = None
        self._pool: futures.Executor | None = None
        self._closed = False
        self.changes = 0
        """Counts every judgement kept and every status change (for waiting on progress)."""

    def key(self, record: Mapping[str, Any], level: str) -> str:
        return review_key(record, level, self.computer.budget(level).positions)

    def progress(self, record: Mapping[str, Any], level: str = "strong") -> Progress:
        """Where the review of ``record`` at ``level`` stands (``NONE`` if never asked)."""
        key = self.key(record, level)
        total = len(record.get("actions") or [])
        with self._lock:
            if key in self._queued and key != self._running:
                kept = self.store.progress(key)
                return Progress(WAITING, total, kept.judged if kept else [])
        kept = self.store.progress(key)
        if kept is None:
            return Progress(NONE, total)
        if kept.status == RUNNING and key != self._running and key not in self._queued:
            kept.status = WAITING  # kept half done (a restart): resumes when asked again
        return kept

    def request(self, record: Mapping[str, Any], level: str = "strong") -> Progress:
        """Start the review of ``record`` (a finished game's record, already replayed once by
        the journal) unless it is kept or under way; where it stands now."""
        key = self.key(record, level)
        total = len(record.get("actions") or [])
        kept = self.store.progress(key)
        if kept is not None and kept.status == DONE:
            return kept
        with self._lock:
            if self._closed:
                raise RuntimeError("the table is closing")
            if key not in self._queued:
                job = _Job(key, dict(record), level, total)
                self._queued[key] = job
                self.store.start(key, str(record.get("variant")), level, total)
                self._queue.put(job)
                self.changes += 1
                self._lock.notify_all()
                if self._collector is None:
                    self._collector = threading.Thread(target=self._collect,
                                                       name="review-collector", daemon=True)
                    self._collector.start()
        return self.progress(record, level)

    def wait(self, record: Mapping[str, Any], level: str = "strong",
             timeout: float = 60.0) -> Progress:
        """Block until the review is done or failed (or ``timeout``); where it stands."""
        key = self.key(record, level)
        with self._lock:
            self._lock.wait_for(lambda: key not in self._queued or self._closed,
                                timeout=timeout)
        return self.progress(record, level)

    def wait_for_change(self, seen: int, timeout: float) -> int:
        """Block until a judgement was kept or a status changed after ``seen``."""
        with self._lock:
            self._lock.wait_for(lambda: self.changes != seen or self._closed, timeout=timeout)
            return self.changes

    # --- the collector thread -------------------------------------------------------------

    def _executor(self) -> futures.Executor:
        if self._closed:
            raise futures.CancelledError()
        if self._pool is None:
            if self.workers == "process":
                try:
                    self._pool = futures.ProcessPoolExecutor(
                        max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                        initializer=_lower_priority)
                except (OSError, ValueError, NotImplementedError) as e:
                    log.warning("reviews are computed in a thread: no worker process (%s)", e)
            if self._pool is None:
                self._pool = futures.ThreadPoolExecutor(max_workers=1,
                                                        thread_name_prefix="review")
        return self._pool

    def _collect(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            with self._lock:
                if self._closed:
                    return
                self._running = job.key
            failed = None
            try:
                self._run(job)
            except Exception as e:  # a review that cannot be made is said, never raised
                log.exception("a review could not be made")
                failed = str(e) or type(e).__name__
            with self._lock:
                if not self._closed:
                    with contextlib.suppress(sqlite3.Error):
                        self.store.finish(job.key, failed)
                self._running = None
                self._queued.pop(job.key, None)
                self.changes += 1
                self._lock.notify_all()

    def _run(self, job: _Job) -> None:
        budget = review_budget(self.computer.budget(job.level))
        kept = self.store.progress(job.key)
        start = kept.done if kept is not None else 0
        for index in range(start, job.total):
            with self._lock:
                if self._closed:
                    return
            try:
                future = self._executor().submit(judge_move, job.key, job.record, index,
                                                  job.level, budget.positions, budget.seconds)
                data = future.result()
            except BrokenProcessPool:
                log.warning("the review worker stopped; reviews go on in a thread")
                self.workers, self._pool = "thread", None
                data = self._executor().submit(judge_move, job.key, job.record, index,
                                               job.level, budget.positions,
                                               budget.seconds).result()
            except futures.CancelledError:
                return
            with self._lock:  # kept unless the reviews closed while the move was judged
                if self._closed:
                    return
                self.store.add(job.key, Judgement.from_json(data))
                self.changes += 1
                self._lock.notify_all()

    def close(self) -> None:
        """Stop: the move being judged is dropped (it is judged again when asked next time);
        idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._lock.notify_all()
        self._queue.put(None)
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if self._collector is not None:
            self._collector.join(timeout=5.0)
        with self._lock:  # a collector still waiting for its move finds the reviews closed
            self.store.close()
