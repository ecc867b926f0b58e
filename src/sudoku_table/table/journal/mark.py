"""The mark against going back in time: ``<journal>.mark``, written after every commit, says
how far the journal had come; a journal found behind it on start lost something."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..view import count
from .chain import Integrity
from .schema import IMPORTING, Tell

Lost = dict[str, int]
"""``{"game": id, "actions": n}``: what a journal behind its mark lost."""


def current_mark(db: sqlite3.Connection) -> dict[str, Any]:
    """What the mark records now: the newest game id, the newest game played on this table
    (imported games are not played here) with its last entry, the finished count."""
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


class Mark:
    """The mark of one journal; whether the last one could not be written (``behind``: it is
    written again after the next commit); what the journal was found to have lost (``lost``)."""

    def __init__(self, journal: Path, tell: Tell) -> None:
        self.path = journal.with_name(journal.name + ".mark")
        self.behind = False
        self.lost: Lost | None = None
        self._tell = tell

    def read(self) -> tuple[dict[str, Any] | None, tuple[str, str] | None]:
        """The mark, or None with a notice code and its detail saying why not."""
        try:
            text = self.path.read_text(encoding="utf-8")
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

    def write(self, db: sqlite3.Connection, write_side: Callable[[Path, str], None]) -> None:
        """Record the journal's newest state (after every commit) with ``write_side``. A mark
        that cannot be written leaves the old one (behind the journal, which is safe) and is
        said."""
        try:
            text = json.dumps(current_mark(db))
        except sqlite3.Error as e:
            self.behind = True
            self._tell("mark_unwritable", file=self.path.name, detail=str(e))
            return
        try:
            write_side(self.path, text)
            self.behind = False
        except OSError as e:
            self.behind = True
            self._tell("mark_unwritable", file=self.path.name, detail=str(e))

    def compare(self, db: sqlite3.Connection, mark: dict[str, Any] | None,
                problem: tuple[str, str] | None, migrated: bool, integrity: Integrity) -> bool:
        """The journal as opened against the mark read before: True when anything is wrong
        (each finding told, a loss kept in ``lost``)."""
        now = current_mark(db)
        if mark is None:
            if now["games"] and not migrated:
                code, detail = problem or ("mark_missing", "")
                self._tell(code, file=self.path.name, detail=detail)
                return True
            return False
        troubled = self._games_lost(db, mark, now)
        if db.execute("SELECT 1 FROM games WHERE id = ?", (mark["game"],)).fetchone():
            troubled = self._entries_lost(db, mark, integrity) or troubled
        if now["finished"] < mark["finished"]:
            troubled = True
            self._tell("lost_finished", games=count(mark["finished"] - now["finished"],
                                                    "finished game"))
        return troubled

    def _games_lost(self, db: sqlite3.Connection, mark: dict[str, Any],
                    now: dict[str, Any]) -> bool:
        """Fewer games than the mark counted: the newest game with them, perhaps."""
        if now["games"] >= mark["games"]:
            return False
        game, seq = mark["game"], mark["seq"]
        newer = mark["games"] - now["games"]
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
            self.lost = {"game": game, "actions": seq + 1}
            self._tell("lost_games" if newer > 1 else "lost_game", game=game,
                       actions=count(seq + 1, "action"), games=newer)
        return True

    def _entries_lost(self, db: sqlite3.Connection, mark: dict[str, Any],
                      integrity: Integrity) -> bool:
        """The marked game's entries: fewer than the mark's, or a different last one."""
        game, seq = mark["game"], mark["seq"]
        have = db.execute("SELECT count(*) FROM entries WHERE game = ? AND seq <= ?",
                          (game, seq)).fetchone()[0]
        if have < seq + 1:
            self.lost = {"game": game, "actions": seq + 1 - have}
            bad = integrity.chain(db, game).bad
            self._tell("lost_actions_damaged" if bad else "lost_actions", game=game,
                       actions=count(seq + 1 - have, "action"), resume=have)
            return True
        if seq >= 0:
            digest = db.execute("SELECT digest FROM entries WHERE game = ? AND seq = ?",
                                (game, seq)).fetchone()[0]
            if digest != mark.get("digest"):
                self._tell("entries_differ", game=game, seq=seq)
                return True
        return False
