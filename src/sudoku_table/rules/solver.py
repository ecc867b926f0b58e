"""A small exact solver: complete a board so that no house holds a number twice.

Used to prove that every board we designed admits a complete legal fill, and to propose setups
(Duell der Meister's gold cards) that leave the board fillable. Depth-first search choosing the
empty cell with the fewest candidates first; an optional ``accept`` hook adds constraints of a
variant (Kakuro sum clues).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from .geometry import Geometry

Accept = Callable[[str, int, Mapping[str, int]], bool]


class SearchLimit(Exception):
    """The search visited more nodes than allowed without deciding."""


def find_fill(
    geometry: Geometry,
    given: Mapping[str, int] | None = None,
    *,
    cells: tuple[str, ...] | None = None,
    accept: Accept | None = None,
    seed: int | None = None,
    node_limit: int = 2_000_000,
) -> dict[str, int] | None:
    """A number for every cell of ``cells`` (default: all cells) that, together with ``given``,
    repeats no number in any house and passes ``accept``; None when none exists.

    With ``seed`` the candidates are tried in a random order, giving a random fill. Raises
    ``SearchLimit`` past ``node_limit`` nodes.
    """
    assignment: dict[str, int] = dict(given or {})
    todo = [c for c in (cells or geometry.cells) if c not in assignment]
    rng = random.Random(seed) if seed is not None else None
    numbers = list(geometry.number_range)
    peers = geometry.peers
    nodes = 0

    def options(cell: str) -> list[int]:
        used = {assignment[p] for p in peers[cell] if p in assignment}
        return [n for n in numbers if n not in used]

    def search() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            raise SearchLimit(f"no answer within {node_limit} nodes")
        if not todo:
            return True
        best_i, best = -1, None
        for i, c in enumerate(todo):
            opts = options(c)
            if best is None or len(opts) < len(best):
                best_i, best = i, opts
                if len(opts) <= 1:
                    break
        assert best is not None
        cell = todo.pop(best_i)
        if rng is not None:
            rng.shuffle(best)
        for n in best:
            if accept is not None and not accept(cell, n, assignment):
                continue
            assignment[cell] = n
            if search():
                return True
            del assignment[cell]
        todo.insert(best_i, cell)
        return False

    if not search():
        return None
    return {c: assignment[c] for c in (cells or geometry.cells) if c not in (given or {})}
