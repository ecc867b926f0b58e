"""How a board is drawn: one drawing, made from the geometry, that every medium shows.

The panel (``GET /api/variants/ID``'s ``drawing``, drawn by ``board.js``) and the printed
overlay (``sudoku_table.overlay``) both draw this data and nothing else of the board, so a
board shape is drawn the same way everywhere and a new shape needs this module alone.

Positions are in square units with y growing downwards (a geometry's ``coords`` with y turned
over), so they are ready for SVG: a square board's cell ``c4`` is centred at ``(2, -3)``, one
unit wide. What the drawing holds:

- every cell's centre ``at``, its ``outline`` (a polygon: squares, hexagons, the cube faces'
  parallelograms) or, on a lattice of points (SUDOKU FAMILY), a circle ``radius``; the
  ``region`` it is coloured by (the first listed when regions overlap) and that region's
  ``colour``, an index into a palette of ``PALETTE_SIZE`` colours chosen so that touching
  regions differ (each medium has its own palette: dark on the phone, light on paper);
- ``borders``: the thick lines where a region ends (square boards: along the squares' sides,
  the board's edge included; hex boards: the side two hexagons of two regions share);
- ``links``: pairs of cells that are neighbours on a board whose neighbours are not the sensor
  grid's (hexagons, triangle lattice);
- ``clues``: the printed run sums (Kakuro) on the squares before their runs;
- ``dots``: cells printed with a black dot (SUDOKU FAMILY's starting cells);
- ``region_numbers``: where a few numbered regions ("triangle 1".."triangle 6") carry their
  number, between the cells;
- ``coordinates``: on square boards, the file letters and rank numbers along the edges; on
  other boards each cell's name (``name_at``);
- ``box``: the area the drawing spans (x, y, width, height), and on square boards ``ground``,
  the dark rectangle under the cells (Kakuro's squares that are not cells).

The paper overlay lays every cell on its own sensor square, so it draws each cell's outline
around that square's centre; the panel draws the board as the rule book shows it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .geometry import Geometry
from .squares import FILES, SIZE, parse_square

PALETTE_SIZE = 8
"""How many region colours each medium has; a region's ``colour`` is an index below this."""

Point = tuple[float, float]
Segment = tuple[float, float, float, float]

SQUARE_PAD = 0.52
"""The drawing's margin around the outer cells of a square board (edge to edge)."""
OTHER_PAD = 0.8
"""The margin around the outer cells of other boards (their shapes reach further)."""
EDGE = 0.05
"""The least margin between an outline's corner and the drawing's edge."""
HEX_FILL = 0.98
"""Hexagons fill this share of the space to their neighbours (a hair of gap between)."""
POINT_RADIUS = 0.44
"""A lattice point's circle, as a share of the distance between neighbours."""


@dataclass(frozen=True, slots=True)
class CellDrawing:
    """One cell: its centre, its shape and its colour."""

    cell: str
    at: Point
    outline: tuple[Point, ...] | None
    """The polygon around ``at``; None for a lattice point (drawn as a circle of ``radius``)."""
    radius: float
    """Half the cell's width (a lattice point's circle)."""
    region: str | None
    colour: int | None
    name_at: Point | None
    """Where the cell's name is printed (boards other than square), else None."""


@dataclass(frozen=True, slots=True)
class Clue:
    """Printed run sums on a square that is not a cell (Kakuro): ``across`` top right,
    ``down`` bottom left, as in a Kakuro grid."""

    square: str
    at: Point
    across: str | None
    down: str | None


@dataclass(frozen=True, slots=True)
class Label:
    """A short printed text (a region's number, a file letter, a rank number) and its place."""

    text: str
    at: Point
    kind: str
    """``region``, ``file`` or ``rank``."""
    of: str
    """What it names: the region, the file's letter or the rank's number."""


@dataclass(frozen=True, slots=True)
class Drawing:
    """A board as drawn (see the module's docstring)."""

    shape: str
    unit: float
    box: tuple[float, float, float, float]
    ground: tuple[float, float, float, float] | None
    cells: tuple[CellDrawing, ...]
    borders: tuple[Segment, ...]
    links: tuple[tuple[str, str], ...]
    clues: tuple[Clue, ...]
    dots: tuple[str, ...]
    region_numbers: tuple[Label, ...]
    coordinates: tuple[Label, ...]

    def to_json(self) -> dict[str, Any]:
        """The drawing as ``GET /api/variants/ID`` shows it (numbers to 1/10000 of a unit)."""
        def label(item: Label) -> dict[str, Any]:
            return {"text": item.text, "at": _p(item.at), "kind": item.kind, "of": item.of}

        return {
            "shape": self.shape,
            "unit": _r(self.unit),
            "palette_size": PALETTE_SIZE,
            "box": [_r(v) for v in self.box],
            "ground": None if self.ground is None else [_r(v) for v in self.ground],
            "cells": [{
                "cell": c.cell, "at": _p(c.at),
                "outline": None if c.outline is None else [_p(p) for p in c.outline],
                "radius": _r(c.radius), "region": c.region, "colour": c.colour,
                "name_at": None if c.name_at is None else _p(c.name_at),
            } for c in self.cells],
            "borders": [[_r(v) for v in s] for s in self.borders],
            "links": [list(pair) for pair in self.links],
            "clues": [{"square": c.square, "at": _p(c.at), "across": c.across, "down": c.down}
                      for c in self.clues],
            "dots": list(self.dots),
            "region_numbers": [label(n) for n in self.region_numbers],
            "coordinates": [label(n) for n in self.coordinates],
        }


def _r(value: float) -> float:
    rounded = round(value, 4)
    return 0.0 if rounded == 0 else rounded


def _p(point: Point) -> list[float]:
    return [_r(point[0]), _r(point[1])]


# --- what the geometry says -------------------------------------------------------------------


def region_of(geometry: Geometry) -> dict[str, str]:
    """Each cell's region (the first listed when a board's regions overlap)."""
    result: dict[str, str] = {}
    for name, cells in geometry.regions.items():
        for cell in cells:
            result.setdefault(cell, name)
    return result


def positions(geometry: Geometry) -> dict[str, Point]:
    """Each cell's centre in the drawing (the geometry's coords, y turned downwards)."""
    return {c: (float(geometry.coords[c][0]), -float(geometry.coords[c][1]))
            for c in geometry.cells}


def unit_of(geometry: Geometry) -> float:
    """The distance between neighbouring cells' centres (1 on square boards)."""
    if geometry.shape == "square":
        return 1.0
    points = [geometry.coords[c] for c in geometry.cells]
    best = math.inf
    for i, (ax, ay) in enumerate(points):
        for bx, by in points[i + 1:]:
            d = math.hypot(ax - bx, ay - by)
            if 1e-9 < d < best:
                best = d
    return best if math.isfinite(best) else 1.0


def lattice_links(geometry: Geometry) -> list[tuple[str, str]]:
    """Pairs of cells that are neighbours on the drawn board (centres one unit apart)."""
    unit = unit_of(geometry)
    pos = positions(geometry)
    cells = list(geometry.cells)
    links = []
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if abs(math.dist(pos[a], pos[b]) - unit) < unit * 0.05:
                links.append((a, b))
    return links


def marked_cells(game: Any) -> tuple[str, ...]:
    """Cells the board marks with a black dot (SUDOKU FAMILY's starting cells), as the game's
    geometry names them."""
    return tuple(game.geometry.marked.get("dots", ()))


def region_colours(geometry: Geometry, links: Sequence[tuple[str, str]] = ()) -> dict[str, int]:
    """A palette index per region, taken in the order of their names. A few regions (faces,
    triangles: no more than the palette) each get their own, as on the printed boards; more
    (blocks, cages) each get the first index no region it touches (on the sensor grid or on the
    drawn board) has yet, so touching regions differ and a grid of blocks is a calm
    checkerboard."""
    names = sorted(geometry.regions)
    if len(names) <= PALETTE_SIZE:
        return {name: i for i, name in enumerate(names)}
    owner = region_of(geometry)
    touching: dict[str, set[str]] = {name: set() for name in names}
    pairs = [(a, b) for a in geometry.cells for b in geometry.cells
             if a < b and _grid_touch(a, b)]
    for a, b in [*pairs, *links]:
        ra, rb = owner.get(a), owner.get(b)
        if ra is not None and rb is not None and ra != rb:
            touching[ra].add(rb)
            touching[rb].add(ra)
    colours: dict[str, int] = {}
    for name in names:
        used = {colours[n] for n in touching[name] if n in colours}
        colours[name] = next((c for c in range(PALETTE_SIZE) if c not in used), 0)
    return colours


def _grid_touch(a: str, b: str) -> bool:
    (af, ar), (bf, br) = parse_square(a), parse_square(b)
    return abs(af - bf) + abs(ar - br) == 1


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


def _square_at(square: str) -> Point:
    """The centre of a sensor square on a square board's drawing."""
    f, r = parse_square(square)
    return float(f), -float(r)


# --- shapes -----------------------------------------------------------------------------------


def _square(at: Point, half: float) -> tuple[Point, ...]:
    x, y = at
    return (x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)


def _is_pointy(pos: Mapping[str, Point], unit: float) -> bool:
    """Hexagons stand on a corner when neighbours sit side by side."""
    points = list(pos.values())
    return any(abs(a[1] - b[1]) < unit * 0.1 and abs(abs(a[0] - b[0]) - unit) < unit * 0.1
               for i, a in enumerate(points) for b in points[i + 1:])


def _hexagon(at: Point, unit: float, pointy: bool) -> tuple[Point, ...]:
    radius = unit / math.sqrt(3) * HEX_FILL
    start = -90.0 if pointy else 0.0
    return tuple((at[0] + radius * math.cos(math.radians(start + 60 * k)),
                  at[1] + radius * math.sin(math.radians(start + 60 * k))) for k in range(6))


def _grid_basis(cell: str, pos: Mapping[str, Point],
                owner: Mapping[str, str]) -> tuple[Point, Point] | None:
    """The drawn steps to ``cell``'s neighbours along its file and its rank on the sensor grid,
    in its own region (a cube face's two edges); None when it has no such pair."""
    f, r = parse_square(cell)
    steps = []
    for df, dr in ((1, 0), (0, 1)):
        found = None
        for sign in (1, -1):
            nf, nr = f + sign * df, r + sign * dr
            other = f"{FILES[nf]}{nr + 1}" if 0 <= nf < SIZE and 0 <= nr < SIZE else ""
            if other in pos and owner.get(other) == owner.get(cell):
                found = (sign * (pos[other][0] - pos[cell][0]),
                         sign * (pos[other][1] - pos[cell][1]))
                break
        if found is None or math.hypot(*found) < 1e-9:
            return None
        steps.append(found)
    u, v = steps
    return None if abs(u[0] * v[1] - u[1] * v[0]) < 1e-9 else (u, v)


def _parallelogram(at: Point, basis: tuple[Point, Point]) -> tuple[Point, ...]:
    (ux, uy), (vx, vy) = basis
    x, y = at
    return ((x - (ux + vx) / 2, y - (uy + vy) / 2), (x + (ux - vx) / 2, y + (uy - vy) / 2),
            (x + (ux + vx) / 2, y + (uy + vy) / 2), (x - (ux - vx) / 2, y - (uy - vy) / 2))


def _outlines(geometry: Geometry, pos: Mapping[str, Point], unit: float,
              owner: Mapping[str, str]) -> dict[str, tuple[Point, ...] | None]:
    shape = geometry.shape
    if shape == "square":
        return {c: _square(pos[c], 0.5) for c in geometry.cells}
    if shape == "triangle":
        return dict.fromkeys(geometry.cells)
    if shape == "hex":
        pointy = _is_pointy(pos, unit)
        return {c: _hexagon(pos[c], unit, pointy) for c in geometry.cells}
    # Any other shape (the cube's faces): a parallelogram per cell, its sides the steps to its
    # neighbours on the sensor grid in its region (a cell without both takes its region's).
    bases = {c: _grid_basis(c, pos, owner) for c in geometry.cells}
    of_region: dict[str | None, tuple[Point, Point]] = {}
    for cell, basis in bases.items():
        if basis is not None:
            of_region.setdefault(owner.get(cell), basis)
    result: dict[str, tuple[Point, ...] | None] = {}
    for cell in geometry.cells:
        basis = bases[cell] or of_region.get(owner.get(cell))
        result[cell] = _square(pos[cell], unit / 2) if basis is None else _parallelogram(
            pos[cell], basis)
    return result


# --- lines and labels -------------------------------------------------------------------------


def _square_borders(geometry: Geometry, pos: Mapping[str, Point],
                    owner: Mapping[str, str]) -> list[Segment]:
    """Square boards: each side of a cell where its region ends (once per side)."""
    at = {(round(x), round(y)): c for c, (x, y) in pos.items()}
    lines: list[Segment] = []
    for cell in geometry.cells:
        x, y = pos[cell]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            other = at.get((round(x) + dx, round(y) + dy))
            if other is not None and (owner.get(other) == owner.get(cell) or other < cell):
                continue  # inside a region, or drawn from the other cell's side
            if dx:
                lines.append((x + dx / 2, y - 0.5, x + dx / 2, y + 0.5))
            else:
                lines.append((x - 0.5, y + dy / 2, x + 0.5, y + dy / 2))
    return lines


def _hex_borders(links: Sequence[tuple[str, str]], pos: Mapping[str, Point], unit: float,
                 owner: Mapping[str, str]) -> list[Segment]:
    """Hex boards: the side two hexagons of two regions share, halfway between their
    centres, across the line joining them."""
    side = unit / math.sqrt(3)
    lines: list[Segment] = []
    for a, b in links:
        if owner.get(a) == owner.get(b):
            continue
        dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
        d = math.hypot(dx, dy)
        mx, my = (pos[a][0] + pos[b][0]) / 2, (pos[a][1] + pos[b][1]) / 2
        px, py = -dy / d * side / 2, dx / d * side / 2
        lines.append((mx - px, my - py, mx + px, my + py))
    return lines


NUMBERED = re.compile(r"\s(\d+)$")


def _region_numbers(geometry: Geometry, pos: Mapping[str, Point], unit: float) -> list[Label]:
    """A few numbered regions ("triangle 1".."triangle 6") carry their number at the region's
    middle, when that falls between its cells. All of them or none: a board where one middle
    would cover a cell keeps its regions unnumbered rather than numbering some."""
    regions = list(geometry.regions.items())
    if not regions or len(regions) > PALETTE_SIZE:
        return []
    labels = []
    points = list(pos.values())
    for name, cells in regions:
        number = NUMBERED.search(name)
        if number is None or not cells:
            return []
        cx = sum(pos[c][0] for c in cells) / len(cells)
        cy = sum(pos[c][1] for c in cells) / len(cells)
        if min(math.dist(p, (cx, cy)) for p in points) < unit * 0.5:
            return []
        # Near the middle, the point farthest from every cell and every cell's name (printed
        # below it), so the number covers neither.
        best, spot = -math.inf, (cx, cy)
        for dx in (0, -0.15, 0.15, -0.3, 0.3):
            for dy in (0, -0.15, 0.15, -0.3, 0.3):
                px, py = cx + dx * unit, cy + dy * unit
                room = min(min(math.dist(p, (px, py)) - unit * 0.44,
                               math.dist((p[0], p[1] + unit * 0.43), (px, py)) - unit * 0.2)
                           for p in points)
                if room > best + unit * 0.01:
                    best, spot = room, (px, py)
        labels.append(Label(number.group(1), spot, "region", name))
    return labels


def _square_coordinates(xs: Sequence[float], ys: Sequence[float]) -> list[Label]:
    """Square boards: every file's letter along the bottom edge and every rank's number along
    the left edge of the drawn area, inside the outer squares' corners."""
    file_low, file_high = round(min(xs)), round(max(xs))
    rank_low, rank_high = round(-max(ys)), round(-min(ys))
    labels = [Label(FILES[f], (f + 0.36, -rank_low + 0.34), "file", FILES[f])
              for f in range(file_low, file_high + 1)]
    labels += [Label(str(r + 1), (file_low - 0.38, -r - 0.3), "rank", str(r + 1))
               for r in range(rank_low, rank_high + 1)]
    return labels


# --- the drawing ------------------------------------------------------------------------------


def drawing(geometry: Geometry) -> Drawing:
    """The board of ``geometry`` as drawn."""
    pos = positions(geometry)
    unit = unit_of(geometry)
    owner = region_of(geometry)
    links = lattice_links(geometry) if geometry.shape in ("hex", "triangle") else []
    colours = region_colours(geometry, links)
    outlines = _outlines(geometry, pos, unit, owner)
    square = geometry.shape == "square"
    radius = unit * (POINT_RADIUS if geometry.shape == "triangle" else 0.5)
    cells = tuple(CellDrawing(
        cell=c, at=pos[c], outline=outlines[c], radius=radius, region=owner.get(c),
        colour=colours.get(owner[c]) if c in owner else None,
        name_at=None if square else (pos[c][0], pos[c][1] + unit * 0.43),
    ) for c in geometry.cells)

    clues = tuple(Clue(square=s, at=_square_at(s),
                       across=None if "across" not in sums else str(sums["across"]),
                       down=None if "down" not in sums else str(sums["down"]))
                  for s, sums in sorted(clue_squares(geometry).items()))
    xs = [p[0] for p in pos.values()] + [c.at[0] for c in clues]
    ys = [p[1] for p in pos.values()] + [c.at[1] for c in clues]
    pad = unit * (SQUARE_PAD if square else OTHER_PAD)
    # Around the centres, and around every outline where one reaches further (a cube's corner;
    # square boards run edge to edge, their coordinates printed inside the squares).
    corners = [] if square else [p for c in cells for p in c.outline or ()]
    low_x = min([x - pad for x in xs] + [x - EDGE * unit for x, _ in corners])
    low_y = min([y - pad for y in ys] + [y - EDGE * unit for _, y in corners])
    high_x = max([x + pad for x in xs] + [x + EDGE * unit for x, _ in corners])
    high_y = max([y + pad for y in ys] + [y + EDGE * unit for _, y in corners])
    box = (low_x, low_y, high_x - low_x, high_y - low_y)

    borders: list[Segment] = []
    if geometry.regions and square:
        borders = _square_borders(geometry, pos, owner)
    elif geometry.regions and geometry.shape == "hex":
        borders = _hex_borders(links, pos, unit, owner)
    return Drawing(
        shape=geometry.shape, unit=unit, box=box,
        ground=(min(xs) - 0.5, min(ys) - 0.5, max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        if square else None,
        cells=cells, borders=tuple(borders), links=tuple(links), clues=clues,
        dots=tuple(c for c in geometry.marked.get("dots", ()) if c in pos),
        region_numbers=tuple(_region_numbers(geometry, pos, unit)),
        coordinates=tuple(_square_coordinates(xs, ys)) if square else (),
    )
