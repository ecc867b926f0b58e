"""A hint: the best action the engine finds for the mover, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sudoku_table.rules.actions import Action
from sudoku_table.rules.game import Game, State

from .engine import Budget, decide
from .heuristics import heuristic_for
from .reasons import Motive


@dataclass(frozen=True, slots=True)
class Advice:
    """The action to play, the reasons it is good (what it really does, first), and the
    mover's estimated chance to win after it (0..1)."""

    action: Action
    reasons: tuple[Motive, ...] = field(default_factory=tuple)
    chance: float = 0.0

    def to_json(self, seats: tuple[str, ...] = ()) -> dict[str, Any]:
        return {"action": self.action.to_json(),
                "reasons": [r.to_json(seats) for r in self.reasons],
                "chance": round(self.chance, 3)}


def advise(game: Game, state: State, *, hand: int | None = None, seed: int = 0,
           budget: Budget | None = None) -> Advice:
    """The ``strong`` level's action for the mover, with its reasons: the points it earns and
    the areas it completes, the pieces it flips, the threat it blocks, and so on, each taken
    from what ``apply`` really does. ``EngineError`` as for ``choose``."""
    decision = decide(game, state, level="strong", seed=seed, hand=hand, budget=budget)
    mover = state.to_move
    assert mover is not None
    after = game.apply(state, decision.action)
    reasons = list(heuristic_for(game).reasons(game, state, decision.action, after, mover))
    chance = decision.values[mover]
    reasons.append(Motive("chance", {"percent": round(100 * chance)}))
    return Advice(decision.action, tuple(reasons), chance)
