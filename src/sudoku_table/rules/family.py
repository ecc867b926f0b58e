"""SUDOKU FAMILY: stones 1-6 drawn from a bag onto a star of six triangles (docs/RULINGS.md).

The board is the hexagon of side 4 on a triangular lattice, without its centre. Points use axial
coordinates (q, r); point (q, r) sits on the sensor square of file index q + 4 and rank r + 5, so
the missing centre is e5.

Houses: the six triangles (``triangle 1``..``triangle 6``, clockwise, as drawn, from the wedge that
starts at f5) and the 21 straight lines (``line 1``..``line 21``: first the files b..h, then the
ranks 2..8, then the diagonals with file index + rank from low to high). The lines through the
missing centre count as one line of six cells.

The game: the first stone goes on a black dot; every later stone goes into a started, unfinished
triangle where the house rule lets it; only when no started triangle can take it may it begin a
new triangle next to one that holds stones. A stone that fits nowhere is laid face down on any
empty cell as a joker. The stone that completes a triangle scores 6 for its placer, one that
completes a line scores the line's length; a joker scores half, rounded up. The game ends with
the last stone: one stone per player stays in the box, so 36 minus the player count are placed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .actions import Action, Discard, Joker, Place
from .errors import Illegal, RecordError
from .game import (
    STONES,
    Board,
    Effects,
    Game,
    Piece,
    PieceWords,
    Said,
    State,
    house_conflict,
    register,
)
from .geometry import Geometry
from .squares import square_name
from .wording import N_

RADIUS = 3
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
BLACK_DOTS = ("d5", "d6", "e4", "e6", "f4", "f5")
"""The six cells next to the missing centre, one per triangle: the first stone goes on one."""

STONES_PER_NUMBER = 6
"""The bag holds six stones of each number 1-6."""

TRIANGLE_POINTS = 6
"""Points for the stone that completes a triangle (a line gives its cell count)."""


def point_square(q: int, r: int) -> str:
    """The sensor square of the lattice point with axial coordinates (q, r)."""
    return square_name(q + 4, r + 4)


def _points() -> list[tuple[int, int]]:
    return [
        (q, r)
        for r in range(-RADIUS, RADIUS + 1)
        for q in range(-RADIUS, RADIUS + 1)
        if abs(q + r) <= RADIUS and (q, r) != (0, 0)
    ]


def triangles() -> dict[str, tuple[str, ...]]:
    """The six wedges: triangle k+1 holds a * D[k] + b * D[k+1], a >= 1, b >= 0, a + b <= 3."""
    result: dict[str, tuple[str, ...]] = {}
    for k in range(6):
        (dq0, dr0), (dq1, dr1) = DIRECTIONS[k], DIRECTIONS[(k + 1) % 6]
        result[f"triangle {k + 1}"] = tuple(
            point_square(a * dq0 + b * dq1, a * dr0 + b * dr1)
            for a in range(1, RADIUS + 1)
            for b in range(0, RADIUS + 1 - a)
        )
    return result


def lines() -> dict[str, tuple[str, ...]]:
    """Straight lines in the three directions: constant q, constant r, constant q + r."""
    points = _points()
    keys = (lambda p: p[0], lambda p: p[1], lambda p: p[0] + p[1])
    result: dict[str, tuple[str, ...]] = {}
    for key in keys:
        for value in range(-RADIUS, RADIUS + 1):
            members = tuple(point_square(*p) for p in points if key(p) == value)
            result[f"line {len(result) + 1}"] = members
    return result


def family_geometry() -> Geometry:
    """The SUDOKU FAMILY board with true triangular-lattice drawing positions."""
    points = _points()
    cells = tuple(point_square(*p) for p in points)
    tri = triangles()
    houses = {**tri, **lines()}
    coords = {
        point_square(q, r): (4 + q + r / 2, 4 + r * math.sqrt(3) / 2) for q, r in points
    }
    return Geometry(
        id="sudoku-family", cells=cells, houses=houses, numbers=(1, 6),
        regions=tri, coords=coords, shape="triangle", marked={"dots": BLACK_DOTS},
    )


# --- fast lookups for the game --------------------------------------------------------------

_GEOMETRY = family_geometry()
_CELLS = _GEOMETRY.cells
_NUMBERS = _GEOMETRY.number_range
_NONE = Piece(None, None)
_TRIANGLE_NAMES = tuple(triangles())
_TRIANGLE_CELLS = tuple(triangles().values())
_TRIANGLE_OF = {c: k for k, cells in enumerate(_TRIANGLE_CELLS) for c in cells}
_HOUSE_POINTS = {h: (TRIANGLE_POINTS if h.startswith("triangle") else len(cells))
                 for h, cells in _GEOMETRY.houses.items()}
_HOUSE_INDEX = {h: i for i, h in enumerate(_GEOMETRY.houses)}
_HOUSES_OF = {c: tuple(_HOUSE_INDEX[h] for h in _GEOMETRY.houses_of[c]) for c in _CELLS}


def _used_masks(board: Board) -> list[int]:
    """For every house (in geometry order) a bit mask of the numbers standing in it."""
    masks = [0] * len(_HOUSE_INDEX)
    for cell, piece in board.items():
        if piece.number is not None:
            bit = 1 << piece.number
            for h in _HOUSES_OF[cell]:
                masks[h] |= bit
    return masks


def _house_allows(used: list[int], cell: str, number: int) -> bool:
    bit = 1 << number
    return not any(used[h] & bit for h in _HOUSES_OF[cell])


def _started(board: Board, triangle: int) -> bool:
    return any(c in board for c in _TRIANGLE_CELLS[triangle])


def _started_triangles(board: Board) -> list[int]:
    return [k for k in range(6) if _started(board, k)]


def _next_to_started(board: Board, triangle: int) -> bool:
    return _started(board, (triangle + 1) % 6) or _started(board, (triangle - 1) % 6)


def _fits_in(board: Board, used: list[int], number: int, tris: Iterable[int]) -> list[str]:
    """The empty cells of the triangles ``tris`` where ``number`` breaks no house rule."""
    return [c for k in tris for c in _TRIANGLE_CELLS[k]
            if c not in board and _house_allows(used, c, number)]


def _targets(board: Board, used: list[int], number: int) -> list[str]:
    """Every cell where a stone ``number`` may be placed now (the bag permitting): a black dot
    for the first stone; else a free cell of a started triangle; only when none can take it,
    a cell of a new triangle next to a started one. Empty: the stone becomes a joker."""
    if not board:
        return list(BLACK_DOTS)
    started = _started_triangles(board)
    fits = _fits_in(board, used, number, started)
    if fits:
        return fits
    fresh = [k for k in range(6) if k not in started and _next_to_started(board, k)]
    return _fits_in(board, used, number, fresh)


# --- the game ------------------------------------------------------------------------------------


def mover_of(stones_placed: int, players: int) -> int:
    """Who places the stone after ``stones_placed`` stones: with two players A, B, B, A, A, B,
    B, ...; with three or four players one stone each in turn."""
    if players == 2:
        return ((stones_placed + 1) // 2) % 2
    return stones_placed % players


def joker_points(points: int) -> int:
    """A joker scores half of what it completes, rounded up."""
    return (points + 1) // 2


@dataclass(frozen=True)
class FamilyState(State):
    """A position of SUDOKU FAMILY.

    ``scores`` are the points earned so far (points go to whoever placed the completing stone,
    so they are kept, not recomputed). ``counts[n - 1]`` is how many stones showing ``n`` are
    on the board, jokers included (the table learns a joker's number before it is turned over);
    jokers of a recorded setup have no known number and count nowhere.
    """

    scores: tuple[int, ...] = ()
    counts: tuple[int, ...] = (0,) * 6


@register
class SudokuFamily(Game):
    """SUDOKU FAMILY: stones 1-6 from a bag onto a star of six triangles (docs/RULINGS.md)."""

    id: ClassVar[str] = "sudoku-family"
    order: ClassVar[int] = 120
    name: ClassVar[str] = "SUDOKU FAMILY"
    summary: ClassVar[str] = (
        N_("Draw numbered stones from the bag and place them triangle by triangle on a star of "
        "six triangles; whoever completes a triangle or a line scores.")
    )
    family: ClassVar[str] = "SUDOKU FAMILY"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    piece_words: ClassVar[PieceWords] = STONES
    has_jokers: ClassVar[bool] = True
    hidden_hands: ClassVar[bool] = True
    end_reasons: ClassVar[Mapping[str, str]] = {"stones_used_up": N_("every stone has been laid")}

    def build_geometry(self) -> Geometry:
        return _GEOMETRY

    @property
    def stones(self) -> int:
        """How many stones are placed in a whole game: one per player stays in the box."""
        return len(_GEOMETRY.cells) - self.players

    # --- setup ------------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> FamilyState:
        """The empty board, or a recorded practice position: its stones count as placed in
        turn order (the next stone is placed by whoever would place it in a real game) and
        have earned nobody points."""
        board = dict(setup or {})
        counts = [0] * 6
        for cell, piece in board.items():
            if cell not in _GEOMETRY.cell_set:
                raise RecordError(N_("setup names {cell}, which is not a cell of {id}"),
                                  cell=repr(cell), id=self.id)
            if piece.owner not in range(self.players):
                raise RecordError(N_("setup {cell}: every stone belongs to the player who placed "
                                     "it (0-{value})"),
                                  cell=cell, value=self.players - 1)
            if piece.number is None:
                continue
            if piece.number not in _GEOMETRY.number_range:
                raise RecordError(N_("setup {cell}: {number} is not a number of {id}"),
                                  cell=cell, number=piece.number, id=self.id)
            conflict = house_conflict(_GEOMETRY, board, cell, piece.number)
            if conflict is not None:
                raise RecordError(N_("setup {cell}: {reason} ({items})"),
                                  cell=cell,
                                  reason=conflict.reason,
                                  items=', '.join(conflict.cells))
            counts[piece.number - 1] += 1
        if len(board) >= self.stones:
            raise RecordError(N_("setup holds {count} stones; with {players} players only "
                                 "{stones} are placed in a whole game"),
                              count=len(board), players=self.players, stones=self.stones)
        for number, count in enumerate(counts, start=1):
            if count > STONES_PER_NUMBER:
                raise RecordError(N_("setup holds {count} stones {number}; the bag has only "
                                     "{STONES_PER_NUMBER}"),
                                  count=count, number=number, STONES_PER_NUMBER=STONES_PER_NUMBER)
        return FamilyState(players=self.players, board=board,
                           to_move=mover_of(len(board), self.players),
                           scores=(0,) * self.players, counts=tuple(counts),
                           last=Effects(points=(0,) * self.players))

    # --- questions --------------------------------------------------------------------------

    def legal_actions(self, state: State) -> Iterator[Action]:
        """Every placement of every number still in the bag, and for a number that fits
        nowhere a joker on every empty cell."""
        assert isinstance(state, FamilyState)
        if state.over:
            return
        used = _used_masks(state.board)
        empty = [c for c in _CELLS if c not in state.board]
        for number in _NUMBERS:
            if state.counts[number - 1] >= STONES_PER_NUMBER:
                continue
            targets = _targets(state.board, used, number)
            if targets:
                for cell in targets:
                    yield Place(cell, number)
            else:
                for cell in empty:
                    yield Joker(cell, number)

    def placeable_numbers(self, state: State, cell: str) -> list[int]:
        assert isinstance(state, FamilyState)
        if state.over or cell not in _GEOMETRY.cell_set or cell in state.board:
            return []
        used = _used_masks(state.board)
        return [n for n in _NUMBERS if state.counts[n - 1] < STONES_PER_NUMBER
                and cell in _targets(state.board, used, n)]

    def check(self, state: State, action: Action) -> Illegal | None:
        assert isinstance(state, FamilyState)
        if state.over:
            return Illegal(N_("the game is over"))
        if isinstance(action, Place | Joker):
            bad = self._check_stone(state, action.cell, action.number)
            if bad is not None:
                return bad
            if isinstance(action, Place):
                return self._check_place(state, action.cell, action.number)
            return self._check_joker(state, action.number)
        if isinstance(action, Discard):
            return Illegal(N_("in SUDOKU FAMILY no stone is set aside: a stone that fits nowhere "
                           "is laid face down on any empty cell as a joker"))
        return Illegal(N_("SUDOKU FAMILY has no {kind} actions: place the stone you drew, or lay "
                          "it face down as a joker when it fits nowhere"),
                       kind=repr(action.type))

    def scores(self, state: State) -> list[int]:
        assert isinstance(state, FamilyState)
        return list(state.scores)

    def end_reason(self, state: State) -> str | None:
        return "stones_used_up" if state.over else None

    def where_rule(self, state: State) -> Said | None:
        """The first stone on a black dot; later ones into the triangles already started."""
        if not state.board:
            return Said(N_("the first stone goes on a black dot"))
        started = [_TRIANGLE_NAMES[k] for k in _started_triangles(state.board)]
        return Said(N_("a stone goes into a started triangle ({triangles}); a new one only "
                       "when none of them takes it"), {"triangles": started})

    def hand_supply(self, state: State, player: int) -> dict[int, int] | None:
        """The stones still in the shared bag, by number (every player draws from it)."""
        assert isinstance(state, FamilyState)
        return {n: STONES_PER_NUMBER - state.counts[n - 1] for n in _NUMBERS
                if state.counts[n - 1] < STONES_PER_NUMBER}

    def extras(self, state: State) -> dict[str, Any]:
        return {"stones_left": self.stones - len(state.board)}

    # --- applying ---------------------------------------------------------------------------

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(state, FamilyState)
        assert isinstance(action, Place | Joker)
        mover = state.to_move
        assert mover is not None
        is_joker = isinstance(action, Joker)
        board = dict(state.board)
        board[action.cell] = Piece(mover, None if is_joker else action.number)
        completed = tuple(h for h in _GEOMETRY.houses_of[action.cell]
                          if all(c in board for c in _GEOMETRY.houses[h]))
        points = sum(_HOUSE_POINTS[h] for h in completed)
        if is_joker:
            points = joker_points(points)
        gained = [0] * self.players
        gained[mover] = points
        scores = tuple(s + g for s, g in zip(state.scores, gained, strict=True))
        counts = list(state.counts)
        counts[action.number - 1] += 1
        last = Effects(completed=completed, points=tuple(gained))
        if len(board) >= self.stones:
            best = max(scores)
            winners = tuple(p for p, s in enumerate(scores) if s == best)
            return state.replace(board=board, scores=scores, counts=tuple(counts), last=last,
                                 over=True, winners=winners, to_move=None)
        return state.replace(board=board, scores=scores, counts=tuple(counts), last=last,
                             to_move=mover_of(len(board), self.players))

    # --- checks -----------------------------------------------------------------------------

    def _check_stone(self, state: FamilyState, cell: str, number: int) -> Illegal | None:
        """What a placed stone and a joker share: a free cell, a number from the bag."""
        bad = self.check_cell(cell)
        if bad is not None:
            return bad
        if number not in _GEOMETRY.number_range:
            return Illegal(N_("{number} is not a number of SUDOKU FAMILY (1-6)"), number=number)
        if cell in state.board:
            return Illegal(N_("{cell} is already occupied"), (cell,), cell=cell)
        if state.counts[number - 1] >= STONES_PER_NUMBER:
            shown = tuple(c for c in _CELLS if state.board.get(c, _NONE).number == number)
            return Illegal(N_("all {STONES_PER_NUMBER} stones {number} are already on the board: "
                              "there is no seventh"),
                           shown, STONES_PER_NUMBER=STONES_PER_NUMBER, number=number)
        return None

    def _check_place(self, state: FamilyState, cell: str, number: int) -> Illegal | None:
        board = state.board
        conflict = house_conflict(_GEOMETRY, board, cell, number)
        if conflict is not None:
            return conflict
        if not board:
            if cell not in BLACK_DOTS:
                return Illegal(N_("the first stone goes on a black dot ({BLACK_DOTS})"),
                               BLACK_DOTS=', '.join(BLACK_DOTS))
            return None
        triangle = _TRIANGLE_OF[cell]
        if _started(board, triangle):
            return None
        used = _used_masks(board)
        open_cells = _fits_in(board, used, number, _started_triangles(board))
        if open_cells:
            names = sorted({_TRIANGLE_NAMES[_TRIANGLE_OF[c]] for c in open_cells})
            return Illegal(N_("{number} still fits in a started triangle ({names}): a new "
                              "triangle may only be begun when no started one can take it"),
                           number=number, names=names)
        if not _next_to_started(board, triangle):
            return Illegal(N_("{triangle} is not next to a triangle that holds stones: a "
                              "new triangle must border one"),
                           triangle=[_TRIANGLE_NAMES[triangle]])
        return None

    def _check_joker(self, state: FamilyState, number: int) -> Illegal | None:
        targets = _targets(state.board, _used_masks(state.board), number)
        if targets:
            shown = ", ".join(targets[:4]) + (", ..." if len(targets) > 4 else "")
            return Illegal(N_("{number} can still be placed ({shown}): only a stone that fits "
                              "nowhere becomes a joker"),
                           number=number, shown=shown)
        return None
