"""Revers-Dominari by the rulings: the three enclosures, blanks of both colours, the end."""

from __future__ import annotations

import pytest

from sudoku_table.rules.actions import Blank, EndTurn, Place
from sudoku_table.rules.dominari import enclosures
from sudoku_table.rules.dominari.placement import PlacementState
from sudoku_table.rules.game import Game, Piece, State, new_game

from .dominari_positions import END_TURN, blank, pieces, place, play, start

VARIANT = "revers-dominari"


def black_to_move(state: State) -> State:
    """The same position with Black to move (to try Black's placements directly)."""
    return state.replace(to_move=1)


def flips_of(game: Game, state: State, cell: str, number: int) -> list[str]:
    after = game.apply(state, Place(cell, number))
    return list(after.last.flipped)   # rank by rank, as the state document lists them


def test_default_setup_holds_four_numbers_in_the_central_block() -> None:
    game = new_game(VARIANT)
    setup = game.default_setup()
    assert {c: p.owner for c, p in setup.items()} == {"c3": 0, "d4": 0, "d3": 1, "c4": 1}
    assert len({p.number for p in setup.values()}) == 4
    state = game.initial_state(None)
    assert dict(state.board) == setup
    doc = game.document(state)
    assert doc["to_move"] == 0 and doc["phase"] == "number" and doc["blanks_left"] == 12
    assert doc["scores"] == [2, 2]
    assert sorted({a.cell for a in game.legal_actions(state)}) == ["b4", "c5", "d2", "e3"]


def test_a_piece_must_touch_an_opposing_piece_along_a_rank_or_file() -> None:
    game, state = start(VARIANT)
    illegal = game.check(state, Place("e5", 5))
    assert illegal is not None
    assert illegal.reason == "e5 is not next to any opposing piece (along a rank or file)"


def test_a_piece_must_enclose_something() -> None:
    game, state = start(VARIANT, "W1 a1, B2 c2, B3 e5, W4 e6")
    illegal = game.check(state, Place("c3", 3))
    assert illegal is not None and illegal.reason == "a piece on c3 encloses no opposing piece"


def test_the_dominari_rule_still_holds() -> None:
    game, state = start(VARIANT)
    illegal = game.check(state, Place("b4", 3))
    assert illegal is not None and illegal.reason == "3 is already in rank 4"
    assert illegal.cells == ("c4",)


# --- the three kinds of enclosure --------------------------------------------------------------

def test_a_line_of_one_or_more_opposing_pieces_ended_by_an_own_piece() -> None:
    game, state = start(VARIANT, "W1 a3, B2 b3, B3 c3, W4 e3")
    assert flips_of(game, state, "d3", 5) == ["b3", "c3"]


def test_a_line_broken_by_a_gap_or_running_to_the_edge_encloses_nothing() -> None:
    game, state = start(VARIANT, "W1 a3, B2 b3, B3 d3")
    assert enclosures(state.board, "e3", 0) == frozenset()
    game, state = start(VARIANT, "B2 a3, B3 b3, W1 f6")
    assert enclosures(state.board, "c3", 0) == frozenset()


def test_across_the_corner_encloses_a_single_piece() -> None:
    game, state = start(VARIANT, "W1 b2, B2 b3")
    assert flips_of(game, state, "c3", 3) == ["b3"]


def test_across_the_corner_takes_both_cells_next_to_both_pieces() -> None:
    game, state = start(VARIANT, "W1 b2, B2 b3, B3 c2")
    assert flips_of(game, state, "c3", 4) == ["c2", "b3"]


def test_across_the_corner_works_anywhere_on_the_board() -> None:
    game, state = start(VARIANT, "W1 e5, B2 f5")
    assert flips_of(game, state, "f6", 3) == ["f5"]


def test_a_double_pair_in_any_2x2_square_not_only_a_printed_block() -> None:
    # b2, c2, b3, c3 straddle four printed blocks.
    game, state = start(VARIANT, "W1 b2, B2 b3, B3 c3")
    assert flips_of(game, state, "c2", 4) == ["b3", "c3"]


def test_a_half_pair_is_no_double_pair() -> None:
    game, state = start(VARIANT, "W1 b2, B2 b3, B3 f6")
    assert enclosures(state.board, "c2", 0) == frozenset()


# --- the four pictured examples of the book, rebuilt from their captions -----------------------

def test_black_encloses_white_pieces_horizontally_and_vertically() -> None:
    game, state = start(VARIANT, """B1 a3, W2 b3, W3 d3, W4 e3, B5 f3,
                                     B1 c1, W2 c2, W4 c4, B5 c5""")
    state = black_to_move(state)
    assert flips_of(game, state, "c3", 6) == ["c2", "b3", "d3", "e3", "c4"]


def test_white_encloses_three_single_black_pieces_across_the_corner() -> None:
    game, state = start(VARIANT, "B1 b3, B2 d3, B3 c4, W4 d4, W5 b4, W6 d2")
    assert flips_of(game, state, "c3", 6) == ["b3", "d3", "c4"]


def test_white_makes_a_double_pair_and_encloses_a_line() -> None:
    game, state = start(VARIANT, "W1 a2, B2 b2, B3 d2, W4 c1, B5 d1")
    assert flips_of(game, state, "c2", 6) == ["d1", "b2", "d2"]


def test_white_makes_a_double_pair_and_encloses_across_the_corner() -> None:
    game, state = start(VARIANT, "W1 d3, B2 c4, B3 d4, W4 b2, B5 b3")
    assert flips_of(game, state, "c3", 6) == ["b3", "c4", "d4"]


# --- no chain reactions ------------------------------------------------------------------------

def test_a_turned_piece_encloses_nothing_further() -> None:
    # b1 turns White; as a White piece it would enclose b2 against b3, but nothing chains.
    game, state = start(VARIANT, "W1 a1, B2 b1, B3 b2, W4 b3")
    after = game.apply(state, Place("c1", 5))
    assert after.last.flipped == ("b1",)
    assert after.board["b2"] == Piece(1, 3)


def test_enclosures_are_judged_before_anything_turns() -> None:
    # c2 turns White by the line, but it was Black when judged: no double pair with it.
    game, state = start(VARIANT, "B1 c2, W2 d2, B3 b3, B4 c3")
    after = game.apply(state, Place("b2", 5))
    assert after.last.flipped == ("c2",)
    assert after.board["b3"].owner == 1 and after.board["c3"].owner == 1


# --- blanks ------------------------------------------------------------------------------------

# White's 5 on e1 turns d1 and kills a1 (1, 2, 4, 5 in rank 1; 3 in file a; 6 in the block).
# Black's f6 keeps Black in the game in the top-right corner.
BLANK_CORNER = "B1 b1, W2 c1, B4 d1, W3 a2, B6 b2, W3 f5, B5 f6"


def test_a_blank_phase_follows_when_a_dead_field_appears() -> None:
    game, state = start(VARIANT, BLANK_CORNER)
    state = play(game, state, place("e1", 5))
    doc = game.document(state)
    assert doc["last"]["flipped"] == ["d1"]
    assert doc["phase"] == "blanks" and doc["to_move"] == 0 and doc["dead"] == ["a1"]
    listed = set(game.legal_actions(state))
    assert {Blank("a1"), Blank("a1", 1), EndTurn()} <= listed


def test_an_own_blank_encloses_like_a_new_piece() -> None:
    game, state = start(VARIANT, BLANK_CORNER)
    state = play(game, state, place("e1", 5), blank("a1"))
    # The line a1-b1-c1 and the double pair a1/a2 over b1/b2.
    assert state.last.flipped == ("b1", "b2")
    assert state.board["a1"] == Piece(0, None)
    assert state.phase == "number" and state.to_move == 1


def test_an_opposing_colour_blank_never_turns_anything() -> None:
    game, state = start(VARIANT, BLANK_CORNER)
    state = play(game, state, place("e1", 5), blank("a1", owner=1))
    assert state.last.flipped == ()
    assert state.board["a1"] == Piece(1, None)
    assert state.board["b1"].owner == 1


def test_blanks_are_enclosed_and_turned_like_number_pieces() -> None:
    game, state = start(VARIANT, "Bx b3, W1 a3")
    after = game.apply(state, Place("c3", 2))
    assert after.board["b3"] == Piece(0, None)


def test_an_own_blank_ends_a_line() -> None:
    game, state = start(VARIANT, "Wx a3, B1 b3")
    assert flips_of(game, state, "c3", 2) == ["b3"]


def test_the_turn_ends_with_end_turn_and_the_dead_field_stays() -> None:
    game, state = start(VARIANT, BLANK_CORNER)
    state = play(game, state, place("e1", 5), END_TURN)
    doc = game.document(state)
    assert doc["to_move"] == 1 and doc["phase"] == "number" and doc["dead"] == ["a1"]


# --- passes and the end ------------------------------------------------------------------------

def test_a_player_who_cannot_enclose_passes() -> None:
    # White's only chances would need b2, which is dead; Black encloses a2 from a3.
    game, state = start(VARIANT, "B1 a1, B2 b1, W3 a2, W4 e2, W5 f2, W6 b5")
    doc = game.document(state)
    assert doc["to_move"] == 1 and doc["passed"] == [0]
    assert "b2" in doc["dead"]
    after = game.apply(state, Place("a3", 2))
    assert after.last.flipped == ("a2",)


def test_the_game_ends_when_nobody_can_place_and_the_higher_score_wins() -> None:
    game, state = start(VARIANT, "W1 a1, B2 b1, B3 f6")
    after = play(game, state, place("c1", 3))
    doc = game.document(after)
    assert doc["over"] and doc["to_move"] is None and doc["winners"] == [0]
    assert doc["scores"] == [3, 1]


def test_equal_scores_at_the_end_are_a_draw() -> None:
    game, state = start(VARIANT, "W1 a1, B2 b1, B3 e6, B4 f5, B5 d4")
    after = play(game, state, place("c1", 3))
    doc = game.document(after)
    assert doc["over"] and doc["scores"] == [3, 3] and doc["winners"] == []


def test_a_place_during_the_blank_phase_is_the_next_players() -> None:
    game, state = start(VARIANT, BLANK_CORNER)
    state = play(game, state, place("e1", 5))
    assert isinstance(state, PlacementState) and state.phase == "blanks"
    illegal = game.check(state, Place("e2", 1))   # for Black e2 encloses nothing
    assert illegal is not None and "encloses no opposing piece" in illegal.reason


@pytest.mark.parametrize("text, expected", [
    ("W1 a1", [1, 0]),
    ("W1 a1, W2 b1, W3 a2, W4 b2", [4 + 2, 0]),
    ("W1 a1, Wx b1, W3 a2, W4 b2", [3 + 1, 0]),
    ("W1 a1, B2 b1, W3 a2, W4 b2", [3, 1]),
    ("B1 a1, B2 b1, B3 c1, B4 d1, B5 e1, B6 f1", [0, 6 + 3]),
    ("B1 a1, Bx b1, B3 c1, B4 d1, B5 e1, B6 f1", [0, 5 + 2]),
    ("B1 a1, Wx b1, B3 c1, B4 d1, B5 e1, B6 f1", [0, 5]),
    ("Wx a1, Wx b1, Wx a2, Wx b2", [1, 0]),
])
def test_the_scoring_table(text: str, expected: list[int]) -> None:
    game = new_game(VARIANT)
    state = PlacementState(players=2, board=pieces(text))
    assert game.scores(state) == expected
