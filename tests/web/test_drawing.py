"""Every board is drawn once: the panel and the printed overlay show the same drawing.

``sudoku_table.rules.drawing`` makes one drawing of each board from the rules' geometry; the
variants endpoint serves it, the panel's JavaScript draws it and the overlay prints it. Here the
drawing is checked against the geometry, and for every game the overlay's SVG and the board the
panel drew in a real Chromium are read back and compared: the same cells in the same regions
and colours, the same clues, the same dots, the same neighbour links.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.overlay import REGION_COLOURS, render
from sudoku_table.rules.drawing import (
    PALETTE_SIZE,
    clue_squares,
    drawing,
    lattice_links,
    region_of,
)
from sudoku_table.rules.game import all_variants, new_game
from sudoku_table.rules.squares import parse_square

VARIANT_IDS = [v.id for v in all_variants()]
SVG = "{http://www.w3.org/2000/svg}"


def test_there_are_twelve_games_and_the_puzzle() -> None:
    assert len(VARIANT_IDS) == 13


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_the_drawing_follows_the_geometry(variant: str) -> None:
    geometry = new_game(variant).geometry
    board = drawing(geometry)
    assert [c.cell for c in board.cells] == list(geometry.cells)  # every cell, once, in order
    owner = region_of(geometry)
    colour: dict[str, int] = {}
    for cell in board.cells:
        assert cell.region == owner.get(cell.cell)
        assert cell.at == (geometry.coords[cell.cell][0], -geometry.coords[cell.cell][1])
        if cell.region is None:
            assert cell.colour is None
            continue
        assert cell.colour is not None and 0 <= cell.colour < PALETTE_SIZE
        assert colour.setdefault(cell.region, cell.colour) == cell.colour  # one per region
        if cell.outline is not None:  # the outline surrounds the centre it is drawn around
            xs, ys = [p[0] for p in cell.outline], [p[1] for p in cell.outline]
            assert min(xs) < cell.at[0] < max(xs) and min(ys) < cell.at[1] < max(ys)
    # Regions that touch, on the sensor grid or on the drawn board, differ in colour.
    def apart(a: str, b: str) -> int:
        (af, ar), (bf, br) = parse_square(a), parse_square(b)
        return abs(af - bf) + abs(ar - br)

    touching = [(a, b) for a in geometry.cells for b in geometry.cells
                if a < b and apart(a, b) == 1]
    for a, b in touching + list(board.links):
        if owner.get(a) and owner.get(b) and owner[a] != owner[b]:
            assert colour[owner[a]] != colour[owner[b]], (a, b)
    if len(geometry.regions) <= PALETTE_SIZE:  # a few regions: each its own colour
        assert len(set(colour.values())) == len(geometry.regions)
    assert set(board.dots) == set(geometry.marked.get("dots", ()))
    assert {c.square for c in board.clues} == set(clue_squares(geometry))
    assert not {c.square for c in board.clues} & geometry.cell_set
    # Everything drawn lies inside the drawing's box.
    x0, y0, width, height = board.box
    for cell in board.cells:
        for x, y in cell.outline or [(cell.at[0] - cell.radius, cell.at[1] - cell.radius),
                                     (cell.at[0] + cell.radius, cell.at[1] + cell.radius)]:
            assert x0 <= x <= x0 + width and y0 <= y <= y0 + height, cell.cell


@pytest.mark.parametrize("variant", [v for v in VARIANT_IDS
                                     if new_game(v).geometry.shape == "square"])
def test_square_boards_outline_each_region_once(variant: str) -> None:
    geometry = new_game(variant).geometry
    board = drawing(geometry)
    if not geometry.regions:
        assert board.borders == ()
        return
    sides = {tuple(round(v * 2) for v in line) for line in board.borders}
    assert len(sides) == len(board.borders)  # no side twice
    owner = region_of(geometry)
    # A side is a border exactly when the cells either side of it differ in region (or one of
    # them is no cell): the outline of every region, once.
    expected = set()
    for cell in geometry.cells:
        f, r = parse_square(cell)
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            other = next((c for c in geometry.cells if parse_square(c) == (f + df, r + dr)), None)
            if other is None or owner.get(other) != owner.get(cell):
                x, y = f + df / 2, -r - dr / 2
                side = ((x, y - 0.5, x, y + 0.5) if df else (x - 0.5, y, x + 0.5, y))
                expected.add(tuple(round(v * 2) for v in side))
    assert sides == expected


def test_hex_borders_are_the_sides_between_regions() -> None:
    geometry = new_game("hexa-sudoku").geometry
    board = drawing(geometry)
    owner = region_of(geometry)
    between = [(a, b) for a, b in lattice_links(geometry) if owner[a] != owner[b]]
    assert len(board.borders) == len(between) > 0
    for x1, y1, x2, y2 in board.borders:
        assert math.isclose(math.hypot(x2 - x1, y2 - y1), board.unit / math.sqrt(3))


def test_each_medium_has_a_colour_for_every_index() -> None:
    assert len(REGION_COLOURS) == PALETTE_SIZE
    assert drawing(new_game("classic-sudoku").geometry).to_json()["palette_size"] == PALETTE_SIZE


@pytest.mark.integration
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_the_variants_endpoint_serves_the_drawing_and_keeps_every_field(
        client: FlaskClient, variant: str) -> None:
    answer = client.get(f"/api/variants/{variant}").get_json()
    geometry = new_game(variant).geometry
    assert {**geometry.to_json(), "drawing": drawing(geometry).to_json()} == answer


# --- the overlay and the panel, side by side --------------------------------------------------


def printed(variant: str) -> dict[str, Any]:
    """What the overlay prints: cells with region and colour, clues, dots, links."""
    root = ET.fromstring(render(new_game(variant)).encode())
    cells = {g.get("data-square"): (g.get("data-region"), g.get("data-colour"))
             for g in root.iter(SVG + "g") if g.get("class") == "cell"}
    clues = {(g.get("data-square"), t.get("class", "").split()[-1]): t.text
             for g in root.iter(SVG + "g") if g.get("class") == "clue"
             for t in g.findall(f"{SVG}text")}
    dots = {g.get("data-square") for g in root.iter(SVG + "g") if g.get("class") == "cell"
            and g.find(f"{SVG}circle[@class='dot']") is not None}
    links = root.find(f".//{SVG}g[@id='links']")
    return {"cells": cells, "clues": clues, "dots": dots,
            "links": 0 if links is None else len(links.findall(f"{SVG}line"))}


SHOWN = """svg => ({
  cells: [...svg.querySelectorAll('.layer-cells .cell')].map(
    (c) => [c.dataset.cell, c.dataset.region, c.dataset.colour, c.getAttribute('fill')]),
  clues: [...svg.querySelectorAll('.clue')].flatMap((g) => [
    ...(g.dataset.across ? [[g.dataset.at, 'across', g.dataset.across]] : []),
    ...(g.dataset.down ? [[g.dataset.at, 'down', g.dataset.down]] : [])]),
  dots: [...svg.querySelectorAll('.dot')].map((d) => d.dataset.dot),
  links: svg.querySelectorAll('.lattice').length,
  numbers: [...svg.querySelectorAll('.clue-number')].map((t) => t.textContent),
})"""


@pytest.mark.browser
def test_the_panel_and_the_overlay_show_the_same_board(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for variant in all_variants():
            players = min(max(2, variant.min_players), variant.max_players)
            answer = page.request.post(f"{server}/api/game", data={
                "variant": variant.id, "players": players, "replace": True})
            assert answer.ok, (variant, answer.text())
            page.goto(f"{server}/play")  # a new page: its board is this game's
            page.wait_for_selector("body[data-rendered='true']", state="attached")
            page.wait_for_selector("#board .layer-cells .cell", state="attached")
            shown = page.eval_on_selector("#board", SHOWN)
            paper = printed(variant.id)
            assert {c: (r, k) for c, r, k, _ in shown["cells"]} == paper["cells"], variant
            assert len(shown["cells"]) == len(paper["cells"]), variant  # none twice
            # The panel's fill is its own palette's colour for the index the paper used.
            fills = {k: f for _, _, k, f in shown["cells"] if k}
            assert len(set(fills.values())) == len(fills), variant
            assert {(s, d): n for s, d, n in shown["clues"]} == paper["clues"], variant
            assert sorted(shown["numbers"]) == sorted(paper["clues"].values()), variant
            assert set(shown["dots"]) == paper["dots"], variant
            assert len(shown["dots"]) == len(paper["dots"]), variant
            # Links join a lattice's points on both; hexagons touch on the panel, so only the
            # paper, where each keeps its own square, links them.
            points = new_game(variant.id).geometry.shape == "triangle"
            assert shown["links"] == (paper["links"] if points else 0), variant
    finally:
        context.close()
    assert not errors, errors


def test_the_cube_faces_are_tiled_without_gaps() -> None:
    """Each cube cell's parallelogram shares a whole side with its neighbour along the sensor
    grid in the same face (a rhombus' short diagonal is as long as its side: taking it for a
    side draws faces that do not close)."""
    geometry = new_game("3d-sudoku").geometry
    board = {c.cell: c for c in drawing(geometry).cells}
    owner = region_of(geometry)
    shared = 0
    for a in geometry.cells:
        for b in geometry.cells:
            (af, ar), (bf, br) = parse_square(a), parse_square(b)
            if a < b and abs(af - bf) + abs(ar - br) == 1 and owner[a] == owner[b]:
                corners_a = {(round(x, 6), round(y, 6)) for x, y in board[a].outline or ()}
                corners_b = {(round(x, 6), round(y, 6)) for x, y in board[b].outline or ()}
                assert len(corners_a & corners_b) == 2, (a, b)
                shared += 1
    assert shared > 0
