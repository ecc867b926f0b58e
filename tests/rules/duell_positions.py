"""Duell der Meister positions for tests, written as text on the documented gold cards.

``position("A9 a8, B3 a3")`` puts player 0's 9 on a8 and player 1's 3 on a3 next to the default
gold cards; every placed card counts as used from its player's stack. ``SOLUTION`` is one
complete fill around the default gold cards: taking card values from it keeps every position
legal and fillable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sudoku_table.rules.duell.game import DEFAULT_GOLD, GEOMETRY, DuellState
from sudoku_table.rules.game import Piece
from sudoku_table.rules.solver import find_fill

from .notation import parse_pieces

# The rule book's worked example, rebuilt on the default gold cards (a5 and a9 are gold): the
# blue player (0) is about to put a 9 on a8, the last empty cell of file a, where blue then
# holds 1, 6, 8 and 9 against red's 3, 2 and 7. In block a7 blue holds 8, 2 and 7 against red's
# 1, 5 and 6; after the 9 only c8 stays empty there, and only a 3 fits it.
BOOK = "A1 a1, A6 a2, B3 a3, B2 a4, B7 a6, A8 a7, B1 b7, B5 b8, A2 b9, A7 c7, B6 c9"

BOOK_RECORD: dict[str, Any] = {
    "variant": "duell-der-meister", "players": 2,
    "actions": [
        {"type": "place", "cell": "a1", "number": 1}, {"type": "place", "cell": "a3", "number": 3},
        {"type": "place", "cell": "a2", "number": 6}, {"type": "place", "cell": "a4", "number": 2},
        {"type": "place", "cell": "a7", "number": 8}, {"type": "place", "cell": "a6", "number": 7},
        {"type": "place", "cell": "b9", "number": 2}, {"type": "place", "cell": "b7", "number": 1},
        {"type": "place", "cell": "c7", "number": 7}, {"type": "place", "cell": "b8", "number": 5},
        {"type": "place", "cell": "e5", "number": 3}, {"type": "place", "cell": "c9", "number": 6},
        {"type": "place", "cell": "a8", "number": 9},
    ],
}
"""The same example as a record played from the start: ``BOOK`` card by card, turn about, then
the blue 9 (blue's 3 on e5, far from file a and block a7, evens the count of cards so that the
9 falls on blue's turn)."""

_FILL = find_fill(GEOMETRY, DEFAULT_GOLD)
assert _FILL is not None
SOLUTION: dict[str, int] = {**DEFAULT_GOLD, **_FILL}


def cards(text: str) -> dict[str, Piece]:
    """Parse ``"A9 a8, B3 a3"`` (``A`` player 0, ``B`` player 1) into pieces."""
    board = parse_pieces(text, {"A": 0, "B": 1})
    assert not set(board) & set(DEFAULT_GOLD), "a card listed on a gold card's cell"
    return board


def from_solution(owners: Mapping[str, int]) -> str:
    """Text for cards on the given cells with their ``SOLUTION`` values."""
    return ", ".join(f"{'AB'[p]}{SOLUTION[c]} {c}" for c, p in owners.items())


def position(text: str = "", to_move: int = 0, markers: Mapping[str, int] | None = None,
             extra_used: Mapping[int, Mapping[int, int]] | None = None) -> DuellState:
    """A position with the default gold cards, ``text``'s cards, ``markers`` already awarded,
    and ``extra_used[player][number]`` more cards used (set aside) beyond those on the board."""
    board: dict[str, Piece] = {c: Piece(None, n) for c, n in DEFAULT_GOLD.items()}
    board.update(cards(text))
    used = [[0] * 10, [0] * 10]
    for piece in board.values():
        if piece.owner is not None and piece.number is not None:
            used[piece.owner][piece.number] += 1
    for player, counts in (extra_used or {}).items():
        for number, count in counts.items():
            used[player][number] += count
    return DuellState(players=2, board=board, to_move=to_move, markers=dict(markers or {}),
                      used=tuple(tuple(u) for u in used))


def all_used_but(left: Mapping[int, int]) -> dict[int, int]:
    """``extra_used`` counts that leave a player only the cards ``left`` ({number: count}),
    counting nothing on the board (use with an otherwise empty position for that player)."""
    return {n: 4 - left.get(n, 0) for n in range(1, 10)}
