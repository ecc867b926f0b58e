"""Small helpers to write DOMINARI positions in tests as text.

``pieces("W5 a1, B3 c4, Wx e2")`` is White's 5 on a1, Black's 3 on c4 and a white blank on e2
(``x`` marks a blank). ``play`` applies actions written as in a record.
"""

from __future__ import annotations

from typing import Any

from sudoku_table.rules.actions import action_from_json
from sudoku_table.rules.game import Game, Piece, State, new_game

from .notation import parse_pieces


def pieces(text: str) -> dict[str, Piece]:
    """Parse ``"W5 a1, Bx f6"`` into a board."""
    return parse_pieces(text, {"W": 0, "B": 1})


def start(variant: str, text: str | None = None) -> tuple[Game, State]:
    """A game of ``variant`` and its initial state (from ``text``, or the default setup)."""
    game = new_game(variant)
    return game, game.initial_state(None if text is None else pieces(text))


def play(game: Game, state: State, *actions: dict[str, Any]) -> State:
    """Apply actions given as record JSON, one after another."""
    for raw in actions:
        state = game.apply(state, action_from_json(raw))
    return state


def place(cell: str, number: int) -> dict[str, Any]:
    return {"type": "place", "cell": cell, "number": number}


def blank(cell: str, owner: int | None = None) -> dict[str, Any]:
    raw: dict[str, Any] = {"type": "blank", "cell": cell}
    if owner is not None:
        raw["owner"] = owner
    return raw


def move(*path: str) -> dict[str, Any]:
    return {"type": "move", "path": list(path)}


END_TURN: dict[str, Any] = {"type": "end_turn"}


def owners(state: State) -> dict[str, int | None]:
    """Cell to owner, for comparing who holds what."""
    return {cell: piece.owner for cell, piece in state.board.items()}
