"""SUDOKU FAMILY board: the hexagon of side 4 on a triangular lattice, without its centre.

Only the board is defined here so far (the referee of the game itself is not yet written, so the
variant is deliberately not registered). Points use axial coordinates (q, r); point (q, r) sits on
the sensor square of file index q + 4 and rank r + 5, so the missing centre is e5.

Houses: the six triangles (``triangle 1``..``triangle 6``, clockwise, as drawn, from the wedge that
starts at f5) and the 21 straight lines (``line 1``..``line 21``: first the files a..g, then the
ranks 2..8, then the diagonals with file index + rank from low to high). The lines through the
missing centre count as one line of six cells.
"""

from __future__ import annotations

import math

from .geometry import Geometry
from .squares import square_name

RADIUS = 3
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
BLACK_DOTS = ("d5", "d6", "e4", "e6", "f4", "f5")


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
        regions=tri, coords=coords, shape="triangle",
    )
