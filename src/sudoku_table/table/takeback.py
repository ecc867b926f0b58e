"""Taking back and putting back: Undo and Redo from the panel, the take-back made on the board
itself (the board put back exactly as before the last action, and left so for the settle time),
and what either leaves to put right on the board.

``Takeback`` takes an action back through the referee and drops what was under way in the
flows of placing and moving (it belonged to the state taken back). Once an event is over it
reads the referee's notes (``News``): after Undo or Redo the bar says what to take away, put
back and turn until the board stands as the game does, and the piece of an action taken back
stays known until it is lifted.
"""

from __future__ import annotations

from sudoku_table.rules.actions import Move
from sudoku_table.rules.game import Piece
from sudoku_table.rules.wording import N_

from .board import Board, expected
from .computer import ComputerTurn
from .errors import ConfirmNeeded, InputError
from .history import History
from .moving import Moving
from .placing import Placing
from .referee import News, Referee


class Takeback:
    """``kind`` is ``"undo"`` or ``"redo"`` while the board is being put as the game now stands
    after a take-back or a redo (the bar says what to take away, put back and turn)."""

    def __init__(self, history: History, board: Board, referee: Referee, placing: Placing,
                 moving: Moving, computer: ComputerTurn, settle: float) -> None:
        self._history = history
        self._board = board
        self._referee = referee
        self._placing = placing
        self._moving = moving
        self._computer = computer
        self._settle = settle
        self.kind: str | None = None
        self.at: float | None = None
        """When the board, put back as before the last action, counts as that take-back."""
        self.known_extra: dict[str, Piece] = {}
        """Pieces standing on the board that the game no longer has but the table knows: the
        piece of an action taken back, until it is lifted (never paired with another number)."""

    # --- Undo and Redo ---------------------------------------------------------------------

    def undo_input(self, confirm: bool) -> None:
        """The panel's Undo: cancel what is under way on the panel's side (a new piece waiting
        for its number, a number chosen in advance, the computer's card as told), else take
        back the last action, asking first where that is more than the actor's own last."""
        if self._placing.cancel() or (self._moving.motion is None
                                      and self._computer.cancel_hand()):
            return
        if self._history.state.over and not confirm:
            raise ConfirmNeeded(N_("the game is over: taking back its last action reopens "
                                   "it (it stays in the finished games)"), "reopen")
        self._refuse_undo_onto_a_stray()
        question = self.question()
        if question is not None and not confirm:
            raise question
        self.undo()

    def question(self) -> ConfirmNeeded | None:
        """Taking back more than one action, or another player's action, is asked first: the
        question to ask, or None when Undo takes back the actor's own last action."""
        history = self._history
        if not history.actions:
            return None
        player = history.player_of(len(history.actions) - 1)
        action = history.actions[-1].to_json()
        undone = len(history.undone)
        if undone:
            return ConfirmNeeded(N_("{count} taken back already: take back {player}'s "
                                    "{action} as well?"), "undo", count=undone,
                                 player=player, action=action)
        actor = history.turner if history.debt else history.mover
        if actor is not None and player is not None and player != actor:
            return ConfirmNeeded(N_("It is {actor}'s turn: take back {player}'s {action}?"),
                                 "undo", actor=actor, player=player, action=action)
        return None

    def _refuse_undo_onto_a_stray(self) -> None:
        """A take-back still owed on the board leaves pieces where the game has none; taking
        back an action that had a piece on such a square would make the board look right with
        another piece there (in a game of moves, the one still to be carried away), so the
        board is put right first."""
        actions = self._history.actions
        if self.kind is None or not actions:
            return
        action = actions[-1]
        squares = set(action.path) if isinstance(action, Move) else {getattr(action, "cell", "")}
        stray = sorted(squares & self._differences()[1])
        if stray:
            raise InputError(N_("first put the board right as the bar says ({squares}); then "
                                "Undo takes back more"), squares=", ".join(stray))

    def undo(self, how: str = "taken_back") -> None:
        """Take back the last action (held when the journal cannot take the take-back); what
        was under way belongs to the state taken back."""
        self._referee.take_back(how)
        self._placing.clear()
        self._moving.clear()
        self._computer.forget(drawn_only=True)

    def redo(self) -> None:
        """Put back what Undo took last (the same action, journaled again); ``CannotSave``
        from the journal changes nothing, as for any other input."""
        pending = self._placing.pending
        if pending is not None:
            raise InputError(N_("first deal with the new piece on {square}"),
                             square=pending.square)
        if self._moving.motion is not None:
            raise InputError(N_("first set the lifted piece down"))
        self._referee.redo()
        self._computer.forget()
        self._placing.clear()

    # --- the board -------------------------------------------------------------------------

    def tick(self, now: float, moved: bool) -> bool:
        """The time of a take-back made on the board has come: if the board still stands as
        before the last action, take it back (True). ``moved``: a move counted just now."""
        due = self.at is not None and now >= self.at
        undone = due and self._position()
        if undone:
            self.undo("taken_back_on_board")
        self.after(watch=moved or due, now=now)
        return undone

    def after(self, *, lifted: str | None = None, looked: bool = False, watch: bool = False,
              now: float = 0.0) -> None:
        """Follow one event once it is over: ``lifted`` the square a piece left, the referee's
        notes of what counted or was taken back; whether the board stands as the game does
        (looked at after news, or ``looked``: a sensor event), and (``watch``) whether it
        stands exactly as before the last action (then it counts as that take-back once it
        stood so for the settle time)."""
        if lifted is not None:
            self.known_extra.pop(lifted, None)
        news = self._referee.take_news()
        for item in news:
            self._follow(item)
        if self.kind is not None and (news or looked) and self._history.all_turned:
            missing, extra = self._differences()
            if not missing and not extra:
                self.kind = None
        if watch:
            if not self._position():
                self.at = None
            elif self.at is None:
                self.at = now + self._settle

    def _follow(self, item: News) -> None:
        self.at = None
        if item.how == "held":
            return
        if item.how == "undone":
            was = item.was
            cell = getattr(item.action, "cell", None)
            self.known_extra = ({cell: was.board[cell]} if was is not None
                                and isinstance(cell, str) and cell in was.board else {})
            self.kind = "undo"
            return
        self.known_extra = {}
        self.kind = "redo" if item.how == "redone" else None

    def _differences(self) -> tuple[set[str], set[str]]:
        return self._board.differences(
            expected(self._history, self._placing.pending, self._moving.motion))

    def _position(self) -> bool:
        """True when the board stands exactly as before the last action that changed it."""
        states = self._history.states
        if (len(states) < 2 or self._placing.pending is not None
                or self._moving.motion is not None or self._history.turning
                or self._board.setting_up):
            return False
        before, now = set(states[-2].board), set(states[-1].board)
        return before != now and (self._board.occupied & self._board.cells) == before
