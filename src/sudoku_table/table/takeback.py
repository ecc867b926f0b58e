"""The take-back as the board shows it: what Undo or Redo left to put right on the board, the
piece of an action taken back (known, until it is lifted), and the take-back made on the board
itself (the board put back exactly as before the last action, and left so for the settle time).

The ``Takeback`` watch reads the referee's notes (``News``) once an event is over; it changes
nothing of the game itself: when a take-back made on the board is due, the companion makes it.
"""

from __future__ import annotations

from sudoku_table.rules.game import Piece

from .referee import News, Referee


class Takeback:
    """``kind`` is ``"undo"`` or ``"redo"`` while the board is being put as the game now stands
    after a take-back or a redo (the bar says what to take away, put back and turn)."""

    def __init__(self, referee: Referee, settle: float) -> None:
        self._referee = referee
        self._settle = settle
        self.kind: str | None = None
        self.at: float | None = None
        """When the board, put back as before the last action, counts as that take-back."""
        self.known_extra: dict[str, Piece] = {}
        """Pieces standing on the board that the game no longer has but the table knows: the
        piece of an action taken back, until it is lifted (never paired with another number)."""

    def after(self, *, lifted: str | None = None, put_right: bool | None = None,
              position: bool | None = None, now: float = 0.0) -> None:
        """Follow one event: ``lifted`` the square a piece left, the referee's notes of what
        counted or was taken back, ``put_right`` whether the board now stands as the game does
        (None: not looked at), ``position`` whether it stands exactly as before the last
        action (None: not looked at, the watch keeps its time)."""
        if lifted is not None:
            self.known_extra.pop(lifted, None)
        for item in self._referee.take_news():
            self._follow(item)
        if put_right and self.kind is not None:
            self.kind = None
        if position is not None:
            if not position:
                self.at = None
            elif self.at is None:
                self.at = now + self._settle

    def due(self, now: float) -> bool:
        """The time of a take-back made on the board has come (it is then looked at once)."""
        return self.at is not None and now >= self.at

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
