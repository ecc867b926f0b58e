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

from ..solver import SearchLimit, count_fills, first_fill
from ..wording import N_
from .boards import PuzzleBoard, PuzzleError
from .boards import board as board_named
from .generator import GENERATOR_VERSION, Puzzle
from .grid import reading_key
from .hints import clashes
from .logic import check_numbers, grade

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
            raise PuzzleError(N_("character {position} ({char!r}) is neither a number of this "
                              "board ({low}-{high}) nor . or 0 for an empty cell"),
                              position=position, char=ch, low=board.geometry.numbers[0],
                              high=board.geometry.numbers[1])
    if len(marks) != len(cells):
        raise PuzzleError(N_("a puzzle of this board has {expected} cells, this one {count}"),
                          expected=len(cells), count=len(marks))
    return {cell: int(ch) for cell, ch in zip(cells, marks, strict=True) if ch not in EMPTY}


def puzzle_text(board: PuzzleBoard, givens: Mapping[str, int]) -> str:
    """The puzzle as one line, ``.`` for an empty cell (what ``parse_puzzle`` reads)."""
    return "".join(str(givens[c]) if c in givens else "." for c in printed_order(board))


def check_puzzle(board: PuzzleBoard, givens: Mapping[str, int]) -> Puzzle:
    """A brought puzzle, checked: its solution and grade (``difficulty`` None when the table's
    techniques cannot finish it). ``PuzzleError`` when a cell or number is not the board's,
    when givens clash, or when it has no solution or more than one."""
    check_numbers(board, givens)
    found = clashes(board, givens)
    if found:
        clash = found[0]
        raise PuzzleError(N_("the {number} stands more than once in {house}: {cells}"),
                          number=clash.number, house=[clash.house], cells=list(clash.cells))
    try:
        count = count_fills(board.geometry, givens, limit=2)
    except SearchLimit:
        raise PuzzleError(N_("the puzzle is too open to check (does it have enough givens?)")) \
            from None
    if count == 0:
        raise PuzzleError(N_("the puzzle has no solution"))
    if count > 1:
        raise PuzzleError(N_("the puzzle has more than one solution"))
    rest = first_fill(board.geometry, givens)
    assert rest is not None
    graded = grade(board, givens)
    return Puzzle(board.key, graded.difficulty, None, dict(givens), {**givens, **rest},
                  graded.techniques, version=GENERATOR_VERSION)


def load_puzzle(doc: Mapping[str, object]) -> Puzzle:
    """A puzzle from its JSON document (``Puzzle.to_json``, as a record keeps it): the board
    and the givens are read, and everything else is worked out again (the solution, the grade)
    rather than trusted, so a damaged or edited document cannot bring a wrong solution. The
    seed is kept when the document has one. ``PuzzleError`` for anything malformed."""
    if not isinstance(doc, Mapping):
        raise PuzzleError(N_("a puzzle is a JSON object"))
    key, givens, seed = doc.get("board"), doc.get("givens"), doc.get("seed")
    if not isinstance(key, str):
        raise PuzzleError(N_("a puzzle names its board"))
    puzzle_board = board_named(key)
    if not isinstance(givens, Mapping) or not all(
            isinstance(c, str) and type(n) is int for c, n in givens.items()):
        raise PuzzleError(N_("a puzzle's givens map cells to numbers"))
    if seed is not None and type(seed) is not int:
        raise PuzzleError(N_("a puzzle's seed is a whole number"))
    checked = check_puzzle(puzzle_board, givens)
    return Puzzle(checked.board, checked.difficulty, seed, checked.givens, checked.solution,
                  checked.techniques, version=GENERATOR_VERSION)
