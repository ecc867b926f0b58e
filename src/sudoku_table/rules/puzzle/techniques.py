"""The solving techniques, each a small function that finds the first place it applies in a
grid and returns it as a ``Step``: what it places or crosses out, the cells that prove it, the
houses it looks at.

Techniques are listed in ``TECHNIQUES`` from the easiest to the hardest, each with the
difficulty it defines (docs/puzzles.md). The order follows Sudoku Explainer's ratings (hidden
single in a block 1.2, in a line 1.5, naked single 2.3, pointing 2.6, claiming 2.8, naked pair
3.0, hidden pair 3.4, naked triple 3.6, hidden triple 4.0; X-Wing 3.2, Swordfish 3.8, XY-Wing
4.2), with one change: every technique of a difficulty comes before every technique of the next,
so that a puzzle a player can solve with pairs is never graded by an X-Wing the solver happened
to see first. Every function looks at boxes first, then ranks, then files, and at numbers
from the smallest, so the same grid always gives the same step.

A function finds a step only where it changes something: a pattern with nothing to cross out is
no step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from .grid import Contradiction, Grid, Layout, bits, reading_key


@dataclass(frozen=True, slots=True)
class Step:
    """One logical step.

    ``technique`` is an id of ``TECHNIQUES``. A step either places a number (``placement``,
    the singles) or crosses candidates out (``eliminations``, every other technique).
    ``pattern`` holds the cells that prove it: the numbers that leave a single (the placed
    numbers that see the other cells, or the house's other cells for a full house); the
    candidates' cells for the others (an XY-Wing's pivot first, then its two pincers).
    ``houses`` are the houses the step is about (the box of a pointing, the line of a claiming,
    a subset's house or houses, a fish's base lines), ``crossing`` the houses it crosses
    numbers out of where those are others (a pointing's line, a claiming's box, a fish's cover
    lines). ``numbers`` are the numbers it is about: the placed number; the locked number or
    fish's number; a subset's numbers; for an XY-Wing the pivot's two numbers, then the number
    crossed out. House names are the geometry's (``block d4``, ``region 3``); the board's
    ``shown`` says them as the player sees them.
    """

    technique: str
    pattern: tuple[str, ...]
    houses: tuple[str, ...]
    numbers: tuple[int, ...]
    placement: tuple[str, int] | None = None
    eliminations: tuple[tuple[str, int], ...] = ()
    crossing: tuple[str, ...] = ()

    @property
    def targets(self) -> tuple[str, ...]:
        """The cells the step changes: the placed cell, or the cells numbers are crossed out
        of (in reading order)."""
        if self.placement is not None:
            return (self.placement[0],)
        return tuple(sorted({c for c, _ in self.eliminations}, key=reading_key))

    def to_json(self) -> dict[str, object]:
        return {
            "technique": self.technique,
            "placement": None if self.placement is None else {
                "cell": self.placement[0], "number": self.placement[1]},
            "eliminations": [{"cell": c, "number": n} for c, n in self.eliminations],
            "pattern": list(self.pattern),
            "targets": list(self.targets),
            "houses": list(self.houses),
            "crossing": list(self.crossing),
            "numbers": list(self.numbers),
        }


def apply(grid: Grid, step: Step) -> None:
    """Carry ``step`` out on ``grid``."""
    index = grid.layout.index
    if step.placement is not None:
        cell, number = step.placement
        grid.place(index[cell], number)
    for cell, number in step.eliminations:
        grid.eliminate(index[cell], grid.layout.bit(number))


def premises(layout: Layout, step: Step) -> set[tuple[str, int]]:
    """The candidates ``step`` relies on being gone, as (cell, number): what makes it true
    besides the numbers placed. A hint keeps an earlier step only when it took away one of
    these (``hints.placement_chain``)."""
    geometry = layout.board.geometry
    houses = geometry.houses

    def others(house: str, outside: set[str], numbers: tuple[int, ...]) -> set[tuple[str, int]]:
        return {(c, n) for c in houses[house] if c not in outside for n in numbers}

    def besides(cell: str, numbers: tuple[int, ...]) -> set[tuple[str, int]]:
        return {(cell, n) for n in geometry.number_range if n not in numbers}

    kind = step.technique
    if kind == "full_house":
        return set()
    if kind == "hidden_single":
        assert step.placement is not None
        return others(step.houses[0], {step.placement[0]}, step.numbers)
    if kind == "naked_single":
        assert step.placement is not None
        return besides(step.placement[0], step.numbers)
    if kind in ("pointing", "claiming"):
        return others(step.houses[0], set(houses[step.crossing[0]]), step.numbers)
    if kind in ("naked_pair", "naked_triple"):
        return {p for c in step.pattern for p in besides(c, step.numbers)}
    if kind in ("hidden_pair", "hidden_triple"):
        return others(step.houses[0], set(step.pattern), step.numbers)
    if kind in ("x_wing", "swordfish"):
        covered = {c for h in step.crossing for c in houses[h]}
        return {p for h in step.houses for p in others(h, covered, step.numbers)}
    assert kind == "xy_wing"
    x, y, z = step.numbers
    pivot, first, second = step.pattern
    return besides(pivot, (x, y)) | besides(first, (x, z)) | besides(second, (y, z))


# --- singles ------------------------------------------------------------------------------------

Single = tuple[str, int, int, int]
"""A single found by ``scan_singles``: technique id, house, cell and number."""


def scan_singles(grid: Grid) -> list[Single]:
    """Every full house, then every hidden single of the grid as it stands (houses in the
    layout's order, numbers from the smallest). ``Contradiction`` when a house has no place
    left for a number it lacks."""
    layout = grid.layout
    full = layout.full
    full_houses: list[Single] = []
    hidden: list[Single] = []
    values, candidates = grid.values, grid.candidates
    for h, members in enumerate(layout.houses):
        placed = grid.placed[h]
        if placed == full:
            continue
        once = twice = 0
        for i in members:
            c = candidates[i]
            twice |= once & c
            once |= c
        if (once | placed) != full:
            raise Contradiction(f"{layout.house_names[h]} has no place for a number it lacks")
        missing = full & ~placed
        if not missing & (missing - 1):
            cell = next(i for i in members if not values[i])
            full_houses.append(("full_house", h, cell, layout.number(missing)))
            continue
        for bit in bits(once & ~twice):
            cell = next(i for i in members if candidates[i] & bit)
            hidden.append(("hidden_single", h, cell, layout.number(bit)))
    return full_houses + hidden


def single_step(grid: Grid, single: Single) -> Step:
    """The ``Step`` of a single from ``scan_singles``, with the cells that prove it."""
    technique, h, i, number = single
    layout = grid.layout
    cell = layout.cells[i]
    house = (layout.house_names[h],)
    if technique == "full_house":
        pattern = layout.names(j for j in layout.houses[h] if j != i)
    else:
        others = [j for j in layout.houses[h] if j != i and not grid.values[j]]
        pattern = layout.names(_cover(grid, others, number))
    return Step(technique, pattern, house, (number,), placement=(cell, number))


def _cover(grid: Grid, cells: list[int], number: int) -> list[int]:
    """Few cells holding ``number`` that together see every one of ``cells`` (greedily, the
    one that sees most first): what rules ``number`` out of them. A cell no such number sees
    (crossed out by an earlier step) is left uncovered."""
    layout = grid.layout
    holders = {j: layout.peer_sets[j] & set(cells) for j in range(len(layout.cells))
               if grid.values[j] == number}
    left = {c for c in cells if any(c in seen for seen in holders.values())}
    chosen = []
    while left:
        best = max(sorted(holders), key=lambda j: len(holders[j] & left))
        chosen.append(best)
        left -= holders[best]
    return chosen


def find_full_house(grid: Grid) -> Step | None:
    """A house with one empty cell: it takes the number the house lacks."""
    for single in scan_singles(grid):
        if single[0] == "full_house":
            return single_step(grid, single)
    return None


def find_hidden_single(grid: Grid) -> Step | None:
    """A number with one place left in a house."""
    for single in scan_singles(grid):
        if single[0] == "hidden_single":
            return single_step(grid, single)
    return None


def find_naked_single(grid: Grid) -> Step | None:
    """A cell with one candidate left: every other number is in one of its houses (or was
    crossed out)."""
    layout = grid.layout
    for i in layout.reading:
        c = grid.candidates[i]
        if grid.values[i] or c & (c - 1):
            continue
        if not c:
            raise Contradiction(f"no number is left for {layout.cells[i]}")
        number = layout.number(c)
        proof = []
        for other in layout.numbers(layout.full & ~c):
            holder = next((j for j in layout.peers[i] if grid.values[j] == other), None)
            if holder is not None:
                proof.append(holder)
        houses = tuple(layout.house_names[h] for h in layout.houses_of[i])
        return Step("naked_single", layout.names(proof), houses, (number,),
                    placement=(layout.cells[i], number))
    return None


# --- locked candidates --------------------------------------------------------------------------


def _mask_of(grid: Grid, cells: tuple[int, ...]) -> int:
    mask = 0
    for i in cells:
        mask |= grid.candidates[i]
    return mask


def _locked(grid: Grid, pointing: bool) -> Step | None:
    layout = grid.layout
    for x in layout.intersections:
        inside = _mask_of(grid, x.common)
        box_rest = _mask_of(grid, x.box_rest)
        line_rest = _mask_of(grid, x.line_rest)
        found = inside & ~box_rest & line_rest if pointing else inside & ~line_rest & box_rest
        for bit in bits(found):
            number = layout.number(bit)
            rest = x.line_rest if pointing else x.box_rest
            targets = layout.names(i for i in rest if grid.candidates[i] & bit)
            pattern = layout.names(i for i in x.common if grid.candidates[i] & bit)
            box, line = layout.house_names[x.box], layout.house_names[x.line]
            return Step("pointing" if pointing else "claiming", pattern,
                        (box,) if pointing else (line,), (number,),
                        eliminations=tuple((c, number) for c in targets),
                        crossing=(line,) if pointing else (box,))
    return None


def find_pointing(grid: Grid) -> Step | None:
    """In a box a number can only go where the box crosses one line: no other cell of that
    line takes it."""
    return _locked(grid, pointing=True)


def find_claiming(grid: Grid) -> Step | None:
    """In a line a number can only go where the line crosses one box: no other cell of that
    box takes it."""
    return _locked(grid, pointing=False)


# --- subsets ------------------------------------------------------------------------------------


def _naked_subset(grid: Grid, size: int, technique: str) -> Step | None:
    """``size`` cells of a house whose candidates together are ``size`` numbers: those numbers
    go on those cells, so no other cell of any house holding them all takes one."""
    layout = grid.layout
    for h, members in enumerate(layout.houses):
        open_ = [i for i in members if not grid.values[i]
                 and 2 <= grid.candidates[i].bit_count() <= size]
        for group in combinations(open_, size):
            union = _mask_of(grid, group)
            if union.bit_count() != size:
                continue
            shared = [k for k in layout.houses_of[group[0]]
                      if all(k in layout.houses_of[i] for i in group)]
            shared.sort(key=lambda k: k != h)
            eliminations = []
            for k in shared:
                for j in layout.houses[k]:
                    if j not in group and grid.candidates[j] & union:
                        eliminations += [(j, n) for n in layout.numbers(
                            grid.candidates[j] & union)]
            if eliminations:
                return Step(technique, layout.names(group),
                            tuple(layout.house_names[k] for k in shared),
                            layout.numbers(union), eliminations=_sorted(layout, eliminations))
    return None


def _hidden_subset(grid: Grid, size: int, technique: str) -> Step | None:
    """``size`` numbers that in a house can only go on the same ``size`` cells: those cells
    take those numbers, so nothing else."""
    layout = grid.layout
    for h, members in enumerate(layout.houses):
        placed = grid.placed[h]
        places: dict[int, int] = {}
        for bit in bits(layout.full & ~placed):
            where = 0
            for k, i in enumerate(members):
                if grid.candidates[i] & bit:
                    where |= 1 << k
            if 2 <= where.bit_count() <= size:
                places[bit] = where
        for group in combinations(sorted(places), size):
            where = 0
            for bit in group:
                where |= places[bit]
            if where.bit_count() != size:
                continue
            keep = sum(group)
            cells = [members[k] for k in range(len(members)) if where >> k & 1]
            eliminations = [(i, n) for i in cells
                            for n in layout.numbers(grid.candidates[i] & ~keep)]
            if eliminations:
                return Step(technique, layout.names(cells), (layout.house_names[h],),
                            layout.numbers(keep), eliminations=_sorted(layout, eliminations))
    return None


def _sorted(layout: Layout, eliminations: list[tuple[int, int]]) -> tuple[tuple[str, int], ...]:
    named = {(layout.cells[i], n) for i, n in eliminations}
    return tuple(sorted(named, key=lambda e: (reading_key(e[0]), e[1])))


def find_naked_pair(grid: Grid) -> Step | None:
    """Two cells of a house that can only take the same two numbers."""
    return _naked_subset(grid, 2, "naked_pair")


def find_hidden_pair(grid: Grid) -> Step | None:
    """Two numbers that in a house can only go on the same two cells."""
    return _hidden_subset(grid, 2, "hidden_pair")


def find_naked_triple(grid: Grid) -> Step | None:
    """Three cells of a house that can only take three numbers between them."""
    return _naked_subset(grid, 3, "naked_triple")


def find_hidden_triple(grid: Grid) -> Step | None:
    """Three numbers that in a house can only go on the same three cells."""
    return _hidden_subset(grid, 3, "hidden_triple")


# --- fish and wings -----------------------------------------------------------------------------


def _fish(grid: Grid, size: int, technique: str) -> Step | None:
    """A number that in ``size`` lines (ranks, or files) can only go in the same ``size``
    crossing lines: each of those crossing lines has its one in the base lines, so no other
    cell of them takes it."""
    layout = grid.layout
    for bit in bits(layout.full):
        number = layout.number(bit)
        for bases, covers, place in ((layout.ranks, layout.files, layout.file_of),
                                     (layout.files, layout.ranks, layout.rank_of)):
            rows: dict[int, int] = {}
            for b in bases:
                where = 0
                for i in layout.houses[b]:
                    if grid.candidates[i] & bit:
                        where |= 1 << place[i]
                if 2 <= where.bit_count() <= size:
                    rows[b] = where
            for group in combinations(sorted(rows), size):
                where = 0
                for b in group:
                    where |= rows[b]
                if where.bit_count() != size:
                    continue
                base_cells = {i for b in group for i in layout.houses[b]}
                cover = [covers[k] for k in range(len(covers)) if where >> k & 1]
                targets = [i for c in cover for i in layout.houses[c]
                           if i not in base_cells and grid.candidates[i] & bit]
                if targets:
                    pattern = layout.names(i for i in base_cells if grid.candidates[i] & bit)
                    return Step(technique, pattern,
                                tuple(layout.house_names[b] for b in group), (number,),
                                eliminations=_sorted(layout, [(i, number) for i in targets]),
                                crossing=tuple(layout.house_names[c] for c in cover))
    return None


def find_x_wing(grid: Grid) -> Step | None:
    """A number that in two lines can only go in the same two crossing lines."""
    return _fish(grid, 2, "x_wing")


def find_swordfish(grid: Grid) -> Step | None:
    """A number that in three lines can only go in the same three crossing lines."""
    return _fish(grid, 3, "swordfish")


def find_xy_wing(grid: Grid) -> Step | None:
    """A pivot that can only take x or y, seeing one pincer that can only take x or z and
    another that can only take y or z: whichever the pivot takes, one pincer is z, so no cell
    seeing both pincers takes z."""
    layout = grid.layout
    cand = grid.candidates
    pairs = [i for i in layout.reading if cand[i].bit_count() == 2]
    for pivot in pairs:
        wings = [a for a in pairs if a in layout.peer_sets[pivot] and cand[a] != cand[pivot]
                 and (cand[a] & cand[pivot]).bit_count() == 1]
        for a, b in combinations(wings, 2):
            x, y = cand[a] & cand[pivot], cand[b] & cand[pivot]
            z = cand[a] & ~x
            if x == y or cand[b] != y | z:
                continue
            seen = (layout.peer_sets[a] & layout.peer_sets[b]) - {pivot}
            targets = [i for i in seen if cand[i] & z]
            if targets:
                numbers = (layout.number(x), layout.number(y), layout.number(z))
                houses = tuple(dict.fromkeys(
                    layout.house_names[next(h for h in layout.houses_of[pivot]
                                            if h in layout.houses_of[w])] for w in (a, b)))
                return Step("xy_wing", (layout.cells[pivot], layout.cells[a], layout.cells[b]),
                            houses, numbers,
                            eliminations=_sorted(layout, [(i, numbers[2]) for i in targets]))
    return None


# --- the list -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Technique:
    """A technique: its id, its English name (``words`` has the German), the difficulty it
    defines and the function that finds it."""

    id: str
    name: str
    difficulty: int
    find: Callable[[Grid], Step | None]


TECHNIQUES: tuple[Technique, ...] = (
    Technique("full_house", "Full house", 1, find_full_house),
    Technique("hidden_single", "Hidden single", 1, find_hidden_single),
    Technique("naked_single", "Naked single", 2, find_naked_single),
    Technique("pointing", "Locked candidates (pointing)", 3, find_pointing),
    Technique("claiming", "Locked candidates (claiming)", 3, find_claiming),
    Technique("naked_pair", "Naked pair", 4, find_naked_pair),
    Technique("hidden_pair", "Hidden pair", 4, find_hidden_pair),
    Technique("naked_triple", "Naked triple", 4, find_naked_triple),
    Technique("hidden_triple", "Hidden triple", 4, find_hidden_triple),
    Technique("x_wing", "X-Wing", 5, find_x_wing),
    Technique("swordfish", "Swordfish", 5, find_swordfish),
    Technique("xy_wing", "XY-Wing", 5, find_xy_wing),
)
"""Every technique, the easiest first."""

BY_ID = {t.id: t for t in TECHNIQUES}
