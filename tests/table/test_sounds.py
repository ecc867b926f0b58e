"""When the table sounds: the three cues from two views, and the thread that plays them."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from sudoku_table.table import Table
from sudoku_table.table.sounds import TableSounds, cue


def view(version: int, *, signals: dict[str, str] | None = None, actor: int | None = 0,
         message: dict[str, Any] | None = None, game: bool = True) -> dict[str, Any]:
    return {"version": version, "game": {"variant": "x"} if game else None,
            "table": {"signals": signals or {}, "next": {"actor": actor},
                      "message_code": message}}


def scored(points: list[int]) -> dict[str, Any]:
    return {"code": "action", "params": {"points": points}}


def test_the_three_cues_and_their_order() -> None:
    start = view(1)
    assert cue(start, view(2, signals={"c3": "illegal"})) == "illegal"
    assert cue(start, view(2, message=scored([0, 3]))) == "points"
    assert cue(start, view(2, actor=1)) == "turn"
    # An illegal piece outranks the points and the turn it came with.
    assert cue(start, view(2, signals={"c3": "illegal"}, message=scored([2]), actor=1)) == \
        "illegal"
    assert cue(start, view(2, message=scored([2]), actor=1)) == "points"


def test_no_sound_without_news() -> None:
    start = view(1, signals={"c3": "illegal"}, message=scored([3]))
    assert cue(None, view(2)) is None
    assert cue(start, view(1)) is None  # the same version
    assert cue(start, view(2, signals={"c3": "illegal"}, message=scored([3]))) is None
    assert cue(view(1), view(2, message=scored([0, 0]))) is None  # an action without points
    assert cue(view(1), view(2, game=False, actor=1)) is None  # no game
    assert cue(view(1, actor=1), view(2, actor=None)) is None  # the game ended


class ScriptedTable:
    """A table whose views come from a list, one per change."""

    def __init__(self, views: list[dict[str, Any]]) -> None:
        self.views = views
        self.version = 0
        self.done = threading.Event()

    def wait_for_change(self, version: int, timeout: float,
                        stop: threading.Event | None = None) -> tuple[int, Any]:
        if version == -1:
            return 0, self.views[0]
        if version + 1 >= len(self.views):
            self.done.set()
            (stop or threading.Event()).wait(timeout)
            return version, self.views[version]
        return version + 1, self.views[version + 1]

    def wake(self) -> None:
        pass


class Recorder:
    def __init__(self) -> None:
        self.names: list[str] = []

    def play(self, name: str) -> bool:
        self.names.append(name)
        return True


def test_the_thread_plays_each_cue_while_switched_on() -> None:
    views = [view(0), view(1, actor=1), view(2, signals={"a1": "illegal"}, actor=1),
             view(3, actor=0, message=scored([4, 0])), view(4, actor=1)]
    player = Recorder()
    table = ScriptedTable(views)
    sounds = TableSounds(table, player, enabled=lambda: True)
    assert table.done.wait(2)
    sounds.close()
    assert player.names == ["turn", "illegal", "points", "turn"]


def test_switched_off_it_builds_no_view() -> None:
    """Off is the default: then the buzzer costs a sensor event nothing (no view is built)."""
    table = ScriptedTable([view(0), view(1, actor=1)])
    asked: list[int] = []
    follow = table.wait_for_change

    def counting(version: int, timeout: float, stop: Any = None) -> tuple[int, Any]:
        asked.append(version)
        return follow(version, timeout, stop)

    table.wait_for_change = counting  # type: ignore[method-assign]
    player = Recorder()
    sounds = TableSounds(table, player, enabled=lambda: False)
    threading.Event().wait(0.2)
    sounds.close()
    assert asked == [] and player.names == []


@pytest.mark.integration
def test_a_real_table_sounds_when_its_game_starts() -> None:
    with Table(ticker=False) as table:
        player = Recorder()
        sounds = TableSounds(table, player, enabled=lambda: True)
        table.new_game("classic-sudoku", players=2, names=["Ada", "Ben"])
        for _ in range(200):
            if player.names:
                break
            threading.Event().wait(0.01)
        sounds.close()
    assert player.names[:1] == ["turn"]
