"""The wiring layout on the carrier: the LEDs' chain and rails on top, the matrix underneath.

Two panels at half size. The top side: each LED on its outline, the data line from pixel to
pixel in the chain's order (from the config: start corner, serpentine), the +5 V and GND rails
along every rank and the four feeds. The underside, the carrier turned over from right to left
(file a now on the right, rank 1 still nearest you): a row wire along every rank, a column
wire along every file, and at every square the diode from the reed switch's lower lead to its
row, cathode towards the row, and the column wire's tap. Row and column lines name the GPIO
the firmware's config gives them.
"""

from __future__ import annotations

from collections.abc import Callable

from sudoku_table.firmware.config import LedConfig, SensorConfig
from sudoku_table.firmware.layout import FILES, SIZE

from . import board
from .config import BuildConfig
from .svg import FAINT, INK, Sheet, n

SCALE = 0.5
ROW = "#1f5fbf"
COLUMN = "#1d8a3a"
DATA = "#8a2be2"
POWER = "#d62728"
GROUND = "#222222"


def render(pitch: float, build: BuildConfig, sensors: SensorConfig | None = None,
           leds: LedConfig | None = None) -> str:
    """Both panels as one SVG document."""
    sensors, leds = sensors or SensorConfig(), leds or LedConfig()
    board.check_fits(pitch, build)
    side = board.carrier_size(pitch, build) * SCALE
    gap, head, foot = 34.0, 22.0, 34.0
    width, height = 2 * side + gap + 20, side + head + foot
    sheet = Sheet(width, height, f"Wiring layout of the carrier, {n(pitch)} mm squares",
                  data_pitch_mm=pitch, data_kind="wiring")
    sheet.text(10, 8, f"Wiring layout, scale 1:{n(1 / SCALE)} - {n(pitch)} mm squares", 4.0,
               class_="title")
    _top(sheet, pitch, build, leds, 10.0, head)
    _under(sheet, pitch, build, sensors, 10.0 + side + gap, head)
    _legend(sheet, 10.0, head + side + 8)
    return sheet.render()


Place = Callable[[float, float], tuple[float, float]]


def _place(pitch: float, build: BuildConfig, x0: float, y0: float, mirror: bool) -> Place:
    """Carrier mm to sheet mm for a panel at (x0, y0), mirrored left to right for the
    underside."""
    side = board.carrier_size(pitch, build)

    def at(x: float, y: float) -> tuple[float, float]:
        return x0 + (side - x if mirror else x) * SCALE, y0 + y * SCALE
    return at


def _frame(sheet: Sheet, pitch: float, build: BuildConfig, at: Place, title: str) -> None:
    side = board.carrier_size(pitch, build)
    (ax, ay), (bx, by) = at(0, 0), at(side, side)
    sheet.rect(min(ax, bx), ay, abs(bx - ax), by - ay, fill="#f6efe3", stroke=INK,
               stroke_width=0.3)
    for square in board.squares():
        x, y = board.centre(square, pitch, build)
        (px, py) = at(x - pitch / 2, y - pitch / 2)
        (qx, qy) = at(x + pitch / 2, y + pitch / 2)
        sheet.rect(min(px, qx), py, abs(qx - px), qy - py, fill="none", stroke=FAINT,
                   stroke_width=0.15)
        lx, ly = at(x - pitch / 2 + 2.5 if not _mirrored(at, pitch) else x + pitch / 2 - 2.5,
                    y + pitch / 2 - 2.5)
        sheet.text(lx, ly, square, 1.8, fill=FAINT)
    sheet.text(min(ax, bx), ay - 3, title, 3.0, class_="panel-title")


def _mirrored(at: Place, pitch: float) -> bool:
    return bool(at(pitch, 0)[0] < at(0, 0)[0])


def _top(sheet: Sheet, pitch: float, build: BuildConfig, leds: LedConfig, x0: float,
         y0: float) -> None:
    at = _place(pitch, build, x0, y0, mirror=False)
    _frame(sheet, pitch, build, at, "Top side, seen from above: LEDs, rails, data chain")
    b, length = build.border_mm, SIZE * pitch
    sheet.open(id="rails")
    for r in range(SIZE):
        y = b + (SIZE - r - 0.5) * pitch
        for offset, colour, net in ((-board.RAIL_FRACTION, POWER, "5V"),
                                    (board.RAIL_FRACTION, GROUND, "GND")):
            sheet.line(*at(b + 2, y + offset * pitch), *at(b + length - 2, y + offset * pitch),
                       stroke=colour, stroke_width=0.5, class_="rail", data_net=net,
                       data_rank=r + 1)
    sheet.close()
    order = board.chain(leds)
    half = build.led_mm / 2
    sheet.open(id="chain", class_="chain")
    points = [at(*board.led_at(square, pitch, build)) for square in order]
    sheet.path(points, stroke=DATA, stroke_width=0.45)
    for i, square in enumerate(order):
        x, y = board.led_at(square, pitch, build)
        px, py = at(x - half, y - half)
        sheet.rect(px, py, build.led_mm * SCALE, build.led_mm * SCALE, class_="led",
                   data_square=square, data_index=i, fill="#ffffff", stroke=INK,
                   stroke_width=0.2)
        cx, cy = at(x, y)
        sheet.text(cx, cy + 0.7, str(i + 1), 1.8, text_anchor="middle")
    sheet.close()
    for position in board.FEED_POSITIONS:
        square = order[position - 1]
        x, y = board.led_at(square, pitch, build)
        cx, cy = at(x, y + 0.3 * pitch)
        sheet.circle(cx, cy, 1.4, class_="feed", data_position=position, fill=POWER,
                     stroke=INK, stroke_width=0.2)
    x, y = board.led_at(order[0], pitch, build)
    cx, cy = at(x, y - 0.3 * pitch)
    sheet.circle(cx, cy, 1.1, class_="data-in", fill=DATA, stroke=INK, stroke_width=0.2)


def _under(sheet: Sheet, pitch: float, build: BuildConfig, sensors: SensorConfig,
           x0: float, y0: float) -> None:
    at = _place(pitch, build, x0, y0, mirror=True)
    _frame(sheet, pitch, build, at, "Underside, carrier turned over right to left: the matrix")
    b, length = build.border_mm, SIZE * pitch
    side = board.carrier_size(pitch, build)
    sheet.open(id="rows")
    for r in range(SIZE):
        y = b + (SIZE - r - 0.5) * pitch + 0.3 * pitch
        sheet.line(*at(b - 4, y), *at(b + length, y), stroke=ROW, stroke_width=0.5,
                   class_="row", data_rank=r + 1, data_gpio=sensors.rows[r])
        lx, ly = at(b - 5, y)
        sheet.text(lx + 1, ly + 0.9, f"ROW{r + 1} GPIO{sensors.rows[r]}", 2.2, fill=ROW)
    sheet.close()
    sheet.open(id="columns")
    for f in range(SIZE):
        x = b + (f + 0.5) * pitch - board.COLUMN_HOLE_OFFSET_MM
        sheet.line(*at(x, b), *at(x, side - b + 4), stroke=COLUMN, stroke_width=0.5,
                   class_="column", data_file=FILES[f], data_gpio=sensors.columns[f])
        lx, ly = at(x, side - b + 6)
        sheet.text(lx, ly + 2.0, f"COL{FILES[f]}", 2.0, fill=COLUMN, text_anchor="middle")
        sheet.text(lx, ly + 4.4, f"GPIO{sensors.columns[f]}", 2.0, fill=COLUMN,
                   text_anchor="middle")
    sheet.close()
    sheet.open(id="diodes")
    for square in board.squares():
        x, y = board.centre(square, pitch, build)
        row_y = y + 0.3 * pitch
        (hx, hy), (cx, cy) = at(x, y), at(x - board.COLUMN_HOLE_OFFSET_MM, y)
        sheet.circle(hx, hy, 0.5, fill=INK)
        sheet.circle(cx, cy, 0.6, fill=COLUMN)
        (tx, ty), (ex, ey) = at(x, y + 0.1 * pitch), at(x, row_y)
        # the diode: a triangle pointing down to the row, the bar (cathode) at its tip
        mid = (ty + ey) / 2
        sheet.line(hx, hy, tx, ty, stroke=INK, stroke_width=0.25)
        sheet.path([(tx - 1.2, mid - 1.0), (tx + 1.2, mid - 1.0), (tx, mid + 0.8)], closed=True,
                   fill=INK, class_="diode", data_square=square)
        sheet.line(tx - 1.2, mid + 0.8, tx + 1.2, mid + 0.8, stroke=INK, stroke_width=0.35)
        sheet.line(tx, mid + 0.8, ex, ey, stroke=INK, stroke_width=0.25)
        sheet.circle(ex, ey, 0.45, fill=ROW)
    sheet.close()


def _legend(sheet: Sheet, x: float, y: float) -> None:
    items = [
        (POWER, "+5 V rail along each rank (0.75 mm2), fed at chain positions 1, 28, 55, 81"),
        (GROUND, "GND rail along each rank, fed with +5 V at the same four points"),
        (DATA, "LED data, pixel to pixel in the chain's order (numbers); in at pixel 1 from "
               "the 74AHCT125 through 330 ohm"),
        (ROW, "row wire per rank, insulated, under the carrier; 330 ohm at the Pi's end"),
        (COLUMN, "column wire per file, insulated, crossing the rows; 1 kohm at the Pi's end"),
        (INK, "BAT85 diode from the reed's lower lead (hole at the centre) to the row, cathode "
              "band towards the row"),
    ]
    for i, (colour, words) in enumerate(items):
        yy = y + (i % 3) * 4.6
        xx = x + (i // 3) * 200
        sheet.line(xx, yy - 0.9, xx + 8, yy - 0.9, stroke=colour, stroke_width=0.8)
        sheet.text(xx + 10, yy, words, 2.4)
