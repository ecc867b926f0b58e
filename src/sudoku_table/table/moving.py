"""The flow of a game of moves (Halma): a piece is lifted, set down on each landing square of
its jump sequence, and the move counts once the board settles.

``Moving`` keeps the piece in the air (``Motion``); it reads the history and hands the move to
the referee.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sudoku_table.rules.actions import OFF, Move
from sudoku_table.rules.wording import N_

from .errors import InputError

if TYPE_CHECKING:
    from .board import Board
    from .computer import ComputerTurn
    from .history import History
    from .line import Line
    from .referee import Referee


@dataclass
class Motion:
    """A Halma piece on its way: lifted from ``start``, set down on ``touched`` so far.

    ``at`` is where it stands now (None while in the air). ``ready`` is a complete legal move
    that waits until ``settle`` in case the jump sequence goes on.
    """

    start: str
    touched: list[str] = field(default_factory=list)
    at: str | None = None
    illegal: bool = False
    ready: Move | None = None
    settle: float | None = None
    conflict: tuple[str, ...] = ()

    def lifted(self) -> None:
        """Lifted again from where it stood: in the air, nothing decided."""
        self.at = None
        self.ready = None
        self.settle = None
        self.illegal = False
        self.conflict = ()

    def landed(self, square: str) -> None:
        self.at = square

    def refused(self, conflict: tuple[str, ...]) -> None:
        """Where it stands is no landing of a legal move (``conflict``: the pieces it clashes
        with)."""
        self.illegal = True
        self.conflict = conflict

    def jumped(self, square: str) -> None:
        self.touched.append(square)

    def wait(self, move: Move, until: float) -> None:
        """``move`` is complete, but the jump sequence may still go on until ``until``."""
        self.ready = move
        self.settle = until


def is_subsequence(part: Iterable[str], whole: Iterable[str]) -> bool:
    """True when ``part`` appears in ``whole`` in order (gaps allowed)."""
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


class Moving:
    """The piece in the air (``motion``) in a game of moves, and the move it makes."""

    def __init__(self, history: History, referee: Referee, computer: ComputerTurn,
                 board: Board, line: Line, settle: float) -> None:
        self._history = history
        self._board = board
        self._referee = referee
        self._computer = computer
        self._line = line
        self._settle = settle
        self.motion: Motion | None = None

    def moves_from(self, square: str) -> list[Move]:
        """The legal moves of the piece on ``square`` (on the computer's turn, only its own)."""
        moves = self._history.moves_from(square)
        if self._computer.turn:  # only the computer's own move may be made for it
            return [m for m in moves if m == self._computer.expect]
        return moves

    def on_square(self, square: str, occupied: bool, now: float, *, agrees: bool) -> None:
        """A piece set down on ``square`` or lifted from it (a square the game counts now;
        ``agrees``: the board stands as the game does apart from this square)."""
        self._before(square, occupied)
        motion = self.motion
        if occupied:
            if motion is not None and motion.at is None and (
                    square == motion.start or square not in self._history.state.board):
                self._land(square, now)
            return
        if motion is not None and motion.at == square:
            motion.lifted()
            self._line.clear()
            return
        state = self._history.state
        piece = state.board.get(square)
        if (motion is None and piece is not None and piece.owner == state.to_move
                and not state.over and not self._board.setting_up and agrees):
            self.motion = Motion(square)
            if not self.moves_from(square) and self.bear_off_offer() is None:
                self._line.say("cannot_move", square=square)
            else:
                self._line.clear()

    def _before(self, square: str, occupied: bool) -> None:
        """Finish a Halma move that only waited for the players to go on with the game."""
        motion = self.motion
        if motion is None:
            return
        if motion.ready is not None and motion.at is not None:
            if not occupied and square == motion.at:
                return  # the jump sequence goes on
            self.make(motion.ready)
        elif motion.at is None and not occupied and square in self._history.state.board:
            owner = self._history.state.board[square].owner
            offer = self.bear_off_offer()
            if offer is not None and owner != self._history.mover:
                self.make(offer)  # the next player acts: the piece is off for good

    def _land(self, square: str, now: float) -> None:
        motion = self.motion
        assert motion is not None
        if square == motion.start:
            self.motion = None
            self._line.say("put_back")
            return
        moves = self.moves_from(motion.start)
        touched = motion.touched
        ends = [m for m in moves
                if m.path[-1] == square and is_subsequence(touched, m.path[1:-1])]
        through = [m for m in moves if square in m.path[1:-1]
                   and is_subsequence(touched, m.path[1:m.path.index(square)])]
        motion.landed(square)
        if not ends and not through:
            # Why not: the rules' answer for the landing as made names the pieces it clashes with.
            why = self._history.check(Move((motion.start, *touched, square)))
            motion.refused(tuple(x for x in (why.cells if why is not None else ())
                                 if x not in (motion.start, square)))
            if why is not None and motion.conflict:
                self._line.say("number_illegal_move", start=motion.start, square=square,
                               reason=why.reason, why=why.said())
            else:
                self._line.say("not_a_move", start=motion.start, square=square)
            return
        motion.jumped(square)
        if not ends:
            self._line.say("jump_on", square=square)
            return
        exact = [motion.start, *touched]
        best = min(ends, key=lambda m: (list(m.path) != exact, len(m.path)))
        if through:
            motion.wait(best, now + self._settle)
            self._line.clear()
        else:
            self.make(best)

    def make(self, move: Move) -> None:
        """The move is made: the piece is no longer in the air, and the move counts."""
        self.motion = None
        illegal = self._referee.commit(move)
        if illegal is not None:  # the position changed under the move; should not happen
            self._line.say("illegal", reason=illegal.reason, why=illegal.said())

    def deadline(self) -> float | None:
        """When a complete move that may still go on counts, or None."""
        return self.motion.settle if self.motion is not None else None

    def tick(self, now: float) -> bool:
        """Count the complete move once the board settled after it; True if it did."""
        motion = self.motion
        if motion and motion.ready and motion.settle is not None and now >= motion.settle:
            self.make(motion.ready)
            return True
        return False

    def bear_off(self) -> None:
        """The panel's Bear off: the piece in the air leaves the board."""
        offer = self.bear_off_offer()
        if offer is None:
            raise InputError(N_("no piece is ready to be borne off: lift it from its exit "
                                "corner"))
        self.make(offer)

    def bear_off_offer(self) -> Move | None:
        """The move bearing the piece in the air off the board, if the rules allow one."""
        motion = self.motion
        if motion is None or motion.at is not None:
            return None
        here = motion.touched[-1] if motion.touched else motion.start
        offers = [m for m in self.moves_from(motion.start)
                  if m.path[-1] == OFF and m.path[-2] == here
                  and is_subsequence(motion.touched, m.path[1:-1])]
        if not offers:
            return None
        exact = [motion.start, *motion.touched, OFF]
        return min(offers, key=lambda m: (list(m.path) != exact, len(m.path)))

    def targets(self) -> set[str]:
        """Where the piece in the air may still end its move."""
        motion = self.motion
        if motion is None:
            return set()
        result = set()
        for m in self.moves_from(motion.start):
            landings = m.path[1:]
            if is_subsequence(motion.touched, landings) and m.path[-1] != OFF:
                result.add(m.path[-1])
        result.discard(motion.at or "")
        return result

    def clear(self) -> None:
        """A take-back, or the board taken as the sensors report it: nothing is in the air."""
        self.motion = None
