"""The game resumed when the table starts: the journal's last game read back (``recovery``) from
the longest valid prefix of its entries, the rest set aside with a notice, and what the start
recovered, set aside and lost (``Damage``, the view's ``table.recovery``). Called by the
``Keeper`` under the table's lock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import recovery
from .journal import FINISHED, Journal, JournalError, StoredGame
from .notices import Notices

Replay = Callable[[StoredGame], "recovery.Recovered | recovery.Unplayable | None"]
"""Reads a stored game back (``recovery.recover`` with the table's board and settings)."""


def resume(journal: Journal, replay: Replay, damage: Damage, notices: Notices,
           failed: Callable[[JournalError], None]) -> recovery.Recovered | None:
    """The last unfinished game resumed from the longest valid prefix of its entries (the
    chain and a replay both hold: ``recovery.recover``), the rest set aside with a notice; or
    the last game shown as finished when it ended before the table stopped. None when there is
    no game to take (``failed`` hears a write that could not be made)."""
    try:
        stored = journal.running_game()
        if stored is None:
            stored = journal.last_finished_game()
    except Exception as e:  # a damaged file fails in many ways; none may stop the table
        journal.start_over(str(e))
        notices.take(journal.notices)
        return None
    notices.take(journal.notices)
    if stored is None:
        damage.from_loss(journal, None, 0)
        return None
    found = replay(stored)
    if isinstance(found, recovery.Unplayable):
        if stored.status != FINISHED:
            try:
                journal.set_unreadable(stored.id, found.note)
            except JournalError:
                pass
        notices.notice("not_replayed", game=stored.id, variant=stored.variant,
                       detail=found.detail)
        return None
    if found is None:
        return None  # its record stays in the finished games; nothing to resume
    if found.reopen:
        try:
            journal.reopen(stored.id)
        except JournalError:
            pass  # resumed all the same; written at a later start
    if found.running:
        if found.set_aside:
            damage.set_aside(journal, found, failed)
            notices.take(journal.notices)
        damage.from_loss(journal, stored.id, found.replayed)
    return found


class Damage:
    """What the start recovered, set aside and lost (the view's ``table.recovery``), and the
    damaged entries that could not be set aside yet (``owed``): nothing may be written to
    their game until they are (its chain would go on from a damaged entry)."""

    def __init__(self, notices: Notices) -> None:
        self._notices = notices
        self.recovery: dict[str, Any] | None = None
        self.owed: tuple[int, list[dict[str, Any]], dict[str, Any]] | None = None

    def set_aside(self, journal: Journal, found: recovery.Recovered,
                  failed: Callable[[JournalError], None]) -> None:
        """Set aside the damaged entries of the game resumed at start, and say so; when the
        journal cannot take them they are owed, and ``failed`` hears why."""
        params = found.set_aside_params()
        game = found.session.id
        assert game is not None
        try:
            name: str | None = journal.set_aside_entries(game, found.set_aside)
        except JournalError as e:
            name = None
            self._notices.notice("journal_error", detail=str(e))
            self.owed = (game, found.set_aside, params)
            failed(e)
        code = "resumed_set_aside" if name else "resumed_kept"
        self._notices.notice(code + ("_because" if found.failure else ""), **params, file=name)
        self.recovery = {"game": game, "recovered": found.replayed,
                         "set_aside": len(found.set_aside), "file": name, "lost": 0}

    def set_aside_owed(self, journal: Journal) -> None:
        """Set aside the damaged entries that could not be set aside at start (``JournalError``
        when they still cannot be)."""
        assert self.owed is not None
        game, bad, params = self.owed
        name = journal.set_aside_entries(game, bad)
        self.owed = None
        code = "resumed_set_aside_because" if params.get("detail") else "resumed_set_aside"
        self._notices.notice(code, **{**params, "file": name})
        if self.recovery is not None:
            self.recovery["file"] = name

    def from_loss(self, journal: Journal, game: int | None, recovered: int) -> None:
        """Add what the journal's mark says was lost to ``recovery``."""
        lost = journal.lost
        if not lost:
            return
        if self.recovery is None:
            self.recovery = {"game": lost["game"], "recovered": recovered if
                             game == lost["game"] else 0, "set_aside": 0, "file": None,
                             "lost": 0}
        self.recovery["lost"] = lost["actions"]
