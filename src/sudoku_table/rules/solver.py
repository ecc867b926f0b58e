"""A small exact solver: complete a board so that no house holds a number twice.

Used to prove that every board we designed admits a complete legal fill, and to propose setups
(Duell der Meister's gold cards) that leave the board fillable. Depth-first search choosing the
empty cell with the fewest candidates first; an optional ``accept`` hook adds constraints of a
variant (Kakuro sum clues).

``count_fills`` counts the fills up to a limit: a puzzle has exactly one solution when the count
up to 2 is 1. It keeps the numbers each house already holds as bit masks, so that it is fast
enough to prove every generated puzzle unique.
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


class _Houses:
    """A geometry's houses as bit masks of the numbers each holds, for the fast searches of
    ``count_fills`` and ``random_fill``: number ``n`` is bit ``n - low``."""

    def __init__(self, geometry: Geometry) -> None:
        self.cells = geometry.cells
        self.index = {cell: i for i, cell in enumerate(geometry.cells)}
        house_index = {name: h for h, name in enumerate(geometry.houses)}
        self.houses_of = [tuple(house_index[name] for name in geometry.houses_of[cell])
                          for cell in geometry.cells]
        self.houses = [tuple(self.index[c] for c in cells) for cells in geometry.houses.values()]
        self.low, high = geometry.numbers
        self.full = (1 << (high - self.low + 1)) - 1
        self.used = [0] * len(geometry.houses)
        self.values = [0] * len(geometry.cells)

    def place(self, given: Mapping[str, int]) -> bool:
        """Put ``given`` on the board; False when a number is out of range or repeats."""
        for cell, number in given.items():
            bit = 1 << (number - self.low)
            i = self.index[cell]
            if not 0 < bit <= self.full:
                return False
            for h in self.houses_of[i]:
                if self.used[h] & bit:
                    return False
                self.used[h] |= bit
            self.values[i] = number
        return True

    def search(self, empty: list[int], limit: int, node_limit: int,
               rng: random.Random | None = None) -> int:
        """Fills the cells of ``empty`` every way there is, up to ``limit`` fills (the fewest
        candidates first; with ``rng`` they are tried in a random order) and returns how many
        it found; ``values`` keeps the last one."""
        used, houses_of, full, values, low = (self.used, self.houses_of, self.full,
                                              self.values, self.low)
        houses = self.houses
        found = nodes = 0

        def free(i: int) -> int:
            mask = full
            for h in houses_of[i]:
                mask &= ~used[h]
            return mask

        def forced(masks: dict[int, int]) -> tuple[int, int] | None:
            """A number with one place left in a house, as (place, bit); (-1, 0) when a house
            has no place left for a number it lacks; None when neither."""
            for h, members in enumerate(houses):
                if used[h] == full:
                    continue
                once = twice = 0
                for i in members:
                    m = masks.get(i, 0)
                    twice |= once & m
                    once |= m
                if (once | used[h]) != full:
                    return -1, 0
                single = once & ~twice
                if single:
                    bit = single & -single
                    return next(i for i in members if masks.get(i, 0) & bit), bit
            return None

        def step(depth: int) -> bool:
            """Fills ``empty[depth:]``; True once ``limit`` fills are found. Branches on the
            cell with the fewest candidates, or on a number with one place left in a house."""
            nonlocal found, nodes
            nodes += 1
            if nodes > node_limit:
                raise SearchLimit(f"no answer within {node_limit} nodes")
            if depth == len(empty):
                found += 1
                return found >= limit
            masks = {}
            best, best_mask, best_count = depth, 0, 99
            for k in range(depth, len(empty)):
                mask = masks[empty[k]] = free(empty[k])
                count = mask.bit_count()
                if count < best_count:
                    best, best_mask, best_count = k, mask, count
            if best_count == 0:
                return False
            if best_count > 1:
                single = forced(masks)
                if single is not None:
                    if single[0] < 0:
                        return False
                    best, best_mask = empty.index(single[0], depth), single[1]
            empty[depth], empty[best] = empty[best], empty[depth]
            cell = empty[depth]
            options = []
            while best_mask:
                bit = best_mask & -best_mask
                best_mask ^= bit
                options.append(bit)
            if rng is not None:
                rng.shuffle(options)
            done = False
            for bit in options:
                for h in houses_of[cell]:
                    used[h] |= bit
                values[cell] = bit.bit_length() - 1 + low
                done = step(depth + 1)
                for h in houses_of[cell]:
                    used[h] &= ~bit
                if done:
                    break
            empty[depth], empty[best] = empty[best], empty[depth]
            return done

        step(0)
        return found


def count_fills(
    geometry: Geometry,
    given: Mapping[str, int] | None = None,
    *,
    limit: int = 2,
    node_limit: int = 2_000_000,
) -> int:
    """How many complete fills extend ``given`` with no number twice in a house, counted up to
    ``limit`` (the search stops there): 0 for none, 1 for exactly one. A ``given`` that already
    repeats a number in a house, or holds a number the board does not have, has none. Raises
    ``SearchLimit`` past ``node_limit`` nodes.
    """
    board = _Houses(geometry)
    given = given or {}
    if not board.place(given):
        return 0
    empty = [i for i, cell in enumerate(geometry.cells) if cell not in given]
    return board.search(empty, limit, node_limit)


def first_fill(
    geometry: Geometry,
    given: Mapping[str, int],
    *,
    node_limit: int = 2_000_000,
) -> dict[str, int] | None:
    """The first fill ``count_fills`` meets, for the cells ``given`` leaves empty; None when
    there is none. For a puzzle ``count_fills`` has proved unique it is the solution, found by
    the same fast search (``find_fill`` walks a hard jigsaw puzzle a hundred times longer).
    Raises ``SearchLimit`` past ``node_limit`` nodes."""
    board = _Houses(geometry)
    if not board.place(given):
        return None
    empty = [i for i, cell in enumerate(geometry.cells) if cell not in given]
    if not board.search(empty, 1, node_limit):
        return None
    return {geometry.cells[i]: board.values[i] for i in empty}


def random_fill(geometry: Geometry, seed: int, *, restart_nodes: int = 500,
                node_limit: int = 2_000_000) -> dict[str, int]:
    """A complete fill of the board, random by ``seed`` (the same seed, the same fill): the
    fewest candidates first, tried in the order of a ``random.Random(seed)``. A search longer
    than ``restart_nodes`` starts again, drawing on where the random order has got to: the
    time of such a search has a long tail on a jigsaw board, and restarts cut it off. Raises
    ``SearchLimit`` past ``node_limit`` nodes in all."""
    rng = random.Random(seed)
    spent = 0
    while spent < node_limit:
        board = _Houses(geometry)
        try:
            if not board.search(list(range(len(geometry.cells))), 1, restart_nodes, rng):
                raise ValueError(f"{geometry.id} has no complete fill")
        except SearchLimit:
            spent += restart_nodes
            continue
        return dict(zip(geometry.cells, board.values, strict=True))
    raise SearchLimit(f"no fill within {node_limit} nodes")
