"""Typed puzzles: read as printed (top rank first), checked for one solution, graded."""

from __future__ import annotations

import pytest

from sudoku_table.rules.puzzle import (
    PuzzleError,
    board,
    check_puzzle,
    load_puzzle,
    parse_puzzle,
    puzzle_text,
)

from .puzzle_grids import EASTER_MONSTER, X_WING_EXAMPLE, made


def test_the_first_character_is_the_top_left_cell() -> None:
    givens = parse_puzzle(board("classic"), X_WING_EXAMPLE)
    assert givens["a9"] == 1 and "b9" not in givens and givens["g9"] == 5
    assert givens["a8"] == 4 and givens["i1"] == 5
    six = parse_puzzle(board("six"), "1" + "." * 34 + "6")
    assert six == {"a6": 1, "f1": 6}


def test_a_grid_copied_as_printed_reads_the_same() -> None:
    rows = [X_WING_EXAMPLE[i:i + 9] for i in range(0, 81, 9)]
    drawn = "\n".join(f"{r[:3]} | {r[3:6]} | {r[6:]}" + ("\n------+-------+------" if k in (2, 5)
                                                         else "") for k, r in enumerate(rows))
    assert parse_puzzle(board("classic"), drawn) == parse_puzzle(board("classic"), X_WING_EXAMPLE)


def test_typed_text_round_trips() -> None:
    for key, difficulty in (("classic", 3), ("six", 2), ("labyrinth", 4)):
        puzzle = made(key, difficulty)
        text = puzzle_text(board(key), puzzle.givens)
        assert len(text) == len(board(key).geometry.cells)
        assert parse_puzzle(board(key), text) == dict(puzzle.givens)


def test_bad_text_is_refused_with_where_and_why() -> None:
    with pytest.raises(PuzzleError, match=r"character 3 \('x'\)"):
        parse_puzzle(board("classic"), "12x" + "." * 78)
    with pytest.raises(PuzzleError, match=r"character 1 \('7'\).*1-6"):
        parse_puzzle(board("six"), "7" + "." * 35)
    with pytest.raises(PuzzleError, match="has 81 cells, this one 80"):
        parse_puzzle(board("classic"), "." * 80)


def test_a_brought_puzzle_is_checked_and_graded() -> None:
    puzzle = check_puzzle(board("classic"), parse_puzzle(board("classic"), X_WING_EXAMPLE))
    assert puzzle.difficulty == 5 and puzzle.seed is None and len(puzzle.solution) == 81
    beyond = check_puzzle(board("classic"), parse_puzzle(board("classic"), EASTER_MONSTER))
    assert beyond.difficulty is None and len(beyond.solution) == 81


def test_a_brought_puzzle_without_one_solution_is_refused() -> None:
    classic = board("classic")
    givens = parse_puzzle(classic, X_WING_EXAMPLE)
    fewer = dict(givens)
    for cell in list(fewer)[:12]:
        del fewer[cell]
    with pytest.raises(PuzzleError, match="more than one solution"):
        check_puzzle(classic, fewer)
    with pytest.raises(PuzzleError, match="the 1 stands more than once in block a7: a9 and b9"):
        check_puzzle(classic, {**givens, "b9": 1})
    # Rank 1 holds 1-7, 8s on h9 and i5 leave it no place for its 8: no clash, no solution.
    broken = {f"{f}1": n for f, n in zip("abcdefg", range(1, 8), strict=True)}
    broken.update({"h9": 8, "i5": 8})
    with pytest.raises(PuzzleError, match="no solution"):
        check_puzzle(classic, broken)


def test_a_puzzle_document_is_read_back_and_checked_again() -> None:
    puzzle = made("labyrinth", 4)
    doc = puzzle.to_json()
    again = load_puzzle(doc)
    assert (again.givens, again.solution, again.difficulty, again.seed, again.techniques) == (
        puzzle.givens, puzzle.solution, 4, puzzle.seed, puzzle.techniques)
    # A wrong solution in the document is not believed.
    assert load_puzzle({**doc, "solution": {}}).solution == puzzle.solution
    for bad, reason in (([], "a JSON object"), ({"givens": {}}, "names its board"),
                        ({"board": "six", "givens": {"a1": "5"}}, "map cells to numbers"),
                        ({"board": "six", "givens": {"z9": 5}}, "z9 is not a cell"),
                        ({"board": "six", "givens": {}, "seed": "x"}, "whole number"),
                        ({"board": "six", "givens": {"a1": 1}}, "more than one solution")):
        with pytest.raises(PuzzleError, match=reason):
            load_puzzle(bad)  # type: ignore[arg-type]
