"""The message line: what the table last said to the players, and the moment it was said for.

Every part of the companion says what it has to say here (a code of ``view.MESSAGES`` with its
parameters); nothing else sets or clears the line.
"""

from __future__ import annotations

from typing import Any

from sudoku_table.rules.game import State

from .view import ANNOUNCEMENTS, Message, message


class Line:
    """The one message the panel shows under the what-now bar, or None."""

    def __init__(self) -> None:
        self.message: Message | None = None
        self._for: tuple[State, int | None] | None = None

    def say(self, code: str, **params: Any) -> None:
        """Set the message line: a code of ``view.MESSAGES`` with its parameters."""
        self.message = message(code, **params)
        self._for = None

    def clear(self) -> None:
        """Nothing to say: the next step says it."""
        self.message = None
        self._for = None

    def keep_for(self, state: State, actor: int | None, before: int | None) -> None:
        """A message belongs to the moment it was said for: the game's ``state``, and (unless
        it announces what happened to the game, ``view.ANNOUNCEMENTS``) the player who was
        acting when it was said (``before``: an answer to their act). Called after every change
        with the player who acts now (None while anybody may put the board right, which keeps
        what was said: "take the cancelled piece away" is for whoever does it); a message of
        another moment is cleared."""
        if self.message is None:
            return
        if self._for is None:
            self._for = (state, before)
        said_in, said_to = self._for
        if said_in is not state or (said_to != actor and actor is not None
                                    and self.message["code"] not in ANNOUNCEMENTS):
            self.clear()
