"""Positions for the puzzle tests: grids built by hand, candidate by candidate, and a few
puzzles made once per test run."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from sudoku_table.rules.puzzle import Puzzle, board, generate
from sudoku_table.rules.puzzle.boards import PuzzleBoard
from sudoku_table.rules.puzzle.grid import Grid, layout
from sudoku_table.rules.puzzle.text import parse_puzzle


def grid_of(board_key: str, numbers: Mapping[str, int] | None = None) -> Grid:
    """The grid with ``numbers`` placed and every other candidate open."""
    return Grid.of(layout(board(board_key)), numbers or {})


def remove(grid: Grid, number: int, cells: Iterable[str]) -> None:
    """Take ``number`` from the candidates of ``cells``."""
    lay = grid.layout
    for cell in cells:
        grid.candidates[lay.index[cell]] &= ~lay.bit(number)


def keep_only(grid: Grid, cell: str, numbers: Iterable[int]) -> None:
    """Leave ``cell`` only ``numbers`` as candidates."""
    lay = grid.layout
    mask = 0
    for n in numbers:
        mask |= lay.bit(n)
    grid.candidates[lay.index[cell]] = mask


def house(board_key: str, name: str) -> tuple[str, ...]:
    return board(board_key).geometry.houses[name]


def typed(board_key: str, text: str) -> dict[str, int]:
    return parse_puzzle(board(board_key), text)


def puzzle_board(key: str) -> PuzzleBoard:
    return board(key)


QUICK_SEEDS = {
    ("classic", 1): 3, ("classic", 2): 5, ("classic", 3): 1, ("classic", 4): 2,
    ("classic", 5): 0, ("six", 1): 2, ("six", 2): 2, ("six", 3): 0, ("six", 5): 4,
    ("labyrinth", 1): 0, ("labyrinth", 2): 6, ("labyrinth", 3): 2, ("labyrinth", 4): 4,
    ("labyrinth", 5): 0,
}
"""For each board and difficulty a seed whose puzzle is made in a few hundredths of a second
(bench/bench_puzzles.py measures all seeds; the tests need puzzles, not the wait)."""


@cache
def made(board_key: str, difficulty: int, seed: int | None = None) -> Puzzle:
    """A generated puzzle (by default the quick seed's), made once per test run."""
    return generate(board_key, difficulty,
                    QUICK_SEEDS[board_key, difficulty] if seed is None else seed)


X_WING_EXAMPLE = ("100000569492056108056109240009640801064010000218035604040500016905061402"
                  "621000005")
"""A common teaching puzzle whose logical solution needs an X-Wing."""
XY_WING_EXAMPLE = ("900040000000600031020000090000700020002935600070002000060000073510009000"
                   "000080009")
"""A common teaching puzzle whose logical solution needs an XY-Wing."""
EASTER_MONSTER = ("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2..."
                  "..1")
"""One of the hardest known puzzles: one solution, but no technique here gets anywhere."""
