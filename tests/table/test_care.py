"""The table never destroys what the players did unasked, and never mistakes old pieces for new.

Each case was met by a new user on the panel: leftover pieces taken as the next game's start
pieces, undo taking back a move while a new piece waited for its number, undo after the end
reopening a game that then vanished from the finished games, and a new game replacing a running
one unasked; and in Halma a clashing landing did not show the piece it clashes with.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_table.table.errors import ConfirmNeeded, InputError

from .helpers import lift, make_table, put

pytestmark = pytest.mark.integration


def test_leftover_pieces_must_leave_before_anything_counts() -> None:
    table, clock, _ = make_table()
    table.set_board(["b2", "c3", "d4", "i9"])  # the last game's pieces, one off this board
    view = table.new_game("fake-kosmos")
    assert view["table"]["clearing"]
    assert view["table"]["signals"] == {s: "extra" for s in ("b2", "c3", "d4", "i9")}
    assert "take the 4 pieces" in view["table"]["message"]
    assert view["table"]["prompt"] is None
    # Nothing is inferred meanwhile: a piece put down is one more to take away, numbers are
    # refused, and the game stays empty.
    view = put(table, clock, "a1")
    assert view["table"]["signals"]["a1"] == "extra" and view["game"]["cells"] == {}
    with pytest.raises(InputError, match="take away the pieces"):
        table.input({"type": "number", "square": "a1", "number": 1})
    with pytest.raises(InputError, match="take away the pieces"):
        table.input({"type": "number", "number": 1})  # no number chosen in advance either
    for square in ("b2", "c3", "d4", "a1"):
        lift(table, clock, square)
    assert table.view()["table"]["clearing"]  # i9 is off this game's board, yet it blinks
    view = lift(table, clock, "i9")
    assert not view["table"]["clearing"] and view["table"]["signals"] == {}
    put(table, clock, "a1")
    view = table.input({"type": "number", "square": "a1", "number": 1})
    assert view["game"]["cells"]["a1"]["number"] == 1


def test_leftovers_on_start_squares_are_not_start_pieces() -> None:
    from sudoku_table.rules.game import new_game

    setup = new_game("halma-dominari").default_setup()
    table, clock, _ = make_table()
    table.set_board(list(setup))  # pieces stand where the start pieces go: still leftovers
    view = table.new_game("halma-dominari")
    assert view["table"]["clearing"] and view["table"]["setting_up"]
    assert set(view["table"]["signals"].values()) == {"extra"}
    for square in setup:
        view = lift(table, clock, square)
    assert not view["table"]["clearing"] and view["table"]["setting_up"]
    assert view["table"]["prompt"]["kind"] == "setup"  # now the start pieces, one by one


def test_undo_first_cancels_the_piece_waiting_for_its_number() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    put(table, clock, "a1")
    table.input({"type": "number", "square": "a1", "number": 1})
    put(table, clock, "b2")  # a new piece waits for its number
    view = table.input({"type": "undo"})
    assert view["game"]["cells"] == {"a1": {"owner": 0, "number": 1}}  # the 1 is not taken back
    assert view["table"]["prompt"] is None
    assert view["table"]["signals"]["b2"] == "extra"  # the cancelled piece is to go
    assert "cancelled" in view["table"]["message"]
    with pytest.raises(ConfirmNeeded):  # now the last action: the first player's, asked
        table.input({"type": "undo"})
    view = table.input({"type": "undo", "confirm": True})
    assert view["game"]["cells"] == {}


def test_undo_first_cancels_a_number_chosen_in_advance() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    put(table, clock, "a1")
    table.input({"type": "number", "square": "a1", "number": 1})
    view = table.input({"type": "number", "number": 2})
    assert view["table"]["in_hand"] == 2 and view["table"]["can_undo"]
    view = table.input({"type": "undo"})
    assert view["table"]["in_hand"] is None
    assert view["game"]["cells"] == {"a1": {"owner": 0, "number": 1}}


def test_a_number_chosen_in_advance_is_said_once_by_the_next_step() -> None:
    """The next step ("put your 2 on the board") says what was chosen: no message repeats it,
    and the message said before (the last move) is not left standing beside it either."""
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    put(table, clock, "a1")
    table.input({"type": "number", "square": "a1", "number": 1})
    view = table.input({"type": "number", "number": 2})
    assert view["table"]["next"]["code"] == "place_number"
    assert view["table"]["next"]["params"]["number"] == 2
    assert view["table"]["message_code"] is None and view["table"]["message"] is None


def test_a_running_game_is_replaced_only_when_confirmed() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    table.new_game("fake-kosmos")  # no action yet: nothing to lose, no question
    put(table, clock, "a1")
    table.input({"type": "number", "square": "a1", "number": 1})
    before = table.view()
    with pytest.raises(ConfirmNeeded) as asked:
        table.new_game("fake-halma")
    assert asked.value.code == "replace"
    assert table.view() == before
    view = table.new_game("fake-halma", replace=True)
    assert view["game"]["variant"] == "fake-halma"


def test_names_are_kept_with_the_game_and_its_record(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    table, clock, _ = make_table(path)
    table.new_game("fake-kosmos", names=["Anna", "Ben"])
    assert table.view()["table"]["names"] == ["Anna", "Ben"]
    assert table.record()["names"] == ["Anna", "Ben"]
    table.close()
    again, _, _ = make_table(path)
    assert again.view()["table"]["names"] == ["Anna", "Ben"]  # a restart keeps them
    again.close()


def test_a_clashing_halma_landing_shows_the_piece_it_clashes_with() -> None:
    from sudoku_table.rules.game import new_game

    setup = new_game("halma-dominari").default_setup()
    table, clock, _ = make_table()
    table.new_game("halma-dominari")
    table.set_board(list(setup))
    lift(table, clock, "c1")  # White's 3; d1 is in file d, which holds Black's 3 on d6
    view = put(table, clock, "d1")
    assert view["table"]["signals"]["d1"] == "illegal"
    assert view["table"]["signals"]["d6"] == "conflict"
    assert "3 is already in file d" in view["table"]["message"]
    view = lift(table, clock, "d1")
    assert "d6" not in view["table"]["signals"]


def test_flips_are_shown_unturned_and_the_next_player_waits_for_them() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-revers")
    table.set_board(["b2", "c3", "c2", "b3"])
    before = table.view()["game"]["cells"]["c2"]["owner"]
    put(table, clock, "d2")
    view = table.input({"type": "number", "number": 3})
    mover = view["game"]["cells"]["d2"]["owner"]
    assert view["table"]["unturned"] == {"c2": before}  # drawn as it still stands
    assert view["table"]["next"] == {"code": "turn_over", "params": {"squares": ["c2"]},
                                     "actor": mover}  # the mover turns it; nobody else yet
    assert view["table"]["next_text"] == "turn over c2"
    lift(table, clock, "c2")
    view = put(table, clock, "c2")
    assert view["table"]["unturned"] == {}
    assert view["table"]["next"]["actor"] == view["game"]["to_move"] != mover


def test_the_next_step_names_who_acts() -> None:
    table, clock, _ = make_table()
    table.set_board(["e5"])
    view = table.new_game("fake-kosmos")
    assert view["table"]["next"]["code"] == "clear_board"
    assert view["table"]["next_text"] == "take away the 1 piece left on the board"
    view = lift(table, clock, "e5")
    assert view["table"]["next"] == {"code": "place", "params": {}, "actor": 0}
    view = put(table, clock, "a1")
    assert view["table"]["next"] == {"code": "say_number", "params": {"square": "a1"},
                                     "actor": 0}
    view = table.input({"type": "number", "square": "a1", "number": 1})
    assert view["table"]["next"]["actor"] == 1
    view = table.input({"type": "number", "number": 2})
    assert view["table"]["next"] == {"code": "place_number", "params": {"number": 2},
                                     "actor": 1}
