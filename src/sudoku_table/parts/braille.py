"""Braille cells for the tactile parts, from liblouis, and where their dots stand.

The words are never turned into dots here: liblouis' ``lou_translate`` (Debian's
``liblouis-bin``) translates them with a braille table, asked for Unicode braille so that each
character names its own six dots (U+2800 plus one bit per dot, dot 1 the lowest bit). The
default table is Unified English Braille grade 1; German basic braille (``de-g0.utb``) writes
the letters a-i and the digits the same way, so one set of parts serves both languages.

The sizes are those of standard braille signage: dots 1.5 mm across at their base, 2.5 mm
apart within a cell, cells 6 mm apart. Printed dots stand 0.6 mm high, a little above the
paper's 0.5 mm, as a printed dome is rounder at its top.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .board import PartsError

TABLE = "en-ueb-g1.ctb"
"""The braille table: Unified English Braille, uncontracted."""
DOT_MM = 1.5
"""A dot's diameter at its base."""
DOT_HEIGHT_MM = 0.6
DOT_PITCH_MM = 2.5
"""From one dot to the next in a cell, across and down."""
CELL_PITCH_MM = 6.0
"""From one cell to the next on a line."""
CELL_HEIGHT_MM = 2 * DOT_PITCH_MM + DOT_MM
"""A cell's full height, dot edge to dot edge."""
BLANK = 0x2800
"""Unicode's empty braille cell; each dot adds one bit."""

Cell = frozenset[int]
"""The raised dots of one cell, numbered 1-6 (1-3 down the left column, 4-6 down the right)."""


class BrailleError(PartsError):
    """liblouis is missing or fails: one clear line saying what to install."""


def cells_of(unicode_braille: str) -> tuple[Cell, ...]:
    """The cells of a Unicode braille string (``BrailleError`` for any other character)."""
    out = []
    for char in unicode_braille:
        bits = ord(char) - BLANK
        if not 0 <= bits < 64:
            raise BrailleError(f"liblouis answered {unicode_braille!r}, not six-dot braille")
        out.append(frozenset(dot + 1 for dot in range(6) if bits >> dot & 1))
    return tuple(out)


def unicode_of(cells: Iterable[Cell]) -> str:
    """The Unicode braille string of ``cells`` (for messages and tests)."""
    return "".join(chr(BLANK + sum(1 << (dot - 1) for dot in cell)) for cell in cells)


def translate(texts: Sequence[str], table: str = TABLE) -> dict[str, tuple[Cell, ...]]:
    """Each text's braille cells, from one run of ``lou_translate``; ``BrailleError`` when
    liblouis is missing or answers something else than one line per text."""
    program = shutil.which("lou_translate")
    if program is None:
        raise BrailleError("the tactile parts need liblouis' lou_translate: sudo apt-get install "
                           "liblouis-bin")
    if any("\n" in text or not text.strip() for text in texts):
        raise BrailleError("each braille label must be one line of text")
    try:
        done = subprocess.run([program, "--forward", f"unicode.dis,{table}"],
                              input="\n".join(texts) + "\n", capture_output=True, text=True,
                              encoding="utf-8", timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BrailleError(f"lou_translate did not run: {e}") from None
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(texts):
        reason = done.stderr.strip().splitlines()[-1:] or [f"{len(lines)} lines"]
        raise BrailleError(f"lou_translate with table {table} failed: {reason[0]}")
    return {text: cells_of(line.strip()) for text, line in zip(texts, lines, strict=True)}


def dot_offset(dot: int) -> tuple[float, float]:
    """Where a dot stands from its cell's top left dot, in mm (x right, y up)."""
    column, row = divmod(dot - 1, 3)
    return column * DOT_PITCH_MM, -row * DOT_PITCH_MM


def label_width(count: int) -> float:
    """The width of ``count`` cells on a line, dot edge to dot edge."""
    return (count - 1) * CELL_PITCH_MM + DOT_PITCH_MM + DOT_MM


@dataclass(frozen=True)
class Dot:
    """One raised dot of a label: its cell (0 first), its number and its centre (mm)."""

    cell: int
    dot: int
    x: float
    y: float


def dots(cells: Sequence[Cell], centre: tuple[float, float], turned: bool = False) -> list[Dot]:
    """Every raised dot of a line of ``cells`` centred on ``centre``; ``turned``: rotated half
    a turn, for a reader on the other side of the board."""
    width = label_width(len(cells)) - DOT_MM
    left, top = centre[0] - width / 2, centre[1] + DOT_PITCH_MM
    out = []
    for index, cell in enumerate(cells):
        for dot in sorted(cell):
            dx, dy = dot_offset(dot)
            x, y = left + index * CELL_PITCH_MM + dx, top + dy
            if turned:
                x, y = 2 * centre[0] - x, 2 * centre[1] - y
            out.append(Dot(index, dot, x, y))
    return out


def places(count: int, centre: tuple[float, float], turned: bool = False
           ) -> list[tuple[int, int, float, float]]:
    """Every place a dot may stand in a line of ``count`` cells (cell, dot, x, y): what a
    reader's finger, or a test, checks to read the line back."""
    full = [frozenset(range(1, 7))] * count
    return [(d.cell, d.dot, d.x, d.y) for d in dots(full, centre, turned)]
