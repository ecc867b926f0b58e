"""SUDOKU FAMILY: points are kept, so the score is the standing; the search sees the rest."""

from __future__ import annotations

from app.rules.actions import Action, Discard, Joker, Place
from app.rules.family import SudokuFamily
from app.rules.game import Game, State

from ..engine import action_number
from ..reasons import Reason
from . import Heuristic, register


def one_short(game: Game, state: State) -> list[str]:
    """The lines and triangles the player to move can complete now: one cell is left and
    some stone still in the bag (or a joker) may legally go there, in the geometry's order."""
    board = state.board
    reachable = {a.cell for a in game.legal_actions(state) if isinstance(a, Place | Joker)}
    found = []
    for name, cells in game.geometry.houses.items():
        gaps = [cell for cell in cells if cell not in board]
        if len(gaps) == 1 and gaps[0] in reachable:
            found.append(name)
    return found


def threat(game: Game, state: State) -> int:
    """The most points the player to move can make with one stone now (any number still in
    the bag, or a joker)."""
    mover = state.to_move
    assert mover is not None
    return max((game.apply(state, a).last.points[mover] for a in game.legal_actions(state)
                if isinstance(a, Place | Joker)), default=0)


class Family(Heuristic):
    """The points earned so far."""

    scale = 5.0

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Reason]:
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
                found.append(Reason("safe", {"player": other}))
            elif at_stake <= min(threat(game, game.apply(before, alternative))
                                 for alternative in game.legal_actions(before)
                                 if action_number(alternative) == action_number(action)):
                found.append(Reason("least_given", {"player": other, "points": at_stake}))
        else:
            made = [name for name in one_short(game, after) if name not in one_short(game, before)]
            if made:
                found.append(Reason("prepares", {"areas": made}))
        return found


register(SudokuFamily, Family())
