"""The short text the rules tests write positions in: ``"W5 a1, Bx f6"``.

Each item is a piece letter (its owner, by the letters a test module passes), then its number or
``x`` for a blank, then the cell. Items are separated by commas or new lines.
"""

from __future__ import annotations

from collections.abc import Mapping

from sudoku_table.rules.game import Piece


def parse_pieces(text: str, owners: Mapping[str, int | None]) -> dict[str, Piece]:
    """The board ``text`` describes; a cell listed twice fails the test that wrote it."""
    board: dict[str, Piece] = {}
    for item in text.replace("\n", ",").split(","):
        item = item.strip()
        if not item:
            continue
        piece, cell = item.split()
        number = None if piece[1:] == "x" else int(piece[1:])
        assert cell not in board, f"{cell} listed twice"
        board[cell] = Piece(owners[piece[0]], number)
    return board
