"""The ``[build]`` section of the table's config: the physical layer stack under the squares.

The square pitch is ``[board] square_mm`` (the overlays' too); everything else a drawing or the
magnet estimate needs is here, with defaults for the build the guide describes: a 0.2 mm
overlay on a 3 mm opal top sheet, a 16 mm spacer grid, a 6 mm plywood carrier, an MDSR-7 reed
switch standing upright at the centre of each square with its top 2.5 mm under the top sheet,
and a 6 x 2 mm N35 disc magnet in every piece. A maker with other sheets writes their
thicknesses here and runs ``sudoku-table parts`` again: the drawings and the field estimate
follow.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, model_validator

from sudoku_table.sections import ConfigProblem, Says, Section

Mm = Annotated[float, Strict(), Field(ge=0, le=100, allow_inf_nan=False),
               Says("must be a number of millimetres from 0 to 100", always=True)]
"""A thickness or length that may be zero (an optional layer)."""
PositiveMm = Annotated[float, Strict(), Field(ge=0.1, le=100, allow_inf_nan=False),
                       Says("must be a number of millimetres from 0.1 to 100", always=True)]
"""A size that must exist."""
BedMm = Annotated[float, Strict(), Field(ge=60, le=1000, allow_inf_nan=False),
                  Says("must be a number of millimetres from 60 to 1000", always=True)]
Tesla = Annotated[float, Strict(), Field(ge=0.1, le=1.6, allow_inf_nan=False),
                  Says("must be a remanence in tesla from 0.1 to 1.6", always=True)]
AmpereTurns = Annotated[float, Strict(), Field(ge=1, le=200, allow_inf_nan=False),
                        Says("must be a number of ampere-turns from 1 to 200", always=True)]


class BuildConfig(Section):
    """The layers under a square, the reed switch, the magnet and the printer, in millimetres."""

    overlay_mm: Mm = 0.2
    """The printed overlay (paper or vinyl) on the top sheet."""
    cover_mm: Mm = 0.0
    """An optional clear acrylic sheet over the overlay (0: none; 2 protects a paper overlay)."""
    top_mm: PositiveMm = 3.0
    """The light-diffusing top sheet (opal acrylic) the pieces stand on, overlay aside."""
    spacer_mm: PositiveMm = 16.0
    """The spacer grid's height: the reed switch stands inside it, the LED shines through it."""
    wall_mm: PositiveMm = 2.4
    """A 3D-printed spacer wall's thickness (six lines of a 0.4 mm nozzle)."""
    sheet_mm: PositiveMm = 3.0
    """The sheet the laser-cut spacer strips are cut from (plywood or MDF)."""
    carrier_mm: PositiveMm = 6.0
    """The carrier board the LEDs sit on and the matrix is wired under."""
    border_mm: Mm = 20.0
    """The carrier's and the enclosure's rim around the 9 x 9 squares."""
    reed_length_mm: PositiveMm = 12.7
    """The reed switch's glass body (MDSR-7: 12.7 mm)."""
    reed_diameter_mm: PositiveMm = 1.8
    """The glass body's diameter (MDSR-7: 1.8 mm)."""
    reed_lead_mm: PositiveMm = 13.8
    """Each lead's length out of the glass (MDSR-7: 40.4 mm overall)."""
    reed_gap_mm: Mm = 2.5
    """From the top sheet's underside down to the glass: room for the top lead's bend."""
    reed_pull_in_at: AmpereTurns = 15.0
    """The highest pull-in of the switches bought, in ampere-turns (MDSR-7-10-15: 15)."""
    reed_pull_in_min_at: AmpereTurns = 10.0
    """The lowest pull-in of the switches bought (MDSR-7-10-15: 10): the most sensitive one
    must stay open while a piece stands on the neighbouring square."""
    magnet_diameter_mm: PositiveMm = 6.0
    """The disc magnet in each piece."""
    magnet_thickness_mm: PositiveMm = 2.0
    magnet_br_t: Tesla = 1.17
    """The magnet's remanence (N35: 1.17-1.21 T; the lower end is taken)."""
    piece_floor_mm: Mm = 0.0
    """Material between the magnet and the piece's underside (0: glued flush in a recess)."""
    piece_mm: PositiveMm = 30.0
    """A piece's width: how far off the square's centre its magnet can stand on the square."""
    led_offset_mm: Mm = 9.0
    """The LED's centre beside the reed switch, towards the next file (right)."""
    led_mm: PositiveMm = 10.0
    """The LED pixel's footprint (a WS2812B on a 10 mm board or a cut strip piece)."""
    print_bed_mm: BedMm = 180.0
    """The printer's bed: the printed spacer grid comes in keyed tiles no larger than this."""

    @model_validator(mode="after")
    def _reed_fits_in_the_spacer(self) -> BuildConfig:
        room = self.spacer_mm - self.reed_gap_mm - self.reed_length_mm
        if room < 0:
            raise ConfigProblem(
                f"build.spacer_mm ({self.spacer_mm:g}) must hold the reed switch standing "
                f"upright: at least build.reed_gap_mm + build.reed_length_mm = "
                f"{self.reed_gap_mm + self.reed_length_mm:g} mm")
        if self.reed_pull_in_min_at > self.reed_pull_in_at:
            raise ConfigProblem("build.reed_pull_in_min_at must not exceed build.reed_pull_in_at")
        return self
