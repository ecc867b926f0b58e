"""Classic-Sudoku: the 9x9 board with ranks, files and 3x3 blocks.

Sections are the 54 three-cell lines inside the blocks (``line a1-c1``, ``line a1-a3``...), bonus
areas every rank, file and block.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from ..game import register
from ..geometry import Geometry, blocks, sudoku_grid
from ..wording import N_
from .boards import runs
from .core import KosmosGame


@cache
def classic_geometry() -> Geometry:
    block_of = {c: name for name, cells in blocks(9, 9, 3, 3).items() for c in cells}
    grid = sudoku_grid("classic-sudoku", 9, 3, 3, (1, 9))
    return Geometry(
        id=grid.id, cells=grid.cells, houses=grid.houses, numbers=grid.numbers,
        sections=runs(grid.cells, block_of),
        bonus=dict(grid.houses),
        neighbours=grid.neighbours, regions=grid.regions,
    )


@register
class ClassicSudoku(KosmosGame):
    """Cards on the classic Sudoku; every three-cell line of a block scores."""

    id: ClassVar[str] = "classic-sudoku"
    order: ClassVar[int] = 50
    name: ClassVar[str] = "Classic-Sudoku"
    summary: ClassVar[str] = (N_("Take turns placing cards on the classic 9x9 Sudoku; filling a "
                              "three-cell line of a block scores it, a full rank, file or "
                              "block earns a bonus point."))

    def build_geometry(self) -> Geometry:
        return classic_geometry()
