"""The logical solver: the easiest step first, all the way, as a person would go.

``steps`` walks a puzzle one step at a time, always taking the easiest technique that applies
(the order of ``TECHNIQUES``), as Sudoku Explainer and HoDoKu do; ``next_step`` is its first
step. ``grade`` is the difficulty of that walk: the hardest technique it needed, or None when
the techniques cannot finish the puzzle (it would need guessing or techniques the table does
not know). ``quick_grade`` reaches the same difficulty faster, placing every single it
sees at once and recording nothing: the generator asks it (through ``solvable``) for every
given it tries to take away.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..wording import N_
from .boards import PuzzleBoard, PuzzleError
from .grid import Contradiction, Grid, layout
from .techniques import BY_ID, TECHNIQUES, Step, apply, scan_singles


@dataclass(frozen=True, slots=True)
class Grade:
    """How hard a puzzle is: its ``difficulty`` (None: the techniques cannot finish it), the
    ids of the techniques its walk used (``techniques``, easiest first, the hardest last) and
    how many steps it took."""

    difficulty: int | None
    techniques: tuple[str, ...]
    steps: int

    @property
    def logical(self) -> bool:
        """True when the techniques finish the puzzle."""
        return self.difficulty is not None


def check_numbers(board: PuzzleBoard, numbers: Mapping[str, int]) -> None:
    """``PuzzleError`` when a cell or a number is not the board's."""
    for cell, number in numbers.items():
        if cell not in board.geometry.cell_set:
            raise PuzzleError(N_("{cell} is not a cell of this board"), cell=cell)
        if number not in board.geometry.number_range:
            raise PuzzleError(N_("{number} on {cell} is not a number of this board"),
                              number=number, cell=cell)


def start(board: PuzzleBoard, numbers: Mapping[str, int]) -> Grid:
    """The grid with ``numbers`` placed; ``PuzzleError`` when two of them clash or a cell or
    number is not the board's."""
    check_numbers(board, numbers)
    lay = layout(board)
    try:
        return Grid.of(lay, numbers)
    except Contradiction as e:
        raise PuzzleError(N_("the numbers clash: {reason}"), reason=str(e)) from None


def first_step(grid: Grid, max_difficulty: int = 5) -> Step | None:
    """The easiest step the grid offers (None: no technique up to ``max_difficulty``
    applies). ``Contradiction`` when the grid is broken."""
    for technique in TECHNIQUES:
        if technique.difficulty > max_difficulty:
            break
        step = technique.find(grid)
        if step is not None:
            return step
    return None


def walk(grid: Grid, max_difficulty: int = 5) -> Iterator[Step]:
    """The easiest step, carried out, again and again until the grid is full or no technique
    applies. Changes ``grid``."""
    while not grid.solved():
        step = first_step(grid, max_difficulty)
        if step is None:
            return
        apply(grid, step)
        yield step


def steps(board: PuzzleBoard, numbers: Mapping[str, int]) -> list[Step]:
    """Every step of the walk from ``numbers`` (a puzzle's givens, or givens and the numbers a
    player has placed) as far as the techniques go."""
    grid = start(board, numbers)
    try:
        return list(walk(grid))
    except Contradiction as e:
        raise PuzzleError(N_("the numbers lead to a contradiction: {reason}"),
                          reason=str(e)) from None


def next_step(board: PuzzleBoard, numbers: Mapping[str, int]) -> Step | None:
    """The easiest next step from ``numbers``; None when the grid is full or no technique
    applies. ``PuzzleError`` when the numbers clash or lead to a contradiction."""
    grid = start(board, numbers)
    try:
        return first_step(grid)
    except Contradiction as e:
        raise PuzzleError(N_("the numbers lead to a contradiction: {reason}"),
                          reason=str(e)) from None


def grade(board: PuzzleBoard, givens: Mapping[str, int]) -> Grade:
    """The grade of a puzzle (see ``Grade``)."""
    walked = steps(board, givens)
    used = {s.technique for s in walked}
    techniques = tuple(t.id for t in TECHNIQUES if t.id in used)
    solved = len(givens) + sum(1 for s in walked if s.placement) == len(board.geometry.cells)
    hardest = max((BY_ID[t].difficulty for t in techniques), default=1)
    return Grade(hardest if solved else None, techniques, len(walked))


def quick_grade(board: PuzzleBoard, givens: Mapping[str, int],
                max_difficulty: int = 5) -> int | None:
    """The difficulty ``grade`` gives, when it is at most ``max_difficulty``; None when the
    techniques up to ``max_difficulty`` do not finish the puzzle (or it contradicts itself).

    Reached faster than ``grade``: every single one look at the houses finds is placed at
    once, and nothing is recorded. The answer is the same: a placement never takes a step
    away, so whatever order the singles come in, the grid the next harder technique looks at is
    the same, and there both take the same first technique.
    """
    grid = start(board, givens)
    harder = [t for t in TECHNIQUES if 2 <= t.difficulty <= max_difficulty]
    hardest = 1
    try:
        while not grid.solved():
            singles = scan_singles(grid)
            if singles:
                for _, _, i, number in singles:
                    if grid.values[i] != number:
                        grid.place(i, number)
                continue
            for technique in harder:
                step = technique.find(grid)
                if step is not None:
                    apply(grid, step)
                    hardest = max(hardest, technique.difficulty)
                    break
            else:
                return None
    except Contradiction:
        return None
    return hardest


def solvable(board: PuzzleBoard, givens: Mapping[str, int], max_difficulty: int) -> bool:
    """True when the techniques up to ``max_difficulty`` finish the puzzle."""
    return quick_grade(board, givens, max_difficulty) is not None
