"""Labyrinth-Sudoku: nine winding regions, their straight runs as sections, a complete fill,
the rule book's example rebuilt on our board, and random games."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import new_game
from sudoku_table.rules.kosmos.labyrinth import REGIONS_PICTURE
from sudoku_table.rules.solver import find_fill
from sudoku_table.rules.squares import parse_square

from .kosmos_play import (
    board_picture,
    check_random_game,
    pictured,
    place,
    play,
    rules_text,
    start,
)

VARIANT = "labyrinth-sudoku"


def connected(cells: tuple[str, ...]) -> bool:
    points = {parse_square(c) for c in cells}
    seen = {next(iter(points))}
    todo = list(seen)
    while todo:
        f, r = todo.pop()
        for near in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
            if near in points and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == points


def test_nine_connected_irregular_regions_of_nine_cells() -> None:
    geometry = new_game(VARIANT).geometry
    regions = geometry.regions
    assert list(regions) == [f"region {i}" for i in range(1, 10)]
    assert all(len(cells) == 9 and connected(cells) for cells in regions.values())
    assert Counter(c for cells in regions.values() for c in cells) == Counter(geometry.cells)
    blocks = {tuple(sorted(cells)) for name, cells in new_game("classic-sudoku")
              .geometry.houses.items() if name.startswith("block")}
    assert not blocks & {tuple(sorted(cells)) for cells in regions.values()}
    lines = {tuple(sorted(cells)) for name, cells in geometry.houses.items()
             if name.startswith(("rank", "file"))}
    assert not lines & {tuple(sorted(cells)) for cells in regions.values()}
    # Numbered by first cell in reading order from a1.
    assert regions["region 1"] == ("a1", "b1", "c1", "d1", "a2", "a3", "a4", "a5", "b5")
    assert regions["region 9"][0] == "g7"        # the last region to start
    assert len(geometry.houses) == 27 and set(geometry.bonus) == set(geometry.houses)


def test_the_layout_turns_into_itself_under_a_half_turn() -> None:
    rows = [row.split() for row in REGIONS_PICTURE]
    partner = dict({(rows[r][f], rows[8 - r][8 - f]) for r in range(9) for f in range(9)})
    assert len(partner) == 9 and all(partner[partner[a]] == a for a in partner)


def test_sections_are_the_straight_runs_of_two_or_more_inside_a_region() -> None:
    geometry = new_game(VARIANT).geometry
    region_of = {c: n for n, cells in geometry.regions.items() for c in cells}
    for name, cells in geometry.sections.items():
        assert len(cells) >= 2 and len({region_of[c] for c in cells}) == 1, name
        assert len({c[0] for c in cells}) == 1 or len({c[1] for c in cells}) == 1, name
        # Maximal: the cells just beyond both ends belong to another region or the edge.
        assert name == f"line {cells[0]}-{cells[-1]}"
    assert geometry.sections["line c9-e9"] == ("c9", "d9", "e9")
    assert geometry.sections["line d8-d9"] == ("d8", "d9")
    assert geometry.sections["line d8-h8"] == ("d8", "e8", "f8", "g8", "h8")
    assert "line c8-e8" not in geometry.sections     # c8 belongs to the region on the left
    assert geometry.sections_of["f8"] == ("line d8-h8",)   # alone in its region down file f
    assert len(geometry.sections) == 45


def test_the_board_admits_a_complete_fill() -> None:
    geometry = new_game(VARIANT).geometry
    fill = find_fill(geometry)
    assert fill is not None and len(fill) == 81
    for cells in geometry.houses.values():
        assert sorted(fill[c] for c in cells) == list(range(1, 10))


def test_the_rule_books_labyrinth_example() -> None:
    """Red (0) lays a 5 that completes a three-cell line at the top of a region (Red 5 + 4 = 9
    against Black's 6) and the top rank; then Black (1) lays a 1 under its 6, completing a
    two-cell vertical line (7 against nothing)."""
    setup = "N9 a9, N7 b9, B6 d9, R4 e9, N1 f9, N3 g9, N2 h9, N8 i9"
    game, state = start(VARIANT, setup)
    state = play(game, state, place("c9", 5))
    assert state.last.completed == ("line c9-e9", "rank 9")
    assert state.last.points == (2 + 1, 1)
    state = play(game, state, place("d8", 1))
    assert state.last.completed == ("line d8-d9",)
    assert state.last.points == (0, 2)
    assert game.scores(state) == [3, 3]


def test_a_region_is_a_house_and_a_bonus_area() -> None:
    geometry = new_game(VARIANT).geometry
    region = geometry.regions["region 1"]
    text = ", ".join(f"N{n} {c}" for n, c in zip(range(1, 9), region[:-1], strict=True))
    game, state = start(VARIANT, text)
    illegal = game.check(state, Place(region[-1], 3))
    assert illegal is not None and illegal.reason == "3 is already in region 1"
    state = play(game, state, place(region[-1], 9))
    assert "region 1" in state.last.completed and state.awards == (("region 1", 0),)


@settings(max_examples=5, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games(seed: int, players: int) -> None:
    check_random_game(VARIANT, seed, players)


def test_the_rules_text_pictures_this_board() -> None:
    text = rules_text(VARIANT)
    assert pictured(text, board_picture(new_game(VARIANT)))
    assert "line c9-e9" in text and "region 9" in text
