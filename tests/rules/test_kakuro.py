"""Kakuro: the white-cell pattern and its runs, clues taken from a real fill, options A and
B, the rule book's example rebuilt on our board, and random games under both options."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Discard, Place
from sudoku_table.rules.errors import RecordError
from sudoku_table.rules.game import new_game
from sudoku_table.rules.kosmos.kakuro import Kakuro, solution
from sudoku_table.rules.solver import Accept, find_fill
from sudoku_table.rules.squares import SQUARES, parse_square

from .kosmos_play import cards, check_random_game, pictured, place, play, rules_text

VARIANT = "kakuro"


def game_of(option: str = "B") -> Kakuro:
    game = new_game(VARIANT, 2, {"clues": option})
    assert isinstance(game, Kakuro)
    return game


def test_white_cells_form_runs_of_two_to_nine() -> None:
    geometry = game_of().geometry
    assert len(geometry.cells) == 50
    assert not any(c[0] == "a" or c[1] == "9" for c in geometry.cells)  # clue squares
    assert list(geometry.houses) == [f"line {i}" for i in range(1, 31)]
    cell_set = set(geometry.cells)
    for name, cells in geometry.houses.items():
        assert 2 <= len(cells) <= 9, name
        files = {parse_square(c)[0] for c in cells}
        ranks = {parse_square(c)[1] for c in cells}
        assert len(files) == 1 or len(ranks) == 1, name
        # Maximal: the squares beyond both ends are black or off the grid.
        (f0, r0), (f1, r1) = parse_square(cells[0]), parse_square(cells[-1])
        df, dr = (1, 0) if len(ranks) == 1 else (0, 1)
        for f, r in ((f0 - df, r0 - dr), (f1 + df, r1 + dr)):
            assert not (0 <= f < 9 and 0 <= r < 9) or f"{'abcdefghi'[f]}{r + 1}" not in cell_set
    # Every white cell lies on one horizontal and one vertical run.
    assert all(len(geometry.houses_of[c]) == 2 for c in geometry.cells)
    assert geometry.houses["line 1"] == ("b1", "c1", "d1")            # horizontal runs first
    assert geometry.houses["line 15"] == ("b1", "b2")                  # then the vertical ones
    assert set(geometry.sections) == set(geometry.houses)
    assert set(geometry.bonus) == {n for n, c in geometry.houses.items() if len(c) >= 4}
    assert len(geometry.bonus) == 12


def test_the_pattern_turns_into_itself_under_a_half_turn_inside_the_clue_frame() -> None:
    cells = set(game_of().geometry.cells)
    for cell in cells:
        f, r = parse_square(cell)
        assert f"{'abcdefghi'[9 - f]}{8 - r}" in cells


def test_clues_are_the_sums_of_a_complete_legal_fill() -> None:
    geometry = game_of().geometry
    fill = solution()
    assert set(fill) == set(geometry.cells)
    for name, cells in geometry.houses.items():
        assert len({fill[c] for c in cells}) == len(cells), name
        clue = geometry.clues[name]
        assert clue["sum"] == sum(fill[c] for c in cells)
        assert clue["square"] in SQUARES and clue["square"] not in geometry.cell_set
    assert geometry.clues["line 1"] == {"sum": 11, "square": "a1", "direction": "across"}
    assert geometry.clues["line 15"] == {"sum": 7, "square": "b3", "direction": "down"}
    doc = geometry.to_json()
    assert doc["clues"]["line 30"] == {"sum": 10, "square": "i9", "direction": "down"}


def accept_under_clues(clues: Mapping[str, int], houses_of: Mapping[str, tuple[str, ...]],
                       houses: Mapping[str, tuple[str, ...]]) -> Accept:
    """Option B's rule for the solver: no run above its clue. To prune, the cells still empty
    in a run need at least 1 + 2 + ... more."""
    def accept(cell: str, number: int, assignment: Mapping[str, int]) -> bool:
        for run in houses_of[cell]:
            empty = sum(1 for c in houses[run] if c != cell and c not in assignment)
            total = number + sum(assignment.get(c, 0) for c in houses[run])
            if total + empty * (empty + 1) // 2 > clues[run]:
                return False
        return True
    return accept


def test_the_board_admits_a_complete_fill_under_both_options() -> None:
    geometry = game_of().geometry
    assert find_fill(geometry, seed=2) is not None
    clues = {n: int(c["sum"]) for n, c in geometry.clues.items()}  # type: ignore[call-overload]
    fill = find_fill(geometry, seed=1, accept=accept_under_clues(clues, geometry.houses_of,
                                                         geometry.houses))
    assert fill is not None and len(fill) == 50
    for name, cells in geometry.houses.items():
        assert sum(fill[c] for c in cells) <= clues[name]
        assert len({fill[c] for c in cells}) == len(cells)


def test_options() -> None:
    assert new_game(VARIANT).options == {"clues": "B"}
    assert game_of("A").options == {"clues": "A"}
    with pytest.raises(RecordError, match="one of"):
        new_game(VARIANT, 2, {"clues": "C"})
    with pytest.raises(RecordError, match="no option"):
        new_game(VARIANT, 2, {"sums": "A"})


def test_the_rule_books_kakuro_example() -> None:
    """Option A. Red (0) lays an 8 completing a three-cell row (Red 8 + 3 = 11 against Black's
    7); Black (1) lays a 9 completing a four-cell column (Black 9 + 1 = 10 against Red's 8 + 2
    = 10: Black holds the highest card), and earns the bonus point of a run of four."""
    game = game_of("A")
    state = game.initial_state(cards("R3 b1, B7 c1, B1 d2, R2 d3"))
    assert game.geometry.houses["line 20"] == ("d1", "d2", "d3", "d4")
    state = play(game, state, place("d1", 8))
    assert state.last.completed == ("line 1",) and state.last.points == (2, 1)
    state = play(game, state, place("d4", 9))
    assert state.last.completed == ("line 20",) and state.last.points == (1, 2 + 1)
    assert game.scores(state) == [3, 4]
    # Under option B the clue of line 1 (11) forbids the 8 there.
    strict = game_of("B")
    illegal = strict.check(strict.initial_state(cards("R3 b1, B7 c1")), Place("d1", 8))
    assert illegal is not None
    assert illegal.reason == "8 would bring line 1 to 18, over its clue 11"
    assert illegal.cells == ("b1", "c1")


def test_option_b_caps_runs_and_rewards_an_exact_sum() -> None:
    game = game_of("B")
    state = game.initial_state(cards("R3 b1, B7 c1"))
    assert game.check(state, Place("d1", 2)) is not None
    assert game.placeable_numbers(state, "d1") == [1]          # 11 - 10: only a 1 fits
    exact = play(game, state, place("d1", 1))
    assert exact.last.completed == ("line 1", "line 1 exact")
    assert exact.last.points == (1 + 1, 2)                      # Black's 7 wins the run
    assert exact.awards == (("line 1 exact", 0),)
    game_a = game_of("A")
    loose = play(game_a, game_a.initial_state(cards("R3 b1, B7 c1")), place("d1", 1))
    assert loose.last.completed == ("line 1",) and loose.awards == ()


def test_below_the_clue_earns_no_extra_point() -> None:
    game = game_of("B")
    state = play(game, game.initial_state(cards("R2 b1, B4 c1")), place("d1", 1))
    assert state.last.completed == ("line 1",) and state.awards == ()


def test_a_card_capped_everywhere_may_be_set_aside_though_no_field_is_dead() -> None:
    """Every cell but d1 is filled from the solution: the house rule still allows 1, 4, 7, 8
    and 9 there, but the clues of line 1 (11) and line 20 (15) allow only 1 and 4. A 7 fits
    nowhere under option B and may be set aside; under option A it must be placed."""
    game = game_of("B")
    fill = solution()
    board = cards(", ".join(f"N{n} {c}" for c, n in fill.items() if c != "d1"))
    state = game.initial_state(board)
    assert game.dead_fields(state) == frozenset()
    assert sorted(set(range(1, 10)) - {board[c].number for c in game.geometry.peers["d1"]}) \
        == [1, 4, 7, 8, 9]
    assert game.placeable_numbers(state, "d1") == [1, 4]
    assert game.check(state, Discard(7)) is None
    assert Discard(7) in set(game.legal_actions(state))
    illegal = game.check(state, Discard(4))
    assert illegal is not None and illegal.cells == ("d1",)
    loose = game_of("A")
    assert loose.check(loose.initial_state(board), Discard(7)) is not None


@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), option=st.sampled_from("AB"))
def test_random_games(seed: int, players: int, option: str) -> None:
    check_random_game(VARIANT, seed, players, {"clues": option})


def test_the_rules_text_lists_every_run_and_clue() -> None:
    text = rules_text(VARIANT)
    geometry = game_of().geometry
    for name, cells in geometry.houses.items():
        assert f"| {name} | {cells[0]}-{cells[-1]} | {geometry.clues[name]['sum']} |" in text
    rows = [[str(r)] + [("." if f"{f}{r}" in geometry.cell_set else "#") for f in "abcdefghi"]
            for r in range(9, 0, -1)]
    assert pictured(text, rows)
