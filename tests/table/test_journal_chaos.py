"""kill -9 at random points of a scripted game: no acknowledged action is ever lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from .attack import chaos

pytestmark = pytest.mark.integration


@pytest.mark.slow  # a process started and killed ten times (bench/bench_trust.py kills 60)
def test_kills_at_random_points_lose_no_acknowledged_action(tmp_path: Path) -> None:
    result = chaos(tmp_path, kills=10, seed=7)
    assert result["problems"] == []
    assert (result["survived"], result["lost"]) == (10, 0)
    # The kills fall all over a game, each after a drawn number of answers.
    assert result["acted"] > 10, result
