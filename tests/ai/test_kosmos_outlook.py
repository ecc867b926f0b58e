"""The KOSMOS estimate: which numbers still fit a cell, what an open section is worth, and who
is likely to take a bonus area one card from complete."""

from __future__ import annotations

import pytest

from sudoku_table.ai.heuristics import heuristic_for
from sudoku_table.ai.heuristics.kosmos import bonus_takers, fitting_masks, outlook, section_outlook
from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.kosmos.core import KosmosGame, KosmosState

from .positions import random_position

KOSMOS = ["classic-sudoku", "labyrinth-sudoku", "killer-sudoku", "kakuro", "3d-sudoku",
          "hexa-sudoku"]


@pytest.mark.parametrize("variant", KOSMOS)
def test_the_fitting_numbers_are_the_rules_own(variant: str) -> None:
    for seed in range(6):
        game, state = random_position(variant, 2, 10 + 6 * seed, seed)
        assert isinstance(game, KosmosGame) and isinstance(state, KosmosState)
        masks = fitting_masks(game, state)
        for cell, mask in zip(game.geometry.cells, masks, strict=True):
            if cell in state.board:
                assert mask == 0
                continue
            fits = [n for n in range(1, 10) if game.fits(state.board, cell, n)]
            assert [n for n in range(1, 10) if mask >> n & 1] == fits, (variant, cell)


def test_a_lead_is_worth_more_the_larger_it_is() -> None:
    mean, square = 5.0, 95 / 3
    even = section_outlook([5, 5], [True, True], mean, square, 1)
    ahead = section_outlook([9, 5], [True, True], mean, square, 1)
    far = section_outlook([17, 5], [True, True], mean, square, 1)
    assert even[0] == pytest.approx(even[1])
    assert even[0] < ahead[0] < far[0] <= 2.0
    assert ahead[1] < even[1] and far[1] >= 1.0 - 1e-9  # a present runner keeps its point
    alone = section_outlook([5, 0], [True, False], mean, square, 1)
    assert alone[1] < far[1]  # an absent player may stay out and get nothing


def test_more_players_share_the_same_points() -> None:
    got = section_outlook([7, 3, 0], [True, True, False], 5.0, 95 / 3, 1)
    assert got[0] > got[1] > got[2] >= 0.0
    assert sum(got) <= 3.0 + 1e-9


def _classic(setup: dict[str, tuple[int, int]], supply: list[list[int]] | None = None,
             to_move: int = 0) -> tuple[KosmosGame, KosmosState]:
    game = new_game("classic-sudoku", 2)
    assert isinstance(game, KosmosGame)
    state = game.initial_state({c: Piece(o, n) for c, (o, n) in setup.items()})
    if supply is not None:
        state = state.replace(supply=tuple(tuple(s) for s in supply))
    return game, state.replace(to_move=to_move)


def test_a_section_with_a_dead_cell_is_worth_nothing() -> None:
    # a1 is empty and every number is in its houses: line a1-c1 can never be full
    live = {"b1": (0, 9), "c1": (0, 8)}
    game, state = _classic(live)
    row = outlook(game, state)
    dead = dict(live, d1=(1, 1), e1=(1, 2), f1=(1, 3), a2=(1, 4), a3=(1, 5), a4=(1, 6),
                a5=(1, 7))
    game, state = _classic(dead)
    masks = fitting_masks(game, state)
    assert masks[game.geometry.cells.index("a1")] == 0
    # player 0's strong lead in line a1-c1 counted before and counts for nothing now
    before = row[0] - row[1]
    after = outlook(game, state)
    assert after[0] - after[1] < before - 1.0


def _rank(files: str) -> dict[str, tuple[int, int]]:
    """Rank 1 from file a on: cards 1, 2, 3... of the two players in turn."""
    return {f"{f}1": (k % 2, k + 1) for k, f in enumerate(files)}


def test_a_bonus_area_one_card_from_complete_goes_to_who_holds_the_card() -> None:
    rank = _rank("abcdefgh")
    supply = [[0] * 8 + [4], [4] * 8 + [0]]  # only the mover holds 9s
    game, state = _classic(rank, supply, to_move=0)
    takers = bonus_takers(state, 1 << 9, 1)
    assert takers == pytest.approx([1.0, 0.0])
    supply = [[4] * 8 + [0], [4] * 8 + [4]]  # only the next player holds 9s
    game, state = _classic(rank, supply, to_move=0)
    assert bonus_takers(state, 1 << 9, 1) == pytest.approx([0.0, 1.0])
    half = bonus_takers(state.replace(supply=((4,) * 9, (4,) * 9)), 1 << 9, 1)
    assert half[0] > half[1] > 0.0 and sum(half) == pytest.approx(1.0)


def test_leaving_a_bonus_to_the_next_player_looks_worse() -> None:
    # rank 1 lacks 8 and 9; the mover holds an 8 and the next player only 9s: an 8 on h1
    # leaves i1 to them, an 8 far away does not
    rank = _rank("abcdefg")
    game, state = _classic(rank, [[4] * 8 + [0], [0] * 8 + [4]], to_move=0)
    heuristic = heuristic_for(game)
    near = game.apply(state, Place("h1", 8))
    away = game.apply(state, Place("e5", 8))
    assert heuristic.margin(game, near, 0) < heuristic.margin(game, away, 0)
