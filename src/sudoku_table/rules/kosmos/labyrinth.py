"""Labyrinth-Sudoku: ranks, files and nine winding regions of nine cells.

The regions (a jigsaw Sudoku) are laid out with the board's centre as a point of symmetry.
They are numbered ``region 1``.. in the order of their first cell read rank by rank from a1
(see ``boards``). Sections are the maximal horizontal and vertical runs of two or more cells
inside one region, named after their end cells (``line c9-e9``, ``line d8-d9``); bonus areas
are every rank, file and region.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from ..game import register
from ..geometry import Geometry, grid_cells, ranks_and_files, square_neighbours
from ..wording import N_
from .boards import numbered, parse_picture, runs
from .core import KosmosGame

REGIONS_PICTURE = (
    "G G H H H F F F F",  # rank 9
    "G G G H H H H H F",
    "G G G G E E H I F",
    "A A A E E I I I F",
    "D D A A E I I F F",
    "D A A A E E I I I",
    "D A B E E C C C C",
    "D B B B B B C C C",
    "D D D D B B B C C",  # rank 1
)
"""The regions, top rank first: cells with the same letter form one region."""


def regions() -> dict[str, tuple[str, ...]]:
    """The nine regions as ``region N``."""
    groups: dict[str, list[str]] = {}
    for cell, letter in parse_picture(REGIONS_PICTURE).items():
        groups.setdefault(letter, []).append(cell)
    return numbered("region", groups.values())


@cache
def labyrinth_geometry() -> Geometry:
    cells = grid_cells(9, 9)
    region_houses = regions()
    region_of = {c: name for name, members in region_houses.items() for c in members}
    houses = ranks_and_files(9, 9)
    houses.update(region_houses)
    return Geometry(
        id="labyrinth-sudoku", cells=cells, houses=houses, numbers=(1, 9),
        sections=runs(cells, region_of, min_length=2),
        bonus=dict(houses),
        neighbours=square_neighbours(cells), regions=dict(region_houses),
    )


@register
class LabyrinthSudoku(KosmosGame):
    """Cards on a jigsaw Sudoku; every straight run inside a region scores."""

    id: ClassVar[str] = "labyrinth-sudoku"
    order: ClassVar[int] = 60
    name: ClassVar[str] = "Labyrinth-Sudoku"
    summary: ClassVar[str] = (N_("Ranks, files and nine winding regions; filling a straight run "
                              "inside a region scores it, a full rank, file or region earns a "
                              "bonus point."))

    def build_geometry(self) -> Geometry:
        return labyrinth_geometry()
