"""The KOSMOS perft positions (tests/data/perft/kosmos.json) cover every board of ours, both
Kakuro options, set-asides and a finished game; test_perft.py counts them (listed and by brute
force through ``check``). Here the hand-reasoned counts are checked once more by kind."""

from __future__ import annotations

import json
from pathlib import Path

from sudoku_table.rules.actions import Discard, Place

from .test_perft import position

ENTRIES = json.loads(
    (Path(__file__).parent.parent / "data" / "perft" / "kosmos.json").read_text())


def test_every_board_and_option_has_positions() -> None:
    seen = {(e["record"]["variant"], e["record"]["options"].get("clues")) for e in ENTRIES}
    assert {("classic-sudoku", None), ("labyrinth-sudoku", None), ("killer-sudoku", None),
            ("kakuro", "A"), ("kakuro", "B"), ("3d-sudoku", None), ("hexa-sudoku", None)} <= seen
    assert all(e.get("note") for e in ENTRIES)


def test_set_asides_are_listed_only_for_cards_that_fit_nowhere() -> None:
    entry = next(e for e in ENTRIES if "set aside" in e["name"])
    game, state = position(entry)
    actions = list(game.legal_actions(state))
    places = [a for a in actions if isinstance(a, Place)]
    discards = [a for a in actions if isinstance(a, Discard)]
    assert sorted((a.cell, a.number) for a in places) == [("c1", 5), ("e9", 7), ("g5", 7)]
    assert sorted(a.number for a in discards) == [1, 2, 3, 4, 6, 8, 9]
