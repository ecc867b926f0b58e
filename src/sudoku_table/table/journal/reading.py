"""Reading games back: the running game to resume (its entries the longest prefix whose chain
holds), the last game if it finished, and the finished records."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from .chain import Integrity, record_seal
from .schema import DAMAGED, FINISHED, IMPORTING, RUNNING

_COLUMNS = "SELECT id, variant, players, options, setup, hints, status FROM games"


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
    deal_seed: int | None = None
    """With the table dealing every seat's cards: the game's seed for them (the card dealt in
    a state follows from it and the actions, so no deal is an entry); None when players draw."""
    network: dict[str, Any] | None = None
    """A game shared with other tables: what this table needs to join it again."""


def _seats(db: sqlite3.Connection, gid: int) -> dict[str, Any]:
    """The seats kept beside a game's start data; empty when missing or damaged (not worth a
    notice: the panel then says Player 1, Player 2... in its own colours, people play every
    seat, or tell the computer's cards, which the panel shows)."""
    row = db.execute("SELECT names FROM games WHERE id = ?", (gid,)).fetchone()
    try:
        seats = json.loads(row[0]) if row and row[0] else {}
    except (json.JSONDecodeError, TypeError):
        return {}
    return seats if isinstance(seats, dict) else {}


def _strings(values: Any) -> list[str]:
    ok = isinstance(values, list) and all(isinstance(v, str) for v in values)
    return [str(v) for v in values] if ok and values else []


def _with_seats(game: StoredGame, seats: dict[str, Any]) -> None:
    game.names, game.colors = _strings(seats.get("names")), _strings(seats.get("colors"))
    seed = seats.get("draw_seed")
    game.draw_seed = None if isinstance(seed, bool) or not isinstance(seed, int) else seed
    seed = seats.get("deal_seed")
    game.deal_seed = None if isinstance(seed, bool) or not isinstance(seed, int) else seed
    network = seats.get("network")
    game.network = network if isinstance(network, dict) else None
    found = seats.get("computers")
    if isinstance(found, dict):
        game.computers = {str(k): str(v) for k, v in found.items() if isinstance(v, str)}


class Reader:
    """Games read from one journal, their chains and records as ``integrity`` finds them."""

    def __init__(self, integrity: Integrity) -> None:
        self._integrity = integrity

    def _stored(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> StoredGame:
        try:
            options, setup = json.loads(row[3]), json.loads(row[4])
        except (json.JSONDecodeError, TypeError):
            options, setup = DAMAGED, DAMAGED
        game = StoredGame(row[0], row[1], row[2], options, setup, bool(row[5]), status=row[6])
        _with_seats(game, _seats(db, game.id))
        good, bad, root_ok = self._integrity.chain(db, game.id)
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

    def running_game(self, db: sqlite3.Connection) -> StoredGame | None:
        """The most recent running game, its entries the longest prefix whose chain holds."""
        row = db.execute(f"{_COLUMNS} WHERE status = ? ORDER BY id DESC LIMIT 1",
                         (RUNNING,)).fetchone()
        return None if row is None else self._stored(db, row)

    def last_finished_game(self, db: sqlite3.Connection) -> StoredGame | None:
        """The newest game played here if it is finished (no newer game was started), else
        None; imported games are never resumed."""
        row = db.execute(f"{_COLUMNS} WHERE imported IS NULL ORDER BY id DESC LIMIT 1"
                         ).fetchone()
        if row is None or row[6] != FINISHED or self._integrity.record_damaged(row[0]):
            return None
        return self._stored(db, row)

    def finished_games(self, db: sqlite3.Connection,
                       game: int | None = None) -> list[dict[str, Any]]:
        """Every finished game, oldest first (or only ``game``); a damaged record is left out
        and told once (it stays in the file)."""
        one = "" if game is None else " AND id = ?"
        rows = db.execute(
            "SELECT id, variant, finished, record, state, seal, imported FROM games WHERE "
            f"record IS NOT NULL AND status != ?{one} ORDER BY id",
            (IMPORTING,) if game is None else (IMPORTING, game)).fetchall()
        result = []
        for gid, variant, finished, record, state, seal, imported in rows:
            if seal != record_seal(record, state):
                self._integrity.damaged_record(gid, "record_bad_checksum")
                continue
            try:
                shown = json.loads(state)
                result.append({"id": gid, "variant": variant, "finished": finished,
                               "record": json.loads(record), "state": shown,
                               "imported": imported is not None,
                               "unfinished": not (isinstance(shown, dict)
                                                  and shown.get("over"))})
            except (json.JSONDecodeError, TypeError):
                self._integrity.damaged_record(gid, "record_not_json")
        return result
