"""The journal's proof: each entry's digest chained from its game's root, the seal of each
finished record, and the checks of both at start (docs/DESIGN.md, "The journal")."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any, NamedTuple

from ..view import count
from .schema import RUNNING, Tell


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


def record_fault(record: Any, state: Any, seal: Any) -> str | None:
    """Why a finished record cannot be shown (a notice code), or None when it is sound."""
    if seal != record_seal(record, state):
        return "record_bad_checksum"
    try:
        json.loads(record)
        json.loads(state)
    except (json.JSONDecodeError, TypeError):
        return "record_not_json"
    return None


class Chain(NamedTuple):
    """A game's entries as stored (dicts of seq, kind, data, at, digest), split in two."""

    good: list[dict[str, Any]]
    """The longest prefix whose chain holds."""
    bad: list[dict[str, Any]]
    """The entries after it, each with its ``reason``."""
    root_ok: bool
    """Whether the root (the game's start data) holds."""


class Integrity:
    """What the chains and seals of one open journal say: each game's chain, walked once and
    kept until its entries change, and the finished records found damaged (left out of the
    finished games, told once)."""

    def __init__(self, tell: Tell) -> None:
        self._tell = tell
        self._chains: dict[int, Chain] = {}
        self._bad_records: dict[int, str] = {}

    def chain(self, db: sqlite3.Connection, gid: int) -> Chain:
        """The game's entries split into the longest prefix whose chain holds and the rest."""
        if gid in self._chains:
            return self._chains[gid]
        row = db.execute("SELECT variant, players, options, setup, hints, root FROM games "
                         "WHERE id = ?", (gid,)).fetchone()
        digest = game_root(gid, *row[:5])
        root_ok = digest == row[5]
        good: list[dict[str, Any]] = []
        bad: list[dict[str, Any]] = []
        for seq, kind, data, at, stored in db.execute(
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
        self._chains[gid] = Chain(good, bad, root_ok)
        return self._chains[gid]

    def forget(self, gid: int) -> None:
        """The game's entries changed outside a plain append: walk its chain again."""
        self._chains.pop(gid, None)

    def check_games(self, db: sqlite3.Connection) -> bool:
        """Walk every game's chain; True when any is broken. A break in a game that is not
        running is told here; the running game's is told when it is resumed."""
        troubled = False
        for gid, status in db.execute("SELECT id, status FROM games").fetchall():
            good, bad, root_ok = self.chain(db, gid)
            if not root_ok:
                troubled = True
                if status != RUNNING:
                    self._tell("start_damaged", game=gid)
            elif bad:
                troubled = True
                if status != RUNNING:
                    self._tell("entries_damaged", game=gid, entries=count(len(bad), "entry"),
                               first=len(good))
        return troubled

    def check_records(self, db: sqlite3.Connection) -> bool:
        """Check every finished record's seal and JSON; True when any is damaged (each told)."""
        troubled = False
        for gid, record, state, seal in db.execute(
                "SELECT id, record, state, seal FROM games WHERE record IS NOT NULL"
                ).fetchall():
            reason = record_fault(record, state, seal)
            if reason is not None:
                troubled = True
                self._bad_records[gid] = reason
                self._tell(reason, game=gid)
        return troubled

    def record_damaged(self, gid: int) -> bool:
        """Whether the game's finished record was found damaged."""
        return gid in self._bad_records

    def damaged_record(self, gid: int, reason: str) -> None:
        """A finished record found damaged on reading: told once, and left out from now on."""
        if gid not in self._bad_records:
            self._bad_records[gid] = reason
            self._tell(reason, game=gid)
