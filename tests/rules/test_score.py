"""Score-Dominari follows docs/RULINGS.md: openings, own-colour adjacency, missed turns, the end."""

from __future__ import annotations

from sudoku_table.rules.actions import Place
from sudoku_table.rules.dominari.scoring import table_scores
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.solver import find_fill

from .dominari_positions import END_TURN, blank, place, play, start

VARIANT = "score-dominari"


def test_white_opens_on_a1_and_black_on_f6() -> None:
    game, state = start(VARIANT)
    illegal = game.check(state, Place("c3", 1))
    assert illegal is not None
    assert illegal.reason == "White's first piece goes on a1" and illegal.cells == ("a1",)
    assert {a.cell for a in game.legal_actions(state)} == {"a1"}
    state = play(game, state, place("a1", 3))
    illegal = game.check(state, Place("b2", 1))
    assert illegal is not None and illegal.reason == "Black's first piece goes on f6"
    state = play(game, state, place("f6", 3))
    assert state.to_move == 0


def test_later_pieces_touch_an_own_piece_diagonals_included() -> None:
    game, state = start(VARIANT)
    state = play(game, state, place("a1", 3), place("f6", 2))
    assert game.check(state, Place("b2", 1)) is None
    assert game.check(state, Place("a2", 1)) is None
    illegal = game.check(state, Place("c3", 1))
    assert illegal is not None and illegal.reason == "c3 is not next to a piece of your own colour"
    state = play(game, state, place("b2", 1))
    illegal = game.check(state, Place("c3", 4))   # Black: next to White's b2 only
    assert illegal is not None and "own colour" in illegal.reason
    assert game.check(state, Place("e5", 4)) is None


def test_an_own_blank_counts_for_adjacency() -> None:
    game, state = start(VARIANT, "W1 a1, Wx c3, B2 f6")
    assert game.check(state, Place("d4", 2)) is None


def test_the_books_dead_field() -> None:
    # Right column: 1, 3, 5, 6; fifth row from the top (rank 2): 2, 5, 6; bottom-right block: 4.
    game, state = start(VARIANT, "W1 f3, W3 f4, B5 f5, B6 f6, W2 a2, W5 b2, B6 c2, B4 e1")
    assert "f2" in game.document(state)["dead"]


def test_the_revers_books_dead_field_holds_in_score_too() -> None:
    # The third row from the top (rank 4) holds 1-5 and the right middle block a 6.
    game, state = start(VARIANT, "W1 a4, W2 b4, W3 c4, B4 d4, B5 e4, B6 e3")
    assert "f4" in game.document(state)["dead"]


def test_blanks_need_no_neighbour_and_are_the_movers_colour() -> None:
    game, state = start(VARIANT, "W1 a1, B2 f6, W3 f3, W1 f4, W5 f5, W6 b2, W2 a2, B4 e1")
    # f2 is dead once White adds a 5 to rank 2 (1, 3, 5, 6 in file f; 2, 5, 6 in rank 2; 4).
    state = play(game, state, place("c2", 5))
    assert state.phase == "blanks" and "f2" in game.document(state)["dead"]
    state = play(game, state, blank("f2"))
    assert state.board["f2"] == Piece(0, None)


def test_a_missed_turn_waives_adjacency_once() -> None:
    # White's a1 is walled in by Black: White misses the first turn and places no blanks.
    game, state = start(VARIANT, "W1 a1, B2 a2, B3 b1, B4 b2, B5 f6")
    doc = game.document(state)
    assert doc["to_move"] == 1 and doc["passed"] == [0] and doc["adjacency_waived"] == [True, False]
    state = play(game, state, place("c1", 2))
    assert state.to_move == 0
    # Now White may place anywhere the house rule allows, once.
    assert game.check(state, Place("e4", 3)) is None
    state = play(game, state, place("e4", 3))
    assert game.document(state)["adjacency_waived"] == [False, False]
    state = play(game, state, place("e5", 1))            # Black, next to f6
    illegal = game.check(state, Place("b5", 6))
    assert illegal is not None and "own colour" in illegal.reason
    assert game.check(state, Place("d3", 4)) is None      # next to White's e4


def test_the_game_goes_on_while_a_free_field_can_take_a_number() -> None:
    game, state = start(VARIANT, "W1 a1, B2 a2, B3 b1, B4 b2, B5 f6")
    assert not state.over


def test_the_game_ends_when_the_board_is_full() -> None:
    board = final_position()
    last = board.pop("c5")
    game = new_game(VARIANT)
    state = game.initial_state(board)
    assert not state.over and state.to_move == 0
    assert last.number is not None
    state = game.apply(state, Place("c5", last.number))
    doc = game.document(state)
    assert doc["over"] and doc["scores"] == [18, 19] and doc["winners"] == [1]


def test_the_game_ends_when_every_empty_field_is_dead_and_the_blanks_are_done() -> None:
    board = final_position()
    last = board.pop("c5")
    board.pop("e3")                      # a black blank: without it e3 is an empty dead field
    game = new_game(VARIANT)
    state = game.initial_state(board)
    assert last.number is not None
    state = game.apply(state, Place("c5", last.number))
    doc = game.document(state)
    assert not doc["over"] and doc["phase"] == "blanks" and doc["dead"] == ["e3"]
    state = play(game, state, END_TURN)
    doc = game.document(state)
    # Black's fifth column is broken without its blank: 14 + 2 + 1 = 17 against 18.
    assert doc["over"] and doc["dead"] == ["e3"] and doc["scores"] == [18, 17]
    assert doc["winners"] == [0]


# --- the book's final evaluation ---------------------------------------------------------------

WHITE_NUMBERS = ("a1", "b1", "a2", "b2", "c1", "d1", "c2", "f1", "f2", "f3", "f4",
                 "a3", "c3", "c5", "d6")
WHITE_BLANKS = ("d2", "a4", "c4")
BLACK_NUMBERS = ("e5", "f5", "e6", "f6", "a5", "b5", "a6", "e1", "e2", "e4",
                 "b3", "d3", "d5", "c6")
BLACK_BLANKS = ("b6", "e3", "b4", "d4")


def final_position() -> dict[str, Piece]:
    """A full board matching the book's evaluation: White holds the bottom-left block in
    numbers and the bottom-middle block with a blank; Black the top-right block in numbers,
    the top-left block with a blank, and the fifth column with a blank."""
    numbered = WHITE_NUMBERS + BLACK_NUMBERS
    fill = find_fill(new_game(VARIANT).geometry, cells=numbered)
    assert fill is not None
    board = {c: Piece(0, fill[c]) for c in WHITE_NUMBERS}
    board.update({c: Piece(1, fill[c]) for c in BLACK_NUMBERS})
    board.update({c: Piece(0, None) for c in WHITE_BLANKS})
    board.update({c: Piece(1, None) for c in BLACK_BLANKS})
    assert len(board) == 36
    return board


def test_the_books_final_evaluation_white_18_black_19() -> None:
    board = final_position()
    assert sum(p.owner == 0 and not p.blank for p in board.values()) == 15
    assert sum(p.owner == 1 and not p.blank for p in board.values()) == 14
    assert table_scores(board) == [15 + 2 + 1, 14 + 2 + 1 + 2]
    game = new_game(VARIANT)
    state = game.initial_state(board)
    doc = game.document(state)
    assert doc["over"] and doc["scores"] == [18, 19] and doc["winners"] == [1]


def test_end_turn_then_the_other_player() -> None:
    game, state = start(VARIANT, "W1 a1, B2 f6, W3 f3, W1 f4, W5 f5, W6 b2, W2 a2, B4 e1")
    state = play(game, state, place("c2", 5), END_TURN)
    assert state.to_move == 1 and state.phase == "number"
