"""Positions for the engine's tests: reached by random legal play from each game's start."""

from __future__ import annotations

import random

from sudoku_table.ai.engine import candidates
from sudoku_table.rules.game import Game, State, all_variants, new_game

VARIANTS = [cls.id for cls in all_variants()]
GAMES = [(cls.id, players) for cls in all_variants()
         for players in sorted({cls.min_players, cls.max_players})]
"""Every game at its smallest and largest table."""


def random_position(variant: str, players: int, plies: int, seed: int) -> tuple[Game, State]:
    """The position after up to ``plies`` random legal actions (stopping before the end)."""
    game = new_game(variant, players)
    rng = random.Random(seed)
    state = game.initial_state(None)
    for _ in range(plies):
        actions = candidates(game, state)
        after = game.apply(state, actions[rng.randrange(len(actions))])
        if after.over:
            break
        state = after
    return game, state
