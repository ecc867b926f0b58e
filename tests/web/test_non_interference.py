"""Non-interference of a hidden card, as a property (``non_interference``): one random game
played twice, differing only in one player's hidden card, gives every device but that
player's phone the same answers, views, live views, record, spoken words and LED frames, byte
for byte once clocks and ids are taken out, until the card lies face up on the board.

A few seeded games of each kind run in the suite; ``-m sweep`` runs 200 of every game with
hidden hands, and ``bench/bench_non_interference.py`` as many as asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .non_interference import GAMES, play

pytestmark = pytest.mark.integration


def _same(tmp_path: Path, variant: str, seed: int, deal: bool) -> None:
    first = play(tmp_path / "first", variant, seed, deal, second=False)
    other = play(tmp_path / "other", variant, seed, deal, second=True)
    assert first, "the game never reached the holder's hidden card"
    assert len(first) == len(other)
    for step, (a, b) in enumerate(zip(first, other, strict=True)):
        assert a == b, f"{variant} seed {seed} deal {deal}: step {step} differs"


@pytest.mark.parametrize("deal", [True, False], ids=["deal", "own-cards"])
@pytest.mark.parametrize(("variant", "seed"), [("classic-sudoku", 1), ("duell-der-meister", 1),
                                               ("sudoku-family", 0)])
def test_nothing_another_device_gets_depends_on_a_hidden_card(tmp_path: Path, variant: str,
                                                              seed: int, deal: bool) -> None:
    _same(tmp_path, variant, seed, deal)


@pytest.mark.sweep
@pytest.mark.slow  # 200 games of each of eight games, each played twice
@pytest.mark.parametrize("variant", GAMES)
def test_sweep_nothing_another_device_gets_depends_on_a_hidden_card(tmp_path: Path,
                                                                    variant: str) -> None:
    for seed in range(200):
        _same(tmp_path / str(seed), variant, seed, deal=seed % 2 == 0)
