"""The DOMINARI board: 6x6 cells a1..f6 and the shapes the four games look at.

Houses are the six ranks, the six files and the nine printed 2x2 blocks. Besides the geometry
this module precomputes, once, the small tables the rules consult on every action (orthogonal
and king neighbours, the 2x2 squares anywhere on the board, the runs of four for Vierer), so
that the game modules stay short and every action is handled well under a millisecond.
"""

from __future__ import annotations

from functools import cache

from ..game import PieceLook
from ..geometry import Geometry, blocks, grid_cells, ranks_and_files, sudoku_grid
from ..squares import square_name
from ..wording import N_

SIZE = 6
"""Cells per rank and per file."""

BLANK_SUPPLY = 12
"""Blank pieces in the box, shared by both players."""

WHITE, BLACK = 0, 1
COLOUR_NAMES = (N_("White"), N_("Black"))

PIECE_LOOKS = (PieceLook("#f3efe6", "#111111"), PieceLook("#161616", "#f3f3f3", "#c8d2dc"))
"""The real pieces: white ones and black ones."""


@cache
def dominari_geometry(variant_id: str, high: int = 6) -> Geometry:
    """The 6x6 board with ranks, files and 2x2 blocks as houses and numbers ``1..high``."""
    return sudoku_grid(variant_id, SIZE, 2, 2, (1, high))


def step(cell: str, df: int, dr: int) -> str | None:
    """The cell ``df`` files and ``dr`` ranks away from ``cell``, None when off the 6x6 board."""
    return _STEPS.get((cell, df, dr))


def _build_steps() -> dict[tuple[str, int, int], str]:
    table: dict[tuple[str, int, int], str] = {}
    for f in range(SIZE):
        for r in range(SIZE):
            for df in range(-2, 3):
                for dr in range(-2, 3):
                    if 0 <= f + df < SIZE and 0 <= r + dr < SIZE:
                        table[(square_name(f, r), df, dr)] = square_name(f + df, r + dr)
    return table


_STEPS = _build_steps()

CELLS: tuple[str, ...] = grid_cells(SIZE, SIZE)
ORTHOGONAL_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL_DIRECTIONS = ((1, 1), (1, -1), (-1, -1), (-1, 1))

ORTHOGONAL: dict[str, tuple[str, ...]] = {
    c: tuple(n for d in ORTHOGONAL_DIRECTIONS if (n := step(c, *d)) is not None) for c in CELLS
}
KING: dict[str, tuple[str, ...]] = {
    c: tuple(n for d in ORTHOGONAL_DIRECTIONS + DIAGONAL_DIRECTIONS
             if (n := step(c, *d)) is not None)
    for c in CELLS
}

BLOCKS: dict[str, tuple[str, ...]] = blocks(SIZE, SIZE, 2, 2)
"""The nine printed 2x2 blocks, named after their bottom-left cell (``block c3``)."""
LINES: dict[str, tuple[str, ...]] = ranks_and_files(SIZE, SIZE)
"""The six ranks and six files."""


def _runs_of_four() -> tuple[tuple[str, ...], ...]:
    runs = []
    for cells in LINES.values():
        for start in range(SIZE - 3):
            runs.append(cells[start:start + 4])
    return tuple(runs)


RUNS_OF_FOUR: tuple[tuple[str, ...], ...] = _runs_of_four()
"""Every four consecutive cells of a rank or file (36 of them)."""
