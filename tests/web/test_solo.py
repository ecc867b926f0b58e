"""Solo Sudoku through the panel's API: started with its options, set up by the lights a number
at a time with no number tapped, solved, and its record replayed."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sudoku_table.rules.puzzle import generate
from sudoku_table.rules.puzzle.generator import day_seed
from sudoku_table.rules.record import Record, replay

from .helpers import place, put

pytestmark = pytest.mark.integration

SIX = {"board": "six", "difficulty": 1, "seed": 7}


def lit(view: dict[str, Any], word: str = "setup") -> set[str]:
    return {s for s, w in view["table"]["signals"].items() if w == word}


def test_a_puzzle_starts_with_its_options_and_sets_up_a_number_at_a_time(client: Any) -> None:
    puzzle = generate("six", 1, 7)
    view = client.post("/api/game", json={"variant": "sudoku-puzzle", "options": SIX}).get_json()
    assert view["game"]["options"] == SIX and view["game"]["players"] == 1
    by_number: dict[int, set[str]] = {}
    for cell, number in puzzle.givens.items():
        by_number.setdefault(number, set()).add(cell)
    for number in sorted(by_number):
        nxt = view["table"]["next"]
        assert nxt["code"] == "set_up_number" and nxt["params"]["number"] == number
        assert nxt["params"]["count"] == len(by_number[number])
        assert lit(view) == by_number[number]  # every square of the number at once
        for cell in sorted(by_number[number]):
            view = put(client, cell)  # no number tapped
            assert view["table"]["prompt"] is None or view["table"]["prompt"]["kind"] == "setup"
    assert not lit(view) and view["table"]["next"]["code"] != "set_up_number"
    # Solved by piece-then-number; the board full ends it as solved.
    for cell, number in puzzle.solution.items():
        if cell not in puzzle.givens:
            view = place(client, cell, number)
    game = view["game"]
    assert game["over"] and game["end_reason"] == "solved" and game["winners"] == [0]
    record = client.get("/api/record").get_json()
    assert record["options"] == SIX and len(record["actions"]) == 36 - len(puzzle.givens)
    _, states = replay(Record.from_json(record))
    assert states[-1].over and len(states) == len(record["actions"]) + 1
    (kept,) = [g for g in client.get("/api/games").get_json()
               if g["variant"] == "sudoku-puzzle"]
    positions = client.get(f"/api/games/{kept['id']}/positions").get_json()["positions"]
    assert len(positions) == len(states) and positions[-1]["over"]


def test_the_puzzle_of_the_day_is_fixed_by_the_table_s_date(client: Any) -> None:
    view = client.post("/api/game", json={"variant": "sudoku-puzzle",
                                          "options": {"board": "six", "seed": "today"}})
    assert view.status_code == 200, view.get_json()
    assert view.get_json()["game"]["options"]["seed"] == day_seed(date.today())
    fresh = client.post("/api/game", json={"variant": "sudoku-puzzle", "replace": True,
                                           "options": {"board": "six", "seed": "new"}})
    assert isinstance(fresh.get_json()["game"]["options"]["seed"], int)


def test_a_board_the_difficulty_does_not_exist_on_is_refused_with_its_reason(client: Any) -> None:
    answer = client.post("/api/game", json={"variant": "sudoku-puzzle",
                                            "options": {"board": "six", "difficulty": 4}})
    assert answer.status_code == 422
    assert "offers difficulties" in str(answer.get_json())
    assert client.get("/api/state").get_json()["game"] is None


def test_the_board_a_puzzle_s_options_name_is_served(client: Any) -> None:
    six = client.get('/api/variants/sudoku-puzzle?options={"board": "six", "seed": 1}')
    assert six.status_code == 200 and len(six.get_json()["cells"]) == 36
    assert len(client.get("/api/variants/sudoku-puzzle").get_json()["cells"]) == 81
    bad = client.get("/api/variants/sudoku-puzzle?options=[1]")
    assert bad.status_code == 400


def test_a_number_tapped_first_stays_for_every_piece_until_another(client: Any) -> None:
    puzzle = generate("six", 1, 7)
    client.post("/api/game", json={"variant": "sudoku-puzzle", "options": SIX})
    for cell in puzzle.givens:
        view = put(client, cell)
    threes = [c for c, n in puzzle.solution.items() if n == 3 and c not in puzzle.givens]
    fours = [c for c, n in puzzle.solution.items() if n == 4 and c not in puzzle.givens]
    assert len(threes) >= 2 and fours
    view = client.post("/api/input", json={"type": "number", "number": 3}).get_json()
    for cell in threes:
        view = put(client, cell)  # no number tapped for this piece
        assert view["game"]["cells"][cell] == {"owner": 0, "number": 3}
        assert view["table"]["in_hand"] == 3
    view = client.post("/api/input", json={"type": "number", "number": 4}).get_json()
    view = put(client, fours[0])
    assert view["game"]["cells"][fours[0]]["number"] == 4 and view["table"]["in_hand"] == 4
