"""kill -9 at random points of a scripted game: no acknowledged action is ever lost."""

from __future__ import annotations

from pathlib import Path

from .attack import chaos


def test_forty_kills_lose_no_acknowledged_action(tmp_path: Path) -> None:
    result = chaos(tmp_path, kills=40, seed=7)
    assert result["problems"] == []
    assert (result["survived"], result["lost"]) == (40, 0)
    # The kills fall all over a game (each after a drawn number of answers), into a second one.
    assert result["acted"] > 40 and result["games"] >= 2, result
