"""Printable board overlays: ``sudoku-table overlay VARIANT [--options JSON] [--config FILE]``.

The overlay is a sheet laid on the table's 9x9 sensor grid, so it is drawn in millimetres at the
configured square pitch (``[board] square_mm`` of the table's config, 40 mm by default, handed
in by the caller). It prints the board's one drawing (``sudoku_table.rules.drawing``, the same
data the panel draws): every playable cell exactly once, centred on its own sensor square, in
the shape of the board it belongs to (squares, cube-face parallelograms, hexagons, lattice
points), filled with the light colour of its region (block, jigsaw region, cage, face,
triangle). Boards whose screen drawing differs from the grid (cube, hex, triangle) keep each
cell on its sensor square on paper; faint links show which squares are neighbours on such a
board. Kakuro's clue squares carry their printed sums, and SUDOKU FAMILY's starting cells their
black dots. Each square's name is printed small in its corner, a faint outline marks all 81
sensor squares, and cut marks in the margin show where to trim the sheet to exactly 9 x pitch.

The SVG marks what it draws for tools and tests: every cell is a ``<g class="cell">`` with
``data-square``, ``data-region`` and ``data-colour`` (the palette index); the trimmed board is
``<rect id="sensor-grid">``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Annotated
from xml.sax.saxutils import escape, quoteattr

from pydantic import Field, Strict

from .rules.drawing import (
    CellDrawing,
    Drawing,
    clue_squares,
    drawing,
    lattice_links,
    marked_cells,
    region_of,
)
from .rules.errors import RulesError
from .rules.game import Game, new_game
from .rules.squares import SIZE, parse_square
from .rules.wording import N_
from .sections import Says, Section

__all__ = ["DEFAULT_PITCH_MM", "BoardConfig", "OverlayError", "clue_squares", "lattice_links",
           "main", "marked_cells", "region_of", "render", "square_centre"]

DEFAULT_PITCH_MM = 40.0
"""The square pitch when no config is available (the firmware's default too)."""
MARGIN_FRACTION = 0.3
"""The margin around the board, for cut marks and the title, as a fraction of the pitch."""
MIN_MARGIN_MM = 10.0

FIRST_PAGE_MM = 190.0
"""The narrowest width a home printer prints of a page this overlay is tiled onto (A4 less its
margins, ``tiles.py``): the first page shows the sheet's title, so the title is wrapped to fit
it as well as the board's width."""
TITLE_INDENT_MM = 1.5
"""The title starts this far right of the board's left edge, clear of the cut mark there."""

REGION_COLOURS = ("#f6d8ae", "#cfe3f5", "#d9efcf", "#f3cfe0", "#e5dcf4", "#fbf3c4", "#d2efec",
                  "#f1d6cc")
"""Light fills that leave the pieces and the LEDs beneath readable, by the drawing's colour
index (touching regions have different indices)."""
FIT = 0.92
"""Cells of boards other than square fill this share of their sensor square on paper."""
POINT_FRACTION = 0.42
"""A lattice point's circle on paper, as a share of the pitch."""
CELL_FILL = "#ffffff"
"""A cell that belongs to no region."""
CLUE_FILL = "#4a4a4a"
INK = "#222222"
FAINT = "#9a9a9a"


class OverlayError(ValueError):
    """A request for an overlay that cannot be drawn (unknown variant, bad options)."""


MIN_PITCH_MM = 5.0
MAX_PITCH_MM = 200.0
"""The square pitches a board may have (``[board] square_mm``)."""

SquareMm = Annotated[float, Strict(), Field(ge=MIN_PITCH_MM, le=MAX_PITCH_MM, allow_inf_nan=False),
                     Says(f"must be between {MIN_PITCH_MM:g} and {MAX_PITCH_MM:g}", always=True)]


class BoardConfig(Section):
    """The ``[board]`` section of the table's config file: the physical board."""

    square_mm: SquareMm = DEFAULT_PITCH_MM
    """Distance between the centres of neighbouring squares, in millimetres (5 to 200)."""


# --- the drawing on paper ---------------------------------------------------------------------


def square_centre(square: str, pitch: float, margin: float) -> tuple[float, float]:
    """The centre of a sensor square on the sheet, in mm (y grows downwards, a1 bottom left)."""
    f, r = parse_square(square)
    return margin + (f + 0.5) * pitch, margin + (SIZE - r - 0.5) * pitch


def _on_grid(point: tuple[float, float], pitch: float, margin: float) -> tuple[float, float]:
    """A point of a square board's drawing (square units, a1 at 0, 0) on the sheet, in mm."""
    return margin + (point[0] + 0.5) * pitch, margin + (SIZE - 0.5 + point[1]) * pitch


def _outline_on_square(cell: CellDrawing, centre: tuple[float, float], pitch: float,
                       square: bool) -> list[tuple[float, float]]:
    """The cell's drawn outline around its sensor square's centre: at the grid's scale on a
    square board (the squares tile the sheet), else scaled to fill ``FIT`` of its square."""
    assert cell.outline is not None
    offsets = [(x - cell.at[0], y - cell.at[1]) for x, y in cell.outline]
    extent = max(max(abs(dx), abs(dy)) for dx, dy in offsets)
    scale = pitch if square else FIT * pitch / (2 * extent)
    return [(centre[0] + dx * scale, centre[1] + dy * scale) for dx, dy in offsets]


# --- SVG --------------------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate in mm, short and exact enough for a printer (1/1000 mm)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _line(a: tuple[float, float], b: tuple[float, float]) -> str:
    return f'<line x1="{_n(a[0])}" y1="{_n(a[1])}" x2="{_n(b[0])}" y2="{_n(b[1])}"/>'


def render(game: Game, pitch: float = DEFAULT_PITCH_MM,
           say: Callable[[str], str] = lambda text: text) -> str:
    """The overlay of ``game``'s board as an SVG document in mm at square pitch ``pitch``; its
    printed words in the language of ``say`` (English by default)."""
    if not (isinstance(pitch, int | float) and math.isfinite(pitch) and pitch > 0):
        raise OverlayError(f"the square pitch must be a positive number of mm, got {pitch!r}")
    board = drawing(game.geometry)
    margin = max(MIN_MARGIN_MM, MARGIN_FRACTION * pitch)
    side = SIZE * pitch
    total = side + 2 * margin
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(total)}mm" height="{_n(total)}mm" '
        f'viewBox="0 0 {_n(total)} {_n(total)}" data-variant={quoteattr(game.id)} '
        f'data-pitch-mm="{_n(pitch)}">',
        "<title>" + escape(say(N_("{game}: board overlay, {mm} mm squares"))
                           .format(game=game.name, mm=_n(pitch))) + "</title>",
        '<g id="sheet" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        *_title(say(N_("{game} - print at 100 %, trim at the marks to {size} x {size} mm - a1 is "
                       "bottom left")).format(game=game.name, size=_n(side)), margin, side),
        *_sensor_squares(pitch, margin),
        *_clues(board, pitch, margin),
        *_links(board, pitch, margin),
        *_cells(board, pitch, margin),
        *_borders(board, pitch, margin),
        *_edge_and_cut_marks(margin, side),
        "</g>",
        "</svg>",
    ]) + "\n"


def _sensor_squares(pitch: float, margin: float) -> list[str]:
    """The faint outline of all 81 sensor squares, under everything else."""
    return [f'<g id="sensor-squares" fill="none" stroke="{FAINT}" stroke-width="0.2">',
            *(f'<rect x="{_n(margin + f * pitch)}" y="{_n(margin + (SIZE - 1 - r) * pitch)}" '
              f'width="{_n(pitch)}" height="{_n(pitch)}"/>'
              for r in range(SIZE) for f in range(SIZE)),
            "</g>"]


def _clues(board: Drawing, pitch: float, margin: float) -> list[str]:
    """Kakuro's clue squares: dark, split by a diagonal, the sums in their halves."""
    if not board.clues:
        return []
    out = ['<g id="clues">']
    h, size = pitch / 2, 0.28 * pitch
    for clue in board.clues:
        cx, cy = square_centre(clue.square, pitch, margin)
        out.append(f'<g class="clue" data-square="{clue.square}">')
        out.append(f'<rect x="{_n(cx - h)}" y="{_n(cy - h)}" width="{_n(pitch)}" '
                   f'height="{_n(pitch)}" fill="{CLUE_FILL}"/>')
        out.append(f'<line x1="{_n(cx - h)}" y1="{_n(cy - h)}" x2="{_n(cx + h)}" '
                   f'y2="{_n(cy + h)}" stroke="#ffffff" stroke-width="0.4"/>')
        for direction, text, dx, dy in (("across", clue.across, 0.22, -0.05),
                                        ("down", clue.down, -0.22, 0.38)):
            if text is not None:
                out.append(_text(text, (cx + dx * pitch, cy + dy * pitch), size, "#ffffff",
                                 f"sum {direction}", anchor="middle"))
        out.append("</g>")
    out.append("</g>")
    return out


def _text(words: str, at: tuple[float, float], size: float, fill: str, cls: str,
          anchor: str | None = None) -> str:
    """One line of text on the sheet, at ``at`` in millimetres, its words escaped."""
    x, y = at
    align = "" if anchor is None else f' text-anchor="{anchor}"'
    return (f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" '
            f'fill="{fill}"{align}>{escape(words)}</text>')


def _links(board: Drawing, pitch: float, margin: float) -> list[str]:
    """Boards whose neighbours are not the grid's: faint links between neighbouring squares."""
    if not board.links:
        return []
    return [f'<g id="links" stroke="{FAINT}" stroke-width="0.5">',
            *(_line(square_centre(a, pitch, margin), square_centre(b, pitch, margin))
              for a, b in board.links),
            "</g>"]


def _cells(board: Drawing, pitch: float, margin: float) -> list[str]:
    """Every cell on its own sensor square, filled with its region's colour, its name small in
    the corner."""
    dots = frozenset(board.dots)
    square = board.shape == "square"
    label_size = max(2.0, 0.1 * pitch)
    out = ['<g id="cells">']
    for cell in board.cells:
        cx, cy = square_centre(cell.cell, pitch, margin)
        fill = CELL_FILL if cell.colour is None else REGION_COLOURS[cell.colour]
        out.append(f'<g class="cell" data-square="{cell.cell}" '
                   f'data-region={quoteattr(cell.region or "")} '
                   f'data-colour="{"" if cell.colour is None else cell.colour}">')
        if cell.outline is None:
            out.append(f'<circle class="shape" cx="{_n(cx)}" cy="{_n(cy)}" '
                       f'r="{_n(POINT_FRACTION * pitch)}" fill="{fill}" stroke="{INK}" '
                       f'stroke-width="0.5"/>')
        else:
            outline = _outline_on_square(cell, (cx, cy), pitch, square)
            out.append(f'<polygon class="shape" points="{_points(outline)}" fill="{fill}" '
                       f'stroke="{INK}" stroke-width="0.3"/>')
        if cell.cell in dots:
            out.append(f'<circle class="dot" cx="{_n(cx)}" cy="{_n(cy)}" '
                       f'r="{_n(0.08 * pitch)}" fill="{INK}"/>')
        out.append(_text(cell.cell, (cx - 0.44 * pitch, cy + 0.44 * pitch), label_size, FAINT,
                         "label"))
        out.append("</g>")
    out.append("</g>")
    return out


def _borders(board: Drawing, pitch: float, margin: float) -> list[str]:
    """Thick lines where a square board's region (block, cage) ends. Other boards keep each
    cell on its own square, apart from its neighbours, so their colours tell the regions."""
    if board.shape != "square" or not board.borders:
        return []
    return [f'<g id="region-borders" stroke="{INK}" stroke-width="1" stroke-linecap="square">'
            + "".join(_line(_on_grid((x1, y1), pitch, margin), _on_grid((x2, y2), pitch, margin))
                      for x1, y1, x2, y2 in board.borders)
            + "</g>"]


def _edge_and_cut_marks(margin: float, side: float) -> list[str]:
    """The board's edge and the cut marks in the margin, outside the board."""
    out = [f'<rect id="sensor-grid" x="{_n(margin)}" y="{_n(margin)}" width="{_n(side)}" '
           f'height="{_n(side)}" fill="none" stroke="{INK}" stroke-width="0.3"/>',
           f'<g id="cut-marks" stroke="{INK}" stroke-width="0.25">']
    gap, length = 1.0, margin * 0.6
    for x in (margin, margin + side):
        for y in (margin, margin + side):
            dx = -1 if x == margin else 1
            dy = -1 if y == margin else 1
            out.append(_line((x + dx * gap, y), (x + dx * (gap + length), y)))
            out.append(_line((x, y + dy * gap), (x, y + dy * (gap + length))))
    out.append("</g>")
    return out


GLUE = "\u00a0"
"""A space the title is never wrapped at (printed as a plain space)."""


def _title(text: str, margin: float, board: float) -> list[str]:
    """The title as SVG text lines in the margin above the board: as large as the margin
    allows, wrapped between words (never inside "100 %" or "360 x 360 mm") so that each line
    fits the board's width and the first page of a tiled print."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    glued = (text.replace(" %", GLUE + "%").replace(" x ", f"{GLUE}x{GLUE}")
             .replace(" mm", GLUE + "mm"))
    words = glued.split(" ")
    room = min(board, FIRST_PAGE_MM - margin) - 2 * TITLE_INDENT_MM
    band = margin - 1.5  # above the board, clear of its edge

    def width(line: str, size: float) -> float:
        # DejaVu Sans (as drawn where it is installed) runs about 15 % wider than Helvetica
        # (as measured here, from the fonts every ReportLab knows).
        return stringWidth(line, "Helvetica", size) * 1.2

    size = min(5.0, margin * 0.4)
    while True:
        lines: list[str] = []
        for word in words:
            if lines and width(f"{lines[-1]} {word}", size) <= room:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        fits = all(width(line, size) <= room for line in lines)
        if (fits and len(lines) * size * 1.2 <= band) or size <= 2.0:
            break
        size = round(size - 0.2, 2)
    step = size * 1.2
    first = (band - len(lines) * step) / 2 + size
    return [_text(line.replace(GLUE, " "), (margin + TITLE_INDENT_MM, first + i * step), size,
                  INK, "title") for i, line in enumerate(lines)]


# --- command line -----------------------------------------------------------------------------


def parse_options(text: str | None) -> dict[str, object] | None:
    """The ``--options`` JSON object, or None when not given."""
    if text is None:
        return None
    try:
        options = json.loads(text)
    except json.JSONDecodeError as e:
        raise OverlayError(f"--options is not valid JSON ({e.msg}): {text!r}") from None
    if not isinstance(options, dict):
        raise OverlayError(f"--options must be a JSON object such as {{\"clues\": \"B\"}}, "
                           f"got {text!r}")
    return options


def overlay_svg(variant: str, options: str | None, pitch: float,
                say: Callable[[str], str] = lambda text: text) -> str:
    """The overlay SVG for a command line's arguments; ``OverlayError`` for bad ones."""
    parsed = parse_options(options)
    try:
        game = new_game(variant, options=parsed)
    except RulesError as e:
        raise OverlayError(str(e)) from None
    return render(game, pitch, say)


def main(args: argparse.Namespace, pitch: float,
         say: Callable[[str], str] = lambda text: text) -> int:
    """``sudoku-table overlay`` (its arguments are defined in ``sudoku_table.cli``) at square
    pitch ``pitch`` from the table's config: the SVG on stdout or ``--out``, or tiled onto
    ``--paper`` as a PDF; 0, or 2 with one line on stderr for a bad request."""
    paper = getattr(args, "paper", None)
    target = getattr(args, "out", None)
    try:
        svg = overlay_svg(args.variant, args.options, pitch, say)
        data: bytes = svg.encode("utf-8")
        if paper is not None:
            from .tiles import TileError, tile_pdf

            try:
                data = tile_pdf(svg, paper, title=f"{args.variant} overlay", say=say)
            except TileError as e:
                raise OverlayError(str(e)) from None
    except OverlayError as e:
        return fail(str(e))
    if target is None:
        if paper is not None and sys.stdout.isatty():
            return fail("a PDF goes to a file: add --out FILE.pdf")
        sys.stdout.buffer.write(data)
        return 0
    try:
        with open(target, "wb") as f:
            f.write(data)
    except OSError as e:
        return fail(f"cannot write {target}: {e}")
    return 0


def fail(reason: str) -> int:
    """One line on stderr naming the command and the reason; the exit status 2."""
    print(f"sudoku-table overlay: {reason}", file=sys.stderr)
    return 2
