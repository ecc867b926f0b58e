"""Duell der Meister positions for tests, written as text on the documented gold cards.

``position("A9 a8, B3 a3")`` puts player 0's 9 on a8 and player 1's 3 on a3 next to the default
gold cards; every placed card counts as used from its player's stack. ``SOLUTION`` is one
complete fill around the default gold cards: taking card values from it keeps every position
legal and fillable.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.duell.game import DEFAULT_GOLD, GEOMETRY, DuellState
from app.rules.game import Piece
from app.rules.solver import find_fill

from .notation import parse_pieces

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
