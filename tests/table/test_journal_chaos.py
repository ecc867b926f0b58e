"""kill -9 at random points of a scripted game: no acknowledged action is ever lost."""

from __future__ import annotations

from pathlib import Path

from .attack import chaos


def test_forty_kills_lose_no_acknowledged_action(tmp_path: Path) -> None:
    result = chaos(tmp_path, kills=40, seed=7)
    assert result["problems"] == []
    assert (result["survived"], result["lost"]) == (40, 0)
    acted, games = result["acted"], result["games"]
    # The kills must fall all over the game, into a second one. On a loaded machine fewer
    # actions get through before each kill: more kills, on the same journal, until they have.
    for more in range(4):
        if acted > 40 and games >= 2:
            break
        extra = chaos(tmp_path, kills=20, seed=100 + more)
        assert extra["problems"] == []
        assert (extra["survived"], extra["lost"]) == (20, 0)
        acted, games = acted + extra["acted"], games + extra["games"]
    assert acted > 40 and games >= 2
