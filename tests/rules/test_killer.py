"""Killer-Sudoku: 31 cages of two or three cells, no blocks, a complete fill, the rule book's
example rebuilt on our board, and random games."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import new_game
from sudoku_table.rules.kosmos.killer import CAGES_PICTURE
from sudoku_table.rules.solver import find_fill

from .kosmos_play import (
    board_picture,
    check_random_game,
    pictured,
    place,
    play,
    rules_text,
    start,
)
from .test_labyrinth import connected

VARIANT = "killer-sudoku"


def cage_of(cell: str) -> str:
    geometry = new_game(VARIANT).geometry
    return next(h for h in geometry.houses_of[cell] if h.startswith("cage"))


def test_cages_of_two_or_three_connected_cells_cover_the_board() -> None:
    geometry = new_game(VARIANT).geometry
    cages = {n: c for n, c in geometry.houses.items() if n.startswith("cage")}
    assert list(cages) == [f"cage {i}" for i in range(1, 32)]
    assert Counter(len(c) for c in cages.values()) == {3: 19, 2: 12}
    assert all(connected(c) for c in cages.values())
    assert Counter(c for cells in cages.values() for c in cells) == Counter(geometry.cells)
    assert cages["cage 1"] == ("a1", "b1", "a2")        # numbered from a1 in reading order
    assert set(geometry.houses) == set(cages) | {f"rank {r}" for r in range(1, 10)} | {
        f"file {f}" for f in "abcdefghi"}
    assert geometry.sections == cages and geometry.regions == cages
    assert geometry.bonus == {n: c for n, c in cages.items() if len(c) == 3}


def test_the_layout_turns_into_itself_under_a_half_turn() -> None:
    rows = [row.split() for row in CAGES_PICTURE]
    for r in range(9):
        for f in range(9):
            a, b = rows[r][f], rows[8 - r][8 - f]
            assert a == "*" == b or (a != b and a.lower() == b.lower()), (r, f)


def test_there_are_no_blocks() -> None:
    game, state = start(VARIANT, "R5 a1")
    assert game.check(state, Place("b2", 5)) is None         # same 3x3 square, other cage
    illegal = game.check(state, Place("a2", 5))
    assert illegal is not None and illegal.reason == f"5 is already in file a and {cage_of('a1')}"
    classic, classic_state = start("classic-sudoku", "R5 a1")
    assert classic.check(classic_state, Place("b2", 5)) is not None


def test_the_board_admits_a_complete_fill() -> None:
    geometry = new_game(VARIANT).geometry
    fill = find_fill(geometry, seed=1)
    assert fill is not None and len(fill) == 81
    for name, cells in geometry.houses.items():
        assert len({fill[c] for c in cells}) == len(cells), name


def test_the_rule_books_killer_example() -> None:
    """Red (0) lays a 2 completing a two-cell cage with its 3 (5 against nothing: 2 points,
    Black none). Black (1) then lays a 1 completing a three-cell cage: Red's 6 beats Black's
    4 + 1, so Red gets 2 and Black 1, and Black earns the bonus point of the 3-cell cage."""
    assert cage_of("e9") == cage_of("e8") and len(new_game(VARIANT).geometry.houses[
        cage_of("e9")]) == 2
    three = cage_of("c9")
    assert new_game(VARIANT).geometry.houses[three] == ("d8", "c9", "d9")
    game, state = start(VARIANT, "R3 e8, R6 c9, B4 d9")
    state = play(game, state, place("e9", 2))
    assert state.last.completed == (cage_of("e9"),) and state.last.points == (2, 0)
    state = play(game, state, place("d8", 1))
    assert state.last.completed == (three,) and state.last.points == (2, 1 + 1)
    assert state.awards == ((three, 1),)
    assert game.scores(state) == [4, 2]


def test_printed_cage_sums_play_no_part() -> None:
    assert new_game(VARIANT).option_defaults == {}
    assert new_game(VARIANT).geometry.clues == {}


@settings(max_examples=5, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games(seed: int, players: int) -> None:
    check_random_game(VARIANT, seed, players)


def test_the_rules_text_pictures_this_board() -> None:
    text = rules_text(VARIANT)
    assert pictured(text, board_picture(new_game(VARIANT)))
    two = [n for n, c in new_game(VARIANT).geometry.houses.items()
           if n.startswith("cage") and len(c) == 2]
    listed = ", ".join(n.split()[1] for n in two[:-1]) + " and " + two[-1].split()[1]
    assert f"The two-cell cages are {listed}" in text
