"""The table's journal kept: every entry written before it counts, and what the table does when
the disk fills or fails (docs/DESIGN.md, "When the disk fills or fails"). While a write fails,
nothing counts until one succeeds; the timer tries again (``retry``) and looks for the space to
take the journal's reserve again (``Keeper.space``, ``spacing``). Called under the table's
lock."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sudoku_table.rules.wording import N_

from . import resuming
from .acting import Install
from .companion import Companion
from .errors import CannotSave
from .history import GAME_FINISHED, GAME_REOPENED
from .journal import (
    FULL,
    IO,
    OTHER,
    READ_ONLY,
    UNDO,
    Journal,
    JournalError,
)
from .notices import Notices
from .resuming import Damage, Replay
from .sessions import Current, Session
from .spacing import Space

log = logging.getLogger(__name__)

_T = TypeVar("_T")
RETRY_SECONDS = 2.0
"""While the table cannot save, how often it tries again."""

CANNOT_SAVE = {
    FULL: N_("the table cannot save: its memory card is full"),
    READ_ONLY: N_("the table cannot save: its memory card has turned read-only"),
    IO: N_("the table cannot save: its memory card reports errors ({detail})"),
    OTHER: N_("the table cannot save: {detail}"),
}
"""What a refused input says, by why the journal cannot be written."""
CLOSED = "the save file is closed"


def cannot_save(error: JournalError) -> CannotSave:
    """What a refused input says when the journal cannot take it."""
    return CannotSave(CANNOT_SAVE.get(error.cause, CANNOT_SAVE[OTHER]), error.cause,
                      detail=str(error))


class Keeper:
    """The journal of ``current``'s games (none without ``path``: games kept in memory only),
    whether it can save now, and what waits for the disk; ``notices`` hears what it finds."""

    def __init__(self, path: Path | None, *, reserve: int, checkpoint: int,
                 clock: Callable[[], float], current: Current, notices: Notices) -> None:
        self.path = path
        self.journal: Journal | None = None
        self._reserve, self._checkpoint = reserve, checkpoint
        self._clock = clock
        self._current = current
        self._notices = notices
        self._replay: Replay | None = None
        self._install: Install | None = None
        self.failure: JournalError | None = None
        """Why the table cannot save now (None while it can): set by a failed write, cleared by
        the next one that succeeds."""
        self._retrying = False
        self.retry_at: float | None = None
        self.space = Space(lambda: self.journal, clock)
        """The journal's reserve, and when the timer next looks for the space to take it."""
        self.finish_owed = False
        """The finished game's record is still to be written (its last action is on disk)."""
        self.damage = Damage(notices)

    def beside(self, suffix: str) -> Path | None:
        """A file kept beside the journal (None without one)."""
        return self.path.with_name(self.path.name + suffix) if self.path is not None else None

    def open(self, replay: Replay, install: Install) -> None:
        """Open the journal and resume its game (read back by ``replay``, installed by the
        table through ``install``), or say why it cannot open."""
        self._replay = replay
        self._install = install
        if self.path is None:
            return
        self.journal = Journal(self.path, reserve=self._reserve, checkpoint=self._checkpoint)
        if self.journal.ok:
            self._resume()
            self._writable_at_start()
        else:
            self.take_notices()
            self.failed(self.journal.open_error or JournalError(CLOSED))
        self.space.watch()

    # --- writing -------------------------------------------------------------------------

    def write(self, kind: str, data: Any) -> None:
        """Journal one entry of the current game: on disk when this returns, or ``CannotSave``
        and nothing written (the companion then holds what was made). While the table cannot
        save, only the retry on the timer tries the disk: a sensor event never waits on a
        failing card. Without a journal, games are kept in memory only."""
        journal = self.journal
        if journal is None:
            return
        failure = self.failure
        if failure is not None and not self._retrying:
            raise cannot_save(failure)
        game = self._current.id
        if not journal.ok or game is None or self.damage.owed is not None:
            raise cannot_save(failure or JournalError("the save file is not open"))
        companion = self._current.companion
        reopen = kind == UNDO and companion is not None and companion.state.over
        self.journaled(lambda: journal.append(game, kind, data, reopen=reopen))

    def journaled(self, write: Callable[[], _T]) -> _T:
        """One write of the journal: on disk, and the table saves again; or ``CannotSave``
        (the table cannot save until a write succeeds)."""
        try:
            result = write()
        except JournalError as e:
            self.failed(e)
            raise cannot_save(e) from None
        finally:
            self.take_notices()
        self.saved()
        return result

    def failed(self, error: JournalError) -> None:
        """A write failed: nothing counts until one succeeds; tried again on the timer."""
        if self.failure is None:
            self._notices.notice("not_saved", detail=str(error))
        self.failure = error
        self.retry_at = self._clock() + RETRY_SECONDS  # the ticker wakes by the table's bump

    def saved(self) -> None:
        """A write succeeded: the table saves again."""
        if self.failure is None:
            return
        self.failure = None
        self.retry_at = None
        log.warning("the table saves again")
        companion = self._current.companion
        if companion is not None and companion.held is None:  # else its action says it
            companion.say("saves_again")
        self.space.watch()

    def take_notices(self) -> bool:
        """Take over what the journal found; True if anything was new."""
        return self.journal is not None and self._notices.take(self.journal.notices)

    def after(self, companion: Companion) -> None:
        """Keep what happened to the game in the journal (after every call into the companion
        that may have changed the game)."""
        for event in companion.take_events():
            if event == GAME_FINISHED:
                self.finished()
            elif event == GAME_REOPENED:
                self.finish_owed = False  # kept with the take-back, in its transaction

    def finished(self) -> None:
        """Keep the finished game's record; when the journal cannot take it, the record waits
        (the game's last action is on disk, so nothing is lost) and is written on the timer."""
        if self.journal is None or self._current.id is None or self._current.companion is None:
            return
        try:
            self.keep_record(finished=True)
        except JournalError as e:
            self.finish_owed = True
            self.failed(e)
            self._notices.notice("finish_not_kept", detail=str(e))
            return
        self.finish_owed = False
        self.saved()

    def keep_record(self, finished: bool) -> None:
        """The current game's record and state into the journal, finished or replaced by a new
        game (``JournalError`` when the journal cannot take it)."""
        game, companion = self._current.id, self._current.companion
        if self.journal is None or game is None or companion is None:
            return
        keep = self.journal.finish if finished else self.journal.keep_unfinished
        keep(game, self._current.record() or {}, companion.document())

    def ready_for_new(self) -> None:
        """A new game may begin: the journal has room for it and the last game's record, if
        it waits, is written first (it would be lost with it); ``CannotSave`` otherwise."""
        self.room_for_new()
        if self.finish_owed:
            self.finished()
            if self.finish_owed:
                raise cannot_save(self.failure or JournalError("not written"))

    def keep_running(self) -> None:
        """The running game, about to be replaced, kept unfinished with its record (and its
        players' names, before the new ones); ``CannotSave`` when it cannot be."""
        if self.journal is not None:
            self.journaled(lambda: self.keep_record(finished=False))

    def start(self, session: Session, companion: Companion) -> Session:
        """Write a new game's start: its session with the journal's number (unchanged without
        a journal); ``CannotSave`` when the journal cannot keep it."""
        journal = self.journal
        if journal is None:
            return session
        game = companion.game
        game_id = self.journaled(lambda: journal.start_game(
            game.id, game.players, game.options, dict(session.setup or {}), companion.hints,
            list(session.names), list(session.colors), session.seats_json(),
            companion.draw_seed, companion.dealer.seed, session.network))
        self.damage.owed = None  # the damaged game is not the running one any more
        return session.started(game_id)

    def reseat(self, session: Session, companion: Companion) -> None:
        """Write the running game's seats again as ``session`` has them now (``CannotSave``
        when the journal cannot keep them)."""
        journal, game = self.journal, session.id
        if journal is None or game is None:
            return
        self.journaled(lambda: journal.set_seats(
            game, list(session.names), list(session.colors), session.seats_json(),
            companion.draw_seed, companion.dealer.seed, session.network))

    # --- space and failures ----------------------------------------------------------------

    def room_for_new(self) -> None:
        """A new game or an import may begin: the journal is open and holds its reserve
        (``CannotSave`` otherwise)."""
        journal = self.journal
        if journal is not None and not journal.ok:
            raise cannot_save(journal.open_error or JournalError(CLOSED))
        self.space.room_for_new()

    def failing(self) -> JournalError | None:
        """Why the table cannot save now, or None while it can."""
        journal = self.journal
        if self.failure is None and journal is not None and not journal.ok:
            return journal.open_error or JournalError(CLOSED)
        return self.failure

    def saving(self) -> dict[str, Any]:
        """Whether the table saves (``Table.saving``)."""
        result: dict[str, Any] = {"state": "ok", "cause": None, "detail": None,
                                  "held": self._held_json(), "record_waits": self.finish_owed}
        failure = self.failing()
        if failure is not None:
            result.update(state="failing", cause=failure.cause, detail=str(failure))
        elif (low := self.space.low()) is not None:
            result.update(state="low", cause=low)
        return result

    def saving_step(self) -> dict[str, Any] | None:
        """The ``cannot_save`` step's parameters while the table cannot save, else None."""
        failure = self.failing()
        if failure is None:
            return None
        return {"cause": failure.cause, "held": self._held_json()}

    def _held_json(self) -> dict[str, Any] | None:
        companion = self._current.companion
        held = companion.held if companion is not None else None
        return held.to_json() if held is not None else None

    def deadlines(self) -> tuple[float | None, float | None]:
        """When the timer is next due: to write again, to look for space."""
        return self.retry_at, self.space.due

    def tick(self, now: float) -> bool:
        """On the timer: write again and look for space when due; True when the players see a
        change."""
        changed = False
        if self.retry_at is not None and now >= self.retry_at:
            changed = self.retry()
        if self.space.due is not None and now >= self.space.due:
            changed = self.space.check() or changed
        return changed

    def retry(self) -> bool:
        """On the timer: write again what waits for the disk (damaged entries to set aside, the
        held entry, the finished game's record, else a probe). True when the players see a
        change."""
        self.retry_at = None
        journal = self.journal
        if journal is None:
            return False
        if not journal.ok:
            return self._reopen()
        companion = self._current.companion
        held = companion.held if companion is not None else None
        before = (self.failure is None, held, self.finish_owed, self.damage.owed)
        self._retrying = True
        try:
            if self.damage.owed is not None:
                self.damage.set_aside_owed(journal)
                self.saved()
            if companion is not None and companion.held is not None:
                companion.save_held()
                self.after(companion)
            elif self.finish_owed:
                self.finished()
            elif self.failure is not None:
                journal.probe()
                self.saved()
        except JournalError as e:
            self.failed(e)
        except CannotSave:
            pass  # ``write`` keeps why; the next retry is due
        finally:
            self._retrying = False
            self.take_notices()
        held = companion.held if companion is not None else None
        return (self.failure is None, held, self.finish_owed, self.damage.owed) != before

    def _reopen(self) -> bool:
        """The journal could not be opened (no space, a read-only disk): try again, and resume
        its game once it opens."""
        assert self.path is not None
        journal = Journal(self.path, reserve=self._reserve, checkpoint=self._checkpoint)
        self.journal = journal
        self.take_notices()
        if not journal.ok:
            self.failed(journal.open_error or JournalError(CLOSED))
            return False
        self.failure = None
        if self._current.companion is None:
            self._resume()
            companion = self._current.companion
            if companion is not None:  # the board as the sensors feel it now
                companion.set_board(set(companion.board.occupied))
        self._writable_at_start()
        self.space.watch()
        return True

    def _writable_at_start(self) -> None:
        """The journal opened, but its mark could not be written (a full or read-only card):
        one real write says whether the table can save at all, so that a table switched on
        with a full card says so before anyone plays (and the retry on the timer finds out
        when it can again)."""
        journal = self.journal
        if journal is None or not journal.ok or not journal.mark_behind:
            return
        try:
            journal.probe()
        except JournalError as e:
            self.failed(e)
        finally:
            self.take_notices()

    # --- the game resumed at start -------------------------------------------------------------

    def _resume(self) -> None:
        """Resume the journal's last game (``resuming.resume``); a game that ended with its last
        action, before its end was written, is finished now."""
        assert self.journal is not None and self._replay is not None
        found = resuming.resume(self.journal, self._replay, self.damage, self._notices,
                                self.failed)
        if found is None:
            return
        assert self._install is not None
        self._install(found.session, found.companion)
        if found.running and found.companion.state.over:
            self.finished()  # the last action was written, the end of the game was not
