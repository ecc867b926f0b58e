"""The test jig: one square's stack, printed, to try the magnets and switches before buying 81.

Two cells side by side on a floor as thick as the carrier: the left cell holds one reed switch
upright in its centre hole (the column wire's hole beside it, the LED's place beside that), the
right cell is the neighbouring square, empty, where a piece must *not* close the switch. Lay an
offcut of the real top sheet and a strip of the overlay on the walls and try real pieces. Feet
leave room under the floor for the diode and the wires. The jig prints upright, floor down.
"""

from __future__ import annotations

from typing import Any

from . import mesh
from .board import COLUMN_HOLE_OFFSET_MM
from .config import BuildConfig

FEET_MM = 12.0
"""Room under the floor for the reed's lower lead, its diode and the test leads."""
FOOT_MM = 8.0
PRINT_PLAY_MM = 0.2
"""Printed holes come out smaller: this much is added to each diameter."""


def outer(pitch: float, build: BuildConfig) -> tuple[float, float, float]:
    """The jig's width, depth and height."""
    w = build.wall_mm
    return 2 * pitch + w, pitch + w, FEET_MM + build.carrier_mm + build.spacer_mm


def solid(pitch: float, build: BuildConfig) -> Any:
    """The jig as a closed solid: (0, 0, 0) is its lower left corner on the bed."""
    w = build.wall_mm
    width, depth, height = outer(pitch, build)
    floor_top = FEET_MM + build.carrier_mm
    parts = [mesh.box(0, 0, FEET_MM, width, depth, floor_top)]
    for x in (0.0, width - FOOT_MM):
        for y in (0.0, depth - FOOT_MM):
            parts.append(mesh.box(x, y, 0, x + FOOT_MM, y + FOOT_MM, FEET_MM + 0.5))
    for k in range(3):  # the walls across, between and around the two cells
        parts.append(mesh.box(k * pitch, 0, floor_top - 0.5, k * pitch + w, depth, height))
    for y in (0.0, pitch):
        parts.append(mesh.box(0, y, floor_top - 0.5, width, y + w, height))
    cx, cy = w / 2 + pitch / 2, w / 2 + pitch / 2
    holes = [mesh.cylinder(cx, cy, FEET_MM - 1, floor_top + 1, 1.0 + PRINT_PLAY_MM),
             mesh.cylinder(cx - COLUMN_HOLE_OFFSET_MM, cy, FEET_MM - 1, floor_top + 1,
                           1.5 + PRINT_PLAY_MM),
             # the LED's three wires go down beside its place
             mesh.cylinder(cx + build.led_offset_mm, cy + 0.3 * pitch, FEET_MM - 1,
                           floor_top + 1, 4.0)]
    return mesh.subtract(mesh.union(parts), holes)


def reed_hole(pitch: float, build: BuildConfig) -> tuple[float, float]:
    """Where the reed switch stands in the jig (plan)."""
    return build.wall_mm / 2 + pitch / 2, build.wall_mm / 2 + pitch / 2
