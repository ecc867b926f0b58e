"""The KOSMOS SUDOKU games: the points held, plus what every open section and bonus area is
expected to bring each player.

The estimate plays the rest of each area out in the mind, with what the position tells:

- a cell where no card fits any more (every number is in its houses, or over a Kakuro clue)
  stays empty, so its sections and bonus areas never score: they are worth nothing to anyone;
- an open section's empty cells are filled by each player alike, with a card among the
  numbers that still fit there (their mean and spread); each player's final sum is then about
  normal, and the chances to rank first and second give the section's expected points (a
  player not yet in it may stay out and get nothing);
- a bonus area one card from complete goes to the first player, from the mover on, who holds
  a card that fits its last cell (the chance of holding it is that player's share of such
  cards in their stack); further from complete it is anybody's and changes no margin.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from sudoku_table.rules.actions import Action, Place
from sudoku_table.rules.game import Game, State
from sudoku_table.rules.kosmos.core import SECTION_POINTS, KosmosGame, KosmosState

from ..reasons import Motive
from .base import Heuristic, register

WEIGHT = 0.5
"""How much of a section's expected points counts when the section is full (by fill): the
rest of the points stand for the chance that the game ends, or a cell dies, before it is."""
FULL = (1 << 10) - 2
"""The bit mask of the numbers 1-9 (bit n for number n)."""


def _getter(indices: tuple[int, ...]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """A function picking ``indices`` out of a sequence as a tuple (``itemgetter`` at C speed,
    also for a single index)."""
    if len(indices) == 1:
        index = indices[0]
        return lambda seq: (seq[index],)
    return itemgetter(*indices)


class _Board:
    """A geometry's areas as index tuples, built once per geometry (with the functions that
    pick an area's cells out of a list per cell: the estimate runs for every position the
    search looks at)."""

    def __init__(self, game: KosmosGame) -> None:
        geometry = game.geometry
        self.cells = tuple(geometry.cells)
        self.index = {c: i for i, c in enumerate(self.cells)}
        index = self.index
        self.houses = tuple(tuple(index[c] for c in cells) for cells in geometry.houses.values())
        self.house_cells = tuple(_getter(cells) for cells in self.houses)
        clues = getattr(geometry, "clues", None) or {}
        self.caps = tuple(int(clues[name]["sum"]) if name in clues and "sum" in clues[name]
                          else None for name in geometry.houses)
        houses_of: list[list[int]] = [[] for _ in self.cells]
        for h, cells in enumerate(self.houses):
            for i in cells:
                houses_of[i].append(h)
        self.houses_of = tuple(tuple(hs) for hs in houses_of)
        self.sections = tuple(tuple(index[c] for c in cells)
                              for cells in geometry.sections.values())
        self.section_cells = tuple(_getter(cells) for cells in self.sections)
        self.bonus = tuple(tuple(index[c] for c in cells) for cells in geometry.bonus.values())
        self.bonus_cells = tuple(_getter(cells) for cells in self.bonus)


_BOARDS: dict[str, _Board] = {}
_MOMENTS: dict[int, tuple[float, float]] = {}


def _board(game: KosmosGame) -> _Board:
    found = _BOARDS.get(game.geometry.id)
    if found is None:
        found = _BOARDS[game.geometry.id] = _Board(game)
    return found


def _moments(mask: int) -> tuple[float, float]:
    """The mean and mean square of the numbers in ``mask`` (each equally likely)."""
    found = _MOMENTS.get(mask)
    if found is None:
        numbers = [n for n in range(1, 10) if mask >> n & 1]
        k = len(numbers)
        found = (sum(numbers) / k, sum(n * n for n in numbers) / k) if k else (0.0, 0.0)
        _MOMENTS[mask] = found
    return found


def _cell_lists(shape: _Board, state: KosmosState) -> tuple[list[int], list[int], list[int]]:
    """Per cell: the bit of its number (0 when empty or blank), its number (0 likewise), and
    its code for the sections (``_section``: a piece as owner * 16 + number; -1 for empty,
    filled in by ``outlook``)."""
    count = len(shape.cells)
    bits = [0] * count
    numbers = [0] * count
    codes = [-1] * count
    index = shape.index
    for cell, piece in state.board.items():
        i = index[cell]
        number = piece.number or 0
        if number:
            bits[i] = 1 << number
            numbers[i] = number
        codes[i] = (piece.owner if piece.owner is not None else 15) * 16 + number
    return bits, numbers, codes


def _masks(game: KosmosGame, shape: _Board, bits: list[int], numbers: list[int],
           codes: list[int]) -> list[int]:
    """``fitting_masks`` from the lists of ``_cell_lists``. Within a house every number
    stands once (the house rule), so a house's numbers are the sum of their bits."""
    used = [sum(get(bits)) for get in shape.house_cells]
    capped = bool(getattr(game, "capped", False))
    room: list[int] | None = None
    if capped:
        room = [cap - sum(get(numbers)) if cap is not None else 9
                for cap, get in zip(shape.caps, shape.house_cells, strict=True)]
    masks = [0] * len(codes)
    for i, code in enumerate(codes):
        if code >= 0:
            continue
        taken = 0
        for h in shape.houses_of[i]:
            taken |= used[h]
        mask = FULL & ~taken
        if room is not None:
            most = min((room[h] for h in shape.houses_of[i]), default=9)
            if most < 9:
                mask &= (1 << (most + 1)) - 1 if most > 0 else 0
        masks[i] = mask
    return masks


def fitting_masks(game: KosmosGame, state: KosmosState) -> list[int]:
    """Per cell of the geometry, the numbers (bit mask) a card may still take there; 0 for a
    cell that is taken or where nothing fits."""
    shape = _board(game)
    return _masks(game, shape, *_cell_lists(shape, state))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def section_outlook(sums: list[int], present: list[bool], mean: float, square: float,
                    empty: int) -> list[float]:
    """Each player's expected points from a section with ``empty`` cells left, when every
    empty cell gets a card of each player alike (values with ``mean`` and mean ``square``)."""
    players = len(sums)
    share = 1.0 / players
    first, second = SECTION_POINTS
    # each player's final sum: about normal
    means = [s + empty * share * mean for s in sums]
    # the difference of two players' sums: each empty cell adds +v, -v or nothing
    spread = math.sqrt(empty * 2.0 * share * square)
    # the chance a player now absent places a card in it at all
    joins = 1.0 - (1.0 - share) ** empty
    there = [1.0 if present[p] else joins for p in range(players)]
    out = [0.0] * players
    for p in range(players):
        if there[p] == 0.0:
            continue
        beats = []
        for q in range(players):
            if q == p:
                continue
            win = _phi((means[p] - means[q]) / spread)
            # an absent rival is beaten for sure
            beats.append(there[q] * win + (1.0 - there[q]))
        top = math.prod(beats)
        runner = sum((1.0 - b) * math.prod(c for j, c in enumerate(beats) if j != i)
                     for i, b in enumerate(beats))
        out[p] = there[p] * (first * top + second * runner)
    return out


def bonus_takers(state: KosmosState, mask: int, low: int) -> list[float]:
    """Each player's chance to be the first, from the mover on, to hold a card that fits the
    last cell of an area (``mask``: the numbers that fit there)."""
    players = state.players
    mover = state.to_move if state.to_move is not None else 0
    holds = []
    for k in range(players):
        p = (mover + k) % players
        supply = state.supply[p]
        total = sum(supply)
        fit = sum(c for i, c in enumerate(supply) if mask >> (low + i) & 1)
        holds.append((p, fit / total if total else 0.0))
    miss_all = math.prod(1.0 - q for _, q in holds)
    out = [0.0] * players
    if miss_all >= 1.0:
        return out
    before = 1.0
    for p, q in holds:
        out[p] = before * q / (1.0 - miss_all)
        before *= 1.0 - q
    return out


_SECTION_CACHE: dict[tuple[int, ...], list[float]] = {}
CACHE_SIZE = 200_000
"""Sections met again (most of them, between one position and the next) are not redone."""


def _section(key: tuple[int, ...], players: int) -> list[float]:
    """A section's expected points (weighted by fill) from its cells' codes: a piece as
    owner * 16 + number, an empty cell as minus the mask of the numbers that fit there."""
    codes = key[1:]
    empty = 0
    sums = [0] * players
    present = [False] * players
    mean = square = 0.0
    for code in codes:
        if code == 0:
            return [0.0] * players  # a cell where nothing fits: the section never scores
        if code < 0:
            empty += 1
            m, s = _moments(-code)
            mean += m
            square += s
        elif code < 15 * 16:
            owner, number = divmod(code, 16)
            sums[owner] += number
            present[owner] = True
    if empty == 0 or empty == len(codes):
        return [0.0] * players
    got = section_outlook(sums, present, mean / empty, square / empty, empty)
    weight = WEIGHT * (len(codes) - empty) / len(codes)
    return [weight * g for g in got]


def outlook(game: KosmosGame, state: KosmosState) -> list[float]:
    """Each player's expected points from the areas still open (see the module)."""
    shape = _board(game)
    players = state.players
    bits, numbers, codes = _cell_lists(shape, state)
    masks = _masks(game, shape, bits, numbers, codes)
    for i, code in enumerate(codes):
        if code < 0:
            codes[i] = -masks[i]
    low = game.geometry.numbers[0]
    h = [0.0] * players
    cache = _SECTION_CACHE
    if len(cache) > CACHE_SIZE:
        cache.clear()
    for get in shape.section_cells:
        key = (players, *get(codes))
        got = cache.get(key)
        if got is None:
            got = cache[key] = _section(key, players)
        for p in range(players):
            h[p] += got[p]
    for cells, get in zip(shape.bonus, shape.bonus_cells, strict=True):
        empty = [i for i, code in zip(cells, get(codes), strict=True) if code <= 0]
        if len(empty) != 1 or not masks[empty[0]]:
            continue
        for p, chance in enumerate(bonus_takers(state, masks[empty[0]], low)):
            h[p] += chance
    return h


class Kosmos(Heuristic):
    """Points held plus the expected points of the open sections and bonus areas."""

    scale = 2.5
    search = "expectimax"
    # With some 40 cells for each card, a tree search judges the replies to a move on one
    # drawn card each, and the noise of those samples outweighed what it saw: one look with
    # this estimate beat the tree search against the greedy player. Expectimax weighs every
    # card the next player may hold instead.

    def standing(self, game: Game, state: State) -> list[float]:
        assert isinstance(game, KosmosGame) and isinstance(state, KosmosState)
        h = [float(s) for s in game.scores(state)]
        for p, extra in enumerate(outlook(game, state)):
            h[p] += extra
        return h

    def reasons(self, game: Game, before: State, action: Action, after: State,
                mover: int) -> list[Motive]:
        found = super().reasons(game, before, action, after, mover)
        if isinstance(action, Place):
            taken: list[str] = []
            kept: list[str] = []
            for name in game.geometry.sections_of[action.cell]:
                cells = game.geometry.sections[name]
                if name in after.last.completed or section_leader(after, cells) != mover:
                    continue
                (kept if section_leader(before, cells) == mover else taken).append(name)
            if taken:
                found.append(Motive("leads", {"areas": taken}))
            if kept:
                found.append(Motive("extends_lead", {"areas": kept}))
        return found


def section_leader(state: State, cells: tuple[str, ...]) -> int | None:
    """The player with the highest sum in ``cells`` alone, or None."""
    sums: dict[int, int] = {}
    for cell in cells:
        piece = state.board.get(cell)
        if piece is not None and piece.owner is not None and piece.number is not None:
            sums[piece.owner] = sums.get(piece.owner, 0) + piece.number
    if not sums:
        return None
    best = max(sums.values())
    leaders = [p for p, s in sums.items() if s == best]
    return leaders[0] if len(leaders) == 1 else None


register(KosmosGame, Kosmos())
