"""How a game comes onto the table (``Table.starting``): a new game opened from the panel's
request and started, or a stored game read back from the journal, both built on the board the
sensors feel and journaling through the ``Keeper`` (``sessions.open_game``, ``recovery``).

A new game is opened outside the table's lock (building it changes nothing) and started under
it: its start is written first (a game the journal cannot keep does not start: ``CannotSave``),
a running game with actions is replaced only when the players have confirmed it, and then the
game is the table's."""

from __future__ import annotations

from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.wording import N_

from . import recovery, sessions
from .companion import Companion
from .errors import ConfirmNeeded, InputError
from .journal import StoredGame
from .keeping import Keeper
from .sessions import Current, Resolver, Session

REPLACE = N_("{game} is still running: a new game ends it. It is kept, marked unfinished and "
             "with its record, among the games on the Table page.")
"""What the players confirm before a new game replaces a running one."""


class Starting:
    """The games of the table: resolved by ``resolve`` (a variant's class by id), with
    ``settle`` (how long a Halma jump or a take-back on the board must stand still), played on
    the sensors' ``board`` (the one set the sensors keep) and kept by ``keeper``; the table
    then installs each as ``current``'s game."""

    def __init__(self, board: set[str], current: Current, keeper: Keeper, *,
                 resolve: Resolver, settle: float) -> None:
        self._board = board
        self._current = current
        self._keeper = keeper
        self._resolve = resolve
        self._settle = settle

    def open(self, asked: Session) -> tuple[Session, Companion]:
        """The game ``asked`` for and its companion, not yet the table's (``open_game``);
        ``InputError`` when it cannot be played."""
        try:
            return sessions.open_game(asked, self._resolve, board=self._board,
                                      record=self._keeper.write, settle=self._settle)
        except RulesError as e:
            raise InputError(str(e)) from None

    def recover(self, stored: StoredGame) -> recovery.Recovered | recovery.Unplayable | None:
        """A stored game read back onto the table's board (``recovery.recover``)."""
        return recovery.recover(stored, self._resolve, board=self._board,
                                record=self._keeper.write, settle=self._settle)

    def make_room(self, replace: bool) -> None:
        """Under the lock, before a new game's start is written: the journal has room for it,
        and a running game with actions is kept unfinished first, only with ``replace``
        (``ConfirmNeeded`` otherwise)."""
        keeper = self._keeper
        keeper.ready_for_new()
        running = self._current.companion
        if running is not None and running.actions and not running.state.over:
            if not replace:
                raise ConfirmNeeded(REPLACE, "replace", game=running.game.name)
            keeper.keep_running()

    def write(self, session: Session, companion: Companion) -> Session:
        """Under the lock: the opened game's start written (``CannotSave`` when it cannot be),
        as the session the table installs."""
        return self._keeper.start(session, companion)
