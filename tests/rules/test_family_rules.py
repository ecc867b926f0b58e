"""SUDOKU FAMILY: every table ruling and the rule book's worked examples, as positions."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from sudoku_table.rules.actions import Action, Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.errors import IllegalActionError, RecordError
from sudoku_table.rules.family import (
    BLACK_DOTS,
    FamilyState,
    SudokuFamily,
    joker_points,
    mover_of,
)
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.record import Record, replay


def start(players: int = 2) -> tuple[SudokuFamily, FamilyState]:
    game = SudokuFamily(players)
    return game, game.initial_state()


def position(stones: Mapping[str, int | None],
             players: int = 2) -> tuple[SudokuFamily, FamilyState]:
    """A practice position: ``None`` stands for a joker (a stone lying face down)."""
    game = SudokuFamily(players)
    return game, game.initial_state({c: Piece(0, n) for c, n in stones.items()})


def play(game: SudokuFamily, state: FamilyState, *actions: Action) -> FamilyState:
    for action in actions:
        state = game.apply(state, action)  # type: ignore[assignment]
    return state


def reason(game: SudokuFamily, state: FamilyState, action: Action) -> str:
    illegal = game.check(state, action)
    assert illegal is not None, f"{action} was accepted"
    with pytest.raises(IllegalActionError):
        game.apply(state, action)
    return illegal.reason


# --- players and turn order -------------------------------------------------------------------

def test_two_to_four_players() -> None:
    for players in (2, 3, 4):
        assert SudokuFamily(players).players == players
    for players in (1, 5):
        with pytest.raises(RecordError, match="2-4 players"):
            new_game("sudoku-family", players)


def test_two_players_go_a_b_b_a_a_b_b() -> None:
    game, state = start(2)
    movers = []
    for cell, number in [("f4", 1), ("f3", 2), ("f2", 3), ("g3", 4), ("g2", 5), ("h2", 6),
                         ("f5", 4), ("g4", 2)]:
        movers.append(state.to_move)
        state = play(game, state, Place(cell, number))
    assert movers == [0, 1, 1, 0, 0, 1, 1, 0]
    assert [mover_of(i, 2) for i in range(9)] == [0, 1, 1, 0, 0, 1, 1, 0, 0]


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_place_one_stone_each(players: int) -> None:
    game, state = start(players)
    movers = []
    for cell, number in [("f4", 1), ("f3", 2), ("f2", 3), ("g3", 4), ("g2", 5)]:
        movers.append(state.to_move)
        state = play(game, state, Place(cell, number))
    assert movers == [i % players for i in range(5)]


@pytest.mark.parametrize("players, placed", [(2, 34), (3, 33), (4, 32)])
def test_one_stone_per_player_stays_in_the_box(players: int, placed: int) -> None:
    game, state = start(players)
    assert game.stones == placed
    assert game.document(state)["stones_left"] == placed


# --- placing ------------------------------------------------------------------------------------

def test_the_first_stone_goes_on_a_black_dot_with_any_number() -> None:
    game, state = start()
    legal = set(game.legal_actions(state))
    assert legal == {Place(dot, n) for dot in BLACK_DOTS for n in range(1, 7)}
    assert "black dot" in reason(game, state, Place("g4", 3))
    assert "fits" in reason(game, state, Joker("g4", 3))


def test_later_stones_must_stay_in_the_started_triangle() -> None:
    game, state = start()
    state = play(game, state, Place("f4", 4))  # triangle 2
    assert game.check(state, Place("f3", 5)) is None
    assert "started triangle (triangle 2)" in reason(game, state, Place("h5", 5))


def test_a_number_the_triangle_holds_may_begin_a_neighbouring_triangle() -> None:
    game, state = start()
    state = play(game, state, Place("f4", 4))
    fours = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 4}
    # Triangles 1 and 3 border triangle 2; f5, g4, h4 and e4, d4, c4 share a line with f4.
    assert fours == {"h3", "g5", "h5", "e3", "d3", "e2"}
    assert "not next to" in reason(game, state, Place("c6", 4))  # triangle 4 is across
    assert "already in" in reason(game, state, Place("f3", 4))


def test_any_started_unfinished_triangle_may_take_the_stone() -> None:
    game, state = position({"f4": 4, "g5": 4})  # triangles 2 and 1 started
    threes = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 3}
    assert threes == {"f3", "f2", "g3", "g2", "h2", "f5", "g4", "h3", "h4", "h5"}


def test_a_finished_triangle_takes_nothing_but_new_ones_may_border_it() -> None:
    game, state = position({"f5": 1, "g4": 2, "h3": 3, "g5": 4, "h4": 5, "h5": 6})
    legal = {a for a in game.legal_actions(state) if isinstance(a, Place)}
    # Triangle 1 is full: every number begins triangle 2 or 6, where its lines allow it.
    assert {a.cell for a in legal} <= {"f4", "f3", "f2", "g3", "g2", "h2",
                                       "e6", "f6", "g6", "e7", "f7", "e8"}
    assert Place("g2", 1) in legal and Place("e7", 2) in legal
    assert Place("f4", 1) not in legal  # file f holds the 1 on f5


def test_house_rule_names_the_conflicting_cell_and_houses() -> None:
    game, state = position({"f4": 4, "f3": 5})
    illegal = game.check(state, Place("f2", 5))
    assert illegal is not None
    assert illegal.reason == "5 is already in triangle 2 and line 5"
    assert illegal.cells == ("f3",)


def test_a_seventh_stone_of_a_number_is_impossible() -> None:
    sixes = ("f5", "g2", "d3", "b6", "c7", "e8")  # one per triangle, no line shared
    game, state = position({c: 3 for c in sixes} | {"f4": 1})
    assert state.counts[2] == 6
    assert not any(a.number == 3 for a in game.legal_actions(state))  # type: ignore[union-attr]
    illegal = game.check(state, Place("f3", 3))
    assert illegal is not None and "no seventh" in illegal.reason
    assert set(illegal.cells) == set(sixes)
    assert "no seventh" in reason(game, state, Joker("f3", 3))


def test_jokers_count_towards_the_six_stones_of_their_number() -> None:
    game, state = position({"f4": 1, "f3": 2, "f2": 3, "g3": 4, "g2": 5, "h2": 6})
    state = state.replace(counts=(1, 1, 1, 1, 5, 1))  # four 5s have gone down as jokers
    state = play(game, state, Place("h5", 5))
    assert state.counts[4] == 6
    assert "no seventh" in reason(game, state, Place("e3", 5))


def test_rule_book_example_the_1_may_not_go_there() -> None:
    """The book's picture: a 1 on a line that already holds a 1 is refused, and so is a 1 that
    would begin a new triangle top right while the started bottom triangle still has room for a
    1 on its base line."""
    game, state = position({"f4": 2, "f3": 3, "g3": 4, "d4": 1})
    illegal = game.check(state, Place("g4", 1))
    assert illegal is not None and illegal.cells == ("d4",) and "line 10" in illegal.reason
    assert "started triangle (triangle 2)" in reason(game, state, Place("h5", 1))
    ones = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 1}
    # Triangle 3 holds its 1 on d4 already, and f2 shares a diagonal with d4.
    assert ones == {"g2", "h2"}


def test_a_new_triangle_must_border_a_started_one() -> None:
    """The rule book's wrongly placed 3 (its picture is lost): a stone may begin only a triangle
    next to one that holds stones, and only when no started triangle can take it."""
    game, state = position({"f5": 3, "g4": 1, "h3": 2, "g5": 4, "h4": 5})  # triangle 1
    assert "not next to" in reason(game, state, Place("c6", 3))  # triangle 4 is opposite
    threes = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 3}
    assert threes and all(c in {"f4", "f3", "f2", "g3", "g2", "h2", "e6", "f6", "g6", "e7",
                                "f7", "e8"} for c in threes)


# --- jokers -------------------------------------------------------------------------------------

JOKER_EXAMPLE: dict[str, int | None] = {
    "e2": 5, "f2": 1, "g2": 6, "d3": 4, "f3": 3, "h3": 1, "e4": 1, "f4": 4, "g4": 2, "h4": 6,
    "b5": 6, "c5": 3, "d5": 2, "g5": 5, "h5": 4, "b6": 4, "c6": 5, "e6": 6, "f6": 2, "g6": 1,
    "c7": 6, "d7": 3, "e7": 4, "f7": 5, "b8": 5, "c8": 4, "d8": 1, "e8": 3,
    "c4": None, "d4": None, "e3": None, "f5": None,
}
"""32 stones, four of them jokers; h2, g3, d6 and b7 are empty and every one of them sees a 1."""


def test_rule_book_example_a_joker_scores_half() -> None:
    """The book's red 1 fits nowhere: laid face down where it completes two lines of four it
    earns half of 4 + 4; elsewhere it would have earned clearly more."""
    game, state = position(JOKER_EXAMPLE)
    assert state.to_move == 0
    ones = {a for a in game.legal_actions(state) if a.number == 1}  # type: ignore[union-attr]
    assert ones == {Joker(c, 1) for c in ("g3", "h2", "b7", "d6")}
    corner = play(game, state, Joker("h2", 1))
    assert corner.last.completed == ("line 7", "line 8")
    assert corner.scores == (4, 0) and corner.last.points == (4, 0)
    assert corner.board["h2"] == Piece(0, None)
    better = play(game, state, Joker("b7", 1))
    assert better.last.completed == ("triangle 4", "line 1", "line 13", "line 17")
    assert better.scores == (11, 0)  # half of 6 + 4 + 5 + 6 = 21, rounded up


def test_a_joker_ignores_every_placement_rule_and_counts_as_no_number() -> None:
    game, state = position(JOKER_EXAMPLE)
    # d6 is in triangle 5, whose 1 is on d8: a plain 1 could never go there.
    state = play(game, state, Joker("d6", 1))
    assert state.board["d6"].number is None
    assert "d6" not in game.dead_fields(state)
    doc = game.document(state)
    assert doc["cells"]["d6"] == {"owner": 0, "blank": True}
    assert doc["stones_left"] == 1


def test_a_joker_is_refused_while_its_number_still_fits() -> None:
    game, state = position({"f4": 4})
    text = reason(game, state, Joker("c6", 5))
    assert text.startswith("5 can still be placed (f3, f2, g3, g2, ...)")


def test_a_joker_may_go_far_away_and_starts_its_triangle() -> None:
    """The 6s on f5, g2 and e3 fill triangles 1-3 with a 6 and block every cell of triangles 4
    and 6 by their lines: a 6 fits nowhere, even though triangle 5 is free of 6s."""
    game, state = position({"f5": 6, "g2": 6, "e3": 6})
    assert not any(isinstance(a, Place) and a.number == 6 for a in game.legal_actions(state))
    assert "not next to" in reason(game, state, Place("c7", 6))
    state = play(game, state, Joker("c7", 6))  # triangle 5 borders no started triangle
    assert state.counts[5] == 4
    later = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 2}
    assert {"d6", "d7", "d8", "c8", "b8"} <= later  # triangle 5 now counts as started


# --- scoring ------------------------------------------------------------------------------------

def test_rule_book_example_completing_a_triangle_scores_6() -> None:
    game, state = position({"d5": 1, "b7": 2, "c5": 3, "b6": 5, "b5": 6})
    mover = state.to_move
    assert mover == 1
    state = play(game, state, Place("c6", 4))
    assert state.last.completed == ("triangle 4",)
    assert state.scores == (0, 6) and state.last.points == (0, 6)


def test_rule_book_example_triangle_and_diagonal_score_12() -> None:
    """The middle cell of the second row from the bottom completes the bottom triangle and a
    diagonal of six."""
    game, state = position({"f4": 1, "f2": 2, "g3": 3, "g2": 4, "h2": 5,
                            "e4": 2, "d5": 1, "c6": 3, "b7": 5})
    state = play(game, state, Place("f3", 6))
    assert state.last.completed == ("triangle 2", "line 17")
    assert state.scores == (0, 12)


def test_rule_book_maximum_one_stone_scores_24() -> None:
    """A black dot lies on three lines of six: as the last cell of its triangle and of all
    three lines it scores 6 + 6 + 6 + 6."""
    stones = {"b5": 1, "c5": 3, "c8": 2, "d5": 5, "d7": 1, "e6": 4, "f2": 2, "f3": 1, "f4": 4,
              "f6": 5, "f7": 3, "g4": 5, "g5": 2, "h3": 3, "h4": 1, "h5": 4}
    game, state = position(stones)
    state = play(game, state, Place("f5", 6))
    assert state.last.completed == ("triangle 1", "line 5", "line 11", "line 19")
    assert sum(state.last.points) == 24


def test_completing_a_line_scores_its_length() -> None:
    game, state = position({"e2": 1, "f2": 2, "g2": 3, "h3": 1})
    state = play(game, state, Place("h2", 4))
    assert state.last.completed == ("line 8",) and sum(state.scores) == 4


def test_joker_points_are_half_of_the_total_rounded_up() -> None:
    assert [joker_points(p) for p in (0, 4, 5, 8, 16, 21, 24)] == [0, 2, 3, 4, 8, 11, 12]


def test_points_go_to_the_placer_only() -> None:
    game, state = position({"d5": 1, "b7": 2, "c5": 3, "b6": 5, "b5": 6}, players=4)
    assert state.to_move == 1
    state = play(game, state, Place("c6", 4))
    assert state.scores == (0, 6, 0, 0) and state.to_move == 2


# --- the end ------------------------------------------------------------------------------------

def _last_position(players: int) -> tuple[SudokuFamily, FamilyState]:
    """One stone before the end, found by placing stones in a fixed way."""
    game, state = start(players)
    while len(state.board) < game.stones - 1:
        state = play(game, state, next(iter(game.legal_actions(state))))
    return game, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_with_the_last_stone(players: int) -> None:
    game, state = _last_position(players)
    assert not state.over
    action = next(iter(game.legal_actions(state)))
    final = play(game, state, action)
    assert final.over and final.to_move is None
    assert len(final.board) == 36 - players
    assert list(game.legal_actions(final)) == []
    assert reason(game, final, action) == "the game is over"
    best = max(final.scores)
    assert final.winners == tuple(p for p, s in enumerate(final.scores) if s == best)


def test_equal_points_share_the_win() -> None:
    game, state = _last_position(2)
    action = next(iter(game.legal_actions(state)))
    mover = state.to_move
    assert mover is not None
    gained = sum(play(game, state, action).last.points)
    scores = [20, 20]
    scores[mover] -= gained
    final = play(game, state.replace(scores=tuple(scores)), action)
    assert final.scores == (20, 20) and final.winners == (0, 1)


# --- dead fields, bad input, documents ----------------------------------------------------------

def test_dead_fields_follow_the_house_rule_alone() -> None:
    game, state = position({"f4": 1, "f3": 2, "f2": 3, "g3": 4, "g2": 5,
                            "h3": 6, "h4": None})
    # h2: triangle 2 holds 1-5, line 7 (h) holds 6; a joker on h4 adds nothing.
    assert game.dead_fields(state) == frozenset({"h2"})
    assert game.document(state)["dead"] == ["h2"]


@pytest.mark.parametrize("action, words", [
    (Place("e5", 3), "not a cell"),
    (Place("a1", 3), "not a cell"),
    (Place("f3", 0), "not a number"),
    (Place("f3", 7), "not a number"),
    (Place("f4", 2), "already occupied"),
    (Joker("e5", 3), "not a cell"),
    (Joker("f4", 3), "already occupied"),
    (Discard(3), "joker"),
    (Blank("f3"), "no 'blank' actions"),
    (Move(("f4", "f3")), "no 'move' actions"),
    (EndTurn(), "no 'end_turn' actions"),
])
def test_bad_actions_get_a_clear_reason_and_change_nothing(action: Action, words: str) -> None:
    game, state = position({"f4": 4})
    before = game.document(state)
    assert words in reason(game, state, action)
    assert game.document(state) == before


@pytest.mark.parametrize("setup, words", [
    ({"f4": {"owner": None, "number": 3}}, "belongs to the player"),
    ({"f4": {"owner": 0, "number": 3}, "f3": {"owner": 0, "number": 3}}, "already in"),
    ({"e5": {"owner": 0, "number": 3}}, "not a cell"),
    ({"f4": {"owner": 0, "number": 9}}, "not a number"),
])
def test_bad_setups_are_refused(setup: dict, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        replay(Record.from_json({"variant": "sudoku-family", "setup": setup}))


def test_a_setup_may_not_hold_the_whole_game() -> None:
    game = SudokuFamily(4)
    _, full = _last_position(4)
    board = dict(full.board)
    board.update({c: Piece(0, None) for c in game.geometry.cells if c not in board})
    with pytest.raises(RecordError, match="only 32 are placed"):
        game.initial_state(board)


def test_the_state_document_shows_jokers_face_down_and_the_last_effects() -> None:
    record = {"variant": "sudoku-family", "players": 3,
              "actions": [{"type": "place", "cell": "f4", "number": 4}]}
    game, states = replay(Record.from_json(record))
    doc = json.loads(json.dumps(game.document(states[-1])))
    assert doc["cells"] == {"f4": {"owner": 0, "number": 4}}
    assert doc["to_move"] == 1 and doc["scores"] == [0, 0, 0]
    assert doc["last"] == {"flipped": [], "completed": [], "points": [0, 0, 0], "claimed": []}
    assert doc["stones_left"] == 32 and doc["dead"] == []


def test_placeable_numbers_agree_with_the_legal_actions() -> None:
    game, state = position(JOKER_EXAMPLE)
    for cell in game.geometry.cells:
        expected = sorted({a.number for a in game.legal_actions(state)
                           if isinstance(a, Place) and a.cell == cell})
        assert game.placeable_numbers(state, cell) == expected
    assert game.placeable_numbers(state, "e5") == []


def test_perft_positions_cover_jokers_setups_and_the_end() -> None:
    path = Path(__file__).parent.parent / "data" / "perft" / "family.json"
    entries = json.loads(path.read_text())
    assert {e["record"]["variant"] for e in entries} == {"sudoku-family"}
    kinds: set[str] = set()
    for entry in entries:
        game, states = replay(Record.from_json(entry["record"]))
        legal = list(game.legal_actions(states[-1]))
        assert len(legal) == entry["legal_actions"]
        kinds |= {type(a).__name__ for a in legal}
        if states[-1].over:
            kinds.add("over")
        if entry["record"].get("setup"):
            kinds.add("setup")
    assert kinds >= {"Place", "Joker", "over", "setup"}
