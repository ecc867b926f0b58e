"""Hints that teach: the steps to the next number and nothing more, named as the board shows
its houses, with their sentences as codes and parameters; clashes, mistakes, candidates."""

from __future__ import annotations

import re
import string

import pytest

from sudoku_table.rules.puzzle import (
    DIFFICULTIES,
    GERMAN,
    TECHNIQUE_NAMES,
    TECHNIQUES,
    TEXTS,
    PuzzleError,
    Said,
    board,
    candidates,
    clashes,
    hint,
    mistakes,
    placement_chain,
    step_said,
    steps,
)
from sudoku_table.rules.puzzle.grid import Grid, layout
from sudoku_table.rules.puzzle.techniques import apply, premises
from sudoku_table.rules.solver import find_fill

from .puzzle_grids import EASTER_MONSTER, X_WING_EXAMPLE, made, typed


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def played_until_stuck_on_singles(board_key: str, givens: dict[str, int]) -> dict[str, int]:
    """The numbers after every single the walk places before its first harder step."""
    numbers = dict(givens)
    for step in steps(board(board_key), givens):
        if step.technique not in ("full_house", "hidden_single"):
            break
        assert step.placement is not None
        numbers[step.placement[0]] = step.placement[1]
    return numbers


def test_a_hidden_single_is_said_as_the_board_shows_it() -> None:
    numbers = {"b4": 7, "h5": 7, "e1": 7, "f9": 7}
    told = hint(board("classic"), numbers)
    assert told.kind == "step" and len(told.steps) == 1
    assert told.said[0] == Said("hidden_single", {"cell": "d6", "number": 7,
                                                  "house": ["block d4"]})
    assert told.said[0].english() == "in block d4 the 7 can only go on d6"
    assert told.targets == ("d6",)
    assert set(told.pattern) == {"b4", "h5", "e1", "f9"}


def test_a_hint_chain_keeps_only_the_steps_its_placement_needs() -> None:
    puzzle_board = board("classic")
    givens = typed("classic", X_WING_EXAMPLE)
    solution = {**givens, **{s.placement[0]: s.placement[1]
                             for s in steps(puzzle_board, givens) if s.placement}}
    numbers = dict(givens)
    seen_chains = 0
    while len(numbers) < 81:
        chain = placement_chain(puzzle_board, numbers)
        assert chain and chain[-1].placement is not None
        # Replayed on its own, the chain holds: each step's premises are gone when it comes.
        lay = layout(puzzle_board)
        grid = Grid.of(lay, numbers)
        for step in chain:
            for cell, number in premises(lay, step):
                i = lay.index[cell]
                assert grid.values[i] or not grid.candidates[i] & lay.bit(number)
            apply(grid, step)
        # No earlier step is there for nothing: each takes away something a later one needs.
        for k, step in enumerate(chain[:-1]):
            later = set().union(*(premises(lay, s) for s in chain[k + 1:]))
            assert set(step.eliminations) & later
        seen_chains += len(chain) > 1
        cell, number = chain[-1].placement
        assert solution[cell] == number
        numbers[cell] = number
    assert seen_chains >= 1


def test_hints_for_a_puzzle_that_needs_a_wing() -> None:
    puzzle = made("classic", 5)
    numbers = played_until_stuck_on_singles("classic", dict(puzzle.givens))
    told = hint(board("classic"), numbers, puzzle.solution)
    assert told.kind == "step" and told.steps[-1].placement is not None
    cell, number = told.steps[-1].placement
    assert puzzle.solution[cell] == number
    assert told.targets == (cell,) and cell not in told.pattern
    for said in told.said:
        assert said.code in TEXTS and said.english()


def test_labyrinth_regions_are_named_by_a_square_never_by_a_number() -> None:
    puzzle_board = board("labyrinth")
    assert puzzle_board.shown["region 1"] == "region a1"
    assert sorted(puzzle_board.shown[f"region {i}"] for i in range(1, 10)) == sorted(
        f"region {min(cells, key=lambda c: (c[1], c[0]))}"
        for name, cells in puzzle_board.geometry.houses.items() if name.startswith("region"))
    for difficulty in (3, 4, 5):
        puzzle = made("labyrinth", difficulty)
        for step in steps(puzzle_board, puzzle.givens):
            words = str(step_said(puzzle_board, step).params)
            assert not re.search(r"region \d", words), words


def test_a_naked_single_after_crossing_out_says_so() -> None:
    puzzle_board = board("classic")
    for step in steps(puzzle_board, made("classic", 5).givens):
        said = step_said(puzzle_board, step)
        if step.technique == "naked_single":
            assert said.code in ("naked_single", "naked_single_left")
            if said.code == "naked_single":
                assert len(step.pattern) == 8


def test_clashes_come_first() -> None:
    numbers = {"a1": 3, "c2": 3, "h1": 5, "h9": 5}
    found = clashes(board("classic"), numbers)
    assert [(c.house, c.number, c.cells) for c in found] == [
        ("block a1", 3, ("a1", "c2")), ("file h", 5, ("h1", "h9"))]
    told = hint(board("classic"), numbers)
    assert told.kind == "clash" and told.cells == ("a1", "c2")
    assert told.said[0].english() == "the 3 stands more than once in block a1: a1 and c2"


def test_mistakes_against_the_solution() -> None:
    puzzle = made("six", 2)
    numbers = dict(puzzle.givens)
    empty = [c for c in puzzle.solution if c not in numbers]
    right, wrong_cell = empty[0], empty[1]
    numbers[right] = puzzle.solution[right]
    options = candidates(board("six"), numbers)[wrong_cell]
    numbers[wrong_cell] = next(n for n in options if n != puzzle.solution[wrong_cell])
    assert mistakes(numbers, puzzle.solution) == (wrong_cell,)
    told = hint(board("six"), numbers, puzzle.solution)
    assert told.kind == "mistakes" and told.cells == (wrong_cell,)


def test_solved_stuck_and_broken_grids() -> None:
    puzzle = made("six", 1)
    assert hint(board("six"), puzzle.solution, puzzle.solution).kind == "solved"
    monster = typed("classic", EASTER_MONSTER)
    assert hint(board("classic"), monster).kind == "no_step"
    rest = find_fill(board("classic").geometry, monster)
    assert rest is not None
    solution = {**monster, **rest}
    revealed = hint(board("classic"), monster, solution)
    assert revealed.kind == "reveal" and revealed.number == solution[revealed.cells[0]]
    # Rank 1 holds 1-7; 8s on h9 and i5 leave no place for its 8: no clash, yet wrong.
    broken = {f"{f}1": n for f, n in zip("abcdefg", range(1, 8), strict=True)}
    broken.update({"h9": 8, "i5": 8})
    assert not clashes(board("classic"), broken)
    assert hint(board("classic"), broken).kind == "contradiction"


def test_candidates_are_the_numbers_no_house_holds() -> None:
    options = candidates(board("classic"), {"a1": 1, "e5": 2, "i9": 3})
    assert options["b1"] == (2, 3, 4, 5, 6, 7, 8, 9)
    assert options["e1"] == (3, 4, 5, 6, 7, 8, 9)
    assert options["a9"] == (2, 4, 5, 6, 7, 8, 9)
    assert "a1" not in options and len(options) == 78


def test_every_code_has_english_and_german_with_the_same_parameters() -> None:
    for technique in TECHNIQUES:
        assert technique.id in TEXTS
        assert TECHNIQUE_NAMES[technique.id] in GERMAN
    for difficulty in DIFFICULTIES:
        assert difficulty.name in GERMAN
    for code, text in TEXTS.items():
        assert text in GERMAN, code
        assert placeholders(GERMAN[text]) == placeholders(text), code


def test_difficulties_are_defined_by_their_techniques() -> None:
    assert [d.number for d in DIFFICULTIES] == [1, 2, 3, 4, 5]
    assert DIFFICULTIES[0].techniques == ("full_house", "hidden_single")
    assert DIFFICULTIES[1].techniques == ("naked_single",)
    assert DIFFICULTIES[2].techniques == ("pointing", "claiming")
    assert DIFFICULTIES[4].techniques == ("x_wing", "swordfish", "xy_wing")


@pytest.mark.parametrize("board_key,difficulty", [("classic", 5), ("labyrinth", 4),
                                                  ("six", 5)])
def test_every_step_of_a_walk_has_a_sentence_with_all_its_parameters(
        board_key: str, difficulty: int) -> None:
    puzzle_board = board(board_key)
    for step in steps(puzzle_board, made(board_key, difficulty).givens):
        said = step_said(puzzle_board, step)
        assert placeholders(TEXTS[said.code]) == set(said.params), said
        assert said.to_json() == {"code": said.code, "params": dict(said.params)}


def test_a_square_or_number_the_board_lacks_is_refused() -> None:
    with pytest.raises(PuzzleError, match="g1 is not a cell"):
        hint(board("six"), {"g1": 1})
    with pytest.raises(PuzzleError, match="9 on a1 is not a number"):
        hint(board("six"), {"a1": 9})
