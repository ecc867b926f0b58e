"""``sudoku-table overlay``: printable overlays drawn from the rules' own geometry."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import cast

import pytest

from sudoku_table.cli import main as cli
from sudoku_table.overlay import (
    DEFAULT_PITCH_MM,
    OverlayError,
    clue_squares,
    lattice_links,
    marked_cells,
    region_of,
    render,
    square_centre,
)
from sudoku_table.rules.game import Game, all_variants, new_game
from sudoku_table.rules.squares import parse_square

SVG = "{http://www.w3.org/2000/svg}"
VARIANT_IDS = [v.id for v in all_variants()]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def shape_box(shape: ET.Element) -> tuple[float, float, float, float]:
    """min x, min y, max x, max y of a polygon or circle."""
    if shape.tag == SVG + "circle":
        cx, cy, r = (float(shape.get(k, "nan")) for k in ("cx", "cy", "r"))
        return cx - r, cy - r, cx + r, cy + r
    assert shape.tag == SVG + "polygon", shape.tag
    points = [tuple(map(float, p.split(","))) for p in shape.get("points", "").split()]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def margin_of(root: ET.Element) -> float:
    grid = root.find(f".//{SVG}rect[@id='sensor-grid']")
    assert grid is not None
    return float(grid.get("x", "nan"))


def cells_drawn(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(SVG + "g") if g.get("class") == "cell"]


def fill_of(group: ET.Element) -> str:
    shape = group.find(f"{SVG}*[@class='shape']")
    assert shape is not None
    return shape.get("fill", "")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_cell_is_drawn_once_centred_on_its_own_square(variant: str) -> None:
    game = new_game(variant)
    pitch = 37.5
    root = parse(render(game, pitch))
    margin = margin_of(root)
    drawn = cells_drawn(root)
    squares = [g.get("data-square", "") for g in drawn]
    assert sorted(squares) == sorted(game.geometry.cells)  # all of them, none twice
    for group in drawn:
        square = group.get("data-square", "")
        shape = group.find(f"{SVG}*[@class='shape']")
        assert shape is not None, square
        x0, y0, x1, y1 = shape_box(shape)
        cx, cy = square_centre(square, pitch, margin)
        assert math.isclose((x0 + x1) / 2, cx, abs_tol=0.01), square
        assert math.isclose((y0 + y1) / 2, cy, abs_tol=0.01), square
        # Inside its own square, so it never spills onto a neighbour's sensor.
        assert cx - pitch / 2 - 1e-6 <= x0 and x1 <= cx + pitch / 2 + 1e-6, square
        assert cy - pitch / 2 - 1e-6 <= y0 and y1 <= cy + pitch / 2 + 1e-6, square
        label = group.find(f"{SVG}text[@class='label']")
        assert label is not None and label.text == square
        assert float(label.get("font-size", "0")) <= 0.15 * pitch  # small: does not disturb play


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_regions_are_coloured_and_touching_regions_differ(variant: str) -> None:
    game = new_game(variant)
    geometry = game.geometry
    drawn = {g.get("data-square"): g for g in cells_drawn(parse(render(game)))}
    owner = region_of(geometry)
    fill_by_region: dict[str, str] = {}
    for cell in geometry.cells:
        group = drawn[cell]
        assert group.get("data-region") == owner.get(cell, "")
        fill = fill_of(group)
        if cell in owner:
            assert fill.lower() != "#ffffff", cell
            # One colour per region.
            assert fill_by_region.setdefault(owner[cell], fill) == fill, cell
    for a in geometry.cells:
        fa, ra = parse_square(a)
        for b in geometry.cells:
            fb, rb = parse_square(b)
            if abs(fa - fb) + abs(ra - rb) == 1 and owner.get(a) and owner.get(b) \
                    and owner[a] != owner[b]:
                assert fill_of(drawn[a]) != fill_of(drawn[b]), (a, b)


@pytest.mark.parametrize("pitch", [DEFAULT_PITCH_MM, 25.0, 52.5])
def test_the_sheet_is_in_millimetres_and_the_board_is_nine_squares(pitch: float) -> None:
    root = parse(render(new_game("classic-sudoku"), pitch))
    width, height = root.get("width", ""), root.get("height", "")
    assert width.endswith("mm") and width == height
    total = float(width[:-2])
    assert root.get("viewBox") == f"0 0 {width[:-2]} {height[:-2]}"
    grid = root.find(f".//{SVG}rect[@id='sensor-grid']")
    assert grid is not None
    assert math.isclose(float(grid.get("width", "0")), 9 * pitch)
    assert math.isclose(float(grid.get("height", "0")), 9 * pitch)
    margin = float(grid.get("x", "0"))
    assert math.isclose(total, 9 * pitch + 2 * margin) and margin >= 10
    # All 81 sensor squares are outlined.
    outline = root.find(f".//{SVG}g[@id='sensor-squares']")
    assert outline is not None and len(outline.findall(f"{SVG}rect")) == 81


def test_cut_marks_sit_in_the_margin_at_the_four_corners() -> None:
    pitch = 40.0
    root = parse(render(new_game("kakuro"), pitch))
    margin = margin_of(root)
    marks = root.find(f".//{SVG}g[@id='cut-marks']")
    assert marks is not None
    lines = marks.findall(f"{SVG}line")
    assert len(lines) == 8
    low, high = margin, margin + 9 * pitch
    for line in lines:
        x1, y1, x2, y2 = (float(line.get(k, "nan")) for k in ("x1", "y1", "x2", "y2"))
        # Each mark extends a trim line outwards and never enters the board.
        for x, y in ((x1, y1), (x2, y2)):
            assert not (low < x < high and low < y < high)
        assert {round(x1, 3), round(y1, 3)} & {round(low, 3), round(high, 3)}


@pytest.mark.parametrize("clues", ["A", "B"])
def test_kakuro_clue_squares_print_their_sums(clues: str) -> None:
    game = new_game("kakuro", options={"clues": clues})
    root = parse(render(game))
    printed: dict[tuple[str, str], str] = {}
    for group in root.iter(SVG + "g"):
        if group.get("class") == "clue":
            for text in group.findall(f"{SVG}text"):
                direction = text.get("class", "").split()[-1]
                printed[(group.get("data-square", ""), direction)] = text.text or ""
    expected = {(str(c["square"]), str(c["direction"])): str(c["sum"])
                for c in game.geometry.clues.values()}
    assert expected and printed == expected
    clue_squares = {square for square, _ in expected}
    assert not clue_squares & set(game.geometry.cells)


@pytest.mark.parametrize("variant", [v.id for v in all_variants()
                                     if v(None, None).geometry.shape in ("hex", "triangle")])
def test_boards_off_the_grid_show_their_own_neighbours(variant: str) -> None:
    game = new_game(variant)
    root = parse(render(game))
    links = root.find(f".//{SVG}g[@id='links']")
    assert links is not None
    pairs = lattice_links(game.geometry)
    assert len(links.findall(f"{SVG}line")) == len(pairs) > 0
    hex_neighbours = game.geometry.neighbours.get("hex")
    if hex_neighbours:  # the drawing's neighbours are the rules' neighbours
        from_rules = {frozenset((a, b)) for a, ns in hex_neighbours.items() for b in ns}
        assert {frozenset(p) for p in pairs} == from_rules


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli(["overlay", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_prints_svg_at_the_configured_pitch(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SUDOKU_TABLE_CONFIG", raising=False)
    code, out, err = run(capsys, "hexa-sudoku")
    assert code == 0 and err == ""
    grid = parse(out).find(f".//{SVG}rect[@id='sensor-grid']")
    assert grid is not None and float(grid.get("width", "0")) == 9 * DEFAULT_PITCH_MM
    config = tmp_path / "table.toml"
    config.write_text("[board]\nsquare_mm = 30.0\n", encoding="utf-8")
    code, out, err = run(capsys, "kakuro", "--options", '{"clues": "A"}', "--config", str(config))
    assert code == 0 and err == ""
    root = parse(out)
    assert root.get("data-pitch-mm") == "30"
    grid = root.find(f".//{SVG}rect[@id='sensor-grid']")
    assert grid is not None and float(grid.get("width", "0")) == 270


def test_the_command_line_is_defined_once() -> None:
    # The overlay takes its arguments and its pitch from the composition (``cli``); it neither
    # parses a command line nor reads the config itself.
    import ast
    import inspect

    import sudoku_table.overlay as overlay

    assert not hasattr(overlay, "build_parser") and not hasattr(overlay, "square_pitch")
    imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(overlay)))
                if isinstance(node, ast.ImportFrom)}
    assert "config" not in imported and "sudoku_table.config" not in imported, imported


@pytest.mark.parametrize(("args", "message"), [
    (["no-such-game"], "unknown variant 'no-such-game'"),
    (["kakuro", "--options", '{"clues": "C"}'], "option 'clues' must be one of"),
    (["kakuro", "--options", '{"clue": "A"}'], "has no option 'clue'"),
    (["kakuro", "--options", "{clues: A}"], "--options is not valid JSON"),
    (["kakuro", "--options", '["A"]'], "--options must be a JSON object"),
    (["classic-sudoku", "--config", "/nonexistent/table.toml"], "does not exist"),
])
def test_bad_requests_get_one_clear_line_and_status_2(
        capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sudoku-table overlay: ")
    assert message in err and "Traceback" not in err


def test_a_bad_pitch_in_the_config_is_named(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[board]\nsquare_mm = -3\n", encoding="utf-8")
    code, _, err = run(capsys, "classic-sudoku", "--config", str(config))
    assert code == 2 and "board.square_mm" in err


def test_render_refuses_a_pitch_that_is_not_a_length() -> None:
    for pitch in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(OverlayError, match="square pitch"):
            render(new_game("classic-sudoku"), pitch)


def test_sudoku_family_prints_its_black_dots() -> None:
    from sudoku_table.rules.family import BLACK_DOTS

    game = new_game("sudoku-family")
    assert marked_cells(game) == BLACK_DOTS
    drawn = {g.get("data-square"): g for g in cells_drawn(parse(render(game)))}
    dotted = {square for square, g in drawn.items()
              if g.find(f"{SVG}circle[@class='dot']") is not None}
    assert dotted == set(BLACK_DOTS)
    assert marked_cells(new_game("classic-sudoku")) == ()


def test_bare_clue_sums_go_on_the_square_before_their_run() -> None:
    from sudoku_table.rules.geometry import Geometry

    geometry = Geometry(
        id="runs", cells=("b1", "c1", "d1", "b2", "b3", "a7", "b7"),
        houses={"across": ("b1", "c1", "d1"), "down": ("b1", "b2", "b3"),
                "edge": ("a7", "b7")},
        clues={"across": {"sum": 6}, "down": 7, "edge": 3})  # type: ignore[dict-item]
    assert clue_squares(geometry) == {"a1": {"across": 6}, "b4": {"down": 7}}

    class Runs:
        id = "runs"
        name = "Runs"

    game = Runs()
    game.geometry = geometry  # type: ignore[attr-defined]
    root = parse(render(cast(Game, game)))
    printed = {(g.get("data-square"), t.text) for g in root.iter(SVG + "g")
               if g.get("class") == "clue" for t in g.findall(f"{SVG}text")}
    assert printed == {("a1", "6"), ("b4", "7")}
