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
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .view import Message, count, message

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
    """The journal could not be written; the message says why."""


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
    """Write ``text`` so that ``path`` holds either the old or the new text after a cut."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _unique(path: Path) -> Path:
    candidate, n = path, 1
    while candidate.exists() or candidate.with_name(candidate.name + "-wal").exists():
        candidate = path.with_name(f"{path.name}-{n}")
        n += 1
    return candidate


class Journal:
    """An open journal file. Not thread-safe by itself: the table calls it under its lock.

    Opening runs every check of the module docstring; what they found is in ``notices``,
    ``lost`` (``{"game": id, "actions": n}`` when the journal went back in time) and
    ``troubled`` (anything at all was wrong)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.notices: list[Message] = []
        self.troubled = False
        self.lost: dict[str, int] | None = None
        self.migrated = False
        self._db: sqlite3.Connection | None = None
        self._chains: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]], bool]] = {}
        self._bad_records: dict[int, str] = {}
        mark, mark_problem = self._read_mark()
        held = self._hold_evidence()
        set_aside = False
        try:
            self._db = self._open()
        except (sqlite3.DatabaseError, JournalError) as e:
            set_aside = True
            self.troubled = True
            try:
                self._set_aside(str(e))  # on failure its notice says so; nothing is saved
                self._db = self._open()
            except (sqlite3.Error, OSError, JournalError) as e2:
                self._tell("journal_fresh_failed", file=self.path.name, detail=str(e2))
        except OSError as e:
            self._tell("journal_open_failed", file=self.path.name, detail=str(e))
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

    # --- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                             timeout=5.0)
        # Damaged text reads as text with replacement characters, so that the chain (not the
        # decoder) finds it, and one bad row never stops the others from being read.
        db.text_factory = lambda b: b.decode("utf-8", errors="replace")
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"the save file cannot use WAL mode (got {mode})")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
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
        aside = _unique(self.path.with_name(f"{self.path.name}.unreadable-{_stamp()}"))
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    os.replace(side, aside.with_name(aside.name + suffix))
            _fsync_dir(self.path.parent)
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
        try:
            if not wal.exists() or wal.stat().st_size == 0:
                return []
            held = []
            for src, suffix in ((self.path, ""), (wal, "-wal")):
                if not src.exists():  # a WAL without its main file: keep the WAL alone
                    continue
                dst = self.path.with_name(f".{self.path.name}.held{suffix}")
                shutil.copyfile(src, dst)
                held.append((dst, src))
            return held
        except OSError as e:
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
        """Record the journal's newest state in the mark (after every commit)."""
        if self._db is None:
            return
        try:
            write_atomically(self.mark_path, json.dumps(self.current_mark()))
        except (OSError, sqlite3.Error) as e:
            self._tell("mark_unwritable", file=self.mark_path.name, detail=str(e))

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

    def _tx(self, work: Callable[[sqlite3.Connection], int]) -> int:
        if self._db is None:
            raise JournalError("the save file is not open")
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            result = work(db)
            db.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise JournalError(f"cannot write the save file: {e}") from None
        self.write_mark()
        return result

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

        return self._tx(work)

    def append(self, game: int, kind: str, data: Any) -> None:
        """One entry (``action`` with its JSON, ``undo``, ``hints``, ``draw``), on disk when this
        returns."""
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
        self._tx(lambda db: len(_insert_imported(db, games, FINISHED, stamp, added)))
        return added

    def stage_import(self, games: Sequence[Mapping[str, Any]], stamp: str) -> list[int]:
        """Write a few games of an import under way (one small transaction), not yet counted
        as finished: ``commit_import`` makes the whole import count at once, and
        ``discard_import`` (or the next start, after a cut) removes them."""
        added: list[int] = []
        self._unsynced_tx(lambda db: len(_insert_imported(db, games, IMPORTING, stamp, added)))
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
            raise JournalError(f"cannot write the save file: {e}") from None
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA synchronous=FULL")
        return result

    def commit_import(self, stamp: str) -> int:
        """Every game staged by the import ``stamp`` counts as finished, at once."""
        committed = self._tx(lambda db: db.execute(
            "UPDATE games SET status = ? WHERE status = ? AND imported = ?",
            (FINISHED, IMPORTING, stamp)).rowcount)
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

    def _discard_cut_import(self) -> None:
        """An import cut off by a stop left staged games: they never counted, so they go."""
        assert self._db is not None
        staged = self._db.execute("SELECT count(*) FROM games WHERE status = ?",
                                  (IMPORTING,)).fetchone()[0]
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
        (its file is then cut back to ``WAL_LIMIT`` at the next write)."""
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
            write_atomically(aside, json.dumps(doc, indent=1))
        except OSError as e:
            raise JournalError(f"the damaged entries could not be set aside: {e}") from None
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
