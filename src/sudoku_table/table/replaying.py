"""A finished game replayed on the real board: the LEDs show one move at a time.

No piece is needed: the squares of the move shown light in its player's colour (``replayed``,
steady) and, where the review found a better move there, the computer's move lights in the
hint's colour, pulsing (``better``). The panel's what-now bar says what happened (the view's
``table.replay``, worded by the panel).

A replay only borrows the LEDs. The running game, the board the sensors feel and what they
mean stay the table's: ``Table`` keeps composing the game's frame under the replay and shows it
again the moment the replay ends. A replay ends when it is left, and also, at once, when
anything happens to the running game: a piece felt at rest on a square (the event then counts
for the game exactly as without a replay, and its answer is what the LEDs show), a panel input,
a hint asked for, a new game. So a hand at the board is never answered by a replay's lights,
and no sensor event is lost or read as a step of the replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sudoku_table.firmware.ports import Frame
from sudoku_table.rules.actions import Action, Blank, Joker, Move, Place
from sudoku_table.rules.record import Record, replay

from .signals import compose_frame


def squares_of(action: Action) -> list[str]:
    """The squares an action acts on: its cell, or a move's start and every landing; none
    for a card set aside or the end of a turn."""
    if isinstance(action, Place | Blank | Joker):
        return [action.cell]
    if isinstance(action, Move):
        return [square for square in action.path if square != "off"]
    return []


class BoardReplay:
    """One finished game shown on the board, one move at a time (``index`` counts from 0)."""

    def __init__(self, game_id: int, record: Mapping[str, Any]) -> None:
        """``RecordError``/``ReplayError`` for a record that does not replay (never expected of
        a finished game: the journal checked it)."""
        parsed = Record.from_json(record)
        self.game, self.states = replay(parsed)
        self.actions = parsed.actions
        self.game_id = game_id
        self.names = list(parsed.names)
        self.index = 0
        self._better: Action | None = None

    @property
    def total(self) -> int:
        return len(self.actions)

    def go(self, index: int, best: Action | None = None) -> None:
        """Show move ``index`` (``IndexError`` outside the game) with the computer's move
        there, as far as the review has judged it (None: not yet)."""
        if not 0 <= index < self.total:
            raise IndexError(index)
        self.index = index
        self._better = None if best == self.actions[index] else best

    def better(self) -> Action | None:
        """The computer's better move at the move shown; None when the move played was the
        computer's own, or the review has not judged it yet."""
        return self._better

    def signals(self) -> dict[str, str]:
        """One LED word per square: the move played, and the better move over it."""
        words = dict.fromkeys(squares_of(self.actions[self.index]), "replayed")
        better = self.better()
        if better is not None:
            words.update(dict.fromkeys(squares_of(better), "better"))
        return words

    def frame(self) -> Frame:
        """The LED frame of the move shown."""
        return compose_frame(self.signals(), self.states[self.index].to_move)

    def view(self) -> dict[str, Any]:
        """What the panel shows of the replay (docs/api.md, ``table.replay``)."""
        after = self.states[self.index + 1]
        better = self.better()
        before = self.states[self.index]
        return {"game": self.game_id, "variant": self.game.id, "players": self.game.players,
                "names": list(self.names), "move": self.index + 1, "moves": self.total,
                "player": before.to_move, "action": self.actions[self.index].to_json(),
                "points": list(after.last.points),
                "better": better.to_json() if better is not None else None,
                "better_points": (list(self.game.apply(before, better).last.points)
                                  if better is not None else None),
                "signals": self.signals()}
