"""Score-Dominari: grow your own colour from your corner; the scoring table decides.

White opens on a1, Black on f6. Every later number piece must touch a piece of the mover's own
colour, diagonals included. A player who cannot place misses the turn (and places no blanks),
and may then ignore the adjacency condition for their next placement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import Illegal
from ..game import Said, State, register
from ..wording import N_
from .board import COLOUR_NAMES, KING
from .placement import PlacementGame, PlacementState
from .scoring import TABLE_PARTS, table_breakdown, table_scores

OPENINGS = ("a1", "f6")
"""Where White's and Black's first piece goes."""


@register
class ScoreDominari(PlacementGame):
    """Own-colour adjacency, corner openings, a missed turn waives adjacency once."""

    id: ClassVar[str] = "score-dominari"
    order: ClassVar[int] = 40
    score_parts: ClassVar[Mapping[str, str]] = TABLE_PARTS
    name: ClassVar[str] = "Score-Dominari"
    summary: ClassVar[str] = N_("Grow your colour from your corner; rows, columns and blocks of " \
        "one colour score.")
    waive_after_pass: ClassVar[bool] = True

    def placement_problem(self, state: PlacementState, player: int, cell: str) -> Illegal | None:
        if state.waived[player]:
            return None
        board = state.board
        if not any(piece.owner == player for piece in board.values()):
            opening = OPENINGS[player]
            if cell != opening:
                return Illegal(N_("{COLOUR_NAMES}'s first piece goes on {opening}"),
                               (opening,), COLOUR_NAMES=COLOUR_NAMES[player], opening=opening)
            return None
        for neighbour in KING[cell]:
            piece = board.get(neighbour)
            if piece is not None and piece.owner == player:
                return None
        return Illegal(N_("{cell} is not next to a piece of your own colour"), cell=cell)

    def where_rule(self, state: State) -> Said | None:
        assert isinstance(state, PlacementState)
        player = state.to_move
        if player is None or state.phase != "number":
            return None
        if state.waived[player]:
            return Said(N_("after your missed turn: any square its number fits"))
        if not any(piece.owner == player for piece in state.board.values()):
            return Said(N_("the first piece goes on {opening}"), {"opening": OPENINGS[player]})
        return Said(N_("a piece must touch one of yours, diagonals too"))

    def scores(self, state: State) -> list[int]:
        return table_scores(state.board, self.players)

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        return table_breakdown(state.board, self.players)

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, PlacementState)
        extras = super().extras(state)
        extras["adjacency_waived"] = list(state.waived)
        return extras
