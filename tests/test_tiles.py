"""Overlays a family can print at home: the sheet tiled onto A4 or US Letter pages, with
overlap, cut lines and alignment crosses, as one PDF (ReportLab drawing the SVG via svglib)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib.units import mm

from sudoku_table.cli import main
from sudoku_table.overlay import FIRST_PAGE_MM, render
from sudoku_table.rules.game import all_variants, new_game
from sudoku_table.tiles import LABEL_MM, MARGIN_MM, OVERLAP_MM, PAPERS, TileError, layout, tile_pdf


def pdf_of(tmp_path: Path, *args: str) -> pdfium.PdfDocument:
    out = tmp_path / "overlay.pdf"
    assert main(["overlay", "classic-sudoku", *args, "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    return pdfium.PdfDocument(out)


@pytest.mark.integration
def test_a4_pages_of_the_right_size_and_number(tmp_path: Path) -> None:
    pdf = pdf_of(tmp_path, "--paper", "a4", "--language", "en")
    assert len(pdf) == 6  # a 384 mm sheet (40 mm squares) on 190 x 270 mm of printable A4
    width, height = pdf[0].get_size()
    assert {round(width / mm), round(height / mm)} == {210, 297}
    text = pdf[0].get_textpage().get_text_range()
    assert "page 1 of 6" in text and "print at 100 %" in text


@pytest.mark.integration
def test_letter_pages_and_german_words(tmp_path: Path) -> None:
    pdf = pdf_of(tmp_path, "--paper", "letter", "--language", "de")
    width, height = pdf[0].get_size()
    assert {round(width / 72 * 10), round(height / 72 * 10)} == {85, 110}  # 8.5 x 11 inches
    assert "Seite 1 von" in pdf[0].get_textpage().get_text_range()


@settings(max_examples=60, deadline=None)
@given(width_mm=st.floats(50, 1200), height_mm=st.floats(50, 1200),
       paper=st.sampled_from(sorted(PAPERS)))
def test_the_pages_cover_the_whole_sheet(width_mm: float, height_mm: float, paper: str) -> None:
    plan = layout(width_mm * mm, height_mm * mm, paper)
    overlap = OVERLAP_MM * mm
    assert plan.step_x > 0 and plan.step_y > 0
    # The last page reaches the sheet's far edge, and neighbours overlap by the overlap.
    assert (plan.columns - 1) * plan.step_x + plan.step_x + overlap >= width_mm * mm - 1e-6
    assert (plan.rows - 1) * plan.step_y + plan.step_y + overlap >= height_mm * mm - 1e-6
    # Not a page more than needed.
    assert (plan.columns - 2) * plan.step_x + plan.step_x + overlap < width_mm * mm or \
        plan.columns == 1


@pytest.mark.integration
def test_neighbouring_pages_print_the_same_overlap() -> None:
    """What the right edge of a page shows, the page to its right shows at its left edge, and
    the same down the columns: laid over each other, the parts of the board meet exactly (a
    shift of 1 mm fails this)."""
    scale = 4.0

    def tiles(pitch: float) -> tuple[list, object]:
        # Pitches chosen so that a grid line runs through the strip being compared (35 mm: a
        # line across A4's right overlap; 50 mm: a line along its bottom overlap).
        svg = render(new_game("classic-sudoku"), pitch)
        pdf = pdfium.PdfDocument(tile_pdf(svg, "a4", marks=False))
        return ([pdf[i].render(scale=scale).to_pil().convert("L") for i in range(len(pdf))],
                layout(*_sheet_size(svg), "a4"))

    def px(value: float) -> int:
        return int(value * scale)

    def same(first: Any, box_a: tuple[int, int, int, int], second: Any,
             box_b: tuple[int, int, int, int]) -> None:
        """The two strips show the same, up to 2 px (0.2 mm) of rounding."""
        a = first.crop(box_a).tobytes()
        assert sum(1 for x in a if x < 128) > 200  # not blank: lines run through it
        best = 1.0
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                x0, y0, x1, y1 = box_b
                b = second.crop((x0 + dx, y0 + dy, x1 + dx, y1 + dy)).tobytes()
                differ = sum(1 for x, y in zip(a, b, strict=True) if abs(x - y) > 60)
                best = min(best, differ / len(a))
        assert best < 0.015, best  # text edges antialias differently; a 1 mm shift: 4 %

    margin, overlap = MARGIN_MM * mm, OVERLAP_MM * mm
    pages, plan = tiles(35.0)
    page_w, page_h = plan.paper
    top, bottom = margin, page_h - (MARGIN_MM + LABEL_MM) * mm  # from the page's top
    right = page_w - margin
    # Across: page 1's right strip is page 2's left strip.
    same(pages[0], (px(right - overlap) + 4, px(top) + 4, px(right) - 4, px(bottom) - 4),
         pages[1], (px(margin) + 4, px(top) + 4, px(margin + overlap) - 4, px(bottom) - 4))
    # Down: page 1's bottom strip is the top strip of the page below it.
    pages, plan = tiles(50.0)
    below = pages[plan.columns]
    same(pages[0], (px(margin) + 4, px(bottom - overlap) + 4, px(right) - 4, px(bottom) - 4),
         below, (px(margin) + 4, px(top) + 4, px(right) - 4, px(top + overlap) - 4))


def _sheet_size(svg: str) -> tuple[float, float]:
    import io

    from svglib.svglib import svg2rlg

    drawing = svg2rlg(io.BytesIO(svg.encode()))
    return float(drawing.width), float(drawing.height)


def test_an_unknown_paper_is_refused() -> None:
    with pytest.raises(TileError, match="paper must be one of"):
        layout(100.0, 100.0, "a3")


@pytest.mark.integration
def test_the_panel_offers_the_overlay(tmp_path: Path) -> None:
    from tests.web.helpers import open_composition

    panel = open_composition(tmp_path / "data")
    client = panel.app.test_client()
    page = client.get("/rules/kakuro").data
    for paper in ("a4", "letter", "svg"):
        assert f'data-paper="{paper}"'.encode() in page
    pdf = client.get("/api/variants/kakuro/overlay?paper=a4&options=A",
                     headers={"Accept-Language": "de"})
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "attachment" in pdf.headers["Content-Disposition"]
    assert "Seite 1 von" in pdfium.PdfDocument(pdf.data)[0].get_textpage().get_text_range()
    svg = client.get("/api/variants/kakuro/overlay")
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert client.get("/api/variants/kakuro/overlay?paper=a3").status_code == 400
    assert client.get("/api/variants/kakuro/overlay?options=C").status_code == 422
    assert client.get("/api/variants/no-such-game/overlay").status_code in (400, 404)
    assert client.get("/api/variants/halma-dominari/overlay?options=A").status_code == 400
    panel.close()


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_title_and_the_page_labels_fit_their_pages(language: str) -> None:
    """The sheet's title (the game, how to print and trim it) is printed whole on the first
    page, within what a printer prints, and every page's label fits its page: no word is cut
    at a page's edge (read from the characters' boxes and sizes of the PDF itself: the label
    is the 7 pt text, the title the text above the board on the first page)."""
    import pypdfium2.raw as raw

    from sudoku_table.web.i18n import translate

    def say(text: str) -> str:
        return translate(text, language)

    # The game with the longest name, on the narrowest paper at two square sizes (the title
    # grows with the board's size) and on the other paper.
    variant = max(all_variants(), key=lambda cls: len(cls.name)).id
    assert FIRST_PAGE_MM * mm <= min(w for w, _ in PAPERS.values()) - 2 * MARGIN_MM * mm + 0.01
    for pitch, paper in ((40.0, "a4"), (60.0, "a4"), (40.0, "letter")):
        svg = render(new_game(variant), pitch, say)
        pdf = pdfium.PdfDocument(tile_pdf(svg, paper, say=say))
        page_w, page_h = pdf[0].get_size()
        left, right = MARGIN_MM * mm, page_w - MARGIN_MM * mm
        margin = max(10.0, 0.3 * pitch) * mm  # the sheet's margin above the board
        for index in range(len(pdf)):
            page = pdf[index].get_textpage()
            title, label = [], []
            for i in range(page.count_chars()):
                x0, y0, x1, y1 = page.get_charbox(i)
                if x1 - x0 <= 0:
                    continue
                if round(raw.FPDFText_GetFontSize(page.raw, i), 1) == 7.0:
                    label.append((x0, x1))
                elif index == 0 and y0 > page_h - MARGIN_MM * mm - margin:
                    title.append((x0, x1))
            assert label and min(x0 for x0, _ in label) >= left - 0.5, (paper, index)
            assert max(x1 for _, x1 in label) <= right + 0.5, (variant, language, paper,
                                                               index, "label cut")
            if index == 0:
                assert title, (variant, language, paper, pitch)
                assert max(x1 for _, x1 in title) <= right + 0.5, (
                    variant, language, paper, pitch, "title cut")
        heading = pdf[0].get_textpage().get_text_range()
        assert new_game(variant).name.split()[0] in heading
