"""``sudoku-table puzzle``: one JSON document per puzzle, the contract tools rely on; a
difficulty a board does not offer exits 2 and says so."""

from __future__ import annotations

import json

import pytest

from sudoku_table.cli import main
from sudoku_table.rules.puzzle import board
from sudoku_table.rules.puzzle.techniques import BY_ID

from .puzzle_grids import X_WING_EXAMPLE


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["puzzle", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_puzzle_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--board", "classic", "--difficulty", "3", "--seed", "1")
    assert code == 0
    doc = json.loads(out)
    assert doc["board"] == "classic" and doc["difficulty"] == 3 and doc["seed"] == 1
    assert len(doc["solution"]) == 81 and all(doc["solution"][c] == n
                                              for c, n in doc["givens"].items())
    assert len(doc["regions"]) == 9 and all(len(r) == 9 for r in doc["regions"])
    assert BY_ID[doc["techniques"][-1]].difficulty == 3
    assert run(capsys, "--board", "classic", "--difficulty", "3", "--seed", "1")[1] == out


def test_a_six_puzzle_and_a_labyrinth_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--board", "six", "--difficulty", "2", "--seed", "0")
    assert code == 0 and len(json.loads(out)["solution"]) == 36
    code, out, _ = run(capsys, "--board", "labyrinth", "--difficulty", "1", "--seed", "0")
    doc = json.loads(out)
    assert code == 0 and doc["regions"] == [list(c) for c in board("labyrinth").boxes().values()]


def test_a_difficulty_the_board_cannot_produce_exits_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--board", "six", "--difficulty", "4", "--seed", "1")
    assert code == 2 and out == ""
    assert "offers difficulties 1, 2, 3, 5, not 4" in err


def test_the_puzzle_of_the_day(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--board", "six", "--difficulty", "1", "--date", "2025-06-14")
    assert code == 0 and json.loads(out)["seed"] == 20250614
    code, _, err = run(capsys, "--board", "six", "--difficulty", "1", "--date", "14.6.2025")
    assert code == 2 and "not a date" in err


def test_a_typed_puzzle_is_checked_and_graded(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--text", X_WING_EXAMPLE)
    doc = json.loads(out)
    assert code == 0 and doc["difficulty"] == 5 and doc["seed"] is None
    code, out, err = run(capsys, "--text", "." * 81)
    assert code == 1 and out == "" and "more than one solution" in err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--board", "hexa", "--seed", "1"], ["--difficulty", "6", "--seed", "1"],
                 ["--difficulty", "1"]):
        with pytest.raises(SystemExit) as stop:
            run(capsys, *argv)
        assert stop.value.code == 2
