"""3D-Sudoku: the three visible faces of a cube, each 4x4, with lines that turn the corner.

The cube is seen from above one corner: a top face, a left face and a right face meet at the
corner nearest the viewer. On the sensor grid the faces lie unfolded, one empty file and one
empty rank apart:

- left face: ``a1``-``d4``; its top edge (rank 4) is the fold to the top face, its right edge
  (file d) the fold to the right face;
- right face: ``f1``-``i4``; its left edge (file f) folds to the left face, its top edge (rank 4)
  to the top face;
- top face: ``a6``-``d9``; its bottom edge (rank 6) folds to the left face, its right edge
  (file d) to the right face, ``d6`` being the corner nearest the viewer.

Every line of four cells inside a face continues over one fold into the next face: twelve lines
of eight cells, the houses and bonus areas, numbered

- ``line 1``-``line 4``: left and right face, along ranks 1-4 (``a1``-``d1`` then ``f1``-``i1``);
- ``line 5``-``line 8``: left and top face, along files a-d (``a1``-``a4`` then ``a6``-``a9``);
- ``line 9``-``line 12``: top and right face; line 8 + k runs along rank 5 + k of the top face from
  ``a`` to ``d`` and then down file f, g, h or i (k = 1..4) of the right face from rank 4 to 1,
  e.g. ``line 9`` = a6 b6 c6 d6 f4 f3 f2 f1.

The sections are the 24 rows and columns of four cells inside one face, named after their end
cells (``line a1-d1``, ``line a6-a9``). Drawing positions show the cube in isometric view.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import pairwise
from typing import ClassVar

from ..game import register
from ..geometry import Cells, Geometry
from ..squares import square_name
from ..wording import N_
from .boards import runs
from .core import KosmosGame

SIDE = 4
"""Cells along each edge of a face."""

FACE_ORIGINS: dict[str, tuple[int, int]] = {"left": (0, 0), "right": (5, 0), "top": (0, 5)}
"""(file, rank) of each face's bottom-left sensor square."""

FACE_NAMES = {"left": "left face", "right": "right face", "top": "top face"}


def face_cells(face: str) -> Cells:
    """The 16 sensor squares of ``face``, rank by rank from the bottom left."""
    if face not in FACE_ORIGINS:
        raise ValueError(f"no face {face!r} (one of {', '.join(FACE_ORIGINS)})")
    f0, r0 = FACE_ORIGINS[face]
    return tuple(square_name(f0 + f, r0 + r) for r in range(SIDE) for f in range(SIDE))


def cube_lines() -> dict[str, Cells]:
    """The twelve lines of eight cells that run across two faces (``line 1``..``line 12``)."""
    lines: dict[str, Cells] = {}
    for k in range(SIDE):   # left + right, along a rank
        lines[f"line {k + 1}"] = (tuple(square_name(f, k) for f in range(SIDE))
                                  + tuple(square_name(5 + f, k) for f in range(SIDE)))
    for k in range(SIDE):   # left + top, along a file
        lines[f"line {k + 5}"] = (tuple(square_name(k, r) for r in range(SIDE))
                                  + tuple(square_name(k, 5 + r) for r in range(SIDE)))
    for k in range(SIDE):   # top (a rank, left to right) + right (a file, top to bottom)
        lines[f"line {k + 9}"] = (tuple(square_name(f, 5 + k) for f in range(SIDE))
                                  + tuple(square_name(5 + k, SIDE - 1 - r) for r in range(SIDE)))
    return lines


def cube_coords() -> dict[str, tuple[float, float]]:
    """Isometric drawing positions: the nearest corner at (4, 4), the fold between the left and
    right face straight down from it, the other two folds rising 30 degrees to either side."""
    cos30, sin30 = math.cos(math.pi / 6), 0.5
    up_left, up_right, down = (-cos30, sin30), (cos30, sin30), (0.0, -1.0)
    corner = (4.0, 4.0)

    def at(a: tuple[float, float], i: int, b: tuple[float, float], j: int) -> tuple[float, float]:
        return (corner[0] + (i + 0.5) * a[0] + (j + 0.5) * b[0],
                corner[1] + (i + 0.5) * a[1] + (j + 0.5) * b[1])

    coords: dict[str, tuple[float, float]] = {}
    for f in range(SIDE):
        for r in range(SIDE):
            # Steps away from the folds: file d and rank 4 of the left face touch them.
            coords[square_name(f, r)] = at(up_left, SIDE - 1 - f, down, SIDE - 1 - r)
            coords[square_name(5 + f, r)] = at(up_right, f, down, SIDE - 1 - r)
            coords[square_name(f, 5 + r)] = at(up_left, SIDE - 1 - f, up_right, r)
    return coords


def cube_neighbours(lines: dict[str, Cells]) -> dict[str, dict[str, Cells]]:
    """``orthogonal``: cells next to each other on the cube's surface, over the folds too."""
    near: dict[str, set[str]] = {}
    for cells in lines.values():
        for a, b in pairwise(cells):
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    return {"orthogonal": {c: tuple(sorted(n)) for c, n in near.items()}}


@cache
def cube_geometry() -> Geometry:
    """The 3D board: 48 cells, 12 eight-cell lines, 24 four-cell sections, three faces."""
    faces = {FACE_NAMES[f]: face_cells(f) for f in ("top", "left", "right")}
    cells = tuple(sorted((c for cs in faces.values() for c in cs),
                         key=lambda c: (c[1], c[0])))
    face_of = {c: name for name, cs in faces.items() for c in cs}
    lines = cube_lines()
    return Geometry(
        id="3d-sudoku", cells=cells, houses=lines, numbers=(1, 9),
        sections=runs(cells, face_of), bonus=dict(lines),
        neighbours=cube_neighbours(lines), regions=faces,
        coords=cube_coords(), shape="cube",
    )


@register
class CubeSudoku(KosmosGame):
    """Cards on three faces of a cube; every row and column of a face scores."""

    id: ClassVar[str] = "3d-sudoku"
    order: ClassVar[int] = 90
    name: ClassVar[str] = "3D-Sudoku"
    summary: ClassVar[str] = N_(
        "Take turns placing cards on three faces of a cube; lines of eight cells turn the corner "
        "from face to face. Filling a row or column of a face scores it, a full eight-cell line "
        "earns a bonus point.")

    def build_geometry(self) -> Geometry:
        return cube_geometry()
