"""What the family heuristics see: locked pairs in Halma-Dominari, and in SUDOKU FAMILY the
points within reach of the next stone."""

from __future__ import annotations

import pytest

from sudoku_table.ai import Budget, choose
from sudoku_table.ai.heuristics import Heuristic, heuristic_for
from sudoku_table.ai.heuristics.dominari import (
    LOCK_RISK_ALONE,
    crossed,
    lock_risk,
    pair_can_pass,
    pairs,
)
from sudoku_table.ai.heuristics.family import within_reach
from sudoku_table.rules.actions import Move, Place
from sudoku_table.rules.family import FamilyState, mover_of, triangles
from sudoku_table.rules.game import Game, Piece, State, new_game

from .positions import random_position

HALMA = "halma-dominari"


@pytest.mark.parametrize("white,black,passes", [
    ("b6", "c1", False),  # each on its last lane, each keeping the other out of its next file
    ("a6", "e1", False),  # the same, still far apart: they must meet
    ("b2", "e5", True),   # the start: room to go round
    ("e6", "c1", True),   # White steps to f6 and off before the files meet
])
def test_a_pair_of_one_number_can_pass_or_not(white: str, black: str, passes: bool) -> None:
    assert pair_can_pass(HALMA, white, black) is passes


def locked(state: State) -> list[tuple[str, str]]:
    """The pairs of one number that can never both leave the board alone."""
    return [pair for pair in pairs(state) if not pair_can_pass(HALMA, *pair)]


def _race(game: Game, state: State) -> list[float]:
    """The chances of the race alone, without the risk of a lock."""
    heuristic = heuristic_for(game)
    return Heuristic.values_of(heuristic, game, state, heuristic.standing(game, state))


def _halma(setup: dict[str, Piece], to_move: int) -> State:
    game = new_game(HALMA)
    return game.initial_state(setup).replace(to_move=to_move)


def test_a_lock_caps_the_leader_at_a_draw_and_raises_nobody() -> None:
    game = new_game(HALMA)
    heuristic = heuristic_for(game)
    # Black has borne off five and needs three steps more; White's 5 and Black's 5 lock.
    locked_state = _halma({"b6": Piece(0, 5), "c1": Piece(1, 5), "a1": Piece(0, 1)}, 1)
    free = _halma({"e6": Piece(0, 5), "c1": Piece(1, 5), "a1": Piece(0, 1)}, 1)
    assert locked(locked_state) == [("b6", "c1")] and not locked(free)
    assert heuristic.values(game, free)[1] > 0.8
    race = _race(game, locked_state)  # the race alone
    assert race[1] > 0.8 and race[0] < 0.2
    assert heuristic.values(game, locked_state) == pytest.approx([race[0], 0.5])


def test_a_lock_made_early_is_a_risk_until_no_third_piece_is_left() -> None:
    # Early in a game White's 6 went up to a5: Black's 6 on f4 can never pass it alone, but
    # ten other pieces may still open a jump for one of the two.
    game = new_game(HALMA)
    white = {"a1": 1, "b1": 2, "c1": 3, "a4": 4, "c2": 5, "a5": 6}
    black = {"d4": 1, "e6": 2, "d6": 3, "d5": 4, "e5": 5, "f4": 6}
    state = _halma({**{c: Piece(0, n) for c, n in white.items()},
                    **{c: Piece(1, n) for c, n in black.items()}}, 1)
    assert locked(state) == [("a5", "f4")]
    heuristic = heuristic_for(game)
    race = _race(game, state)
    leader = max(range(2), key=lambda p: race[p])
    risk = lock_risk(game, state, leader)
    assert LOCK_RISK_ALONE / 11 <= risk < 1.0
    values = heuristic.values(game, state)
    assert values[leader] < race[leader]
    assert values[1 - leader] == pytest.approx(race[1 - leader])
    # The same two pieces with nothing else left: a lock for good.
    alone = _halma({"a5": Piece(0, 6), "f4": Piece(1, 6)}, 1)
    assert lock_risk(game, alone, 0) == 1.0


@pytest.mark.parametrize("white,black,past", [
    ("d5", "c4", True),   # right of it and above it: they move apart from now on
    ("b3", "c4", False),  # below and left: one has to jump the other's rank and file
    ("e2", "c4", False),  # right of it but below: the ranks are still to cross
    ("c5", "c4", False),  # one file
])
def test_a_pair_has_crossed_when_white_is_right_of_and_above_black(
        white: str, black: str, past: bool) -> None:
    assert crossed(white, black) is past


def test_an_uncrossed_pair_grows_riskier_as_the_leader_runs_out_of_spare_moves() -> None:
    # Black leads (four borne off); its 5 on c4 has still to get past White's 5 on b2.
    # Every Black piece that leaves first is a spare move fewer: with the 5 alone, Black
    # must move it whenever it can, into the lock if White keeps its 5 where it is.
    game = new_game(HALMA)
    heuristic = heuristic_for(game)
    white = {"b2": Piece(0, 5), "a1": Piece(0, 1), "b1": Piece(0, 2), "a2": Piece(0, 3)}
    with_spare = _halma({**white, "c4": Piece(1, 5), "b3": Piece(1, 4)}, 0)
    without = _halma({**white, "c4": Piece(1, 5)}, 0)
    assert pair_can_pass(HALMA, "b2", "c4") and not crossed("b2", "c4")
    assert lock_risk(game, with_spare, 1) == pytest.approx(1 / 2)
    assert lock_risk(game, without, 1) == pytest.approx(1.0)
    race = _race(game, with_spare)
    assert race[1] > 0.5
    assert heuristic.values(game, with_spare)[1] < race[1]
    assert heuristic.values(game, without)[1] <= 0.5 + 1e-9


def test_the_leader_steps_round_a_lock() -> None:
    # Black, four borne off to White's three, can jump its 5 from d5 over c4 to b3: the
    # longest move, but it locks with White's 5 on c2 for good (a search blind to locks
    # takes it); the step to d4 keeps the way open.
    game = new_game(HALMA)
    state = _halma({"c2": Piece(0, 5), "a3": Piece(0, 2), "f5": Piece(0, 4),
                    "d5": Piece(1, 5), "c4": Piece(1, 3)}, 1)
    lock = Move(("d5", "b3"))
    assert game.check(state, lock) is None
    assert locked(game._apply(state, lock))
    for level in ("normal", "strong"):
        for seed in range(3):
            action = choose(game, state, level=level, seed=seed,
                            budget=Budget(positions=800, seconds=30.0))
            assert action != lock, (level, seed)


FAMILY = "sudoku-family"


def _family(setup: dict[str, Piece]) -> tuple[Game, FamilyState]:
    game = new_game(FAMILY, 2)
    state = game.initial_state(setup)
    assert isinstance(state, FamilyState)
    return game, state


def test_the_next_stone_is_credited_with_what_it_can_complete() -> None:
    # Triangle 1 holds 1-5 with its sixth cell open: only a 6 fits there, and whoever
    # places it completes the triangle (and no line).
    cells = triangles()["triangle 1"]
    setup = {cell: Piece(0, n) for n, cell in enumerate(cells[:5], start=1)}
    game, state = _family(setup)
    open_cell = cells[5]
    assert game.check(state, Place(open_cell, 6)) is None
    after = game._apply(state, Place(open_cell, 6))
    gained = game.scores(after)[state.to_move] - game.scores(state)[state.to_move]
    assert gained > 0
    supply = game.hand_supply(state, state.to_move)
    assert supply is not None
    share = supply[6] / sum(supply.values())
    assert within_reach(game, state)[0] == pytest.approx(share * gained)
    standing = heuristic_for(game).standing(game, state)
    mover = state.to_move
    assert standing[mover] == pytest.approx(within_reach(game, state)[0])
    assert standing[1 - mover] == 0.0


def test_nothing_within_reach_adds_nothing() -> None:
    game, state = _family({})
    assert within_reach(game, state)[0] == 0.0
    assert heuristic_for(game).standing(game, state) == [0.0, 0.0]


def test_the_stone_after_next_is_credited_to_whoever_places_it() -> None:
    # A two-player game in play: whenever two cells would score, the best is the mover's
    # and the best on another cell goes to the placer of the stone after it (the mover
    # again on the first stone of their pair).
    seen = {0: 0, 1: 0}
    for seed in range(40):
        game, state = random_position(FAMILY, 2, 25 + seed % 2, seed)
        assert isinstance(state, FamilyState)
        first, second = within_reach(game, state)
        assert first >= second >= 0.0
        if second == 0.0:
            continue
        mover = state.to_move
        assert mover is not None
        after = mover_of(len(state.board) + 1, 2)
        expected = [float(s) for s in state.scores]
        expected[mover] += first
        expected[after] += second
        assert heuristic_for(game).standing(game, state) == pytest.approx(expected)
        seen[int(after == mover)] += 1
    assert seen[0] and seen[1], seen
