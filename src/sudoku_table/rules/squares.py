"""Sensor squares: the 9x9 grid every board is mapped onto.

Squares are named like chess squares: files ``a``..``i`` left to right, ranks ``1``..``9`` bottom
to top, ``a1`` bottom-left as seen by the first player. A square is a plain string; these helpers
convert between names and (file, rank) indices counted from zero. Names are ASCII only: a digit
of another script (``"a٣"``) is not a rank, here or anywhere else.
"""

from __future__ import annotations

FILES = "abcdefghi"
RANKS = "123456789"
SIZE = 9


def square_name(file: int, rank: int) -> str:
    """The name of the square at zero-based ``file`` and ``rank`` (``(0, 0)`` is ``a1``)."""
    if not (0 <= file < SIZE and 0 <= rank < SIZE):
        raise ValueError(f"no sensor square at file {file}, rank {rank}")
    return f"{FILES[file]}{rank + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """Zero-based (file, rank) of a square name; ``ValueError`` for anything that is not one."""
    if (
        not isinstance(name, str)
        or len(name) != 2
        or name[0] not in FILES
        or name[1] not in RANKS
    ):
        raise ValueError(f"{name!r} is not a sensor square (a1..i9)")
    return FILES.index(name[0]), int(name[1]) - 1


def is_square(name: object) -> bool:
    """True when ``name`` names one of the 81 sensor squares."""
    try:
        parse_square(name)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


SQUARES: tuple[str, ...] = tuple(square_name(f, r) for r in range(SIZE) for f in range(SIZE))
"""All 81 squares, rank by rank from a1 to i9."""
