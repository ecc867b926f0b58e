"""Squares and where they are: on the sensor matrix and on the LED chain.

Squares are named like chess squares: files ``a``..``i`` left to right, ranks ``1``..``9`` bottom
to top, ``a1`` bottom left as seen by the first player. The matrix's row ``r`` is rank ``r + 1``
and its column ``c`` is file ``c``, so a square's index is ``rank * 9 + file``.
"""

from __future__ import annotations

from .config import CORNERS, ROTATIONS, LedConfig
from .exc import LayoutError

SIZE = 9
FILES = "abcdefghi"
SQUARES: tuple[str, ...] = tuple(f"{FILES[c]}{r + 1}" for r in range(SIZE) for c in range(SIZE))
"""Every square, by index (``a1``, ``b1``, .., ``i1``, ``a2``, ..)."""
INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARES)}


def square_index(square: str) -> int:
    """The index of ``square`` (``ValueError`` for anything that is not a1..i9)."""
    try:
        return INDEX[square]
    except (KeyError, TypeError):
        raise LayoutError(f"{square!r} is not a square a1..i9") from None


def square_at(row: int, column: int) -> str:
    """The square on matrix ``row`` (rank - 1) and ``column`` (file)."""
    return SQUARES[row * SIZE + column]


def led_order(start_corner: str, serpentine: bool, rotation: int) -> tuple[str, ...]:
    """The square under each LED of the chain, in chain order (81 squares).

    The chain starts at ``start_corner`` of the LED panel and runs along the panel's rows,
    turning back on every second row when ``serpentine``; the panel is then turned
    ``rotation`` degrees clockwise on the board.
    """
    if start_corner not in CORNERS:
        raise LayoutError(f"start_corner must be one of {', '.join(CORNERS)}, got {start_corner!r}")
    if rotation not in ROTATIONS:
        raise LayoutError(f"rotation must be 0, 90, 180 or 270, got {rotation!r}")
    last = SIZE - 1
    order = []
    for k in range(SIZE * SIZE):
        line, pos = divmod(k, SIZE)
        if serpentine and line % 2:
            pos = last - pos
        # Panel coordinates: x to the right, y downwards from the top-left corner.
        x = pos if start_corner.endswith("left") else last - pos
        y = line if start_corner.startswith("top") else last - line
        for _ in range(rotation // 90):
            x, y = last - y, x  # a quarter turn clockwise
        order.append(f"{FILES[x]}{SIZE - y}")
    return tuple(order)


def led_indices(leds: LedConfig) -> dict[str, int]:
    """Square name to its index on the LED chain, from the config."""
    order = led_order(leds.start_corner, leds.serpentine, leds.rotation)
    return {square: leds.first + k for k, square in enumerate(order)}


def squares_in_line(start: str, direction: tuple[int, int], length: int,
                    size: int = SIZE) -> list[str] | None:
    """``length`` squares from ``start``, one step of ``direction`` (files, ranks) apart, or None
    when the line leaves a ``size`` x ``size`` board (a hand's slide across the squares)."""
    i = square_index(start)
    f, r = i % SIZE, i // SIZE
    out = []
    for k in range(length):
        x, y = f + k * direction[0], r + k * direction[1]
        if not (0 <= x < size and 0 <= y < size):
            return None
        out.append(SQUARES[y * SIZE + x])
    return out
