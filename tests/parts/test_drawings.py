"""Every drawing of ``sudoku-table parts`` read back against the config it was drawn from."""

from __future__ import annotations

import io
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_table.firmware.config import LedConfig, SensorConfig
from sudoku_table.firmware.layout import led_indices
from sudoku_table.parts import board, section, spacer, stack, template, wiring
from sudoku_table.parts.config import BuildConfig

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
BUILDS = [(40.0, BuildConfig()),
          (35.0, BuildConfig(cover_mm=2.0, top_mm=4.0, spacer_mm=18.0, carrier_mm=9.0,
                             led_offset_mm=7.0, magnet_diameter_mm=8.0))]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def size_mm(root: ET.Element) -> tuple[float, float]:
    w, h = root.get("width", ""), root.get("height", "")
    assert w.endswith("mm") and h.endswith("mm")
    assert root.get("viewBox") == f"0 0 {w[:-2]} {h[:-2]}"
    return float(w[:-2]), float(h[:-2])


@pytest.mark.parametrize(("pitch", "build"), BUILDS)
def test_the_cross_section_shows_every_layer_at_its_thickness(pitch: float,
                                                              build: BuildConfig) -> None:
    root = parse(section.render(pitch, build))
    scale = float(root.get("data-scale", "0"))
    drawn = {}
    for rect in root.iter(SVG + "rect"):
        if rect.get("class") == "layer":
            name = rect.get("data-name", "")
            bottom, top = float(rect.get("data-bottom-mm", "0")), float(rect.get("data-top-mm",
                                                                                 "0"))
            drawn[name] = (bottom, top)
            if name != "spacer grid":  # its walls are notched at the foot
                assert float(rect.get("height", "0")) == pytest.approx((top - bottom) * scale,
                                                                       abs=0.002)
    expected = {layer.name: (layer.bottom, layer.top) for layer in stack.layers(build)}
    assert drawn.keys() == expected.keys()
    for name, (bottom, top) in expected.items():
        assert drawn[name] == (pytest.approx(bottom), pytest.approx(top)), name
    assert ("clear cover" in drawn) == (build.cover_mm > 0)
    dims = {g.get("data-kind"): float(g.get("data-value", "nan")) for g in root.iter(SVG + "g")
            if g.get("class") == "dimension"}
    assert dims["pitch"] == pitch
    assert dims["reed-length"] == build.reed_length_mm
    assert dims["reed-gap"] == build.reed_gap_mm
    assert dims["led-offset"] == build.led_offset_mm
    assert dims["magnet-diameter"] == build.magnet_diameter_mm
    assert dims["magnet-to-reed"] == pytest.approx(stack.estimate(build, pitch).distance_mm)
    for layer in stack.layers(build):
        assert dims[f"layer:{layer.name}"] == pytest.approx(layer.thickness)
    magnet = next(r for r in root.iter(SVG + "rect") if r.get("class") == "magnet")
    assert float(magnet.get("width", "0")) == pytest.approx(build.magnet_diameter_mm * scale)
    assert float(magnet.get("height", "0")) == pytest.approx(build.magnet_thickness_mm * scale)
    reed = next(r for r in root.iter(SVG + "rect") if r.get("class") == "reed")
    assert float(reed.get("height", "0")) == pytest.approx(build.reed_length_mm * scale)
    assert float(reed.get("width", "0")) == pytest.approx(build.reed_diameter_mm * scale)
    assert float(reed.get("data-top-mm", "0")) == pytest.approx(
        build.carrier_mm + build.spacer_mm - build.reed_gap_mm)
    notes = " ".join(t.text or "" for t in root.iter(SVG + "text") if t.get("class") == "note")
    est = stack.estimate(build, pitch)
    assert f"{est.distance_mm:.1f} mm" in notes and f"{est.centred_mt:.1f} mT" in notes


def test_the_cross_sections_callouts_never_overlap() -> None:
    root = parse(section.render(*BUILDS[0]))
    ys = sorted(float(t.get("y", "0")) for t in root.iter(SVG + "text")
                if t.get("class") == "callout")
    assert len(ys) >= 12
    assert all(b - a >= 4.0 for a, b in zip(ys, ys[1:], strict=False))


@pytest.mark.parametrize(("pitch", "build"), BUILDS)
def test_the_template_is_1_to_1_with_a_hole_where_each_part_goes(pitch: float,
                                                                 build: BuildConfig) -> None:
    root = parse(template.render(pitch, build))
    side = 9 * pitch + 2 * build.border_mm
    assert size_mm(root) == (pytest.approx(side), pytest.approx(side))
    holes: dict[str, list[ET.Element]] = {}
    for c in root.iter(SVG + "circle"):
        if c.get("class") == "hole":
            holes.setdefault(c.get("data-kind", ""), []).append(c)
    assert {k: len(v) for k, v in holes.items()} == {"reed": 81, "column": 81, "feed": 4,
                                                     "data": 1, "mount": 4}
    for c in holes["reed"]:
        f, r = "abcdefghi".index(c.get("data-square", "?")[0]), int(c.get("data-square")[1:])
        assert float(c.get("cx", "0")) == pytest.approx(build.border_mm + (f + 0.5) * pitch)
        assert float(c.get("cy", "0")) == pytest.approx(build.border_mm + (9 - r + 0.5) * pitch)
        assert float(c.get("r", "0")) * 2 == board.REED_HOLE_MM
    column = {c.get("data-square"): c for c in holes["column"]}
    for c in holes["reed"]:
        other = column[c.get("data-square")]
        assert float(c.get("cx", "0")) - float(other.get("cx", "0")) == pytest.approx(
            board.COLUMN_HOLE_OFFSET_MM)
    chain = sorted(led_indices(LedConfig()), key=led_indices(LedConfig()).__getitem__)
    assert sorted(c.get("data-square") for c in holes["feed"]) == sorted(
        chain[p - 1] for p in board.FEED_POSITIONS)
    leds = [r for r in root.iter(SVG + "rect") if r.get("class") == "led"]
    assert len(leds) == 81
    for rect in leds:
        x, _ = board.centre(rect.get("data-square", ""), pitch, build)
        assert float(rect.get("x", "0")) + build.led_mm / 2 == pytest.approx(
            x + build.led_offset_mm)


def test_a_led_that_does_not_fit_its_square_is_refused() -> None:
    with pytest.raises(board.PartsError, match="lower build.led_offset_mm"):
        board.holes(30.0, BuildConfig(led_offset_mm=12.0))


@pytest.mark.integration  # svglib and reportlab ask fontconfig in a process
def test_the_tiled_template_prints_at_full_size() -> None:
    pdfium = pytest.importorskip("pypdfium2")
    from sudoku_table.tiles import layout

    pitch, build = BUILDS[0]
    data = template.pdf(pitch, build, "a4")
    document = pdfium.PdfDocument(io.BytesIO(data))
    side_pt = board.carrier_size(pitch, build) * 72 / 25.4
    assert len(document) == layout(side_pt, side_pt, "a4").pages == 6
    px_per_mm = 6.0
    runs = []
    for page in document:
        width_pt, height_pt = page.get_size()
        assert {round(width_pt), round(height_pt)} == {595, 842}  # A4
        image = page.render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L")
        pixels = image.load()
        for y in range(image.height):
            run = 0
            for x in range(image.width):
                if pixels[x, y] < 100:
                    run += 1
                else:
                    if run:
                        runs.append(run / px_per_mm)
                    run = 0
    # The scale bar's line is printed exactly 100 mm long (its ticks break no run).
    assert any(abs(r - template.SCALE_BAR_MM) <= 0.6 for r in runs), sorted(runs)[-10:]


@pytest.mark.parametrize(("pitch", "build"), BUILDS)
def test_the_laser_strips_interlock_at_every_wall(pitch: float, build: BuildConfig) -> None:
    strips = spacer.strips(pitch, build)
    assert len(strips) == 20
    t, h = build.sheet_mm, build.spacer_mm
    for s in strips:
        xs, ys = [p[0] for p in s.outline], [p[1] for p in s.outline]
        assert max(xs) - min(xs) == pytest.approx(9 * pitch + 3 * t)
        assert (min(ys), max(ys)) == (0.0, h)
        slot_y = h / 2
        edges = sorted({x for x, y in s.outline if y == slot_y})
        centres = [(a + b) / 2 for a, b in zip(edges[::2], edges[1::2], strict=True)]
        assert centres == pytest.approx([k * pitch for k in range(10)])
        assert all(b - a == pytest.approx(t) for a, b in zip(edges[::2], edges[1::2],
                                                               strict=True))
    assert sum(s.slots_from_top for s in strips) == 10


def test_the_dxf_holds_the_strips_in_millimetres() -> None:
    ezdxf = pytest.importorskip("ezdxf")
    pitch, build = BUILDS[0]
    doc = ezdxf.read(io.StringIO(spacer.laser_dxf(pitch, build).decode()))
    assert doc.header["$INSUNITS"] == 4  # millimetres
    outlines = doc.modelspace().query("LWPOLYLINE[layer=='CUT']")
    assert len(outlines) == 20
    for outline in outlines:
        assert outline.closed
        xs = [p[0] for p in outline.get_points("xy")]
        ys = [p[1] for p in outline.get_points("xy")]
        assert max(xs) - min(xs) == pytest.approx(9 * pitch + 3 * build.sheet_mm)
        assert max(ys) - min(ys) == pytest.approx(build.spacer_mm)
    names = sorted(e.dxf.text for e in doc.modelspace().query("TEXT[layer=='ENGRAVE']"))
    assert names == sorted([f"R{k}" for k in range(10)] + [f"F{k}" for k in range(10)])


@pytest.mark.parametrize(("pitch", "build"), BUILDS)
def test_the_wiring_layout_names_each_line_and_diode(pitch: float, build: BuildConfig) -> None:
    sensors = SensorConfig(rows=(4, 5, 6, 14, 13, 16, 17, 22, 23))
    root = parse(wiring.render(pitch, build, sensors))
    rows = [e for e in root.iter(SVG + "line") if e.get("class") == "row"]
    assert [int(e.get("data-gpio", "0")) for e in rows] == list(sensors.rows)
    columns = [e for e in root.iter(SVG + "line") if e.get("class") == "column"]
    assert [int(e.get("data-gpio", "0")) for e in columns] == list(sensors.columns)
    diodes = {e.get("data-square") for e in root.iter(SVG + "path") if e.get("class") == "diode"}
    assert len(diodes) == 81
    leds = [e for e in root.iter(SVG + "rect") if e.get("class") == "led"]
    indices = led_indices(LedConfig())
    assert all(indices[e.get("data-square", "")] == int(e.get("data-index", "-1")) for e in leds)
    assert len([e for e in root.iter(SVG + "circle") if e.get("class") == "feed"]) == 4
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "ROW4 GPIO14" in texts and "BAT85" in texts


@pytest.mark.integration  # runs hardware/parts.py
def test_the_committed_drawings_are_up_to_date() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "hardware" / "parts.py"), "--check"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for name in ("cross-section.svg", "carrier-template.svg", "spacer-laser.svg",
                 "spacer-tiles.svg", "wiring-layout.svg"):
        assert (ROOT / "hardware" / "parts" / name).exists()
        assert f"parts/{name}" in (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    assert math.isfinite(stack.estimate(BuildConfig(), 40.0).margin)
