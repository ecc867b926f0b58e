"""Duell der Meister: markers held, and the houses each player leads in by how full they are."""

from __future__ import annotations

from sudoku_table.rules.actions import Action, Place
from sudoku_table.rules.duell import DuellDerMeister, DuellState, house_winner
from sudoku_table.rules.duell.game import (
    CELL_HOUSES,
    HOUSE_CELLS,
    HOUSE_NAMES,
    MARKERS_TO_WIN,
    cards_in,
)
from sudoku_table.rules.game import Game, State

from ..reasons import Motive
from .base import Heuristic, register

LEAD_SHARE = 0.5
"""What leading in an open house counts for, times how full the house is."""
CLOSE_TO_TWELVE = MARKERS_TO_WIN - 3
"""From this many markers on, a player is close to winning."""


class Duell(Heuristic):
    """Markers plus leads in open houses."""

    scale = 2.0
    measure = "markers"

    def standing(self, game: Game, state: State) -> list[float]:
        assert isinstance(state, DuellState)
        h = [float(s) for s in game.scores(state)]
        board = state.board
        markers = state.markers
        for h_index, name in enumerate(HOUSE_NAMES):
            if name in markers:
                continue
            cards: tuple[list[int], list[int]] = ([], [])
            filled = 0
            for cell in HOUSE_CELLS[h_index]:
                piece = board.get(cell)
                if piece is not None:
                    filled += 1
                    if piece.owner is not None and piece.number is not None:
                        cards[piece.owner].append(piece.number)
            if not cards[0] and not cards[1]:
                continue
            if len(cards[0]) != len(cards[1]):
                winner = 0 if len(cards[0]) > len(cards[1]) else 1
            else:
                winner = 0 if sorted(cards[0], reverse=True) > sorted(cards[1], reverse=True) \
                    else 1
            h[winner] += LEAD_SHARE * filled / 9
        return h

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        assert isinstance(before, DuellState) and isinstance(after, DuellState)
        found = [r for r in super().reasons(game, before, action, after, mover)
                 if r.code not in ("points", "points_plain")]
        won = [name for name in after.awarded if after.markers.get(name) == mover]
        if won:
            found.append(Motive("markers", {"points": len(won), "areas": won}))
        if not isinstance(action, Place) or after.over:
            return found
        other = 1 - mover
        overtaken: list[str] = []
        taken: list[str] = []
        kept: list[str] = []
        for h_index in CELL_HOUSES[action.cell]:
            name = HOUSE_NAMES[h_index]
            if name in before.markers or name in after.markers:
                continue
            cells = HOUSE_CELLS[h_index]
            if house_winner(cards_in(after.board, cells)) != mover:
                continue
            led = house_winner(cards_in(before.board, cells))
            (overtaken if led == other else kept if led == mover else taken).append(name)
        if taken:
            found.append(Motive("leads", {"areas": taken}))
        if kept:
            found.append(Motive("extends_lead", {"areas": kept}))
        if overtaken:
            found.append(Motive("overtakes", {"player": other, "areas": overtaken}))
            held = game.scores(before)[other]
            if held >= CLOSE_TO_TWELVE:
                found.append(Motive("blocks_twelve", {"player": other, "markers": held}))
        return found


register(DuellDerMeister, Duell())
