"""Classic-Sudoku: the board of docs/RULINGS.md, a complete fill, and random games."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.game import new_game
from sudoku_table.rules.solver import find_fill

from .kosmos_play import check_random_game, rules_text

VARIANT = "classic-sudoku"


def test_houses_sections_and_bonus_areas() -> None:
    geometry = new_game(VARIANT).geometry
    assert len(geometry.cells) == 81 and len(geometry.houses) == 27
    assert len(geometry.sections) == 54
    assert all(len(cells) == 3 for cells in geometry.sections.values())
    assert geometry.sections["line a1-c1"] == ("a1", "b1", "c1")
    assert geometry.sections["line g7-g9"] == ("g7", "g8", "g9")
    assert "line c1-e1" not in geometry.sections          # lines stay inside their block
    assert set(geometry.bonus) == set(geometry.houses)
    assert geometry.bonus["block d4"] == ("d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6")
    assert set(geometry.regions) == {n for n in geometry.houses if n.startswith("block")}
    # Every cell lies on one horizontal and one vertical line.
    assert all(len(geometry.sections_of[c]) == 2 for c in geometry.cells)


def test_the_board_admits_a_complete_fill() -> None:
    geometry = new_game(VARIANT).geometry
    fill = find_fill(geometry, seed=3)
    assert fill is not None and len(fill) == 81
    for cells in geometry.houses.values():
        assert sorted(fill[c] for c in cells) == list(range(1, 10))


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games(seed: int, players: int) -> None:
    check_random_game(VARIANT, seed, players)


def test_the_rules_text_names_sections_and_bonus_areas() -> None:
    text = rules_text(VARIANT)
    geometry = new_game(VARIANT).geometry
    for name in ("line a1-c1", "line g7-g9"):
        assert name in text and name in geometry.sections
    for name in ("rank 3", "file c", "block d4"):
        assert name in text and name in geometry.bonus
