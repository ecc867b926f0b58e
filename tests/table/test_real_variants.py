"""The companion on the real rules of the KOSMOS games, Duell der Meister and SUDOKU FAMILY.

What players meet at the table: the number pad offers exactly the legal numbers, an illegal card
blinks with the card it clashes with, set-asides are verified, Duell's gold cards are guided onto
the board one by one, hints light the squares where the chosen number fits on every board shape,
and a knocked piece shows missing until it is put back.
"""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import Game, State, new_game
from sudoku_table.rules.record import Record, replay
from sudoku_table.table import InputError, Table
from tests.rules.duell_positions import BOOK_RECORD

from .helpers import Clock, lift, make_table, put

pytestmark = pytest.mark.integration

KOSMOS = ("classic-sudoku", "labyrinth-sudoku", "killer-sudoku", "kakuro", "3d-sudoku",
          "hexa-sudoku")


def started(variant: str, **kwargs: Any) -> tuple[Table, Clock]:
    table, clock, _ = make_table()
    table.new_game(variant, **kwargs)
    assert not table.view()["table"].get("setting_up")
    return table, clock


def rules_now(table: Table) -> tuple[Game, State]:
    """The table's game replayed by the rules alone from its record."""
    record = table.record()
    assert record is not None
    game, states = replay(Record.from_json(record))
    return game, states[-1]


def legal_numbers(table: Table, cell: str) -> list[int]:
    """The numbers the rules allow on ``cell`` now, asked of the rules directly."""
    game, state = rules_now(table)
    return [n for n in game.geometry.number_range if game.check(state, Place(cell, n)) is None]


def set_up(variant: str) -> tuple[Table, Clock, str]:
    """A game whose setup already stands on the board, and a first cell the mover may fill."""
    table, clock, _ = make_table()
    game = new_game(variant)
    setup = game.default_setup()
    table.new_game(variant)
    table.set_board(list(setup))
    first = game.initial_state(setup)
    cell = "d5" if variant == "sudoku-family" else next(
        c for c in game.geometry.cells if c not in setup and game.placeable_numbers(first, c))
    return table, clock, cell


def place(table: Table, clock: Clock, cell: str, number: int) -> dict[str, Any]:
    put(table, clock, cell)
    return table.input({"type": "number", "square": cell, "number": number})


@pytest.mark.parametrize("variant", KOSMOS)
def test_a_kosmos_card_is_asked_for_accepted_and_flashed(variant: str) -> None:
    table, clock = started(variant)
    cell = new_game(variant).geometry.cells[0]
    view = put(table, clock, cell)
    prompt = view["table"]["prompt"]
    assert prompt["kind"] == "number" and prompt["square"] == cell
    assert prompt["choices"] == legal_numbers(table, cell)
    view = table.input({"type": "number", "square": cell, "number": prompt["choices"][0]})
    assert view["game"]["cells"][cell] == {"owner": 0, "number": prompt["choices"][0]}
    assert view["game"]["to_move"] == 1
    assert view["table"]["signals"].get(cell) == "last"
    assert view["table"]["prompt"] is None


@pytest.mark.parametrize("variant", KOSMOS)
def test_a_clashing_kosmos_card_blinks_with_its_conflict_until_taken_away(variant: str) -> None:
    table, clock = started(variant)
    geometry = new_game(variant).geometry
    first = geometry.cells[0]
    place(table, clock, first, 1)
    peer = sorted(geometry.peers[first])[0]
    before = table.view()["game"]
    put(table, clock, peer)
    view = table.input({"type": "number", "square": peer, "number": 1})
    assert view["game"] == before, "an illegal card never enters the game"
    assert view["table"]["signals"][peer] == "illegal"
    assert view["table"]["signals"][first] == "conflict"
    assert "1 is already in" in view["table"]["message"]
    view = lift(table, clock, peer)
    assert view["table"]["signals"] == {first: "last"}
    assert view["game"] == before


def test_the_kakuro_clue_caps_narrow_the_number_pad() -> None:
    table, clock = started("kakuro", options={"clues": "B"})
    geometry = new_game("kakuro", options={"clues": "B"}).geometry
    clue, run = min(((c["sum"], geometry.houses[name]) for name, c in geometry.clues.items()),
                    key=lambda item: item[0])
    cell = run[0]
    choices = put(table, clock, cell)["table"]["prompt"]["choices"]
    assert choices == legal_numbers(table, cell)
    assert max(choices) <= clue
    open_ = started("kakuro", options={"clues": "A"})
    assert put(open_[0], open_[1], cell)["table"]["prompt"]["choices"] == list(range(1, 10))


def test_a_verified_set_aside_is_accepted_and_a_wrong_one_refused() -> None:
    table, clock = started("classic-sudoku")
    before = table.view()["game"]
    with pytest.raises(InputError, match="fits|still"):
        table.input({"type": "discard", "number": 5})
    assert table.view()["game"] == before
    assert table.view()["table"]["discard_choices"] == []


def test_duell_gold_cards_are_guided_onto_the_board_one_by_one() -> None:
    table, clock, _ = make_table()
    game = new_game("duell-der-meister")
    gold = game.default_setup()
    view = table.new_game("duell-der-meister")
    assert view["table"]["setting_up"]
    placed: set[str] = set()
    for _ in range(len(gold)):
        prompt = view["table"]["prompt"]
        assert prompt["kind"] == "setup"
        square = prompt["square"]
        assert view["table"]["signals"][square] == "setup"
        assert prompt["piece"] == gold[square].to_json()
        assert square not in placed
        view = put(table, clock, square)
        placed.add(square)
    assert placed == set(gold)
    assert not view["table"]["setting_up"]
    assert view["game"]["to_move"] == 0
    assert view["table"]["prompt"] is None


def test_duell_a_claim_is_said_with_the_card_that_decides_it() -> None:
    """The rule book's example at the table: the blue 9 on a8 fills file a and decides block
    a7, and the message of that very card carries both markers, the block as claimed."""
    table, clock, _ = set_up("duell-der-meister")
    for action in BOOK_RECORD["actions"]:
        view = place(table, clock, action["cell"], action["number"])
    code = view["table"]["message_code"]
    assert code["code"] == "action" and code["params"]["player"] == 0
    assert code["params"]["points"] == [2, 0]
    assert code["params"]["completed"] == ["file a"]
    assert code["params"]["claimed"] == ["block a7"]
    assert view["game"]["markers"] == {"file a": 0, "block a7": 0}
    assert view["game"]["to_move"] == 1
    assert view["table"]["signals"]["a8"] == "last"
    # Said aloud with the same card: both markers, and the block as decided early.
    said = table.view()["table"]["say"]
    assert said["parts"][0]["params"]["claimed"] == ["block a7"]
    assert said["text"] == ("Player 1: 9 on a8, file a complete, block a7 decided early, "
                            "plus 2. Player 2's turn.")


def test_a_wrong_square_during_duell_setup_shows_extra_and_waits() -> None:
    table, clock, _ = make_table()
    view = table.new_game("duell-der-meister")
    wanted = view["table"]["prompt"]["square"]
    stray = next(c for c in new_game("duell-der-meister").geometry.cells
                 if c not in new_game("duell-der-meister").default_setup())
    view = put(table, clock, stray)
    assert view["table"]["signals"][stray] == "extra"
    assert view["table"]["setting_up"]
    view = lift(table, clock, stray)
    assert view["table"]["prompt"]["square"] == wanted


def test_family_first_stone_only_on_a_black_dot() -> None:
    table, clock = started("sudoku-family")
    before = table.view()["game"]
    put(table, clock, "c5")
    view = table.input({"type": "number", "square": "c5", "number": 3})
    assert view["table"]["signals"]["c5"] == "illegal"
    assert "black dot" in view["table"]["message"]
    assert view["game"] == before
    lift(table, clock, "c5")
    view = place(table, clock, "d5", 3)
    assert view["game"]["cells"]["d5"] == {"owner": 0, "number": 3}
    assert view["game"]["to_move"] == 1


@pytest.mark.parametrize("variant, announced", [("hexa-sudoku", 4), ("3d-sudoku", 4),
                                                ("sudoku-family", 2)])
def test_hints_light_every_square_where_the_announced_number_fits(variant: str,
                                                                  announced: int) -> None:
    table, clock = started(variant, hints=True)
    geometry = new_game(variant).geometry
    view = table.input({"type": "number", "number": announced})
    targets = {s for s, word in view["table"]["signals"].items() if word == "target"}
    game, state = rules_now(table)
    expected = {c for c in geometry.cells if game.check(state, Place(c, announced)) is None}
    assert targets == expected and targets


@pytest.mark.parametrize("variant", ("classic-sudoku", "duell-der-meister", "sudoku-family"))
def test_a_knocked_piece_shows_missing_until_it_is_put_back(variant: str) -> None:
    table, clock, cell = set_up(variant)
    number = legal_numbers(table, cell)[0]
    place(table, clock, cell, number)
    before = table.view()["game"]
    view = lift(table, clock, cell)
    assert view["table"]["signals"][cell] == "missing"
    assert view["game"] == before
    view = put(table, clock, cell)
    assert view["table"]["signals"].get(cell) in (None, "last")
    assert view["game"] == before


@pytest.mark.parametrize("variant", ("hexa-sudoku", "duell-der-meister", "sudoku-family"))
def test_undo_takes_the_card_back_and_guides_its_removal(variant: str) -> None:
    table, clock, cell = set_up(variant)
    before = table.view()["game"]
    place(table, clock, cell, legal_numbers(table, cell)[0])
    view = table.input({"type": "undo", "confirm": True})  # the next player's turn: asked
    assert view["game"] == before
    assert view["table"]["signals"][cell] == "extra"
    view = lift(table, clock, cell)
    assert cell not in view["table"]["signals"]
