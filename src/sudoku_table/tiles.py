"""A large overlay printed on a home printer: the SVG sheet tiled onto A4 or US Letter pages.

The overlay is drawn at its true size (9 x pitch, 360 mm at the default 40 mm pitch), larger than
any home printer's paper. ``tile_pdf`` cuts it into pages that overlap by ``OVERLAP_MM``: each
page prints a part of the sheet inside a safe margin (printers cannot print to the edge), with

- a dashed cut line where it overlaps the page to its left or above (trim there and lay it over
  its neighbour),
- alignment crosses in the overlap, printed on both pages, to lay one exactly over the other,
- a label: which page this is (row and column), and how the pages go together.

The SVG is read by svglib into a ReportLab drawing (both kept libraries), so the tiles show
exactly what the single SVG shows. Print at 100 % ("actual size"), never "fit to page".
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.graphics import renderPDF
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from .rules.wording import N_

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
"""Paper sizes in points, portrait."""
MARGIN_MM = 10.0
"""What a home printer cannot print near the paper's edge (a safe value for inkjets and lasers)."""
OVERLAP_MM = 12.0
"""How far neighbouring pages overlap: room for the crosses and for glue."""
LABEL_MM = 7.0
"""A band at the foot of every page's printable area for its label."""
INK = (0.13, 0.13, 0.13)


class TileError(ValueError):
    """A paper or a sheet that cannot be tiled."""


@dataclass(frozen=True)
class Layout:
    """How a sheet of ``width`` x ``height`` points goes onto pages of ``paper``."""

    paper: tuple[float, float]
    columns: int
    rows: int
    step_x: float
    step_y: float

    @property
    def pages(self) -> int:
        return self.columns * self.rows


def layout(width: float, height: float, paper: str) -> Layout:
    """The fewer pages of portrait or landscape ``paper`` for a sheet (points)."""
    if paper not in PAPERS:
        raise TileError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    best: Layout | None = None
    for size in (PAPERS[paper], (PAPERS[paper][1], PAPERS[paper][0])):
        printable_w = size[0] - 2 * MARGIN_MM * mm
        printable_h = size[1] - (2 * MARGIN_MM + LABEL_MM) * mm
        step_x, step_y = printable_w - OVERLAP_MM * mm, printable_h - OVERLAP_MM * mm
        columns = max(1, math.ceil((width - OVERLAP_MM * mm) / step_x))
        rows = max(1, math.ceil((height - OVERLAP_MM * mm) / step_y))
        candidate = Layout(size, columns, rows, step_x, step_y)
        if best is None or candidate.pages < best.pages:
            best = candidate
    assert best is not None
    return best


def tile_pdf(svg: str, paper: str = "a4", title: str = "",
             say: Callable[[str], str] = lambda text: text, marks: bool = True) -> bytes:
    """The SVG sheet as a PDF of overlapping pages of ``paper`` (``a4`` or ``letter``);
    ``marks`` False leaves out the cut lines, crosses and labels (for checking the tiles)."""
    drawing = svg2rlg(io.BytesIO(svg.encode("utf-8")))
    if drawing is None:
        raise TileError("the overlay could not be read")
    width, height = float(drawing.width), float(drawing.height)
    plan = layout(width, height, paper)
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=plan.paper, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("sudoku-table overlay")
    page_w, page_h = plan.paper
    left, bottom = MARGIN_MM * mm, (MARGIN_MM + LABEL_MM) * mm
    printable_w, printable_h = page_w - 2 * left, page_h - bottom - MARGIN_MM * mm
    overlap = OVERLAP_MM * mm
    for row in range(plan.rows):
        for column in range(plan.columns):
            # The part of the sheet on this page: from x0 (left) and from the sheet's top down.
            x0, y0_top = column * plan.step_x, row * plan.step_y
            canvas.saveState()
            path = canvas.beginPath()
            path.rect(left, bottom, printable_w, printable_h)
            canvas.clipPath(path, stroke=0, fill=0)
            # ReportLab's y grows upwards: the sheet's top row of this tile at the printable top.
            renderPDF.draw(drawing, canvas, left - x0, bottom + printable_h - (height - y0_top))
            canvas.restoreState()
            if marks:
                _marks(canvas, plan, row, column, left, bottom, printable_w, printable_h,
                       overlap)
                _label(canvas, plan, row, column, left, bottom, say)
            canvas.showPage()
    canvas.save()
    return out.getvalue()


def _marks(canvas: Canvas, plan: Layout, row: int, column: int, left: float, bottom: float,
           width: float, height: float, overlap: float) -> None:
    """Cut lines where this page lies over its neighbour, crosses in every overlap."""
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.4)
    top = bottom + height
    if column > 0:  # lies over the page to its left: cut along the overlap's left edge
        canvas.setDash(3, 2)
        canvas.line(left, bottom, left, top)
        canvas.setDash()
    if row > 0:  # lies over the page above
        canvas.setDash(3, 2)
        canvas.line(left, top, left + width, top)
        canvas.setDash()
    crosses: list[tuple[float, float]] = []
    ys = (bottom + height * 0.25, bottom + height * 0.75)
    xs = (left + width * 0.25, left + width * 0.75)
    if column > 0:
        crosses += [(left + overlap / 2, y) for y in ys]
    if column < plan.columns - 1:
        crosses += [(left + width - overlap / 2, y) for y in ys]
    if row > 0:
        crosses += [(x, top - overlap / 2) for x in xs]
    if row < plan.rows - 1:
        crosses += [(x, bottom + overlap / 2) for x in xs]
    arm = 3.5 * mm
    for x, y in crosses:
        canvas.line(x - arm, y, x + arm, y)
        canvas.line(x, y - arm, x, y + arm)
        canvas.circle(x, y, 1.2 * mm, stroke=1, fill=0)


def _label(canvas: Canvas, plan: Layout, row: int, column: int, left: float, bottom: float,
           say: Callable[[str], str]) -> None:
    canvas.setFillColorRGB(*INK)
    canvas.setFont("Helvetica", 7)
    text = say(N_("page {page} of {pages}: row {row} of {rows}, column {column} of {columns} - "
                  "print at 100 %, cut at the dashed lines, lay the crosses on the crosses "
                  "of the neighbouring page")).format(
        page=row * plan.columns + column + 1, pages=plan.pages, row=row + 1, rows=plan.rows,
        column=column + 1, columns=plan.columns)
    canvas.drawString(left, bottom - LABEL_MM * mm + 2 * mm, text[:160])
