"""Solo Sudoku as a game of the house: the puzzle its options name, its set-up, its play and its
two endings, its record replayed."""

from __future__ import annotations

from datetime import date

import pytest

from sudoku_table.rules.actions import Discard, Place
from sudoku_table.rules.errors import RecordError
from sudoku_table.rules.game import Piece, new_game, variant_class
from sudoku_table.rules.puzzle import board, generate, puzzle_text
from sudoku_table.rules.puzzle.solo import DEFAULT_SEED
from sudoku_table.rules.record import Record, replay

SIX = {"board": "six", "difficulty": 1, "seed": 7}


def solo(options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    return new_game("sudoku-puzzle", None, options or SIX)


def test_the_options_name_one_puzzle_whose_givens_are_the_setup() -> None:
    game = solo()
    puzzle = generate("six", 1, 7)
    assert game.players == 1 and len(game.geometry.cells) == 36
    assert game.default_setup() == {c: Piece(None, n) for c, n in puzzle.givens.items()}
    state = game.initial_state(game.default_setup())
    assert dict(state.board) == game.default_setup() and state.to_move == 0


def test_the_day_and_a_new_puzzle_are_fixed_when_the_game_starts() -> None:
    cls = variant_class("sudoku-puzzle")
    fixed = cls.fixed_options({"board": "six", "seed": "today"}, date(2026, 12, 7), lambda: 5)
    assert fixed["seed"] == 20261207
    assert cls.fixed_options({"seed": "new"}, date(2026, 12, 7), lambda: 5)["seed"] == 5
    assert cls.fixed_options({"seed": 9}, date(2026, 12, 7), lambda: 5)["seed"] == 9
    # Made without the table (a record naming none): a fixed seed, never the clock.
    assert new_game("sudoku-puzzle").options["seed"] == DEFAULT_SEED


def test_a_brought_puzzle_is_checked_and_graded() -> None:
    puzzle = generate("six", 2, 3)
    typed = puzzle_text(board("six"), puzzle.givens)
    game = solo({"board": "six", "givens": typed})
    assert game.options["givens"] == dict(puzzle.givens)
    assert game.options["difficulty"] == 2 and game.options["seed"] is None
    with pytest.raises(RecordError, match="more than one solution"):
        solo({"board": "six", "givens": "." * 36})
    with pytest.raises(RecordError, match="not both"):
        solo({"board": "six", "givens": typed, "seed": 4})


@pytest.mark.parametrize("options, words", [
    ({"board": "six", "difficulty": 4, "seed": 1}, "offers difficulties"),
    ({"board": "round"}, "must be one of"),
    ({"seed": -1}, "whole number"),
    ({"seed": True}, "whole number"),
    ({"colour": "red"}, "no option"),
])
def test_bad_options_are_refused_with_a_reason(options: dict[str, object], words: str) -> None:
    with pytest.raises(RecordError, match=words):
        solo(options)


def test_the_house_rule_refuses_a_clash_and_a_wrong_number_is_allowed() -> None:
    game = solo()
    state = game.initial_state()
    solution = game.puzzle.solution
    cell = next(c for c in game.geometry.cells if c not in state.board)
    peer = next(p for p in game.geometry.peers[cell] if p in state.board)
    clash = game.check(state, Place(cell, state.board[peer].number))  # type: ignore[arg-type]
    assert clash is not None and peer in clash.cells
    assert game.check(state, Discard(3)) is not None
    wrong = next(n for n in game.placeable_numbers(state, cell) if n != solution[cell]) \
        if len(game.placeable_numbers(state, cell)) > 1 else None
    if wrong is not None:
        after = game.apply(state, Place(cell, wrong))
        assert game.mistakes(after) == [cell]


def test_the_solution_placed_solves_it_and_the_record_replays() -> None:
    game = solo()
    state = game.initial_state()
    actions = []
    for cell, number in game.puzzle.solution.items():
        if cell not in state.board:
            actions.append(Place(cell, number))
            state = game.apply(state, actions[-1])
    assert state.over and state.winners == (0,) and game.end_reason(state) == "solved"
    assert game.scores(state) == [36 - len(game.puzzle.givens)]
    record = Record("sudoku-puzzle", 1, dict(game.options), game.default_setup(), actions)
    again = Record.from_json(record.to_json())
    _, states = replay(again)
    assert game.document(states[-1]) == game.document(state)
    doc = game.document(state)
    assert doc["end_reason"] == "solved" and doc["empty"] == 0
    assert doc["puzzle"] == {"board": "six", "difficulty": 1, "seed": 7,
                             "techniques": list(game.puzzle.techniques)}


def test_a_dead_end_ends_the_game_with_no_winner() -> None:
    game = solo()
    state = game.initial_state()
    # Wrong numbers that keep the house rule, until an empty square has none left.
    while not state.over:
        solution = game.puzzle.solution
        move = next((Place(c, n) for c in game.geometry.cells if c not in state.board
                     for n in game.placeable_numbers(state, c) if n != solution[c]), None)
        if move is None:
            pytest.skip("every number left is the solution's")
        state = game.apply(state, move)
    assert state.winners == () and game.end_reason(state) == "dead_end"


def test_a_record_s_setup_must_be_the_puzzle_s_givens() -> None:
    game = solo()
    setup = {c: p.to_json() for c, p in game.default_setup().items()}
    assert game.parse_setup(setup) == game.default_setup()
    cell = next(iter(setup))
    setup[cell] = {"owner": None, "number": setup[cell]["number"] % 6 + 1}
    with pytest.raises(RecordError, match="givens"):
        game.parse_setup(setup)
