"""The printed parts are closed solids of the right size, and the spacer's tiles key together."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sudoku_table.cli import main as cli
from sudoku_table.parts import jig, mesh, spacer
from sudoku_table.parts.config import BuildConfig

trimesh = pytest.importorskip("trimesh")
pytest.importorskip("manifold3d")
PITCH = 40.0


def load(solid: object) -> object:
    """Through the STL bytes, as a slicer would read it."""
    return trimesh.load(io.BytesIO(mesh.stl(solid)), file_type="stl")


@pytest.mark.parametrize("bed", [180.0, 220.0, 400.0])
def test_every_tile_is_watertight_fits_the_bed_and_together_they_cover_the_grid(
        bed: float) -> None:
    build = BuildConfig(print_bed_mm=bed)
    tiles = spacer.tiles(PITCH, build)
    assert len(tiles) == {180.0: 9, 220.0: 4, 400.0: 1}[bed]
    covered = set()
    for tile in tiles:
        shape = load(spacer.tile_solid(tile, PITCH, build))
        assert shape.is_watertight and shape.is_volume, tile.name
        (x0, y0, z0), (x1, y1, z1) = shape.bounds
        assert (z0, z1) == pytest.approx((0.0, build.spacer_mm), abs=1e-4)
        assert max(x1 - x0, y1 - y0) <= bed - spacer.BED_MARGIN_MM
        assert (x0, y0, x1, y1) == pytest.approx(spacer.tile_extent(tile, PITCH, build),
                                                  abs=1e-4)
        covered |= {(f, r) for f in range(tile.f0, tile.f1) for r in range(tile.r0, tile.r1)}
    assert len(covered) == 81


def test_the_whole_grid_has_the_boards_size() -> None:
    build = BuildConfig()
    shape = load(spacer.tile_solid(spacer.Tile(0, 9, 0, 9), PITCH, build))
    (x0, y0, z0), (x1, y1, z1) = shape.bounds
    w = build.wall_mm
    assert (x1 - x0, y1 - y0, z1 - z0) == pytest.approx((9 * PITCH + w, 9 * PITCH + w,
                                                         build.spacer_mm), abs=1e-4)


def inside(solid: object, point: tuple[float, float, float]) -> bool:
    """Whether a 0.1 mm cube at ``point`` lies in the solid (its intersection has volume)."""
    x, y, z = point
    probe = mesh.box(x - 0.05, y - 0.05, z - 0.05, x + 0.05, y + 0.05, z + 0.05)
    return bool((solid ^ probe).volume() > 0.0009)  # type: ignore[operator]


def test_a_tiles_key_runs_into_its_neighbours_pocket() -> None:
    build = BuildConfig()
    left = spacer.tile_solid(spacer.Tile(0, 3, 0, 3), PITCH, build)
    right = spacer.tile_solid(spacer.Tile(3, 6, 0, 3), PITCH, build)
    w, h = build.wall_mm, build.spacer_mm
    key = (3 * PITCH + w / 2 - spacer.KEY_MM / 2, PITCH, h / 2)  # in the seam wall's pocket
    beside = (3 * PITCH + w / 2 - spacer.KEY_MM / 2, PITCH + w, h / 2)  # seam wall, no key
    assert inside(right, key) and not inside(left, key)
    assert inside(left, beside) and not inside(right, beside)


def test_the_jig_is_one_square_and_its_neighbour_on_feet() -> None:
    build = BuildConfig()
    shape = load(jig.solid(PITCH, build))
    assert shape.is_watertight and shape.is_volume
    (x0, y0, z0), (x1, y1, z1) = shape.bounds
    assert (x1 - x0, y1 - y0, z1 - z0) == pytest.approx(jig.outer(PITCH, build), abs=1e-4)
    x, y = jig.reed_hole(PITCH, build)
    floor = jig.FEET_MM + build.carrier_mm / 2
    solid = jig.solid(PITCH, build)
    assert not inside(solid, (x, y, floor))  # the reed's hole goes through
    assert inside(solid, (x + 2.0, y, floor))


@pytest.mark.integration  # svglib and reportlab ask fontconfig in a process
def test_the_command_writes_every_part(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[board]\nsquare_mm = 36.0\n[build]\nspacer_mm = 17.0\n", encoding="utf-8")
    out = tmp_path / "parts"
    assert cli(["parts", "--out", str(out), "--config", str(config), "--paper", "letter",
                "--game", "classic-sudoku"]) == 0
    names = {p.name for p in out.iterdir()}
    for needed in ("cross-section.svg", "carrier-template.svg", "carrier-template-letter.pdf",
                   "spacer-laser.svg", "spacer-laser.dxf", "spacer-tiles.svg", "jig.stl",
                   "spacer-grid-whole.stl", "wiring-layout.svg"):
        assert needed in names
    assert any(n.startswith("spacer-a1-") and n.endswith(".stl") for n in names)
    tactile = {p.name for p in (out / "tactile").iterdir()}
    assert "overlay-classic-sudoku.3mf" in tactile and "tiles-1-9.3mf" in tactile
    assert {f"tile-{n}.stl" for n in range(1, 10)} <= tactile
    assert sum(n.startswith("overlay-classic-sudoku-") and n.endswith(".stl") for n in tactile) > 1
    grid = trimesh.load(out / "spacer-grid-whole.stl")
    assert grid.bounds[1][2] - grid.bounds[0][2] == pytest.approx(17.0, abs=1e-4)
    printed = capsys.readouterr().out
    assert "closes with margin" in printed and "tactile tiles (32 mm" in printed


def test_a_build_that_cannot_be_drawn_changes_nothing(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[build]\nled_offset_mm = 30.0\n", encoding="utf-8")
    out = tmp_path / "parts"
    assert cli(["parts", "--out", str(out), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudoku-table parts: ") and "led_offset_mm" in err
    assert not out.exists() or not any(out.iterdir())
    config.write_text("[build]\nspacer_mm = 10.0\n", encoding="utf-8")
    assert cli(["parts", "--out", str(out), "--config", str(config)]) == 2
    assert "must hold the reed switch" in capsys.readouterr().err
