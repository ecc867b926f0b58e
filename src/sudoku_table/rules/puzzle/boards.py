"""The boards a puzzle is made for: the classic 9x9, the 6x6 and the Labyrinth's jigsaw.

A ``PuzzleBoard`` is a geometry plus what the puzzle needs of it: which houses are lines (ranks
and files, the fish's rows and columns) and which are boxes (blocks or jigsaw regions), the name
a player sees for each house, whether the board allows symmetric givens, and the difficulties it
offers. The classic and Labyrinth geometries are the KOSMOS games' own; the 6x6 is a classic
Sudoku with 2x3 blocks on the DOMINARI board's 36 squares (a1..f6), played with the DOMINARI
stones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from ..errors import RecordError
from ..geometry import Geometry, sudoku_grid
from ..kosmos.classic import classic_geometry
from ..kosmos.labyrinth import labyrinth_geometry
from ..squares import parse_square, square_name
from ..wording import N_


class PuzzleError(RecordError):
    """A puzzle asked for or brought along that the table cannot offer (an unknown board, a
    difficulty the board does not produce, a typed puzzle with no or several solutions)."""


@cache
def six_geometry() -> Geometry:
    """The 6x6 Sudoku: ranks, files and six blocks three squares wide and two high, numbers
    1-6, on the DOMINARI board's squares a1..f6. Blocks are named after their bottom-left
    square (``block a1``, ``block d1``, ``block a3``...), as on every square board."""
    return sudoku_grid("sudoku-six", 6, 3, 2, (1, 6))


def _kind(house: str) -> str:
    """``rank``, ``file`` or ``box`` (a block or a jigsaw region)."""
    word = house.split(" ", 1)[0]
    return word if word in ("rank", "file") else "box"


def _reading_key(cell: str) -> tuple[int, int]:
    f, r = parse_square(cell)
    return r, f


def shown_names(geometry: Geometry) -> dict[str, str]:
    """The name a player sees for each house. Ranks, files and blocks keep theirs (a block is
    named after its bottom-left square, which the board shows); a jigsaw region, numbered only
    inside the code, is named after its first square read rank by rank from a1, its bottom-left
    one: ``region 1`` of the Labyrinth is shown as ``region a1``."""
    shown = {}
    for name, cells in geometry.houses.items():
        if name.startswith("region "):
            shown[name] = f"region {min(cells, key=_reading_key)}"
        else:
            shown[name] = name
    return shown


def half_turn(geometry: Geometry) -> dict[str, str] | None:
    """Each cell's partner under a half turn about the board's centre, when that turn maps every
    house onto a house (the board allows symmetric givens); None when it does not."""
    places = [parse_square(c) for c in geometry.cells]
    high_f = max(f for f, _ in places)
    high_r = max(r for _, r in places)
    low_f = min(f for f, _ in places)
    low_r = min(r for _, r in places)
    turn: dict[str, str] = {}
    for cell, (f, r) in zip(geometry.cells, places, strict=True):
        partner = square_name(high_f + low_f - f, high_r + low_r - r)
        if partner not in geometry.cell_set:
            return None
        turn[cell] = partner
    houses = {frozenset(cells) for cells in geometry.houses.values()}
    if any(frozenset(turn[c] for c in cells) not in houses for cells in houses):
        return None
    return turn


@dataclass(frozen=True, eq=False)
class PuzzleBoard:
    """A board puzzles are made for (see the module's docstring)."""

    key: str
    """``classic``, ``six`` or ``labyrinth``: the name the command line and the API use."""
    geometry: Geometry
    difficulties: tuple[int, ...]
    """The difficulties this board offers; docs/puzzles.md says why a board offers fewer."""
    shown: Mapping[str, str] = field(init=False, repr=False)
    symmetry: Mapping[str, str] | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shown", shown_names(self.geometry))
        object.__setattr__(self, "symmetry", half_turn(self.geometry))

    @property
    def size(self) -> int:
        """How many numbers (and cells per house): 9 or 6."""
        return len(self.geometry.number_range)

    def kind(self, house: str) -> str:
        """``rank``, ``file`` or ``box``."""
        return _kind(house)

    def boxes(self) -> dict[str, tuple[str, ...]]:
        """The blocks or regions by the name a player sees, in the board's order."""
        return {self.shown[name]: cells for name, cells in self.geometry.houses.items()
                if _kind(name) == "box"}


BOARD_KEYS = ("classic", "six", "labyrinth")


@cache
def board(key: str) -> PuzzleBoard:
    """The board called ``key``; ``PuzzleError`` for any other name."""
    if key == "classic":
        return PuzzleBoard("classic", classic_geometry(), (1, 2, 3, 4, 5))
    if key == "six":
        return PuzzleBoard("six", six_geometry(), SIX_DIFFICULTIES)
    if key == "labyrinth":
        return PuzzleBoard("labyrinth", labyrinth_geometry(), (1, 2, 3, 4, 5))
    raise PuzzleError(N_("no puzzle board {board} (boards: {boards})"), board=key,
                      boards=list(BOARD_KEYS))


SIX_DIFFICULTIES = (1, 2, 3, 5)
"""What the 6x6 offers. Not 4: on six-cell houses a pair or triple is almost never the hardest
step a puzzle needs (none in 6,000 carved puzzles; asked for one, the generator found none
within 400 fills for 17 of 24 seeds), while an XY-Wing often is (docs/puzzles.md)."""
