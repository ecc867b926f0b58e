"""``sudoku-table move``: one action for the player to move, in the record format, which
``replay`` accepts appended to the record; bad input exits with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_table.cli import main
from sudoku_table.rules.record import Record

from .positions import GAMES, random_position


def _record_file(tmp_path: Path, variant: str, players: int, plies: int, seed: int) -> Path:
    """A record of random play (the actions that reached ``random_position``)."""
    game, state = random_position(variant, players, plies, seed)
    # replay the same random play, keeping its actions
    import random

    from sudoku_table.ai.engine import candidates

    rng = random.Random(seed)
    current = game.initial_state(None)
    actions = []
    for _ in range(plies):
        options = candidates(game, current)
        action = options[rng.randrange(len(options))]
        after = game.apply(current, action)
        if after.over:
            break
        actions.append(action.to_json())
        current = after
    assert current == state
    data = {"variant": variant, "players": players, "actions": actions}
    path = tmp_path / f"{variant}-{players}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("variant,players", GAMES)
def test_move_round_trips_with_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      variant: str, players: int) -> None:
    path = _record_file(tmp_path, variant, players, 9, seed=4)
    code, out, _ = _run(capsys, "move", str(path), "--level", "easy", "--seed", "3")
    assert code == 0
    printed = json.loads(out)
    assert set(printed) == {"action"}
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"].append(printed["action"])
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = _run(capsys, "replay", str(path), "--compact")
    assert code == 0, out
    assert json.loads(out)["variant"] == variant
    # the same seed prints the same action
    data["actions"].pop()
    path.write_text(json.dumps(data), encoding="utf-8")
    again = _run(capsys, "move", str(path), "--level", "easy", "--seed", "3")
    assert json.loads(again[1]) == printed


def test_a_given_hand_is_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path, "sudoku-family", 2, 4, seed=1)
    for hand in (1, 6):
        code, out, _ = _run(capsys, "move", str(path), "--hand", str(hand), "--level", "normal")
        assert code == 0
        assert json.loads(out)["action"]["number"] == hand


def test_an_illegal_record_prints_replays_error(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"variant": "classic-sudoku", "actions": [
        {"type": "place", "cell": "a1", "number": 5},
        {"type": "place", "cell": "a2", "number": 5}]}), encoding="utf-8")
    replay_code, replay_out, _ = _run(capsys, "replay", str(path))
    move_code, move_out, _ = _run(capsys, "move", str(path))
    assert replay_code == move_code == 1
    assert json.loads(move_out) == json.loads(replay_out)
    assert json.loads(move_out)["error"]["index"] == 1
    path.write_text("{not json", encoding="utf-8")
    assert _run(capsys, "move", str(path))[1] == _run(capsys, "replay", str(path))[1]


def test_a_finished_record_has_no_move(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # White owns b1..b4 after four turns each: four in a column wins Vierer at once.
    actions = []
    for k, (w, b) in enumerate([("b1", "c1"), ("b2", "c2"), ("b3", "c3"), ("b4", None)]):
        actions.append({"type": "place", "cell": w, "number": k + 1})
        if b:
            actions.append({"type": "place", "cell": b, "number": (k + 2) % 5 + 1})
    path = tmp_path / "won.json"
    path.write_text(json.dumps({"variant": "vierer-dominari", "actions": actions}),
                    encoding="utf-8")
    code, out, _ = _run(capsys, "replay", str(path), "--compact")
    assert code == 0 and json.loads(out)["over"], out
    code, out, _ = _run(capsys, "move", str(path))
    assert code == 1
    assert json.loads(out) == {"error": {"reason": "the game is over", "cells": []}}


def test_bad_hand_and_level_are_refused(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path, "classic-sudoku", 2, 0, seed=1)
    code, out, _ = _run(capsys, "move", str(path), "--hand", "0")
    assert code == 1
    assert "cannot hold 0" in json.loads(out)["error"]["reason"]
    halma = _record_file(tmp_path, "halma-dominari", 2, 0, seed=1)
    code, out, _ = _run(capsys, "move", str(halma), "--hand", "3")
    assert code == 1 and "hides no card" in json.loads(out)["error"]["reason"]
    with pytest.raises(SystemExit) as exit_info:
        main(["move", str(path), "--level", "expert"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'expert'" in capsys.readouterr().err


def test_the_config_sets_the_effort(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path, "classic-sudoku", 2, 0, seed=1)
    config = tmp_path / "table.toml"
    config.write_text("[computer]\nstrong_positions = 0\n", encoding="utf-8")
    code, _, err = _run(capsys, "move", str(path), "--config", str(config))
    assert code == 2 and "computer.strong_positions must be a whole number" in err
    config.write_text("[computer]\nstrong_positions = 30\n", encoding="utf-8")
    code, out, _ = _run(capsys, "move", str(path), "--config", str(config), "--level", "strong")
    assert code == 0 and Record.from_json({"variant": "classic-sudoku",
                                           "actions": [json.loads(out)["action"]]})
