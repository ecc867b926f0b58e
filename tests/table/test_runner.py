"""The JSON-lines runner answers every line, refusing bad ones with a reason."""

from __future__ import annotations

import io
import json
import time
from types import SimpleNamespace

import pytest

from sudoku_table.table import Table, runner
from sudoku_table.table.runner import handle_line, run

from .fakes import resolve

pytestmark = pytest.mark.integration


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


BAD_LINES = [
    ("nested 999 deep", "[" * 999 + "]" * 999),
    ("nested inside a line", '{"input": ' + "[" * 999 + "]" * 999 + "}"),
    ("an integer of 4,300+ digits", '{"wait": ' + "9" * 4400 + "}"),
    ("a wait of 1e10 seconds", '{"wait": 1e10}'),
    ("a negative wait", '{"wait": -1}'),
    ("NaN", '{"wait": NaN}'),
    ("occupied as a string", '{"sensor": "b2", "occupied": "false"}'),
    ("occupied missing", '{"sensor": "b2"}'),
    ("a Unicode digit", '{"sensor": "b٣", "occupied": true}'),
    ("a square that is a number", '{"sensor": 22, "occupied": true}'),
    ("a board that is not a list", '{"board": "b2"}'),
    ("an unknown field", '{"sensor": "b2", "occupied": true, "hand": 1}'),
    ("hints as a string", '{"new_game": {"variant": "fake-kosmos", "hints": "no"}}'),
    ("a line of 100,000 characters", '{"board": ["' + "a" * 100_000 + '"]}'),
]


@pytest.mark.parametrize(("name", "line"), BAD_LINES, ids=[n for n, _ in BAD_LINES])
def test_bad_lines_are_refused_and_change_nothing(name: str, line: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack: the runner crashed on deep nesting, a 4,300-digit integer and a wait of
    1e10, and read ``"occupied": "false"`` as occupied."""
    table = Table(resolve=resolve, ticker=False)
    table.new_game("fake-kosmos")
    before = table.view()
    waited: list[float] = []
    monkeypatch.setattr(runner, "time", SimpleNamespace(sleep=waited.append,
                                                        monotonic=time.monotonic))  # no wait
    answer = handle_line(table, line)
    assert waited == []
    assert isinstance(answer.get("error"), str), answer
    assert table.view() == before
    table.close()


def test_runner_plays_against_the_computer() -> None:
    # The computer (seat 0) moves first in Vierer: the view after the new_game line already
    # holds its plan, lit with its own word; putting the piece there counts its move.
    table = Table(resolve=resolve, ticker=False)
    start = handle_line(table, json.dumps(
        {"new_game": {"variant": "vierer-dominari", "computers": {"0": "easy"}}}))
    assert isinstance(start, dict) and "error" not in start, start
    plan = start["table"]["plan"]
    assert plan is not None and plan["type"] == "place"
    assert start["table"]["computers"] == {"0": "easy"}
    assert start["table"]["signals"] == {plan["cell"]: "computer"}
    assert start["table"]["next"]["code"] == "computer_place"
    view = handle_line(table, json.dumps({"sensor": plan["cell"], "occupied": True}))
    view = handle_line(table, json.dumps({"wait": 0.3}))
    assert view["game"]["cells"] == {plan["cell"]: {"owner": 0, "number": plan["number"]}}
    assert view["table"]["next"]["actor"] == 1
    table.close()


@pytest.mark.parametrize("spec,says", [
    ({"computers": {"5": "strong"}}, "not a seat"),
    ({"computers": {"1": "grandmaster"}}, "must be one of"),
    ({"computers": ["strong"]}, "must be an object"),
    ({"computer_draws": "yes"}, "computer_draws must be true or false"),
])
def test_runner_refuses_a_bad_computer_seat(spec: dict[str, object], says: str) -> None:
    table = Table(resolve=resolve, ticker=False)
    answer = handle_line(table, json.dumps({"new_game": {"variant": "vierer-dominari", **spec}}))
    assert isinstance(answer, dict) and says in answer["error"]
    assert table.view()["game"] is None
    table.close()
