"""One confirmed sensor event passes each room of the table once, in one direction.

The event is traced as it runs (``sys.setprofile``): at every call into a module of
``sudoku_table.table`` the stack is read as the rooms it passes, in order. No room may be
entered while the event is still inside it further down the stack (no table -> part -> table,
no part that calls back into the part that asked it), and the rooms in the order the event
first enters them, each with the room that entered it, are the path written in docs/DESIGN.md
("The rooms of src/sudoku_table/table, and one sensor event through them").

The journal (``journal/``) is one room here: its modules are the pieces of one store.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from sudoku_table.firmware.ports import SensorEvent

from .helpers import make_table

PACKAGE = "sudoku_table.table"
DESIGN = Path(__file__).resolve().parents[2] / "docs" / "DESIGN.md"


def room(module: str) -> str | None:
    """The room of the table a module belongs to (None: a module outside the table)."""
    if not module.startswith(PACKAGE + "."):
        return None
    name = module.removeprefix(PACKAGE + ".")
    return "journal" if name.startswith("journal.") else name


class Trace:
    """The rooms a traced run entered: each with the room that first entered it, and every
    stack on which a room was entered again while the run was still inside it."""

    def __init__(self) -> None:
        self.entered: dict[str, str] = {}
        self.twice: list[str] = []

    def see(self, stack: list[str]) -> None:
        """One call: ``stack`` is the rooms from the outermost call to the one just entered,
        a room repeated in a row counted once."""
        if len(stack) != len(set(stack)):
            self.twice.append(" -> ".join(stack))
        for caller, callee in zip(["scan"] + stack, stack, strict=False):
            self.entered.setdefault(callee, caller)

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call" and room(frame.f_globals.get("__name__", "")) is not None:
            self.see(rooms_on(frame))

    def path(self) -> list[tuple[str, str]]:
        """(room, the room that entered it) in the order the run first entered them."""
        return list(self.entered.items())


def rooms_on(frame: FrameType | None) -> list[str]:
    """The table's rooms on the stack that ends at ``frame``, outermost first."""
    rooms: list[str] = []
    while frame is not None:
        name = room(frame.f_globals.get("__name__", ""))
        if name is not None and (not rooms or rooms[-1] != name):
            rooms.append(name)
        frame = frame.f_back
    return rooms[::-1]


def traced(run: Callable[[], object]) -> Trace:
    trace = Trace()
    sys.setprofile(trace.profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return trace


def told_path() -> list[tuple[str, str]]:
    """The path DESIGN.md writes: one ``room <- the room that entered it`` a line."""
    text = DESIGN.read_text(encoding="utf-8")
    told = re.search(r"<!-- sensor path -->\n```\n(.*?)\n```", text, re.S)
    assert told is not None, "DESIGN.md tells the path between <!-- sensor path --> and ```"
    path = []
    for line in told.group(1).splitlines():
        callee, _, caller = line.partition("<-")
        path.append((callee.strip(), caller.split()[0] if caller.strip() else "scan"))
    return path


@pytest.fixture
def confirmed(tmp_path: Path) -> Iterator[Trace]:
    """The trace of one confirmed event that counts: a number chosen first, then its piece
    put down on the board, with the journal on disk."""
    table, clock, _ = make_table(tmp_path / "games.db")
    try:
        table.new_game("fake-kosmos")
        table.set_board([])
        table.input({"type": "number", "number": 3})
        clock.now += 0.1
        event = SensorEvent("c3", True, clock.now)
        trace = traced(lambda: table.handle_sensor(event))
        record = table.record()
        assert record is not None and record["actions"], "the event counted as an action"
        yield trace
    finally:
        table.close()


@pytest.mark.integration
def test_a_sensor_event_enters_no_room_twice(confirmed: Trace) -> None:
    assert confirmed.twice == []


@pytest.mark.integration
def test_the_path_is_the_one_design_tells(confirmed: Trace) -> None:
    assert told_path() == confirmed.path()


def test_the_check_sees_a_room_entered_again() -> None:
    """The check can fail: a part that calls back into the table, or into the part that
    asked it, is seen; a room called twice one after the other is not."""
    trace = Trace()
    trace.see(["table", "sensing"])
    trace.see(["table", "sensing", "table"])
    trace.see(["table", "present", "placing", "history", "placing"])
    trace.see(["table", "companion"])
    trace.see(["table", "companion", "board"])
    trace.see(["table", "companion", "history"])
    assert trace.twice == ["table -> sensing -> table",
                           "table -> present -> placing -> history -> placing"]
    assert trace.path() == [("table", "scan"), ("sensing", "table"), ("present", "table"),
                            ("placing", "present"), ("history", "placing"),
                            ("companion", "table"), ("board", "companion")]


def test_the_journal_is_one_room() -> None:
    assert room("sudoku_table.table.journal.writer") == "journal"
    assert room("sudoku_table.table.sensing") == "sensing"
    assert room("sudoku_table.rules.game") is None
