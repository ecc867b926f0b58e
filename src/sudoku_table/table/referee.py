"""The one door through which an act made at the table becomes the game's, and goes back.

The flows of placing and moving hand their actions to the ``Referee``; Undo, Redo and the
take-back made on the board come through it too. It asks the computer's turn whether the action
may count now, hands it to the history (which writes it to the journal first), says on the
message line what happened, and keeps a note of it (``News``) for the take-back watch, which
reads the notes once the event is over. An entry the journal cannot take is held
(``History.held``): not counted, and no reason to refuse the act.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_table.rules.actions import Action
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import Game, State
from sudoku_table.rules.wording import N_

from .computer import ComputerTurn
from .errors import CannotSave
from .history import Held, History
from .line import Line


@dataclass(frozen=True)
class News:
    """What the referee did: ``how`` is ``action`` or ``redone`` (counted), ``undone`` (taken
    back; ``was`` the state before it) or ``held`` (waits to be saved)."""

    how: str
    action: Action
    was: State | None = None


class Referee:
    """Counts actions and take-backs, in the order they are made."""

    def __init__(self, game: Game, history: History, computer: ComputerTurn, line: Line):
        self._game = game
        self._history = history
        self._computer = computer
        self._line = line
        self._news: list[News] = []

    def commit(self, action: Action) -> Illegal | None:
        """Apply a legal action: journal it first, then make it the game's. ``Illegal`` if not
        (or, on a computer's turn, if it is not the computer's action). When the journal
        cannot take it, it is held: not counted, and no reason to refuse it."""
        history = self._history
        if history.held is not None:
            return Illegal(N_("wait: the table cannot save the last action yet"))
        illegal = self._computer.refusal(action)
        if illegal is not None:
            return illegal
        try:
            illegal = history.advance(action)
        except CannotSave:
            board = frozenset(self._game.apply(history.state, action).board)
            history.hold(Held("action", action, board))
            self._line.say("held", action=action.to_json(), player=history.mover)
            self._news.append(News("held", action))
            return None
        if illegal is not None:
            return illegal
        self._counted(action, "action")
        return None

    def take_back(self, how: str = "taken_back") -> None:
        """Take back the last action (``InputError`` when there is none); held when the
        journal cannot take the take-back."""
        history = self._history
        was = history.state
        try:
            action = history.take_back()
        except CannotSave:
            action = history.actions[-1]
            history.hold(Held("undo", action, frozenset(history.states[-2].board), how))
            self._line.say("held_undo", action=action.to_json())
            self._news.append(News("held", action))
            return
        self._taken_back(action, how, was)

    def redo(self) -> None:
        """Put back what Undo took last (the same action, journaled again); ``CannotSave``
        from the journal changes nothing, as for any other input."""
        self._counted(self._history.redo(), "redone")

    def save_held(self) -> None:
        """Write the held entry again; it counts now (``CannotSave`` when it still cannot be
        written: it stays held)."""
        history = self._history
        held = history.held
        if held is None:
            return
        if held.kind == "action":
            illegal = history.advance(held.action)  # CannotSave: it stays held
            history.release_held()
            if illegal is not None:  # the game did not move meanwhile; never expected
                self._line.say("illegal", reason=illegal.reason, why=illegal.said())
                return
            self._counted(held.action, "action")
        else:
            was = history.state
            history.take_back()
            history.release_held()
            self._taken_back(held.action, held.how, was)

    def cancel_held(self, on_board: bool = False) -> bool:
        """Give up the held entry (it never counted): by Undo, or ``on_board`` by putting the
        board back as it was before it; True if there was one."""
        held = self._history.release_held()
        if held is None:
            return False
        codes = {("action", False): "held_cancelled", ("undo", False): "held_cancelled_undo",
                 ("action", True): "held_cancelled_on_board",
                 ("undo", True): "held_cancelled_on_board_undo"}
        self._line.say(codes[held.kind, on_board], action=held.action.to_json())
        return True

    @property
    def has_news(self) -> bool:
        return bool(self._news)

    def take_news(self) -> list[News]:
        """What counted, was taken back or held since the last call; the list is emptied."""
        news, self._news = self._news, []
        return news

    def _counted(self, action: Action, how: str) -> None:
        last = self._history.state.last
        self._line.say(how, action=action.to_json(), player=self._history.last_player(),
                       points=list(last.points), completed=list(last.completed),
                       claimed=list(last.claimed))
        self._news.append(News(how, action))

    def _taken_back(self, action: Action, how: str, was: State) -> None:
        self._line.say(how, action=action.to_json(), player=self._history.undone_player())
        self._news.append(News("undone", action, was))
