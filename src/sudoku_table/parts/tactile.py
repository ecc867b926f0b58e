"""Parts to feel: a tactile overlay per game board and number tiles, as closed printed solids.

The overlay is a lattice laid on the board (on the paper overlay, or on the bare top sheet):
a ridge along every side of every sensor square, so a finger finds each square, and an open
window over each playable square, so the LEDs shine through and a tile stands on the sheet
itself, no higher than any other piece. What the printed overlay shows in colour is felt in
the ridges' height: a tall ridge where a block or region ends (the board's edge too), a low
one between squares of one region, a row of beads on the low ridge where a cage ends (the
printed board's dashed line). A square that is no cell of the board (Kakuro's clue squares,
the squares a hexagon or triangle board leaves empty) is closed by a plate: nothing to put
there. A frame around the board carries the coordinates in braille: the files a-i along the
near and far edges, the ranks 1-9 along the left and right, those on the far and the right
edge turned half round for a player sitting opposite.

A number tile carries its numeral raised (for eyes that see a little) above the same number in
braille, and from below a pocket for the piece's magnet, which is glued in flush as in every
other piece. Where a game's seats own their pieces (the DOMINARI games' white and black), each
seat after the first has that many notches in the tile's front edge, under the braille.

The stack: a tile's magnet lies on the sheet the pieces stand on, never on the overlay, so the
overlay adds nothing to the magnet-to-reed distance; :func:`estimate` says so from the same
formulas the guide's figures come from, and refuses a tile its window lets stray too far off
the square's centre.

Coordinates: mm, ``x`` to the right from the left edge of file a, ``y`` away from the player at
rank 1 from the near edge of rank 1, ``z`` up from the sheet.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_table.firmware.layout import FILES, SIZE

from . import braille, mesh, stack
from .board import PartsError
from .config import BuildConfig
from .spacer import BED_MARGIN_MM, Tile, chunks

RIDGE_MM = 2.0
"""A ridge's width, centred on a square's side."""
LOW_MM = 1.2
"""A ridge between squares of one region."""
HIGH_MM = 2.4
"""A ridge where a region (block, jigsaw region, face, triangle) or the board ends: twice the
low one, so the two are told apart by touch at once."""
BEAD_MM = 2.4
"""A cage border's beads: their diameter, and how high they stand above the sheet."""
BEAD_SPACING_MM = 5.0
FRAME_MM = 1.6
"""The frame around the board, under its braille."""
RIM_MM = 12.0
"""The frame's width outside the board: two braille cells' height and room around them."""
TILE_CLEARANCE_MM = 1.0
"""Between a tile and its window's ridges, on each side."""
TILE_BASE_MM = 3.2
"""A tile's body: the magnet's pocket and a floor above it."""
WINDOW_FLOOR_MM = 0.0
"""The windows over the playable squares are open: a tile stands on the sheet itself."""
POCKET_FLOOR_MM = 0.0
"""The magnet's pocket opens at the tile's underside: the magnet is glued in flush."""
MAGNET_PLAY_MM = 0.2
"""Added to the magnet's diameter and thickness for its pocket (printed holes come out
small)."""
NUMERAL_MM = 1.0
"""How high the raised numeral stands on the tile."""
NUMERAL_GAP_MM = 3.0
"""Between the braille line and the numeral above it: room for a fingertip to tell them
apart."""
NOTCH_MM = 2.0
"""A seat's notch: its depth into the front edge, and half its width."""
NOTCH_SPACING_MM = 5.0

LOW, HIGH, CAGE = "low", "high", "cage"
COORDINATES = tuple(FILES) + tuple(str(r) for r in range(1, SIZE + 1))
"""The braille labels of the frame: the file letters and the rank numbers."""


# --- the board as squares and sides ---------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a sensor square on the overlay, and the ridge it carries (``low``, ``high``
    or ``cage``). Square indices: ``x``/``y`` of its lower left end, ``across`` when it runs
    along a rank (from x to x + 1)."""

    x: int
    y: int
    across: bool
    kind: str


@dataclass(frozen=True)
class Plan:
    """What the overlay of one board is made of, in square indices."""

    variant: str
    cells: frozenset[tuple[int, int]]
    """The playable squares (file index, rank index): open windows."""
    sides: tuple[Side, ...]


def _areas(geometry: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Each cell's region (blocks, jigsaw regions, faces, triangles) and cage, by name."""
    region: dict[str, str] = {}
    cage: dict[str, str] = {}
    named = [(name, cells) for name, cells in geometry.houses.items()
             if name.split(" ")[0] in ("block", "region")]
    named += list(geometry.regions.items())
    for name, cells in named:
        into = cage if name.startswith("cage") else region
        for cell in cells:
            into.setdefault(cell, name)
    return region, cage


def plan(game: Any) -> Plan:
    """The overlay's plan from a game's board: which squares are windows and which ridge each
    square's side carries."""
    geometry = game.geometry
    region, cage = _areas(geometry)
    at = {(FILES.index(c[0]), int(c[1:]) - 1): c for c in geometry.cells}
    sides = []
    for x in range(SIZE + 1):
        for y in range(SIZE + 1):
            if x < SIZE:
                sides.append(Side(x, y, True, _kind(at.get((x, y - 1)), at.get((x, y)),
                                                    region, cage)))
            if y < SIZE:
                sides.append(Side(x, y, False, _kind(at.get((x - 1, y)), at.get((x, y)),
                                                     region, cage)))
    return Plan(game.id, frozenset(at), tuple(sides))


def _kind(a: str | None, b: str | None, region: Mapping[str, str],
          cage: Mapping[str, str]) -> str:
    """The ridge between two neighbouring squares' cells (None: no cell there)."""
    if a is None or b is None:
        return LOW if a is None and b is None else HIGH
    if region.get(a) != region.get(b):
        return HIGH
    if cage.get(a) != cage.get(b):
        return CAGE
    return LOW


# --- the overlay's solid --------------------------------------------------------------------


def check_rim(build: BuildConfig) -> None:
    """``PartsError`` unless the braille frame fits on the top sheet's rim."""
    if build.border_mm < RIM_MM:
        raise PartsError(f"the tactile overlay's braille frame needs a {RIM_MM:g} mm rim around "
                         f"the squares; build.border_mm is {build.border_mm:g}")


def overlay_solid(board: Plan, labels: Mapping[str, Sequence[braille.Cell]], pitch: float,
                  build: BuildConfig) -> mesh.Solid:
    """The whole overlay as one closed solid, lying on the sheet (z = 0)."""
    check_rim(build)
    side = SIZE * pitch
    frame = [(-RIM_MM, -RIM_MM, side + RIM_MM, 0), (-RIM_MM, side, side + RIM_MM, side + RIM_MM),
             (-RIM_MM, 0, 0, side), (side, 0, side + RIM_MM, side)]
    closed = [(x * pitch, y * pitch, (x + 1) * pitch, (y + 1) * pitch)
              for x in range(SIZE) for y in range(SIZE) if (x, y) not in board.cells]
    ridges = [_ridge(s, pitch) for s in board.sides]
    high = [r for s, r in zip(board.sides, ridges, strict=True) if s.kind == HIGH]
    parts = [mesh.flat_union(frame, 0, FRAME_MM),
             mesh.flat_union([*ridges, *closed], 0, LOW_MM),
             mesh.flat_union(high, 0, HIGH_MM)]  # the board's edge, at least
    if WINDOW_FLOOR_MM > 0:
        parts.append(mesh.flat_union([(0, 0, side, side)], 0, WINDOW_FLOOR_MM))
    parts += [mesh.dome(x, y, LOW_MM, BEAD_MM, BEAD_MM - LOW_MM, 8)
              for s in board.sides if s.kind == CAGE for x, y in bead_centres(s, pitch)]
    parts += [_dot(d, FRAME_MM) for d in frame_dots(labels, pitch)]
    return mesh.union(parts)


def _ridge(s: Side, pitch: float) -> tuple[float, float, float, float]:
    """A ridge's footprint along one side, over the corners at its ends."""
    half = RIDGE_MM / 2
    x, y = s.x * pitch, s.y * pitch
    if s.across:
        return x - half, y - half, x + pitch + half, y + half
    return x - half, y - half, x + half, y + pitch + half


def bead_centres(s: Side, pitch: float) -> list[tuple[float, float]]:
    """Where the beads of a cage border stand along its side, evenly from end to end."""
    count = max(2, round(pitch / BEAD_SPACING_MM))
    step = pitch / count
    along = [(k + 0.5) * step for k in range(count)]
    x, y = s.x * pitch, s.y * pitch
    return [(x + a, y) if s.across else (x, y + a) for a in along]


def _dot(d: braille.Dot, base: float) -> mesh.Solid:
    return mesh.dome(d.x, d.y, base, braille.DOT_MM, braille.DOT_HEIGHT_MM)


@dataclass(frozen=True)
class Label:
    """One braille coordinate on the frame: its text and the centre of its line."""

    text: str
    x: float
    y: float
    turned: bool


def frame_labels(pitch: float) -> list[Label]:
    """Each file letter under and over its file, each rank number left and right of its rank;
    the far and the right ones turned for the player opposite."""
    side, middle = SIZE * pitch, RIM_MM / 2
    out = []
    for i, f in enumerate(FILES):
        x = (i + 0.5) * pitch
        out += [Label(f, x, -middle, False), Label(f, x, side + middle, True)]
    for r in range(SIZE):
        y = (r + 0.5) * pitch
        out += [Label(str(r + 1), -middle, y, False), Label(str(r + 1), side + middle, y, True)]
    return out


def frame_dots(labels: Mapping[str, Sequence[braille.Cell]], pitch: float) -> list[braille.Dot]:
    """Every raised dot of the frame's coordinates; ``PartsError`` for a label that is missing
    or does not fit the rim."""
    out = []
    for label in frame_labels(pitch):
        cells = labels.get(label.text)
        if not cells:
            raise PartsError(f"no braille for the coordinate {label.text!r}")
        if braille.label_width(len(cells)) > min(RIM_MM, pitch) - 1.0:
            raise PartsError(f"the braille of {label.text!r} ({len(cells)} cells) is wider "
                             f"than the frame's {min(RIM_MM, pitch):g} mm")
        out += braille.dots(cells, (label.x, label.y), label.turned)
    return out


# --- cut to fit the printer's bed -----------------------------------------------------------


Piece = Tile
"""One printed piece of the overlay: a block of squares as the spacer grid's tiles are, the
frame's part along its outer edges included (``piece_extent``)."""


def piece_extent(piece: Piece, pitch: float) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of a piece; a seam runs along the middle of a ridge."""
    def edge(k: int) -> float:
        return -RIM_MM if k == 0 else SIZE * pitch + RIM_MM if k == SIZE else k * pitch
    return edge(piece.f0), edge(piece.r0), edge(piece.f1), edge(piece.r1)


def pieces(pitch: float, build: BuildConfig) -> list[Piece]:
    """The fewest pieces per side whose largest fits the bed, row by row from a1."""
    room = build.print_bed_mm - BED_MARGIN_MM
    for count in range(1, SIZE + 1):
        largest = math.ceil(SIZE / count) * pitch + (2 if count == 1 else 1) * RIM_MM
        if largest <= room:
            runs = chunks(SIZE, count)
            return [Piece(f0, f1, r0, r1) for r0, r1 in runs for f0, f1 in runs]
    raise PartsError(f"a {build.print_bed_mm:g} mm bed cannot print one {pitch:g} mm square "
                     "of the tactile overlay")


def piece_solid(whole: mesh.Solid, piece: Piece, pitch: float) -> mesh.Solid:
    """The part of the whole overlay that one piece prints."""
    x0, y0, x1, y1 = piece_extent(piece, pitch)
    return whole ^ mesh.box(x0, y0, -1, x1, y1, HIGH_MM + BEAD_MM + 1)


# --- number tiles ---------------------------------------------------------------------------


def tile_side(pitch: float, build: BuildConfig) -> float:
    """A tile's side: its window less the play on each side, so that the window centres the
    tile (and its magnet) on the square and a hand finds its place at once."""
    del build  # the same for every stack: the window decides
    return pitch - RIDGE_MM - 2 * TILE_CLEARANCE_MM


def tile_height(build: BuildConfig) -> float:
    """The tile's body, at least the magnet's pocket and a floor of 1 mm over it."""
    return max(TILE_BASE_MM,
               POCKET_FLOOR_MM + build.magnet_thickness_mm + MAGNET_PLAY_MM + 1.0)


def check_tile(pitch: float, build: BuildConfig, cells: int) -> None:
    """``PartsError`` unless a tile holds its magnet and its braille line."""
    side = tile_side(pitch, build)
    need = max(build.magnet_diameter_mm + MAGNET_PLAY_MM + 4.0, braille.label_width(cells) + 4.0)
    if side < need:
        raise PartsError(f"a {side:g} mm tile is too small for its magnet and braille "
                         f"({need:g} mm): raise [board] square_mm")


def tile_solid(number: int | None, cells: Sequence[braille.Cell], seat: int, pitch: float,
               build: BuildConfig) -> mesh.Solid:
    """A number tile lying on its underside, its front edge (the braille's) towards y = 0, its
    lower left corner at the origin; ``seat`` 0 has no notch, seat ``k`` has ``k``. A blank
    (``number`` None, no cells) is smooth on top."""
    check_tile(pitch, build, len(cells))
    s, base = tile_side(pitch, build), tile_height(build)
    body = mesh.box(0, 0, 0, s, s, base)
    bottom = POCKET_FLOOR_MM if POCKET_FLOOR_MM > 0 else -1.0
    pocket = mesh.cylinder(s / 2, s / 2, bottom,
                           POCKET_FLOOR_MM + build.magnet_thickness_mm + MAGNET_PLAY_MM,
                           build.magnet_diameter_mm + MAGNET_PLAY_MM)
    notches = [_notch(x, NOTCH_MM, base) for x in notch_centres(seat, s)]
    raised = [] if number is None else [_numeral(number, s, base)]
    raised += [_dot(d, base) for d in tile_dots(cells, s)]
    return mesh.union([mesh.subtract(body, [pocket, *notches]), *raised])


def braille_centre(side: float) -> tuple[float, float]:
    """Where a tile's braille line is centred: across the middle, near the front edge."""
    return side / 2, NOTCH_MM + 1.0 + braille.CELL_HEIGHT_MM / 2


def tile_dots(cells: Sequence[braille.Cell], side: float) -> list[braille.Dot]:
    return braille.dots(cells, braille_centre(side))


def notch_centres(seat: int, side: float) -> list[float]:
    """The notches' places along the front edge, centred."""
    start = side / 2 - (seat - 1) * NOTCH_SPACING_MM / 2
    return [start + k * NOTCH_SPACING_MM for k in range(seat)]


def _notch(x: float, depth: float, height: float) -> mesh.Solid:
    """A V cut into the front edge at ``x``, through the tile's body."""
    return mesh.extrude([(x - depth, -0.01), (x + depth, -0.01), (x, depth)], -1, height + 1)


def numeral_area(side: float) -> tuple[float, float, float, float]:
    """The box the raised numeral fills (x0, y0, x1, y1): above the braille line."""
    top_of_braille = braille_centre(side)[1] + braille.CELL_HEIGHT_MM / 2
    margin = 0.12 * side
    return margin, top_of_braille + NUMERAL_GAP_MM, side - margin, side - margin


def _numeral(number: int, side: float, base: float) -> mesh.Solid:
    """The digits of ``number``, bold, scaled into :func:`numeral_area` and raised."""
    polygons = glyph_polygons(str(number))
    xs = [x for poly in polygons for x, _ in poly]
    ys = [y for poly in polygons for _, y in poly]
    x0, y0, x1, y1 = numeral_area(side)
    scale = min((x1 - x0) / (max(xs) - min(xs)), (y1 - y0) / (max(ys) - min(ys)))
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    placed = [[((x - cx) * scale + (x0 + x1) / 2, (y - cy) * scale + (y0 + y1) / 2)
               for x, y in poly] for poly in polygons]
    return mesh.extrude(placed[0], base - 0.01, base + NUMERAL_MM, holes=placed[1:])


def glyph_polygons(text: str) -> list[list[tuple[float, float]]]:
    """The outlines of ``text`` in matplotlib's own DejaVu Sans Bold (the same on every
    machine), outer outlines and holes alike (the solid is filled even-odd)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    path = TextPath((0, 0), text, size=10, prop=FontProperties(family="DejaVu Sans",
                                                               weight="bold"))
    polygons: list[Any] = path.to_polygons()
    return [[(float(x), float(y)) for x, y in poly[:-1]] for poly in polygons if len(poly) > 3]


@dataclass(frozen=True)
class TileSet:
    """The tiles a game is played with: its numbers, and per seat when seats own pieces."""

    numbers: tuple[int, int]
    seat: int
    seat_name: str
    """Empty when nobody owns the pieces."""
    blanks: bool = False
    """The game also lays blank pieces (the DOMINARI games on dead fields)."""

    @property
    def name(self) -> str:
        low, high = self.numbers
        return f"{low}-{high}" + (f"-{self.seat_name.lower()}" if self.seat_name else "")


def tile_sets(game: Any) -> list[TileSet]:
    """One set per seat when the game's seats are told apart by their pieces, else one."""
    low, high = game.geometry.numbers
    labels, blanks = tuple(game.player_labels), bool(game.has_blanks)
    if not labels:
        return [TileSet((low, high), 0, "", blanks)]
    return [TileSet((low, high), seat, name, blanks) for seat, name in enumerate(labels)]


def merged_sets(sets: Iterable[TileSet]) -> list[TileSet]:
    """One set per name, with blanks when any game that uses it lays them."""
    merged: dict[str, TileSet] = {}
    for tile_set in sets:
        before = merged.get(tile_set.name)
        if before is not None and before.blanks:
            continue
        merged[tile_set.name] = tile_set
    return list(merged.values())


def tile_labels(sets: Iterable[TileSet]) -> list[str]:
    """The numbers whose braille the tiles of ``sets`` carry."""
    return sorted({str(n) for s in sets for n in range(s.numbers[0], s.numbers[1] + 1)}, key=int)


# --- the stack ------------------------------------------------------------------------------


def magnet_rise() -> float:
    """How much higher than the sheet a tile's magnet lies on the tactile overlay: the window's
    floor (none: open) and the floor of the tile's pocket (none: it opens underneath)."""
    return WINDOW_FLOOR_MM + POCKET_FLOOR_MM


def estimate(pitch: float, build: BuildConfig) -> stack.Estimate:
    """The field estimate for a tile on the tactile overlay: its magnet :func:`magnet_rise`
    above the sheet the pieces stand on, and its window keeping it at most half the play
    between tile and ridges off the square's centre."""
    stray = pitch - RIDGE_MM - tile_side(pitch, build)
    tactile = build.model_copy(update={"piece_mm": pitch - stray,
                                       "piece_floor_mm": magnet_rise()})
    return stack.estimate(tactile, pitch)


def check_stack(pitch: float, build: BuildConfig) -> stack.Estimate:
    """``PartsError`` unless a tile on the tactile overlay stays within the magnet-to-reed
    distance the build allows (:func:`stack.allowance_mm`) and closes its switch with the
    guide's margin from anywhere in its window."""
    rise, allowed = magnet_rise(), stack.allowance_mm(build, pitch)
    if rise > allowed:
        raise PartsError(f"a tile on the tactile overlay lifts its magnet {rise:g} mm, more "
                         f"than the {allowed:.1f} mm this stack allows")
    est = estimate(pitch, build)
    if not est.closes:
        raise PartsError(f"a tile on the tactile overlay gives a margin of {est.margin:.1f} "
                         f"(at least {stack.SAFETY:g} needed): see the guide's figures")
    return est
