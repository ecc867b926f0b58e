"""Hexa-Sudoku: the hex board (docs/RULINGS.md, KOSMOS item 6), a complete fill, the book's worked
example on this board, and random games."""

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
from sudoku_table.rules.kosmos.hexa import (
    DIRECTIONS,
    HOLE,
    hexa_geometry,
    hexa_regions,
    rhombus,
    straight_runs,
)
from sudoku_table.rules.solver import find_fill
from sudoku_table.rules.squares import parse_square, square_name

from .kosmos_play import check_random_game, place, play, start

RULES_TEXT = files("sudoku_table.rules") / "text"

VARIANT = "hexa-sudoku"


def step(a: str, b: str) -> tuple[int, int]:
    (qa, ra), (qb, rb) = parse_square(a), parse_square(b)
    return qb - qa, rb - ra


def test_counts() -> None:
    geometry = new_game(VARIANT).geometry
    assert geometry.shape == "hex" and geometry.numbers == (1, 9)
    assert len(geometry.cells) == 54
    lines = {n: c for n, c in geometry.houses.items() if n.startswith("line")}
    assert len(lines) == 36 and len(geometry.regions) == 6
    assert set(geometry.houses) == set(lines) | set(geometry.regions)
    assert Counter(len(c) for c in lines.values()) == {
        2: 6, 3: 12, 4: 4, 5: 4, 6: 2, 7: 4, 8: 2, 9: 2}
    assert len(geometry.sections) == 54
    assert Counter(len(c) for c in geometry.sections.values()) == {2: 12, 3: 42}
    assert len(geometry.bonus) == 24


def test_regions_are_rhombi_of_all_three_orientations() -> None:
    regions = hexa_regions()
    assert list(regions) == [f"region {k}" for k in range(1, 7)]
    assert regions["region 4"] == ("g4", "f5", "g5", "e6", "f6", "g6", "e7", "f7", "e8")
    orientations: Counter[str] = Counter()
    for cells in regions.values():
        assert len(cells) == 9
        found = [(o, a) for o in ("rank-file", "file-diagonal", "rank-diagonal") for a in cells
                 if _fits(o, a) and set(rhombus(o, a)) == set(cells)]
        assert found, cells
        orientations[found[0][0]] += 1
    assert orientations == {"rank-file": 2, "file-diagonal": 2, "rank-diagonal": 2}
    geometry = hexa_geometry()
    assert Counter(c for cells in regions.values() for c in cells) == Counter(geometry.cells)


def _fits(orientation: str, anchor: str) -> bool:
    try:
        rhombus(orientation, anchor)
    except ValueError:
        return False
    return True


def test_rhombus_rejects_an_unknown_orientation() -> None:
    with pytest.raises(ValueError, match="no rhombus orientation 'square'"):
        rhombus("square", "a1")


def test_the_board_looks_the_same_after_a_half_turn() -> None:
    geometry = hexa_geometry()

    def turned(cell: str) -> str:
        q, r = parse_square(cell)
        return "abcdefghi"[8 - q] + str(9 - r)

    assert {turned(c) for c in geometry.cells} == set(geometry.cells)
    assert {frozenset(map(turned, cs)) for cs in geometry.regions.values()} == {
        frozenset(cs) for cs in geometry.regions.values()}
    assert not set(HOLE) & geometry.cell_set


def test_every_line_is_straight_and_maximal() -> None:
    geometry = hexa_geometry()
    steps = set(DIRECTIONS.values())
    for name, cells in geometry.houses.items():
        if not name.startswith("line"):
            continue
        assert 2 <= len(cells) <= 9, name
        moves = {step(a, b) for a, b in pairwise(cells)}
        assert len(moves) == 1 and moves <= steps, name
        (dq, dr), = moves
        for end, sign in ((cells[0], -1), (cells[-1], 1)):
            q, r = parse_square(end)
            beyond = (q + sign * dq, r + sign * dr)
            assert not (0 <= beyond[0] < 9 and 0 <= beyond[1] < 9) or \
                "abcdefghi"[beyond[0]] + str(beyond[1] + 1) not in geometry.cell_set, name
    # Every pair of touching cells lies on exactly one common line.
    for cell in geometry.cells:
        for other in geometry.neighbours_of(cell, "hex"):
            shared = [h for h in geometry.houses_of[cell]
                      if h.startswith("line") and other in geometry.houses[h]]
            assert len(shared) == 1, (cell, other)


def test_sections_are_the_pieces_of_lines_inside_one_region() -> None:
    geometry = hexa_geometry()
    region_of = {c: n for n, cs in geometry.regions.items() for c in cs}
    for name, cells in geometry.sections.items():
        assert len({region_of[c] for c in cells}) == 1, name
        assert name == f"line {cells[0]}-{cells[-1]}"
        assert any(" ".join(cells) in " ".join(line) for h, line in geometry.houses.items()
                   if h.startswith("line")), name
    # A rhombus holds 3 + 3 lines of three along its sides and 2, 3, 2 across.
    for region, cells in geometry.regions.items():
        inside = [s for s in geometry.sections.values() if set(s) <= set(cells)]
        assert sorted(len(s) for s in inside) == [2, 2, 3, 3, 3, 3, 3, 3, 3], region


def test_bonus_areas_are_regions_and_lines_across_colours() -> None:
    geometry = hexa_geometry()
    region_of = {c: n for n, cs in geometry.regions.items() for c in cs}
    for name, cells in geometry.houses.items():
        crosses = len({region_of[c] for c in cells}) >= 2
        assert (name in geometry.bonus) == (crosses or name.startswith("region")), name


def test_cells_sit_on_their_sensor_squares_and_draw_as_hexagons() -> None:
    geometry = hexa_geometry()
    for cell in geometry.cells:
        q, r = parse_square(cell)
        x, y = geometry.coords[cell]
        assert math.isclose(x, q + r / 2) and math.isclose(y, r * math.sqrt(3) / 2)
        for other in geometry.neighbours_of(cell, "hex"):
            ox, oy = geometry.coords[other]
            assert math.isclose(math.hypot(ox - x, oy - y), 1)
    # The three directions are the ranks, the files and the up-left diagonals.
    assert geometry.houses["line 1"] == ("c1", "d1", "e1", "f1", "g1", "h1")
    assert set(geometry.neighbours_of("e2", "hex")) == {"d2", "f2", "e1", "e3", "d3", "f1"}
    assert straight_runs(["a1", "b1", "a2", "c3"]) == [("a1", "b1"), ("a1", "a2"),
                                                       ("b1", "a2")]


def test_the_board_admits_a_complete_fill() -> None:
    geometry = hexa_geometry()
    fill = find_fill(geometry, seed=11)
    assert fill is not None and len(fill) == 54
    for cells in geometry.houses.values():
        assert len({fill[c] for c in cells}) == len(cells)


def test_the_books_example_of_a_short_line_and_a_line_of_three() -> None:
    """Red's 6 on f5 fills the two-cell line f5-g5 (Red 5 + 6 alone: 2 points) and the line of
    three f5-f7 (Black's 3 + 7 beat Red's 6: Black 2, Red 1). The line f5-g5 lies inside one
    region, so filling it earns no bonus."""
    game, state = start(VARIANT, "R5 g5, B3 f6, B7 f7")
    state = play(game, state, place("f5", 6))
    assert set(state.last.completed) == {"line f5-g5", "line f5-f7"}
    assert state.last.points == (3, 2)
    assert state.awards == ()


def test_the_books_example_at_the_acute_corner_of_a_rhombus() -> None:
    """Black's 8 on e8, the acute corner of region 4, fills the region, two lines of three
    inside it (e6-e8: Black 6+1+8 alone, 2 points; g6-e8: Red 7+3 beats Black's 8, Red 2 and
    Black 1) and two lines of four that cross colours (e6-e9, and d9-g6 reading 2-8-7-3): three
    bonus points for Black."""
    game, state = start(VARIANT, """B6 e6, B1 e7, R7 f7, R3 g6, R2 d9, R4 e9,
                                    N4 g4, N5 f5, N9 g5, N2 f6""")
    geometry = game.geometry
    state = play(game, state, place("c1", 5))
    assert state.last.completed == ()
    state = play(game, state, place("e8", 8))
    file_e = next(n for n, c in geometry.houses.items() if c == ("e6", "e7", "e8", "e9"))
    diagonal = next(n for n, c in geometry.houses.items() if c == ("g6", "f7", "e8", "d9"))
    assert set(state.last.completed) == {"line e6-e8", "line g6-e8", "region 4", file_e,
                                         diagonal}
    assert state.last.points == (2, 6)
    assert {a for a, p in state.awards if p == 1} == {"region 4", file_e, diagonal}
    assert game.scores(state)[1] - game.scores(state)[0] == 4


def test_a_number_repeats_on_no_line_and_in_no_region() -> None:
    game, state = start(VARIANT, "R5 e2")
    illegal = game.check(state, Place("a6", 5))
    assert illegal is not None and illegal.reason == "a6 is not a cell of this board"
    rank_2 = game.geometry.houses_of["e2"][0]
    assert game.geometry.houses[rank_2] == ("b2", "c2", "d2", "e2", "f2", "g2", "h2")
    illegal = game.check(state, Place("h2", 5))
    assert illegal is not None and illegal.reason == f"5 is already in {rank_2}"
    illegal = game.check(state, Place("c4", 5))        # same diagonal and same region
    assert illegal is not None and illegal.reason.endswith("and region 3")
    assert illegal.cells == ("e2",)
    illegal = game.check(state, Place("c5", 5))        # same region only
    assert illegal is not None and illegal.reason == "5 is already in region 3"
    assert game.check(state, Place("h3", 5)) is None


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games(seed: int, players: int) -> None:
    check_random_game(VARIANT, seed, players)


def test_the_rules_text_pictures_this_board() -> None:
    text = (RULES_TEXT / f"{VARIANT}.md").read_text(encoding="utf-8")
    picture = text.split("```")[1].splitlines()
    rows = [line.split()[1:] for line in picture if line.strip()]
    assert len(rows) == 9 and all(len(row) == 9 for row in rows)
    drawn = {square_name(f, 8 - i): mark for i, row in enumerate(rows)
             for f, mark in enumerate(row) if mark != "."}
    geometry = hexa_geometry()
    assert drawn == {c: n.split()[1] for n, cs in geometry.regions.items() for c in cs}
    assert "`line 33` is the diagonal `g6`, `f7`, `e8`, `d9`" in text
    assert geometry.houses["line 33"] == ("g6", "f7", "e8", "d9")
    assert geometry.houses["line 13"] == tuple(f"c{r}" for r in range(1, 10))
