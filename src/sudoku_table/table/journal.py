"""The journal: every accepted action on disk before the LEDs confirm it, and proof of it.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only once the entry is on disk,
so a power cut right after the LEDs changed never loses that action. One row per game, one row
per entry (an action, a take-back or a hints switch) in order, so a game is rebuilt by replaying
its entries. Finished games stay as records.

Integrity, three layers:

* **A chain.** Each entry carries ``digest = sha256(previous digest | game | seq | kind |
  data)``; the chain's root is the digest of the game row's start data (variant, players,
  options, setup, hints). A finished game's record and state carry a ``seal`` (their sha256).
  Start-up runs ``PRAGMA integrity_check`` and walks the chain of every game (a break in a game
  that is not running is told). The running game resumes from the longest prefix whose chain
  holds (the table then replays it, and a replay that fails cuts the prefix there too). The
  entries after it are written to a file next to the journal
  (``<journal>.set-aside-<stamp>-game<N>.json``, each entry and why), copied into the
  ``set_aside`` table and only then removed from ``entries``, so the chain goes on from the
  last good entry. A finished record whose seal or JSON is broken is skipped with a notice and
  kept in the file.
* **A mark against going back in time.** Deleting the ``-wal`` file or truncating the main file
  leaves a valid but older SQLite database that no check inside the file can tell from the
  real one. So after every commit the journal writes a small side file ``<journal>.mark``
  (JSON: the newest game's id, its last seq and chain digest, and the number of finished
  games), atomically: a temporary file, fsync, ``os.replace``, fsync of the
  directory. The mark is written after the commit, so the journal may be ahead of it (a cut in
  between), never behind: on start, a journal behind its mark lost something, and the notice
  says what ("the journal lost 13 actions of game 3 ...; the game resumes from action 17").
  A missing or unreadable mark next to a journal that holds games is told as well. (A cut
  between taking back the last action of a finished game and its mark may tell a finished
  game lost that is in fact running again: a false alarm, never a silent loss.)
* **Evidence survives.** Closing the last connection checkpoints the WAL into the main file and
  deletes the WAL. So before opening a journal whose WAL is not empty, both files are copied
  aside; if the checks find anything wrong (integrity, a chain, a seal, the mark), the copies are
  kept as ``<journal>.damaged-<stamp>`` and ``...-wal`` and named in the notice, otherwise they
  are removed. A damaged journal is never deleted: a file SQLite cannot read is renamed aside
  (``<journal>.unreadable-<stamp>``) and a fresh journal is started; every reason is kept in
  ``notices`` for the panel to show. Entries that fail only their replay are kept in the
  set-aside file.

A version-1 journal (no chain) is migrated in place: the chain is computed for its rows.

Writing on a disk that fills or fails (see docs/DESIGN.md, "When the disk fills or fails"):

* **Every failure says why.** A write that does not reach the disk raises ``JournalError`` with
  its ``cause``: ``full`` (no space), ``read_only`` (the file system turned read-only, as a
  failing SD card does), ``io`` (an I/O error) or ``other``. A failed transaction is rolled back
  whole, so the file holds either the entry or nothing of it; the caller decides that the
  action does not count.
* **A reserve.** Beside the journal a file ``<journal>.reserve`` holds ``reserve`` bytes of
  real disk blocks. When a write fails for want of space, the reserve is given back and the
  write tried once more, so the game in progress can be finished and saved; ``reserve_used``
  says so until ``keep_reserve`` takes the space again once the disk has room for it twice.
* **Checkpoints of our own.** SQLite's automatic checkpoint runs inside a commit and keeps its
  errors to itself; here it is off, and after a commit that leaves the WAL larger than
  ``checkpoint`` bytes a passive checkpoint runs. One that fails loses nothing (the entries are
  in the WAL) and is counted in ``checkpoint_failures``.
* **An open that fails for want of space or a read-only disk is no damage.** The journal is
  then left as it is, closed (``open_error``), and opened again later (``Journal(path)``);
  only a file SQLite finds damaged is set aside.
* **Side files** (the mark, a set-aside file, the reserve) are written whole or not at all: a
  failed temporary file is removed, never left taking space.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import shutil
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .view import Message, count, message

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2

RESERVE_BYTES = 4 * 1024 * 1024
"""The space kept beside the journal for the game in progress. With checkpoints every
``CHECKPOINT_BYTES`` of WAL, a game needs at most that much WAL plus its entries in the main
file (some 400 bytes each): 4 MiB hold several thousand entries, many games' worth."""
CHECKPOINT_BYTES = 1024 * 1024
"""A WAL larger than this after a commit is checkpointed (SQLite's own default is 4 MiB)."""
LOW_SPACE = 1024 * 1024
"""Evidence copies at start are skipped (and said) when they would leave less free space."""

FULL, READ_ONLY, IO, OTHER = "full", "read_only", "io", "other"
"""Why a write failed: no space, a read-only file system, an I/O error, anything else."""
_SQLITE_CAUSES = {13: FULL, 8: READ_ONLY, 10: IO, 14: IO}  # FULL, READONLY, IOERR, CANTOPEN
_OS_CAUSES = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY}
_SQLITE_DAMAGE = {11, 26}
"""SQLITE_CORRUPT and SQLITE_NOTADB: the file itself is damaged. Every other failure to open
(no space, read-only, busy, cannot open, I/O) leaves the file as it is."""

connect = sqlite3.connect
"""How the journal opens its SQLite connection (the tests put a fault-injecting wrapper here)."""

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



def _insert_imported(db: sqlite3.Connection, games: Sequence[Mapping[str, Any]], status: str,
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


def stored_size(game: Mapping[str, Any]) -> int:
    """About how many bytes an imported game adds to the journal: the texts it stores and a
    row's overhead, for the import's cap on growth."""
    record = game["record"]
    actions = record.get("actions") or []
    return (len(json.dumps(record)) + len(json.dumps(game["state"]))
            + sum(len(json.dumps(a)) + 160 for a in actions) + 600)


class JournalError(Exception):
    """The journal could not be written; the message says why, ``cause`` what kind of failure
    (``FULL``, ``READ_ONLY``, ``IO``, ``OTHER``)."""

    def __init__(self, message: str, cause: str = OTHER) -> None:
        super().__init__(message)
        self.cause = cause


def cause_of(error: BaseException, directory: Path | None = None) -> str:
    """What kind of failure a SQLite or OS error is. An I/O error on a file system that has
    turned read-only or has no space left is that (SQLite reports a full disk while growing
    its shared memory file as an I/O error)."""
    cause = OTHER
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int):
            cause = _SQLITE_CAUSES.get(code & 0xFF, OTHER)
        else:  # an error raised without a code: its words
            text = str(error).lower()
            cause = (FULL if "full" in text else READ_ONLY if "readonly" in text
                     else IO if "i/o" in text else OTHER)
    elif isinstance(error, OSError):
        cause = _OS_CAUSES.get(error.errno or 0, IO)
    if cause == IO and directory is not None:
        cause = disk_state(directory) or IO
    return cause


def disk_state(directory: Path) -> str | None:
    """``READ_ONLY`` or ``FULL`` when the file system of ``directory`` is so, else None."""
    try:
        stat = os.statvfs(directory)
    except OSError:
        return None
    if stat.f_flag & os.ST_RDONLY:
        return READ_ONLY
    if stat.f_bavail * stat.f_frsize < 64 * 1024:
        return FULL
    return None


def free_space(directory: Path) -> int:
    """Bytes an unprivileged writer may still use on the file system of ``directory``."""
    try:
        stat = os.statvfs(directory)
    except OSError:
        return 0
    return stat.f_bavail * stat.f_frsize


def transient(error: BaseException) -> bool:
    """True for a failure to open that says nothing about the file (no space, read-only,
    busy...): the journal is kept as it is and opened again later."""
    if isinstance(error, JournalError):
        return error.cause != OTHER
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, sqlite3.DatabaseError) and isinstance(code, int):
        return code & 0xFF not in _SQLITE_DAMAGE
    return isinstance(error, sqlite3.OperationalError)


@dataclass
class StoredGame:
    """One game as the journal holds it: how it started and its entries in order.

    ``entries`` is the longest prefix whose chain holds; ``damaged`` the entries after it, each
    a dict with ``seq``, ``kind``, ``data`` (as stored), ``at``, ``digest`` and ``reason``."""

    id: int
    variant: str
    players: int | None
    options: Any
    setup: Any
    hints: bool
    entries: list[tuple[str, Any]] = field(default_factory=list)
    damaged: list[dict[str, Any]] = field(default_factory=list)
    status: str = RUNNING
    rows: list[dict[str, Any]] = field(default_factory=list)
    """The entries of ``entries`` as stored (seq, kind, data, at, digest)."""
    names: list[str] = field(default_factory=list)
    """The players' names as given at the start (empty when none were kept)."""
    colors: list[str] = field(default_factory=list)
    """The colours the panel draws each seat's pieces in (empty: the panel's own)."""
    computers: dict[str, str] = field(default_factory=dict)
    """The seats the computer plays, with its level (``{"1": "strong"}``)."""
    draw_seed: int | None = None
    """With the table drawing the computer's cards: the game's seed for its draws (each draw is
    also an entry of its own); None when people tell the computer's cards."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S")


def _sha(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).hexdigest()


def game_root(game: int, variant: Any, players: Any, options: Any, setup: Any,
              hints: Any) -> str:
    """The chain's root: the digest of the game row's start data, as stored."""
    return _sha("root", game, variant, players, options, setup, int(bool(hints)))


def entry_digest(previous: str, game: int, seq: int, kind: Any, data: Any) -> str:
    """One link of the chain: the previous digest (or the root) with this entry as stored."""
    return _sha(previous, game, seq, kind, data)


def record_seal(record: Any, state: Any) -> str:
    """The seal of a finished game's record and final state, as stored."""
    return _sha("seal", record, state)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new text after a cut; a
    write that fails leaves the old text and no temporary file."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def fill_file(path: Path, size: int) -> None:
    """Make ``path`` a file of ``size`` bytes of real disk blocks (not a sparse file), synced:
    ``OSError`` (and no file) when the disk has no room for it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            try:
                os.posix_fallocate(fd, 0, size)
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                    raise
                block = b"\0" * 65536
                for start in range(0, size, len(block)):
                    os.write(fd, block[:min(len(block), size - start)])
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    _fsync_dir(path.parent)


def _unique(path: Path) -> Path:
    candidate, n = path, 1
    while candidate.exists() or candidate.with_name(candidate.name + "-wal").exists():
        candidate = path.with_name(f"{path.name}-{n}")
        n += 1
    return candidate


def set_aside(path: Path) -> Path:
    """Move a SQLite file that cannot be used, with its ``-wal`` and ``-shm``, to a name of its
    own (``<name>.unreadable-<stamp>``), so that a fresh file can start at ``path`` without the
    old one's WAL; the new name (``OSError`` when it cannot be moved)."""
    aside = _unique(path.with_name(f"{path.name}.unreadable-{_stamp()}"))
    os.replace(path, aside)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, aside.with_name(aside.name + suffix))
    _fsync_dir(path.parent)
    return aside


class Journal:
    """An open journal file. Not thread-safe by itself: the table calls it under its lock.

    Opening runs every check of the module docstring; what they found is in ``notices``,
    ``lost`` (``{"game": id, "actions": n}`` when the journal went back in time) and
    ``troubled`` (anything at all was wrong)."""

    def __init__(self, path: str | os.PathLike[str], *, reserve: int = RESERVE_BYTES,
                 checkpoint: int = CHECKPOINT_BYTES) -> None:
        """``reserve``: bytes kept beside the journal for the game in progress (0: none);
        ``checkpoint``: the WAL size after which a commit is followed by a checkpoint."""
        self.path = Path(path)
        self.notices: list[Message] = []
        self.troubled = False
        self.lost: dict[str, int] | None = None
        self.migrated = False
        self.open_error: JournalError | None = None
        """Why the journal could not be opened although nothing is wrong with it (no space, a
        read-only disk): it stays closed; a new ``Journal(path)`` tries again."""
        self.reserve = max(0, int(reserve))
        self._reserve_held = self.reserve == 0
        self.reserve_used = False
        """The disk filled and the reserve was given back to go on writing."""
        self.checkpoint_bytes = checkpoint
        self.checkpoint_failures = 0
        self.mark_behind = False
        """The last mark could not be written (it is written again after the next commit)."""
        self._db: sqlite3.Connection | None = None
        self._chains: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]], bool]] = {}
        self._bad_records: dict[int, str] = {}
        mark, mark_problem = self._read_mark()
        held = self._hold_evidence()
        set_aside = False
        try:
            self._db = self._open_with_reserve()
        except (sqlite3.DatabaseError, JournalError) as e:
            if transient(e):
                self._closed_by(e)
            else:
                set_aside = True
                self.troubled = True
                try:
                    self._set_aside(str(e))  # on failure its notice says so; nothing is saved
                    self._db = self._open()
                except (sqlite3.Error, OSError, JournalError) as e2:
                    self._tell("journal_fresh_failed", file=self.path.name, detail=str(e2))
        except OSError as e:
            self._closed_by(e)
        if self._db is not None and not set_aside:
            try:
                self._check_chains()
                self._check_records()
                self._compare_mark(mark, mark_problem)
            except (sqlite3.Error, TypeError, ValueError) as e:  # rows that cannot be read
                self.troubled = True
                self.start_over(f"the save file could not be read: {e}")
        self._settle_evidence(held, keep=self.troubled and not set_aside)
        if self._db is not None:
            self._discard_cut_import()
            self.write_mark()
            self.keep_reserve()

    def _closed_by(self, error: BaseException) -> None:
        """The journal cannot be opened now, through no fault of its own: say why, keep it."""
        cause = cause_of(error, self.path.parent)
        self.open_error = JournalError(str(error), cause)
        self._tell("journal_cannot_open" if cause != OTHER else "journal_open_failed",
                   file=self.path.name, detail=str(error))

    def _open_with_reserve(self) -> sqlite3.Connection:
        try:
            return self._open()
        except sqlite3.OperationalError as e:
            if cause_of(e, self.path.parent) != FULL or not self._release_reserve():
                raise
        return self._open()

    # --- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = connect(self.path, check_same_thread=False, isolation_level=None, timeout=5.0)
        # Damaged text reads as text with replacement characters, so that the chain (not the
        # decoder) finds it, and one bad row never stops the others from being read.
        db.text_factory = lambda b: b.decode("utf-8", errors="replace")
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"the save file cannot use WAL mode (got {mode})")
            db.execute("PRAGMA synchronous=FULL")
            # Checkpoints are run by ``_checkpoint`` (and ``checkpoint``), where their failures
            # are seen; the WAL is cut back after each one (to no more than ``WAL_LIMIT``).
            db.execute("PRAGMA wal_autocheckpoint=0")
            limit = min(int(self.checkpoint_bytes), WAL_LIMIT)
            db.execute(f"PRAGMA journal_size_limit={limit}")
            check = db.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise JournalError(f"the save file is damaged ({check})")
            row = None
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
                row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is not None and row[0] == "1":
                self._migrate_1(db)
            elif row is not None and row[0] != str(SCHEMA_VERSION):
                raise JournalError(f"the save file has schema {row[0]}, expected {SCHEMA_VERSION}")
            db.executescript(SCHEMA)
            columns = {c[1] for c in db.execute("PRAGMA table_info(games)").fetchall()}
            if "names" not in columns:  # journals before names were kept
                db.execute("ALTER TABLE games ADD COLUMN names TEXT")
            if "imported" not in columns:  # journals before games could be imported
                db.execute("ALTER TABLE games ADD COLUMN imported TEXT")
            if row is None:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)",
                           (str(SCHEMA_VERSION),))
            # Reading every row proves the pages are readable before a game relies on them.
            db.execute("SELECT count(*), max(length(data)) FROM entries").fetchone()
            db.execute("SELECT count(*), max(length(options)) FROM games").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _migrate_1(self, db: sqlite3.Connection) -> None:
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
                db.execute("UPDATE games SET root = ?, seal = ? WHERE id = ?",
                           (digest, seal, gid))
                for seq, kind, data in db.execute(
                        "SELECT seq, kind, data FROM entries WHERE game = ? ORDER BY seq",
                        (gid,)).fetchall():
                    digest = entry_digest(digest, gid, seq, kind, data)
                    db.execute("UPDATE entries SET digest = ? WHERE game = ? AND seq = ?",
                               (digest, gid, seq))
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.migrated = True

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
            self._db = self._open()
            self.write_mark()
        except (sqlite3.Error, OSError, JournalError) as e:
            self._tell("journal_restart_failed", detail=str(e))

    def _tell(self, code: str, **params: Any) -> None:
        """A notice for the view (a code of ``view.MESSAGES``), once."""
        notice = message(code, **params)
        if notice not in self.notices:
            self.notices.append(notice)

    # --- evidence --------------------------------------------------------------------------

    def _hold_evidence(self) -> list[tuple[Path, Path]]:
        """Copy the main file and a non-empty WAL aside before SQLite touches them."""
        wal = self.path.with_name(self.path.name + "-wal")
        held: list[tuple[Path, Path]] = []
        try:
            if not wal.exists() or wal.stat().st_size == 0:
                return []
            sources = [(src, suffix) for src, suffix in ((self.path, ""), (wal, "-wal"))
                       if src.exists()]  # a WAL without its main file: keep the WAL alone
            need = sum(src.stat().st_size for src, _ in sources)
            if free_space(self.path.parent) < need + LOW_SPACE:
                # The copies would take the space the game needs: none is made, and it is said.
                raise OSError(errno.ENOSPC, "too little free space for a copy")
            for src, suffix in sources:
                dst = self.path.with_name(f".{self.path.name}.held{suffix}")
                held.append((dst, src))
                shutil.copyfile(src, dst)
            return held
        except OSError as e:
            for copy, _ in held:  # never a half copy left taking space
                with contextlib.suppress(OSError):
                    copy.unlink()
            self._tell("journal_not_copied", detail=str(e))
            return []

    def _settle_evidence(self, held: list[tuple[Path, Path]], keep: bool) -> None:
        if not held:
            return
        if not keep:
            for copy, _ in held:
                with contextlib.suppress(OSError):
                    copy.unlink()
            return
        base = _unique(self.path.with_name(f"{self.path.name}.damaged-{_stamp()}"))
        try:
            for copy, src in held:
                suffix = "-wal" if src.name.endswith("-wal") else ""
                os.replace(copy, base.with_name(base.name + suffix))
            _fsync_dir(self.path.parent)
            self._tell("journal_kept_main_and_wal" if len(held) == 2 else "journal_kept_wal",
                       kept=base.name)
        except OSError as e:
            self._tell("journal_not_kept", detail=str(e))

    # --- the mark --------------------------------------------------------------------------

    @property
    def mark_path(self) -> Path:
        return self.path.with_name(self.path.name + ".mark")

    def _read_mark(self) -> tuple[dict[str, Any] | None, tuple[str, str] | None]:
        """The mark, or None with a notice code and its detail saying why not."""
        try:
            text = self.mark_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None, ("mark_missing", "")
        except OSError as e:
            return None, ("mark_unreadable", str(e))
        try:
            mark = json.loads(text)
            if not isinstance(mark, dict) or not all(
                    isinstance(mark.get(k), int) for k in ("games", "game", "seq", "finished")):
                raise ValueError("not a mark")
        except ValueError:
            return None, ("mark_damaged", "")
        return mark, None

    def current_mark(self) -> dict[str, Any]:
        """What the mark records now: the newest game id, the newest game played on this table
        (imported games are not played here) with its last entry, the finished count."""
        assert self._db is not None
        db = self._db
        games = db.execute("SELECT coalesce(max(id), 0) FROM games WHERE status != ?",
                           (IMPORTING,)).fetchone()[0]
        played = db.execute("SELECT coalesce(max(id), 0) FROM games WHERE imported IS NULL"
                            ).fetchone()[0]
        last = db.execute("SELECT seq, digest FROM entries WHERE game = ? ORDER BY seq DESC "
                          "LIMIT 1", (played,)).fetchone()
        finished = db.execute("SELECT count(*) FROM games WHERE record IS NOT NULL AND "
                              "status != ?", (IMPORTING,)).fetchone()[0]
        return {"games": int(games), "game": int(played), "seq": -1 if last is None else last[0],
                "digest": None if last is None else last[1], "finished": int(finished)}

    def write_mark(self) -> None:
        """Record the journal's newest state in the mark (after every commit). A mark that
        cannot be written leaves the old one (behind the journal, which is safe) and is said;
        for want of space the reserve is given back first."""
        if self._db is None:
            return
        try:
            text = json.dumps(self.current_mark())
        except sqlite3.Error as e:
            self.mark_behind = True
            self._tell("mark_unwritable", file=self.mark_path.name, detail=str(e))
            return
        try:
            self._write_side(self.mark_path, text)
            self.mark_behind = False
        except OSError as e:
            self.mark_behind = True
            self._tell("mark_unwritable", file=self.mark_path.name, detail=str(e))

    def _write_side(self, path: Path, text: str) -> None:
        """A side file written atomically; for want of space the reserve is given back and the
        write tried once more (``OSError`` if it still fails)."""
        try:
            write_atomically(path, text)
        except OSError as e:
            if cause_of(e, self.path.parent) != FULL or not self._release_reserve():
                raise
            write_atomically(path, text)

    def _compare_mark(self, mark: dict[str, Any] | None,
                      problem: tuple[str, str] | None) -> None:
        assert self._db is not None
        now = self.current_mark()
        if mark is None:
            if now["games"] and not self.migrated:
                self.troubled = True
                code, detail = problem or ("mark_missing", "")
                self._tell(code, file=self.mark_path.name, detail=detail)
            return
        db = self._db
        game, seq = mark["game"], mark["seq"]
        if now["games"] < mark["games"]:
            self.troubled = True
            newer = mark["games"] - now["games"]
            present = db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone()
            if present is None:
                self.lost = {"game": game, "actions": seq + 1}
                self._tell("lost_games" if newer > 1 else "lost_game", game=game,
                           actions=count(seq + 1, "action"), games=newer)
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is not None:
            have = db.execute("SELECT count(*) FROM entries WHERE game = ? AND seq <= ?",
                              (game, seq)).fetchone()[0]
            if have < seq + 1:
                self.troubled = True
                self.lost = {"game": game, "actions": seq + 1 - have}
                _, bad, _ = self._chain(game)
                self._tell("lost_actions_damaged" if bad else "lost_actions", game=game,
                           actions=count(seq + 1 - have, "action"), resume=have)
            elif seq >= 0:
                digest = db.execute("SELECT digest FROM entries WHERE game = ? AND seq = ?",
                                    (game, seq)).fetchone()[0]
                if digest != mark.get("digest"):
                    self.troubled = True
                    self._tell("entries_differ", game=game, seq=seq)
        if now["finished"] < mark["finished"]:
            self.troubled = True
            self._tell("lost_finished", games=count(mark["finished"] - now["finished"],
                                                    "finished game"))

    # --- checks ----------------------------------------------------------------------------

    def _chain(self, gid: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool]:
        """The game's entries split into the longest prefix whose chain holds and the rest, and
        whether the root (its start data) holds."""
        assert self._db is not None
        if gid in self._chains:
            return self._chains[gid]
        row = self._db.execute("SELECT variant, players, options, setup, hints, root FROM games "
                               "WHERE id = ?", (gid,)).fetchone()
        digest = game_root(gid, *row[:5])
        root_ok = digest == row[5]
        good: list[dict[str, Any]] = []
        bad: list[dict[str, Any]] = []
        for seq, kind, data, at, stored in self._db.execute(
                "SELECT seq, kind, data, at, digest FROM entries WHERE game = ? ORDER BY seq",
                (gid,)).fetchall():
            entry = {"seq": seq, "kind": kind, "data": data, "at": at, "digest": stored}
            if bad:
                entry["reason"] = "follows a damaged entry"
                bad.append(entry)
                continue
            expected = entry_digest(digest, gid, seq, kind, data)
            if seq != len(good):
                entry["reason"] = f"entry {len(good)} is missing"
                bad.append(entry)
            elif expected != stored:
                entry["reason"] = "its checksum does not match: the entry was damaged"
                bad.append(entry)
            else:
                digest = expected
                good.append(entry)
        self._chains[gid] = (good, bad, root_ok)
        return good, bad, root_ok

    def _check_chains(self) -> None:
        assert self._db is not None
        for gid, status in self._db.execute("SELECT id, status FROM games").fetchall():
            good, bad, root_ok = self._chain(gid)
            if not root_ok:
                self.troubled = True
                if status != RUNNING:
                    self._tell("start_damaged", game=gid)
            elif bad:
                self.troubled = True
                if status != RUNNING:  # the running game is told when it is resumed
                    self._tell("entries_damaged", game=gid, entries=count(len(bad), "entry"),
                               first=len(good))

    def _check_records(self) -> None:
        assert self._db is not None
        for gid, record, state, seal in self._db.execute(
                "SELECT id, record, state, seal FROM games WHERE record IS NOT NULL"
                ).fetchall():
            reason = None
            if seal != record_seal(record, state):
                reason = "record_bad_checksum"
            else:
                try:
                    json.loads(record)
                    json.loads(state)
                except (json.JSONDecodeError, TypeError):
                    reason = "record_not_json"
            if reason is not None:
                self.troubled = True
                self._bad_records[gid] = reason
                self._tell(reason, game=gid)

    @property
    def ok(self) -> bool:
        """True while entries reach the disk."""
        return self._db is not None

    def close(self) -> None:
        """Close. The last connection checkpoints the WAL into the main file and removes it;
        that destroys nothing, as a WAL found damaged at start was copied aside first."""
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- writing ---------------------------------------------------------------------------

    def _tx(self, work: Callable[[sqlite3.Connection], int], spare: bool = True) -> int:
        """Run ``work`` in one transaction, on disk when this returns (``JournalError``, and
        nothing of it in the file, when not). For want of space the reserve is given back and
        the transaction run once more (``spare``: the write is for the game in progress; a new
        game or an import never takes the reserve); ``work`` must start from what it reads."""
        try:
            result = self._commit(work)
        except JournalError as e:
            if e.cause != FULL or not spare or not self._release_reserve():
                raise
            result = self._commit(work)
        self.write_mark()
        self._checkpoint()
        return result

    def _commit(self, work: Callable[[sqlite3.Connection], int]) -> int:
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

    def _checkpoint(self) -> None:
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

    def probe(self) -> None:
        """One small real write (``JournalError`` when it fails): whether the disk takes
        writes again."""
        self._tx(lambda db: db.execute("INSERT OR REPLACE INTO meta VALUES ('written', ?)",
                                       (now_iso(),)).rowcount)

    # --- the reserve ---------------------------------------------------------------------

    @property
    def reserve_path(self) -> Path:
        return self.path.with_name(self.path.name + ".reserve")

    @property
    def reserve_held(self) -> bool:
        """The reserve file stands, at its full size (as this journal made or found it)."""
        return self._reserve_held

    def _reserve_file_whole(self) -> bool:
        try:
            return self.reserve_path.stat().st_size >= self.reserve
        except OSError:
            return False

    def keep_reserve(self) -> bool:
        """Take the reserve's space (again) if the disk has room for it twice over; True when
        it is held (or none is wanted). Called at start and, while it is missing, now and
        then by the table."""
        if self.reserve <= 0:
            return True
        if self._reserve_file_whole():
            self.reserve_used = False
            self._reserve_held = True
            return True
        if free_space(self.path.parent) < 2 * self.reserve:
            return False
        try:
            fill_file(self.reserve_path, self.reserve)
        except OSError as e:
            log.warning("the journal's reserve could not be kept: %s", e)
            return False
        self.reserve_used = False
        self._reserve_held = True
        return True

    def _release_reserve(self) -> bool:
        """The disk is full: give the reserve's space to the journal. True if there was any."""
        if self.reserve <= 0:
            return False
        try:
            self.reserve_path.unlink()
        except FileNotFoundError:
            return False
        except OSError as e:
            log.warning("the journal's reserve could not be given back: %s", e)
            return False
        _fsync_dir(self.path.parent)
        self.reserve_used = True
        self._reserve_held = False
        log.warning("the disk is full: the journal goes on in its reserve of %d bytes",
                    self.reserve)
        return True

    def start_game(self, variant: str, players: int | None, options: Mapping[str, Any],
                   setup: Mapping[str, Any], hints: bool, names: list[str] | None = None,
                   colors: list[str] | None = None,
                   computers: Mapping[str, str] | None = None,
                   draw_seed: int | None = None) -> int:
        """A new running game; any other running game is kept, marked abandoned. The seats'
        names, colours, the computer's seats and the seed of the table's draws for it are kept
        beside the game's start data (outside its checksum: they change nothing in the game)."""
        options_text, setup_text = json.dumps(dict(options)), json.dumps(dict(setup))
        seats: dict[str, Any] = {"names": list(names or []), "colors": list(colors or []),
                                 "computers": dict(computers or {})}
        if draw_seed is not None:
            seats["draw_seed"] = int(draw_seed)
        names_text = json.dumps(seats)

        def work(db: sqlite3.Connection) -> int:
            db.execute("UPDATE games SET status = ? WHERE status = ?", (ABANDONED, RUNNING))
            cur = db.execute(
                "INSERT INTO games (variant, players, options, setup, hints, started, names) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (variant, players, options_text, setup_text, int(hints), now_iso(), names_text))
            gid = int(cur.lastrowid or 0)
            db.execute("UPDATE games SET root = ? WHERE id = ?",
                       (game_root(gid, variant, players, options_text, setup_text, hints), gid))
            return gid

        return self._tx(work, spare=False)

    def append(self, game: int, kind: str, data: Any, reopen: bool = False) -> None:
        """One entry (``action`` with its JSON, ``undo``, ``hints``, ``draw``), on disk when this
        returns. ``reopen``: the entry takes back the last action of a finished game, which
        runs again; both are kept in one transaction."""
        text = json.dumps(data)

        def work(db: sqlite3.Connection) -> int:
            last = db.execute("SELECT seq, digest FROM entries WHERE game = ? ORDER BY seq DESC "
                              "LIMIT 1", (game,)).fetchone()
            if last is None:
                seq, previous = 0, db.execute("SELECT root FROM games WHERE id = ?",
                                              (game,)).fetchone()[0]
            else:
                seq, previous = last[0] + 1, last[1]
            db.execute("INSERT INTO entries (game, seq, kind, data, at, digest) VALUES "
                       "(?, ?, ?, ?, ?, ?)",
                       (game, seq, kind, text, now_iso(),
                        entry_digest(previous, game, seq, kind, text)))
            if reopen:
                db.execute("UPDATE games SET status = ? WHERE id = ?", (RUNNING, game))
            return seq

        self._tx(work)

    def finish(self, game: int, record: Mapping[str, Any], state: Mapping[str, Any]) -> None:
        """Keep the finished game as a record with its final state."""
        record_text, state_text = json.dumps(record), json.dumps(state)
        self._tx(lambda db: db.execute(
            "UPDATE games SET status = ?, finished = ?, record = ?, state = ?, seal = ? "
            "WHERE id = ?", (FINISHED, now_iso(), record_text, state_text,
                             record_seal(record_text, state_text), game)).rowcount)

    def keep_unfinished(self, game: int, record: Mapping[str, Any],
                        state: Mapping[str, Any]) -> None:
        """Keep a running game that a new game replaces as a record of how far it went, with
        its state: it is listed among the finished games, marked unfinished. A game that has
        a record already (it finished, then was reopened) keeps the record it finished with."""
        record_text, state_text = json.dumps(record), json.dumps(state)
        self._tx(lambda db: db.execute(
            "UPDATE games SET status = ?, finished = ?, record = ?, state = ?, seal = ? "
            "WHERE id = ? AND record IS NULL",
            (ABANDONED, now_iso(), record_text, state_text,
             record_seal(record_text, state_text), game)).rowcount)

    def import_finished(self, games: Sequence[Mapping[str, Any]]) -> list[int]:
        """Add finished games from elsewhere (each checked by replaying it: ``archive``), all
        in one transaction: all of them are on disk when this returns, or none. Each is kept
        like a game played here (its actions as chained entries, its record sealed) and marked
        imported, so that the table never resumes it. (A large file goes in by
        ``stage_import`` and ``commit_import`` instead.)"""
        stamp = now_iso()
        added: list[int] = []

        def work(db: sqlite3.Connection) -> int:
            added.clear()  # a transaction run again starts afresh
            return len(_insert_imported(db, games, FINISHED, stamp, added))

        try:
            self._tx(work, spare=False)  # an import never takes the game's reserve
        except JournalError:
            added.clear()
            raise
        return added

    def stage_import(self, games: Sequence[Mapping[str, Any]], stamp: str) -> list[int]:
        """Write a few games of an import under way (one small transaction), not yet counted
        as finished: ``commit_import`` makes the whole import count at once, and
        ``discard_import`` (or the next start, after a cut) removes them."""
        added: list[int] = []
        try:
            self._unsynced_tx(lambda db: len(_insert_imported(db, games, IMPORTING, stamp,
                                                              added)))
        except JournalError:
            added.clear()
            raise
        self._checkpoint()  # the WAL stays bounded while a large import is staged
        return added

    def _unsynced_tx(self, work: Callable[[sqlite3.Connection], int]) -> int:
        """A transaction for staged games: not synced to disk and no mark written (they count
        for nothing until ``commit_import``, whose transaction is synced as every other, and a
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

    def commit_import(self, stamp: str) -> int:
        """Every game staged by the import ``stamp`` counts as finished, at once."""
        committed = self._tx(lambda db: db.execute(
            "UPDATE games SET status = ? WHERE status = ? AND imported = ?",
            (FINISHED, IMPORTING, stamp)).rowcount, spare=False)
        self.checkpoint()
        return committed

    def discard_import(self, stamp: str | None = None) -> int:
        """Remove the games staged by the import ``stamp`` (every staged game: None)."""
        where = "status = ?" + ("" if stamp is None else " AND imported = ?")
        args: tuple[str, ...] = (IMPORTING,) if stamp is None else (IMPORTING, stamp)

        def work(db: sqlite3.Connection) -> int:
            db.execute(f"DELETE FROM entries WHERE game IN (SELECT id FROM games WHERE {where})",
                       args)
            return db.execute(f"DELETE FROM games WHERE {where}", args).rowcount

        discarded = self._tx(work)
        self.checkpoint()
        return discarded

    def staged(self) -> int:
        """How many staged games of an import the journal holds (0 while none runs; more
        only when an import was cut off or given up and its games could not be removed)."""
        if self._db is None:
            return 0
        return int(self._db.execute("SELECT count(*) FROM games WHERE status = ?",
                                    (IMPORTING,)).fetchone()[0])

    def _discard_cut_import(self) -> None:
        """An import cut off by a stop left staged games: they never counted, so they go."""
        assert self._db is not None
        staged = self.staged()
        if not staged:
            return
        try:
            self.discard_import()
        except JournalError as e:
            self._tell("journal_error", detail=str(e))
            return
        self._tell("import_cut_off", games=count(staged, "finished game"))

    def checkpoint(self) -> None:
        """Copy the WAL into the main file as far as readers allow, without waiting for them
        (its file is then cut back at the next write). A checkpoint that fails loses nothing."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def reopen(self, game: int) -> None:
        """A finished game whose last action was taken back is running again. Its record as
        it finished is kept (and still listed among the finished games) until it finishes
        again."""
        self._tx(lambda db: db.execute(
            "UPDATE games SET status = ? WHERE id = ?", (RUNNING, game)).rowcount)

    def set_unreadable(self, game: int, note: str) -> None:
        """Set a game aside that cannot be replayed; it stays in the file for inspection."""
        self._tx(lambda db: db.execute("UPDATE games SET status = ?, note = ? WHERE id = ?",
                                       (UNREADABLE, note, game)).rowcount)

    def set_aside_entries(self, game: int, entries: list[dict[str, Any]]) -> str:
        """Move entries that cannot be resumed out of the game: first into a JSON file next to
        the journal (on disk), then into the ``set_aside`` table; the file's name."""
        if self._db is None:
            raise JournalError("the save file is not open")
        aside = self.path.with_name(f"{self.path.name}.set-aside-{_stamp()}-game{game}.json")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.set-aside-{_stamp()}-game{game}-{n}"
                                        ".json")
            n += 1
        row = self._db.execute("SELECT variant FROM games WHERE id = ?", (game,)).fetchone()
        doc = {"journal": self.path.name, "game": game, "variant": row[0] if row else None,
               "set_aside": now_iso(), "entries": entries}
        try:
            self._write_side(aside, json.dumps(doc, indent=1))
        except OSError as e:
            raise JournalError(f"the damaged entries could not be set aside: {e}",
                               cause_of(e, self.path.parent)) from None
        self.troubled = True

        def work(db: sqlite3.Connection) -> int:
            for e in entries:
                db.execute("INSERT INTO set_aside VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (game, e.get("seq"), e.get("kind"), e.get("data"), e.get("at"),
                            e.get("digest"), e.get("reason", ""), aside.name))
                db.execute("DELETE FROM entries WHERE game = ? AND seq = ?", (game, e["seq"]))
            return len(entries)

        self._tx(work)
        self._chains.pop(game, None)
        return aside.name

    # --- reading ---------------------------------------------------------------------------

    def _stored(self, row: tuple[Any, ...]) -> StoredGame:
        try:
            options, setup = json.loads(row[3]), json.loads(row[4])
        except (json.JSONDecodeError, TypeError):
            options, setup = DAMAGED, DAMAGED
        game = StoredGame(row[0], row[1], row[2], options, setup, bool(row[5]), status=row[6])
        game.names, game.colors = self._seats(game.id)
        game.computers, game.draw_seed = self._computers(game.id)
        good, bad, root_ok = self._chain(game.id)
        if not root_ok:
            game.options = game.setup = DAMAGED
        for entry in good:
            try:
                game.entries.append((entry["kind"], json.loads(entry["data"])))
            except (json.JSONDecodeError, TypeError):
                game.entries.append((DAMAGED, entry["data"]))
        game.damaged = [dict(e) for e in bad]
        game.rows = [dict(e) for e in good]
        return game

    def _seats(self, gid: int) -> tuple[list[str], list[str]]:
        """The names and colours kept for a game; none when they are missing or damaged (not
        worth a notice: the panel then says Player 1, Player 2... in its own colours)."""
        assert self._db is not None
        row = self._db.execute("SELECT names FROM games WHERE id = ?", (gid,)).fetchone()
        try:
            seats = json.loads(row[0]) if row and row[0] else {}
        except (json.JSONDecodeError, TypeError):
            return [], []
        if not isinstance(seats, dict):
            return [], []
        found: list[list[str]] = []
        for key in ("names", "colors"):
            values = seats.get(key)
            ok = isinstance(values, list) and all(isinstance(v, str) for v in values)
            found.append([str(v) for v in values] if ok and values else [])
        return found[0], found[1]

    def _computers(self, gid: int) -> tuple[dict[str, str], int | None]:
        """The computer's seats kept for a game, and the seed of the table's draws for it;
        none when missing or damaged (then people play every seat, or tell the computer's
        cards, which the panel shows)."""
        assert self._db is not None
        row = self._db.execute("SELECT names FROM games WHERE id = ?", (gid,)).fetchone()
        try:
            seats = json.loads(row[0]) if row and row[0] else {}
        except (json.JSONDecodeError, TypeError):
            return {}, None
        if not isinstance(seats, dict):
            return {}, None
        found = seats.get("computers")
        seed = seats.get("draw_seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            seed = None
        if not isinstance(found, dict):
            return {}, seed
        return {str(k): str(v) for k, v in found.items() if isinstance(v, str)}, seed

    def running_game(self) -> StoredGame | None:
        """The most recent running game, its entries the longest prefix whose chain holds."""
        if self._db is None:
            return None
        row = self._db.execute(
            "SELECT id, variant, players, options, setup, hints, status FROM games "
            "WHERE status = ? ORDER BY id DESC LIMIT 1", (RUNNING,)).fetchone()
        return None if row is None else self._stored(row)

    def last_finished_game(self) -> StoredGame | None:
        """The newest game played here if it is finished (no newer game was started), else
        None; imported games are never resumed."""
        if self._db is None:
            return None
        row = self._db.execute(
            "SELECT id, variant, players, options, setup, hints, status FROM games "
            "WHERE imported IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        if row is None or row[6] != FINISHED or row[0] in self._bad_records:
            return None
        return self._stored(row)

    def finished_games(self, game: int | None = None) -> list[dict[str, Any]]:
        """Every finished game, oldest first (or only ``game``): id, variant, finish time,
        record, state, whether it was imported, and whether it is unfinished (replaced by a new
        game before its end; its time is when it was replaced). A damaged record is left out
        with a notice (it stays in the file)."""
        if self._db is None:
            return []
        one = "" if game is None else " AND id = ?"
        rows = self._db.execute(
            "SELECT id, variant, finished, record, state, seal, imported FROM games WHERE "
            f"record IS NOT NULL AND status != ?{one} ORDER BY id",
            (IMPORTING,) if game is None else (IMPORTING, game)).fetchall()
        result = []
        for gid, variant, finished, record, state, seal, imported in rows:
            reason = None
            if seal != record_seal(record, state):
                reason = "record_bad_checksum"
            else:
                try:
                    shown = json.loads(state)
                    result.append({"id": gid, "variant": variant, "finished": finished,
                                   "record": json.loads(record), "state": shown,
                                   "imported": imported is not None,
                                   "unfinished": not (isinstance(shown, dict)
                                                      and shown.get("over"))})
                except (json.JSONDecodeError, TypeError):
                    reason = "record_not_json"
            if reason is not None and gid not in self._bad_records:
                self._bad_records[gid] = reason
                self._tell(reason, game=gid)
        return result
