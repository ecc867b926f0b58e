"""Printable board overlays: ``sudoku-table overlay VARIANT [--options JSON] [--config FILE]``.

The overlay is a sheet laid on the table's 9x9 sensor grid, so it is drawn in millimetres at the
configured square pitch (``[board] square_mm`` of the table's config, 40 mm by default). It is
generated from the rules' own geometry: every playable cell is drawn exactly once, centred on
its own sensor square, in the shape of the board it belongs to (squares, cube-face
parallelograms, hexagons, lattice points), filled with the colour of its region (block, jigsaw
region, cage, face, triangle). Boards whose screen drawing differs from the grid (cube, hex,
triangle) keep each cell on its sensor square on paper; faint links show which squares are
neighbours on such a board. Kakuro's clue squares carry their printed sums, and SUDOKU
FAMILY's starting cells their black dots. Each square's name is printed small in its corner, a
faint outline marks all 81 sensor squares, and cut marks in the margin show where to trim the
sheet to exactly 9 x pitch.

The SVG marks what it draws for tools and tests: every cell is a ``<g class="cell">`` with
``data-square`` and ``data-region``; the trimmed board is ``<rect id="sensor-grid">``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from .rules.errors import RulesError
from .rules.game import Game, new_game
from .rules.geometry import Geometry
from .rules.squares import FILES, SIZE, parse_square
from .rules.wording import N_

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
"""Light fills that leave the pieces and the LEDs beneath readable; neighbours differ."""
CELL_FILL = "#ffffff"
"""A cell that belongs to no region."""
CLUE_FILL = "#4a4a4a"
INK = "#222222"
FAINT = "#9a9a9a"


class OverlayError(ValueError):
    """A request for an overlay that cannot be drawn (unknown variant, bad options)."""


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """The ``[board]`` section of the table's config file: the physical board."""

    square_mm: float = DEFAULT_PITCH_MM
    """Distance between the centres of neighbouring squares."""

    @classmethod
    def from_section(cls, raw: Mapping[str, object]) -> BoardConfig:
        """The checked section (``OverlayError`` names the bad key)."""
        if "square_mm" not in raw:
            return cls()
        value = raw["square_mm"]
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or not 5 <= value <= 200):
            raise OverlayError(f"board.square_mm must be between 5 and 200, got {value!r}")
        return cls(float(value))


# --- geometry on paper ------------------------------------------------------------------------


def square_centre(square: str, pitch: float, margin: float) -> tuple[float, float]:
    """The centre of a sensor square on the sheet, in mm (y grows downwards, a1 bottom left)."""
    f, r = parse_square(square)
    return margin + (f + 0.5) * pitch, margin + (SIZE - r - 0.5) * pitch


def region_of(geometry: Geometry) -> dict[str, str]:
    """Each cell's region (the first listed when a board's regions overlap)."""
    result: dict[str, str] = {}
    for name, cells in geometry.regions.items():
        for cell in cells:
            result.setdefault(cell, name)
    return result


def _coord_unit(geometry: Geometry) -> float:
    """The smallest distance between two cells' drawing coordinates (1 on square boards)."""
    points = [geometry.coords[c] for c in geometry.cells]
    best = math.inf
    for i, (ax, ay) in enumerate(points):
        for bx, by in points[i + 1:]:
            d = math.hypot(ax - bx, ay - by)
            if 1e-9 < d < best:
                best = d
    return best if math.isfinite(best) else 1.0


def lattice_links(geometry: Geometry) -> list[tuple[str, str]]:
    """Pairs of cells that are neighbours on the drawn board (coords one unit apart)."""
    unit = _coord_unit(geometry)
    cells = list(geometry.cells)
    links = []
    for i, a in enumerate(cells):
        ax, ay = geometry.coords[a]
        for b in cells[i + 1:]:
            bx, by = geometry.coords[b]
            if abs(math.hypot(ax - bx, ay - by) - unit) < unit * 0.05:
                links.append((a, b))
    return links


def region_colours(geometry: Geometry) -> dict[str, str]:
    """A colour per region such that regions touching on the sensor grid or on the drawn board
    differ (greedy, most constrained first)."""
    owner = region_of(geometry)
    touching: dict[str, set[str]] = {name: set() for name in geometry.regions}
    links = [(a, b) for a in geometry.cells for b in geometry.cells
             if a < b and _grid_touch(a, b)]
    if geometry.shape != "square":
        links += lattice_links(geometry)
    for a, b in links:
        ra, rb = owner.get(a), owner.get(b)
        if ra is not None and rb is not None and ra != rb:
            touching[ra].add(rb)
            touching[rb].add(ra)
    colours: dict[str, str] = {}
    for name in sorted(geometry.regions, key=lambda n: (-len(touching[n]), n)):
        used = {colours[n] for n in touching[name] if n in colours}
        free = [c for c in REGION_COLOURS if c not in used] or list(REGION_COLOURS)
        uses = {c: 0 for c in free}
        for c in colours.values():
            if c in uses:
                uses[c] += 1
        colours[name] = min(free, key=lambda c: uses[c])  # spread the palette: easier to read
    return colours


def _grid_touch(a: str, b: str) -> bool:
    (af, ar), (bf, br) = parse_square(a), parse_square(b)
    return abs(af - bf) + abs(ar - br) == 1


def _parallelogram(geometry: Geometry, cell: str) -> tuple[tuple[float, float],
                                                            tuple[float, float]] | None:
    """Two edge vectors of ``cell``'s drawn shape, from its neighbours on the sensor grid in the
    same region (the cube's faces); None when they cannot be found."""
    owner = region_of(geometry)
    f, r = parse_square(cell)
    x, y = geometry.coords[cell]
    vectors = []
    for df, dr in ((1, 0), (0, 1)):
        found = None
        for sign in (1, -1):
            nf, nr = f + sign * df, r + sign * dr
            if not (0 <= nf < SIZE and 0 <= nr < SIZE):
                continue
            other = f"{FILES[nf]}{nr + 1}"
            if other in geometry.cell_set and owner.get(other) == owner.get(cell):
                ox, oy = geometry.coords[other]
                found = (sign * (ox - x), sign * (oy - y))
                break
        if found is None or math.hypot(*found) < 1e-9:
            return None
        vectors.append(found)
    u, v = vectors
    if abs(u[0] * v[1] - u[1] * v[0]) < 1e-9:
        return None
    return u, v


def _hex_is_pointy(geometry: Geometry) -> bool:
    """Hexagons stand on a corner when neighbours sit side by side in the drawing."""
    unit = _coord_unit(geometry)
    for a, b in lattice_links(geometry):
        if abs(geometry.coords[a][1] - geometry.coords[b][1]) < unit * 0.1:
            return True
    return False


def cell_outline(geometry: Geometry, cell: str, centre: tuple[float, float], pitch: float,
                 pointy: bool = True) -> list[tuple[float, float]] | None:
    """The polygon of ``cell`` centred on its square (None: draw a lattice point instead)."""
    cx, cy = centre
    if geometry.shape == "triangle":
        return None
    if geometry.shape == "hex":
        radius = 0.46 * pitch
        start = -90.0 if pointy else 0.0
        return [(cx + radius * math.cos(math.radians(start + 60 * k)),
                 cy + radius * math.sin(math.radians(start + 60 * k))) for k in range(6)]
    half = pitch / 2
    square = [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
              (cx - half, cy + half)]
    if geometry.shape == "square":
        return square
    basis = _parallelogram(geometry, cell)
    if basis is None:
        return square
    (ux, uy), (vx, vy) = basis
    # Screen y grows downwards: flip the geometry's y, then scale to fit 92% of the square.
    corners = [(-ux / 2 - vx / 2, uy / 2 + vy / 2), (ux / 2 - vx / 2, -uy / 2 + vy / 2),
               (ux / 2 + vx / 2, -uy / 2 - vy / 2), (-ux / 2 + vx / 2, uy / 2 - vy / 2)]
    extent = max(max(abs(px) for px, _ in corners), max(abs(py) for _, py in corners))
    scale = 0.46 * pitch / extent
    return [(cx + px * scale, cy + py * scale) for px, py in corners]


# --- SVG --------------------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate in mm, short and exact enough for a printer (1/1000 mm)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def marked_cells(game: Game) -> tuple[str, ...]:
    """Cells the printed board marks with a black dot (SUDOKU FAMILY's starting cells), as
    the game's geometry names them."""
    return tuple(game.geometry.marked.get("dots", ()))


def clue_squares(geometry: Geometry) -> dict[str, dict[str, object]]:
    """Printed run sums by the square they are printed on: ``{"a1": {"across": 11}}``.

    A clue names its square and direction (``{"sum": 11, "square": "a1", "direction":
    "across"}``); a bare sum (``11`` or ``{"sum": 11}``) goes on the square before its run: left
    of a run along a rank, above a run along a file. A clue with no free square for it is left
    out rather than printed over a cell."""
    result: dict[str, dict[str, object]] = {}
    for house, raw in geometry.clues.items():
        clue: Mapping[str, object] = raw if isinstance(raw, Mapping) else {"sum": raw}
        if "sum" not in clue:
            continue
        square, direction = clue.get("square"), clue.get("direction")
        if not (isinstance(square, str) and direction in ("across", "down")):
            square, direction = _square_before(geometry.houses[house])
        if square is None or square in geometry.cell_set:
            continue
        result.setdefault(square, {})[str(direction)] = clue["sum"]
    return result


def _square_before(cells: Sequence[str]) -> tuple[str | None, str | None]:
    """The square left of a run along a rank, or above a run along a file."""
    places = sorted(parse_square(c) for c in cells)
    if not places:
        return None, None
    if all(r == places[0][1] for _, r in places):
        f, r = places[0]
        return (f"{FILES[f - 1]}{r + 1}" if f > 0 else None), "across"
    if all(f == places[0][0] for f, _ in places):
        f, r = places[-1]
        return (f"{FILES[f]}{r + 2}" if r < SIZE - 1 else None), "down"
    return None, None


def render(game: Game, pitch: float = DEFAULT_PITCH_MM,
           say: Callable[[str], str] = lambda text: text) -> str:
    """The overlay of ``game``'s board as an SVG document in mm at square pitch ``pitch``; its
    printed words in the language of ``say`` (English by default)."""
    if not (isinstance(pitch, int | float) and math.isfinite(pitch) and pitch > 0):
        raise OverlayError(f"the square pitch must be a positive number of mm, got {pitch!r}")
    geometry = game.geometry
    margin = max(MIN_MARGIN_MM, MARGIN_FRACTION * pitch)
    board = SIZE * pitch
    total = board + 2 * margin
    owner = region_of(geometry)
    colours = region_colours(geometry)
    label_size = max(2.0, 0.1 * pitch)
    pointy = _hex_is_pointy(geometry) if geometry.shape == "hex" else True

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(total)}mm" height="{_n(total)}mm" '
        f'viewBox="0 0 {_n(total)} {_n(total)}" data-variant={quoteattr(game.id)} '
        f'data-pitch-mm="{_n(pitch)}">',
        "<title>" + escape(say(N_("{game}: board overlay, {mm} mm squares"))
                           .format(game=game.name, mm=_n(pitch))) + "</title>",
        '<g id="sheet" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        *_title(say(N_("{game} - print at 100 %, trim at the marks to {size} x {size} mm - a1 is "
                       "bottom left")).format(game=game.name, size=_n(board)), margin, board),
    ]

    # The faint outline of all 81 sensor squares, under everything else.
    out.append(f'<g id="sensor-squares" fill="none" stroke="{FAINT}" stroke-width="0.2">')
    for r in range(SIZE):
        for f in range(SIZE):
            x, y = margin + f * pitch, margin + (SIZE - 1 - r) * pitch
            out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(pitch)}" '
                       f'height="{_n(pitch)}"/>')
    out.append("</g>")

    # Kakuro's clue squares: dark, split by a diagonal, the sums in their halves.
    clues = clue_squares(geometry)
    if clues:
        out.append('<g id="clues">')
        for square in sorted(clues):
            sums = clues[square]
            cx, cy = square_centre(square, pitch, margin)
            h = pitch / 2
            out.append(f'<g class="clue" data-square="{square}">')
            out.append(f'<rect x="{_n(cx - h)}" y="{_n(cy - h)}" width="{_n(pitch)}" '
                       f'height="{_n(pitch)}" fill="{CLUE_FILL}"/>')
            out.append(f'<line x1="{_n(cx - h)}" y1="{_n(cy - h)}" x2="{_n(cx + h)}" '
                       f'y2="{_n(cy + h)}" stroke="#ffffff" stroke-width="0.4"/>')
            size = _n(0.28 * pitch)
            if "across" in sums:
                out.append(f'<text class="sum across" x="{_n(cx + 0.22 * pitch)}" '
                           f'y="{_n(cy - 0.05 * pitch)}" font-size="{size}" fill="#ffffff" '
                           f'text-anchor="middle">{escape(str(sums["across"]))}</text>')
            if "down" in sums:
                out.append(f'<text class="sum down" x="{_n(cx - 0.22 * pitch)}" '
                           f'y="{_n(cy + 0.38 * pitch)}" font-size="{size}" fill="#ffffff" '
                           f'text-anchor="middle">{escape(str(sums["down"]))}</text>')
            out.append("</g>")
        out.append("</g>")

    # Boards whose neighbours are not the grid's: faint links between neighbouring squares.
    if geometry.shape in ("hex", "triangle"):
        out.append(f'<g id="links" stroke="{FAINT}" stroke-width="0.5">')
        for a, b in lattice_links(geometry):
            (ax, ay), (bx, by) = (square_centre(a, pitch, margin),
                                  square_centre(b, pitch, margin))
            out.append(f'<line x1="{_n(ax)}" y1="{_n(ay)}" x2="{_n(bx)}" y2="{_n(by)}"/>')
        out.append("</g>")

    dots = frozenset(marked_cells(game))
    out.append('<g id="cells">')
    for cell in geometry.cells:
        centre = square_centre(cell, pitch, margin)
        region = owner.get(cell, "")
        fill = colours.get(region, CELL_FILL)
        outline = cell_outline(geometry, cell, centre, pitch, pointy)
        out.append(f'<g class="cell" data-square="{cell}" data-region={quoteattr(region)}>')
        if outline is None:
            out.append(f'<circle class="shape" cx="{_n(centre[0])}" cy="{_n(centre[1])}" '
                       f'r="{_n(0.42 * pitch)}" fill="{fill}" stroke="{INK}" '
                       f'stroke-width="0.5"/>')
        else:
            out.append(f'<polygon class="shape" points="{_points(outline)}" fill="{fill}" '
                       f'stroke="{INK}" stroke-width="0.3"/>')
        if cell in dots:
            out.append(f'<circle class="dot" cx="{_n(centre[0])}" cy="{_n(centre[1])}" '
                       f'r="{_n(0.08 * pitch)}" fill="{INK}"/>')
        x0, y0 = centre[0] - pitch / 2, centre[1] + pitch / 2
        out.append(f'<text class="label" x="{_n(x0 + 0.06 * pitch)}" '
                   f'y="{_n(y0 - 0.06 * pitch)}" font-size="{_n(label_size)}" '
                   f'fill="{FAINT}">{cell}</text>')
        out.append("</g>")
    out.append("</g>")

    if geometry.shape == "square" and geometry.regions:
        out.append(_region_borders(geometry, owner, pitch, margin))

    # The board's edge and the cut marks in the margin, outside the board.
    out.append(f'<rect id="sensor-grid" x="{_n(margin)}" y="{_n(margin)}" width="{_n(board)}" '
               f'height="{_n(board)}" fill="none" stroke="{INK}" stroke-width="0.3"/>')
    out.append(f'<g id="cut-marks" stroke="{INK}" stroke-width="0.25">')
    gap, length = 1.0, margin * 0.6
    for x in (margin, margin + board):
        for y in (margin, margin + board):
            dx = -1 if x == margin else 1
            dy = -1 if y == margin else 1
            out.append(f'<line x1="{_n(x + dx * gap)}" y1="{_n(y)}" '
                       f'x2="{_n(x + dx * (gap + length))}" y2="{_n(y)}"/>')
            out.append(f'<line x1="{_n(x)}" y1="{_n(y + dy * gap)}" '
                       f'x2="{_n(x)}" y2="{_n(y + dy * (gap + length))}"/>')
    out.append("</g>")
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


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
    return [f'<text x="{_n(margin + TITLE_INDENT_MM)}" y="{_n(first + i * step)}" '
            f'font-size="{_n(size)}" fill="{INK}" class="title">'
            f'{escape(line.replace(GLUE, " "))}</text>' for i, line in enumerate(lines)]


def _region_borders(geometry: Geometry, owner: Mapping[str, str], pitch: float,
                    margin: float) -> str:
    """Thick lines where a square board's region (block, cage) ends."""
    lines = []
    for cell in geometry.cells:
        f, r = parse_square(cell)
        cx, cy = square_centre(cell, pitch, margin)
        h = pitch / 2
        for df, dr, (x1, y1, x2, y2) in (
            (1, 0, (cx + h, cy - h, cx + h, cy + h)),
            (-1, 0, (cx - h, cy - h, cx - h, cy + h)),
            (0, 1, (cx - h, cy - h, cx + h, cy - h)),
            (0, -1, (cx - h, cy + h, cx + h, cy + h)),
        ):
            nf, nr = f + df, r + dr
            other = f"{FILES[nf]}{nr + 1}" if 0 <= nf < SIZE and 0 <= nr < SIZE else None
            if other is not None and other in geometry.cell_set and (
                    owner.get(other) == owner.get(cell)):
                continue
            if other is not None and other in geometry.cell_set and other < cell:
                continue  # a border between two cells is drawn once, from the smaller name
            lines.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"/>')
    return (f'<g id="region-borders" stroke="{INK}" stroke-width="1" stroke-linecap="square">'
            + "".join(lines) + "</g>")


# --- command line -----------------------------------------------------------------------------


def square_pitch(config_path: str | None) -> float:
    """The square pitch in mm from the table's config (``[board] square_mm``)."""
    from .config import load_config

    try:
        return load_config(config_path).board.square_mm
    except ValueError as e:  # ConfigError names the key
        raise OverlayError(str(e)) from None


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


def overlay_svg(variant: str, options: str | None = None, config: str | None = None,
                say: Callable[[str], str] = lambda text: text) -> str:
    """The overlay SVG for a command line's arguments; ``OverlayError`` for bad ones."""
    parsed = parse_options(options)
    try:
        game = new_game(variant, options=parsed)
    except RulesError as e:
        raise OverlayError(str(e)) from None
    return render(game, square_pitch(config), say)


def build_parser() -> argparse.ArgumentParser:
    """The same arguments as ``sudoku-table overlay``."""
    parser = argparse.ArgumentParser(prog="sudoku-table overlay",
                                     description="Print a printable board overlay as SVG.")
    parser.add_argument("variant", help="a variant id (GET /api/variants lists them)")
    parser.add_argument("--options", default=None, help="variant options as JSON")
    parser.add_argument("--config", default=None, help="the table's TOML config (square pitch)")
    parser.add_argument("--paper", choices=("a4", "letter"), default=None,
                        help="tile onto pages of this paper as a PDF (default: one SVG sheet)")
    parser.add_argument("--out", default=None, help="write to this file (default: stdout)")
    return parser


def main(argv: argparse.Namespace | Sequence[str] | None = None,
         say: Callable[[str], str] = lambda text: text) -> int:
    """Print the overlay on stdout: 0, or 2 with one line on stderr for a bad request."""
    args = argv if isinstance(argv, argparse.Namespace) else build_parser().parse_args(argv)
    paper = getattr(args, "paper", None)
    target = getattr(args, "out", None)
    try:
        svg = overlay_svg(args.variant, args.options, args.config, say)
        data: bytes = svg.encode("utf-8")
        if paper is not None:
            from .tiles import TileError, tile_pdf

            try:
                data = tile_pdf(svg, paper, title=f"{args.variant} overlay", say=say)
            except TileError as e:
                raise OverlayError(str(e)) from None
    except OverlayError as e:
        print(f"sudoku-table overlay: {e}", file=sys.stderr)
        return 2
    if target is None:
        if paper is not None and sys.stdout.isatty():
            print("sudoku-table overlay: a PDF goes to a file: add --out FILE.pdf",
                  file=sys.stderr)
            return 2
        sys.stdout.buffer.write(data)
        return 0
    try:
        with open(target, "wb") as f:
            f.write(data)
    except OSError as e:
        print(f"sudoku-table overlay: cannot write {target}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
