"""The table as a service: threads, waiting for changes, sensors, faults, LEDs."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from sudoku_table.firmware.ports import SensorEvent, SensorFault
from sudoku_table.table import InputError, Table
from sudoku_table.table.signals import (
    LIGHTS,
    PLAYER_COLORS,
    SIGNALS,
    compose_frame,
    legend,
    light,
    merge,
)

from ..waiting import until
from .fakes import resolve
from .helpers import RecordingDisplay, make_table, put


class ListSensors:
    """A sensor source that reports what the test tells it to."""

    def __init__(self, occupied: set[str]) -> None:
        self.board = set(occupied)
        self.on_event: Callable[[SensorEvent], None] | None = None
        self.on_fault: Callable[[SensorFault], None] | None = None
        self.stopped = 0

    def start(self, on_event: Callable[[SensorEvent], None],
              on_fault: Callable[[SensorFault], None] | None = None,
              on_felt: Callable[[SensorEvent], None] | None = None) -> None:
        self.on_event, self.on_fault = on_event, on_fault

    def stop(self) -> None:
        self.stopped += 1

    def occupied(self) -> frozenset[str]:
        return frozenset(self.board)

    def set(self, square: str, occupied: bool) -> None:
        (self.board.add if occupied else self.board.discard)(square)
        assert self.on_event is not None
        self.on_event(SensorEvent(square, occupied, time.monotonic()))


@pytest.mark.integration
def test_before_a_game_the_view_has_no_game_but_shows_the_sensors() -> None:
    table, clock, _ = make_table()
    put(table, clock, "c3")
    view = table.view()
    assert view["game"] is None
    assert view["table"]["occupied"] == ["c3"] and view["table"]["signals"] == {}
    with pytest.raises(InputError, match="choose a game"):
        table.input({"type": "undo"})
    table.close()


@pytest.mark.integration
def test_attach_takes_the_sensor_board_and_listens() -> None:
    table, _, display = make_table()
    sensors = ListSensors({"a1"})
    table.new_game("fake-kosmos")
    table.attach(sensors)
    assert table.view()["table"]["signals"] == {"a1": "extra"}
    sensors.set("a1", False)
    sensors.set("b2", True)
    assert table.view()["table"]["prompt"]["square"] == "b2"
    assert display.last_frame["b2"] == LIGHTS["number"]
    table.close()
    table.close()
    assert sensors.stopped == 1
    assert display.last_frame == {}


@pytest.mark.integration
def test_unknown_variants_and_bad_setups_are_input_errors() -> None:
    table, _, _ = make_table()
    with pytest.raises(InputError, match="unknown variant"):
        table.new_game("chess")
    with pytest.raises(InputError, match="players"):
        table.new_game("fake-kosmos", players=7)
    with pytest.raises(InputError, match="not a cell"):
        table.new_game("fake-halma", setup={"h8": {"owner": 0, "number": 1}})
    with pytest.raises(InputError, match="no option"):
        table.new_game("fake-kosmos", options={"speed": 3})
    assert table.view()["game"] is None
    table.close()


@pytest.mark.integration
def test_wait_for_change_wakes_on_a_sensor_event_from_another_thread() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    version = table.version
    threading.Timer(0.05, lambda: put(table, clock, "b2")).start()
    new_version, view = table.wait_for_change(version, timeout=5)
    assert new_version != version and view["table"]["prompt"]["square"] == "b2"
    same, _ = table.wait_for_change(new_version, timeout=0.01)
    assert same == new_version
    table.close()


@pytest.mark.integration
def test_wait_for_occupied() -> None:
    table, clock, _ = make_table()
    assert not table.wait_for_occupied("c3", True, timeout=0.01)
    threading.Timer(0.05, lambda: put(table, clock, "c3")).start()
    assert table.wait_for_occupied("c3", True, timeout=5)
    assert table.wait_for_occupied("d4", False, timeout=0)
    table.close()


@pytest.mark.integration
def test_events_from_many_threads_keep_the_table_consistent() -> None:
    table, _, display = make_table()
    table.new_game("fake-kosmos")
    squares = [f"{f}{r}" for f in "abcd" for r in range(1, 5)]

    def churn(seed: int) -> None:
        for i in range(200):
            square = squares[(seed * 7 + i) % len(squares)]
            table.handle_sensor(SensorEvent(square, i % 2 == 0, 0.0))
            if i % 25 == 0:
                try:
                    table.input({"type": "number", "number": 1 + i % 4})
                except InputError:
                    pass

    threads = [threading.Thread(target=churn, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    view = table.view()
    assert display.last_frame == compose_frame(view["table"]["signals"],
                                               table._companion.last_player())
    table.close()


@pytest.mark.integration
def test_the_settle_timer_runs_by_itself_with_the_real_clock() -> None:
    display = RecordingDisplay()
    table = Table(display, resolve=resolve, settle=0.05)
    table.new_game("fake-kosmos")
    for square, occupied in (("b2", True),):
        table.handle_sensor(SensorEvent(square, occupied, time.monotonic()))
    table.input({"type": "number", "number": 3})
    table.handle_sensor(SensorEvent("b2", False, time.monotonic()))
    assert until(lambda: table.view()["game"]["cells"] == {})
    table.close()


@pytest.mark.integration
def test_faults_are_reported_never_moves() -> None:
    table, _, _ = make_table()
    table.new_game("fake-kosmos")
    table.handle_fault(SensorFault("c3", "chatter", "c3 changed 40 times in a second", 0.0))
    view = table.view()
    assert view["table"]["faults"] == [{"square": "c3", "kind": "chatter",
                                        "detail": "c3 changed 40 times in a second",
                                        "line": None, "shorted": False}]
    assert view["game"]["cells"] == {} and view["table"]["signals"] == {}
    table.handle_sensor(SensorEvent("zz", True, 0.0))
    assert "unknown square" in table.view()["table"]["notices"][-1]
    table.close()


@pytest.mark.integration
def test_brightness_and_led_test() -> None:
    table, clock, display = make_table()
    table.new_game("fake-kosmos")
    put(table, clock, "b2")
    table.leds.set_brightness(0.4)
    assert display.brightness == 0.4
    with pytest.raises(InputError):
        table.leds.set_brightness(3)
    with pytest.raises(InputError):
        table.leds.set_brightness(True)
    shown = len(display.frames)
    table.leds.test(step=0, wait=True)
    test_frames = display.frames[shown:-1]
    assert [next(iter(f)) for f in test_frames] == [f"{f}{r}" for r in range(1, 10)
                                                     for f in "abcdefghi"]
    assert display.last_frame == {"b2": LIGHTS["number"]}
    table.close()


@pytest.mark.integration
def test_a_failing_display_is_reported_not_raised() -> None:
    class Broken(RecordingDisplay):
        def show(self, frame: object) -> None:
            raise OSError("SPI gone")

    table = Table(Broken(), resolve=resolve, ticker=False)
    table.new_game("fake-kosmos")
    assert any("SPI gone" in n for n in table.view()["table"]["notices"])
    table.close()


def test_every_word_has_its_own_pattern_and_level_not_colour_alone() -> None:
    looks = [(light(w, 0).pattern, light(w, 0).level) for w in SIGNALS]
    assert len(set(looks)) == len(SIGNALS)
    assert set(legend()) == set(SIGNALS)
    assert compose_frame({"c3": "last"}, 1)["c3"].color == PLAYER_COLORS[1]
    assert merge({"dead": {"a1"}, "illegal": {"a1"}, "target": {"b1"}}) == {
        "a1": "illegal", "b1": "target"}


@pytest.mark.integration
def test_the_view_lists_squares_in_board_order() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    for square in ("d4", "a1", "c2"):
        put(table, clock, square)
    assert table.view()["table"]["occupied"] == ["a1", "c2", "d4"]
    table.close()
