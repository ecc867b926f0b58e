"""The tactile overlay and number tiles: closed solids of the right size, ridges where the board's
regions and cages end, open windows, the braille read back from the meshes themselves, and a
stack that keeps every tile's magnet within what the build allows."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest

from sudoku_table.parts import braille, files, mesh, stack, tactile
from sudoku_table.parts.board import PartsError
from sudoku_table.parts.config import BuildConfig
from sudoku_table.rules.game import new_game

trimesh = pytest.importorskip("trimesh")
pytest.importorskip("manifold3d")
PITCH = 40.0
UEB = dict(zip("abcdefghi", "⠁⠃⠉⠙⠑⠋⠛⠓⠊", strict=True))
UEB.update({str(n): "⠼" + UEB["abcdefghi"[n - 1]] for n in range(1, 10)})
"""Unified English Braille for the coordinates and numbers, as liblouis writes them
(tests/parts/test_braille.py checks that it does); given here so these tests need no process."""
LABELS = {text: braille.cells_of(cells) for text, cells in UEB.items()}


def load(solid: object) -> object:
    """Through the STL bytes, as a slicer would read it."""
    return trimesh.load(io.BytesIO(mesh.stl(solid)), file_type="stl")


def inside(solid: object, x: float, y: float, z: float) -> bool:
    """Whether a 0.1 mm cube at the point lies in the solid."""
    probe = mesh.box(x - 0.05, y - 0.05, z - 0.05, x + 0.05, y + 0.05, z + 0.05)
    return bool((solid ^ probe).volume() > 0.0009)  # type: ignore[operator]


def bumps(solid: object, z: float) -> list[tuple[float, float]]:
    """The centres of the small round islands of the solid's cut at height ``z``: its dots."""
    out = []
    for part in solid.slice(z).decompose():  # type: ignore[attr-defined]
        for polygon in part.to_polygons():
            xs, ys = polygon[:, 0], polygon[:, 1]
            if xs.max() - xs.min() < braille.DOT_MM + 0.1:
                out.append((float(xs.mean()), float(ys.mean())))
    return out


def read(dots: Sequence[tuple[float, float]], count: int, centre: tuple[float, float],
         turned: bool = False) -> tuple[braille.Cell, ...]:
    """The cells a finger reads at a label's places: a place is raised when a dot stands
    there."""
    cells: list[set[int]] = [set() for _ in range(count)]
    for cell, dot, x, y in braille.places(count, centre, turned):
        if any(abs(x - dx) < 0.3 and abs(y - dy) < 0.3 for dx, dy in dots):
            cells[cell].add(dot)
    return tuple(frozenset(c) for c in cells)


@pytest.fixture(scope="module")
def killer() -> object:
    return tactile.overlay_solid(tactile.plan(new_game("killer-sudoku")), LABELS, PITCH,
                                 BuildConfig())


@pytest.fixture(scope="module")
def classic() -> object:
    return tactile.overlay_solid(tactile.plan(new_game("classic-sudoku")), LABELS, PITCH,
                                 BuildConfig())


def kind_between(board: tactile.Plan, x: int, y: int, across: bool) -> str:
    return next(s.kind for s in board.sides if (s.x, s.y, s.across) == (x, y, across))


def test_the_plan_raises_block_borders_and_beads_cage_borders() -> None:
    classic = tactile.plan(new_game("classic-sudoku"))
    assert len(classic.cells) == 81 and len(classic.sides) == 2 * 9 * 10
    assert kind_between(classic, 3, 0, False) == tactile.HIGH  # between c1 and d1: blocks
    assert kind_between(classic, 1, 0, False) == tactile.LOW  # a1 | b1, one block
    assert kind_between(classic, 0, 0, True) == tactile.HIGH  # the board's edge
    assert {s.kind for s in classic.sides} == {tactile.LOW, tactile.HIGH}
    killer = tactile.plan(new_game("killer-sudoku"))
    kinds = [s.kind for s in killer.sides]
    assert kinds.count(tactile.CAGE) > 20  # its houses are cages: no blocks, only the edge
    assert all(s.x in (0, 9) if not s.across else s.y in (0, 9)
               for s in killer.sides if s.kind == tactile.HIGH)
    labyrinth = tactile.plan(new_game("labyrinth-sudoku"))
    assert [s.kind for s in labyrinth.sides].count(tactile.HIGH) > 36 + 20
    hexa = tactile.plan(new_game("hexa-sudoku"))
    assert len(hexa.cells) == 54


def test_the_overlay_is_closed_and_spans_the_board_and_its_frame(killer: object) -> None:
    shape = load(killer)
    assert shape.is_watertight and shape.is_volume
    side = 9 * PITCH + 2 * tactile.RIM_MM
    (x0, y0, z0), (x1, y1, z1) = shape.bounds
    assert (x1 - x0, y1 - y0) == pytest.approx((side, side), abs=1e-3)
    assert (z0, z1) == pytest.approx((0.0, max(tactile.HIGH_MM, tactile.BEAD_MM)), abs=1e-3)


def test_windows_are_open_ridges_tall_at_regions_and_non_cells_closed(classic: object) -> None:
    for x in range(9):
        for y in range(9):
            assert not inside(classic, (x + 0.5) * PITCH, (y + 0.5) * PITCH, 0.05), (x, y)
    mid = 1.5 * PITCH  # along rank 2, the side between files c and d, then b and c
    assert inside(classic, 3 * PITCH, mid, tactile.HIGH_MM - 0.1)
    assert inside(classic, 2 * PITCH, mid, tactile.LOW_MM - 0.1)
    assert not inside(classic, 2 * PITCH, mid, tactile.LOW_MM + 0.1)
    kakuro = tactile.overlay_solid(tactile.plan(new_game("kakuro")), LABELS, PITCH,
                                   BuildConfig())
    closed = [(x, y) for x in range(9) for y in range(9)
              if (x, y) not in tactile.plan(new_game("kakuro")).cells]
    assert closed
    for x, y in closed:
        assert inside(kakuro, (x + 0.5) * PITCH, (y + 0.5) * PITCH, 0.05), (x, y)


def test_cage_borders_carry_beads_and_other_sides_none(killer: object) -> None:
    board = tactile.plan(new_game("killer-sudoku"))
    cage = next(s for s in board.sides if s.kind == tactile.CAGE)
    low = next(s for s in board.sides if s.kind == tactile.LOW and 0 < s.x < 9 and 0 < s.y < 9)
    top = tactile.BEAD_MM - 0.1
    assert all(inside(killer, x, y, top) for x, y in tactile.bead_centres(cage, PITCH))
    assert not any(inside(killer, x, y, top) for x, y in tactile.bead_centres(low, PITCH))


def test_the_frame_reads_every_coordinate_in_braille(classic: object) -> None:
    dots = bumps(classic, tactile.FRAME_MM + braille.DOT_HEIGHT_MM / 2)
    labels = tactile.frame_labels(PITCH)
    assert len(labels) == 36
    for label in labels:
        cells = read(dots, len(LABELS[label.text]), (label.x, label.y), label.turned)
        assert cells == LABELS[label.text], label
    assert len(dots) == sum(len(cell) for label in labels for cell in LABELS[label.text])


def test_a_turned_label_is_not_read_upright() -> None:
    one = braille.dots(LABELS["1"], (0.0, 0.0), turned=True)
    assert read([(d.x, d.y) for d in one], 2, (0.0, 0.0)) != LABELS["1"]


@pytest.mark.parametrize("bed", [180.0, 400.0])
def test_the_pieces_fit_the_bed_and_make_up_the_whole(classic: object, bed: float) -> None:
    build = BuildConfig(print_bed_mm=bed)
    pieces = tactile.pieces(PITCH, build)
    assert len(pieces) == {180.0: 9, 400.0: 1}[bed]
    total = 0.0
    for piece in pieces:
        solid = tactile.piece_solid(classic, piece, PITCH)
        shape = load(solid)
        assert shape.is_watertight
        (x0, y0, _), (x1, y1, _) = shape.bounds
        assert max(x1 - x0, y1 - y0) <= bed - 5.0 + 1e-6, piece.name
        total += solid.volume()
    assert total == pytest.approx(classic.volume(), rel=1e-6)  # type: ignore[attr-defined]


def test_a_bed_too_small_says_so() -> None:
    with pytest.raises(PartsError, match="bed"):
        tactile.pieces(50.0, BuildConfig(print_bed_mm=60.0))


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_a_tile_is_closed_holds_its_magnet_and_its_seats_notches(seat: int) -> None:
    build = BuildConfig()
    solid = tactile.tile_solid(7, LABELS["7"], seat, PITCH, build)
    shape = load(solid)
    assert shape.is_watertight and shape.is_volume
    side, base = tactile.tile_side(PITCH, build), tactile.tile_height(build)
    assert side == PITCH - tactile.RIDGE_MM - 2 * tactile.TILE_CLEARANCE_MM == 36.0
    (x0, y0, z0), (x1, y1, z1) = shape.bounds
    assert (x1 - x0, y1 - y0, z0) == pytest.approx((side, side, 0.0), abs=1e-3)
    assert z1 == pytest.approx(base + max(tactile.NUMERAL_MM, braille.DOT_HEIGHT_MM), abs=1e-3)
    pocket_top = build.magnet_thickness_mm + tactile.MAGNET_PLAY_MM
    radius = (build.magnet_diameter_mm + tactile.MAGNET_PLAY_MM) / 2
    for z in (0.05, pocket_top - 0.1):  # open from below: the magnet lies flush on the sheet
        assert not inside(solid, side / 2, side / 2, z)
        assert not inside(solid, side / 2 + radius - 0.15, side / 2, z)
    assert inside(solid, side / 2, side / 2, pocket_top + 0.2)
    assert inside(solid, side / 2 + radius + 0.3, side / 2, 0.5)
    notches = tactile.notch_centres(seat, side)
    assert len(notches) == seat
    for x in notches:
        assert not inside(solid, x, 0.5, 1.0)
    if seat == 0:
        assert all(inside(solid, x, 0.5, 1.0) for x in (side / 2 - 5, side / 2, side / 2 + 5))


@pytest.mark.parametrize("number", [1, 6, 9])
def test_a_tile_reads_its_number_in_braille_and_carries_its_numeral(number: int) -> None:
    build = BuildConfig()
    solid = tactile.tile_solid(number, LABELS[str(number)], 0, PITCH, build)
    side, base = tactile.tile_side(PITCH, build), tactile.tile_height(build)
    dots = bumps(solid, base + braille.DOT_HEIGHT_MM / 2)
    assert read(dots, 2, tactile.braille_centre(side)) == LABELS[str(number)]
    assert len(dots) == sum(len(cell) for cell in LABELS[str(number)])
    numeral = solid.slice(base + tactile.NUMERAL_MM / 2 + 0.2)
    assert numeral.area() > 20.0  # a bold digit, not a speck
    (nx0, ny0), (nx1, ny1) = numeral.bounds()[:2], numeral.bounds()[2:]
    ax0, ay0, ax1, ay1 = tactile.numeral_area(side)
    assert ax0 - 0.01 <= nx0 and nx1 <= ax1 + 0.01 and ay0 - 0.01 <= ny0 and ny1 <= ay1 + 0.01


def test_numerals_differ() -> None:
    build = BuildConfig()
    base = tactile.tile_height(build)
    areas = {n: tactile.tile_solid(n, LABELS[str(n)], 0, PITCH, build).slice(base + 0.5).area()
             for n in (1, 6, 8)}
    assert len({round(a) for a in areas.values()}) == 3


def test_tile_sets_follow_the_games_seats_and_blanks() -> None:
    assert [s.name for s in tactile.tile_sets(new_game("classic-sudoku"))] == ["1-9"]
    halma = tactile.tile_sets(new_game("halma-dominari"))
    assert [(s.name, s.seat, s.blanks) for s in halma] == [
        ("1-6-white", 0, False), ("1-6-black", 1, False)]
    revers = tactile.tile_sets(new_game("revers-dominari"))
    assert all(s.blanks for s in revers)
    for order in ([*halma, *revers], [*revers, *halma]):
        assert [(s.name, s.blanks) for s in tactile.merged_sets(order)] == [
            ("1-6-white", True), ("1-6-black", True)]


def test_a_blank_tile_is_smooth_on_top_and_keeps_its_seats_notch() -> None:
    build = BuildConfig()
    blank = tactile.tile_solid(None, (), 1, PITCH, build)
    assert load(blank).is_watertight
    base = tactile.tile_height(build)
    assert blank.slice(base + 0.2).is_empty()
    assert not inside(blank, tactile.notch_centres(1, tactile.tile_side(PITCH, build))[0],
                      0.5, 1.0)


def test_the_tiles_stay_within_the_distance_the_build_allows() -> None:
    build = BuildConfig()
    allowed = stack.allowance_mm(build, PITCH)
    assert 0.5 < allowed < 1.0  # the guide's stack closes with a little to spare
    assert tactile.magnet_rise() <= allowed
    est = tactile.check_stack(PITCH, build)
    assert est.closes and est.distance_mm == pytest.approx(stack.estimate(build, PITCH)
                                                            .distance_mm)
    assert est.off_centre_mm == pytest.approx(tactile.TILE_CLEARANCE_MM)
    assert est.margin > stack.estimate(build, PITCH).margin  # the window centres the tile
    raised = build.model_copy(update={"piece_floor_mm": allowed + 0.02})
    assert not stack.estimate(raised, PITCH).closes
    assert stack.estimate(build.model_copy(update={"piece_floor_mm": allowed}), PITCH).closes


def test_a_floor_under_the_magnet_beyond_the_allowance_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tactile, "POCKET_FLOOR_MM", 1.0)
    with pytest.raises(PartsError, match="lifts its magnet"):
        tactile.check_stack(PITCH, BuildConfig())


def test_a_stack_that_does_not_close_leaves_the_tactile_parts_out() -> None:
    build = BuildConfig(cover_mm=4.0)
    assert stack.allowance_mm(build, PITCH) == 0.0
    assert files.tactile_verdict(PITCH, build) is not None
    assert "tactile overlays and tiles NOT written" in files.tactile_line(PITCH, build)
    assert files.tactile_verdict(PITCH, BuildConfig()) is None


def test_too_small_a_tile_or_rim_says_what_to_change() -> None:
    with pytest.raises(PartsError, match="raise \\[board\\] square_mm"):
        tactile.tile_solid(7, LABELS["7"], 0, 15.0, BuildConfig())
    with pytest.raises(PartsError, match="border_mm"):
        tactile.overlay_solid(tactile.plan(new_game("classic-sudoku")), LABELS, PITCH,
                              BuildConfig(border_mm=8.0))


def test_a_3mf_holds_each_solid_closed_by_name() -> None:
    build = BuildConfig()
    tiles = {f"tile {n}": tactile.tile_solid(n, LABELS[str(n)], 0, PITCH, build)
             .translate([n * 40.0, 0, 0]) for n in (1, 2)}
    scene = trimesh.load(io.BytesIO(mesh.three_mf(tiles)), file_type="3mf")
    assert sorted(scene.geometry) == ["tile 1", "tile 2"]
    assert all(m.is_watertight for m in scene.geometry.values())
    (x0, _, _), (x1, _, _) = scene.bounds
    assert (x0, x1) == pytest.approx((40.0, 80.0 + tactile.tile_side(PITCH, build)), abs=1e-3)
    with pytest.raises(ValueError, match="not a closed solid"):
        mesh.three_mf({"open": mesh.box(0, 0, 0, 1, 1, 1) ^ mesh.box(5, 5, 5, 6, 6, 6)})
