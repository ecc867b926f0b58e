"""Vierer-Dominari: be the first with four own pieces in a row, a column or a block.

Numbers 1-5. The first piece may go anywhere; every later number piece must touch a piece
already on the board along a rank or file. Blanks on dead fields count for the four, which
is what makes the game tricky: a number piece that kills the last fields of a block can win
with the blanks that follow it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import Illegal
from ..game import Piece, Said, State, register
from ..wording import N_
from .board import BLOCKS, ORTHOGONAL, RUNS_OF_FOUR
from .placement import PlacementGame, PlacementState

FOURS: tuple[tuple[str, ...], ...] = RUNS_OF_FOUR + tuple(BLOCKS.values())
"""Every group of cells that wins when one player owns all of it."""


@register
class ViererDominari(PlacementGame):
    """Four in a row, column or block wins at once; nobody able to place is a draw."""

    id: ClassVar[str] = "vierer-dominari"
    order: ClassVar[int] = 20
    name: ClassVar[str] = "Vierer-Dominari"
    summary: ClassVar[str] = N_("Place numbers 1-5 next to any piece; four own pieces in a line " \
        "or a block win.")
    high: ClassVar[int] = 5

    def placement_problem(self, state: PlacementState, player: int, cell: str) -> Illegal | None:
        board = state.board
        if not board or any(n in board for n in ORTHOGONAL[cell]):
            return None
        return Illegal(N_("{cell} is not next to any piece (along a rank or file)"), cell=cell)

    def where_rule(self, state: State) -> Said | None:
        if not state.board:
            return None
        return Said(N_("a piece must touch another one in its row or column"))

    def has_won(self, board: Mapping[str, Piece], player: int) -> bool:
        return bool(self.winning_groups(board, player))

    def winning_groups(self, board: Mapping[str, Piece], player: int) -> list[tuple[str, ...]]:
        """The runs of four and blocks that ``player`` owns completely."""
        found = []
        for group in FOURS:
            for cell in group:
                piece = board.get(cell)
                if piece is None or piece.owner != player:
                    break
            else:
                found.append(group)
        return found

    def scores(self, state: State) -> list[int]:
        """Vierer has no points: 1 for a player who owns a winning four, else 0."""
        return [1 if self.has_won(state.board, p) else 0 for p in range(self.players)]

    def extras(self, state: State) -> dict[str, Any]:
        extras = super().extras(state)
        if state.winners:
            extras["four"] = list(self.winning_groups(state.board, state.winners[0])[0])
        return extras
