"""Every technique on a position built by hand for it: the step it finds, the cells that prove
it and exactly what it places or crosses out. A technique that looked in the wrong cells, took
the wrong numbers or missed its pattern fails here."""

from __future__ import annotations

from sudoku_table.rules.puzzle.grid import Grid, layout
from sudoku_table.rules.puzzle.logic import first_step
from sudoku_table.rules.puzzle.techniques import (
    TECHNIQUES,
    Step,
    apply,
    find_claiming,
    find_full_house,
    find_hidden_pair,
    find_hidden_single,
    find_hidden_triple,
    find_naked_pair,
    find_naked_single,
    find_naked_triple,
    find_pointing,
    find_swordfish,
    find_x_wing,
    find_xy_wing,
    premises,
    scan_singles,
)

from .puzzle_grids import grid_of, house, keep_only, puzzle_board, remove


def removed(step: Step | None) -> set[tuple[str, int]]:
    assert step is not None
    return set(step.eliminations)


def test_techniques_are_listed_easiest_first_by_difficulty() -> None:
    levels = [t.difficulty for t in TECHNIQUES]
    assert levels == sorted(levels) and set(levels) == {1, 2, 3, 4, 5}
    assert [t.id for t in TECHNIQUES] == [
        "full_house", "hidden_single", "naked_single", "pointing", "claiming", "naked_pair",
        "hidden_pair", "naked_triple", "hidden_triple", "x_wing", "swordfish", "xy_wing"]


def test_full_house_is_the_last_empty_cell_of_a_house() -> None:
    grid = grid_of("classic", {f"{f}1": n for f, n in zip("abcdefgh", range(1, 9), strict=True)})
    step = find_full_house(grid)
    assert step == Step("full_house", ("a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"),
                        ("rank 1",), (9,), placement=("i1", 9))


def test_hidden_single_by_cross_hatching_a_block() -> None:
    # The 7s on b4 and h5 rule ranks 4 and 5 out of block d4, those on e1 and f9 files e and f:
    # only d6 is left for a 7 there.
    grid = grid_of("classic", {"b4": 7, "h5": 7, "e1": 7, "f9": 7})
    step = find_hidden_single(grid)
    assert step is not None
    assert step.placement == ("d6", 7) and step.houses == ("block d4",)
    assert set(step.pattern) == {"b4", "h5", "e1", "f9"}


def test_hidden_singles_are_found_in_blocks_before_lines() -> None:
    # The 5 has one place in rank 1 (a1) and one in block g7 (i7).
    grid = grid_of("classic")
    remove(grid, 5, [c for c in house("classic", "rank 1") if c != "a1"])
    remove(grid, 5, [c for c in house("classic", "block g7") if c != "i7"])
    singles = scan_singles(grid)
    assert [(s[0], grid.layout.cells[s[2]]) for s in singles] == [
        ("hidden_single", "i7"), ("hidden_single", "a1")]


def test_naked_single_names_a_holder_of_every_other_number() -> None:
    numbers = {"e1": 1, "e2": 2, "e9": 3, "a5": 4, "b5": 5, "i5": 6, "d4": 7, "f6": 8}
    grid = grid_of("classic", numbers)
    step = find_naked_single(grid)
    assert step is not None and step.placement == ("e5", 9)
    assert set(step.pattern) == set(numbers)
    assert set(step.houses) == {"block d4", "rank 5", "file e"}


def test_a_single_of_difficulty_one_comes_before_a_naked_single() -> None:
    grid = grid_of("classic", {"e1": 1, "e2": 2, "e9": 3, "a5": 4, "b5": 5, "i5": 6, "d4": 7,
                               "f6": 8})
    remove(grid, 5, [c for c in house("classic", "rank 9") if c != "c9"])
    step = first_step(grid)
    assert step is not None and step.technique == "hidden_single"


def test_pointing_crosses_the_number_out_of_the_rest_of_the_line() -> None:
    grid = grid_of("classic")
    remove(grid, 5, [c for c in house("classic", "block a1") if c not in ("a2", "b2")])
    step = find_pointing(grid)
    assert step is not None
    assert (step.houses, step.crossing, step.pattern, step.numbers) == (
        ("block a1",), ("rank 2",), ("a2", "b2"), (5,))
    assert removed(step) == {(c, 5) for c in "d2 e2 f2 g2 h2 i2".split()}
    assert find_claiming(grid) is None


def test_claiming_crosses_the_number_out_of_the_rest_of_the_block() -> None:
    grid = grid_of("classic")
    remove(grid, 7, [c for c in house("classic", "rank 5") if c not in ("d5", "e5")])
    step = find_claiming(grid)
    assert step is not None
    assert (step.houses, step.crossing, step.pattern) == (("rank 5",), ("block d4",),
                                                          ("d5", "e5"))
    assert removed(step) == {(c, 7) for c in "d4 e4 f4 d6 e6 f6".split()}
    assert find_pointing(grid) is None


def test_naked_pair_in_a_rank() -> None:
    grid = grid_of("classic")
    keep_only(grid, "a1", (3, 8))
    keep_only(grid, "e1", (3, 8))
    step = find_naked_pair(grid)
    assert step is not None and step.houses == ("rank 1",) and step.numbers == (3, 8)
    assert step.pattern == ("a1", "e1")
    assert removed(step) == {(c, n) for c in "b1 c1 d1 f1 g1 h1 i1".split() for n in (3, 8)}


def test_a_locked_pair_clears_its_block_and_its_line() -> None:
    grid = grid_of("classic")
    keep_only(grid, "a1", (3, 8))
    keep_only(grid, "b1", (3, 8))
    step = find_naked_pair(grid)
    assert step is not None and step.houses == ("block a1", "rank 1")
    others = set(house("classic", "block a1")) | set(house("classic", "rank 1"))
    assert removed(step) == {(c, n) for c in others - {"a1", "b1"} for n in (3, 8)}


def test_hidden_pair_keeps_only_its_two_numbers() -> None:
    grid = grid_of("classic")
    for n in (4, 6):
        remove(grid, n, [c for c in house("classic", "file c") if c not in ("c2", "c7")])
    step = find_hidden_pair(grid)
    assert step is not None and step.houses == ("file c",) and step.numbers == (4, 6)
    assert removed(step) == {(c, n) for c in ("c2", "c7") for n in (1, 2, 3, 5, 7, 8, 9)}
    assert find_naked_pair(grid) is None


def test_naked_triple_needs_no_cell_to_hold_all_three() -> None:
    grid = grid_of("classic")
    keep_only(grid, "a9", (1, 2))
    keep_only(grid, "d9", (2, 3))
    keep_only(grid, "g9", (1, 3))
    assert find_naked_pair(grid) is None
    step = find_naked_triple(grid)
    assert step is not None and step.houses == ("rank 9",) and step.numbers == (1, 2, 3)
    assert removed(step) == {(c, n) for c in "b9 c9 e9 f9 h9 i9".split() for n in (1, 2, 3)}


def test_hidden_triple_in_a_block() -> None:
    grid = grid_of("classic")
    block = house("classic", "block g7")
    places = {2: ("g7", "h8"), 5: ("h8", "i9"), 9: ("g7", "i9")}
    for n, cells in places.items():
        remove(grid, n, [c for c in block if c not in cells])
    assert find_hidden_pair(grid) is None
    step = find_hidden_triple(grid)
    assert step is not None and step.houses == ("block g7",) and step.numbers == (2, 5, 9)
    assert step.pattern == ("g7", "h8", "i9")
    assert removed(step) == {(c, n) for c in ("g7", "h8", "i9") for n in (1, 3, 4, 6, 7, 8)}


def test_x_wing_on_two_ranks() -> None:
    grid = grid_of("classic")
    for rank in ("rank 2", "rank 6"):
        remove(grid, 4, [c for c in house("classic", rank) if c[0] not in "bh"])
    step = find_x_wing(grid)
    assert step is not None
    assert (step.houses, step.crossing, step.numbers) == (("rank 2", "rank 6"),
                                                          ("file b", "file h"), (4,))
    assert step.pattern == ("b2", "h2", "b6", "h6")
    assert removed(step) == {(f"{f}{r}", 4) for f in "bh" for r in (1, 3, 4, 5, 7, 8, 9)}


def test_swordfish_on_three_files() -> None:
    grid = grid_of("classic")
    places = {"file a": ("a1", "a5"), "file d": ("d5", "d8"), "file g": ("g1", "g8")}
    for name, cells in places.items():
        remove(grid, 8, [c for c in house("classic", name) if c not in cells])
    assert find_x_wing(grid) is None
    step = find_swordfish(grid)
    assert step is not None
    assert step.houses == ("file a", "file d", "file g")
    assert step.crossing == ("rank 1", "rank 5", "rank 8")
    assert removed(step) == {(f"{f}{r}", 8) for f in "bcefhi" for r in (1, 5, 8)}


def test_xy_wing_crosses_out_what_both_pincers_see() -> None:
    grid = grid_of("classic")
    keep_only(grid, "e5", (1, 2))   # the pivot
    keep_only(grid, "b5", (2, 3))   # a pincer in its rank
    keep_only(grid, "e8", (1, 3))   # a pincer in its file
    step = find_xy_wing(grid)
    assert step is not None
    assert step.pattern == ("e5", "b5", "e8") and step.numbers == (2, 1, 3)
    assert step.eliminations == (("b8", 3),)


def test_locked_candidates_on_jigsaw_regions() -> None:
    # Region 1 of the Labyrinth: a1 b1 c1 d1 a2 a3 a4 a5 b5. A 6 only on a2, a3 points along
    # file a; it leaves file a's cells outside the region.
    grid = grid_of("labyrinth")
    region = house("labyrinth", "region 1")
    remove(grid, 6, [c for c in region if c not in ("a2", "a3")])
    step = find_pointing(grid)
    assert step is not None and step.houses == ("region 1",) and step.crossing == ("file a",)
    assert removed(step) == {(f"a{r}", 6) for r in (6, 7, 8, 9)}


def test_six_board_blocks_are_three_wide_and_two_high() -> None:
    grid = grid_of("six")
    remove(grid, 2, [c for c in house("six", "block d3") if c not in ("d4", "f4")])
    step = find_pointing(grid)
    assert step is not None and step.crossing == ("rank 4",)
    assert removed(step) == {("a4", 2), ("b4", 2), ("c4", 2)}


def test_premises_are_what_a_step_relies_on() -> None:
    lay = layout(puzzle_board("classic"))
    grid = grid_of("classic")
    remove(grid, 5, [c for c in house("classic", "block a1") if c not in ("a2", "b2")])
    step = find_pointing(grid)
    assert step is not None
    # c2 lies where the block meets rank 2: whether it holds a 5 changes nothing.
    assert premises(lay, step) == {(c, 5) for c in "a1 b1 c1 a3 b3 c3".split()}
    keep_only(grid, "e5", (1, 2))
    keep_only(grid, "b5", (2, 3))
    keep_only(grid, "e8", (1, 3))
    wing = find_xy_wing(grid)
    assert wing is not None
    assert ("e5", 3) in premises(lay, wing) and ("e5", 1) not in premises(lay, wing)


def test_a_step_changes_nothing_it_does_not_say() -> None:
    grid = grid_of("classic")
    for rank in ("rank 2", "rank 6"):
        remove(grid, 4, [c for c in house("classic", rank) if c[0] not in "bh"])
    before = list(grid.candidates)
    step = find_x_wing(grid)
    assert step is not None
    apply(grid, step)
    lay = grid.layout
    changed = {lay.cells[i] for i in range(len(before)) if before[i] != grid.candidates[i]}
    assert changed == set(step.targets)


def test_no_technique_finds_a_step_in_an_open_grid() -> None:
    grid: Grid = grid_of("classic")
    assert all(t.find(grid) is None for t in TECHNIQUES)
