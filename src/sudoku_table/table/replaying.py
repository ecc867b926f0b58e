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
and no sensor event is lost or read as a step of the replay. ``Replaying`` (``Table.replay``)
finds the move to show outside the table's lock; the table shows, moves and ends it under its
lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sudoku_table.firmware.ports import Frame
from sudoku_table.rules.actions import Action, Blank, Joker, Move, Place
from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.record import Record, replay
from sudoku_table.rules.wording import N_

from .errors import InputError
from .finished import FinishedGames
from .reviews import Reviews
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


class Replaying:
    """The finished game replayed on the board, if one is (``shown``), reading the game from
    ``finished`` and its better moves from ``reviews``. Changed only under the table's lock."""

    def __init__(self, finished: FinishedGames, reviews: Reviews) -> None:
        self._finished = finished
        self._reviews = reviews
        self.shown: BoardReplay | None = None

    def find(self, game_id: int, move: int) -> tuple[dict[str, Any], Action | None]:
        """Outside the lock: the record of finished game ``game_id`` and the computer's better
        move at move ``move`` (counted from 1) as far as the review has judged it.
        ``InputError`` for a game or move that is not there."""
        entry = self._finished.game(game_id)
        if entry is None:
            raise InputError(N_("there is no finished game {game_id}"), game_id=game_id)
        record = entry["record"]
        total = len(record.get("actions") or [])
        if not 1 <= move <= total:
            raise InputError(N_("game {game_id} has moves 1 to {total}, not {move}"),
                             game_id=game_id, total=total, move=move)
        judged = self._reviews.progress(record).judged
        return record, judged[move - 1].best if move <= len(judged) else None

    def show(self, game_id: int, record: Mapping[str, Any], move: int,
             best: Action | None) -> None:
        """Under the table's lock: show move ``move`` of ``record`` (from ``find``) on the
        LEDs. The running game is left as it is."""
        shown = self.shown
        if shown is None or shown.game_id != game_id:
            try:
                shown = BoardReplay(game_id, record)
            except (RulesError, ValueError) as e:
                raise InputError(N_("game {game_id} cannot be replayed: {detail}"),
                                 game_id=game_id, detail=str(e)) from None
        shown.go(move - 1, best)
        self.shown = shown

    def end(self) -> bool:
        """Under the table's lock: end a replay, if one is shown (True then)."""
        if self.shown is None:
            return False
        self.shown = None
        return True
