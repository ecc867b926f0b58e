"""The JSON-lines runner answers every line, refusing bad ones with a reason."""

from __future__ import annotations

import io
import json

from app.table import Table
from app.table.runner import handle_line, run

from .fakes import resolve


def test_runner_lines() -> None:
    table = Table(resolve=resolve, ticker=False)
    lines = io.StringIO("\n".join([
        json.dumps({"new_game": {"variant": "fake-kosmos"}}),
        json.dumps({"sensor": "b2", "occupied": True}),
        json.dumps({"input": {"type": "number", "number": 3}}),
        "not json",
        json.dumps({"input": {"type": "number", "number": 9}}),
        json.dumps({"board": ["b2", "c3"]}),
        json.dumps([1, 2]),
        json.dumps({"dance": True}),
    ]) + "\n")
    out = io.StringIO()
    run(table, lines, out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0]["game"] is None
    assert answers[2]["table"]["prompt"] == {"kind": "number", "square": "b2",
                                              "choices": [1, 2, 3, 4]}
    assert answers[3]["game"]["cells"] == {"b2": {"owner": 0, "number": 3}}
    assert "not JSON" in answers[4]["error"]
    assert "1 to 4" in answers[5]["error"]
    assert answers[6]["table"]["signals"] == {"b2": "last", "c3": "extra"}
    assert "JSON object" in answers[7]["error"]
    assert "unknown line" in answers[8]["error"]
    assert "variant" in handle_line(table, json.dumps({"new_game": {}}))["error"]
    table.close()
