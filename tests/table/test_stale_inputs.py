"""An input states the view it answers: one made from an older view than the game's is refused.

Two phones tapping Undo at once used to take back two actions; now each input may carry the
``version`` of the view it was made from, and the table refuses it (``StaleInput``, with the
current view) when the game, its prompt or the pending piece changed since. What does not change
what an input answers (a piece merely felt, the computer thinking, a hint found) never makes it
stale.
"""

from __future__ import annotations

import threading

import pytest

from sudoku_table.firmware.ports import SensorEvent, SensorFault
from sudoku_table.table import InputError, StaleInput, Table

from .helpers import Clock, kosmos, make_table, put

pytestmark = pytest.mark.integration


def started() -> tuple[Table, Clock]:
    return kosmos((("a1", 1), ("b1", 2), ("c1", 3)))


def test_an_input_from_the_current_view_is_taken() -> None:
    table, _ = started()
    version = table.view()["version"]
    view = table.input({"type": "undo", "confirm": True, "version": version})
    assert view["version"] > version
    assert len(table.record()["actions"]) == 2


def test_a_second_undo_from_the_same_view_is_stale_and_changes_nothing() -> None:
    table, _ = started()
    version = table.view()["version"]
    table.input({"type": "undo", "confirm": True, "version": version})
    before = table.record()
    with pytest.raises(StaleInput) as caught:
        table.input({"type": "undo", "confirm": True, "version": version})
    assert table.record() == before
    assert len(before["actions"]) == 2
    assert caught.value.view["version"] == table.view()["version"]  # the view it missed


def test_without_a_version_an_input_is_taken_as_before() -> None:
    table, _ = started()
    table.input({"type": "undo", "confirm": True})  # another player's action: confirmed
    table.input({"type": "undo", "confirm": True})
    assert len(table.record()["actions"]) == 1


def test_a_felt_piece_or_the_table_thinking_does_not_make_an_input_stale() -> None:
    table, clock = started()
    version = table.view()["version"]
    clock.now += 0.01
    table.handle_felt(SensorEvent("d4", True, clock.now))  # a hand touches the board
    table.handle_felt(SensorEvent("d4", False, clock.now))
    table.handle_fault(SensorFault("e5", "chatter", "", clock.now))
    assert table.view()["version"] > version
    table.input({"type": "undo", "confirm": True, "version": version})
    assert len(table.record()["actions"]) == 2


def test_a_new_prompt_makes_an_older_input_stale() -> None:
    table, clock = started()
    version = table.view()["version"]
    put(table, clock, "d1")  # a new piece waits for its number: the question changed
    with pytest.raises(StaleInput):
        table.input({"type": "number", "number": 4, "version": version})
    assert table.view()["table"]["prompt"]["square"] == "d1"
    table.input({"type": "number", "square": "d1", "number": 4,
                 "version": table.view()["version"]})
    assert len(table.record()["actions"]) == 4


def test_a_version_the_table_never_showed_is_stale() -> None:
    table, _ = started()
    with pytest.raises(StaleInput):
        table.input({"type": "undo", "version": table.view()["version"] + 1000})
    assert len(table.record()["actions"]) == 3


@pytest.mark.parametrize("bad", [-1, "7", 1.5, True])
def test_a_malformed_version_is_refused(bad: object) -> None:
    table, _ = started()
    with pytest.raises(InputError) as caught:
        table.input({"type": "undo", "version": bad})
    assert not isinstance(caught.value, StaleInput)
    assert len(table.record()["actions"]) == 3


def race(table: object, version: int) -> list[str]:
    """Two threads send the same undo at once; what each got."""
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tap() -> None:
        barrier.wait()
        try:
            table.input(  # type: ignore[attr-defined]
                {"type": "undo", "confirm": True, "version": version})
            outcomes.append("taken")
        except StaleInput:
            outcomes.append("stale")

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_two_undos_racing_from_one_view_take_back_exactly_one_action() -> None:
    for _ in range(20):
        table, _ = started()
        assert sorted(race(table, table.view()["version"])) == ["stale", "taken"]
        assert len(table.record()["actions"]) == 2


def test_the_computer_thinking_does_not_make_an_input_stale() -> None:
    """The computer's plan arrives as new views while a person may be tapping: an input made
    before it is still taken."""
    from .test_computer import QUICK, settled

    table, _, _ = make_table(computer=QUICK)
    before = table.new_game("vierer-dominari", computers={0: "easy"})["version"]
    view = settled(table)  # the computer has chosen: a new version, the same game
    assert view["version"] > before and view["table"]["plan"] is not None
    table.input({"type": "hints", "on": True, "version": before})
    assert table.view()["table"]["hints"] is True
