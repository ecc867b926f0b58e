"""A recording display, a clock the test moves by hand, and the scenario runner."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sudoku_table.firmware.ports import Frame, SensorEvent
from sudoku_table.table import InputError, Table

from .fakes import resolve

SCENARIOS = Path(__file__).parent / "scenarios"


class RecordingDisplay:
    """Keeps every frame shown, like the simulator's pixel buffer."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.brightness = 1.0
        self.closed = False

    def show(self, frame: Frame) -> None:
        self.frames.append(dict(frame))

    def set_brightness(self, level: float) -> None:
        self.brightness = level

    def close(self) -> None:
        self.closed = True

    @property
    def last_frame(self) -> Frame:
        return self.frames[-1] if self.frames else {}


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_table(journal: str | Path | None = None, **kwargs: Any) -> tuple[Table, Clock,
                                                                           RecordingDisplay]:
    clock = Clock()
    display = RecordingDisplay()
    kwargs.setdefault("reserve", 0)  # the tests that need the journal's reserve ask for one
    table = Table(display, journal, clock=clock, resolve=resolve, settle=1.0, **kwargs)
    return table, clock, display


def put(table: Table, clock: Clock, square: str, occupied: bool = True) -> dict[str, Any]:
    clock.now += 0.1
    table.handle_sensor(SensorEvent(square, occupied, clock.now))
    return table.view()


def lift(table: Table, clock: Clock, square: str) -> dict[str, Any]:
    return put(table, clock, square, False)


def place(table: Table, clock: Clock, square: str, number: int) -> dict[str, Any]:
    """Put a piece down on ``square`` and tap its number."""
    put(table, clock, square)
    return table.input({"type": "number", "square": square, "number": number})


def kosmos(cards: Iterable[tuple[str, int]],
           journal: str | Path | None = None) -> tuple[Table, Clock]:
    """A new Fake Kosmos game on an empty board with ``cards`` (square, number) placed in turn."""
    table, clock, _ = make_table(journal)
    table.new_game("fake-kosmos")
    table.set_board([])
    for square, number in cards:
        place(table, clock, square, number)
    return table, clock


def wait(table: Table, clock: Clock, seconds: float) -> dict[str, Any]:
    clock.now += seconds
    table.tick()
    return table.view()


def load_scenarios() -> list[tuple[str, dict[str, Any]]]:
    result = []
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text())
        for scenario in data:
            result.append((f"{path.stem}: {scenario['name']}", scenario))
    return result


def _subset(expected: Any, actual: Any, where: str) -> None:
    if isinstance(expected, Mapping):
        assert isinstance(actual, Mapping), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing in {actual!r}"
            _subset(value, actual[key], f"{where}.{key}")
    else:
        assert expected == actual, f"{where}: expected {expected!r}, got {actual!r}"


def check_expectation(view: dict[str, Any], expect: Mapping[str, Any], where: str) -> None:
    table = view["table"]
    for key, value in expect.items():
        if key == "signals":
            assert table["signals"] == value, f"{where} signals: {table['signals']}"
        elif key == "signals_include":
            _subset(value, table["signals"], f"{where} signals")
        elif key == "lit":
            assert sorted(table["signals"]) == sorted(value), f"{where}: {table['signals']}"
        elif key == "prompt":
            if value is None:
                assert table["prompt"] is None, f"{where} prompt: {table['prompt']}"
            else:
                _subset(value, table["prompt"], f"{where} prompt")
        elif key == "message_contains":
            assert value in (table["message"] or ""), f"{where} message: {table['message']!r}"
        elif key == "state":
            _subset(value, view["game"], f"{where} state")
        elif key == "guidance":
            assert table["guidance"] == value, f"{where} guidance: {table['guidance']}"
        elif key == "actions":
            pass  # checked by the runner, which has the record
        else:
            raise AssertionError(f"{where}: unknown expectation {key!r}")


def run_scenario(scenario: Mapping[str, Any], table: Table | None = None,
                 clock: Clock | None = None) -> Table:
    """Play a scenario step by step, checking every expectation; returns the table."""
    if table is None or clock is None:
        table, clock, _ = make_table()
    # The game starts on an empty board (leftovers would have to be cleared first); then the
    # players lay out the scenario's board.
    table.set_board([])
    table.new_game(scenario["variant"], scenario.get("players"), scenario.get("options"),
                   scenario.get("setup"), scenario.get("hints", False))
    table.set_board(scenario.get("board", []))
    for index, step in enumerate(scenario["steps"]):
        where = f"step {index}"
        view = None
        if "put" in step:
            view = put(table, clock, step["put"])
        elif "lift" in step:
            view = lift(table, clock, step["lift"])
        elif "sensor" in step:
            view = put(table, clock, step["sensor"], step["occupied"])
        elif "input" in step:
            if "error" in step:
                before = table.view()
                try:
                    table.input(step["input"])
                except InputError as e:
                    assert step["error"] in str(e), f"{where}: error {e!r}"
                else:
                    raise AssertionError(f"{where}: expected an error")
                after = table.view()
                assert before["game"] == after["game"], f"{where}: an error changed the game"
            else:
                view = table.input(step["input"])
        elif "wait" in step:
            view = wait(table, clock, step["wait"])
        elif "board" in step:
            view = table.set_board(step["board"])
        if "expect" in step:
            view = table.view()
            check_expectation(view, step["expect"], where)
            if "actions" in step["expect"]:
                record = table.record()
                assert record is not None
                assert record["actions"] == step["expect"]["actions"], (
                    f"{where} actions: {record['actions']}")
    return table
