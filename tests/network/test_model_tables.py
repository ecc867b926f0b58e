"""The model player at two and three tables over a real Mosquitto (``model_tables``): random
acts at every table and random faults, every copy of the log and every table's game compared
after every step. A few seeded games run in the suite; ``-m sweep`` plays every game at two
tables (and three, where the game seats three) with more seeds; ``bench/bench_model_tables.py``
plays hundreds and counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.game import all_variants
from sudoku_table.table import remote

from .conftest import Mosquitto
from .model_tables import Stuck, Unseen, game_at

pytestmark = pytest.mark.integration

STEPS = 60
"""Steps of a game in the suite: enough for a dozen actions, a few faults and take-backs."""


@pytest.mark.parametrize(("variant", "tables", "seed"), [
    ("vierer-dominari", 2, 1), ("classic-sudoku", 3, 6), ("halma-dominari", 2, 3)])
def test_the_tables_hold_one_game_whatever_people_and_the_network_do(
        tmp_path: Path, mosquitto: Mosquitto, variant: str, tables: int, seed: int) -> None:
    with game_at(tmp_path, mosquitto.url, variant, tables, seed) as game:
        outcome = game.play(STEPS)
    assert outcome.steps >= min(STEPS, 20) and outcome.actions > 0, outcome.acts[-10:]


def old_causes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two causes of the blank taken back at a guest, put back as they were, and the
    check that tells a parted game switched off: what the tables did before."""
    monkeypatch.setattr(remote.Remote, "_made_here", staticmethod(lambda *a: False))
    monkeypatch.setattr(remote.Remote, "_drop_stale_plan", staticmethod(lambda c: None))
    monkeypatch.setattr(remote.Remote, "_apart_locked", lambda self, shared, c: None)
    arrive = remote.Remote._arrive

    def stale(self: remote.Remote, c: Any, action: Any) -> bool:
        if c.mover in c.computer.remote and c.expect is not None and c.expect != action:
            return False  # the old plan stayed
        return arrive(self, c, action)

    monkeypatch.setattr(remote.Remote, "_arrive", stale)


@pytest.mark.slow  # several games until the old fault shows: a few seconds each
def test_the_model_finds_the_parted_game_of_the_old_tables(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the old behaviour put back, the model finds a table whose game is not the
    host's, unseen (or a game stuck) within a few Vierer-Dominari games."""
    old_causes(monkeypatch)
    found = []
    for seed in range(1, 9):
        try:
            with game_at(tmp_path / str(seed), mosquitto.url, "vierer-dominari", 2,
                         seed) as game:
                game.play(150)
        except (Unseen, Stuck) as e:
            found.append(e)
            break
    assert found, "the model did not find the old fault"


def sweep_cases() -> list[Any]:
    cases = []
    for cls in all_variants():
        for tables in (2, 3) if cls.max_players >= 3 else (2,):
            cases += [pytest.param(cls.id, tables, seed, id=f"{cls.id}-{tables}-{seed}")
                      for seed in range(1, 6)]
    return cases


@pytest.mark.sweep
@pytest.mark.slow  # every game at two and three tables, five seeds each
@pytest.mark.parametrize(("variant", "tables", "seed"), sweep_cases())
def test_every_game_at_two_and_three_tables(tmp_path: Path, mosquitto: Mosquitto,
                                            variant: str, tables: int, seed: int) -> None:
    with game_at(tmp_path, mosquitto.url, variant, tables, seed + 100) as game:
        outcome = game.play(150)
    assert outcome.actions > 0, outcome.acts[-10:]
