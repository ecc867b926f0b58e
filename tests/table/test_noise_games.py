"""Games on the simulated table with its physical noise: the real scan path (gpiozero mock pins,
the matrix, the debouncer) on a manual clock, feeding the real table and rules.

A slide over two to four squares at hand speed or a weak magnet's flicker never makes a game
action, a new piece or a landing, in a placement game (Vierer, Classic, Revers) or a game of
moves (Halma); the LED under each square passed still answers within the budget; two pieces
put down at once are both seen; bounce never doubles what the game hears; a real set-down counts.
The same slides on the old 20 ms path make ghost actions: these tests can fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudoku_table.firmware.config import SensorConfig, SimulatorConfig
from sudoku_table.firmware.layout import SQUARES, squares_in_line
from sudoku_table.firmware.matrix import ReedMatrix
from sudoku_table.firmware.ports import Frame, SensorEvent
from sudoku_table.firmware.simulator import ManualClock, SimulatedBoard, scan_until
from sudoku_table.table import Table
from sudoku_table.table.signals import FELT, LIGHTS

pytestmark = pytest.mark.integration

BUDGET = 0.012
"""Switch to the LED frame that shows the change, at most."""

HALMA_PIECES = ["a1", "b1", "c1", "a2", "b2", "a3", "f6", "e6", "d6", "f5", "e5", "f4"]
REVERS_PIECES = ["c3", "d3", "c4", "d4"]


class TimedDisplay:
    """Keeps every frame shown with the manual clock's time."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.frames: list[tuple[float, Frame]] = []

    def show(self, frame: Frame) -> None:
        self.frames.append((self.clock.now, dict(frame)))

    def set_brightness(self, level: float) -> None:
        pass

    def close(self) -> None:
        pass

    def first(self, square: str, since: float) -> float | None:
        """When a frame shown since ``since`` first lit ``square`` with the feedback light."""
        return next((t for t, f in self.frames if t >= since and f.get(square) == FELT), None)


class Rig:
    """A table on the simulated board with the noise model, driven on a manual clock."""

    def __init__(self, variant: str, pieces: list[str] = (), seed: int = 1,  # type: ignore[assignment]
                 **sensors: Any) -> None:
        self.clock = ManualClock(1000.0)
        self.config = SensorConfig(**sensors)
        self.board = SimulatedBoard(self.config, SimulatorConfig(seed=seed), clock=self.clock)
        for square in pieces:
            self.board.set_square(square, True)
        self.clock.now += 0.01  # the bounces are over
        self.matrix = ReedMatrix(self.config, pin_factory=self.board.factory, clock=self.clock)
        self.display = TimedDisplay(self.clock)
        self.table = Table(self.display, clock=self.clock, ticker=False)
        self.table.new_game(variant)
        self.heard: list[SensorEvent] = []
        # What Sensors.attach does, without the scan thread: the clock is the test's.
        self.table.set_board(self.matrix.occupied())
        self.matrix.listen(self.hear, self.table.handle_fault,
                           self.table.handle_felt)

    def hear(self, event: SensorEvent) -> None:
        self.heard.append(event)
        self.table.handle_sensor(event)

    def until(self, when: float) -> None:
        scan_until(self.matrix, self.clock, when, self.table.tick)

    def run(self, seconds: float) -> None:
        self.until(self.clock.now + seconds)

    def put(self, square: str, occupied: bool = True) -> None:
        self.board.set_square(square, occupied)
        self.run(0.3)

    def slide(self, path: list[str], speed: float, **kwargs: Any) -> None:
        slide = self.board.slide(path, speed, **kwargs)
        self.until(slide.end + 0.4)

    @property
    def view(self) -> dict[str, Any]:
        return self.table.view()  # type: ignore[return-value]

    def actions(self) -> list[Any]:
        record = self.table.record()
        assert record is not None
        return list(record["actions"])

    def close(self) -> None:
        self.table.close()
        self.matrix.close()
        self.board.close()


@pytest.fixture
def rigs() -> Iterator[list[Rig]]:
    made: list[Rig] = []
    yield made
    for rig in made:
        rig.close()




def quiet(rig: Rig) -> dict[str, Any]:
    """What the players see that a ghost would change."""
    table = rig.view["table"]
    return {"actions": rig.actions(), "prompt": table["prompt"], "signals": table["signals"],
            "occupied": table["occupied"], "message": table["message_code"]}


# --- placement games ----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "pieces"), [("vierer-dominari", []),
                                                 ("classic-sudoku", []),
                                                 ("revers-dominari", REVERS_PIECES)])
@pytest.mark.parametrize("length", [2, 3, 4])
@pytest.mark.parametrize("speed", [0.1, 0.4, 1.0])
def test_a_slide_lifted_off_is_no_game_action_in_a_placement_game(
        rigs: list[Rig], variant: str, pieces: list[str], length: int, speed: float) -> None:
    rig = Rig(variant, pieces)
    rigs.append(rig)
    before = quiet(rig)
    path = squares_in_line("a1", (1, 0), length, 6)
    assert path is not None
    start = rig.clock.now
    rig.slide(path, speed)
    assert quiet(rig) == before
    assert rig.heard == []
    for square in path[:-1] if speed < 1.0 else []:  # each LED answered the magnet
        felt = rig.display.first(square, start)
        assert felt is not None
    assert rig.display.frames[-1][1] == rig.table.frame()  # and took its answer back


@pytest.mark.parametrize("length", [2, 3, 4])
def test_a_slide_set_down_is_one_new_piece_where_it_rests(rigs: list[Rig], length: int) -> None:
    rig = Rig("vierer-dominari")
    rigs.append(rig)
    path = squares_in_line("b2", (1, 1), length, 6)
    assert path is not None
    rig.slide(path, 0.2, rest=True)
    assert [(e.square, e.occupied) for e in rig.heard] == [(path[-1], True)]
    assert rig.view["table"]["prompt"]["square"] == path[-1]
    assert rig.actions() == []
    rig.table.input({"type": "number", "number": 1})  # the real set-down counts
    assert len(rig.actions()) == 1


def test_a_flicker_is_no_new_piece_and_is_reported(rigs: list[Rig]) -> None:
    rig = Rig("vierer-dominari")
    rigs.append(rig)
    before = quiet(rig)
    rig.board.flicker("c4", 1.5)
    rig.run(3.0)
    assert quiet(rig) == before and rig.heard == []
    assert [f["kind"] for f in rig.view["table"]["faults"]] == ["chatter"]


def test_two_pieces_put_down_at_once_are_both_seen(rigs: list[Rig]) -> None:
    rig = Rig("vierer-dominari")
    rigs.append(rig)
    start = rig.clock.now + 0.0005
    rig.board.set_square("b2", True, at=start)
    rig.board.set_square("e5", True, at=start + 0.003)
    rig.run(0.4)
    for square in ("b2", "e5"):
        felt = rig.display.first(square, start)
        assert felt is not None and felt - start <= BUDGET + 0.003
    table = rig.view["table"]
    assert table["occupied"] == ["b2", "e5"]
    pending = table["prompt"]["square"]
    other = ({"b2", "e5"} - {pending}).pop()
    assert table["signals"][other] == "extra"  # one at a time: the other waits, shown
    assert rig.display.frames[-1][1][pending] == LIGHTS["number"]


def test_bounce_never_doubles_what_the_game_hears(rigs: list[Rig]) -> None:
    rig = Rig("vierer-dominari", seed=11)
    rigs.append(rig)
    changes = 0
    for square in ["a1", "c2", "e3", "b4", "d5", "f6", "b1", "d2"]:
        start = rig.clock.now
        rig.put(square)
        changes += 1
        felt = rig.display.first(square, start)
        assert felt is not None and felt - start <= BUDGET
        prompt = rig.view["table"]["prompt"]
        assert prompt["square"] == square
        if prompt["choices"]:
            before = len(rig.actions())
            rig.table.input({"type": "number", "number": prompt["choices"][0]})
            assert len(rig.actions()) == before + 1  # each piece counted once
        else:
            rig.put(square, False)  # no number fits here: the piece goes away again
            changes += 1
    assert len(rig.heard) == changes  # one event per change of the hand
    assert len(rig.actions()) >= 2
    assert rig.view["table"]["faults"] == []


# --- a game of moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("length", [2, 3, 4])
@pytest.mark.parametrize("speed", [0.1, 0.4, 1.0])
def test_a_halma_piece_slid_over_squares_and_lifted_makes_no_landing(
        rigs: list[Rig], length: int, speed: float) -> None:
    rig = Rig("halma-dominari", HALMA_PIECES)
    rigs.append(rig)
    path = squares_in_line("c1", (0, 1), length, 6)
    assert path is not None
    rig.slide(path, speed, from_rest=True)
    assert [(e.square, e.occupied) for e in rig.heard] == [("c1", False)]  # really lifted
    table = rig.view["table"]
    assert rig.actions() == [] and table["next"]["code"] == "set_down"
    assert table["message_code"] is None  # no landing, no "not a move"
    rig.put("c1")  # put back: nothing happened
    assert rig.actions() == [] and rig.view["table"]["message_code"]["code"] == "put_back"


def test_a_halma_move_slid_to_rest_counts_once(rigs: list[Rig]) -> None:
    rig = Rig("halma-dominari", HALMA_PIECES)
    rigs.append(rig)
    rig.slide(["c1", "c2"], 0.3, from_rest=True, rest=True)
    assert rig.actions() == [{"type": "move", "path": ["c1", "c2"]}]


def test_a_halma_slide_past_a_target_lands_only_where_it_rests(rigs: list[Rig]) -> None:
    rig = Rig("halma-dominari", HALMA_PIECES)
    rigs.append(rig)
    rig.slide(["c1", "c2", "c3"], 0.1, from_rest=True, rest=True)  # passes c2, a legal step
    assert rig.actions() == []
    message = rig.view["table"]["message_code"]
    assert message["code"] in ("not_a_move", "number_illegal_move")
    assert message["params"]["start"] == "c1" and message["params"]["square"] == "c3"


def test_a_flicker_under_a_halma_piece_does_not_lift_it(rigs: list[Rig]) -> None:
    rig = Rig("halma-dominari", HALMA_PIECES)
    rigs.append(rig)
    rig.board.flicker("b2", 1.0)
    rig.board.flicker("d2", 1.0)
    rig.run(3.0)
    assert rig.heard == [] and rig.actions() == []
    assert rig.view["table"]["next"]["code"] == "move"


# --- Hypothesis ---------------------------------------------------------------------------------

DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.sampled_from(["c1", "b2", "a3"]), direction=st.sampled_from(DIRECTIONS),
       length=st.integers(2, 4), speed=st.floats(0.1, 1.0), reach=st.floats(2.0, 5.0),
       hysteresis=st.floats(0.0, 1.0), seed=st.integers(0, 2**32))
def test_random_halma_slides_make_no_game_action(start: str, direction: tuple[int, int],
                                                 length: int, speed: float, reach: float,
                                                 hysteresis: float, seed: int) -> None:
    path = squares_in_line(start, direction, length, 6)
    assume(path is not None and not any(s in HALMA_PIECES for s in path[1:]))
    assert path is not None
    rig = Rig("halma-dominari", HALMA_PIECES, seed=seed)
    try:
        rig.slide(path, speed, reach_mm=reach, release_mm=reach + hysteresis, from_rest=True)
        assert [(e.square, e.occupied) for e in rig.heard] == [(start, False)]
        assert rig.actions() == [] and rig.view["table"]["message_code"] is None
    finally:
        rig.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.sampled_from(SQUARES[:6] + SQUARES[9:15]), direction=st.sampled_from(DIRECTIONS),
       length=st.integers(2, 4), speed=st.floats(0.1, 1.0), reach=st.floats(2.0, 5.0),
       hysteresis=st.floats(0.0, 1.0), flicker=st.floats(0.0, 2.0),
       seed=st.integers(0, 2**32))
def test_random_slides_and_flickers_make_no_new_piece(start: str, direction: tuple[int, int],
                                                      length: int, speed: float, reach: float,
                                                      hysteresis: float, flicker: float,
                                                      seed: int) -> None:
    path = squares_in_line(start, direction, length, 6)
    assume(path is not None)
    assert path is not None
    rig = Rig("vierer-dominari", seed=seed)
    try:
        before = quiet(rig)
        if flicker:
            rig.board.flicker(path[-1], flicker)
        rig.slide(path, speed, reach_mm=reach, release_mm=reach + hysteresis)
        rig.run(flicker + 1.5)
        assert rig.heard == []
        after = quiet(rig)
        assert after == before
    finally:
        rig.close()


# --- these tests can fail -----------------------------------------------------------------------


def test_on_the_old_20_ms_path_slides_make_ghost_actions(rigs: list[Rig]) -> None:
    halma = Rig("halma-dominari", HALMA_PIECES, settle_ms=20.0)
    placing = Rig("vierer-dominari", settle_ms=20.0)
    rigs += [halma, placing]
    halma.slide(["c1", "c2", "c3"], 0.1, from_rest=True)
    assert halma.actions() != []  # the pass over c2 was taken for the step c1-c2
    placing.slide(["a1", "b1", "c1"], 0.2)
    assert placing.heard != []  # the passes were taken as new pieces


# --- the feedback light on the table's own --------------------------------------------------------


def test_a_felt_change_shows_at_once_and_the_game_hears_the_confirmed_one() -> None:
    clock = ManualClock(1000.0)
    display = TimedDisplay(clock)
    table = Table(display, clock=clock, ticker=False)
    try:
        table.new_game("vierer-dominari")
        version = table.version
        table.handle_felt(SensorEvent("c3", True, clock.now))
        assert display.frames[-1][1] == {"c3": FELT}
        # the phones draw the felt piece at once, as the LED shows it; the game hears nothing
        assert table.version == version + 1
        felt_view = table.view()["table"]
        assert felt_view["occupied"] == [] and felt_view["felt"] == ["c3"]
        assert felt_view["prompt"] is None and felt_view["signals"] == {}
        # a slide went on: taken back
        table.handle_felt(SensorEvent("c3", False, clock.now))
        assert display.frames[-1][1] == {}
        assert table.view()["table"]["felt"] == [] and table.version == version + 2
        table.handle_felt(SensorEvent("c3", True, clock.now))
        table.handle_felt(SensorEvent("c3", True, clock.now))  # a repeat changes nothing
        shown = len(display.frames)
        # confirmed: the game's answer
        table.handle_sensor(SensorEvent("c3", True, clock.now))
        assert display.frames[-1][1] == {"c3": LIGHTS["number"]} and len(display.frames) > shown
        assert table.view()["table"]["felt"] == [] and table.view()["table"]["occupied"] == ["c3"]
        table.handle_felt(SensorEvent("c3", False, clock.now))  # lifting: felt at once
        assert display.frames[-1][1] == {"c3": FELT}
        assert table.view()["table"]["prompt"]["square"] == "c3"
        assert table.view()["table"]["felt"] == ["c3"]  # drawn lifted on the phones
        table.handle_sensor(SensorEvent("c3", False, clock.now))
        assert display.frames[-1][1] == {} and table.view()["table"]["prompt"] is None
        # nonsense from a sensor: ignored
        table.handle_felt(SensorEvent("z9", True, clock.now))
        assert display.frames[-1][1] == {}
    finally:
        table.close()
