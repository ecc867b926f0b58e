"""The scoring table shared by Revers- and Score-Dominari (docs/RULINGS.md).

Per player: one point per own number piece; a complete printed 2x2 block of only own pieces
scores 2 when all of them are number pieces and 1 when it holds a blank; a complete rank or file
of only own pieces scores 3, or 2 with a blank among them. Scores come from the position alone,
so the panel can show a running score at every moment.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..game import Piece
from ..wording import N_
from .board import BLOCKS, LINES

BLOCK_POINTS = (2, 1)
"""A single-coloured block: (all number pieces, with a blank)."""
LINE_POINTS = (3, 2)
"""A single-coloured rank or file: (all number pieces, with a blank)."""


def _area_points(board: Mapping[str, Piece], cells: Iterable[str], points: tuple[int, int],
                 totals: list[int]) -> None:
    owner: int | None = None
    with_blank = False
    for cell in cells:
        piece = board.get(cell)
        if piece is None or piece.owner is None:
            return
        if owner is None:
            owner = piece.owner
        elif piece.owner != owner:
            return
        with_blank = with_blank or piece.number is None
    if owner is not None:
        totals[owner] += points[1] if with_blank else points[0]


TABLE_PARTS: Mapping[str, str] = {
    "pieces": N_("number pieces"),
    "blocks": N_("single-coloured blocks"),
    "lines": N_("single-coloured rows and columns"),
}
"""The parts of ``table_breakdown``, with their English names (the games that count so
declare them as their ``score_parts``)."""


def table_breakdown(board: Mapping[str, Piece], players: int = 2) -> list[dict[str, int]]:
    """Every player's points for ``board`` by the table's parts: own number pieces,
    single-coloured blocks, single-coloured ranks and files."""
    pieces = [0] * players
    for piece in board.values():
        if piece.number is not None and piece.owner is not None:
            pieces[piece.owner] += 1
    blocks, lines = [0] * players, [0] * players
    for cells in BLOCKS.values():
        _area_points(board, cells, BLOCK_POINTS, blocks)
    for cells in LINES.values():
        _area_points(board, cells, LINE_POINTS, lines)
    return [{"pieces": pieces[p], "blocks": blocks[p], "lines": lines[p]}
            for p in range(players)]


def table_scores(board: Mapping[str, Piece], players: int = 2) -> list[int]:
    """Every player's points for ``board`` under the scoring table."""
    totals = [0] * players
    for piece in board.values():
        if piece.number is not None and piece.owner is not None:
            totals[piece.owner] += 1
    for cells in BLOCKS.values():
        _area_points(board, cells, BLOCK_POINTS, totals)
    for cells in LINES.values():
        _area_points(board, cells, LINE_POINTS, totals)
    return totals
