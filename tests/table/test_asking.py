"""Ask the table: every question answered from the game as data, in every family of games, in
English and German, and questions that mean nothing refused."""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import (
    Game,
    Piece,
    State,
    all_variants,
    discover,
    new_game,
    variant_class,
)
from sudoku_table.table.announce import Voice
from sudoku_table.table.asking import (
    PHRASES,
    QUESTIONS,
    Position,
    QuestionError,
    ask,
    question,
    say,
)
from sudoku_table.web import i18n
from sudoku_table.web.speech import CatalogVoice

discover()
NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def answer(game: Game, state: State, kind: str, table: dict[str, Any] | None = None,
           seat: int | None = None, language: str = "en", **about: str) -> str:
    voice = Voice() if language == "en" else CatalogVoice(language)
    at = Position(game, state, table or {}, seat)
    return say(ask(question(kind, **about), at), voice, NAMES)


def played(variant: str, *places: tuple[str, int], players: int = 2) -> tuple[Game, State]:
    """A game of ``variant`` after ``places``, each checked legal by the rules."""
    game = new_game(variant, players)
    state = game.initial_state(game.default_setup() or None)
    for cell, number in places:
        state = game.apply(state, Place(cell, number))
    return game, state


# --- the questions themselves ---------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "about", "says"), [
    ("what", {}, "unknown question"),
    ("square", {}, "needs the parameter \'square\'"),
    ("rank", {}, "needs the parameter \'rank\'"),
    ("file", {}, "needs the parameter \'file\'"),
    ("block", {}, "needs the parameter \'square\'"),
    ("may", {}, "needs the parameter \'square\'"),
    ("where", {}, "needs the parameter \'number\'"),
    ("square", {"square": "j1"}, "is not a square"),
    ("square", {"square": "a0"}, "is not a square"),
    ("square", {"square": "C3"}, "is not a square"),
    ("square", {"square": "c3", "number": "4"}, "takes no parameter \'number\'"),
    ("scores", {"rank": "4"}, "takes no parameter \'rank\'"),
    ("rank", {"rank": "10"}, "is not a rank"),
    ("rank", {"rank": "0"}, "is not a rank"),
    ("rank", {"rank": "12"}, "is not a rank"),
    ("file", {"file": "j"}, "is not a file"),
    ("file", {"file": "ab"}, "is not a file"),
    ("where", {"number": "0"}, "is not a number"),
    ("where", {"number": "12"}, "is not a number"),
    ("where", {"number": "٣"}, "is not a number"),
])
def test_a_question_that_means_nothing_is_refused_in_words(kind: str, about: dict[str, str],
                                                           says: str) -> None:
    with pytest.raises(QuestionError, match=says):
        question(kind, **about)


def test_before_a_game_every_question_says_so_and_repeat_says_nothing_was_said() -> None:
    at = Position(None, None, {})
    for kind, about in (("square", {"square": "c3"}), ("scores", {}), ("now", {})):
        assert say(ask(question(kind, **about), at), Voice(), NAMES) == \
            "No game is running: start one on the New game page."
    assert say(ask(question("repeat"), at), Voice(), NAMES) == "The table has said nothing yet."


# --- what is on a square ------------------------------------------------------------------------


def test_a_square_says_its_number_its_owner_and_the_meaning_of_its_light() -> None:
    game, state = played("classic-sudoku", ("c3", 5), ("e5", 7))
    assert answer(game, state, "square", square="c3") == "c3: Anna's 5."
    assert answer(game, state, "square", square="e5") == "e5: Ben's 7."
    assert answer(game, state, "square", {"signals": {"e5": "illegal"}}, square="e5") == \
        "e5: Ben's 7; its light: take this card away."
    assert answer(game, state, "square", {"signals": {"d4": "target"}}, square="d4") == \
        "d4: empty; its light: a card may go here."
    assert answer(game, state, "square", square="d4") == "d4: empty."


def test_a_square_in_german_keeps_its_name_and_says_the_rest_in_german() -> None:
    game, state = played("classic-sudoku", ("c3", 5))
    assert answer(game, state, "square", {"signals": {"c3": "last"}}, language="de",
                  square="c3") == "c3: die 5 von Anna; ihr Licht: letzter Zug oder " \
                                  "vollendeter Bereich."
    assert answer(game, state, "square", language="de", square="d4") == "d4: leer."


def test_gold_cards_belong_to_nobody_and_a_family_joker_is_a_joker() -> None:
    game = new_game("duell-der-meister", 2)
    state = game.initial_state(game.default_setup())
    gold = next(cell for cell, piece in state.board.items() if piece.owner is None)
    number = state.board[gold].number
    assert answer(game, state, "square", square=gold) == f"{gold}: {number}, given."
    family = new_game("sudoku-family", 2)
    board = {"e2": Piece(1, None)}
    assert answer(family, family.initial_state().replace(board=board), "square",
                  square="e2") == "e2: Ben's joker."


def test_a_dominari_blank_and_an_empty_dead_field() -> None:
    game = new_game("vierer-dominari", 2)
    board = {"b1": Piece(0, 1), "c1": Piece(1, 2), "d1": Piece(0, 3), "a2": Piece(1, 4),
             "a3": Piece(0, 5), "f6": Piece(1, None)}
    state = game.initial_state().replace(board=board)
    assert answer(game, state, "square", square="f6") == "f6: Ben's blank."
    assert answer(game, state, "square", {"signals": {"a1": "dead"}}, square="a1") == \
        "a1: empty; its light: dead field: only a blank may go here."
    assert answer(game, state, "rank", rank="1") == (
        "Rank 1: b1 Anna's 1, c1 Ben's 2 and d1 Anna's 3; empty: a1, e1 and f1. "
        "Dead fields: a1.")


@pytest.mark.parametrize(("variant", "square"), [("kakuro", "a1"), ("sudoku-family", "a1"),
                                                 ("vierer-dominari", "i9"),
                                                 ("3d-sudoku", "e5")])
def test_a_square_off_the_board_is_said_to_be_off_it(variant: str, square: str) -> None:
    game, state = played(variant)
    for kind in ("square", "block", "may"):
        assert answer(game, state, kind, square=square) == \
            f"{square} is not a square of this board."


# --- reading ranks, files and blocks ------------------------------------------------------------


def test_a_rank_and_a_file_are_read_in_board_order_with_the_empty_squares() -> None:
    game, state = played("classic-sudoku", ("c4", 5), ("g4", 7), ("c9", 1))
    assert answer(game, state, "rank", rank="4") == \
        "Rank 4: c4 Anna's 5 and g4 Ben's 7; empty: a4, b4, d4, e4, f4, h4 and i4."
    assert answer(game, state, "file", file="c") == \
        "File c: c9 Anna's 1 and c4 Anna's 5; empty: c8, c7, c6, c5, c3, c2 and c1."
    assert answer(game, state, "rank", rank="5") == "Rank 5: all 9 squares empty."
    assert answer(game, state, "rank", language="de", rank="5") == \
        "Zeile 5: alle 9 Felder leer."


def test_a_6x6_board_has_no_rank_9() -> None:
    game, state = played("score-dominari")
    assert answer(game, state, "rank", rank="9") == "Rank 9 has no square on this board."
    assert answer(game, state, "file", file="i") == "File i has no square on this board."


@pytest.mark.parametrize(("variant", "square", "area"), [
    ("classic-sudoku", "e5", "Block d4"), ("duell-der-meister", "a1", "Block a1"),
    ("labyrinth-sudoku", "a1", "Region 1"), ("killer-sudoku", "a1", "Cage 1"),
    ("3d-sudoku", "a1", "Left face"), ("hexa-sudoku", "c1", "Region 1"),
    ("sudoku-family", "c4", "Triangle 3"), ("halma-dominari", "a1", "Block a1"),
    ("kakuro", "b1", "Line 1"),
])
def test_a_block_is_the_area_the_board_prints_around_the_square(variant: str, square: str,
                                                                area: str) -> None:
    game, state = played(variant)
    said = answer(game, state, "block", square=square)
    assert said.startswith(area + ":"), said


def test_a_kosmos_block_names_each_square_once() -> None:
    game, state = played("classic-sudoku", ("e5", 3))
    assert answer(game, state, "block", square="f6") == \
        "Block d4: e5 Anna's 3; empty: d6, e6, f6, d5, f5, d4, e4 and f4."


# --- what may go where ---------------------------------------------------------------------------


def test_the_numbers_that_may_go_on_a_square_follow_the_rules() -> None:
    game, state = played("classic-sudoku", ("e3", 5), ("a5", 7), ("f4", 1))
    assert answer(game, state, "may", square="e5") == "e5 may take 2, 3, 4, 6, 8 and 9."
    assert answer(game, state, "may", square="e3") == "e3 is taken: Anna's 5."
    assert answer(game, state, "may", language="de", square="e5") == \
        "Auf e5 passt: 2, 3, 4, 6, 8 und 9."


def test_where_a_number_may_go_lists_every_square_the_rules_allow() -> None:
    game, state = played("classic-sudoku", ("e3", 5))
    said = answer(game, state, "where", number="5")
    legal = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 5}
    assert said.startswith(f"5 may go on {len(legal)} squares: ")
    named = said.split(": ", 1)[1].rstrip(".").replace(" and ", ", ").split(", ")
    assert set(named) == legal and "e1" not in named and "a3" not in named


def test_a_dead_field_takes_no_number_and_a_number_past_the_game_is_said_to_be() -> None:
    game = new_game("vierer-dominari", 2)
    board = {"b1": Piece(0, 1), "c1": Piece(1, 2), "d1": Piece(0, 3), "a2": Piece(1, 4),
             "a3": Piece(0, 5)}
    state = game.initial_state().replace(board=board)
    assert answer(game, state, "may", square="a1") == "No number may go on a1 now."
    assert answer(game, state, "where", number="7") == \
        "This game has no 7: its numbers run from 1 to 5."


def test_a_game_of_moves_says_that_nothing_is_put_down() -> None:
    game, state = played("halma-dominari")
    assert answer(game, state, "may", square="c3") == \
        "In this game pieces move: no number is needed."
    assert answer(game, state, "where", number="3") == \
        "In this game pieces move: no number is needed."


def test_where_a_family_stone_may_go_follows_its_triangles() -> None:
    game, state = played("sudoku-family")
    legal = {a.cell for a in game.legal_actions(state) if isinstance(a, Place) and a.number == 4}
    said = answer(game, state, "where", number="4")
    assert said.startswith(f"4 may go on {len(legal)} squares")


# --- the game as a whole ------------------------------------------------------------------------


def test_the_scores_name_every_player() -> None:
    game, state = played("classic-sudoku", ("a1", 1), ("b1", 2), ("c1", 3), players=3)
    points = game.scores(state)
    assert answer(game, state, "scores") == \
        f"Scores: Anna {points[0]}, Ben {points[1]} and Cleo {points[2]}."
    assert answer(game, state, "scores", language="de").startswith("Punkte: Anna ")


def test_now_says_whose_turn_and_the_bars_next_step() -> None:
    game, state = played("classic-sudoku")
    table = {"next": {"code": "say_number", "params": {"square": "c3"}, "actor": 1}}
    assert answer(game, state, "now", table) == \
        "Ben's turn: tap the number of the new piece on c3."
    assert answer(game, state, "now", table, seat=1) == \
        "Your turn: tap the number of the new piece on c3."
    assert answer(game, state, "now", table, language="de") == \
        "Ben ist dran: tippe die Zahl des neuen Steins auf c3 an."
    clearing = {"next": {"code": "clear_board", "params": {"pieces": "cards"}, "actor": None}}
    assert answer(game, state, "now", clearing) == "Take away the cards left on the board."


def test_a_seats_phone_hears_its_own_card_and_nobody_else_hears_one() -> None:
    game, state = played("classic-sudoku")
    table = {"next": {"code": "place_own", "params": {"piece": "card"}, "actor": 0}, "hand": 7}
    assert answer(game, state, "now", table, seat=0) == \
        "Your turn: put your card down: your phone knows its number. Your card: 7."
    # A view that carries a card never makes the shared panel say it.
    assert "7" not in answer(game, state, "now", table, seat=None)


def test_repeat_says_the_last_announcement_as_the_view_carries_it() -> None:
    game, state = played("classic-sudoku")
    table = {"say": {"id": "x-1", "parts": [
        {"kind": "action", "code": "action", "seat": None,
         "params": {"player": 0, "action": {"type": "place", "cell": "c3", "number": 5},
                    "points": [2, 0], "completed": []}},
        {"kind": "turn", "code": "turn", "params": {"player": 1}, "seat": 1}]}}
    assert answer(game, state, "repeat", table) == "Anna: 5 on c3, plus 2. Ben's turn."
    assert answer(game, state, "repeat", table, language="de") == \
        "Anna: 5 auf c3, plus 2. Ben ist dran."
    assert answer(game, state, "repeat") == "The table has said nothing yet."


def test_the_end_is_said_when_asked_what_now() -> None:
    game, state = played("classic-sudoku")
    over = state.replace(over=True, to_move=None, winners=(0,))
    table = {"next": {"code": "game_over", "params": {"reason": "board_full"}, "actor": None}}
    assert answer(game, over, "now", table) == "The game is over: the board is full."
    assert answer(game, over, "may", square="e5") == "The game is over."
    assert answer(game, over, "now") == "The game is over."


# --- every game, both languages -------------------------------------------------------------------


def _every_question(game: Game, state: State) -> list[tuple[str, dict[str, str]]]:
    cell = sorted(state.board)[0] if state.board else game.geometry.cells[0]
    return [("square", {"square": cell}), ("rank", {"rank": cell[1]}),
            ("file", {"file": cell[0]}), ("block", {"square": cell}),
            ("may", {"square": game.geometry.cells[-1]}), ("where", {"number": "3"}),
            ("scores", {}), ("now", {}), ("repeat", {})]


@pytest.mark.parametrize("variant", [cls.id for cls in all_variants()])
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_game_answers_every_question_in_both_languages(variant: str,
                                                             language: str) -> None:
    game = new_game(variant, min(2, variant_class(variant).max_players))
    state = game.initial_state(game.default_setup() or None)
    for _ in range(4):  # a few pieces on the board, each the rules' first legal action
        action = next(iter(game.legal_actions(state)), None)
        if action is not None:
            state = game.apply(state, action)
    table = {"next": {"code": "move" if game.moves_pieces else "place", "params": {},
                      "actor": state.to_move}}
    asked = _every_question(game, state)
    assert {kind for kind, _ in asked} == set(QUESTIONS)
    for kind, about in asked:
        said = answer(game, state, kind, table, language=language, **about)
        assert said and "{" not in said, (kind, said)
        if language == "de":
            assert said != answer(game, state, kind, table, **about), (kind, said)


def test_every_phrase_has_a_german_wording() -> None:
    german = i18n.catalog("de")
    missing = [code for code, english in PHRASES.items() if not german.get(english)]
    assert missing == []
