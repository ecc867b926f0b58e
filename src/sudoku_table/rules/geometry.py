"""Board geometries: which sensor squares are cells, and how cells group into houses.

A geometry is pure data plus precomputed lookups. Every game in the product, square or not, is
described by one: the cells (sensor squares), the houses (sets where a number may appear once),
the sections and bonus areas that score, named neighbour relations (``orthogonal``, ``diagonal``,
and any other a board needs, such as the six directions of a hex board), coloured regions for
drawing, and drawing coordinates for boards that are not square.

Builders for the common shapes live here; variant modules compose them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .squares import FILES, parse_square, square_name

Cells = tuple[str, ...]

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))


NUMBERED_KINDS = frozenset({"line", "triangle", "cage", "region"})
"""The kinds of area the geometries number internally (``Geometry.place_name``)."""


@dataclass(frozen=True, eq=False)
class Geometry:
    """One board: cells, houses, scoring areas, neighbours and how to draw it.

    ``houses``, ``sections`` and ``bonus`` map a name (``rank 3``, ``file c``, ``block d4``,
    ``region 2``, ``cage 7``, ``line 4``...) to the cells it holds. ``neighbours`` maps a relation
    name to each cell's neighbours under it. ``regions`` are the coloured areas of the printed
    board (blocks, jigsaw regions, cages, faces, triangles). ``coords`` gives each cell an (x, y)
    drawing position in square units, y growing upwards; by default the sensor square itself.
    ``clues`` holds what is printed on the board for a house (Kakuro's run sums), by house name.
    """

    id: str
    cells: Cells
    houses: Mapping[str, Cells]
    numbers: tuple[int, int] = (1, 9)
    sections: Mapping[str, Cells] = field(default_factory=dict)
    bonus: Mapping[str, Cells] = field(default_factory=dict)
    neighbours: Mapping[str, Mapping[str, Cells]] = field(default_factory=dict)
    regions: Mapping[str, Cells] = field(default_factory=dict)
    coords: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    shape: str = "square"
    clues: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    marked: Mapping[str, Cells] = field(default_factory=dict)
    """Cells printed with a mark, by the mark's name (``dots``: SUDOKU FAMILY's black dots)."""

    def __post_init__(self) -> None:
        cell_set = frozenset(self.cells)
        if len(cell_set) != len(self.cells):
            raise ValueError(f"{self.id}: a cell is listed twice")
        for kind, areas in (("house", self.houses), ("section", self.sections),
                            ("bonus area", self.bonus), ("region", self.regions),
                            ("mark", self.marked)):
            for name, cells in areas.items():
                stray = [c for c in cells if c not in cell_set]
                if stray:
                    raise ValueError(f"{self.id}: {kind} {name!r} holds non-cells {stray}")
        stray_clues = [name for name in self.clues if name not in self.houses]
        if stray_clues:
            raise ValueError(f"{self.id}: clues for unknown houses {stray_clues}")
        set_ = object.__setattr__
        set_(self, "cell_set", cell_set)
        set_(self, "number_range", tuple(range(self.numbers[0], self.numbers[1] + 1)))
        set_(self, "houses_of", _index(self.cells, self.houses))
        set_(self, "sections_of", _index(self.cells, self.sections))
        set_(self, "bonus_of", _index(self.cells, self.bonus))
        set_(self, "regions_of", _index(self.cells, self.regions))
        peers: dict[str, frozenset[str]] = {}
        for cell in self.cells:
            group: set[str] = set()
            for house in self.houses_of[cell]:
                group.update(self.houses[house])
            group.discard(cell)
            peers[cell] = frozenset(group)
        set_(self, "peers", peers)
        if not self.coords:
            set_(self, "coords", {c: tuple(float(v) for v in parse_square(c)) for c in self.cells})

    # Declared for type checkers; filled in by __post_init__.
    cell_set: frozenset[str] = field(init=False, repr=False)
    number_range: tuple[int, ...] = field(init=False, repr=False)
    houses_of: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    sections_of: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    bonus_of: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    regions_of: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    peers: Mapping[str, frozenset[str]] = field(init=False, repr=False)

    def place_name(self, name: str) -> str:
        """An area's name as a player finds it on the board: ranks, files and blocks keep
        theirs (the board prints them); an area known only by a running number (``line 17``,
        ``triangle 3``, ``cage 7``, ``region 2``), which no board prints, is named by its
        squares: a line by its two ends (``line b2-b7``), any other area by its corner
        square, the lowest rank's leftmost (``cage a1``), as blocks are. Other text is
        returned as it is."""
        kind, _, number = name.rpartition(" ")
        if kind not in NUMBERED_KINDS or not number.isdigit():
            return name
        cells = self.houses.get(name) or self.sections.get(name) or self.bonus.get(name) \
            or self.regions.get(name)
        if not cells:
            return name
        if kind == "line":
            return f"line {cells[0]}-{cells[-1]}"
        corner = min(cells, key=lambda c: tuple(reversed(parse_square(c))))
        return f"{kind} {corner}"

    def neighbours_of(self, cell: str, kind: str = "orthogonal") -> Cells:
        """The neighbours of ``cell`` under relation ``kind`` (empty for an unknown cell)."""
        return self.neighbours.get(kind, {}).get(cell, ())

    def to_json(self) -> dict:
        """The geometry as the panel's API shows it (``GET /api/variants/ID``)."""
        return {
            "id": self.id,
            "shape": self.shape,
            "cells": list(self.cells),
            "houses": {k: list(v) for k, v in self.houses.items()},
            "sections": {k: list(v) for k, v in self.sections.items()},
            "bonus": {k: list(v) for k, v in self.bonus.items()},
            "regions": {k: list(v) for k, v in self.regions.items()},
            "coords": {c: list(xy) for c, xy in self.coords.items()},
            "numbers": list(self.numbers),
            "clues": dict(self.clues),
            "marked": {k: list(v) for k, v in self.marked.items()},
        }


def _index(cells: Iterable[str], areas: Mapping[str, Cells]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {c: [] for c in cells}
    for name, members in areas.items():
        for c in members:
            index[c].append(name)
    return {c: tuple(names) for c, names in index.items()}


# --- square grids -----------------------------------------------------------------------------

def grid_cells(width: int, height: int) -> Cells:
    """The cells of a ``width`` x ``height`` board in the bottom-left corner, rank by rank."""
    return tuple(square_name(f, r) for r in range(height) for f in range(width))


def offset(cell: str, df: int, dr: int, cells: frozenset[str] | None = None) -> str | None:
    """The square ``df`` files and ``dr`` ranks away from ``cell``; None off the grid or board."""
    f, r = parse_square(cell)
    f, r = f + df, r + dr
    if not (0 <= f < 9 and 0 <= r < 9):
        return None
    name = square_name(f, r)
    if cells is not None and name not in cells:
        return None
    return name


def square_neighbours(cells: Cells) -> dict[str, dict[str, Cells]]:
    """``orthogonal``, ``diagonal`` and ``king`` (both) neighbours of cells on a square grid."""
    cell_set = frozenset(cells)
    result: dict[str, dict[str, Cells]] = {}
    for kind, deltas in (("orthogonal", ORTHOGONAL), ("diagonal", DIAGONAL),
                         ("king", ORTHOGONAL + DIAGONAL)):
        result[kind] = {
            c: tuple(n for d in deltas if (n := offset(c, *d, cell_set)) is not None)
            for c in cells
        }
    return result


def ranks_and_files(width: int, height: int) -> dict[str, Cells]:
    """Houses ``rank N`` and ``file X`` of a ``width`` x ``height`` board."""
    houses: dict[str, Cells] = {}
    for r in range(height):
        houses[f"rank {r + 1}"] = tuple(square_name(f, r) for f in range(width))
    for f in range(width):
        houses[f"file {FILES[f]}"] = tuple(square_name(f, r) for r in range(height))
    return houses


def blocks(width: int, height: int, block_w: int, block_h: int) -> dict[str, Cells]:
    """Rectangular blocks, each named ``block XY`` after its bottom-left cell."""
    result: dict[str, Cells] = {}
    for r0 in range(0, height, block_h):
        for f0 in range(0, width, block_w):
            result[f"block {square_name(f0, r0)}"] = tuple(
                square_name(f, r) for r in range(r0, r0 + block_h) for f in range(f0, f0 + block_w)
            )
    return result


def sudoku_grid(
    id: str,
    size: int,
    block_w: int,
    block_h: int,
    numbers: tuple[int, int],
    **extra: object,
) -> Geometry:
    """A classic square Sudoku board: ranks, files and rectangular blocks as houses."""
    cells = grid_cells(size, size)
    houses = ranks_and_files(size, size)
    block_houses = blocks(size, size, block_w, block_h)
    houses.update(block_houses)
    extra.setdefault("regions", block_houses)
    return Geometry(
        id=id,
        cells=cells,
        houses=houses,
        numbers=numbers,
        neighbours=square_neighbours(cells),
        **extra,  # type: ignore[arg-type]
    )
