"""Games played on the physical board to the end, keeping everything the table announced."""

from __future__ import annotations

import random
from typing import Any

from sudoku_table.table import Table, announce
from tests.table.helpers import lift, make_table, put
from tests.table.test_playthrough import play

FAMILIES = ("revers-dominari", "halma-dominari", "classic-sudoku", "duell-der-meister",
            "sudoku-family")
"""One game of each family (DOMINARI twice: its placement games flip, Halma moves)."""

NAMES = ["Anna", "Ben", "Cleo", "Dora"]


def play_to_the_end(variant: str, players: int | None = None, seed: int = 1,
                    max_actions: int = 400, computers: dict[int, str] | None = None,
                    ) -> tuple[list[announce.Announcement], Table]:
    """A random legal game of ``variant`` made on the board as players make it, to its end;
    every announcement the table made, and the table (still open: close it)."""
    table, clock, _ = make_table()
    said: list[announce.Announcement] = []
    table.announcer.listen(said.append)
    table.new_game(variant, players, names=NAMES[:players or 2], computers=computers)
    companion: Any = table._companion
    table.set_board(list(companion.setup))
    rng = random.Random(seed)
    for _ in range(max_actions):
        state = companion.state
        if state.over:
            break
        actions = list(companion.game.legal_actions(state))
        action = rng.choice(actions)
        play(table, clock, action, state.to_move)
        for square in companion.state.last.flipped:
            lift(table, clock, square)
            put(table, clock, square)
    assert companion.state.over, f"{variant} did not end within {max_actions} actions"
    return said, table
