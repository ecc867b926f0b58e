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

from sudoku_table.rules.actions import Action, Discard, Joker, Place, action_number
from sudoku_table.rules.family import TRIANGLE_POINTS, SudokuFamily, joker_points, mover_of
from sudoku_table.rules.game import Game, State

from ..reasons import Motive
from .base import Heuristic, register

_HOUSES: dict[str, tuple[tuple[str, tuple[str, ...], int], ...]] = {}


def short_houses(game: Game, state: State) -> list[tuple[str, str, int]]:
    """The houses one stone from full: name, empty cell and the points a stone there gets, in
    the geometry's order."""
    houses = _HOUSES.get(game.geometry.id)
    if houses is None:
        geometry = game.geometry
        houses = _HOUSES[geometry.id] = tuple(
            (name, cells, TRIANGLE_POINTS if name in geometry.regions else len(cells))
            for name, cells in geometry.houses.items())
    board = state.board
    found: list[tuple[str, str, int]] = []
    for name, cells, points in houses:
        empty = None
        for cell in cells:
            if cell not in board:
                if empty is not None:
                    break
                empty = cell
        else:
            if empty is not None:
                found.append((name, empty, points))
    return found


def one_short(game: Game, state: State) -> dict[str, int]:
    """The empty cells that complete a house, with the points a stone placed there gets."""
    found: dict[str, int] = {}
    for _, cell, points in short_houses(game, state):
        found[cell] = found.get(cell, 0) + points
    return found


def best_completions(game: Game, state: State) -> dict[int, tuple[int, int]]:
    """Per number the player to move may place now: the points of its best placement and of
    its best one on another cell (a joker counts half, rounded up, as the rules score it).
    Numbers that complete nothing are left out."""
    scoring = one_short(game, state)
    best: dict[int, tuple[int, int]] = {}
    if not scoring:  # no empty cell completes anything: skip listing the placements
        return best
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
    return best


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
    best = best_completions(game, state)
    if not best:
        return 0.0, 0.0
    total = sum(supply.values())
    firsts = sum(count * best.get(n, (0, 0))[0] for n, count in supply.items()) / total
    seconds = sum(count * best.get(n, (0, 0))[1] for n, count in supply.items()) / total
    return firsts, seconds


def areas_to_complete(game: Game, state: State) -> list[str]:
    """The lines and triangles the player to move can complete now: one cell is left and
    some stone still in the bag (or a joker) may legally go there, in the geometry's order."""
    short = short_houses(game, state)
    if not short:
        return []
    reachable = {a.cell for a in game.legal_actions(state) if isinstance(a, Place | Joker)}
    return [name for name, cell, _ in short if cell in reachable]


def threat(game: Game, state: State) -> int:
    """The most points the player to move can make with one stone now (any number still in
    the bag, or a joker)."""
    return max((first for first, _ in best_completions(game, state).values()), default=0)


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

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        """Points, jokers, and what the stone leaves for the next stone: nothing one stone
        from full when another player draws next, or areas the mover can complete with the
        second stone of their pair."""
        found = super().reasons(game, before, action, after, mover)
        if after.over or isinstance(action, Discard) or after.to_move is None:
            return found
        if after.to_move != mover:
            other = after.to_move
            at_stake = threat(game, after)
            if at_stake == 0:
                found.append(Motive("safe", {"player": other}))
            elif at_stake <= min(threat(game, game.apply(before, alternative))
                                 for alternative in game.legal_actions(before)
                                 if action_number(alternative) == action_number(action)):
                found.append(Motive("least_given", {"player": other, "points": at_stake}))
        else:
            made = [name for name in areas_to_complete(game, after)
                    if name not in areas_to_complete(game, before)]
            if made:
                found.append(Motive("prepares", {"areas": made}))
        return found


register(SudokuFamily, Family())
