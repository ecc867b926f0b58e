"""Pair each missing piece with an extra one, so the guidance reads "move this one there".

Taking the nearest extra piece for each missing one in turn can send two arrows to the same
piece, or a long arrow across the board where two short ones would do. The pairing is therefore
an assignment minimising the total distance (the Hungarian method, exact, O(n^3) for n pieces;
n is at most 81 and in practice a handful).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from sudoku_table.rules.squares import parse_square


def distance(a: str, b: str) -> float:
    """Straight-line distance between two sensor squares, in squares."""
    (fa, ra), (fb, rb) = parse_square(a), parse_square(b)
    return math.hypot(fa - fb, ra - rb)


def assign(costs: Sequence[Sequence[float]]) -> list[int]:
    """For an n x m cost matrix with n <= m, the column given to each row, minimising the sum.

    The shortest-augmenting-path form of the Hungarian method with row and column potentials.
    """
    n = len(costs)
    if n == 0:
        return []
    m = len(costs[0])
    if m < n:
        raise ValueError("assign needs at least as many columns as rows")
    inf = math.inf
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)  # owner[j]: the row (1-based) holding column j; 0 for none
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        best = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if used[j]:
                    continue
                cur = costs[i0 - 1][j - 1] - u[i0] - v[j]
                if cur < best[j]:
                    best[j] = cur
                    way[j] = j0
                if best[j] < delta:
                    delta = best[j]
                    j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    best[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while True:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
            if j0 == 0:
                break
    result = [0] * n
    for j in range(1, m + 1):
        if owner[j]:
            result[owner[j] - 1] = j - 1
    return result


UNLIKE = 1e6
"""The cost of pairing two pieces known to differ: never chosen while another pairing exists,
and dropped when it is the only one."""


def pair_up(missing: Sequence[str], extra: Sequence[str],
            alike: Callable[[str, str], bool] | None = None) -> list[tuple[str, str]]:
    """(extra, missing) pairs, each piece used at most once, with the least total distance.

    Pieces left over (more missing than extra or the other way round) are not paired: they are
    shown on their own. ``alike(extra, missing)`` says whether the extra piece may be the
    missing one (a piece taken back is known, and never the missing piece of another number).
    """
    missing = sorted(missing)
    extra = sorted(extra)
    if not missing or not extra:
        return []
    if len(missing) <= len(extra):
        rows, cols, flipped = missing, extra, False
    else:
        rows, cols, flipped = extra, missing, True

    def cost(row: str, col: str) -> float:
        pair = (col, row) if not flipped else (row, col)  # (extra, missing)
        if alike is not None and not alike(*pair):
            return UNLIKE
        return distance(row, col)

    costs = [[cost(r, c) for c in cols] for r in rows]
    pairs = []
    for row, col in enumerate(assign(costs)):
        if costs[row][col] >= UNLIKE:
            continue
        a, b = rows[row], cols[col]
        pairs.append((a, b) if flipped else (b, a))
    return sorted(pairs, key=lambda p: p[1])
