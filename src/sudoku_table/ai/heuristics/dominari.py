"""The DOMINARI games: a race (Halma), four in a row (Vierer), the scoring table (Revers,
Score)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from sudoku_table.rules.actions import OFF, Action, Blank, EndTurn, Move, Place
from sudoku_table.rules.dominari import HalmaDominari, PlacementGame, ReversDominari, ViererDominari
from sudoku_table.rules.dominari.board import BLOCKS, LINES
from sudoku_table.rules.dominari.halma import EXIT
from sudoku_table.rules.dominari.scoring import BLOCK_POINTS, LINE_POINTS
from sudoku_table.rules.dominari.vierer import FOURS
from sudoku_table.rules.game import Game, Piece, State, new_game
from sudoku_table.rules.squares import parse_square

from ..reasons import Motive
from .base import Heuristic, register


def steps_home(cell: str, player: int) -> int:
    """Moves a lone piece on ``cell`` needs to leave the board over its exit corner."""
    f, r = parse_square(cell)
    ef, er = parse_square(EXIT[player])
    return max(abs(ef - f), abs(er - r)) + 1


STUCK_COST = 1.5
"""Steps a piece that cannot move now is taken to lose (the house rule can block a piece
for good, and a position where nobody can move is a draw)."""


@cache
def pair_can_pass(game_id: str, white: str, black: str) -> bool:
    """Whether a White and a Black piece of the same number, standing on ``white`` and
    ``black`` with no other piece on the board, can still both leave it, in some order of
    moves. A pair that cannot never will, unless a third piece opens a jump: each keeps the
    other from moving (the house rule), so neither player bears off all six and the game
    ends drawn.

    Only same-numbered pieces of different colours keep each other out of a house, so the
    pair alone decides; the answer depends on the two cells only (numbers ignored) and is
    kept once worked out."""
    game = new_game(game_id)
    assert isinstance(game, HalmaDominari)
    board = {white: Piece(0, 1), black: Piece(1, 1)}
    for player, start in ((0, white), (1, black)):
        for move in game._moves(board, player):
            if move.start != start:
                continue
            if move.bears_off:
                return True
            end = move.path[-1]
            if pair_can_pass(game_id, end, black) if player == 0 else \
                    pair_can_pass(game_id, white, end):
                return True
    return False


def pairs(state: State) -> list[tuple[str, str]]:
    """The squares of each number's White and Black piece, where both are on the board."""
    cells: list[dict[int, str]] = [{}, {}]
    for cell, piece in state.board.items():
        if piece.owner is not None and piece.number is not None:
            cells[piece.owner][piece.number] = cell
    return [(white, cells[1][number]) for number, white in sorted(cells[0].items())
            if number in cells[1]]


def crossed(white: str, black: str) -> bool:
    """True when a White piece on ``white`` is past a Black piece on ``black``: further right
    and further up. Both move away from each other from then on, so two pieces of one
    number that have crossed never need the same rank or file again. Before that, one of
    them has to jump over the other's rank or file (a step would land in it): over the twin
    itself, or over a third piece."""
    fw, rw = parse_square(white)
    fb, rb = parse_square(black)
    return fw > fb and rw > rb


LOCK_RISK_ALONE = 3.0
"""A pair that cannot pass alone (``pair_can_pass``) needs a third piece to jump over: its
risk of a lock is this many in (1 + the other pieces on the board), at most certain."""


def lock_risk(game: HalmaDominari, state: State, leader: int) -> float:
    """The chance, roughly, that some number's pair ends the game locked (a draw), as the
    player ahead (``leader``) would suffer it.

    - A crossed pair (``crossed``) is no risk.
    - A pair that can pass alone, but has not crossed yet, fails when the leader runs out of
      other moves: a player must move if able, so a leader left with few pieces walks its
      last ones into the lock while the other player keeps the twin in the way. Its risk is
      1 in (1 + the leader's other pieces on the board).
    - A pair that cannot pass alone waits for a third piece to jump over: ``LOCK_RISK_ALONE``
      in (1 + the other pieces on the board), certain once no other piece is left.

    Measured on the bench: counting only the locks already made (the risk of a pair that
    cannot pass alone taken as certain), the strong player drew 6 of 30 games against random
    play, nearly always with its last piece forced into a lock after it had borne off the
    others early."""
    pieces = len(state.board)
    spare = sum(1 for piece in state.board.values() if piece.owner == leader) - 1
    safe = 1.0
    for white, black in pairs(state):
        if not pair_can_pass(game.id, white, black):
            risk = LOCK_RISK_ALONE / (pieces - 1)
        elif crossed(white, black):
            continue
        else:
            risk = 1.0 / (1 + spare)
        safe *= 1.0 - min(1.0, risk)
    return 1.0 - safe


class Halma(Heuristic):
    """A race: every step a piece still needs counts against its player, and more for a piece
    that cannot move now.

    A White and a Black piece of one number that block each other for good keep one piece
    of each player on the board, so nobody bears off all six: the game ends drawn. The
    chance of that (``lock_risk``) pulls the player ahead towards a draw's share and raises
    nobody: the leader crosses its pairs while it still has pieces to jump over and spare
    moves, instead of bearing off first and walking its last piece into a lock; the player
    behind is not taken to gain, since it may still win the race. (Judged a draw for both
    sides, a lock drew the strong player into seeking locks whenever it was not clearly
    ahead, and into drawing most games against the greedy player.)"""

    scale = 2.5
    measure = "chance"

    def values_of(self, game: Game, state: State, h: Sequence[float]) -> list[float]:
        assert isinstance(game, HalmaDominari)
        values = super().values_of(game, state, h)
        leader = max(range(state.players), key=lambda p: values[p])
        risk = lock_risk(game, state, leader)
        if risk <= 0.0:
            return values
        draw = 1.0 / state.players
        return [(1.0 - risk) * v + risk * min(v, draw) for v in values]

    def standing(self, game: Game, state: State) -> list[float]:
        assert isinstance(game, HalmaDominari)
        h = [0.0] * state.players
        for cell, piece in state.board.items():
            if piece.owner is not None:
                h[piece.owner] -= steps_home(cell, piece.owner)
        for player in range(state.players):
            movable = movable_starts(game, state, player)
            stuck = sum(1 for piece_cell, piece in state.board.items()
                        if piece.owner == player and piece_cell not in movable)
            h[player] -= STUCK_COST * stuck
        return h

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        found = super().reasons(game, before, action, after, mover)
        found = [r for r in found if r.code not in ("points", "points_plain")]
        if not isinstance(action, Move):
            return found
        if action.bears_off:
            found.append(Motive("bears_off", {"count": game.scores(after)[mover]}))
        else:
            found.extend(_crossing(before, action, mover))
        if not _is_step(action, mover):
            jumps = len(action.path) - 1
            found.append(Motive("jumps", {"count": jumps}) if jumps > 1 else Motive("jumps_once"))
        if not action.bears_off:
            gained = steps_home(action.start, mover) - steps_home(action.path[-1], mover)
            if gained > 0:
                found.append(Motive("advances", {"steps": gained}) if gained > 1
                             else Motive("advances_one"))
        assert isinstance(game, HalmaDominari)
        for player in range(before.players):
            change = movable_pieces(game, after, player) - movable_pieces(game, before, player)
            if player == mover and change > 0:
                found.append(Motive("frees", {"count": change}))
            elif player != mover and change < 0:
                found.append(Motive("hinders", {"player": player, "count": -change}))
        return found


def _crossing(before: State, move: Move, mover: int) -> list[Motive]:
    """``crosses`` when ``move`` takes the mover's piece past the other player's piece of the
    same number (see ``crossed``)."""
    number = before.board[move.start].number
    twin = next((cell for cell, piece in before.board.items()
                 if piece.number == number and piece.owner not in (None, mover)), None)
    if twin is None:
        return []
    other = before.board[twin].owner

    def past(mine: str) -> bool:
        return crossed(mine, twin) if mover == 0 else crossed(twin, mine)

    if past(move.start) or not past(move.path[-1]):
        return []
    return [Motive("crosses", {"number": number, "player": other})]


def movable_starts(game: HalmaDominari, state: State, player: int) -> set[str]:
    """The squares of ``player``'s pieces that can move in ``state``."""
    return {move.start for move in game._moves(state.board, player)}


def movable_pieces(game: HalmaDominari, state: State, player: int) -> int:
    """How many of ``player``'s pieces can move in ``state``."""
    return len(movable_starts(game, state, player))


def _is_step(move: Move, mover: int) -> bool:
    """A single step (or stepping off from the exit corner), not a jump."""
    if len(move.path) != 2:
        return False
    if move.path[1] == OFF:
        return move.start == EXIT[mover]
    (fa, ra), (fb, rb) = parse_square(move.path[0]), parse_square(move.path[1])
    return max(abs(fb - fa), abs(rb - ra)) == 1


FOUR_WEIGHTS = (0.0, 0.2, 1.0, 4.0, 100.0)
"""What a group of four is worth to a player owning 0..4 of its cells, the other owning none."""


def _group_owners(state: State, group: tuple[str, ...]) -> tuple[int, int, int]:
    """White's pieces, Black's pieces and empty cells in ``group``."""
    counts = [0, 0, 0]
    for cell in group:
        piece = state.board.get(cell)
        if piece is None or piece.owner is None:
            counts[2] += 1
        else:
            counts[piece.owner] += 1
    return counts[0], counts[1], counts[2]


class Vierer(Heuristic):
    """Groups of four still open to one player: the more of it owned, the more it weighs."""

    scale = 3.0
    measure = "chance"

    def standing(self, game: Game, state: State) -> list[float]:
        h = [0.0, 0.0]
        for group in FOURS:
            white, black, _ = _group_owners(state, group)
            if white and not black:
                h[0] += FOUR_WEIGHTS[white]
            elif black and not white:
                h[1] += FOUR_WEIGHTS[black]
        return h

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        found = [r for r in placement_reasons(game, before, action, after, mover)
                 if r.code not in ("points", "points_plain")]
        if not isinstance(action, Place | Blank):
            return found
        other = 1 - mover
        assert isinstance(game, ViererDominari)
        if after.over and after.winners == (mover,):
            group = game.winning_groups(after.board, mover)[0]
            found.append(Motive("four", {"cells": list(group)}))
            return found
        mine = after.board.get(action.cell)
        if mine is None or mine.owner != mover:
            return found
        for group in FOURS:
            if action.cell not in group:
                continue
            counts = _group_owners(before, group)
            if counts[other] == 3 and counts[2] == 1:
                found.append(Motive("blocks_four", {"player": other, "cells": list(group)}))
        building = 0
        for group in FOURS:
            if action.cell not in group:
                continue
            counts = _group_owners(after, group)
            if counts[mover] == 3 and counts[2] == 1:
                found.append(Motive("threatens_four", {"cells": list(group)}))
            elif counts[mover] >= 1 and counts[other] == 0:
                building += 1
        if building and not any(r.code in ("threatens_four", "blocks_four") for r in found):
            found.append(Motive("builds_four", {"count": building}))
        return found


def placement_reasons(game: Game, before: State, action: Action, after: State,
                      mover: int) -> list[Motive]:
    """What the placement games share: the win, points, flips, blanks and ending the turn."""
    found = Heuristic.reasons(PLAIN_TABLE, game, before, action, after, mover)
    if isinstance(action, Place | Blank) and after.last.flipped:
        found.append(Motive("flips", {"count": len(after.last.flipped)}))
    if isinstance(action, Blank):
        if action.owner is None or action.owner == mover:
            found.insert(0, Motive("blank", {"cell": action.cell}))
        else:
            found.insert(0, Motive("blank_for", {"player": action.owner, "cell": action.cell}))
    if isinstance(action, EndTurn):
        found.append(Motive("end_turn"))
    return found


class Table(Heuristic):
    """The scoring table, plus half the value of rows, columns and blocks that are still of
    one colour, by how full they are."""

    scale = 3.0

    def standing(self, game: Game, state: State) -> list[float]:
        h = [float(s) for s in game.scores(state)]
        board = state.board
        for areas, points in ((BLOCKS, BLOCK_POINTS[0]), (LINES, LINE_POINTS[0])):
            for cells in areas.values():
                owner = None
                filled = 0
                for cell in cells:
                    piece = board.get(cell)
                    if piece is None:
                        continue
                    if piece.owner is None or (owner is not None and piece.owner != owner):
                        owner = -1
                        break
                    owner = piece.owner
                    filled += 1
                if owner is not None and owner >= 0 and filled < len(cells):
                    h[owner] += 0.5 * points * filled / len(cells)
        return h

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        return placement_reasons(game, before, action, after, mover)


PLAIN_TABLE = Heuristic()

register(HalmaDominari, Halma())
register(ViererDominari, Vierer())
register(ReversDominari, Table())
register(PlacementGame, Table())
