"""Killer-Sudoku: ranks, files and 31 small cages; no 3x3 blocks.

The board is split into 19 cages of three cells (the bonus areas) and 12 cages of two, laid out
with the board's centre as a point of symmetry: turned half round, the board looks the same.
Each cage is a house and a section. Cages are numbered ``cage 1``.. in the order of their
first cell read rank by rank from a1 (see ``boards``). A printed Killer board shows sums in
its cages; they play no part in this game.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from ..game import register
from ..geometry import Geometry, grid_cells, ranks_and_files, square_neighbours
from ..wording import N_
from .boards import numbered, parse_picture
from .core import KosmosGame

CAGES_PICTURE = (
    "A A B B C D D E E",  # rank 9
    "F A G B C H D I E",
    "F G G J J H K I L",
    "M M N N * H K L L",
    "M Q Q N * n q q m",
    "l l k h * n n m m",
    "l i k h j j g g f",
    "e i d h c b g a f",
    "e e d d c b b a a",  # rank 1
)
"""The cages, top rank first: cells with the same letter form one cage. The lower half is the
upper half turned round the centre (lower-case letters); ``*`` is the centre cage."""


def cages() -> dict[str, tuple[str, ...]]:
    """The cages as ``cage N``."""
    picture = parse_picture(CAGES_PICTURE)
    groups: dict[str, list[str]] = {}
    for cell, letter in picture.items():
        groups.setdefault(letter, []).append(cell)
    return numbered("cage", groups.values())


@cache
def killer_geometry() -> Geometry:
    cells = grid_cells(9, 9)
    cage_houses = cages()
    houses = ranks_and_files(9, 9)
    houses.update(cage_houses)
    return Geometry(
        id="killer-sudoku", cells=cells, houses=houses, numbers=(1, 9),
        sections=dict(cage_houses),
        bonus={name: c for name, c in cage_houses.items() if len(c) == 3},
        neighbours=square_neighbours(cells), regions=dict(cage_houses),
    )


@register
class KillerSudoku(KosmosGame):
    """Cards on a board of small cages; each full cage scores, a full 3-cell cage earns a
    bonus point."""

    id: ClassVar[str] = "killer-sudoku"
    order: ClassVar[int] = 70
    name: ClassVar[str] = "Killer-Sudoku"
    summary: ClassVar[str] = (N_("Ranks, files and small cages of two or three cells; filling a "
                              "cage scores it, a three-cell cage also earns a bonus point."))

    def build_geometry(self) -> Geometry:
        return killer_geometry()
