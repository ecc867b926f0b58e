"""Halma-Dominari follows docs/RULINGS.md: forward moves, jumps, bearing off, passes, the end."""

from __future__ import annotations

import pytest

from sudoku_table.rules.actions import EndTurn, Move, Place, action_from_json
from sudoku_table.rules.errors import IllegalActionError, RecordError
from sudoku_table.rules.game import Game, Piece, State, new_game

from .dominari_positions import move, pieces, play, start

VARIANT = "halma-dominari"


def paths_from(game: Game, state: State, cell: str) -> set[tuple[str, ...]]:
    return {a.path for a in game.legal_actions(state) if isinstance(a, Move) and a.start == cell}


def reason(game: Game, state: State, *path: str) -> str:
    illegal = game.check(state, Move(tuple(path)))
    assert illegal is not None, f"{path} should be illegal"
    return illegal.reason


# --- setup -------------------------------------------------------------------------------------

def test_default_setup_puts_each_set_in_its_corner() -> None:
    game = new_game(VARIANT)
    setup = game.default_setup()
    assert {c for c, p in setup.items() if p.owner == 0} == {"a1", "b1", "c1", "a2", "b2", "a3"}
    assert {c for c, p in setup.items() if p.owner == 1} == {"f6", "e6", "d6", "f5", "e5", "f4"}
    for player in (0, 1):
        assert sorted(p.number for p in setup.values() if p.owner == player) == [1, 2, 3, 4, 5, 6]
    state = game.initial_state(None)
    assert dict(state.board) == setup
    doc = game.document(state)
    assert doc["to_move"] == 0 and doc["borne_off"] == [0, 0] and doc["scores"] == [0, 0]


@pytest.mark.parametrize("text, words", [
    ("W1 a1, W1 c2, B2 f6", "only one 1"),
    ("W1 a1, Bx f6", "number pieces"),
    ("W1 a1, B1 a6", "1 is already in file a"),
    ("W1 a1", "Black needs a piece"),
])
def test_setups_that_break_the_rules_are_refused(text: str, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        new_game(VARIANT).initial_state(pieces(text))


# --- moving forward ----------------------------------------------------------------------------

def test_white_steps_up_right_and_up_right_only() -> None:
    game, state = start(VARIANT, "W1 c3, B2 f6")
    assert paths_from(game, state, "c3") == {("c3", "c4"), ("c3", "d3"), ("c3", "d4")}
    for backwards in ("c2", "b3", "b2", "b4", "d2"):
        assert reason(game, state, "c3", backwards) == \
            f"c3 to {backwards} is no forward step or jump: White moves up, right or up-right"


def test_black_steps_down_left_and_down_left_only() -> None:
    game, state = start(VARIANT, "W1 a1, B2 d4")
    state = play(game, state, move("a1", "a2"))
    assert state.to_move == 1
    assert paths_from(game, state, "d4") == {("d4", "d3"), ("d4", "c4"), ("d4", "c3")}
    assert "down, left or down-left" in reason(game, state, "d4", "d5")


def test_jumps_go_over_pieces_of_either_colour() -> None:
    game, state = start(VARIANT, "W1 b2, W2 c3, B3 b3, B4 f6")
    assert paths_from(game, state, "b2") == {
        ("b2", "c2"),            # the one free step
        ("b2", "b4"),            # over Black's 3
        ("b2", "d4"),            # over White's own 2
    }


def test_a_jump_sequence_may_stop_after_any_jump() -> None:
    game, state = start(VARIANT, "W1 a1, B2 a2, B3 a4, B4 f6")
    assert paths_from(game, state, "a1") == {
        ("a1", "b1"), ("a1", "b2"), ("a1", "a3"), ("a1", "a3", "a5"),
    }
    after = play(game, state, move("a1", "a3", "a5"))
    assert after.board["a5"] == Piece(0, 1) and "a1" not in after.board


def test_steps_and_jumps_do_not_mix() -> None:
    game, state = start(VARIANT, "W1 a1, B2 b2, B4 f6")
    assert "steps and jumps do not mix" in reason(game, state, "a1", "b1", "b3")
    assert "steps and jumps do not mix" in reason(game, state, "a1", "c3", "c4")


def test_a_jump_needs_a_piece_to_jump_and_a_free_landing() -> None:
    game, state = start(VARIANT, "W1 a1, B2 a2, B3 a3, B4 f6")
    assert reason(game, state, "a1", "c3") == "nothing to jump over on b2"
    assert reason(game, state, "a1", "a3") == "a3 is occupied"
    assert reason(game, state, "a1", "a2") == "a2 is occupied"


def test_only_own_pieces_move() -> None:
    game, state = start(VARIANT)
    assert reason(game, state, "f4", "f3") == "f4 holds no piece of White's"
    assert reason(game, state, "d4", "d5") == "d4 holds no piece of White's"
    illegal = game.check(state, EndTurn())
    assert illegal is not None and "moving pieces" in illegal.reason
    assert game.check(state, Place("d4", 1)) is not None


# --- the Dominari rule -------------------------------------------------------------------------

def test_the_black_five_may_not_end_in_the_rank_of_the_white_five() -> None:
    game, state = start(VARIANT, "W1 a1, W5 a4, B5 d5")
    state = play(game, state, move("a1", "b1"))
    illegal = game.check(state, Move(("d5", "d4")))
    assert illegal is not None
    assert illegal.reason == "5 is already in rank 4" and illegal.cells == ("a4",)
    assert game.check(state, Move(("d5", "c5"))) is None


def test_the_black_five_may_not_end_in_the_block_of_the_white_five() -> None:
    game, state = start(VARIANT, "W1 a1, W5 c3, B5 e5")
    state = play(game, state, move("a1", "b1"))
    illegal = game.check(state, Move(("e5", "d4")))
    assert illegal is not None
    assert illegal.reason == "5 is already in block c3" and illegal.cells == ("c3",)
    with pytest.raises(IllegalActionError):
        game.apply(state, Move(("e5", "d4")))


def test_a_jump_may_pause_on_a_conflicting_cell() -> None:
    game, state = start(VARIANT, "W5 a1, B1 a2, B2 a4, B5 c3")
    illegal = game.check(state, Move(("a1", "a3")))
    assert illegal is not None and illegal.reason == "5 is already in rank 3"
    assert illegal.cells == ("c3",)
    assert game.check(state, Move(("a1", "a3", "a5"))) is None
    assert ("a1", "a3", "a5") in paths_from(game, state, "a1")
    assert ("a1", "a3") not in paths_from(game, state, "a1")


def test_a_multiple_jump_that_turns_away_from_the_corner_is_refused() -> None:
    # Black's 6 jumps down-left over White's 2, then would jump up over White's 3: away from a1.
    game, state = start(VARIANT, "W1 a1, W2 d4, W3 c4, B6 e5")
    state = play(game, state, move("a1", "b1"))
    assert game.check(state, Move(("e5", "c3"))) is None
    assert "down, left or down-left" in reason(game, state, "e5", "c3", "c5")
    assert ("e5", "c3", "c5") not in paths_from(game, state, "e5")


# --- bearing off -------------------------------------------------------------------------------

def test_a_piece_on_the_exit_corner_steps_off() -> None:
    game, state = start(VARIANT, "W1 f6, W2 a1, B3 a6")
    after = play(game, state, move("f6", "off"))
    assert "f6" not in after.board
    doc = game.document(after)
    assert doc["borne_off"] == [5, 5] and doc["scores"] == [5, 5]
    assert doc["last"]["points"] == [1, 0] and not doc["over"]


def test_jumping_off_over_the_exit_corner_from_each_side() -> None:
    game, state = start(VARIANT, "B4 f6, W1 e5, W2 f5, W3 e6, W4 a1")
    offs = {a.path for a in game.legal_actions(state) if a.path[-1] == "off"}
    assert offs == {("e5", "off"), ("f5", "off"), ("e6", "off")}
    after = play(game, state, move("e5", "off"))
    assert "e5" not in after.board and after.board["f6"] == Piece(1, 4)


def test_black_jumps_off_over_a1_from_each_side() -> None:
    game, state = start(VARIANT, "W4 a1, B1 b2, B2 a2, B3 b1, W5 f1")
    state = play(game, state, move("f1", "f2"))
    offs = {a.path for a in game.legal_actions(state) if a.path[-1] == "off"}
    assert offs == {("b2", "off"), ("a2", "off"), ("b1", "off")}


def test_jumping_off_needs_a_piece_on_the_exit_corner() -> None:
    game, state = start(VARIANT, "W1 e5, B2 a6")
    assert "only from f6" in reason(game, state, "e5", "off")


def test_no_jump_off_the_board_except_over_the_exit_corner() -> None:
    game, state = start(VARIANT, "W1 e4, B2 f4")
    assert "only from f6" in reason(game, state, "e4", "off")
    assert all(a.path[-1] != "off" for a in game.legal_actions(state))


def test_the_last_jump_of_a_sequence_may_bear_off() -> None:
    game, state = start(VARIANT, "W1 c4, B2 d5, B3 f6")
    assert ("c4", "e6", "off") in paths_from(game, state, "c4")
    after = play(game, state, move("c4", "e6", "off"))
    assert game.document(after)["borne_off"] == [6, 4]


def test_leaving_the_board_ends_the_move() -> None:
    game, state = start(VARIANT, "W1 f6, W2 e4, B3 a6")
    assert game.check(state, Move(("f6", "off", "e5"))) is not None
    with pytest.raises(RecordError):
        action_from_json({"type": "move", "path": ["f6", "off", "e5"]})


# --- turns, passes and the end -----------------------------------------------------------------

def test_a_player_who_cannot_move_passes() -> None:
    # Black's 5 on b3 is boxed in by the house rule: b2, a2 share rank 2 with White's 5 and a3
    # shares file a with it; jumping over a2 would leave the board away from the exit corner.
    game, state = start(VARIANT, "W5 a2, W1 f1, B5 b3")
    state = play(game, state, move("f1", "f2"))
    doc = game.document(state)
    assert doc["to_move"] == 0 and doc["passed"] == [1] and not doc["over"]


def test_moving_is_compulsory() -> None:
    game, state = start(VARIANT, "W5 a2, W1 f1, B5 b3")
    assert game.check(state, EndTurn()) is not None
    assert len(list(game.legal_actions(state))) > 0


def test_both_players_unable_to_move_in_succession_is_a_draw() -> None:
    game, state = start(VARIANT, "W5 e1, W2 f2, B2 a3, B5 b3")
    after = play(game, state, move("e1", "e2"))
    doc = game.document(after)
    assert doc["over"] and doc["winners"] == [] and doc["to_move"] is None
    assert list(game.legal_actions(after)) == []


def test_bearing_off_the_sixth_piece_wins() -> None:
    game, state = start(VARIANT, "W1 f6, B2 a6, B3 b6")
    after = play(game, state, move("f6", "off"))
    doc = game.document(after)
    assert doc["over"] and doc["winners"] == [0] and doc["borne_off"] == [6, 4]
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(after, Move(("a6", "a5")))


def test_the_first_turn_is_whites_and_then_they_alternate() -> None:
    game, state = start(VARIANT)
    after = play(game, state, move("b2", "c3"))
    assert after.to_move == 1
    after = play(game, after, move("f4", "e4"))
    assert after.to_move == 0


def test_every_listed_move_is_legal_and_nothing_else_from_the_start() -> None:
    game, state = start(VARIANT)
    listed = list(game.legal_actions(state))
    assert len(listed) == len(set(listed)) == 12  # counted by hand in the perft data
    for action in listed:
        assert game.check(state, action) is None
