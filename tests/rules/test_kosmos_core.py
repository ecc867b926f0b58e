"""The rules every KOSMOS board shares (docs/RULINGS.md, "KOSMOS SUDOKU collection"), shown on the
Classic board: cards and supplies, verified set-asides, the end, section scoring and bonus."""

from __future__ import annotations

import pytest

from sudoku_table.rules.actions import Blank, Discard, EndTurn, Place
from sudoku_table.rules.errors import IllegalActionError, RecordError
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.geometry import Geometry
from sudoku_table.rules.kosmos.core import KosmosGame, KosmosState, rank_section

from .kosmos_play import cards, discard, place, play, start

CLASSIC = "classic-sudoku"

# A solved Sudoku, top rank first: used to fill boards without conflicts.
SOLVED = ["534678912", "672195348", "198342567", "859761423", "426853791",
          "713924856", "961537284", "287419635", "345286179"]


def solved_number(cell: str) -> int:
    f, r = "abcdefghi".index(cell[0]), int(cell[1]) - 1
    return int(SOLVED[8 - r][f])


def givens(skip: set[str]) -> str:
    """Every cell of the solved Sudoku except ``skip``, as cards of nobody's."""
    cells = [f"{fl}{r}" for r in range(1, 10) for fl in "abcdefghi"]
    return ", ".join(f"N{solved_number(c)} {c}" for c in cells if c not in skip)


# --- players and supplies ----------------------------------------------------------------------

@pytest.mark.parametrize("players, sets", [(2, 4), (3, 3), (4, 2)])
def test_each_player_gets_whole_sets(players: int, sets: int) -> None:
    game, state = start(CLASSIC, players=players)
    assert game.sets == sets
    doc = game.document(state)
    assert doc["supply"] == [[sets] * 9] * players
    assert doc["cards_left"] == [9 * sets] * players
    assert doc["discarded"] == 0 and doc["to_move"] == 0


@pytest.mark.parametrize("players", [1, 5, True, "2"])
def test_two_to_four_players(players: object) -> None:
    with pytest.raises(RecordError, match="2-4 players"):
        new_game(CLASSIC, players)  # type: ignore[arg-type]


def test_turns_go_round_in_fixed_order() -> None:
    game, state = start(CLASSIC, players=3)
    state = play(game, state, place("a1", 1))
    assert state.to_move == 1
    state = play(game, state, place("b1", 2), place("c1", 3))
    assert state.to_move == 0
    assert {c: p.owner for c, p in state.board.items()} == {"a1": 0, "b1": 1, "c1": 2}


def test_placed_and_set_aside_cards_leave_the_supply() -> None:
    game, state = start(CLASSIC, players=4)   # two sets each
    state = play(game, state, place("a1", 5), place("i9", 1), place("e5", 5))
    assert state.supply == ((2, 2, 2, 2, 1, 2, 2, 2, 2), (1, 2, 2, 2, 2, 2, 2, 2, 2),
                            (2, 2, 2, 2, 1, 2, 2, 2, 2), (2,) * 9)
    assert game.document(state)["cards_left"] == [17, 17, 17, 18]
    state = play(game, state, place("a9", 9), place("b9", 5))
    assert state.set_aside == () and state.supply[0][4] == 0


def test_a_card_the_player_no_longer_has_cannot_be_played() -> None:
    game, state = start(CLASSIC, players=4)
    state = play(game, state, place("a1", 5), place("a9", 1), place("b9", 2), place("c9", 3),
                 place("e5", 5))
    assert game.document(state)["supply"][0][4] == 0
    illegal = game.check(state.replace(to_move=0), Place("i1", 5))
    assert illegal is not None and illegal.reason == "player 1 has no card 5 left (all 2 are used)"
    assert Place("i1", 5) not in set(game.legal_actions(state.replace(to_move=0)))
    illegal = game.check(state.replace(to_move=0), Discard(5))
    assert illegal is not None and "no card 5 left" in illegal.reason


def test_setup_cards_come_out_of_their_owners_supply() -> None:
    game, state = start(CLASSIC, "R5 a1, R5 e5, B5 i9")
    assert state.supply[0][4] == 2 and state.supply[1][4] == 3
    with pytest.raises(RecordError, match="player 0 has only 4 cards 5"):
        start(CLASSIC, "R5 a1, R5 e5, R5 i9, R5 b4, R5 d2")
    with pytest.raises(RecordError, match="5 is already in rank 1"):
        start(CLASSIC, "R5 a1, B5 i1")
    with pytest.raises(RecordError, match="no blank pieces"):
        game.initial_state({"a1": Piece(0, None)})
    with pytest.raises(RecordError, match="no player 3"):
        game.initial_state({"a1": Piece(3, 4)})


# --- placing ---------------------------------------------------------------------------------

def test_illegal_placements_say_why() -> None:
    game, state = start(CLASSIC, "R7 e5, B3 a1")
    cases = {
        Place("e5", 1): "e5 is already occupied",
        Place("e9", 7): "7 is already in file e",
        Place("d4", 7): "7 is already in block d4",
        Place("e1", 0): "0 is not a card of Classic-Sudoku (1-9)",
        Place("e1", 10): "10 is not a card of Classic-Sudoku (1-9)",
        Blank("e1"): "Classic-Sudoku has no 'blank' actions",
        EndTurn(): "Classic-Sudoku has no 'end_turn' actions",
    }
    for action, reason in cases.items():
        illegal = game.check(state, action)
        assert illegal is not None and illegal.reason.startswith(reason), action
        with pytest.raises(IllegalActionError):
            game.apply(state, action)
    illegal = game.check(state, Place("a5", 7))
    assert illegal is not None and illegal.cells == ("e5",)
    assert illegal.reason == "7 is already in rank 5"


def test_legal_actions_are_every_held_card_where_it_fits() -> None:
    game, state = start(CLASSIC)
    actions = list(game.legal_actions(state))
    assert len(actions) == 81 * 9 and all(isinstance(a, Place) for a in actions)
    state = play(game, state, place("e5", 5))
    assert len(list(game.legal_actions(state))) == 80 * 9 - 20
    assert game.placeable_numbers(state, "e1") == [1, 2, 3, 4, 6, 7, 8, 9]
    assert game.placeable_numbers(state, "e5") == []


# --- setting a card aside -------------------------------------------------------------------

def dead_board() -> str:
    """Nobody's cards leave c1 open for 9 only, and a 4 fits nowhere on the board."""
    return givens({"c1", "e9", "g5"})


def test_a_card_may_be_set_aside_only_when_it_fits_nowhere() -> None:
    game, state = start(CLASSIC, dead_board())
    fits = {n: game.cells_for(state.board, n) for n in range(1, 10)}
    missing = {n for n, where in fits.items() if where}
    assert missing == {solved_number("c1"), solved_number("e9"), solved_number("g5")}
    legal = set(game.legal_actions(state))
    for n in range(1, 10):
        if n in missing:
            illegal = game.check(state, Discard(n))
            assert illegal is not None and "still fits on" in illegal.reason
            assert set(illegal.cells) == set(fits[n]) and Discard(n) not in legal
        else:
            assert game.check(state, Discard(n)) is None and Discard(n) in legal
    assert game.check(state, Discard(0)) is not None


def test_the_third_card_set_aside_ends_the_game() -> None:
    game, state = start(CLASSIC, dead_board(), players=3)
    spare = [n for n in range(1, 10) if not game.cells_for(state.board, n)]
    state = play(game, state, discard(spare[0]), discard(spare[1]))
    assert not state.over and state.to_move == 2 and state.discarded == 2
    assert state.supply[0][spare[0] - 1] == 2 and state.supply[1][spare[1] - 1] == 2
    state = play(game, state, discard(spare[2]))
    doc = game.document(state)
    assert doc["over"] and doc["to_move"] is None and doc["discarded"] == 3
    assert doc["set_aside"] == [{"player": p, "number": spare[p]} for p in range(3)]
    assert doc["winners"] == [0, 1, 2]   # nobody scored: equal points share the win


def test_a_full_board_ends_the_game() -> None:
    last = "e5"
    game, state = start(CLASSIC, givens({last}))
    assert not state.over
    state = play(game, state, place(last, solved_number(last)))
    assert state.over and state.winners == (0,)
    assert game.scores(state) == [2 * 2 + 3, 0]   # two lines, alone, plus rank, file, block


def test_the_game_ends_when_every_card_is_used() -> None:
    game, state = start(CLASSIC, players=2)
    state = state.replace(supply=((0,) * 8 + (1,), (0,) * 4 + (1,) + (0,) * 4))
    state = play(game, state, place("a1", 9))
    assert not state.over and state.to_move == 1
    state = play(game, state, place("b1", 5))
    assert state.over and state.to_move is None and state.winners == (0, 1)


def test_a_player_without_cards_is_passed_over() -> None:
    game, state = start(CLASSIC, players=3)
    state = state.replace(supply=(state.supply[0], (0,) * 9, state.supply[2]))
    state = play(game, state, place("a1", 1))
    assert state.to_move == 2 and game.document(state)["passed"] == [1]
    assert list(game.legal_actions(state.replace(to_move=1))) == []
    state = play(game, state, place("b1", 2))
    assert state.to_move == 0 and state.passed == ()


def test_while_cards_last_there_is_always_an_action() -> None:
    game, state = start(CLASSIC, dead_board())
    for n in range(1, 10):
        only = tuple(1 if k == n - 1 else 0 for k in range(9))
        probe = state.replace(supply=(only, only))
        actions = list(game.legal_actions(probe))
        assert actions and all(a.number == n for a in actions)  # type: ignore[union-attr]


# --- scoring ---------------------------------------------------------------------------------

def test_rank_section_gives_two_then_one() -> None:
    board = cards("R3 a1, B8 b1, U6 c1")
    assert rank_section(board, ("a1", "b1", "c1"), 3) == [0, 2, 1]
    board = cards("R3 a1, R6 b1, B8 c1")
    assert rank_section(board, ("a1", "b1", "c1"), 2) == [2, 1]
    board = cards("R3 a1, R6 b1, N8 c1")
    assert rank_section(board, ("a1", "b1", "c1"), 3) == [2, 0, 0]    # lone player


def test_equal_sums_rank_by_the_highest_card() -> None:
    board = cards("R6 a1, R1 b1, B7 c1")
    assert rank_section(board, ("a1", "b1", "c1"), 2) == [1, 2]
    board = cards("R2 a1, R5 b1, B4 c1, B3 d1")
    assert rank_section(board, ("a1", "b1", "c1", "d1"), 2) == [2, 1]
    # Cards that are equal all the way share the place (possible only outside a house).
    board = cards("R4 a1, B4 b1, U1 c1")
    assert rank_section(board, ("a1", "b1", "c1"), 3) == [2, 2, 0]


def test_the_rule_books_classic_example() -> None:
    """Three ranks at the top of the board, as in the book's picture: Red (0) completes a file
    line with a 3, Black (1) a rank line and the whole rank with a 7, Red a rank line, a file
    line and the block with a 4."""
    setup = ("B5 c9, R1 g9, R8 h9, "
             "R6 a8, R1 c8, B4 d8, R8 e8, B9 f8, N3 g8, N2 h8, B5 i8, "
             "B8 a7, N2 c7, N9 g7, B6 h7, B7 i7")
    game, state = start(CLASSIC, setup)
    before = game.scores(state)
    state = play(game, state, place("a9", 3))
    assert state.last.completed == ("line a7-a9",)
    assert state.last.points == (2, 1)
    state = play(game, state, place("b8", 7))
    assert state.last.completed == ("line a8-c8", "rank 8")
    assert state.last.points == (1, 2 + 1)
    state = play(game, state, place("i9", 4))
    assert state.last.completed == ("line g9-i9", "line i7-i9", "block g7")
    assert state.last.points == (2 + 1 + 1, 2)
    assert [a - b for a, b in zip(game.scores(state), before, strict=True)] == [7, 6]
    assert state.awards == (("rank 8", 1), ("block g7", 0))


def test_scores_come_from_the_position() -> None:
    game, state = start(CLASSIC, "R1 a1, B2 b1, R3 c1")
    assert game.scores(state) == [2, 1]          # a full line in the setup counts too
    assert list(state.section_points) == game.position_points(state.board)


def test_winners_share_equal_points() -> None:
    game, state = start(CLASSIC, givens({"a1", "i9"}), players=2)
    state = play(game, state, place("a1", solved_number("a1")))
    assert game.scores(state) == [7, 0] and not state.over
    state = play(game, state, place("i9", solved_number("i9")))
    assert state.over and state.winners == (0, 1)


def test_dead_fields_follow_the_house_rule() -> None:
    game, state = start(CLASSIC, "N1 a1, N2 a2, N3 a3, N4 b4, N5 b5, N6 b6, N7 c7, N8 c8, N9 c9")
    assert game.document(state)["dead"] == []
    game, state = start(CLASSIC, "N1 a2, N2 a3, N3 b2, N4 b3, N5 c2, N6 c3, N7 b1, N8 d1, N9 e1")
    assert game.document(state)["dead"] == ["a1", "c1"]


def test_document_extras() -> None:
    game, state = start(CLASSIC, dead_board())
    spare = next(n for n in range(1, 10) if not game.cells_for(state.board, n))
    state = play(game, state, discard(spare))
    doc = game.document(state)
    assert doc["discarded"] == 1 and doc["set_aside"] == [{"player": 0, "number": spare}]
    assert doc["bonus"] == [] and doc["last"] == {"flipped": [], "completed": [], "points": [0, 0],
                                                "claimed": []}
    assert doc["passed"] == [] and doc["cards_left"] == [35, 36]
    assert isinstance(game, KosmosGame) and isinstance(state, KosmosState)


def test_a_finished_game_refuses_everything() -> None:
    game, state = start(CLASSIC, givens({"e5"}))
    state = play(game, state, place("e5", solved_number("e5")))
    illegal = game.check(state, Place("e5", 1))
    assert illegal is not None and illegal.reason == "the game is over"
    assert list(game.legal_actions(state)) == []


class TinyBoard(KosmosGame):
    """A board of four cells: all a variant needs is its names and its geometry. Only the
    files are houses; ranks and files are sections."""

    id = "tiny-kosmos"
    name = "Tiny"
    max_players = 3

    def build_geometry(self) -> Geometry:
        cells = ("a1", "b1", "a2", "b2")
        files = {"file a": ("a1", "a2"), "file b": ("b1", "b2")}
        lines = {"rank 1": ("a1", "b1"), "rank 2": ("a2", "b2"), **files}
        return Geometry(id=self.id, cells=cells, houses=files, sections=lines,
                        bonus={"square": cells})


def test_a_board_needs_only_its_geometry() -> None:
    game = TinyBoard(2)
    state = game.initial_state(None)
    assert len(list(game.legal_actions(state))) == 4 * 9
    state = play(game, state, place("a1", 1), place("b1", 2))
    assert state.last.completed == ("rank 1",) and game.scores(state) == [1, 2]
    state = play(game, state, place("b2", 3))
    assert state.last.completed == ("file b",) and state.last.points == (2, 1)
    state = play(game, state, place("a2", 3))
    assert state.last.completed == ("rank 2", "file a", "square")
    # rank 2: the two 3s tie all the way, so both share first place (possible only in a
    # section that is not inside a house); file a: Black's 3 beats Red's 1; the bonus.
    assert state.last.points == (2 + 1, 2 + 2 + 1)
    assert game.scores(state) == [6, 8]
    assert state.over and state.winners == (1,)
    with pytest.raises(RecordError):
        TinyBoard(4)
