"""Acknowledged means durable: on a full, failing or read-only disk the table accepts no
action it could not save, tells the players, waits, and goes on with no gap in the chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.table import Table

from .attack import FULL_GAME, place
from .faults import small_disk
from .helpers import make_table


def acknowledged(view: dict[str, Any]) -> dict[str, Any]:
    """The cells the view shows counted."""
    game = view["game"]
    return dict(game["cells"]) if game else {}


def reopened(path: Path) -> Table:
    table, _, _ = make_table(path)
    return table


def test_actions_made_while_the_disk_is_full_are_never_acknowledged_and_lost() -> None:
    """The finding of issue 22, on a real full file system: what the view showed counted while
    the disk was full must still be there after a restart, or must never have been shown."""
    with small_disk() as disk:
        path = disk.path / "j.db"
        table, clock, _ = make_table(path)
        table.new_game("fake-kosmos")
        table.set_board([])
        shown: dict[str, Any] = {}
        for square, number in FULL_GAME[:4]:
            shown = acknowledged(place(table, clock, square, number))
        disk.fill()
        for square, number in FULL_GAME[4:8]:
            shown = acknowledged(place(table, clock, square, number))
        disk.free()
        for square, number in FULL_GAME[8:12]:
            view = place(table, clock, square, number)
            shown = acknowledged(view)
        table.close()
        again = reopened(path)
        after = acknowledged(again.view())
        again.close()
        missing = sorted(set(shown) - set(after))
        assert not missing, f"acknowledged, then lost after a restart: {missing}"
