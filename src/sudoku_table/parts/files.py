"""``sudoku-table parts --out DIR``: every drawing and printable part of the build, in one go.

The SVG drawings are also committed in ``hardware/parts/`` for the guide to show
(``python hardware/parts.py`` rewrites them; a test fails when they are out of date). The DXF,
the STL meshes and the tiled PDF are made here only: their files carry timestamps or are large.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudoku_table.firmware.config import LedConfig, SensorConfig

from . import board, jig, mesh, section, spacer, stack, template, wiring
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
              sensors: SensorConfig | None = None, leds: LedConfig | None = None) -> list[Path]:
    """Write every file into ``out`` (made if missing); the paths written, in order."""
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
    written = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


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
    ]


def main(args: argparse.Namespace, pitch: float, build: BuildConfig, sensors: SensorConfig,
         leds: LedConfig) -> int:
    """``sudoku-table parts``: write the files, print what was written and the field figures;
    2 with one line on stderr when the drawing libraries are missing or the build does not
    fit."""
    try:
        written = write_all(Path(args.out), pitch, build, args.paper, sensors, leds)
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
