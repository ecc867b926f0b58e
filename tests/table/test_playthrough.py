"""Every reference record, played on the physical board, ends in the state it lists.

Placements are put down and given their number on the panel, blanks are put down (a colour
chosen on the panel where the record names one), Halma moves are lifted and set down landing by
landing (bearing off confirmed on the panel), flipped pieces are lifted and set down again, and
set-asides, jokers and ends of turn come from the panel. After every action the table's state
must equal the rules' replay of the record: the table infers exactly the recorded game from the
sensors. Variants not yet registered are skipped; the fake games cover every family meanwhile.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import OFF, Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.record import Record, replay
from sudoku_table.table import Table

from .helpers import Clock, lift, make_table, put, wait

pytestmark = pytest.mark.integration

EXAMPLES = sorted((Path(__file__).parent.parent / "data" / "examples").glob("*.json"))


def play(table: Table, clock: Clock, action: Any, mover: int | None) -> None:
    """Make ``action`` the way players do at the table."""
    if isinstance(action, Place):
        put(table, clock, action.cell)
        prompt = table.view()["table"]["prompt"]
        assert prompt and prompt["kind"] == "number", prompt
        assert action.number in prompt["choices"], (action, prompt)
        table.input({"type": "number", "square": action.cell, "number": action.number})
    elif isinstance(action, Blank):
        put(table, clock, action.cell)
        if action.owner is not None and action.owner != mover:
            table.input({"type": "blank", "square": action.cell, "owner": action.owner})
    elif isinstance(action, Move):
        lift(table, clock, action.path[0])
        landings = [c for c in action.path[1:] if c != OFF]
        for i, cell in enumerate(landings):
            put(table, clock, cell)
            if i < len(landings) - 1 or action.bears_off:
                lift(table, clock, cell)
        if action.bears_off:
            table.input({"type": "bear_off"})
        else:
            wait(table, clock, 1.5)
    elif isinstance(action, Discard):
        table.input({"type": "discard", "number": action.number})
    elif isinstance(action, Joker):
        put(table, clock, action.cell)
        table.input({"type": "joker", "square": action.cell, "number": action.number})
    elif isinstance(action, EndTurn):
        table.input({"type": "end_turn"})


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_reference_record_played_on_the_board(path: Path) -> None:
    data = json.loads(path.read_text())
    variant = data["record"]["variant"]
    record = Record.from_json(data["record"])
    game, states = replay(record)
    table, clock, _ = make_table()
    table.new_game(variant, record.players, record.options,
                   {c: p.to_json() for c, p in record.setup.items()})
    table.set_board(list(record.setup))
    assert not table.view()["table"].get("setting_up")
    for index, action in enumerate(record.actions):
        play(table, clock, action, states[index].to_move)
        view = table.view()
        assert view["game"] == game.document(states[index + 1]), f"after action {index}"
        for square in states[index + 1].last.flipped:
            assert view["table"]["signals"].get(square) == "flip", (index, square)
            lift(table, clock, square)
            put(table, clock, square)
        signals = table.view()["table"]["signals"]
        wrong = {s: w for s, w in signals.items() if w in ("missing", "extra", "illegal",
                                                           "flip", "number")}
        assert not wrong, f"after action {index}: {wrong}"
    table.close()
