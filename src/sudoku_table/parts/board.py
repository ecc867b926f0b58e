"""Where things go on the carrier: squares, holes, the LED, the rails and the feeds.

One source for the drilling template, the wiring layout, the spacer grid and the jig, so they
cannot disagree. Sheet coordinates in mm, seen from above, ``y`` growing downwards, a1 bottom
left (as the overlays draw the board), the carrier's top left corner at 0, 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_table.firmware.config import LedConfig
from sudoku_table.firmware.layout import FILES, SIZE, led_indices

from .config import BuildConfig

FEED_POSITIONS = (1, 28, 55, 81)
"""Chain positions (1-based) where +5 V and GND are fed in, as the guide's power section says."""
REED_HOLE_MM = 1.0
"""For the reed's lower lead (0.47 mm): tight, so the switch stands upright."""
COLUMN_HOLE_MM = 1.5
"""For the insulated wire from the reed's upper lead down to the column."""
COLUMN_HOLE_OFFSET_MM = 3.0
"""The column wire's hole, this far left of the reed (away from the LED)."""
FEED_HOLE_MM = 4.0
"""For 0.75-1 mm2 power wires (two through one hole)."""
DATA_HOLE_MM = 3.0
MOUNT_HOLE_MM = 4.5
RAIL_FRACTION = 0.15
"""The +5 V rail runs this share of the pitch above a rank's centre line, GND as far below."""
NOTCH_FRACTION = 0.4
"""A spacer wall's notch for the rails and the data wire: this share of the pitch wide."""
NOTCH_HEIGHT_MM = 3.0


class PartsError(ValueError):
    """A build that cannot be drawn (the LED does not fit its cell, ...): one clear line."""


@dataclass(frozen=True)
class Hole:
    """A hole to drill in the carrier."""

    kind: str
    """reed, column, feed, data or mount."""
    square: str
    x: float
    y: float
    diameter: float


def carrier_size(pitch: float, build: BuildConfig) -> float:
    """The carrier's side: nine squares and the rim."""
    return SIZE * pitch + 2 * build.border_mm


def centre(square: str, pitch: float, build: BuildConfig) -> tuple[float, float]:
    """A square's centre on the carrier."""
    f, r = FILES.index(square[0]), int(square[1:]) - 1
    return build.border_mm + (f + 0.5) * pitch, build.border_mm + (SIZE - r - 0.5) * pitch


def squares() -> list[str]:
    """All 81 squares, rank 9 first (top of the sheet), a to i."""
    return [f"{f}{r}" for r in range(SIZE, 0, -1) for f in FILES]


def check_fits(pitch: float, build: BuildConfig) -> None:
    """``PartsError`` unless the LED and the holes fit inside one cell."""
    room = (pitch - build.wall_mm) / 2
    if build.led_offset_mm + build.led_mm / 2 > room - 0.5:
        raise PartsError(f"the LED ({build.led_mm:g} mm, {build.led_offset_mm:g} mm beside the "
                         f"reed switch) does not fit a {pitch:g} mm square with "
                         f"{build.wall_mm:g} mm walls: lower build.led_offset_mm")
    if build.led_offset_mm - build.led_mm / 2 < 1.0:
        raise PartsError("the LED would sit on the reed switch: raise build.led_offset_mm to at "
                         f"least {build.led_mm / 2 + 1:g}")
    if COLUMN_HOLE_OFFSET_MM + 2 > room:
        raise PartsError(f"a {pitch:g} mm square is too small for the holes")


def led_at(square: str, pitch: float, build: BuildConfig) -> tuple[float, float]:
    x, y = centre(square, pitch, build)
    return x + build.led_offset_mm, y


def chain(leds: LedConfig | None = None) -> list[str]:
    """The squares in the LED chain's order."""
    indices = led_indices(leds or LedConfig())
    return sorted(indices, key=indices.__getitem__)


def holes(pitch: float, build: BuildConfig, leds: LedConfig | None = None) -> list[Hole]:
    """Every hole of the carrier: per square the reed's and the column wire's, the power feeds
    and the data input beside their LEDs, and four mounting holes."""
    check_fits(pitch, build)
    out: list[Hole] = []
    for square in squares():
        x, y = centre(square, pitch, build)
        out.append(Hole("reed", square, x, y, REED_HOLE_MM))
        out.append(Hole("column", square, x - COLUMN_HOLE_OFFSET_MM, y, COLUMN_HOLE_MM))
    order = chain(leds)
    beside = 0.3 * pitch
    for position in FEED_POSITIONS:
        square = order[position - 1]
        x, y = led_at(square, pitch, build)
        out.append(Hole("feed", square, x, y + beside, FEED_HOLE_MM))
    x, y = led_at(order[0], pitch, build)
    out.append(Hole("data", order[0], x, y - beside, DATA_HOLE_MM))
    side, inset = carrier_size(pitch, build), build.border_mm / 2
    for x in (inset, side - inset):
        for y in (inset, side - inset):
            out.append(Hole("mount", "", x, y, MOUNT_HOLE_MM))
    return out
