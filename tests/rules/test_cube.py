"""3D-Sudoku: the cube's board (docs/RULINGS.md, KOSMOS item 5), a complete fill, the book's worked
example, and random games."""

from __future__ import annotations

import math
from collections import Counter
from importlib.resources import files
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import new_game
from sudoku_table.rules.kosmos.cube import cube_geometry, face_cells
from sudoku_table.rules.solver import find_fill
from sudoku_table.rules.squares import parse_square, square_name

from .kosmos_play import check_random_game, place, play, start

RULES_TEXT = files("sudoku_table.rules") / "text"

VARIANT = "3d-sudoku"
FACES = {"left face": ("a1", "d4"), "right face": ("f1", "i4"), "top face": ("a6", "d9")}


def in_box(cell: str, low: str, high: str) -> bool:
    (f, r), (f0, r0), (f1, r1) = parse_square(cell), parse_square(low), parse_square(high)
    return f0 <= f <= f1 and r0 <= r <= r1


def test_three_faces_of_sixteen_cells_on_the_sensor_grid() -> None:
    geometry = new_game(VARIANT).geometry
    assert geometry.shape == "cube" and geometry.numbers == (1, 9)
    assert len(geometry.cells) == 48
    assert set(geometry.regions) == set(FACES)
    for name, (low, high) in FACES.items():
        face = geometry.regions[name]
        assert len(face) == 16 and all(in_box(c, low, high) for c in face), name
    assert Counter(c for cells in geometry.regions.values() for c in cells) == Counter(
        geometry.cells)
    # The empty file e, the empty rank 5 and the empty top-right corner are not cells.
    assert not any(c[0] == "e" or c[1] == "5" for c in geometry.cells)
    assert not any(in_box(c, "f6", "i9") for c in geometry.cells)


def test_an_unknown_face_is_refused() -> None:
    with pytest.raises(ValueError, match="no face 'bottom'"):
        face_cells("bottom")


def test_twelve_lines_of_eight_cells_each_across_two_faces() -> None:
    geometry = cube_geometry()
    assert list(geometry.houses) == [f"line {k}" for k in range(1, 13)]
    assert geometry.bonus == geometry.houses
    for name, cells in geometry.houses.items():
        assert len(cells) == 8 and len(set(cells)) == 8
        faces = [geometry.regions_of[c][0] for c in cells]
        assert len(set(faces[:4])) == 1 and len(set(faces[4:])) == 1 and faces[0] != faces[4], name
    pairs = Counter(frozenset(geometry.regions_of[c][0] for c in cells)
                    for cells in geometry.houses.values())
    assert set(pairs.values()) == {4} and len(pairs) == 3
    assert geometry.houses["line 1"] == ("a1", "b1", "c1", "d1", "f1", "g1", "h1", "i1")
    assert geometry.houses["line 5"] == ("a1", "a2", "a3", "a4", "a6", "a7", "a8", "a9")
    assert geometry.houses["line 9"] == ("a6", "b6", "c6", "d6", "f4", "f3", "f2", "f1")
    assert geometry.houses["line 12"] == ("a9", "b9", "c9", "d9", "i4", "i3", "i2", "i1")
    # Every cell lies on exactly two lines, one to each other face.
    assert all(len(geometry.houses_of[c]) == 2 for c in geometry.cells)


def test_lines_cross_the_folds_between_touching_cells() -> None:
    geometry = cube_geometry()
    coords = geometry.coords
    for name, cells in geometry.houses.items():
        for a, b in pairwise(cells):
            (xa, ya), (xb, yb) = coords[a], coords[b]
            step = math.hypot(xa - xb, ya - yb)
            assert 0.85 < step <= 1 + 1e-9, (name, a, b, step)


def test_sections_are_the_rows_and_columns_of_each_face() -> None:
    geometry = cube_geometry()
    assert len(geometry.sections) == 24
    assert all(len(cells) == 4 for cells in geometry.sections.values())
    assert geometry.sections["line a1-d1"] == ("a1", "b1", "c1", "d1")
    assert geometry.sections["line f1-f4"] == ("f1", "f2", "f3", "f4")
    assert geometry.sections["line a6-d6"] == ("a6", "b6", "c6", "d6")
    for name, cells in geometry.sections.items():
        # Each section is one half of one eight-cell line.
        halves = [h for h, line in geometry.houses.items()
                  if set(cells) in (set(line[:4]), set(line[4:]))]
        assert len(halves) == 1, name
    assert all(len(geometry.sections_of[c]) == 2 for c in geometry.cells)


def test_drawing_is_isometric() -> None:
    coords = cube_geometry().coords
    # The nearest corner cells of the three faces sit around the point (4, 4).
    for cell in ("d4", "f4", "d6"):
        x, y = coords[cell]
        assert math.isclose(math.hypot(x - 4, y - 4), 0.5)
    # The fold between left and right face is vertical; the other folds rise 30 degrees.
    assert math.isclose(coords["d1"][0], coords["d4"][0])
    (x0, y0), (x1, y1) = coords["d4"], coords["a4"]
    assert math.isclose(math.degrees(math.atan2(y1 - y0, x0 - x1)), 30)
    (x0, y0), (x1, y1) = coords["f4"], coords["i4"]
    assert math.isclose(math.degrees(math.atan2(y1 - y0, x1 - x0)), 30)


def test_orthogonal_neighbours_follow_the_surface() -> None:
    geometry = cube_geometry()
    assert set(geometry.neighbours_of("d6")) == {"c6", "d7", "d4", "f4"}
    assert set(geometry.neighbours_of("a1")) == {"b1", "a2"}
    assert set(geometry.neighbours_of("i4")) == {"h4", "i3", "d9"}


def test_the_board_admits_a_complete_fill() -> None:
    geometry = cube_geometry()
    fill = find_fill(geometry, seed=5)
    assert fill is not None and len(fill) == 48
    for cells in geometry.houses.values():
        assert len({fill[c] for c in cells}) == 8


def test_the_books_example() -> None:
    """Red's 7 wins a row (1+7+4 against Black's 3): Red 2, Black 1. Black's 5 then wins a row
    (6+5+2 against Red's 9) and fills its whole eight-cell line: Black 2 + 1 bonus, Red 1."""
    game, state = start(VARIANT, "R1 a1, R4 c1, B3 d1, B6 f1, R9 g1, B2 i1")
    state = play(game, state, place("b1", 7))
    assert set(state.last.completed) == {"line a1-d1"}
    assert state.last.points == (2, 1)
    state = play(game, state, place("h1", 5))
    assert set(state.last.completed) == {"line f1-i1", "line 1"}
    assert state.last.points == (1, 3)
    assert game.scores(state) == [3, 4]
    assert state.awards == (("line 1", 1),)


def test_a_number_may_not_repeat_on_a_line_across_the_fold() -> None:
    game, state = start(VARIANT, "R5 a6")
    illegal = game.check(state, Place("f4", 5))
    assert illegal is not None and illegal.reason == "5 is already in line 9"
    assert illegal.cells == ("a6",)
    assert game.check(state, Place("f3", 5)) is not None
    assert game.check(state, Place("g4", 5)) is None


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games(seed: int, players: int) -> None:
    check_random_game(VARIANT, seed, players)


def test_the_rules_text_pictures_this_board() -> None:
    text = (RULES_TEXT / f"{VARIANT}.md").read_text(encoding="utf-8")
    picture = text.split("```")[1].splitlines()
    letters = {"T": "top face", "L": "left face", "R": "right face"}
    faces: dict[str, set[str]] = {name: set() for name in letters.values()}
    rows = [line.split()[1:10] for line in picture if line[:3].strip().isdigit()]
    assert len(rows) == 9
    for i, row in enumerate(rows):
        for f, mark in enumerate(row):
            if mark != ".":
                faces[letters[mark]].add(square_name(f, 8 - i))
    geometry = cube_geometry()
    assert faces == {name: set(cells) for name, cells in geometry.regions.items()}
    for k in (1, 5, 9):
        assert f"`line {k}`" in text
