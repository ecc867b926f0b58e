"""Vierer-Dominari follows docs/RULINGS.md: adjacency, dead fields, the blank phase, four wins."""

from __future__ import annotations

import pytest

from sudoku_table.rules.actions import Blank, EndTurn, Move, Place
from sudoku_table.rules.errors import IllegalActionError, RecordError
from sudoku_table.rules.game import Piece, new_game

from .dominari_positions import END_TURN, blank, place, play, start

VARIANT = "vierer-dominari"
# b5 turns dead when White puts a 2 on e5: 1 and 2 in rank 5, 3 and 4 in file b, 5 in the block.
ISOLATED_DEAD_FIELD = "B1 d5, B3 b1, W4 b2, B5 a6"


def test_numbers_run_from_1_to_5() -> None:
    game, state = start(VARIANT)
    illegal = game.check(state, Place("c3", 6))
    assert illegal is not None and illegal.reason == "6 is not a number of Vierer-Dominari (1-5)"
    assert game.geometry.numbers == (1, 5)


def test_the_first_piece_may_go_anywhere() -> None:
    game, state = start(VARIANT)
    assert state.to_move == 0 and state.phase == "number"
    assert len(list(game.legal_actions(state))) == 36 * 5


def test_later_pieces_touch_a_piece_along_a_rank_or_file() -> None:
    game, state = start(VARIANT)
    state = play(game, state, place("c3", 3))
    illegal = game.check(state, Place("d4", 1))
    assert illegal is not None
    assert illegal.reason == "d4 is not next to any piece (along a rank or file)"
    assert game.check(state, Place("c4", 1)) is None      # next to White's piece: allowed
    state = play(game, state, place("c4", 1))
    assert game.check(state, Place("b4", 2)) is None      # next to Black's piece: allowed


def test_a_blank_counts_as_a_neighbour() -> None:
    game, state = start(VARIANT, "Wx a1")
    assert game.check(state, Place("a2", 1)) is None
    assert game.check(state, Place("b2", 1)) is not None


def test_the_dominari_rule_names_house_and_cell() -> None:
    game, state = start(VARIANT, "W5 a3, B2 b3")
    illegal = game.check(state, Place("c3", 5))
    assert illegal is not None
    assert illegal.reason == "5 is already in rank 3" and illegal.cells == ("a3",)
    with pytest.raises(IllegalActionError):
        game.apply(state, Place("c3", 5))
    illegal = game.check(state, Place("b4", 2))
    assert illegal is not None and illegal.reason == "2 is already in file b and block a3"


def test_the_books_dead_field_is_judged_against_1_to_5() -> None:
    # The central block holds 2, 3 and 5; the fourth row from the top (rank 3) holds 4 and 5;
    # the fourth column (file d) holds 1 and 3. Nothing of 1-5 fits on d3; a 6 would.
    text = "W5 c3, B2 c4, B3 d4, W4 a3, W1 d1"
    game, state = start(VARIANT, text)
    assert game.document(state)["dead"] == ["d3"]
    score, score_state = start("score-dominari", text)
    assert "d3" not in score.document(score_state)["dead"]


def test_after_the_number_piece_the_mover_may_place_blanks() -> None:
    game, state = start(VARIANT, ISOLATED_DEAD_FIELD)
    state = play(game, state, place("e5", 2))
    doc = game.document(state)
    assert doc["phase"] == "blanks" and doc["to_move"] == 0 and doc["dead"] == ["b5"]
    # A blank needs no neighbour: nothing touches b5.
    after = play(game, state, blank("b5"))
    doc = game.document(after)
    assert doc["cells"]["b5"] == {"owner": 0, "blank": True}
    assert doc["blanks_left"] == 11
    # The last dead field is filled: the turn ends by itself.
    assert doc["phase"] == "number" and doc["to_move"] == 1


def test_blanks_only_on_dead_fields_only_own_colour_only_after_the_number() -> None:
    game, state = start(VARIANT, ISOLATED_DEAD_FIELD)
    illegal = game.check(state, Blank("b5"))
    assert illegal is not None and "only after your number piece" in illegal.reason
    state = play(game, state, place("e5", 2))
    illegal = game.check(state, Blank("c4"))
    assert illegal is not None and illegal.reason.startswith("c4 is not a dead field")
    assert illegal.cells == ("c4",)
    illegal = game.check(state, Blank("b5", owner=1))
    assert illegal is not None and "mover's colour" in illegal.reason
    assert game.check(state, Blank("b5", owner=0)) is None
    illegal = game.check(state, Blank("b2"))
    assert illegal is not None and illegal.reason == "b2 is already occupied"


def test_end_turn_leaves_the_dead_field_for_either_player() -> None:
    game, state = start(VARIANT, ISOLATED_DEAD_FIELD)
    state = play(game, state, place("e5", 2), END_TURN)
    doc = game.document(state)
    assert doc["to_move"] == 1 and doc["phase"] == "number" and doc["dead"] == ["b5"]
    assert game.check(state, EndTurn()) is not None
    state = play(game, state, place("c5", 3))
    assert state.phase == "blanks" and state.to_move == 1
    state = play(game, state, blank("b5"))
    assert state.board["b5"] == Piece(1, None)


def test_a_place_during_the_blank_phase_belongs_to_the_next_player() -> None:
    game, state = start(VARIANT, ISOLATED_DEAD_FIELD)
    state = play(game, state, place("e5", 2))
    assert state.phase == "blanks" and state.to_move == 0
    after = play(game, state, place("c5", 3))
    assert after.board["c5"] == Piece(1, 3)
    # Black's own blank phase now holds the dead field still left.
    assert after.phase == "blanks" and after.to_move == 1
    # What Black could place is what the panel offers while White is still placing blanks.
    assert game.placeable_numbers(state, "c5") == [3, 4, 5]


def test_the_blank_supply_runs_out() -> None:
    twelve = ", ".join(f"Wx {c}" for c in ("a1", "c1", "e1", "a3", "e3", "b6",
                                           "d6", "f6", "f4", "d2", "f2", "b4"))
    game, state = start(VARIANT, twelve + ", " + ISOLATED_DEAD_FIELD.replace("b2", "c2"))
    assert game.document(state)["blanks_left"] == 0
    state = play(game, state, place("e5", 2))
    doc = game.document(state)
    assert doc["phase"] == "number" and doc["to_move"] == 1
    with pytest.raises(RecordError, match="only 12"):
        new_game(VARIANT).initial_state({**state.board, "a5": Piece(0, None)})


def test_four_in_a_rank_wins_at_once() -> None:
    game, state = start(VARIANT, "W1 a1, W2 b1, W3 c1, B4 a2, B5 b2, B1 c2")
    after = play(game, state, place("d1", 4))
    doc = game.document(after)
    assert doc["over"] and doc["winners"] == [0] and doc["to_move"] is None
    assert doc["four"] == ["a1", "b1", "c1", "d1"] and doc["scores"] == [1, 0]


def test_four_in_a_file_with_a_blank_wins() -> None:
    game, state = start(VARIANT, "Wx c2, W2 c3, W3 c4, B1 a1, B4 f6")
    after = play(game, state, place("c5", 4))
    assert after.over and after.winners == (0,)


def test_four_in_a_row_must_be_consecutive() -> None:
    game, state = start(VARIANT, "W1 a1, W2 b1, W3 d1, B4 a3, B5 f6")
    after = play(game, state, place("e1", 4))
    assert not after.over


def test_a_complete_printed_block_wins_but_not_any_2x2_square() -> None:
    game, state = start(VARIANT, "W1 c3, W2 d3, W3 c4, B1 b4, B3 a3")
    assert play(game, state, place("d4", 4)).winners == (0,)
    game, state = start(VARIANT, "W1 b2, W2 c2, W3 b3, B1 d4, B2 e4")
    assert not play(game, state, place("c3", 4)).over


def test_the_books_block_trick_wins_with_two_blanks() -> None:
    # White's 4 in the upper-left corner kills b5 and b6 (1, 2 in file b, 5 in ranks 5 and 6,
    # 3 and 4 in the block); two white blanks then fill the upper-left block.
    game, state = start(VARIANT, "W3 a5, B1 b1, B2 b2, B5 c5, B5 e6")
    state = play(game, state, place("a6", 4))
    doc = game.document(state)
    assert doc["phase"] == "blanks" and doc["dead"] == ["b5", "b6"]
    state = play(game, state, blank("b5"))
    assert not state.over
    state = play(game, state, blank("b6"))
    doc = game.document(state)
    assert doc["over"] and doc["winners"] == [0] and doc["phase"] == "blanks"
    assert doc["four"] == ["a5", "b5", "a6", "b6"]


def test_nobody_able_to_place_is_a_draw() -> None:
    # A position from a played game: only f6 still takes a number (a 1), f1 is dead.
    text = """W3 a1, W4 a2, B1 a3, Wx a4, B5 a5, W2 a6, B2 b1, B1 b2, W3 b3, B5 b4, B4 b5,
              Bx b6, W5 c1, W3 c2, Bx c3, W2 c4, W1 c5, B4 c6, B1 d1, Bx d2, W4 d3, B3 d4,
              W2 d5, W5 d6, B4 e1, B5 e2, Wx e3, W1 e4, B3 e5, Wx e6, Wx f2, W2 f3, B4 f4,
              Bx f5"""
    game, state = start(VARIANT, text)
    assert [a for a in game.legal_actions(state)] == [Place("f6", 1)]
    state = play(game, state, place("f6", 1))
    assert state.phase == "blanks"
    state = play(game, state, END_TURN)
    doc = game.document(state)
    assert doc["over"] and doc["winners"] == [] and doc["dead"] == ["f1"]
    assert doc["scores"] == [0, 0]


def test_moves_and_other_actions_are_not_part_of_vierer() -> None:
    game, state = start(VARIANT)
    illegal = game.check(state, Move(("a1", "a2")))
    assert illegal is not None and "no 'move' actions" in illegal.reason
