"""``sudoku-table parts --out DIR``: every drawing and printable part of the build, in one go.

The SVG drawings are also committed in ``hardware/parts/`` for the guide to show
(``python hardware/parts.py`` rewrites them; a test fails when they are out of date). The DXF,
the STL meshes and the tiled PDF are made here only: their files carry timestamps or are large.
The tactile overlays and number tiles (:mod:`.tactile`) go into a folder of their own,
``tactile/``, as STL and 3MF.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sudoku_table.firmware.config import LedConfig, SensorConfig

from . import board, braille, jig, mesh, section, spacer, stack, tactile, template, wiring
from .config import BuildConfig


def svg_drawings(pitch: float, build: BuildConfig, sensors: SensorConfig | None = None,
                 leds: LedConfig | None = None) -> dict[str, str]:
    """The SVG drawings by file name."""
    return {
        "cross-section.svg": section.render(pitch, build),
        "carrier-template.svg": template.render(pitch, build, leds),
        "spacer-laser.svg": spacer.laser_svg(pitch, build),
        "spacer-tiles.svg": spacer.plan_svg(pitch, build),
        "wiring-layout.svg": wiring.render(pitch, build, sensors, leds),
    }


def write_all(out: Path, pitch: float, build: BuildConfig, paper: str = "a4",
              sensors: SensorConfig | None = None, leds: LedConfig | None = None,
              games: Sequence[str] | None = None) -> list[Path]:
    """Write every file into ``out`` (made if missing); the paths written, in order. The
    tactile parts are made for ``games`` (variant ids; None: every game)."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {name: text.encode("utf-8") for name, text
                               in svg_drawings(pitch, build, sensors, leds).items()}
    files[f"carrier-template-{paper}.pdf"] = template.pdf(pitch, build, paper, leds)
    files["spacer-laser.dxf"] = spacer.laser_dxf(pitch, build)
    for tile in spacer.tiles(pitch, build):
        files[f"spacer-{tile.name}.stl"] = mesh.stl(spacer.tile_solid(tile, pitch, build))
    files["spacer-grid-whole.stl"] = mesh.stl(
        spacer.tile_solid(spacer.Tile(0, 9, 0, 9), pitch, build))
    files["jig.stl"] = mesh.stl(jig.solid(pitch, build))
    if tactile_verdict(pitch, build) is None:
        files.update(tactile_files(pitch, build, games))
        (out / TACTILE).mkdir(exist_ok=True)
    written = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


TACTILE = "tactile"
"""The folder of the tactile overlays and number tiles, inside the output folder."""
PLATE_GAP_MM = 5.0
"""Between the tiles of one set on their print plate."""


def tactile_verdict(pitch: float, build: BuildConfig) -> str | None:
    """Why the tactile parts are left out for this stack, or None when they are made."""
    try:
        tactile.check_stack(pitch, build)
    except board.PartsError as e:
        return str(e)
    return None


def tactile_files(pitch: float, build: BuildConfig,
                  variants: Sequence[str] | None = None) -> dict[str, bytes]:
    """The tactile overlay of each game (its printed pieces as STL, all of them in place as
    one 3MF) and the number tiles its sets need (each as STL, a set's plate as 3MF), by path
    inside the output folder; ``PartsError`` for an unknown game or a tile that would not
    close its switch."""
    from sudoku_table.rules.game import all_variants, new_game

    tactile.check_stack(pitch, build)
    known = [cls.id for cls in all_variants()]
    unknown = [v for v in variants or () if v not in known]
    if unknown:
        raise board.PartsError(f"no game {unknown[0]!r} (one of {', '.join(known)})")
    games = [new_game(v) for v in (variants or known)]
    sets = tactile.merged_sets(s for game in games for s in tactile.tile_sets(game))
    labels = braille.translate([*tactile.COORDINATES, *tactile.tile_labels(sets)])
    files: dict[str, bytes] = {}
    for game in games:
        whole = tactile.overlay_solid(tactile.plan(game), labels, pitch, build)
        pieces = {piece.name: tactile.piece_solid(whole, piece, pitch)
                  for piece in tactile.pieces(pitch, build)}
        for name, solid in pieces.items():
            files[f"{TACTILE}/overlay-{game.id}-{name}.stl"] = mesh.stl(solid)
        files[f"{TACTILE}/overlay-{game.id}.3mf"] = mesh.three_mf(pieces)
    for tile_set in sets:
        files.update(_tile_files(tile_set, labels, pitch, build))
    return files


def _tile_files(tile_set: tactile.TileSet, labels: dict[str, tuple[braille.Cell, ...]],
                pitch: float, build: BuildConfig) -> dict[str, bytes]:
    """One set's tiles (and its blank), each as STL, and all of them in rows on one plate as
    3MF."""
    low, high = tile_set.numbers
    step = tactile.tile_side(pitch, build) + PLATE_GAP_MM
    suffix = f"-{tile_set.seat_name.lower()}" if tile_set.seat_name else ""
    numbers: list[int | None] = [*range(low, high + 1), *([None] if tile_set.blanks else [])]
    files, plate = {}, {}
    for k, number in enumerate(numbers):
        cells = () if number is None else labels[str(number)]
        solid = tactile.tile_solid(number, cells, tile_set.seat, pitch, build)
        name = "blank" if number is None else str(number)
        files[f"{TACTILE}/tile-{name}{suffix}.stl"] = mesh.stl(solid)
        plate[f"tile {name}{suffix}"] = solid.translate([(k % 5) * step, (k // 5) * step, 0])
    files[f"{TACTILE}/tiles-{tile_set.name}.3mf"] = mesh.three_mf(plate)
    return files


def summary(pitch: float, build: BuildConfig) -> list[str]:
    """What a maker should know about this stack before cutting anything."""
    est = stack.estimate(build, pitch)
    verdict = "closes with margin" if est.closes else \
        "does NOT close with margin: change the stack or the magnet (see the guide)"
    return [
        f"magnet face to reed glass: {est.distance_mm:.1f} mm (to its contacts "
        f"{est.contacts_mm:.1f} mm)",
        f"mean field along the glass: {est.centred_mt:.1f} mT centred, {est.off_centre_mt:.1f} mT "
        f"{est.off_centre_mm:g} mm off centre; a {build.reed_pull_in_at:g} AT switch needs about "
        f"{est.needed_mt:.1f} mT (margin {est.margin:.1f})",
        f"a piece on the next square: {abs(est.neighbour_mt):.2f} mT against "
        f"{est.sensitive_mt:.1f} mT for a {build.reed_pull_in_min_at:g} AT switch (margin "
        f"{est.neighbour_margin:.0f})",
        f"this stack {verdict}",
        tactile_line(pitch, build),
    ]


def tactile_line(pitch: float, build: BuildConfig) -> str:
    """What the summary says of the tactile tiles: their margin, or why they were left out."""
    reason = tactile_verdict(pitch, build)
    if reason is not None:
        return f"tactile overlays and tiles NOT written: {reason}"
    est, allowed = tactile.estimate(pitch, build), stack.allowance_mm(build, pitch)
    return (f"tactile tiles ({tactile.tile_side(pitch, build):g} mm, in their windows at most "
            f"{est.off_centre_mm:g} mm off centre): margin {est.margin:.1f}; their magnets lie "
            f"{tactile.magnet_rise():g} mm above the sheet, {allowed:.2f} mm allowed")


def main(args: argparse.Namespace, pitch: float, build: BuildConfig, sensors: SensorConfig,
         leds: LedConfig) -> int:
    """``sudoku-table parts``: write the files, print what was written and the field figures;
    2 with one line on stderr when the drawing libraries are missing or the build does not
    fit."""
    try:
        written = write_all(Path(args.out), pitch, build, args.paper, sensors, leds,
                            getattr(args, "game", None))
    except ImportError as e:
        return fail(f"the drawing libraries are missing ({e.name}): install the parts extra, "
                    "pip install 'sudoku-table[parts]', on a PC (never needed on the table)")
    except board.PartsError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write into {args.out}: {e.strerror or e}")
    for path in written:
        print(path)
    for line in summary(pitch, build):
        print(line)
    return 0


def fail(reason: str) -> int:
    print(f"sudoku-table parts: {reason}", file=sys.stderr)
    return 2
