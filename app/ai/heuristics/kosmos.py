"""The KOSMOS SUDOKU games: full sections and bonus areas score; a lead in a section that is
still filling is worth part of its points."""

from __future__ import annotations

from app.rules.actions import Action, Place
from app.rules.game import Game, State
from app.rules.kosmos.core import SECTION_POINTS, KosmosGame

from ..reasons import Reason
from . import Heuristic, register

LEAD_SHARE = 0.25
"""How much of a section's points a lead counts for when the section is full (by fill)."""


def section_leads(game: Game, state: State) -> list[float]:
    """Each player's expected points from sections not yet full: the leading sums get the
    section's points in proportion to how full it is (equal sums both count as leading)."""
    players = state.players
    h = [0.0] * players
    board = state.board
    first, second = SECTION_POINTS
    for cells in _sections(game):
        sums = [0] * players
        filled = 0
        for cell in cells:
            piece = board.get(cell)
            if piece is not None:
                filled += 1
                if piece.owner is not None and piece.number is not None:
                    sums[piece.owner] += piece.number
        if filled == 0 or filled == len(cells):
            continue
        share = LEAD_SHARE * filled / len(cells)
        top = max(sums)
        if top == 0:
            continue
        runner = max((x for x in sums if x != top), default=0)
        for p in range(players):
            if sums[p] == top:
                h[p] += share * first
            elif sums[p] == runner and runner > 0:
                h[p] += share * second
    return h


_SECTIONS: dict[str, tuple[tuple[str, ...], ...]] = {}


def _sections(game: Game) -> tuple[tuple[str, ...], ...]:
    found = _SECTIONS.get(game.geometry.id)
    if found is None:
        found = _SECTIONS[game.geometry.id] = tuple(game.geometry.sections.values())
    return found


class Kosmos(Heuristic):
    """Points held plus leads in sections that are still filling."""

    scale = 2.5

    def standing(self, game: Game, state: State) -> list[float]:
        h = [float(s) for s in game.scores(state)]
        for p, extra in enumerate(section_leads(game, state)):
            h[p] += extra
        return h

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Reason]:
        found = super().reasons(game, before, action, after, mover)
        if isinstance(action, Place):
            taken: list[str] = []
            kept: list[str] = []
            for name in game.geometry.sections_of[action.cell]:
                cells = game.geometry.sections[name]
                if name in after.last.completed or section_leader(after, cells) != mover:
                    continue
                (kept if section_leader(before, cells) == mover else taken).append(name)
            if taken:
                found.append(Reason("leads", {"areas": taken}))
            if kept:
                found.append(Reason("extends_lead", {"areas": kept}))
        return found


def section_leader(state: State, cells: tuple[str, ...]) -> int | None:
    """The player with the highest sum in ``cells`` alone, or None."""
    sums: dict[int, int] = {}
    for cell in cells:
        piece = state.board.get(cell)
        if piece is not None and piece.owner is not None and piece.number is not None:
            sums[piece.owner] = sums.get(piece.owner, 0) + piece.number
    if not sums:
        return None
    best = max(sums.values())
    leaders = [p for p, s in sums.items() if s == best]
    return leaders[0] if len(leaders) == 1 else None


register(KosmosGame, Kosmos())
