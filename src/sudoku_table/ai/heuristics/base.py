"""The plain heuristic every family's own builds on, and the registry that finds a game's.

A game without a heuristic of its own uses ``PLAIN``: its scores as its standing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sudoku_table.rules.actions import Action, Discard, Joker, Place
from sudoku_table.rules.game import Game, State

from ..reasons import Motive


class Heuristic:
    """The plain heuristic: the score is the standing; reasons are points won and given."""

    scale: float = 3.0
    """How many units of standing make a clear lead (the softness of ``values``)."""
    search: str = "mcts"
    """How the ``strong`` level searches this family: ``"mcts"`` (the tree search), or
    ``"expectimax"`` (every action one look ahead, then the best of them against each card the
    next player may hold, averaged by how likely the card is; ``engine.expectimax``)."""
    measure: str = "points"
    """What a review counts a move's worth in (``sudoku_table.ai.review``): ``"points"`` where the
    game is won by points (the margin over the best other player, points to come included),
    ``"markers"`` likewise for Duell's markers, ``"chance"`` where it is won by reaching a goal and
    nothing is counted on the way (the estimated chance to win)."""

    def standing(self, game: Game, state: State) -> list[float]:
        """Each player's standing in ``state``, about in points."""
        return [float(s) for s in game.scores(state)]

    def values(self, game: Game, state: State) -> list[float]:
        """Each player's chance to win, estimated: exact once the game is over, else a
        soft-max of the standings."""
        players = state.players
        if state.over:
            if not state.winners:
                return [1.0 / players] * players
            share = 1.0 / len(state.winners)
            return [share if p in state.winners else 0.0 for p in range(players)]
        h = self.standing(game, state)
        top = max(h)
        weights = [math.exp((x - top) / self.scale) for x in h]
        total = sum(weights)
        return [w / total for w in weights]

    def margin(self, game: Game, state: State, player: int) -> float:
        """``player``'s standing minus the best other standing (a won game is +inf; in a game
        for one, the standing itself)."""
        if state.over:
            if player in state.winners:
                return math.inf if len(state.winners) == 1 else 0.0
            return -math.inf
        h = self.standing(game, state)
        return h[player] - max((x for p, x in enumerate(h) if p != player), default=0.0)

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        """Why ``action`` by ``mover`` is good: what it really did (``after.last``)."""
        found: list[Motive] = []
        if after.over and after.winners == (mover,):
            found.append(Motive("wins"))
        if isinstance(action, Discard):
            found.append(Motive("set_aside", {"number": action.number}))
        if isinstance(action, Place) and action.number is not None and \
                sum(1 for a in game.legal_actions(before)
                    if isinstance(a, Place) and a.number == action.number) == 1:
            found.append(Motive("only_place", {"number": action.number}))
        if isinstance(action, Joker):
            found.append(Motive("joker", {"number": action.number}))
        found.extend(points_reasons(game, after, mover))
        return found


def points_reasons(game: Game, after: State, mover: int) -> list[Motive]:
    """Points the last action gave the mover (with the areas it completed) and the others."""
    found: list[Motive] = []
    points: Sequence[int] = after.last.points
    if points and points[mover] > 0:
        if after.last.completed:
            found.append(Motive("points", {"points": points[mover],
                                           "areas": list(after.last.completed)}))
        else:
            found.append(Motive("points_plain", {"points": points[mover]}))
    for p, got in enumerate(points):
        if p != mover and got > 0:
            found.append(Motive("gives", {"player": p, "points": got}))
    return found


HEURISTICS: dict[type[Game], Heuristic] = {}
"""The heuristic of each rules class that has one of its own (its subclasses share it)."""


def register(rules: type[Game], heuristic: Heuristic) -> None:
    """Use ``heuristic`` for ``rules`` and its subclasses; ``ValueError`` if ``rules`` has
    one already."""
    if rules in HEURISTICS:
        raise ValueError(f"{rules.__name__} has a heuristic already")
    HEURISTICS[rules] = heuristic


def heuristic_for(game: Game) -> Heuristic:
    """The heuristic of ``game``'s family (the nearest rules class with one registered)."""
    for cls in type(game).__mro__:
        if cls in HEURISTICS:
            return HEURISTICS[cls]
    return PLAIN


PLAIN = Heuristic()

