"""The table deals (``table/dealing.py``): what the panel offers around the dealt card.

Where the table deals, only the card it dealt can be played (``Placing._not_dealt``): the panel
must not offer to set aside, or to lay as a joker, a card nobody holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_table.rules.game import Piece, house_conflict, variant_class
from sudoku_table.table import Table

from .helpers import Clock, make_table, put

pytestmark = pytest.mark.integration

ONES = [f"{'abcdefghi'[(3 * row + row // 3) % 9]}{row + 1}" for row in range(9)]
"""A 1 in every row, file and box of the 9x9 board: no other 1 fits anywhere."""


def dealt_game(seed: int, variant: str = "classic-sudoku",
               setup: dict[str, dict[str, Any]] | None = None) -> tuple[Table, Clock,
                                                                        dict[str, Any]]:
    """A dealt two-player game (classic KOSMOS with the gold 1s of ``ONES``), its board set up;
    the table, its clock and its view once the board stands."""
    table, clock, _ = make_table()
    table.set_board([])
    setup = {q: {"owner": None, "number": 1} for q in ONES} if setup is None else setup
    table.new_game(variant, 2, setup=setup, deal=True, seed=seed)
    for square in setup:
        view = put(table, clock, square)
    assert view["table"]["next"]["code"] == "place_dealt", view["table"]["next"]
    return table, clock, view


def test_only_the_dealt_card_may_be_set_aside() -> None:
    """A 1 fits nowhere; while the table deals another card, the panel offers no set-aside
    (it used to offer the 1, which the table then refused: nobody held it)."""
    seeds = {}
    for seed in range(60):
        table, _, view = dealt_game(seed)
        hand = table.hand(0)
        assert hand is not None
        seeds.setdefault(hand["number"] == 1, (table, view, hand))
        if len(seeds) == 2:
            break
    table, view, hand = seeds[False]
    assert hand["do"] == "place"
    assert view["table"]["discard_choices"] == []
    table, view, hand = seeds[True]  # the dealt card is the 1: set aside with one tap
    assert hand == {"number": 1, "do": "set_aside"}
    assert view["table"]["discard_choices"] == [1]
    after = table.input({"type": "discard", "number": 1}, 0)  # on seat 0's own phone
    assert after["game"]["discarded"] == 1


def test_a_dealt_stone_that_fits_is_no_joker_where_it_may_not_go() -> None:
    """SUDOKU FAMILY, no 1 fits anywhere: a dealt stone of another number put down where it
    may not go is to be taken away; the bar used to offer to lay it face down as a joker
    (only a 1 could be one, and nobody held a 1)."""
    geometry = variant_class("sudoku-family")(2).geometry
    board: dict[str, Piece] = {}
    for number in range(1, 7):  # every 1 that still fits, then one stone of each other
        for cell in geometry.cells:
            if cell not in board and house_conflict(geometry, board, cell, number) is None:
                board[cell] = Piece(len(board) % 2, number)
                if number > 1:
                    break
    setup = {c: piece.to_json() for c, piece in board.items()}
    for seed in range(60):
        table, clock, view = dealt_game(seed, "sudoku-family", setup)
        hand = table.hand(view["game"]["to_move"])
        assert hand is not None
        if hand["number"] != 1:
            break
    assert hand["do"] == "place"
    wrong = next(c for c in geometry.cells if c not in board
                 and house_conflict(geometry, board, c, hand["number"]) is not None)
    view = put(table, clock, wrong)
    assert view["table"]["joker_choices"] == []
    # What is refused is the card dealt, not the square (another number may go there); the
    # shared bar names the card, not its number, which only its seat's phone shows.
    assert view["table"]["next"]["code"] == "take_away_card", view["table"]["next"]
    assert "number" not in view["table"]["next"]["params"]
    assert view["table"]["signals"][wrong] == "illegal"
