"""The writes of games played here: a new game, each entry chained to the last, the finish,
and the recovery rows (a game that cannot be replayed, entries set aside)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import disk
from .chain import entry_digest, game_root, record_seal
from .disk import JournalError, cause_of
from .schema import ABANDONED, FINISHED, RUNNING, UNREADABLE, now_iso
from .writer import Writer


def seats_text(names: list[str] | None, colors: list[str] | None,
               computers: Mapping[str, str] | None, draw_seed: int | None,
               deal_seed: int | None = None, network: Mapping[str, Any] | None = None) -> str:
    """The seats as kept beside a game's start data (the ``names`` column); ``network``: a
    game shared with other tables, what this table needs to join it again."""
    seats: dict[str, Any] = {"names": list(names or []), "colors": list(colors or []),
                             "computers": dict(computers or {})}
    if draw_seed is not None:
        seats["draw_seed"] = int(draw_seed)
    if deal_seed is not None:
        seats["deal_seed"] = int(deal_seed)
    if network is not None:
        seats["network"] = dict(network)
    return json.dumps(seats)


class GameWrites:
    """Each write of a game played on this table, one transaction of ``writer`` each."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    def start(self, variant: str, players: int | None, options: Mapping[str, Any],
              setup: Mapping[str, Any], hints: bool, seats: str) -> int:
        """A new running game (any other running game marked abandoned); its id."""
        options_text, setup_text = json.dumps(dict(options)), json.dumps(dict(setup))

        def work(db: sqlite3.Connection) -> int:
            db.execute("UPDATE games SET status = ? WHERE status = ?", (ABANDONED, RUNNING))
            cur = db.execute(
                "INSERT INTO games (variant, players, options, setup, hints, started, names) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (variant, players, options_text, setup_text, int(hints), now_iso(), seats))
            gid = int(cur.lastrowid or 0)
            db.execute("UPDATE games SET root = ? WHERE id = ?",
                       (game_root(gid, variant, players, options_text, setup_text, hints), gid))
            return gid

        return self._writer.tx(work, spare=False)

    def set_seats(self, game: int, seats: str) -> None:
        """The seats kept beside a game's start, written again (outside its checksum)."""
        def work(db: sqlite3.Connection) -> int:
            return db.execute("UPDATE games SET names = ? WHERE id = ?", (seats, game)).rowcount

        self._writer.tx(work)

    def append(self, game: int, kind: str, data: Any, reopen: bool) -> None:
        """One entry, chained to the game's last; ``reopen``: the game runs again."""
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

        self._writer.tx(work)

    def finish(self, game: int, record: Mapping[str, Any], state: Mapping[str, Any]) -> None:
        """Keep the finished game as a record with its final state."""
        self._seal(game, record, state, FINISHED, "")

    def keep_unfinished(self, game: int, record: Mapping[str, Any],
                        state: Mapping[str, Any]) -> None:
        """Keep a game that a new game replaces as a record of how far it went, unless it
        holds a record already (it finished, then was reopened)."""
        self._seal(game, record, state, ABANDONED, " AND record IS NULL")

    def _seal(self, game: int, record: Mapping[str, Any], state: Mapping[str, Any],
              status: str, only: str) -> None:
        record_text, state_text = json.dumps(record), json.dumps(state)
        self._writer.tx(lambda db: db.execute(
            "UPDATE games SET status = ?, finished = ?, record = ?, state = ?, seal = ? "
            f"WHERE id = ?{only}", (status, now_iso(), record_text, state_text,
                                    record_seal(record_text, state_text), game)).rowcount)

    def reopen(self, game: int) -> None:
        """A finished game whose last action was taken back runs again."""
        self._writer.tx(lambda db: db.execute(
            "UPDATE games SET status = ? WHERE id = ?", (RUNNING, game)).rowcount)

    def set_unreadable(self, game: int, note: str) -> None:
        """Set a game aside that cannot be replayed; it stays in the file for inspection."""
        self._writer.tx(lambda db: db.execute(
            "UPDATE games SET status = ?, note = ? WHERE id = ?",
            (UNREADABLE, note, game)).rowcount)

    def file_aside(self, game: int, entries: list[dict[str, Any]]) -> Path:
        """Write entries that cannot be resumed to a JSON file next to the journal (on disk
        when this returns); its path."""
        db = self._writer.db
        if db is None:
            raise JournalError("the save file is not open")
        path = self._writer.path
        aside = path.with_name(f"{path.name}.set-aside-{disk.stamp()}-game{game}.json")
        n = 1
        while aside.exists():
            aside = path.with_name(f"{path.name}.set-aside-{disk.stamp()}-game{game}-{n}.json")
            n += 1
        row = db.execute("SELECT variant FROM games WHERE id = ?", (game,)).fetchone()
        doc = {"journal": path.name, "game": game, "variant": row[0] if row else None,
               "set_aside": now_iso(), "entries": entries}
        try:
            self._writer.write_side(aside, json.dumps(doc, indent=1))
        except OSError as e:
            raise JournalError(f"the damaged entries could not be set aside: {e}",
                               cause_of(e, path.parent)) from None
        return aside

    def move_aside(self, game: int, entries: list[dict[str, Any]], aside: Path) -> None:
        """Copy the entries filed in ``aside`` into the ``set_aside`` table and remove them
        from the game, in one transaction."""
        def work(db: sqlite3.Connection) -> int:
            for e in entries:
                db.execute("INSERT INTO set_aside VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (game, e.get("seq"), e.get("kind"), e.get("data"), e.get("at"),
                            e.get("digest"), e.get("reason", ""), aside.name))
                db.execute("DELETE FROM entries WHERE game = ? AND seq = ?", (game, e["seq"]))
            return len(entries)

        self._writer.tx(work)
