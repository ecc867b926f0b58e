"""The SUDOKU FAMILY board matches the table's rulings."""

from collections import Counter
from importlib.resources import files

from sudoku_table.rules.family import BLACK_DOTS, family_geometry, lines, triangles

RULES_TEXT = files("sudoku_table.rules") / "text"


def test_board_has_36_cells_without_the_centre() -> None:
    geometry = family_geometry()
    assert len(geometry.cells) == 36
    assert "e5" not in geometry.cell_set


def test_black_dots_are_one_per_triangle_next_to_the_centre() -> None:
    for name, cells in triangles().items():
        assert sum(c in BLACK_DOTS for c in cells) == 1, name


def test_six_triangles_of_six_partition_the_board() -> None:
    tri = triangles()
    assert len(tri) == 6
    assert all(len(cells) == 6 for cells in tri.values())
    assert Counter(c for cells in tri.values() for c in cells) == Counter(family_geometry().cells)


def test_lines_have_four_to_six_cells_and_centre_lines_count_as_six() -> None:
    sizes = sorted(len(cells) for cells in lines().values())
    assert sizes == [4] * 6 + [5] * 6 + [6] * 9
    assert lines()["line 4"] == ("e2", "e3", "e4", "e6", "e7", "e8")


def test_every_cell_lies_on_three_lines_and_one_triangle() -> None:
    geometry = family_geometry()
    for cell in geometry.cells:
        kinds = Counter(h.split()[0] for h in geometry.houses_of[cell])
        assert kinds == {"line": 3, "triangle": 1}, cell


def test_drawing_positions_are_lattice_neighbours_one_unit_apart() -> None:
    coords = family_geometry().coords
    x0, y0 = coords["f5"]
    x1, y1 = coords["f4"]
    assert abs(((x0 - x1) ** 2 + (y0 - y1) ** 2) ** 0.5 - 1) < 1e-9


def test_the_rules_text_draws_this_board() -> None:
    """The picture in the rules text: every cell where its drawing position puts it, in the
    right triangle, black dots marked."""
    text = (RULES_TEXT / "sudoku-family.md").read_text(encoding="utf-8")
    art = text.split("```")[1].strip("\n").splitlines()[2:]
    geometry = family_geometry()
    tri = {c: name.split()[1] for name, cells in triangles().items() for c in cells}
    seen = []
    for row, line in enumerate(art):
        tokens = line.split()
        cells, labels = tokens[: len(tokens) // 2], tokens[len(tokens) // 2:]
        for cell, label in zip(cells, labels, strict=True):
            if cell == "()":
                assert label == "()" and row == 3
                continue
            seen.append(cell)
            x, _ = geometry.coords[cell]
            assert int(cell[1]) == 8 - row, cell
            assert line.index(cell) == round(4 * x) - 1, cell
            assert label.rstrip("*") == tri[cell], cell
            assert label.endswith("*") == (cell in BLACK_DOTS), cell
    assert sorted(seen) == sorted(geometry.cells)
