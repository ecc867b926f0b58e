"""Building blocks for the KOSMOS boards on the 9x9 sensor grid.

Sections that are straight pieces of ranks and files are named after their end cells, the lower
or left one first: ``line a1-c1`` (horizontal) and ``line a1-a3`` (vertical). Irregular areas are
numbered: ``region N`` and ``cage N``, numbered from 1 in the order of their first cell when
the board is read rank by rank from ``a1`` (a1, b1, ..., i1, a2, ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..geometry import Cells
from ..squares import parse_square, square_name


def line_name(cells: Cells) -> str:
    """``line a1-c1``: a straight piece of a rank or file named after its two end cells."""
    return f"line {cells[0]}-{cells[-1]}"


def _reading_key(cell: str) -> tuple[int, int]:
    f, r = parse_square(cell)
    return r, f


def runs(cells: Iterable[str], group_of: Mapping[str, object] | None = None,
         min_length: int = 1) -> dict[str, Cells]:
    """Every maximal horizontal, then vertical, run of orthogonally adjacent ``cells`` (within
    one group of ``group_of`` when given) with at least ``min_length`` cells, named by
    ``line_name``. Horizontal runs come rank by rank from the bottom, left to right; vertical
    runs file by file from the left, bottom to top."""
    cell_set = set(cells)
    found: dict[str, Cells] = {}
    for horizontal in (True, False):
        for outer in range(9):
            current: list[str] = []
            for inner in range(10):
                cell = None
                if inner < 9:
                    f, r = (inner, outer) if horizontal else (outer, inner)
                    cell = square_name(f, r)
                    if cell not in cell_set:
                        cell = None
                if current and (cell is None or (group_of is not None
                                                 and group_of[cell] != group_of[current[-1]])):
                    if len(current) >= min_length:
                        found[line_name(tuple(current))] = tuple(current)
                    current = []
                if cell is not None:
                    current.append(cell)
    return found


def numbered(prefix: str, areas: Iterable[Iterable[str]]) -> dict[str, Cells]:
    """Areas named ``prefix 1``, ``prefix 2``... in the order of their first cell read rank by
    rank from a1; each area's cells are listed in that reading order too."""
    sorted_areas = [tuple(sorted(a, key=_reading_key)) for a in areas]
    sorted_areas.sort(key=lambda a: _reading_key(a[0]))
    return {f"{prefix} {i + 1}": a for i, a in enumerate(sorted_areas)}


def parse_picture(rows: Iterable[str]) -> dict[str, str]:
    """A board drawn as text, top rank first, one character per file (spaces between are
    ignored): maps each cell to its character; ``#`` marks a square that is not a cell."""
    lines = [row.replace(" ", "") for row in rows]
    if len(lines) != 9 or any(len(line) != 9 for line in lines):
        raise ValueError("a board picture has 9 rows of 9 squares")
    result: dict[str, str] = {}
    for i, line in enumerate(lines):
        rank = 8 - i
        for f, ch in enumerate(line):
            if ch != "#":
                result[square_name(f, rank)] = ch
    return result
