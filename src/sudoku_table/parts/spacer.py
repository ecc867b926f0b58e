"""The spacer grid: a wall around every square, so each LED lights only its own square.

Two ways to make it, from the same pitch and height:

- **3D-printed**, in tiles that fit a printer's bed (a 360 mm grid is larger than most): the
  tiles meet on a wall, which belongs to the tile left of (or below) the seam; the other tile's
  walls run on into pockets in it, so the tiles key together square and flush. Each tile is
  modelled upside down, top face on the bed: the notches for the LED rails at the walls' feet
  then face up and print without bridges.
- **Laser-cut** as an egg-crate of strips from ``sheet_mm`` plywood: ten strips along the ranks
  slotted from the top, ten along the files slotted from the bottom, each with the same notches.

Plan coordinates: ``x`` along the files (a to i), ``y`` along the ranks (1 to 9), the wall
between two squares centred on their common edge, the grid's outer walls at 0 and 9 x pitch.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

from sudoku_table.firmware.layout import SIZE

from . import mesh
from .board import NOTCH_FRACTION, NOTCH_HEIGHT_MM
from .config import BuildConfig
from .svg import INK, Sheet, n

KEY_MM = 1.2
"""How far a tile's walls run into the pockets of its neighbour's seam wall."""
KEY_CLEARANCE_MM = 0.15
"""Play around a key, per side, for a printed fit."""
BED_MARGIN_MM = 5.0
"""Keep a tile this far inside the bed's size (brim, skirt, the bed's edge)."""


@dataclass(frozen=True)
class Tile:
    """One printed tile: files ``f0`` to ``f1`` and ranks ``r0`` to ``r1`` (square indices,
    end exclusive), so (0, 9, 0, 9) is the whole grid."""

    f0: int
    f1: int
    r0: int
    r1: int

    @property
    def name(self) -> str:
        files = "abcdefghi"
        return f"{files[self.f0]}{self.r0 + 1}-{files[self.f1 - 1]}{self.r1}"


def chunks(count: int, parts: int) -> list[tuple[int, int]]:
    """``count`` squares split into ``parts`` runs as even as can be: (start, end) pairs."""
    sizes = [count // parts + (1 if i < count % parts else 0) for i in range(parts)]
    out, start = [], 0
    for size in sizes:
        out.append((start, start + size))
        start += size
    return out


def tiles_per_side(pitch: float, build: BuildConfig) -> int:
    """The fewest tiles along a side whose largest tile fits the bed."""
    for parts in range(1, SIZE + 1):
        largest = math.ceil(SIZE / parts)
        if largest * pitch + build.wall_mm + KEY_MM <= build.print_bed_mm - BED_MARGIN_MM:
            return parts
    from .board import PartsError

    raise PartsError(f"a {build.print_bed_mm:g} mm bed cannot print even one {pitch:g} mm "
                     "square of the spacer grid: laser-cut it instead")


def tiles(pitch: float, build: BuildConfig) -> list[Tile]:
    """The tiles of the printed grid, row by row from a1."""
    runs = chunks(SIZE, tiles_per_side(pitch, build))
    return [Tile(f0, f1, r0, r1) for r0, r1 in runs for f0, f1 in runs]


def tile_extent(tile: Tile, pitch: float, build: BuildConfig) -> tuple[float, float, float,
                                                                       float]:
    """x0, y0, x1, y1 of a tile's plan, its keys included."""
    w = build.wall_mm
    x0 = -w / 2 if tile.f0 == 0 else tile.f0 * pitch + w / 2 - KEY_MM
    y0 = -w / 2 if tile.r0 == 0 else tile.r0 * pitch + w / 2 - KEY_MM
    return x0, y0, tile.f1 * pitch + w / 2, tile.r1 * pitch + w / 2


def tile_solid(tile: Tile, pitch: float, build: BuildConfig) -> Any:
    """A tile as a closed solid, upside down (its top face at z = 0)."""
    w, h = build.wall_mm, build.spacer_mm
    x0, y0, x1, y1 = tile_extent(tile, pitch, build)
    file_walls = [k for k in range(tile.f0, tile.f1 + 1) if k > tile.f0 or tile.f0 == 0]
    rank_walls = [k for k in range(tile.r0, tile.r1 + 1) if k > tile.r0 or tile.r0 == 0]
    walls = [mesh.box(k * pitch - w / 2, y0, 0, k * pitch + w / 2, y1, h) for k in file_walls]
    walls += [mesh.box(x0, k * pitch - w / 2, 0, x1, k * pitch + w / 2, h) for k in rank_walls]
    cuts = []
    c = KEY_CLEARANCE_MM
    if tile.f1 < SIZE:  # pockets for the right neighbour's rank walls
        face = tile.f1 * pitch + w / 2
        cuts += [mesh.box(face - KEY_MM - c, k * pitch - w / 2 - c, -1, face + 1,
                          k * pitch + w / 2 + c, h + 1) for k in rank_walls]
    if tile.r1 < SIZE:  # pockets for the upper neighbour's file walls
        face = tile.r1 * pitch + w / 2
        cuts += [mesh.box(k * pitch - w / 2 - c, face - KEY_MM - c, -1,
                          k * pitch + w / 2 + c, face + 1, h + 1) for k in file_walls]
    notch, depth = NOTCH_FRACTION * pitch, NOTCH_HEIGHT_MM
    for k in file_walls:  # at the walls' feet, which face up when printed upside down
        cuts += [mesh.box(k * pitch - w, (m + 0.5) * pitch - notch / 2, h - depth,
                          k * pitch + w, (m + 0.5) * pitch + notch / 2, h + 1)
                 for m in range(tile.r0, tile.r1)]
    for k in rank_walls:
        cuts += [mesh.box((m + 0.5) * pitch - notch / 2, k * pitch - w, h - depth,
                          (m + 0.5) * pitch + notch / 2, k * pitch + w, h + 1)
                 for m in range(tile.f0, tile.f1)]
    return mesh.subtract(mesh.union(walls), cuts)


# --- laser-cut strips ----------------------------------------------------------------------


@dataclass(frozen=True)
class Strip:
    """One egg-crate strip: its name and its outline (mm, y up, the strip's foot at y = 0)."""

    name: str
    outline: list[tuple[float, float]]
    slots_from_top: bool


def strip(name: str, pitch: float, build: BuildConfig, slots_from_top: bool) -> Strip:
    """A strip of ``sheet_mm`` plywood with a slot at each crossing (half its height, from the
    top or the bottom) and a notch for the rails at the foot of every square."""
    t, h = build.sheet_mm, build.spacer_mm
    x0, x1 = -1.5 * t, SIZE * pitch + 1.5 * t
    notch = NOTCH_FRACTION * pitch
    slots = [(k * pitch - t / 2, k * pitch + t / 2) for k in range(SIZE + 1)]
    notches = [((m + 0.5) * pitch - notch / 2, (m + 0.5) * pitch + notch / 2)
               for m in range(SIZE)]
    bottom_cuts = notches + ([] if slots_from_top else slots)
    bottom_depth = {a: (NOTCH_HEIGHT_MM if (a, b) in notches else h / 2)
                    for a, b in bottom_cuts}
    points: list[tuple[float, float]] = [(x0, 0.0)]
    for a, b in sorted(bottom_cuts):  # along the foot, left to right
        d = bottom_depth[a]
        points += [(a, 0.0), (a, d), (b, d), (b, 0.0)]
    points += [(x1, 0.0), (x1, h)]
    if slots_from_top:  # along the top, right to left
        for a, b in sorted(slots, reverse=True):
            points += [(b, h), (b, h / 2), (a, h / 2), (a, h)]
    points.append((x0, h))
    return Strip(name, points, slots_from_top)


def strips(pitch: float, build: BuildConfig) -> list[Strip]:
    """Ten strips along the ranks (R0 under rank 1 ... R9 above rank 9), slotted from the top,
    and ten along the files (F0 left of file a ... F9 right of file i), from the bottom."""
    return ([strip(f"R{k}", pitch, build, True) for k in range(SIZE + 1)]
            + [strip(f"F{k}", pitch, build, False) for k in range(SIZE + 1)])


STRIP_GAP_MM = 3.0


def _placed(pitch: float, build: BuildConfig) -> tuple[list[tuple[Strip, float]], float, float]:
    """The strips laid out on the sheet: each with its foot's y (y down), and the size."""
    t, h = build.sheet_mm, build.spacer_mm
    out, y = [], 8.0 + h
    for s in strips(pitch, build):
        out.append((s, y))
        y += h + STRIP_GAP_MM
    return out, SIZE * pitch + 3 * t + 8.0, y - h - STRIP_GAP_MM + 4.0


def laser_svg(pitch: float, build: BuildConfig) -> str:
    """The strips as an SVG at 1:1: red lines to cut, blue names to engrave."""
    placed, width, height = _placed(pitch, build)
    left = 4.0 + 1.5 * build.sheet_mm
    sheet = Sheet(width, height, f"Spacer grid to laser-cut from {n(build.sheet_mm)} mm sheet, "
                  f"{n(pitch)} mm squares", data_pitch_mm=pitch, data_kind="spacer-laser")
    sheet.text(4, 5, f"Spacer grid, laser-cut: 20 strips of {n(build.sheet_mm)} mm plywood, "
               f"{n(build.spacer_mm)} mm high - red: cut, blue: engrave - R strips slot over "
               "F strips", 3.0, class_="title")
    for s, foot in placed:
        points = [(left + x, foot - y) for x, y in s.outline]
        sheet.path(points, closed=True, class_="strip", data_name=s.name, stroke="#d62728",
                   stroke_width=0.1)
        sheet.text(left + pitch * 0.5, foot - build.spacer_mm * 0.62, s.name,
                   min(4.0, build.spacer_mm * 0.3), fill="#1f4e9a", text_anchor="middle",
                   class_="engrave")
    return sheet.render()


def laser_dxf(pitch: float, build: BuildConfig) -> bytes:
    """The same strips as a DXF in mm: layer CUT (closed polylines), layer ENGRAVE (names)."""
    import ezdxf

    doc = ezdxf.new("R2010", units=ezdxf.units.MM)
    doc.layers.add("CUT", color=1)
    doc.layers.add("ENGRAVE", color=5)
    space = doc.modelspace()
    placed, _, height = _placed(pitch, build)
    for s, foot in placed:
        base = height - foot  # DXF's y grows upwards
        space.add_lwpolyline([(x, base + y) for x, y in s.outline], close=True,
                             dxfattribs={"layer": "CUT"})
        label = space.add_text(s.name, height=min(4.0, build.spacer_mm * 0.3),
                               dxfattribs={"layer": "ENGRAVE"})
        label.set_placement((pitch * 0.5, base + build.spacer_mm * 0.38))
    out = io.StringIO()
    doc.write(out)
    return out.getvalue().encode("utf-8")


def plan_svg(pitch: float, build: BuildConfig) -> str:
    """The printed tiles seen from above: which tile is which, where the seams and keys are."""
    grid = SIZE * pitch + build.wall_mm
    scale = min(1.0, 180.0 / grid)
    margin = 10.0
    size = grid * scale + 2 * margin
    sheet = Sheet(size, size + 10, f"Printed spacer grid: {len(tiles(pitch, build))} tiles",
                  data_pitch_mm=pitch, data_kind="spacer-tiles")
    sheet.text(margin, 6, f"Printed spacer grid in {len(tiles(pitch, build))} tiles for a "
               f"{n(build.print_bed_mm)} mm bed (scale 1:{n(1 / scale)}); print each "
               "upside down", 2.8, class_="title")
    w = build.wall_mm
    for tile in tiles(pitch, build):
        x0, y0, x1, y1 = tile_extent(tile, pitch, build)
        sx, sy = margin + (x0 + w / 2) * scale, margin + 10 + (SIZE * pitch + w / 2 - y1) * scale
        sheet.rect(sx, sy, (x1 - x0) * scale, (y1 - y0) * scale, class_="tile",
                   data_name=tile.name, fill="#eef3fa", stroke=INK, stroke_width=0.4)
        sheet.text(sx + (x1 - x0) * scale / 2, sy + (y1 - y0) * scale / 2 + 1.2,
                   f"spacer-{tile.name}.stl", 2.6, text_anchor="middle")
    return sheet.render()
