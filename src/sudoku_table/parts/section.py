"""The cross-section of one square: every layer, the piece and its magnet, the upright reed
switch with its leads, the diode and the wires under the carrier, the LED, with dimensions and
the field estimate.

Drawn at ``SCALE``:1, cut along the rank through the square's centre (files run left to right).
Each layer is a ``<rect class="layer">`` with ``data-name``, ``data-bottom-mm`` and
``data-top-mm`` in model millimetres; every dimension carries ``data-kind`` and its measured
``data-value`` in model millimetres, so tests read the drawing back against the config.
"""

from __future__ import annotations

from collections.abc import Callable

from . import stack
from .config import BuildConfig
from .svg import FAINT, INK, Sheet, n, spread

SCALE = 3.0
"""Sheet mm per model mm."""
PIECE_HEIGHT_MM = 7.0
"""The piece as drawn (any height: only its floor matters)."""
DIODE_MM = 3.8
"""A DO-35 diode's body."""
COLUMN_WIRE_MM = 2.0
"""Below the carrier: the column wire runs across the rank (cut through, a circle) just under
it; the row wire runs along the rank (in the cut), under the diode."""
COLOURS = {"carrier": "#d9b98c", "spacer grid": "#b8b8b8", "top sheet": "#f4f1ea",
           "overlay": "#f2c14e", "clear cover": "#cfe8f7"}


def render(pitch: float, build: BuildConfig) -> str:
    """The cross-section as an SVG document."""
    est = stack.estimate(build, pitch)
    layers = stack.layers(build)
    top = stack.surface(build) + build.piece_floor_mm + PIECE_HEIGHT_MM
    below = -row_wire_z(build) + 5
    half = pitch / 2 + 4
    left, right, head = 40.0, 98.0, 16.0
    width = left + 2 * half * SCALE + right
    height = head + (top + below) * SCALE + 24
    ox, oy = left + half * SCALE, head + top * SCALE

    def at(x: float, z: float) -> tuple[float, float]:
        return ox + x * SCALE, oy - z * SCALE

    sheet = Sheet(width, height, f"Cross-section of one square, {n(pitch)} mm pitch, "
                  f"{n(SCALE)}:1", data_pitch_mm=pitch, data_scale=SCALE,
                  data_kind="cross-section")
    sheet.text(6, 8, f"One square in section, cut along the rank through its centre - scale "
               f"{n(SCALE)}:1 - {n(pitch)} mm pitch", 4.0, class_="title")
    labels: list[tuple[float, float, str]] = []  # (target x, target y, words) on the sheet
    _layers(sheet, layers, half, pitch, build, at, labels)
    _piece(sheet, build, at, labels)
    _reed(sheet, build, at, labels)
    _below(sheet, pitch, half, build, at, labels)
    _led(sheet, pitch, build, at, labels)
    _labels(sheet, labels, ox + half * SCALE + 4, width - 2, head, oy + below * SCALE)
    _dimensions(sheet, layers, pitch, build, est, at, half)
    _notes(sheet, est, build, 6, oy + below * SCALE + 7)
    return sheet.render()


Place = Callable[[float, float], tuple[float, float]]


def lead_end_z(build: BuildConfig) -> float:
    """Where the reed's lower lead ends, below the carrier's underside (negative)."""
    return stack.reed_span(build)[0] - build.reed_lead_mm


def row_wire_z(build: BuildConfig) -> float:
    """The row wire's height: under the diode that hangs from the lower lead."""
    return min(lead_end_z(build), -COLUMN_WIRE_MM - 1) - 0.5 - DIODE_MM - 1.5


def _box(sheet: Sheet, at: Place, x0: float, z0: float, x1: float, z1: float,
         **style: object) -> None:
    (ax, ay), (bx, by) = at(x0, z1), at(x1, z0)
    sheet.rect(ax, ay, bx - ax, by - ay, **style)


def _layers(sheet: Sheet, layers: list[stack.Layer], half: float, pitch: float,
            build: BuildConfig, at: Place, labels: list[tuple[float, float, str]]) -> None:
    words = {"carrier": f"carrier, {n(build.carrier_mm)} mm plywood",
             "top sheet": f"top sheet, {n(build.top_mm)} mm opal acrylic",
             "overlay": f"printed overlay, {n(build.overlay_mm)} mm",
             "clear cover": f"clear acrylic cover, {n(build.cover_mm)} mm"}
    for layer in layers:
        if layer.name == "spacer grid":
            continue
        _box(sheet, at, -half, layer.bottom, half, layer.top, class_="layer",
             data_name=layer.name, data_bottom_mm=layer.bottom, data_top_mm=layer.top,
             fill=COLOURS[layer.name], stroke=INK, stroke_width=0.25)
        x, y = at(half - 3, (layer.bottom + layer.top) / 2)
        labels.append((x, y, words[layer.name]))
    spacer = next(layer for layer in layers if layer.name == "spacer grid")
    notch = build.carrier_mm + 3.0
    for side in (-1, 1):  # the two walls this square shares with its neighbours, cut
        x0 = side * pitch / 2 - build.wall_mm / 2
        _box(sheet, at, x0, notch, x0 + build.wall_mm, spacer.top, class_="layer",
             data_name="spacer grid", data_bottom_mm=spacer.bottom, data_top_mm=spacer.top,
             fill=COLOURS["spacer grid"], stroke=INK, stroke_width=0.25)
        _box(sheet, at, x0, spacer.bottom, x0 + build.wall_mm, notch, fill="none",
             stroke=FAINT, stroke_width=0.2, stroke_dasharray="0.8 0.6")
    x, y = at(pitch / 2 + build.wall_mm / 2, spacer.top - 4)
    labels.append((x, y, f"spacer wall, {n(build.spacer_mm)} mm high"))
    x, y = at(pitch / 2, build.carrier_mm + 1.5)
    labels.append((x, y, "notch for the LED rails (dashed)"))


def _piece(sheet: Sheet, build: BuildConfig, at: Place,
           labels: list[tuple[float, float, str]]) -> None:
    floor = stack.surface(build)
    magnet = stack.magnet_bottom(build)
    p, d, t = build.piece_mm / 2, build.magnet_diameter_mm / 2, build.magnet_thickness_mm
    _box(sheet, at, -p, floor, p, floor + build.piece_floor_mm + PIECE_HEIGHT_MM,
         class_="piece", fill="#e8dcc8", stroke=INK, stroke_width=0.3)
    _box(sheet, at, -d, magnet, d, magnet + t, class_="magnet", data_diameter_mm=2 * d,
         data_thickness_mm=t, data_bottom_mm=magnet, fill="#9aa3ad", stroke=INK,
         stroke_width=0.3)
    labels.append((*at(p, floor + build.piece_floor_mm + PIECE_HEIGHT_MM - 2), "piece"))
    labels.append((*at(d, magnet + t / 2),
                   f"magnet {n(build.magnet_diameter_mm)} x {n(t)} mm, "
                   f"Br {n(build.magnet_br_t)} T, same pole down"))


def _reed(sheet: Sheet, build: BuildConfig, at: Place,
          labels: list[tuple[float, float, str]]) -> None:
    bottom, top = stack.reed_span(build)
    r = build.reed_diameter_mm / 2
    _box(sheet, at, -r, bottom, r, top, class_="reed", data_bottom_mm=bottom, data_top_mm=top,
         data_diameter_mm=2 * r, fill="#d8f0f4", stroke="#2a6f7a", stroke_width=0.3)
    middle = (bottom + top) / 2
    blade = build.reed_length_mm * 0.32
    for sign in (-1, 1):  # the two overlapping blades
        x0, y0 = at(sign * 0.15, middle + sign * 0.6)
        x1, y1 = at(sign * 0.15, middle - sign * (blade - 0.6))
        sheet.line(x0, y0, x1, y1, stroke="#444", stroke_width=0.5)
    lead = build.reed_lead_mm
    bend = 2.0
    # The upper lead: up, bent 90 degrees left, then the insulated wire down to the column.
    hole = -3.0
    sheet.path([at(0, top), at(0, top + bend), at(hole, top + bend)], stroke=INK,
               stroke_width=0.45, class_="lead")
    sheet.path([at(hole, top + bend), at(hole, -COLUMN_WIRE_MM)], stroke="#1d8a3a",
               stroke_width=0.9, class_="wire", data_net="column")
    # The lower lead: straight down through the carrier to the diode.
    end = bottom - lead
    sheet.path([at(0, bottom), at(0, end)], stroke=INK, stroke_width=0.45, class_="lead")
    labels.append((*at(r, top - 3), f"reed switch, upright, glass {n(build.reed_length_mm)} x "
                   f"{n(build.reed_diameter_mm)} mm"))
    labels.append((*at(0, top + bend), "upper lead bent 2 mm above the glass (pliers at the "
                   "glass)"))
    labels.append((*at(hole, build.carrier_mm + build.spacer_mm / 2),
                   "insulated wire to the column"))


def _below(sheet: Sheet, pitch: float, half: float, build: BuildConfig, at: Place,
           labels: list[tuple[float, float, str]]) -> None:
    end = min(lead_end_z(build), -COLUMN_WIRE_MM - 1)
    row = row_wire_z(build)
    body_top, body_bottom = end - 0.5, end - 0.5 - DIODE_MM
    # The diode hangs from the reed's lower lead: anode up, cathode band down to the row.
    _box(sheet, at, -0.9, body_bottom, 0.9, body_top, class_="diode", fill="#f0a030",
         stroke=INK, stroke_width=0.25)
    _box(sheet, at, -0.9, body_bottom, 0.9, body_bottom + 0.6, fill=INK, stroke="none")
    sheet.path([at(0, end), at(0, body_top)], stroke=INK, stroke_width=0.4)
    sheet.path([at(0, body_bottom), at(0, row)], stroke=INK, stroke_width=0.4)
    x0, y = at(-half, row)
    x1, _ = at(half, row)
    sheet.line(x0, y, x1, y, stroke="#1f5fbf", stroke_width=0.9, class_="wire",
               data_net="row")
    cx, cy = at(-3.0, -COLUMN_WIRE_MM)
    sheet.circle(cx, cy, 0.45 * SCALE, fill="#1d8a3a", stroke=INK, stroke_width=0.2,
                 class_="wire", data_net="column")
    labels.append((*at(0.9, (body_top + body_bottom) / 2),
                   "diode BAT85 on the lower lead, cathode band down"))
    labels.append((x1, y, "row wire (this rank), insulated, under the carrier"))
    labels.append((cx + 1.5, cy, "column wire (this file), insulated, crossing under"))


def _led(sheet: Sheet, pitch: float, build: BuildConfig, at: Place,
         labels: list[tuple[float, float, str]]) -> None:
    c, h = build.carrier_mm, build.led_mm / 2
    x = build.led_offset_mm
    _box(sheet, at, x - h, c, x + h, c + 1.0, class_="led-board", fill="#2f6b3a", stroke=INK,
         stroke_width=0.2)
    _box(sheet, at, x - 2.5, c + 1.0, x + 2.5, c + 2.6, class_="led", data_offset_mm=x,
         fill="#ffffff", stroke=INK, stroke_width=0.25)
    spread_top, face = c + build.spacer_mm, pitch / 2 - build.wall_mm / 2
    for dx in (-1, 1):  # the light's 120 degree cone, up to the top sheet or a wall
        start = x + dx * 2
        rise = spread_top - c - 2.6
        reach = start + dx * rise * 1.73
        if abs(reach) > face:
            rise = (face - abs(start)) / 1.73 if dx > 0 else (face + start) / 1.73
            reach = dx * face
        x0, y0 = at(start, c + 2.6)
        x1, y1 = at(reach, c + 2.6 + rise)
        sheet.line(x0, y0, x1, y1, stroke="#e0a800", stroke_width=0.25,
                   stroke_dasharray="1.2 0.8")
    labels.append((*at(x + h, c + 1.3), f"LED WS2812B, {n(x)} mm beside the switch"))


def _labels(sheet: Sheet, labels: list[tuple[float, float, str]], x: float, edge: float,
            low: float, high: float) -> None:
    """The words in a column right of the drawing, leaders to their targets, never crossing."""
    ordered = sorted(labels, key=lambda item: item[1])
    ys = spread([y for _, y, _ in ordered], 4.2, low, high)
    sheet.open(id="labels")
    for (tx, ty, words), y in zip(ordered, ys, strict=True):
        sheet.path([(tx, ty), (x - 2, y - 0.9), (x, y - 0.9)], stroke=FAINT, stroke_width=0.2)
        sheet.circle(tx, ty, 0.45, fill=INK)
        sheet.text(x + 0.8, y, words, 2.5, class_="callout")
    sheet.close()


def _dimensions(sheet: Sheet, layers: list[stack.Layer], pitch: float, build: BuildConfig,
                est: stack.Estimate, at: Place, half: float) -> None:
    for i, layer in enumerate(layers):  # the stack, bottom up, on the left
        a, b = at(-half, layer.bottom), at(-half, layer.top)
        offset = 8.0 + (7.0 if layer.thickness < 1.5 and i % 2 else 0.0)
        sheet.dimension(a, b, f"{n(layer.thickness)}", offset, kind=f"layer:{layer.name}",
                        value=layer.thickness)
    bottom, top = stack.reed_span(build)
    face = stack.magnet_bottom(build)
    x = -build.magnet_diameter_mm / 2 - 2
    sheet.dimension(at(x, top), at(x, face), f"{n(est.distance_mm)}", 0,
                    kind="magnet-to-reed", value=est.distance_mm, colour="#b0401a")
    sheet.dimension(at(-1.2, bottom), at(-1.2, top), f"{n(build.reed_length_mm)}", 4.0,
                    kind="reed-length", value=build.reed_length_mm)
    surface = build.carrier_mm + build.spacer_mm
    sheet.dimension(at(4.5, top), at(4.5, surface), f"{n(build.reed_gap_mm)}", 0,
                    kind="reed-gap", value=build.reed_gap_mm)
    low = row_wire_z(build) - 2.5
    sheet.dimension(at(-pitch / 2, low), at(pitch / 2, low), f"pitch {n(pitch)}", 0,
                    kind="pitch", value=pitch)
    sheet.dimension(at(0, build.carrier_mm + 5), at(build.led_offset_mm, build.carrier_mm + 5),
                    f"{n(build.led_offset_mm)}", 0, kind="led-offset",
                    value=build.led_offset_mm)
    m = build.magnet_diameter_mm / 2
    magnet_top = face + build.magnet_thickness_mm + 1.5
    sheet.dimension(at(-m, magnet_top), at(m, magnet_top), f"{n(2 * m)}", 0,
                    kind="magnet-diameter", value=2 * m)


def _notes(sheet: Sheet, est: stack.Estimate, build: BuildConfig, x: float, y: float) -> None:
    lines = [
        f"Magnet face to the top of the glass: {est.distance_mm:.1f} mm; to the contacts (middle "
        f"of the glass): {est.contacts_mm:.1f} mm. On-axis field at the contacts: "
        f"{est.contacts_field_mt:.1f} mT.",
        f"Mean field along the glass: {est.centred_mt:.1f} mT with the piece centred, "
        f"{est.off_centre_mt:.1f} mT with it {est.off_centre_mm:g} mm off centre; a "
        f"{build.reed_pull_in_at:g} AT switch needs about {est.needed_mt:.1f} mT "
        f"(margin {est.margin:.1f}).",
        f"A piece on the next square ({est.neighbour_mm:g} mm away): "
        f"{abs(est.neighbour_mt):.2f} mT, against {est.sensitive_mt:.1f} mT for the most "
        f"sensitive {build.reed_pull_in_min_at:g} AT switch (margin "
        f"{est.neighbour_margin:.0f}). Formulas: sudoku_table/parts/stack.py.",
    ]
    sheet.open(id="field-estimate", data_distance_mm=round(est.distance_mm, 2),
               data_field_mt=round(est.centred_mt, 2))
    for i, line in enumerate(lines):
        sheet.text(x, y + i * 4.4, line, 2.7, class_="note")
    sheet.close()
