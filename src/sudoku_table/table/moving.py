"""The flow of a game of moves (Halma): a piece is lifted, set down on each landing square of
its jump sequence, and the move counts once the board settles.

Functions of the ``Companion``, which keeps the piece in the air (``Motion``) with the rest of
what is under way; they use its history and its board and change only the motion and the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sudoku_table.rules.actions import OFF, Move

if TYPE_CHECKING:
    from .companion import Companion


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


def is_subsequence(part: Iterable[str], whole: Iterable[str]) -> bool:
    """True when ``part`` appears in ``whole`` in order (gaps allowed)."""
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def before(c: Companion, square: str, occupied: bool, now: float) -> None:
    """Finish a Halma move that only waited for the players to go on with the game."""
    motion = c.motion
    if motion is None:
        return
    if motion.ready is not None and motion.at is not None:
        if not occupied and square == motion.at:
            return  # the jump sequence goes on
        commit_motion(c, motion.ready)
    elif motion.at is None and not occupied and square in c.state.board:
        owner = c.state.board[square].owner
        offer = bear_off_offer(c)
        if offer is not None and owner != c.mover:
            commit_motion(c, offer)  # the next player acts: the piece is off for good


def land(c: Companion, square: str, now: float) -> None:
    motion = c.motion
    assert motion is not None
    if square == motion.start:
        c.motion = None
        c.say("put_back")
        return
    moves = c.moves_from(motion.start)
    touched = motion.touched
    ends = [m for m in moves
            if m.path[-1] == square and is_subsequence(touched, m.path[1:-1])]
    through = [m for m in moves if square in m.path[1:-1]
               and is_subsequence(touched, m.path[1:m.path.index(square)])]
    motion.at = square
    if not ends and not through:
        motion.illegal = True
        # Why not: the rules' answer for the landing as made names the pieces it clashes with.
        why = c.check(Move((motion.start, *touched, square)))
        motion.conflict = tuple(x for x in (why.cells if why is not None else ())
                                if x not in (motion.start, square))
        if why is not None and motion.conflict:
            c.say("number_illegal_move", start=motion.start, square=square, reason=why.reason,
                  why=why.said())
        else:
            c.say("not_a_move", start=motion.start, square=square)
        return
    touched.append(square)
    if not ends:
        c.say("jump_on", square=square)
        return
    exact = [motion.start, *touched]
    best = min(ends, key=lambda m: (list(m.path) != exact, len(m.path)))
    if through:
        motion.ready = best
        motion.settle = now + c.settle
        c.message = None
    else:
        commit_motion(c, best)


def commit_motion(c: Companion, move: Move) -> None:
    c.motion = None
    illegal = c.commit(move)
    if illegal is not None:  # the position changed under the move; should not happen
        c.say("illegal", reason=illegal.reason,
                  why=illegal.said())


def bear_off_offer(c: Companion) -> Move | None:
    """The move bearing the piece in the air off the board, if the rules allow one."""
    motion = c.motion
    if motion is None or motion.at is not None:
        return None
    here = motion.touched[-1] if motion.touched else motion.start
    offers = [m for m in c.moves_from(motion.start)
              if m.path[-1] == OFF and m.path[-2] == here
              and is_subsequence(motion.touched, m.path[1:-1])]
    if not offers:
        return None
    exact = [motion.start, *motion.touched, OFF]
    return min(offers, key=lambda m: (list(m.path) != exact, len(m.path)))


def targets(c: Companion) -> set[str]:
    """Where the piece in the air may still end its move."""
    motion = c.motion
    if motion is None:
        return set()
    result = set()
    for m in c.moves_from(motion.start):
        landings = m.path[1:]
        if is_subsequence(motion.touched, landings) and m.path[-1] != OFF:
            result.add(m.path[-1])
    result.discard(motion.at or "")
    return result
