"""The working grid of the logical solver: cells and houses as small integers, each cell's
candidates as a bit mask.

A ``Layout`` is computed once per board: cell indices, houses as tuples of cell indices, each
cell's peers, the ranks and files (the lines fish are made of) with each cell's place along
them, and the box-line intersections that locked candidates look at. A ``Grid`` is one state
of a solve: placed numbers and the candidates left to the empty cells. Number ``n`` is bit
``n - low``. Nothing here knows a technique; ``techniques`` reads and changes a ``Grid``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from ..squares import parse_square
from .boards import PuzzleBoard


@dataclass(frozen=True, slots=True)
class Intersection:
    """Where a box crosses a line in two or more cells: the box's other cells and the line's
    other cells (locked candidates look at all three)."""

    box: int
    line: int
    common: tuple[int, ...]
    box_rest: tuple[int, ...]
    line_rest: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Layout:
    """A board as the solver reads it (see the module's docstring)."""

    board: PuzzleBoard
    cells: tuple[str, ...]
    index: Mapping[str, int]
    low: int
    size: int
    houses: tuple[tuple[int, ...], ...]
    house_names: tuple[str, ...]
    house_kinds: tuple[str, ...]
    houses_of: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    peer_sets: tuple[frozenset[int], ...]
    boxes: tuple[int, ...]
    ranks: tuple[int, ...]
    files: tuple[int, ...]
    rank_of: tuple[int, ...]
    """Each cell's rank as an index into ``ranks`` (its place along its file)."""
    file_of: tuple[int, ...]
    """Each cell's file as an index into ``files`` (its place along its rank)."""
    intersections: tuple[Intersection, ...]
    reading: tuple[int, ...]
    """Every cell index in reading order (a1, b1, ..., then rank 2)."""

    @property
    def full(self) -> int:
        """Every number's bit."""
        return (1 << self.size) - 1

    def bit(self, number: int) -> int:
        return 1 << (number - self.low)

    def number(self, bit: int) -> int:
        """The number of a single bit."""
        return bit.bit_length() - 1 + self.low

    def numbers(self, mask: int) -> tuple[int, ...]:
        """The numbers of a mask, smallest first."""
        return tuple(self.number(b) for b in bits(mask))

    def names(self, indices: Iterable[int]) -> tuple[str, ...]:
        """Cell names for cell indices, in the board's reading order (a1, b1, ... then rank 2)."""
        return tuple(sorted((self.cells[i] for i in indices), key=reading_key))


def bits(mask: int) -> Iterator[int]:
    """The single bits of ``mask``, lowest first."""
    while mask:
        bit = mask & -mask
        yield bit
        mask ^= bit


def reading_key(cell: str) -> tuple[int, int]:
    """Rank by rank from a1, as the board's regions and blocks are read."""
    f, r = parse_square(cell)
    return r, f


@cache
def layout(board: PuzzleBoard) -> Layout:
    """The layout of ``board`` (made once)."""
    geometry = board.geometry
    cells = geometry.cells
    index = {c: i for i, c in enumerate(cells)}
    names = tuple(geometry.houses)
    # Boxes first, then ranks, then files: hints look in that order, the order in which people
    # scan (a hidden single in a block is the easiest to see).
    order = sorted(range(len(names)), key=lambda h: ("box", "rank", "file").index(
        board.kind(names[h])))
    names = tuple(names[h] for h in order)
    houses = tuple(tuple(index[c] for c in geometry.houses[n]) for n in names)
    kinds = tuple(board.kind(n) for n in names)
    houses_of = tuple(tuple(h for h, members in enumerate(houses) if i in members)
                      for i in range(len(cells)))
    peer_sets = tuple(frozenset(j for h in houses_of[i] for j in houses[h]) - {i}
                      for i in range(len(cells)))
    ranks = tuple(h for h, k in enumerate(kinds) if k == "rank")
    files = tuple(h for h, k in enumerate(kinds) if k == "file")
    rank_of = [0] * len(cells)
    file_of = [0] * len(cells)
    for place, h in enumerate(ranks):
        for i in houses[h]:
            rank_of[i] = place
    for place, h in enumerate(files):
        for i in houses[h]:
            file_of[i] = place
    boxes = tuple(h for h, k in enumerate(kinds) if k == "box")
    return Layout(
        board=board, cells=cells, index=index, low=geometry.numbers[0],
        size=len(geometry.number_range), houses=houses, house_names=names, house_kinds=kinds,
        houses_of=houses_of, peers=tuple(tuple(sorted(p)) for p in peer_sets),
        peer_sets=peer_sets, boxes=boxes, ranks=ranks, files=files, rank_of=tuple(rank_of),
        file_of=tuple(file_of), intersections=_intersections(houses, boxes, ranks + files),
        reading=tuple(sorted(range(len(cells)), key=lambda i: reading_key(cells[i]))),
    )


def _intersections(houses: tuple[tuple[int, ...], ...], boxes: tuple[int, ...],
                   lines: tuple[int, ...]) -> tuple[Intersection, ...]:
    found = []
    for b in boxes:
        for line in lines:
            common = tuple(i for i in houses[b] if i in houses[line])
            if len(common) >= 2:
                found.append(Intersection(
                    b, line, common, tuple(i for i in houses[b] if i not in common),
                    tuple(i for i in houses[line] if i not in common)))
    return tuple(found)


class Contradiction(Exception):
    """The grid cannot be completed: a placement or elimination took a cell's last candidate,
    or a number was placed where it may not go. Only a wrong grid (a mistake, a clash, a
    puzzle with no solution) gets here."""


class Grid:
    """One state of a solve: ``values`` (0 for empty), ``candidates`` (bit masks; 0 for a
    filled cell) and ``placed``, the numbers each house holds (bit masks, by house index).
    Placing a number takes it from the peers' candidates."""

    __slots__ = ("candidates", "empty", "layout", "placed", "values")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.values = [0] * len(layout.cells)
        self.candidates = [layout.full] * len(layout.cells)
        self.placed = [0] * len(layout.houses)
        self.empty = len(layout.cells)

    @classmethod
    def of(cls, layout: Layout, numbers: Mapping[str, int]) -> Grid:
        """The grid with ``numbers`` placed and every other cell's candidates the numbers its
        peers do not hold. ``Contradiction`` when two of them clash."""
        grid = cls(layout)
        for cell, number in numbers.items():
            grid.place(layout.index[cell], number)
        return grid

    def copy(self) -> Grid:
        other = Grid.__new__(Grid)
        other.layout = self.layout
        other.values = list(self.values)
        other.candidates = list(self.candidates)
        other.placed = list(self.placed)
        other.empty = self.empty
        return other

    def place(self, i: int, number: int) -> None:
        """Put ``number`` on cell ``i``; ``Contradiction`` when it may not go there."""
        bit = self.layout.bit(number)
        if self.values[i] or not self.candidates[i] & bit:
            raise Contradiction(f"{number} cannot go on {self.layout.cells[i]}")
        self.values[i] = number
        self.empty -= 1
        candidates = self.candidates
        candidates[i] = 0
        keep = ~bit
        for j in self.layout.peers[i]:
            candidates[j] &= keep
        for h in self.layout.houses_of[i]:
            self.placed[h] |= bit

    def eliminate(self, i: int, mask: int) -> None:
        """Take the numbers of ``mask`` from cell ``i``'s candidates."""
        left = self.candidates[i] & ~mask
        if not left and not self.values[i]:
            raise Contradiction(f"no number is left for {self.layout.cells[i]}")
        self.candidates[i] = left

    def solved(self) -> bool:
        return self.empty == 0

    def numbers(self) -> dict[str, int]:
        """The placed numbers by cell."""
        return {c: v for c, v in zip(self.layout.cells, self.values, strict=True) if v}
