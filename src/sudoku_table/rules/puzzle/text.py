"""A puzzle typed from a newspaper or a book: one character per cell.

The cells are read as a puzzle is printed: the top rank first, each from left to right (on
the 9x9 board ``a9, b9, ... i9, a8, ...``; on the 6x6 ``a6 ... f6, a5, ...``). A digit is a
given, ``.`` or ``0`` an empty cell; spaces, line breaks and the ``|``, ``-`` and ``+`` of a
drawn grid are ignored, so a grid copied as printed is read as well as 81 characters in a row.
Before a typed puzzle is played it is checked: no clash, exactly one solution (the exact
solver), and its grade (None when the table's techniques cannot finish it).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..solver import SearchLimit, count_fills, find_fill
from .boards import PuzzleBoard, PuzzleError
from .generator import GENERATOR_VERSION, Puzzle
from .grid import reading_key
from .hints import clashes
from .logic import grade

IGNORED = frozenset(" \t\r\n|-+")
EMPTY = frozenset(".0")


def printed_order(board: PuzzleBoard) -> tuple[str, ...]:
    """The board's cells in the order a puzzle is printed: top rank first, left to right."""
    return tuple(sorted(board.geometry.cells, key=lambda c: (-reading_key(c)[0],
                                                             reading_key(c)[1])))


def parse_puzzle(board: PuzzleBoard, text: str) -> dict[str, int]:
    """The givens of a typed puzzle; ``PuzzleError`` naming the first bad character, or the
    count when there are too few or too many cells."""
    cells = printed_order(board)
    numbers = {str(n) for n in board.geometry.number_range}
    marks = [ch for ch in text if ch not in IGNORED]
    for position, ch in enumerate(marks, start=1):
        if ch not in numbers and ch not in EMPTY:
            raise PuzzleError("character {position} ({char!r}) is neither a number of this "
                              "board ({low}-{high}) nor . or 0 for an empty cell",
                              position=position, char=ch, low=board.geometry.numbers[0],
                              high=board.geometry.numbers[1])
    if len(marks) != len(cells):
        raise PuzzleError("a puzzle of this board has {expected} cells, this one {count}",
                          expected=len(cells), count=len(marks))
    return {cell: int(ch) for cell, ch in zip(cells, marks, strict=True) if ch not in EMPTY}


def puzzle_text(board: PuzzleBoard, givens: Mapping[str, int]) -> str:
    """The puzzle as one line, ``.`` for an empty cell (what ``parse_puzzle`` reads)."""
    return "".join(str(givens[c]) if c in givens else "." for c in printed_order(board))


def check_puzzle(board: PuzzleBoard, givens: Mapping[str, int]) -> Puzzle:
    """A brought puzzle, checked: its solution and grade (``difficulty`` None when the table's
    techniques cannot finish it). ``PuzzleError`` when givens clash, or when it has no
    solution or more than one."""
    found = clashes(board, givens)
    if found:
        clash = found[0]
        raise PuzzleError("the {number} stands more than once in {house}: {cells}",
                          number=clash.number, house=[clash.house], cells=list(clash.cells))
    try:
        count = count_fills(board.geometry, givens, limit=2)
    except SearchLimit:
        raise PuzzleError("the puzzle is too open to check (does it have enough givens?)") \
            from None
    if count == 0:
        raise PuzzleError("the puzzle has no solution")
    if count > 1:
        raise PuzzleError("the puzzle has more than one solution")
    rest = find_fill(board.geometry, givens)
    assert rest is not None
    graded = grade(board, givens)
    return Puzzle(board.key, graded.difficulty, None, dict(givens), {**givens, **rest},
                  graded.techniques, version=GENERATOR_VERSION)
