"""How the table leads a family through a game, at the moments the model player and a family
trying the table found it misleading or silent (each test fails without its fix):

- a take-back after flips: the real face of every piece, the right player, and in words what to
  take away and turn back;
- a blank's colour is asked of the player who set it, beside the next player's turn, never
  instead of it; the last blank of a game can still be told after the game ended with it;
- Undo asks before taking back another player's action or a second one; Redo puts back;
- where a piece may go is said before the first try, and the board can show it;
- SUDOKU FAMILY's second stone of a turn is said, and its refusals name triangles as areas;
- an end with pieces still to turn says so; messages belong to the moment they were said for;
- a stone that fits nowhere laid where no number fits is a joker there, not sent away;
- a piece put where no number may go is lit, said and explained as one to take away, never
  as one whose number is asked;
- the arrows never send a piece where another belongs; after a power cut the pieces the last
  move turned are named to check.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import Blank, Place
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.record import Record, replay
from sudoku_table.table import ConfirmNeeded, InputError, Table

from .fakes import resolve
from .helpers import Clock, kosmos, lift, make_table, put
from .test_playthrough import play

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"


def example(name: str) -> Record:
    return Record.from_json(json.loads((EXAMPLES / f"{name}.json").read_text())["record"])


def turn(table: Table, clock: Clock, square: str) -> dict[str, Any]:
    """Turn a piece over: lift it and set it down on its other face."""
    lift(table, clock, square)
    return put(table, clock, square)


def played(name: str, upto: int, *, turned: bool = True,
           journal: Path | None = None) -> tuple[Table, Clock, Record]:
    """A table with the example's first ``upto`` actions made on the board (the flips turned
    over as the table asks, except after the last action unless ``turned``)."""
    record = example(name)
    game, states = replay(record)
    table, clock, _ = make_table(journal)
    table.new_game(record.variant, record.players, record.options,
                   {c: p.to_json() for c, p in record.setup.items()})
    table.set_board(list(record.setup))
    for index, action in enumerate(record.actions[:upto]):
        play(table, clock, action, states[index].to_move)
        if turned or index < upto - 1:
            for square in states[index + 1].last.flipped:
                turn(table, clock, square)
    return table, clock, record


# --- a take-back after flips ---------------------------------------------------------------------


def test_a_take_back_after_flips_shows_real_faces_the_right_player_and_what_to_do() -> None:
    # Black's 4 on c6 turned c3, c4 and c5 (c5 had only ever been White's) and Black turned
    # them; then it is taken back.
    table, clock, _ = played("revers-dominari-7-17", 6)
    view = table.view()
    assert view["table"]["next"]["actor"] == 0  # White's turn now
    with pytest.raises(ConfirmNeeded):
        table.input({"type": "undo"})
    view = table.input({"type": "undo", "confirm": True})
    # The game has them White again; on the table they show Black until turned back.
    assert view["table"]["unturned"] == {"c3": 1, "c4": 1, "c5": 1}
    assert {s for s, w in view["table"]["signals"].items() if w == "flip"} == {"c3", "c4", "c5"}
    nxt = view["table"]["next"]
    assert nxt["code"] == "undo_on_board" and nxt["actor"] == 1  # Black made the move
    assert nxt["params"]["take_away"] == ["c6"] and nxt["params"]["turn"] == ["c3", "c4", "c5"]
    assert view["table"]["message_code"]["params"]["player"] == 1
    lift(table, clock, "c6")
    for square in ("c3", "c4", "c5"):
        view = turn(table, clock, square)
    assert view["table"]["unturned"] == {} and view["table"]["next"]["code"] == "place"
    assert view["table"]["next"]["actor"] == 1


def test_a_take_back_before_the_flips_were_turned_leaves_nothing_to_turn() -> None:
    table, clock, _ = played("revers-dominari-7-17", 6, turned=False)
    view = table.input({"type": "undo"})  # Black's own move, Black still turning: no question
    assert view["table"]["unturned"] == {}
    assert view["table"]["next"]["code"] == "undo_on_board"
    assert view["table"]["next"]["params"]["turn"] == []


# --- a blank's colour ----------------------------------------------------------------------------


def test_a_blanks_colour_is_asked_of_its_setter_beside_the_next_players_turn() -> None:
    # Black's blank on c1 turns d1 and d2 over and ends Black's turn.
    table, clock, _ = played("revers-dominari-7-17", 9, turned=False)
    view = table.view()
    assert view["game"]["to_move"] == 0
    assert view["table"]["next"] == {"code": "turn_over", "actor": 1,
                                     "params": {"squares": ["d1", "d2"]}}
    choice = {"square": "c1", "choices": [0, 1], "owner": 1, "player": 1}
    assert view["table"]["blank_choice"] == choice
    for square in ("d1", "d2"):
        view = turn(table, clock, square)
    # White's turn is White's: the pad offers White's numbers, Black's question stays beside.
    assert view["table"]["next"]["code"] == "place" and view["table"]["next"]["actor"] == 0
    assert view["table"]["prompt"] is None
    assert view["table"]["pad"] is not None and view["table"]["pad"]["numbers"]
    assert view["table"]["blank_choice"] == choice
    with pytest.raises(InputError, match="already counts"):  # the colour it has: no button
        table.input({"type": "blank", "square": "c1", "owner": 1})
    view = table.input({"type": "blank", "square": "c1", "owner": 0})
    assert view["game"]["cells"]["c1"] == {"owner": 0, "blank": True}
    # An opposing blank turns nothing: Black turns d1 and d2 back.
    assert view["table"]["next"] == {"code": "turn_over", "actor": 1,
                                     "params": {"squares": ["d1", "d2"]}}
    assert view["table"]["unturned"] == {"d1": 1, "d2": 1}


def test_the_pad_rests_in_a_blank_phase() -> None:
    table, clock, _ = played("revers-dominari-7-17", 7)  # White's 1 on d1: blanks may follow
    view = table.view()
    assert view["game"]["phase"] == "blanks"
    assert view["table"]["next"]["code"] == "blanks_or_end"
    assert view["table"]["pad"] is None


def test_the_blank_that_ended_the_game_can_still_be_told() -> None:
    table, clock, record = played("revers-dominari-8-38", 38, turned=False)
    view = table.view()
    assert view["game"]["over"]
    assert view["table"]["blank_choice"]["square"] == "f2"
    other = 1 - view["game"]["cells"]["f2"]["owner"]
    view = table.input({"type": "blank", "square": "f2", "owner": other})
    assert view["game"]["cells"]["f2"]["owner"] == other and view["game"]["over"]
    assert table.record()["actions"][-1] == {"type": "blank", "cell": "f2", "owner": other}


# --- the end with pieces still to turn -----------------------------------------------------------


def test_an_end_with_pieces_still_to_turn_says_so() -> None:
    table, clock, _ = played("revers-dominari-8-38", 38, turned=False)
    view = table.view()
    assert view["game"]["over"]
    assert view["table"]["next"]["code"] == "turn_over"
    assert view["table"]["next"]["params"]["squares"] == ["e2"]
    view = turn(table, clock, "e2")
    assert view["table"]["next"]["code"] == "game_over"


# --- undo and redo -------------------------------------------------------------------------------


def four_cards(journal: Path | None = None) -> tuple[Table, Clock]:
    return kosmos((("a1", 1), ("b3", 2), ("c2", 3), ("d4", 4)), journal)


def test_quick_taps_on_undo_take_back_nothing_unasked() -> None:
    table, clock = four_cards()
    before = table.view()["game"]
    for _ in range(5):  # another phone, tapping fast: the last action is the other player's
        with pytest.raises(ConfirmNeeded, match="take back"):
            table.input({"type": "undo"})
    assert table.view()["game"] == before
    table.input({"type": "undo", "confirm": True})
    assert len(table.record()["actions"]) == 3
    with pytest.raises(ConfirmNeeded, match="taken back already"):  # a second one: asked
        table.input({"type": "undo"})
    assert len(table.record()["actions"]) == 3


def test_undo_of_ones_own_last_action_is_not_asked() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-revers")
    table.set_board(["b2", "c3", "c2", "b3"])
    put(table, clock, "d2")
    view = table.input({"type": "number", "square": "d2", "number": 3})
    assert view["table"]["next"]["code"] == "turn_over" and view["table"]["next"]["actor"] == 0
    view = table.input({"type": "undo"})  # White is still turning White's flips: no question
    assert view["table"]["can_redo"] and table.record()["actions"] == []


def test_redo_puts_back_what_undo_took_until_a_new_action(tmp_path: Path) -> None:
    table, clock = four_cards(tmp_path / "journal.sqlite3")
    table.input({"type": "undo", "confirm": True})
    table.input({"type": "undo", "confirm": True})
    lift(table, clock, "d4")
    view = lift(table, clock, "c2")
    assert view["table"]["can_redo"]
    view = table.input({"type": "redo"})
    assert view["game"]["cells"]["c2"] == {"owner": 0, "number": 3}
    assert view["table"]["next"]["code"] == "redo_on_board"
    assert view["table"]["next"]["params"]["put_back"] == ["c2"]
    assert view["table"]["message_code"]["code"] == "redone"
    view = put(table, clock, "c2")
    assert view["table"]["next"]["code"] == "place" and view["table"]["can_redo"]
    table.close()
    # The redo and what is still to put back are kept in the journal.
    table, clock, _ = make_table(tmp_path / "journal.sqlite3")
    table.set_board(["a1", "b3", "c2"])
    assert table.view()["table"]["can_redo"]
    view = table.input({"type": "redo"})
    assert len(table.record()["actions"]) == 4 and not view["table"]["can_redo"]
    put(table, clock, "d4")
    table.input({"type": "undo", "confirm": True})
    lift(table, clock, "d4")
    put(table, clock, "d1")  # a new action: what was taken back is forgotten
    view = table.input({"type": "number", "square": "d1", "number": 2})
    assert not view["table"]["can_redo"]
    with pytest.raises(InputError, match="nothing to put back"):
        table.input({"type": "redo"})
    table.close()


# --- where a piece may go --------------------------------------------------------------------


def test_where_a_piece_may_go_is_said_before_the_first_try() -> None:
    table, clock, _ = make_table()
    view = table.new_game("revers-dominari")
    table.set_board(["c3", "d3", "c4", "d4"])
    view = table.view()
    rule = new_game("revers-dominari").where_rule(None)  # type: ignore[arg-type]
    assert rule is not None
    assert view["table"]["next"]["params"]["rule"] == rule.to_json()
    assert view["table"]["where_offered"]
    # The board shows where: exactly where a number may go.
    view = table.input({"type": "where"})
    lit = {s for s, w in view["table"]["signals"].items() if w == "target"}
    game = new_game("revers-dominari")
    state = game.initial_state()
    assert lit == {c for c in game.geometry.cells if game.placeable_numbers(state, c)}
    assert lit and len(lit) < 12
    view = table.input({"type": "where"})  # again: off
    assert "target" not in view["table"]["signals"].values()


def test_score_names_each_opening_and_family_its_black_dots_and_triangles() -> None:
    table, clock, _ = make_table()
    view = table.new_game("score-dominari")
    assert view["table"]["next"]["params"]["rule"] == {
        "text": "the first piece goes on {opening}", "params": {"opening": "a1"}}
    put(table, clock, "a1")
    view = table.input({"type": "number", "square": "a1", "number": 1})
    assert view["table"]["next"]["params"]["rule"]["params"] == {"opening": "f6"}
    lift(table, clock, "a1")
    view = table.new_game("sudoku-family", replace=True)
    assert view["table"]["next"]["params"]["rule"]["text"] == "the first stone goes on a black dot"
    table.input({"type": "where"})
    lit = {s for s, w in table.view()["table"]["signals"].items() if w == "target"}
    assert lit == {"d5", "d6", "e4", "e6", "f4", "f5"}
    put(table, clock, "d5")
    view = table.input({"type": "number", "square": "d5", "number": 3})
    rule = view["table"]["next"]["params"]["rule"]
    assert rule["params"] == {"triangles": ["triangle 4"]}


def test_games_without_such_a_rule_say_none_and_light_nothing() -> None:
    table, clock, _ = make_table()
    view = table.new_game("classic-sudoku")
    assert "rule" not in view["table"]["next"]["params"] and not view["table"]["where_offered"]
    with pytest.raises(InputError, match="any free square"):
        table.input({"type": "where"})


def test_family_says_the_second_stone_and_names_triangles_as_areas() -> None:
    table, clock, _ = make_table()
    table.new_game("sudoku-family")
    put(table, clock, "d5")
    view = table.input({"type": "number", "square": "d5", "number": 3})  # A's first stone
    assert view["table"]["next"]["actor"] == 1 and "nth" not in view["table"]["next"]["params"]
    put(table, clock, "c6")
    view = table.input({"type": "number", "square": "c6", "number": 4})  # B's first stone
    assert view["table"]["next"]["actor"] == 1 and view["table"]["next"]["params"]["nth"] == 2
    # A new triangle while a started one takes the stone: the refusal names triangles (areas).
    put(table, clock, "e6")
    view = table.input({"type": "number", "square": "e6", "number": 1})
    why = view["table"]["message_code"]["params"]["why"]
    assert why["params"]["names"] == ["triangle 4"]


# --- messages ------------------------------------------------------------------------------------


def test_a_message_belongs_to_the_player_it_was_said_to() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-revers")
    table.set_board(["b2", "c3", "c2", "b3"])
    put(table, clock, "d2")
    table.input({"type": "number", "square": "d2", "number": 3})  # White turns c2 over
    view = put(table, clock, "a4")  # Black goes on before the flip is turned
    assert view["table"]["message_code"]["code"] == "turn_first"
    lift(table, clock, "a4")
    lift(table, clock, "c2")
    view = put(table, clock, "c2")  # turned: Black's turn, the words for White are gone
    assert view["table"]["next"]["actor"] == 1
    assert view["table"]["message_code"] is None or \
        view["table"]["message_code"]["code"] != "turn_first"


def test_an_announcement_stays_into_the_next_players_turn() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    put(table, clock, "a1")
    view = table.input({"type": "number", "square": "a1", "number": 1})
    assert view["table"]["next"]["actor"] == 1
    assert view["table"]["message_code"]["code"] == "action"


# --- jokers, arrows, power cuts -------------------------------------------------------------------


def test_a_joker_laid_where_no_number_fits_is_a_joker_there() -> None:
    # 4 fits nowhere; no number fits on d2 (1, 2, 3 and 4 all see it).
    setup = {"a1": Piece(0, 4), "b3": Piece(1, 4), "c2": Piece(0, 4), "d4": Piece(1, 4),
             "d1": Piece(0, 1), "d3": Piece(1, 2), "a2": Piece(0, 3)}
    game = resolve("fake-family")()
    state = game.initial_state(setup)
    assert not game.placeable_numbers(state, "d2") and game.fits_nowhere(state, 4)  # type: ignore[attr-defined]
    table, clock, _ = make_table()
    table.new_game("fake-family", setup={c: p.to_json() for c, p in setup.items()})
    table.set_board([])
    table.set_board(list(setup))
    view = put(table, clock, "d2")  # the stone 4, laid face down
    assert view["table"]["next"]["code"] == "say_joker"
    assert view["table"]["joker_choices"] == [4]
    view = table.input({"type": "joker", "square": "d2", "number": 4})
    assert view["game"]["cells"]["d2"] == {"owner": 0, "blank": True}


def test_a_piece_where_no_number_may_go_is_lit_as_one_to_take_away() -> None:
    # Revers-Dominari: a piece put down beside no opposing piece. The bar says to take it
    # away; the square's light once said "tell the number of this piece" all the same.
    table, clock, _ = make_table()
    table.new_game("revers-dominari", 2)
    table.set_board(list(table.view()["game"]["cells"]))
    shown = put(table, clock, "a1")["table"]
    assert shown["next"] == {"code": "take_away", "params": {"square": "a1"}, "actor": 0}
    assert shown["signals"]["a1"] == "illegal"  # the legend: take this piece away
    assert shown["pad"] is None  # no number is asked of it
    spoken = [part for part in shown["say"]["parts"] if part["params"].get("square") == "a1"]
    assert [part["code"] for part in spoken] == ["take_away"]
    assert "not next to any opposing piece" in spoken[0]["text"]
    assert table.frame()["a1"].pattern == "blink_fast"  # the LED blinks "take it away"
    shown = lift(table, clock, "a1")["table"]
    assert shown["next"]["code"] == "place" and "a1" not in shown["signals"]


def test_the_arrows_never_send_a_piece_onto_a_square_emptied_after_it_came() -> None:
    table, clock = four_cards()
    table.input({"type": "undo", "confirm": True})  # the 4 on d4 is to go
    view = lift(table, clock, "c2")  # and a hand knocks the 3 off c2
    assert view["table"]["guidance"] == []  # the 4 is not the 3
    put(table, clock, "c2")
    lift(table, clock, "d4")
    view = put(table, clock, "a4")  # a new piece, then a piece knocked off: not that piece
    lift(table, clock, "b3")
    view = table.view()
    assert view["table"]["guidance"] == []


def test_after_a_power_cut_the_pieces_the_last_move_turned_are_named(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    table, clock, _ = played("revers-dominari-7-17", 6, turned=False, journal=journal)
    board = table.view()["table"]["occupied"]
    table.close()
    table, clock, _ = make_table(journal)
    view = table.set_board(board)
    code = view["table"]["message_code"]
    assert code["code"] == "resumed_check_faces"
    assert code["params"]["squares"] == ["c3", "c4", "c5"]
    table.close()


def test_after_a_power_cut_the_pieces_a_take_back_turned_are_named(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    table, clock, _ = played("revers-dominari-7-17", 6, journal=journal)
    table.input({"type": "undo", "confirm": True})  # c3, c4 and c5 are to be turned back
    board = table.view()["table"]["occupied"]
    table.close()
    table, clock, _ = make_table(journal)
    code = table.set_board(board)["table"]["message_code"]
    assert code["code"] == "resumed_check_faces"
    assert {"c3", "c4", "c5"} <= set(code["params"]["squares"])
    table.close()


def test_a_piece_found_standing_after_a_power_cut_is_not_sent_anywhere(tmp_path: Path) -> None:
    # A stray piece on f6 and an empty c3 when the power comes back: nobody can tell whether
    # the stray is c3's piece, so the bar says to take it away and the drawing shows c3's.
    journal = tmp_path / "journal.sqlite3"
    table, clock, _ = played("revers-dominari-7-17", 6, journal=journal)
    board = set(table.view()["table"]["occupied"]) - {"c3"} | {"f6"}
    table.close()
    table, clock, _ = make_table(journal)
    view = table.set_board(sorted(board))
    assert view["table"]["guidance"] == []
    assert view["table"]["next"]["params"] == {"missing": ["c3"], "extra": ["f6"]}
    # Once it has been lifted and put down again, the table saw it come: it may be c3's.
    lift(table, clock, "f6")
    view = put(table, clock, "f6")
    assert view["table"]["guidance"] == [{"from": "f6", "to": "c3"}]
    table.close()


def test_a_number_piece_in_a_blank_phase_is_the_next_players() -> None:
    record = example("revers-dominari-7-17")
    game, states = replay(record)
    # Action 7: White's blank phase, then Black's 5 on b2 ends it.
    assert states[7].to_move == 0 and isinstance(record.actions[7], Place)
    assert game.actor(states[7], record.actions[7]) == 1
    assert game.actor(states[7], Blank("c1")) == 0
    table, clock, _ = played("revers-dominari-7-17", 8, turned=False)
    view = table.view()
    assert view["table"]["message_code"]["params"]["player"] == 1  # "Black: 5 on b2"
    assert view["table"]["next"] == {"code": "turn_over", "actor": 1,
                                     "params": {"squares": ["b3"]}}


def test_undo_onto_a_square_still_holding_a_taken_back_piece_waits_for_the_board(
        ) -> None:
    # White bears its 1 off from d4, Black steps b1 to a1, White's 2 steps c4 to d4; both moves
    # are taken back while the 2 still stands on d4. Taking back the bear-off as well would
    # make d4 look right with the 2 on it (drawn as the 1) and ask only for c4 to be filled.
    setup = {"d4": {"owner": 0, "number": 1}, "c4": {"owner": 0, "number": 2},
             "b1": {"owner": 1, "number": 1}, "a3": {"owner": 1, "number": 2}}
    table, clock, _ = make_table()
    table.new_game("fake-halma", setup=setup)
    table.set_board(list(setup))
    lift(table, clock, "d4")
    table.input({"type": "bear_off"})
    lift(table, clock, "b1")
    put(table, clock, "a1")
    lift(table, clock, "c4")
    put(table, clock, "d4")
    assert len(table.record()["actions"]) == 3
    table.input({"type": "undo", "confirm": True})  # White's move: the 2 is to go back to c4
    table.input({"type": "undo", "confirm": True})  # Black's step: a1 back to b1
    before = table.view()
    with pytest.raises(InputError, match="first put the board right") as refused:
        table.input({"type": "undo", "confirm": True})
    assert refused.value.params["squares"] == "d4"
    assert table.view()["game"] == before["game"] and len(table.record()["actions"]) == 1
    lift(table, clock, "d4")
    put(table, clock, "c4")  # the 2 is back where it stood
    view = table.input({"type": "undo", "confirm": True})
    assert table.record()["actions"] == []
    assert view["table"]["next"]["params"]["put_back"] == ["d4"]
