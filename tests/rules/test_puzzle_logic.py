"""The walk and the grade: every step any grid leads to agrees with the solution it came from,
the quick grade is the grade, and known puzzles get the grade their techniques call for."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.puzzle import PuzzleError, board, grade, next_step, steps
from sudoku_table.rules.puzzle.grid import Grid, layout
from sudoku_table.rules.puzzle.logic import first_step, quick_grade, solvable
from sudoku_table.rules.puzzle.techniques import BY_ID, apply, premises
from sudoku_table.rules.solver import random_fill

from .puzzle_grids import EASTER_MONSTER, X_WING_EXAMPLE, XY_WING_EXAMPLE, made, typed

BOARDS = ("classic", "six", "labyrinth")


def check_walk(board_key: str, numbers: dict[str, int], solution: dict[str, int]) -> int:
    """Walk from ``numbers`` step by step, checking each against ``solution``: a placement puts
    the solution's number, a crossing-out never takes the solution's number, and everything
    the step relies on is really gone. Returns the steps taken."""
    lay = layout(board(board_key))
    grid = Grid.of(lay, numbers)
    taken = 0
    while (step := first_step(grid)) is not None:
        if step.placement is not None:
            cell, number = step.placement
            assert solution[cell] == number, step
        for cell, number in step.eliminations:
            assert solution[cell] != number, step
            assert grid.candidates[lay.index[cell]] & lay.bit(number), step
        for cell, number in premises(lay, step):
            i = lay.index[cell]
            assert grid.values[i] or not grid.candidates[i] & lay.bit(number), (step, cell)
        apply(grid, step)
        taken += 1
    return taken


@settings(max_examples=25, deadline=None)
@given(board_key=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1),
       share=st.floats(0.2, 0.6))
def test_every_step_from_any_part_of_a_fill_agrees_with_the_fill(
        board_key: str, seed: int, share: float) -> None:
    # Logic is sound for every solution of the givens, so the fill they came from must agree
    # with every step, whether the givens have one solution or many.
    puzzle_board = board(board_key)
    fill = random_fill(puzzle_board.geometry, seed)
    rng = random.Random(seed)
    cells = list(fill)
    givens = {c: fill[c] for c in rng.sample(cells, int(len(cells) * share))}
    check_walk(board_key, givens, fill)


@pytest.mark.parametrize("board_key,difficulty", [
    ("classic", 4), ("classic", 5), ("labyrinth", 5), ("six", 5), ("six", 3)])
def test_every_step_of_a_made_puzzle_agrees_with_its_solution(board_key: str,
                                                               difficulty: int) -> None:
    puzzle = made(board_key, difficulty)
    steps_taken = check_walk(board_key, dict(puzzle.givens), dict(puzzle.solution))
    assert steps_taken >= len(puzzle.solution) - len(puzzle.givens)


@settings(max_examples=20, deadline=None)
@given(board_key=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1),
       share=st.floats(0.2, 0.5))
def test_the_quick_grade_is_the_grade(board_key: str, seed: int, share: float) -> None:
    puzzle_board = board(board_key)
    fill = random_fill(puzzle_board.geometry, seed)
    rng = random.Random(seed)
    givens = {c: fill[c] for c in rng.sample(list(fill), int(len(fill) * share))}
    graded = grade(puzzle_board, givens)
    assert quick_grade(puzzle_board, givens) == graded.difficulty
    for level in range(1, 6):
        expected = graded.difficulty is not None and graded.difficulty <= level
        assert solvable(puzzle_board, givens, level) == expected


def test_a_known_x_wing_puzzle_needs_its_x_wing() -> None:
    graded = grade(board("classic"), typed("classic", X_WING_EXAMPLE))
    assert graded.difficulty == 5 and graded.techniques[-1] == "x_wing"


def test_a_known_xy_wing_puzzle_needs_its_xy_wing() -> None:
    graded = grade(board("classic"), typed("classic", XY_WING_EXAMPLE))
    assert graded.difficulty == 5 and graded.techniques[-1] == "xy_wing"
    assert "x_wing" not in graded.techniques and "swordfish" not in graded.techniques


def test_a_puzzle_beyond_the_techniques_has_no_difficulty() -> None:
    graded = grade(board("classic"), typed("classic", EASTER_MONSTER))
    assert graded.difficulty is None and not graded.logical
    assert next_step(board("classic"), typed("classic", EASTER_MONSTER)) is None


def test_the_grade_is_the_hardest_technique_and_the_techniques_are_hardest_last() -> None:
    for board_key, difficulty in (("classic", 1), ("classic", 3), ("classic", 5),
                                  ("six", 2), ("labyrinth", 4)):
        puzzle = made(board_key, difficulty)
        graded = grade(board(board_key), puzzle.givens)
        levels = [BY_ID[t].difficulty for t in graded.techniques]
        assert levels == sorted(levels) and levels[-1] == difficulty
        assert graded.techniques == puzzle.techniques


def test_a_walk_fills_the_puzzle_with_its_solution() -> None:
    puzzle = made("labyrinth", 3)
    walked = steps(board("labyrinth"), puzzle.givens)
    placed = {s.placement[0]: s.placement[1] for s in walked if s.placement}
    assert {**puzzle.givens, **placed} == puzzle.solution


def test_numbers_that_clash_are_refused_with_a_reason() -> None:
    with pytest.raises(PuzzleError, match="clash"):
        grade(board("classic"), {"a1": 5, "a9": 5})
    with pytest.raises(PuzzleError, match="not a cell"):
        grade(board("six"), {"g1": 1})
    with pytest.raises(PuzzleError, match="not a number"):
        grade(board("six"), {"a1": 7})
