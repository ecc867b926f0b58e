"""The sensors' part on its own (no table): it keeps the board felt and confirmed and the last
faults, and answers what an event changed; the table decides what follows."""

from __future__ import annotations

from sudoku_table.firmware.ports import SensorFault
from sudoku_table.table.sensing import MAX_FAULTS, Sensors, stop_source


def test_a_felt_change_is_new_once() -> None:
    sensors = Sensors()
    assert sensors.feel("c3", True)
    assert not sensors.feel("c3", True)  # felt already: nothing new for the LED
    assert sensors.unconfirmed() == {"c3"}
    assert sensors.feel("c3", False)
    assert sensors.unconfirmed() == set()


def test_a_confirmed_change_reaches_the_felt_board() -> None:
    sensors = Sensors()
    assert sensors.confirm("d4", True)  # never felt: its feedback light changes
    sensors.feel("e5", True)
    assert not sensors.confirm("e5", True)  # felt before: the light stays
    assert sensors.felt == {"d4", "e5"}
    assert sensors.occupied == set()  # the confirmed board is the game's (or ``occupy``)


def test_before_a_game_the_confirmed_board_itself_changes() -> None:
    sensors = Sensors()
    board = sensors.occupied
    assert sensors.occupy("a1", True)
    assert not sensors.occupy("a1", True)
    assert sensors.occupied is board == {"a1"}  # the one set the game shares, changed in place


def test_a_board_taken_is_felt_and_confirmed() -> None:
    sensors = Sensors()
    board = sensors.occupied
    sensors.feel("i9", True)
    sensors.take_board({"a1", "b2"})
    assert sensors.occupied is board == {"a1", "b2"}
    assert sensors.felt == {"a1", "b2"}
    assert sensors.unconfirmed() == set()


def test_only_the_newest_faults_are_kept() -> None:
    sensors = Sensors()
    for n in range(MAX_FAULTS + 5):
        sensors.fault(SensorFault("c3", "chatter", f"fault {n}", float(n)))
    assert len(sensors.faults) == MAX_FAULTS
    assert sensors.faults[-1]["detail"] == f"fault {MAX_FAULTS + 4}"
    assert sensors.faults[0]["detail"] == "fault 5"


class Failing:
    """A sensor source whose ``stop`` fails."""

    stopped = False

    def stop(self) -> None:
        self.stopped = True
        raise OSError("the GPIO chip is gone")


def test_detach_hands_the_source_back_and_stopping_always_finishes() -> None:
    sensors = Sensors()
    source = Failing()
    sensors.source = source  # type: ignore[assignment]
    assert sensors.detach() is source
    assert sensors.detach() is None
    stop_source(source)  # type: ignore[arg-type]
    assert source.stopped
    stop_source(None)
