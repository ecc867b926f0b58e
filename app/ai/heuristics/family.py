"""SUDOKU FAMILY: the points earned, plus what the next two stones can complete.

Points go to whoever places the stone that completes a triangle or a line, and two players place
in pairs (A, B, B, A, A, ...), so a position is only as good as the points it leaves within
reach of the stones that follow. The standing of the player to move adds the points their next
stone completes at best, and the standing of whoever places the stone after it (the same player
on the first stone of a pair, else the next player) adds the best placement on another cell;
both are averaged over the stones still in the bag (the placement rules and the house rule
decide where each number may go; a stone that fits nowhere is a joker for half). A search leaf
reached after the mover's second stone thus shows an open line or triangle as the opponent's,
one left after the first stone as the mover's own.
"""

from __future__ import annotations

from app.rules.actions import Joker, Place
from app.rules.family import TRIANGLE_POINTS, SudokuFamily, joker_points, mover_of
from app.rules.game import Game, State

from . import Heuristic, register

_HOUSES: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = {}


def one_short(game: Game, state: State) -> dict[str, int]:
    """The empty cells that complete a house, with the points a stone placed there gets."""
    houses = _HOUSES.get(game.geometry.id)
    if houses is None:
        geometry = game.geometry
        houses = _HOUSES[geometry.id] = tuple(
            (cells, TRIANGLE_POINTS if name in geometry.regions else len(cells))
            for name, cells in geometry.houses.items())
    board = state.board
    found: dict[str, int] = {}
    for cells, points in houses:
        empty = None
        for cell in cells:
            if cell not in board:
                if empty is not None:
                    break
                empty = cell
        else:
            if empty is not None:
                found[empty] = found.get(empty, 0) + points
    return found


def within_reach(game: Game, state: State) -> tuple[float, float]:
    """What the next stones can complete, averaged over the numbers still in the bag (each
    stone equally likely): the points of the best placement of a stone, and of the best one
    on another cell (what is left for the stone after it)."""
    mover = state.to_move
    if state.over or mover is None:
        return 0.0, 0.0
    supply = game.hand_supply(state, mover)
    if not supply:
        return 0.0, 0.0
    scoring = one_short(game, state)
    if not scoring:  # no empty cell completes anything: skip listing the placements
        return 0.0, 0.0
    best: dict[int, tuple[int, int]] = {}
    for action in game.legal_actions(state):
        if not isinstance(action, Place | Joker):  # pragma: no cover - the only kinds
            continue
        points = scoring.get(action.cell, 0)
        if isinstance(action, Joker):
            points = joker_points(points)
        if points:
            first, second = best.get(action.number, (0, 0))
            if points > first:
                best[action.number] = (points, first)
            elif points > second:
                best[action.number] = (first, points)
    total = sum(supply.values())
    firsts = sum(count * best.get(n, (0, 0))[0] for n, count in supply.items()) / total
    seconds = sum(count * best.get(n, (0, 0))[1] for n, count in supply.items()) / total
    return firsts, seconds


def next_stone(game: Game, state: State) -> float:
    """The points the player to move completes with their next stone, at best, averaged over
    the numbers still in the bag."""
    return within_reach(game, state)[0]


class Family(Heuristic):
    """The points earned so far, plus what lies within reach of the next two stones
    (``within_reach``): the player to move is credited with the best their stone completes,
    and whoever places the stone after it (the same player on the first stone of a pair) with
    the best placement on another cell."""

    scale = 5.0

    def standing(self, game: Game, state: State) -> list[float]:
        h = [float(s) for s in game.scores(state)]
        if state.over or state.to_move is None:
            return h
        first, second = within_reach(game, state)
        h[state.to_move] += first
        placed = len(state.board) + 1
        if isinstance(game, SudokuFamily) and placed < game.stones:
            h[mover_of(placed, state.players)] += second
        return h


register(SudokuFamily, Family())
