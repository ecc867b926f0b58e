"""Revers-Dominari: enclose opposing pieces and turn them over.

A number piece must touch an opposing piece along a rank or file and enclose at least one
opposing piece in one of three ways, all judged on the board before anything turns over (no
chain reactions): a line, across the corner, or a double pair in any 2x2 square. Blanks are
pieces of a colour; an own-colour blank encloses like a new piece, an opposing-colour blank
never turns anything over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..errors import Illegal
from ..game import PLACEMENT_SIGNALS, Piece, Said, State, register
from ..wording import N_
from .board import CELLS, DIAGONAL_DIRECTIONS, ORTHOGONAL, ORTHOGONAL_DIRECTIONS, step
from .placement import PlacementGame, PlacementState
from .scoring import TABLE_PARTS, table_breakdown, table_scores


def _ray(cell: str, df: int, dr: int) -> tuple[str, ...]:
    cells = []
    here = step(cell, df, dr)
    while here is not None:
        cells.append(here)
        here = step(here, df, dr)
    return tuple(cells)


RAYS: dict[str, tuple[tuple[str, ...], ...]] = {
    c: tuple(r for d in ORTHOGONAL_DIRECTIONS if len(r := _ray(c, *d)) >= 2) for c in CELLS
}
"""From each cell, the cells in each orthogonal direction (only rays long enough to enclose)."""

CORNERS: dict[str, tuple[tuple[str, str, str], ...]] = {
    c: tuple((q, a, b) for df, dr in DIAGONAL_DIRECTIONS
             if (q := step(c, df, dr)) is not None
             for a, b in ((step(c, df, 0), step(c, 0, dr)),)
             if a is not None and b is not None)
    for c in CELLS
}
"""From each cell: a diagonal neighbour Q and the two cells next to both."""

PAIRS: dict[str, tuple[tuple[str, str, str], ...]] = {
    c: tuple((q, a, b) for df, dr in ORTHOGONAL_DIRECTIONS
             if (q := step(c, df, dr)) is not None
             for sf, sr in ((dr, df), (-dr, -df))
             if (a := step(c, sf, sr)) is not None and (b := step(q, sf, sr)) is not None)
    for c in CELLS
}
"""From each cell: an orthogonal neighbour Q and the two cells completing a 2x2 square."""


def enclosures(board: Mapping[str, Piece], cell: str, player: int) -> frozenset[str]:
    """The opposing pieces a new piece of ``player`` on ``cell`` encloses, judged on ``board``
    as it stands (before any flip)."""
    found: set[str] = set()

    def owner(c: str) -> int | None:
        piece = board.get(c)
        return None if piece is None else piece.owner

    for ray in RAYS[cell]:
        run: list[str] = []
        for c in ray:
            who = owner(c)
            if who is None:
                break
            if who == player:
                found.update(run)
                break
            run.append(c)
    for q, a, b in CORNERS[cell]:
        if owner(q) == player:
            for c in (a, b):
                who = owner(c)
                if who is not None and who != player:
                    found.add(c)
    for q, a, b in PAIRS[cell]:
        if owner(q) == player:
            wa, wb = owner(a), owner(b)
            if wa is not None and wb is not None and wa != player and wb != player:
                found.update((a, b))
    return frozenset(found)


@register
class ReversDominari(PlacementGame):
    """Enclose and flip; blanks of either colour; the scoring table decides."""

    id: ClassVar[str] = "revers-dominari"
    order: ClassVar[int] = 30
    score_parts: ClassVar[Mapping[str, str]] = TABLE_PARTS
    name: ClassVar[str] = "Revers-Dominari"
    summary: ClassVar[str] = N_("Enclose opposing pieces to turn them over; own rows, columns " \
        "and blocks score.")
    any_colour_blanks: ClassVar[bool] = True
    signals: ClassVar[tuple[str, ...]] = (*PLACEMENT_SIGNALS, "flip", "setup")

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        """The central block: White 1 on c3 and 4 on d4, Black 2 on d3 and 3 on c4."""
        return {"c3": Piece(0, 1), "d3": Piece(1, 2), "c4": Piece(1, 3), "d4": Piece(0, 4)}

    def placement_problem(self, state: PlacementState, player: int, cell: str) -> Illegal | None:
        board = state.board
        for neighbour in ORTHOGONAL[cell]:
            piece = board.get(neighbour)
            if piece is not None and piece.owner is not None and piece.owner != player:
                break
        else:
            return Illegal(N_("{cell} is not next to any opposing piece (along a rank or file)"),
                           cell=cell)
        if not enclosures(board, cell, player):
            return Illegal(N_("a piece on {cell} encloses no opposing piece"), cell=cell)
        return None

    def where_rule(self, state: State) -> Said | None:
        return Said(N_("a piece must touch an opposing one in its row or column and enclose "
                       "at least one"))

    def enclosed(self, board: Mapping[str, Piece], cell: str, player: int) -> frozenset[str]:
        return enclosures(board, cell, player)

    def scores(self, state: State) -> list[int]:
        return table_scores(state.board, self.players)

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        return table_breakdown(state.board, self.players)
