"""Kakuro: white cells in runs; every run is a house, a section, and from four cells a bonus.

The board is the sensor grid with its left file and top rank black (they carry the printed
clues) and a pattern of black squares inside, symmetric about the centre: 50 white cells in
14 horizontal and 16 vertical runs of two to five cells. Black squares are not cells.

Runs are houses named ``line N``, numbered from 1: first the horizontal runs rank by rank from
the bottom, each left to right, then the vertical runs file by file from the left, each bottom
to top (see ``boards.runs``). Each run's clue is printed on the black square just left of a
horizontal run or just above a vertical one; the clues are the sums of ``SOLUTION``, a complete
legal fill, so the board can always be filled exactly.

Option ``clues``: ``"A"`` ignores the clues. ``"B"``: a clue is the largest sum its run may
hold (a card may not push a run over it), and the card that fills a run to exactly its clue
earns its placer one bonus point more (``line N exact``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from ..errors import Illegal
from ..game import Board, register
from ..geometry import Geometry, square_neighbours
from ..squares import parse_square, square_name
from ..wording import N_
from .boards import parse_picture, runs
from .core import KosmosGame

SOLUTION = (
    "# # # # # # # # #",  # rank 9
    "# 8 2 4 # # 9 3 8",
    "# 9 6 7 5 # 4 6 2",
    "# # 4 2 9 7 5 # #",
    "# 4 9 # 4 9 7 1 6",
    "# 8 7 3 6 1 # 7 8",
    "# # # 6 1 3 7 2 #",
    "# 5 8 2 # 4 9 3 2",
    "# 2 5 4 # # 6 8 1",  # rank 1
)
"""The white cells (``#`` is black) with a complete legal fill; the clues are its run sums."""

BONUS_LENGTH = 4
"""Runs of this many cells or more are bonus areas."""

EXACT = " exact"
"""Suffix of the award for filling a run exactly to its clue (option B): ``line 7 exact``."""


def solution() -> dict[str, int]:
    """``SOLUTION`` as cell -> number."""
    return {c: int(v) for c, v in parse_picture(SOLUTION).items()}


def _reading_order(cells: list[str]) -> tuple[str, ...]:
    return tuple(sorted(cells, key=lambda c: parse_square(c)[::-1]))


def clue_square(cells: tuple[str, ...]) -> tuple[str, str]:
    """Where a run's clue is printed and which way the run goes from there."""
    f, r = parse_square(cells[0])
    if parse_square(cells[-1])[1] == r:
        return square_name(f - 1, r), "across"
    top_f, top_r = parse_square(cells[-1])
    return square_name(top_f, top_r + 1), "down"


@cache
def kakuro_geometry() -> Geometry:
    fill = solution()
    cells = _reading_order(list(fill))
    lines = runs(cells)
    houses = {f"line {i + 1}": members for i, members in enumerate(lines.values())}
    clues: dict[str, Mapping[str, object]] = {}
    for name, members in houses.items():
        square, direction = clue_square(members)
        clues[name] = {"sum": sum(fill[c] for c in members), "square": square,
                       "direction": direction}
    return Geometry(
        id="kakuro", cells=cells, houses=houses, numbers=(1, 9),
        sections={n: c for n, c in houses.items() if len(c) >= 2},
        bonus={n: c for n, c in houses.items() if len(c) >= BONUS_LENGTH},
        neighbours=square_neighbours(cells), regions={}, clues=clues,
    )


@register
class Kakuro(KosmosGame):
    """Cards on a Kakuro grid; every run scores, long runs earn a bonus; with option B the
    clues cap each run's sum and an exact sum earns one point more."""

    id: ClassVar[str] = "kakuro"
    order: ClassVar[int] = 80
    name: ClassVar[str] = "Kakuro"
    summary: ClassVar[str] = (N_("White runs of a Kakuro grid; filling a run scores it, a run of "
                              "four or more earns a bonus point. Option B: clues cap the sums, "
                              "an exact sum earns one more."))
    option_defaults: ClassVar[Mapping[str, Any]] = {"clues": "B"}
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {"clues": ("A", "B")}
    option_labels: ClassVar[Mapping[str, str]] = {"clues": N_("Kakuro clues")}
    choice_labels: ClassVar[Mapping[str, Mapping[Any, str]]] = {
        "clues": {"A": N_("A: clues ignored"), "B": N_("B: a run may not pass its clue")}}

    def build_geometry(self) -> Geometry:
        return kakuro_geometry()

    @property
    def capped(self) -> bool:
        """Whether the clues count (option B)."""
        return bool(self.options["clues"] == "B")

    def clue(self, run: str) -> int:
        return int(self.geometry.clues[run]["sum"])  # type: ignore[call-overload]

    def placement_problem(self, board: Board, cell: str, number: int) -> Illegal | None:
        if not self.capped:
            return None
        for run in self.geometry.houses_of[cell]:
            filled = [c for c in self.geometry.houses[run] if c in board]
            total = number + sum(board[c].number or 0 for c in filled)
            if total > self.clue(run):
                return Illegal(N_("{number} would bring {run} to {total}, over its clue {value}"),
                               tuple(filled),
                               number=number,
                               run=run,
                               total=total,
                               value=self.clue(run))
        return None

    def extra_awards(self, before: Board, after: Board, cell: str) -> list[str]:
        if not self.capped:
            return []
        awards = []
        for run in self.geometry.houses_of[cell]:
            members = self.geometry.houses[run]
            if all(c in after for c in members) and \
                    sum(after[c].number or 0 for c in members) == self.clue(run):
                awards.append(run + EXACT)
        return awards
