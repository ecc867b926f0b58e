"""SUDOKU FAMILY: the points earned, plus what the player to move can complete next.

Points go to whoever places the stone that completes a triangle or a line, and two players place
in pairs (A, B, B, A, A, ...), so a position is only as good as the points it leaves within
reach of the next stone. The standing of the player to move adds the points their next stone
completes at best, averaged over the stones still in the bag (the placement rules and the house
rule decide where each number may go; a stone that fits nowhere is a joker for half). Every
other standing is its points. A search leaf reached after the mover's own stone therefore shows
an open line or triangle handed to the opponent as the opponent's, and one kept for the mover's
second stone of the pair as the mover's.
"""

from __future__ import annotations

from app.rules.actions import Joker, Place
from app.rules.family import TRIANGLE_POINTS, SudokuFamily, joker_points
from app.rules.game import Game, State

from . import Heuristic, register

Areas = dict[str, tuple[tuple[tuple[str, ...], int], ...]]
_AREAS: dict[str, Areas] = {}


def areas_of(game: Game) -> Areas:
    """For every cell, each house through it as (its other cells, the points completing it
    gives: a triangle 6, a line its cell count); worked out once per board."""
    known = _AREAS.get(game.geometry.id)
    if known is not None:
        return known
    geometry = game.geometry
    found: Areas = {}
    for cell in geometry.cells:
        areas = []
        for house in geometry.houses_of[cell]:
            cells = geometry.houses[house]
            points = TRIANGLE_POINTS if house in geometry.regions else len(cells)
            areas.append((tuple(c for c in cells if c != cell), points))
        found[cell] = tuple(areas)
    _AREAS[geometry.id] = found
    return found


def completes(game: Game, state: State, cell: str) -> int:
    """The points a stone placed on the empty ``cell`` would complete (a joker gets half)."""
    board = state.board
    return sum(points for others, points in areas_of(game)[cell]
               if all(c in board for c in others))


def next_stone(game: Game, state: State) -> float:
    """The points the player to move completes with their next stone, at best, averaged over
    the numbers still in the bag (each stone equally likely)."""
    mover = state.to_move
    if state.over or mover is None:
        return 0.0
    supply = game.hand_supply(state, mover)
    if not supply:
        return 0.0
    best: dict[int, int] = {}
    looked: dict[str, int] = {}
    for action in game.legal_actions(state):
        if not isinstance(action, Place | Joker):  # pragma: no cover - the only kinds
            continue
        points = looked.get(action.cell)
        if points is None:
            points = looked[action.cell] = completes(game, state, action.cell)
        if isinstance(action, Joker):
            points = joker_points(points)
        if points > best.get(action.number, 0):
            best[action.number] = points
    total = sum(supply.values())
    return sum(count * best.get(number, 0) for number, count in supply.items()) / total


class Family(Heuristic):
    """The points earned so far; the player to move adds what their next stone completes,
    on average over the bag (``next_stone``)."""

    scale = 5.0

    def standing(self, game: Game, state: State) -> list[float]:
        h = [float(s) for s in game.scores(state)]
        if not state.over and state.to_move is not None:
            h[state.to_move] += next_stone(game, state)
        return h


register(SudokuFamily, Family())
