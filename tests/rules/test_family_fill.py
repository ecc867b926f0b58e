"""The SUDOKU FAMILY board has no complete legal fill, so jokers are part of every game.

The proof is an exhaustive search made small by symmetry. The house rule does not care which
number is which: renaming the numbers of a fill by any permutation gives another fill. The six
cells of triangle 1 hold six different numbers in every fill, so some renaming turns them into
1, 2, 3, 4, 5, 6 in the order the geometry lists them. Hence the board has a fill exactly when it
has one with triangle 1 fixed that way, and searching only those is exhaustive (720 times fewer
cases). Two searches say no: the project's solver, and an independent one written here with bit
masks. The search is not vacuous: drop the lines of any one direction and fills exist.
"""

from __future__ import annotations

import pytest

from sudoku_table.rules.family import family_geometry, lines, triangles
from sudoku_table.rules.geometry import Geometry
from sudoku_table.rules.solver import find_fill

GEOMETRY = family_geometry()
TRIANGLE_1 = triangles()["triangle 1"]
RENAMED = {cell: number for number, cell in enumerate(TRIANGLE_1, start=1)}


def independent_search(houses: list[tuple[str, ...]], given: dict[str, int]) -> int | None:
    """Nodes visited proving that no fill extends ``given``; None if a fill exists."""
    cells = sorted({c for h in houses for c in h})
    houses_of = {c: [i for i, h in enumerate(houses) if c in h] for c in cells}
    masks = [0] * len(houses)
    for cell, number in given.items():
        for i in houses_of[cell]:
            assert not masks[i] & (1 << number)
            masks[i] |= 1 << number
    todo = [c for c in cells if c not in given]
    nodes = 0

    def free(cell: str) -> list[int]:
        used = 0
        for i in houses_of[cell]:
            used |= masks[i]
        return [n for n in range(1, 7) if not used & (1 << n)]

    def search() -> bool:
        nonlocal nodes
        nodes += 1
        if not todo:
            return True
        cell = min(todo, key=lambda c: len(free(c)))
        todo.remove(cell)
        for number in free(cell):
            for i in houses_of[cell]:
                masks[i] |= 1 << number
            found = search()
            for i in houses_of[cell]:
                masks[i] &= ~(1 << number)
            if found:
                return True
        todo.append(cell)
        return False

    return None if search() else nodes


def test_triangle_1_may_be_numbered_1_to_6_in_order() -> None:
    assert sorted(RENAMED.values()) == [1, 2, 3, 4, 5, 6]
    # The six cells share a house, so every fill gives them six different numbers.
    assert all(b in GEOMETRY.peers[a] for a in TRIANGLE_1 for b in TRIANGLE_1 if a != b)


def test_the_solver_finds_no_complete_fill() -> None:
    assert find_fill(GEOMETRY, RENAMED) is None


def test_an_independent_search_finds_no_complete_fill() -> None:
    nodes = independent_search(list(GEOMETRY.houses.values()), RENAMED)
    assert nodes is not None and nodes > 1


@pytest.mark.parametrize("skip", ["f5", "b7", "e2"])
def test_not_even_35_cells_can_hold_numbers(skip: str) -> None:
    cells = tuple(c for c in GEOMETRY.cells if c != skip)
    given = {c: n for c, n in RENAMED.items() if c != skip}
    assert find_fill(GEOMETRY, given, cells=cells) is None


@pytest.mark.parametrize("dropped", ["files", "ranks", "diagonals"])
def test_without_one_direction_of_lines_fills_exist(dropped: str) -> None:
    """The contradiction needs all three directions: the same search succeeds otherwise."""
    skip = {"files": range(1, 8), "ranks": range(8, 15), "diagonals": range(15, 22)}[dropped]
    houses = {**triangles(), **{name: cells for name, cells in lines().items()
                                if int(name.split()[1]) not in skip}}
    weaker = Geometry(id="weaker", cells=GEOMETRY.cells, houses=houses, numbers=(1, 6))
    fill = find_fill(weaker, RENAMED)
    assert fill is not None
    board = RENAMED | fill
    assert len(board) == 36
    for cells in houses.values():
        assert len({board[c] for c in cells}) == len(cells)
    assert independent_search(list(houses.values()), RENAMED) is None
