"""The carrier's 1:1 drilling and placement template (SVG, and tiled onto A4/Letter as a PDF).

Tape it on the plywood, punch every cross, drill, then glue the LEDs on their outlines. Each
hole is a ``<circle class="hole">`` with ``data-kind``, ``data-square`` and ``data-d`` (its
drill in mm), so tests and tools can read it back; the 100 mm scale bar proves the print's
scale before anyone drills.
"""

from __future__ import annotations

from sudoku_table.firmware.config import LedConfig
from sudoku_table.firmware.layout import FILES, SIZE

from . import board
from .config import BuildConfig
from .svg import FAINT, INK, Sheet, n

SCALE_BAR_MM = 100.0
KIND_WORDS = {"reed": "reed switch lead", "column": "column wire", "feed": "+5 V / GND feed",
              "data": "LED data in", "mount": "mounting screw"}


def render(pitch: float, build: BuildConfig, leds: LedConfig | None = None) -> str:
    """The template as an SVG document at 1:1."""
    holes = board.holes(pitch, build, leds)
    side = board.carrier_size(pitch, build)
    sheet = Sheet(side, side, f"Carrier drilling template 1:1, {n(pitch)} mm squares",
                  data_pitch_mm=pitch, data_kind="template")
    sheet.rect(0, 0, side, side, id="carrier", fill="none", stroke=INK, stroke_width=0.4)
    _walls(sheet, pitch, build)
    _leds(sheet, pitch, build)
    for hole in holes:
        _hole(sheet, hole)
    _texts(sheet, pitch, build, side)
    return sheet.render()


def _walls(sheet: Sheet, pitch: float, build: BuildConfig) -> None:
    """The spacer grid's footprint, faint: where its walls will stand."""
    sheet.open(id="spacer-footprint", fill="#ececec", stroke="none")
    b, w, length = build.border_mm, build.wall_mm, SIZE * pitch
    for k in range(SIZE + 1):
        sheet.rect(b + k * pitch - w / 2, b - w / 2, w, length + w)
        sheet.rect(b - w / 2, b + k * pitch - w / 2, length + w, w)
    sheet.close()


def _leds(sheet: Sheet, pitch: float, build: BuildConfig) -> None:
    sheet.open(id="leds", fill="none", stroke="#b0401a", stroke_width=0.25)
    half = build.led_mm / 2
    for square in board.squares():
        x, y = board.led_at(square, pitch, build)
        sheet.rect(x - half, y - half, build.led_mm, build.led_mm, class_="led",
                   data_square=square)
    sheet.close()


def _hole(sheet: Sheet, hole: board.Hole) -> None:
    """A drill circle with a punch cross through its centre."""
    r, arm = hole.diameter / 2, max(1.6, hole.diameter / 2 + 1.0)
    sheet.line(hole.x - arm, hole.y, hole.x + arm, hole.y, stroke_width=0.15)
    sheet.line(hole.x, hole.y - arm, hole.x, hole.y + arm, stroke_width=0.15)
    sheet.circle(hole.x, hole.y, r, class_="hole", data_kind=hole.kind,
                 data_square=hole.square or None, data_d=hole.diameter, fill="none",
                 stroke=INK, stroke_width=0.25)


def _texts(sheet: Sheet, pitch: float, build: BuildConfig, side: float) -> None:
    label = max(1.8, min(2.6, 0.06 * pitch))
    for square in board.squares():
        x, y = board.centre(square, pitch, build)
        sheet.text(x - pitch / 2 + 1.8, y + pitch / 2 - 2.0, square, label, fill=FAINT,
                   class_="label")
    b = build.border_mm
    sheet.text(b, b / 2 - 2.5, f"Carrier drilling template, 1:1, {n(pitch)} mm squares, "
               f"{n(side)} x {n(side)} mm - top side, a1 bottom left", 3.2,
               class_="title")
    sheet.text(b, b / 2 + 2.5, "Drill: reed 1.0 mm (centre), column wire 1.5 mm (left), "
               "feeds 4 mm, data in 3 mm, mounting 4.5 mm. LED outlines: glue the pixel "
               "there, arrow of the chain as the wiring layout shows.", 2.3, class_="note")
    # The scale bar, in the bottom rim: measure it before drilling.
    x0, y0 = b, side - b / 2
    sheet.open(id="scale-bar", data_length_mm=SCALE_BAR_MM)
    sheet.line(x0, y0, x0 + SCALE_BAR_MM, y0, stroke_width=0.4)
    for k in range(0, int(SCALE_BAR_MM) + 1, 10):
        tall = 2.5 if k % 50 == 0 else 1.3
        sheet.line(x0 + k, y0 - tall, x0 + k, y0, stroke_width=0.25)
    sheet.text(x0 + SCALE_BAR_MM + 3, y0 + 1, "100 mm: measure before drilling", 2.6)
    sheet.close()
    for i, f in enumerate(FILES):  # file letters and rank numbers in the rim
        sheet.text(b + (i + 0.5) * pitch, side - b + 5.5, f, 3.5, text_anchor="middle",
                   fill=FAINT)
    for r in range(SIZE):
        sheet.text(b - 6, b + (SIZE - r - 0.5) * pitch + 1.2, str(r + 1), 3.5,
                   text_anchor="middle", fill=FAINT)


def pdf(pitch: float, build: BuildConfig, paper: str, leds: LedConfig | None = None) -> bytes:
    """The template tiled onto ``paper`` pages with the overlays' tiling (cut lines, crosses)."""
    from sudoku_table.tiles import tile_pdf

    return tile_pdf(render(pitch, build, leds), paper, title="Carrier drilling template")
