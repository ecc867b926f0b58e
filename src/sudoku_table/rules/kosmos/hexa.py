"""Hexa-Sudoku: a board of hexagonal cells with lines in three directions and six coloured
rhombi of nine cells.

The cells sit on a hex lattice in axial coordinates (q, r); the cell (q, r) lies on the sensor
square of file index q and rank index r (``a1`` = (0, 0)). Its six neighbours are one file
left or right, one rank up or down, and the two diagonal squares up-left and down-right. So the
three line directions are the ranks, the files and the up-left diagonals (squares whose file
index + rank index is constant). On the drawing the cells are real hexagons: (q, r) is drawn at
x = q + r / 2, y = r * sqrt(3) / 2.

The board (our design; the book gives none) is a ring of six rhombi of 3 x 3 cells, two in each
of the three orientations, around a small hole of three squares (``d6``, ``e5``, ``f4``); it
looks the same after a half turn. Region numbers by sensor square, rank 9 on top, each rank
listing files a to i and drawn half a cell further right than the one below, as the hexagons
lie::

    9         . 5 5 5 6 6 6 . .
    8        . 5 5 5 4 6 6 6 .
    7       . 5 5 5 4 4 6 6 6
    6      . . 3 . 4 4 4 . .
    5     . . 3 3 . 4 4 . .
    4    . . 3 3 3 . 4 . .
    3   1 1 1 3 3 2 2 2 .
    2  . 1 1 1 3 2 2 2 .
    1 . . 1 1 1 2 2 2 .

Regions are numbered by their first cell in reading order from ``a1`` (``region 1`` starts at
``c1``, ``region 2`` at ``f1``...). A **line** is a straight run of two or more touching cells
(lines stop at the hole and at the edge); ``line 1``..``line 36`` are numbered ranks first
(bottom to top, then left to right), then files (left to right, then bottom to top), then
diagonals (by file index + rank index, then bottom to top). Houses: every line and every
region. Sections: every maximal run of two or more cells of a line inside one region, named
after its end cells (``line c1-e1``). Bonus areas: every line that crosses two or more regions,
and every region.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from typing import ClassVar

from ..game import register
from ..geometry import Cells, Geometry
from ..squares import parse_square, square_name
from ..wording import N_
from .boards import line_name, numbered
from .core import KosmosGame

Point = tuple[int, int]

DIRECTIONS: dict[str, Point] = {"rank": (1, 0), "file": (0, 1), "diagonal": (-1, 1)}
"""The three line directions in axial steps (q, r); each is also a step on the sensor grid."""

RHOMBUS_STEPS: dict[str, tuple[Point, Point]] = {
    "rank-file": ((1, 0), (0, 1)),
    "file-diagonal": ((0, 1), (-1, 1)),
    "rank-diagonal": ((1, 0), (-1, 1)),
}
"""The three orientations of a 3 x 3 rhombus, by the two line directions its sides follow."""

BOARD: tuple[tuple[str, str], ...] = (
    ("rank-file", "b7"),        # top left
    ("rank-diagonal", "g7"),    # top right
    ("file-diagonal", "g4"),    # right leg
    ("file-diagonal", "e2"),    # left leg
    ("rank-diagonal", "c1"),    # bottom left
    ("rank-file", "f1"),        # bottom right
)
"""The six rhombi: orientation and the square of the rhombus's anchor cell (steps go from it)."""

HOLE = ("d6", "e5", "f4")


def rhombus(orientation: str, anchor: str) -> Cells:
    """The nine cells anchor + a * u + b * v (a, b in 0..2) of a rhombus of ``orientation``."""
    if orientation not in RHOMBUS_STEPS:
        raise ValueError(f"no rhombus orientation {orientation!r} "
                         f"(one of {', '.join(RHOMBUS_STEPS)})")
    (uq, ur), (vq, vr) = RHOMBUS_STEPS[orientation]
    q0, r0 = parse_square(anchor)
    return tuple(square_name(q0 + a * uq + b * vq, r0 + a * ur + b * vr)
                 for a in range(3) for b in range(3))


def hexa_regions() -> dict[str, Cells]:
    """The six coloured rhombi, ``region 1``..``region 6`` in reading order from a1."""
    return numbered("region", (rhombus(o, a) for o, a in BOARD))


def straight_runs(cells: Iterable[str]) -> list[Cells]:
    """Every maximal run of two or more touching ``cells`` along one line direction: ranks
    (bottom to top, left to right), files (left to right, bottom to top), then diagonals (by
    file index + rank index, bottom to top). Each run is listed from its lower end."""
    cell_set = set(cells)
    points = sorted(parse_square(c) for c in cell_set)
    keys = {"rank": lambda p: (p[1], p[0]), "file": lambda p: (p[0], p[1]),
            "diagonal": lambda p: (p[0] + p[1], p[1])}
    found: list[Cells] = []
    for direction, (dq, dr) in DIRECTIONS.items():
        for q, r in sorted(points, key=keys[direction]):
            if _name(q - dq, r - dr) in cell_set:
                continue   # not the lower end of a run
            run = []
            while (cell := _name(q, r)) in cell_set:
                run.append(cell)
                q, r = q + dq, r + dr
            if len(run) >= 2:
                found.append(tuple(run))
    return found


def _name(q: int, r: int) -> str | None:
    return square_name(q, r) if 0 <= q < 9 and 0 <= r < 9 else None


def hexa_coords(cells: Iterable[str]) -> dict[str, tuple[float, float]]:
    """Hexagon centres one unit apart: (q, r) at (q + r / 2, r * sqrt(3) / 2)."""
    result = {}
    for cell in cells:
        q, r = parse_square(cell)
        result[cell] = (q + r / 2, r * math.sqrt(3) / 2)
    return result


def hex_neighbours(cells: Iterable[str]) -> dict[str, dict[str, Cells]]:
    """``hex``: the up to six touching cells of each cell."""
    cell_set = set(cells)
    steps = [d for step in DIRECTIONS.values() for d in (step, (-step[0], -step[1]))]
    result: dict[str, Cells] = {}
    for cell in cell_set:
        q, r = parse_square(cell)
        result[cell] = tuple(n for dq, dr in steps
                             if (n := _name(q + dq, r + dr)) in cell_set)
    return {"hex": result}


@cache
def hexa_geometry() -> Geometry:
    """The Hexa board: 54 cells in six rhombi; lines, regions, sections and bonus areas."""
    regions = hexa_regions()
    cells = tuple(sorted((c for cs in regions.values() for c in cs),
                         key=lambda c: parse_square(c)[::-1]))
    region_of = {c: name for name, cs in regions.items() for c in cs}
    lines = {f"line {i + 1}": run for i, run in enumerate(straight_runs(cells))}
    sections: dict[str, Cells] = {}
    for run in lines.values():
        piece: list[str] = []
        for cell in (*run, None):
            if piece and (cell is None or region_of[cell] != region_of[piece[-1]]):
                if len(piece) >= 2:
                    sections[line_name(tuple(piece))] = tuple(piece)
                piece = []
            if cell is not None:
                piece.append(cell)
    bonus = {name: run for name, run in lines.items()
             if len({region_of[c] for c in run}) >= 2}
    bonus.update(regions)
    return Geometry(
        id="hexa-sudoku", cells=cells, houses={**lines, **regions}, numbers=(1, 9),
        sections=sections, bonus=bonus, neighbours=hex_neighbours(cells), regions=regions,
        coords=hexa_coords(cells), shape="hex",
    )


@register
class HexaSudoku(KosmosGame):
    """Cards on a board of hexagons: lines run in three directions."""

    id: ClassVar[str] = "hexa-sudoku"
    order: ClassVar[int] = 100
    name: ClassVar[str] = "Hexa-Sudoku"
    summary: ClassVar[str] = (N_("Take turns placing cards on a board of hexagons with lines in "
                              "three directions and six coloured rhombi. Filling a piece of a "
                              "line inside one rhombus scores it; a full rhombus, or a full line "
                              "that crosses colours, earns a bonus point."))

    def build_geometry(self) -> Geometry:
        return hexa_geometry()
