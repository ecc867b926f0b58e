"""The steps after every change the players see are one ordered, named list written in one
place (``conductor.AFTER_CHANGE``), each run once, in that order (no table needed)."""

from __future__ import annotations

from sudoku_table.table.conductor import AFTER_CHANGE, Conductor


class Recorded(Conductor):
    """A conductor whose every step only notes that it ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        for name in AFTER_CHANGE:
            setattr(self, f"_step_{name}", lambda name=name: self.ran.append(name))
        self._start_conducting()


def test_the_steps_run_once_each_in_the_written_order() -> None:
    conductor = Recorded()
    conductor.after_change()
    assert conductor.ran == list(AFTER_CHANGE)


def test_every_step_written_is_in_the_list_and_the_list_names_no_other() -> None:
    written = {name.removeprefix("_step_") for name in vars(Conductor)
               if name.startswith("_step_")}
    assert written == set(AFTER_CHANGE)
    assert len(AFTER_CHANGE) == len(set(AFTER_CHANGE))


def test_the_new_version_comes_first_and_the_wake_last() -> None:
    """The view is built for the new version only after the look and the frame are renewed,
    and nobody waiting wakes to the old one; the computer's card is journaled before the look
    shows it."""
    order = list(AFTER_CHANGE)
    assert order[0] == "version" and order[-1] == "wake"
    assert order.index("computer") < order.index("look") < order.index("frame")
    assert order.index("look") < order.index("announcement")
