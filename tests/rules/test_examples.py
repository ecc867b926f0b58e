"""The reference records in tests/data/examples replay to exactly the states they list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_table.rules.record import Record, replay

EXAMPLES = sorted((Path(__file__).parent.parent / "data" / "examples").glob("*.json"))
COMPARED = ("cells", "scores", "to_move", "over", "winners", "dead", "phase", "blanks_left",
            "borne_off", "markers", "discarded")


def test_every_variant_family_has_examples() -> None:
    families = {p.stem.rsplit("-", 2)[0] for p in EXAMPLES}
    assert len(EXAMPLES) >= 20
    assert {"halma-dominari", "vierer-dominari", "revers-dominari", "score-dominari",
            "classic-sudoku", "duell-der-meister", "sudoku-family"} <= families


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_to_its_state(path: Path) -> None:
    data = json.loads(path.read_text())
    game, states = replay(Record.from_json(data["record"]))
    doc = game.document(states[-1])
    expected = data["state"]
    for key in COMPARED:
        if key in expected:
            assert doc[key] == expected[key], f"{key} differs"
