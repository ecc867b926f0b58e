"""The three puzzle boards, the 6x6's geometry and drawing, and the exact solver's counting
and random fills."""

from __future__ import annotations

import pytest

from sudoku_table.rules.dominari.board import CELLS as DOMINARI_CELLS
from sudoku_table.rules.drawing import drawing
from sudoku_table.rules.puzzle import PuzzleError, board, six_geometry
from sudoku_table.rules.solver import (
    SearchLimit,
    count_fills,
    find_fill,
    first_fill,
    random_fill,
)

from .puzzle_grids import X_WING_EXAMPLE, made, typed


def test_the_six_board_is_a_6x6_sudoku_with_2x3_blocks_on_the_dominari_squares() -> None:
    geometry = six_geometry()
    assert geometry.cells == DOMINARI_CELLS and geometry.numbers == (1, 6)
    blocks = {n: c for n, c in geometry.houses.items() if n.startswith("block")}
    assert list(blocks) == ["block a1", "block d1", "block a3", "block d3", "block a5",
                            "block d5"]
    assert blocks["block d3"] == ("d3", "e3", "f3", "d4", "e4", "f4")
    assert len(geometry.houses) == 18 and geometry.regions == blocks


def test_the_six_board_draws_with_thick_lines_between_its_blocks() -> None:
    drawn = drawing(six_geometry())
    assert len(drawn.cells) == 36
    # Drawing y grows downwards: the line between ranks 2 and 3 lies at y = -1.5, the one
    # between files c and d at x = 2.5; inside a block (between files a and b) there is none.
    assert (-0.5, -1.5, 0.5, -1.5) in drawn.borders
    assert (2.5, -0.5, 2.5, 0.5) in drawn.borders
    assert (0.5, -0.5, 0.5, 0.5) not in drawn.borders


def test_every_board_allows_symmetric_givens_and_names_its_houses() -> None:
    for key in ("classic", "six", "labyrinth"):
        puzzle_board = board(key)
        turn = puzzle_board.symmetry
        assert turn is not None and all(turn[turn[c]] == c for c in turn)
    assert board("classic").symmetry is not None and board("classic").symmetry["a1"] == "i9"
    assert board("six").symmetry is not None and board("six").symmetry["a1"] == "f6"
    assert board("classic").shown["block d4"] == "block d4"
    assert list(board("labyrinth").boxes())[0] == "region a1"
    with pytest.raises(PuzzleError, match="no puzzle board"):
        board("hexa")


def test_counting_fills_up_to_a_limit() -> None:
    classic = board("classic").geometry
    givens = typed("classic", X_WING_EXAMPLE)
    assert count_fills(classic, givens) == 1
    assert count_fills(classic, {}) == 2
    assert count_fills(six_geometry(), {}, limit=10) == 10
    assert count_fills(classic, {"a1": 1, "b2": 1}) == 0          # a clash
    assert count_fills(six_geometry(), {"a1": 7}) == 0            # not a number of the board
    rank = {f"{f}1": n for f, n in zip("abcdefgh", range(1, 9), strict=True)}
    assert count_fills(classic, {**rank, "i9": 9}) == 0           # i1 has no number left
    with pytest.raises(SearchLimit):
        count_fills(classic, {}, limit=10**6, node_limit=500)


def test_random_fills_are_complete_legal_and_seeded() -> None:
    for key in ("classic", "six", "labyrinth"):
        geometry = board(key).geometry
        fill = random_fill(geometry, 7)
        assert set(fill) == set(geometry.cells)
        assert count_fills(geometry, fill) == 1
        assert random_fill(geometry, 7) == fill
        assert random_fill(geometry, 8) != fill


def test_the_first_fill_of_a_unique_puzzle_is_its_solution() -> None:
    for key, difficulty in (("classic", 5), ("labyrinth", 4), ("six", 3)):
        puzzle = made(key, difficulty)
        rest = first_fill(board(key).geometry, puzzle.givens)
        assert rest is not None and {**puzzle.givens, **rest} == puzzle.solution
        assert not set(rest) & set(puzzle.givens)
    classic = board("classic").geometry
    rank = {f"{f}1": n for f, n in zip("abcdefgh", range(1, 9), strict=True)}
    assert first_fill(classic, {**rank, "i9": 9}) is None          # i1 has no number left
    assert first_fill(classic, {"a1": 1, "b2": 1}) is None         # a clash
    with pytest.raises(SearchLimit):
        first_fill(classic, {}, node_limit=5)


def test_the_old_fill_still_serves_its_callers() -> None:
    givens = typed("classic", X_WING_EXAMPLE)
    rest = find_fill(board("classic").geometry, givens)
    assert rest is not None and count_fills(board("classic").geometry, {**givens, **rest}) == 1
