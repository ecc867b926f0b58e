"""The rules core: squares, geometry, actions, records, and the ``replay`` command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import (
    OFF,
    Blank,
    Discard,
    EndTurn,
    Joker,
    Move,
    Place,
    action_from_json,
)
from sudoku_table.rules.errors import IllegalActionError, RecordError, UnknownVariantError
from sudoku_table.rules.game import Piece, all_variants, new_game, variant_class
from sudoku_table.rules.geometry import sudoku_grid
from sudoku_table.rules.record import Record, ReplayError, replay
from sudoku_table.rules.squares import SQUARES, is_square, parse_square, square_name

RULES_TEXT = files("sudoku_table.rules") / "text"

ROOT = Path(__file__).parent.parent.parent
EXAMPLES = ROOT / "tests" / "data" / "examples"


# --- squares -----------------------------------------------------------------------------------

def test_squares_are_named_like_chess_squares() -> None:
    assert square_name(0, 0) == "a1" and square_name(8, 8) == "i9"
    assert parse_square("c4") == (2, 3)
    assert len(SQUARES) == 81 and SQUARES[0] == "a1" and SQUARES[9] == "a2"
    assert all(parse_square(s) == parse_square(square_name(*parse_square(s))) for s in SQUARES)


@pytest.mark.parametrize("bad", ["j1", "a0", "a10", "A1", "", "a", 5, None, "1a"])
def test_anything_else_is_no_square(bad: object) -> None:
    assert not is_square(bad)
    with pytest.raises(ValueError):
        parse_square(bad)  # type: ignore[arg-type]


def test_square_names_outside_the_grid_are_refused() -> None:
    with pytest.raises(ValueError):
        square_name(9, 0)


# --- geometry ----------------------------------------------------------------------------------

def test_the_dominari_board_has_ranks_files_and_nine_blocks() -> None:
    geometry = new_game("revers-dominari").geometry
    assert geometry.cells[0] == "a1" and geometry.cells[-1] == "f6" and len(geometry.cells) == 36
    assert len(geometry.houses) == 6 + 6 + 9
    assert geometry.houses["block c3"] == ("c3", "d3", "c4", "d4")
    assert geometry.houses["rank 3"] == ("a3", "b3", "c3", "d3", "e3", "f3")
    assert geometry.houses_of["d4"] == ("rank 4", "file d", "block c3")
    assert len(geometry.peers["d4"]) == 5 + 5 + 1
    assert set(geometry.neighbours_of("a1")) == {"a2", "b1"}
    assert set(geometry.neighbours_of("a1", "king")) == {"a2", "b1", "b2"}
    assert new_game("vierer-dominari").geometry.number_range == (1, 2, 3, 4, 5)


def test_a_geometry_refuses_houses_with_stray_cells() -> None:
    with pytest.raises(ValueError):
        sudoku_grid("broken", 4, 2, 2, (1, 4), sections={"x": ("a1", "i9")})


def test_the_geometry_document_is_json() -> None:
    doc = json.loads(json.dumps(new_game("halma-dominari").geometry.to_json()))
    assert doc["id"] == "halma-dominari" and doc["numbers"] == [1, 6]
    assert doc["houses"]["file a"] == ["a1", "a2", "a3", "a4", "a5", "a6"]


# --- actions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, action", [
    ({"type": "place", "cell": "b3", "number": 5}, Place("b3", 5)),
    ({"type": "blank", "cell": "e2"}, Blank("e2")),
    ({"type": "blank", "cell": "e2", "owner": 1}, Blank("e2", 1)),
    ({"type": "move", "path": ["a1", "a2"]}, Move(("a1", "a2"))),
    ({"type": "move", "path": ["b2", "d4", "f4"]}, Move(("b2", "d4", "f4"))),
    ({"type": "move", "path": ["f6", "off"]}, Move(("f6", OFF))),
    ({"type": "discard", "number": 7}, Discard(7)),
    ({"type": "joker", "cell": "b3", "number": 4}, Joker("b3", 4)),
    ({"type": "end_turn"}, EndTurn()),
])
def test_actions_parse_and_write_back(raw: dict[str, Any], action: object) -> None:
    parsed = action_from_json(raw)
    assert parsed == action
    assert parsed.to_json() == raw


@pytest.mark.parametrize("raw, words", [
    ({"type": "place", "cell": "z9", "number": 5}, "sensor square"),
    ({"type": "place", "cell": "b3", "number": "5"}, "whole number"),
    ({"type": "place", "cell": "b3", "number": True}, "whole number"),
    ({"type": "place", "cell": "b3"}, "whole number"),
    ({"type": "blank", "cell": "e2", "owner": "white"}, "whole number"),
    ({"type": "move", "path": ["a1"]}, "at least two"),
    ({"type": "move", "path": "a1a2"}, "at least two"),
    ({"type": "move", "path": ["off", "a1"]}, "'off' only last"),
    ({"type": "fly", "cell": "a1"}, "unknown action type"),
    (["place", "a1"], "JSON object"),
])
def test_malformed_actions_are_refused_with_a_reason(raw: object, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        action_from_json(raw)


# --- records -----------------------------------------------------------------------------------

def test_a_record_round_trips_through_json() -> None:
    data = json.loads((EXAMPLES / "revers-dominari-7-17.json").read_text())
    record = Record.from_json(data["record"])
    assert record.variant == "revers-dominari" and record.players == 2
    assert record.setup["c3"] == Piece(0, 3)
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    assert Record.from_json(data) == record       # a reference file: its record is what replays


def test_players_and_options_take_the_variants_defaults() -> None:
    record = Record.from_json({"variant": "score-dominari"})
    assert record.players == 2 and record.options == {} and record.actions == []


@pytest.mark.parametrize("data, error, words", [
    ({"variant": "chess"}, UnknownVariantError, "unknown variant"),
    ({"variant": 7}, RecordError, "variant id"),
    ({"variant": "halma-dominari", "players": 3}, RecordError, "2-2 players"),
    ({"variant": "halma-dominari", "players": "two"}, RecordError, "players"),
    ({"variant": "halma-dominari", "options": {"speed": 1}}, RecordError, "no option"),
    ({"variant": "halma-dominari", "actions": {}}, RecordError, "must be a list"),
    ({"variant": "halma-dominari", "setup": {"g7": {"owner": 0, "number": 1}}}, RecordError,
     "not a cell"),
    ({"variant": "halma-dominari", "setup": {"a1": {"owner": 0}}}, RecordError, "number"),
    ({"variant": "halma-dominari", "colour": "red"}, RecordError, "no field"),
    ({"variant": "halma-dominari", "actions": [{"type": "move"}]}, RecordError, "action 0"),
    ([], RecordError, "JSON object"),
])
def test_malformed_records_are_refused(data: object, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        Record.from_json(data)


def test_text_that_is_not_json_is_refused() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.loads("{variant: halma}")
    with pytest.raises(RecordError, match="nested too deeply"):
        Record.loads("[" * 100_000)


def test_replay_gives_every_state_and_stops_at_an_illegal_action() -> None:
    record = Record.from_json({"variant": "revers-dominari", "actions": [
        {"type": "place", "cell": "b4", "number": 1},
        {"type": "place", "cell": "a1", "number": 2},
    ]})
    with pytest.raises(ReplayError) as caught:
        replay(record)
    error = caught.value
    assert isinstance(error, IllegalActionError) and error.index == 1
    assert error.to_json()["error"]["reason"] == "a1 is not next to any opposing piece " \
        "(along a rank or file)"
    game, states = replay(Record.from_json({"variant": "revers-dominari", "actions": [
        {"type": "place", "cell": "b4", "number": 1}]}))
    assert len(states) == 2 and states[1].board["c4"].owner == 0


def test_a_setup_that_breaks_the_house_rule_is_refused_on_replay() -> None:
    record = Record.from_json({"variant": "revers-dominari", "setup": {
        "a1": {"owner": 0, "number": 1}, "a2": {"owner": 1, "number": 1}}})
    with pytest.raises(RecordError, match="1 is already in file a"):
        replay(record)


def test_the_registry_knows_the_games_in_the_order_of_the_records_document() -> None:
    ids = [cls.id for cls in all_variants()]
    records = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text()
    section = records.split("## Variant ids")[1].split("\n\n")[0]
    assert ids == re.findall(r"`([a-z0-9-]+)`", section)
    assert variant_class("score-dominari").name == "Score-Dominari"
    with pytest.raises(UnknownVariantError):
        new_game("nine-mens-morris")


# --- the replay command ------------------------------------------------------------------------

def run_replay(tmp_path: Path, content: str | None, *extra: str) -> tuple[int, Any, str]:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_table.cli", "replay", str(path), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    output = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, output, done.stderr


@pytest.mark.integration
def test_replay_prints_the_state_document(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "score-dominari-7-20.json").read_text())
    code, doc, err = run_replay(tmp_path, json.dumps(data["record"]))
    assert code == 0 and err == ""
    for key, value in data["state"].items():
        assert doc[key] == value, key
    code, compact, _ = run_replay(tmp_path, json.dumps(data["record"]), "--compact")
    assert code == 0 and compact == doc


@pytest.mark.integration
def test_replay_reports_an_illegal_action(tmp_path: Path) -> None:
    record = {"variant": "vierer-dominari", "actions": [
        {"type": "place", "cell": "c3", "number": 5},
        {"type": "place", "cell": "c4", "number": 1},
        {"type": "place", "cell": "b3", "number": 5},
    ]}
    code, out, err = run_replay(tmp_path, json.dumps(record))
    assert code == 1 and "Traceback" not in err
    assert out == {"error": {"index": 2, "action": record["actions"][2],
                             "reason": "5 is already in rank 3", "cells": ["c3"]}}


def run_replay_in_process(tmp_path: Path, content: str,
                          capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """The same command through ``main``: an escaping exception would fail the test."""
    from sudoku_table.cli import main

    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    code = main(["replay", str(path)])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.integration
def test_replay_of_text_that_is_not_json(tmp_path: Path) -> None:
    code, out, err = run_replay(tmp_path, "{not json")
    assert code == 1 and err == "" and "not valid JSON" in out["error"]["reason"]


@pytest.mark.parametrize("content, words", [
    ('{"variant": "backgammon"}', "unknown variant"),
    ('{"variant": "halma-dominari", "actions": [{"type": "move", "path": ["a1", "q4"]}]}',
     "q4"),
    ('{"variant": "halma-dominari", "players": "2"}', "players"),
    ('{"variant": "revers-dominari", "actions": [{"type": "place", "cell": "b4"}]}',
     "number"),
    ("[" * 50_000, "nested"),
])
def test_replay_explains_bad_records_without_a_traceback(
        tmp_path: Path, content: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_replay_in_process(tmp_path, content, capsys)
    assert code == 1
    assert words in out["error"]["reason"]


def test_replay_of_a_cell_off_the_board_names_the_action(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = {"variant": "score-dominari", "actions": [{"type": "place", "cell": "g7",
                                                         "number": 1}]}
    code, out = run_replay_in_process(tmp_path, json.dumps(record), capsys)
    assert code == 1 and out["error"]["index"] == 0 and out["error"]["cells"] == ["g7"]


@pytest.mark.integration
def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    code, out, err = run_replay(tmp_path, None)
    assert code == 1 and "Traceback" not in err and "cannot read" in out["error"]["reason"]


@pytest.mark.integration
def test_replay_reads_standard_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_table.cli", "replay", "-", "--compact"],
        input='{"variant": "halma-dominari", "actions": [{"type": "move", "path": ["b2", "c3"]}]}',
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0
    doc = json.loads(done.stdout)
    assert doc["to_move"] == 1 and doc["cells"]["c3"] == {"owner": 0, "number": 5}


# --- the rules texts ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant_id", ["halma-dominari", "vierer-dominari", "revers-dominari",
                                        "score-dominari"])
def test_each_dominari_game_has_its_rules_in_plain_markdown(variant_id: str) -> None:
    text = (RULES_TEXT / f"{variant_id}.md").read_text(encoding="utf-8")
    assert text.startswith(f"# {new_game(variant_id).name}\n")
    assert "## Table rulings" in text
    assert "|" not in text, "tables are not part of the Markdown the panel renders"
    assert all(len(line) <= 100 for line in text.splitlines())
