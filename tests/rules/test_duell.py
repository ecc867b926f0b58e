"""Duell der Meister follows docs/RULINGS.md: gold cards, stacks, verified discards, markers for
full and decided houses, twelve markers, and the end when both stacks are used up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.duell import (
    DuellDerMeister,
    DuellState,
    decided_houses,
    validate_gold_cards,
)
from sudoku_table.rules.duell.game import DEFAULT_GOLD, GEOMETRY, HOUSE_NAMES, _fillable
from sudoku_table.rules.errors import IllegalActionError, RecordError
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.record import Record, replay
from sudoku_table.rules.solver import find_fill

from .duell_positions import BOOK, BOOK_RECORD, SOLUTION, from_solution, position

VARIANT = "duell-der-meister"
PERFT = Path(__file__).parent.parent / "data" / "perft" / "duell.json"
EXAMPLE = Path(__file__).parent.parent / "data" / "examples" / "duell-der-meister-7-62.json"

FILE_I = from_solution({"i1": 1, "i4": 1, "i5": 1, "i6": 1, "i7": 0, "i8": 0, "i9": 0})
"""File i with one empty cell, i2, where only a 9 fits: red (1) holds 6, 7, 4 and 5 there,
blue 3, 2 and 1 (i3 is gold). Red's 9 would win it five cards to three; blue's 9 would tie at
four and win on the higher card, so the file is open as long as blue holds a 9."""


def game() -> DuellDerMeister:
    g = new_game(VARIANT)
    assert isinstance(g, DuellDerMeister)
    return g


def markers_except(counts: tuple[int, int], avoid: set[str]) -> dict[str, int]:
    """``counts[p]`` markers for each player on houses not in ``avoid``."""
    free = [h for h in HOUSE_NAMES if h not in avoid]
    result = {h: 0 for h in free[:counts[0]]}
    result.update({h: 1 for h in free[counts[0]:counts[0] + counts[1]]})
    return result


def with_cards_left(state: DuellState, left: dict[int, dict[int, int]]) -> DuellState:
    """``state`` with every stack used up except ``left[player][number]`` cards."""
    used = tuple(tuple(0 if n == 0 else 4 - left.get(p, {}).get(n, 0) for n in range(10))
                 for p in range(2))
    return state.replace(used=used)


def plain_house_winner(state: DuellState, house: str) -> int | None:
    """Count by hand: more cards wins, then the higher highest card."""
    held: list[list[int]] = [[], []]
    for cell in GEOMETRY.houses[house]:
        piece = state.board.get(cell)
        if piece is not None and piece.owner is not None:
            held[piece.owner].append(piece.number)  # type: ignore[arg-type]
    a, b = sorted(held[0], reverse=True), sorted(held[1], reverse=True)
    if not a and not b:
        return None
    if len(a) != len(b):
        return 0 if len(a) > len(b) else 1
    return 0 if a > b else 1


# --- setup ------------------------------------------------------------------------------------

def test_a_record_without_setup_starts_from_the_documented_gold_cards() -> None:
    _, states = replay(Record.from_json({"variant": VARIANT, "actions": []}))
    start = states[0]
    assert {c: p.number for c, p in start.board.items()} == DEFAULT_GOLD
    assert all(p.owner is None for p in start.board.values())
    assert start.to_move == 0 and game().scores(start) == [0, 0]
    assert find_fill(GEOMETRY, DEFAULT_GOLD) is not None


def test_a_given_setup_is_used_as_it_stands() -> None:
    setup = json.loads(EXAMPLE.read_text())["record"]["setup"]
    board = game().parse_setup(setup)
    assert board == {c: Piece(None, p["number"]) for c, p in setup.items()}


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update({"a5": {"owner": 0, "number": 5}}), "gold cards belong to nobody"),
    (lambda s: s.pop("a5"), "nine gold cards, one in each 3x3 block; it holds 8"),
    (lambda s: (s.pop("a9"), s.update({"b4": {"owner": None, "number": 4}})),
     "block a4 holds 2 gold cards (b4, a5)"),
    (lambda s: s.update({"a5": {"owner": None, "number": 9}}), "9 stands on"),
    (lambda s: s.update({"a5": {"owner": None, "blank": True}}), "shows a number 1-9"),
    (lambda s: s.update({"a5": {"owner": None, "number": 10}}), "10 is not a number"),
    (lambda s: s.update({"j5": {"owner": None, "number": 5}}), "'j5'"),
])
def test_a_broken_setup_is_refused_with_a_clear_reason(change: object, message: str) -> None:
    setup = {c: {"owner": None, "number": n} for c, n in DEFAULT_GOLD.items()}
    change(setup)  # type: ignore[operator]
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        game().parse_setup(setup)


def test_gold_cards_that_leave_no_complete_fill_are_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Nine different gold cards, one per block, were always fillable in thousands of random
    # trials, so the solver's "no fill" answer is stood in for here to check the message.
    board = {c: Piece(None, n) for c, n in DEFAULT_GOLD.items()}
    validate_gold_cards(board)
    monkeypatch.setattr("sudoku_table.rules.duell.game.find_fill", lambda *args, **kwargs: None)
    _fillable.cache_clear()
    try:
        with pytest.raises(RecordError, match="leave no way to fill the whole board"):
            validate_gold_cards(board)
    finally:
        _fillable.cache_clear()  # forget the stand-in's answer


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_proposed_setup_obeys_the_rules_and_leaves_the_board_fillable(seed: int) -> None:
    setup = game().default_setup(seed)
    assert setup == game().default_setup(seed)
    validate_gold_cards(setup)
    assert sorted(p.number for p in setup.values()) == list(range(1, 10))  # type: ignore
    given_numbers = {c: p.number for c, p in setup.items() if p.number is not None}
    assert find_fill(GEOMETRY, given_numbers) is not None
    state = game().initial_state(setup)
    assert set(state.board) == set(setup)


def test_proposals_differ_between_seeds() -> None:
    assert len({tuple(sorted(game().default_setup(s).items())) for s in range(5)}) > 1


# --- a turn -----------------------------------------------------------------------------------

def plain_count(state: DuellState) -> int:
    """Legal actions counted by hand: numbers missing from a cell's rank, file and block that the
    mover still holds, plus each held number that fits on no empty cell (set aside)."""
    mover = state.to_move
    assert mover is not None
    held = {n for n in range(1, 10) if state.used[mover][n] < 4}
    total, fits_anywhere = 0, set()
    for cell in GEOMETRY.cells:
        if cell in state.board:
            continue
        seen = {state.board[p].number for p in GEOMETRY.peers[cell] if p in state.board}
        fits = set(range(1, 10)) - seen
        fits_anywhere |= fits
        total += len(fits & held)
    return total + len(held - fits_anywhere)


def test_perft_positions_are_counted_by_hand_as_well() -> None:
    entries = json.loads(PERFT.read_text())
    assert len(entries) >= 4
    assert any(e["legal_actions"] == 482 and not e["record"]["actions"] for e in entries)
    for entry in entries:
        g, states = replay(Record.from_json(entry["record"]))
        state = states[-1]
        assert isinstance(state, DuellState)
        assert plain_count(state) == entry["legal_actions"] == len(list(g.legal_actions(state)))


def test_a_card_obeys_the_sudoku_rule_against_gold_and_player_cards() -> None:
    g, state = game(), position("B6 b5")
    illegal = g.check(state, Place("e5", 5))
    assert illegal is not None
    assert illegal.reason == "5 is already in rank 5" and illegal.cells == ("a5",)
    illegal = g.check(state, Place("b9", 6))
    assert illegal is not None and illegal.reason == "6 is already in file b" \
        and illegal.cells == ("b5",)
    illegal = g.check(state, Place("a5", 3))
    assert illegal is not None and illegal.reason == "a5 is already occupied"
    illegal = g.check(state, Place("e5", 0))
    assert illegal is not None and "not a number" in illegal.reason
    with pytest.raises(IllegalActionError):
        g.apply(state, Place("e5", 5))
    assert g.check(state, Place("e5", 3)) is None


def test_each_stack_holds_four_of_each_number_placed_and_set_aside_together() -> None:
    g = game()
    state = position("A7 b3, A7 e8, A7 i6", extra_used={0: {7: 1}})  # three placed, one aside
    illegal = g.check(state, Place("g2", 7))
    assert illegal is not None and illegal.reason.startswith("all 4 of your 7s are already used")
    assert Place("g2", 7) not in set(g.legal_actions(state))
    assert 7 not in g.placeable_numbers(state, "g2") and 5 in g.placeable_numbers(state, "g2")
    assert g.check(state.replace(to_move=1), Place("g2", 7)) is None  # the other stack has 7s


def test_a_card_is_set_aside_only_when_it_fits_nowhere() -> None:
    g = game()
    illegal = g.check(g.initial_state(None), Discard(5))
    assert illegal is not None and illegal.reason.startswith("5 still fits on ")
    assert "b1" in illegal.cells
    # All nine 5s of the solution but one stand on the board; the cell of the last (i6) holds
    # a 3 instead, so no empty cell can take a 5 any more.
    state = position("A5 b8, A5 c1, A5 d7, B5 e3, B5 f4, B5 g9, B5 h2, A3 i6")
    assert g.placeable_numbers(state, "a1") and 5 not in g.placeable_numbers(state, "a1")
    assert g.check(state, Discard(5)) is None
    assert Discard(5) in set(g.legal_actions(state))
    after = g.apply(state, Discard(5))
    assert isinstance(after, DuellState)
    assert after.board == state.board and after.discarded == 1 and after.to_move == 1
    assert after.used[0][5] == 4
    doc = g.document(after)
    assert doc["discarded"] == 1 and doc["cards_left"] == [36 - 5, 36 - 4]
    # The other player has used all four 5s: nothing to set aside.
    illegal = g.check(after, Discard(5))
    assert illegal is not None and "all 4 of your 5s" in illegal.reason


@pytest.mark.parametrize("action", [Blank("e5"), EndTurn(), Move(("a1", "a2")),
                                    Joker("e5", 3)])
def test_only_cards_are_played(action: object) -> None:
    g = game()
    illegal = g.check(g.initial_state(None), action)  # type: ignore[arg-type]
    assert illegal is not None and "place your card" in illegal.reason


# --- markers ----------------------------------------------------------------------------------

def test_the_rule_books_example_file_and_block_in_the_same_turn() -> None:
    g, states = replay(Record.from_json(BOOK_RECORD))
    before, after = states[-2], states[-1]
    assert isinstance(before, DuellState) and isinstance(after, DuellState)
    assert all(not s.markers for s in states[:-1])  # nothing was won on the way
    assert before.board == position(BOOK, markers={}).board | {"e5": Piece(0, 3)}
    assert decided_houses(before, 0) == []  # red could still fill a8 and c8 of block a7
    # File a is full: four blue cards against three red ones win it. Block a7 is decided: red
    # can only fill c8 (a 3) and tie at four cards, but blue holds the 9. Blue sets both
    # markers with this card, before red plays again.
    assert after.markers == {"file a": 0, "block a7": 0} and after.to_move == 1
    doc = g.document(after)
    assert doc["last"] == {"flipped": [], "completed": ["file a"], "points": [2, 0],
                           "claimed": ["block a7"]}
    assert doc["awarded"] == ["file a", "block a7"] and doc["scores"] == [2, 0]
    # Whatever red does next, blue keeps the block: filling c8 earns nothing more.
    filled = g.apply(after, Place("c8", 3))
    assert isinstance(filled, DuellState)
    assert filled.markers == after.markers and filled.last.completed == ("block a7",)
    assert filled.last.points == (0, 0) and filled.last.claimed == ()


def test_a_claim_in_the_same_turn_wins_the_race_to_twelve() -> None:
    g = game()
    # Blue holds 10 markers, red 11; red threatens file i (its 9 on i2 would be the twelfth).
    state = position(f"{BOOK}, {FILE_I}",
                     markers=markers_except((10, 11), {"file a", "block a7", "file i"}))
    assert decided_houses(state, 0) == [] and decided_houses(state, 1) == []
    threat = g.apply(g.apply(state, Place("e5", 3)), Place("i2", 9))
    assert threat.over and threat.winners == (1,)  # had blue laid elsewhere
    # The blue 9 fills file a (the 11th marker) and decides block a7 (the 12th) in the same
    # turn: blue wins at once, and red never lays its 9. Claimed only at blue's next turn, red
    # would win first.
    after = g.apply(state, Place("a8", 9))
    assert isinstance(after, DuellState)
    assert after.over and after.winners == (0,) and g.scores(after) == [12, 11]
    assert after.awarded == ("file a", "block a7") and after.last.claimed == ("block a7",)
    assert g.end_reason(after) == "twelve_markers"


def test_a_house_the_opponents_card_decides_is_awarded_as_the_turn_starts() -> None:
    g = game()
    # Blue has one 9 left: it could still tie file i on i2 and win it on the higher card.
    state = position(FILE_I, extra_used={0: {9: 3}})
    assert decided_houses(state, 1) == []
    # Blue lays its last 9 elsewhere: file i is now decided for red, who receives it as red's
    # turn starts. The table tells it with blue's card, which brought it in.
    after = g.apply(state, Place("a8", 9))
    assert isinstance(after, DuellState)
    assert after.to_move == 1 and after.markers == {"file i": 1}
    assert after.last.claimed == ("file i",) and after.last.points == (0, 1)
    assert after.last.completed == () and after.awarded == ("file i",)


def test_a_full_house_can_go_to_the_opponent_of_the_placer() -> None:
    g = game()
    state = position(from_solution({"a1": 1, "b1": 1, "c1": 1, "e1": 1, "f1": 1,
                                    "g1": 0, "h1": 0}))
    after = g.apply(state, Place("i1", SOLUTION["i1"]))
    assert isinstance(after, DuellState)
    assert after.markers["rank 1"] == 1 and after.last.points[1] >= 1


@pytest.mark.parametrize("owners, winner", [
    ({"a1": 0, "b1": 0, "c1": 0, "e1": 0, "f1": 1, "g1": 1, "h1": 1}, 1),  # B's 9 beats A's 8
    ({"a1": 0, "b1": 0, "c1": 0, "f1": 0, "e1": 1, "g1": 1, "h1": 1}, 0),  # A holds the 9
])
def test_equal_counts_go_to_the_higher_highest_card(owners: dict[str, int], winner: int) -> None:
    g = game()
    state = position(from_solution(owners), to_move=1)
    after = g.apply(state, Place("i1", SOLUTION["i1"]))  # B's fourth card fills rank 1
    assert isinstance(after, DuellState)
    assert after.markers["rank 1"] == winner


def test_a_claim_counts_only_cards_the_opponent_still_holds() -> None:
    g = game()
    text = "B1 a1, B4 b1, B5 c1"
    # A full stack could still fill rank 1: nothing is decided for B.
    assert decided_houses(position(text, to_move=1), 1) == []
    # A holds nothing but 7s, and the 7 of rank 1 is the gold card on d1: A cannot add a card
    # to rank 1 or block a1 any more. Files a, b and c could each still take A's 7, which would
    # tie at one card and outrank B's 1, 4 and 5. B holds nothing but 2s: A's 7 on i8 is
    # decided at once in its rank, file and block (a 2 there could only tie at one card), and
    # B's two houses are awarded as B's turn starts.
    state = with_cards_left(position(text, to_move=0), {0: {7: 4}, 1: {2: 4}})
    after = g.apply(state, Place("i8", 7))
    assert isinstance(after, DuellState)
    assert after.to_move == 1
    assert after.awarded == ("rank 8", "file i", "block g7", "rank 1", "block a1")
    assert after.markers == {"rank 8": 0, "file i": 0, "block g7": 0, "rank 1": 1,
                             "block a1": 1}
    assert g.scores(after) == [3, 2] and after.last.claimed == after.awarded


def test_a_house_claimed_early_earns_no_second_marker_when_full() -> None:
    g = game()
    state = position(BOOK + ", A9 a8", to_move=1, markers={"file a": 0, "block a7": 0})
    after = g.apply(state, Place("c8", 3))
    assert isinstance(after, DuellState)
    assert after.markers == {"file a": 0, "block a7": 0}
    assert "block a7" in after.last.completed and after.last.points == (0, 0)


# --- twelve markers and the end ---------------------------------------------------------------

RANK5_FILE_E = from_solution({"b5": 1, "c5": 1, "d5": 1, "f5": 1, "g5": 1, "h5": 0, "i5": 0,
                              "e1": 0, "e2": 0, "e3": 0, "e4": 0, "e6": 0,
                              "e7": 1, "e8": 1, "e9": 1})
"""A's 3 on e5 fills rank 5 (won by B, five cards to three) and file e (won by A, six to
three)."""
BUSY = {"rank 5", "file e", "block d4"}


def test_twelve_markers_win_at_once() -> None:
    g = game()
    state = position(RANK5_FILE_E, markers=markers_except((11, 5), BUSY))
    after = g.apply(state, Place("e5", 3))
    assert after.over and after.winners == (0,) and after.to_move is None
    assert g.document(after)["to_move"] is None
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(after, Place("a1", 1))
    assert list(g.legal_actions(after)) == []


def test_when_one_card_brings_both_to_twelve_the_placer_wins() -> None:
    g = game()
    state = position(RANK5_FILE_E, markers=markers_except((11, 11), BUSY))
    after = g.apply(state, Place("e5", 3))
    assert g.scores(after) == [12, 12]
    assert after.over and after.winners == (0,)


def test_the_placers_card_can_make_the_opponent_win() -> None:
    g = game()
    state = position(RANK5_FILE_E, markers=markers_except((10, 11), BUSY))
    after = g.apply(state, Place("e5", 3))
    assert g.scores(after) == [11, 12] and after.winners == (1,)


def test_a_claim_in_the_same_turn_wins_at_once() -> None:
    g = game()
    state = position(BOOK, markers=markers_except((10, 0), {"file a", "block a7"}))
    after = g.apply(state, Place("a8", 9))
    assert after.over and after.winners == (0,) and g.scores(after) == [12, 0]


def test_a_claim_at_the_start_of_a_turn_can_win_before_the_player_moves() -> None:
    g = game()
    state = position(FILE_I, markers=markers_except((5, 11), {"file i"}),
                     extra_used={0: {9: 3}})
    after = g.apply(state, Place("a8", 9))  # blue's last 9: file i is red's twelfth marker
    assert after.over and after.winners == (1,) and g.scores(after) == [5, 12]
    assert after.last.claimed == ("file i",)


def test_when_both_stacks_are_used_up_open_houses_go_by_majority() -> None:
    g = game()
    state = with_cards_left(position("A1 a1, A6 a2, A4 b1, B5 c1, B9 f8"), {0: {2: 1}, 1: {2: 1}})
    after = g.apply(state, Place("e5", 2))
    assert isinstance(after, DuellState)
    # A's stack is empty and B holds one 2: A's card decides every house A leads where a 2 of
    # B's cannot catch up, right away; B's last turn starts and every house B leads is decided.
    assert after.to_move == 1 and not after.over
    assert {h for h, w in after.markers.items() if w == 0} == {
        "rank 2", "rank 5", "file a", "file b", "file e", "block a1", "block d4"}
    assert {h for h, w in after.markers.items() if w == 1} == {
        "file c", "rank 8", "file f", "block d7"}
    end = g.apply(after, Place("i9", 2))
    assert isinstance(end, DuellState) and end.over
    # B's last card decides B's houses at once; the houses still open then go by majority in
    # the final count, which claims nothing.
    assert end.last.claimed == ("rank 9", "file i", "block g7") and end.last.points == (1, 3)
    expected = {h: w for h in HOUSE_NAMES if (w := plain_house_winner(end, h)) is not None}
    assert end.markers == expected
    assert "rank 3" not in end.markers  # only gold cards or nothing: nobody's
    assert g.scores(end) == [8, 7] and end.winners == (0,)


def test_equal_markers_at_the_end_draw() -> None:
    g = game()
    state = with_cards_left(position("A1 a1, B1 i9"), {0: {2: 1}, 1: {2: 1}})
    end = g.apply(g.apply(state, Place("e5", 2)), Place("d8", 2))
    assert end.over and end.winners == () and g.scores(end) == [6, 6]


def test_a_player_whose_stack_is_used_up_is_passed_over() -> None:
    g = game()
    state = with_cards_left(position("A1 a1, B2 b2"), {0: {3: 2}, 1: {}})
    after = g.apply(state, Place("e5", 3))
    assert isinstance(after, DuellState)
    assert after.to_move == 0 and after.passed == (1,) and not after.over
    assert g.document(after)["passed"] == [1]
    # B can add nothing any more: every house A leads is decided right after A's card.
    assert {"rank 1", "file a", "rank 5", "file e", "block d4"} <= set(after.markers)
    assert after.markers.get("block a1") is None  # 1 against B's 2: A does not lead there
    end = g.apply(after, Place("i8", 3))
    assert end.over and end.winners == (0,)
