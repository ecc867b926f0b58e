"""The flow of a game of placements: a new piece goes down and waits for its number (or is a
blank, a joker, or a card to set aside), or a number is chosen first and its piece follows.

Functions of the ``Companion``, which keeps the piece waiting for its number (``NewPiece``),
the number chosen in advance and the blank whose colour may still change; they use its history
and its board and change only those and the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_table.rules.actions import Blank, Discard, EndTurn, Joker, Place
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import BLANKS_PHASE
from sudoku_table.rules.wording import N_

from .errors import InputError

if TYPE_CHECKING:
    from .companion import Companion


@dataclass
class NewPiece:
    """A piece put on an empty cell, waiting for its number (or shown illegal)."""

    square: str
    number: int | None = None
    illegal: Illegal | None = None


def may_start_piece(c: Companion, square: str) -> bool:
    return (not c.move_game and not c.state.over and not c.setting_up
            and c.pending is None and not c.debt and not c.turning
            and square not in c.state.board and c.agrees_apart_from(square))


def new_piece(c: Companion, square: str) -> None:
    c.pending = NewPiece(square)
    if c.computer_turn:
        computer_piece(c, square)
        return
    if c.in_hand is not None:
        number, c.in_hand = c.in_hand, None
        try_number(c, number)
        return
    if c.check(Blank(square)) is None:
        place_blank(c, square, None)
        return
    if not number_choices(c, square):
        if square in c.dead():
            c.say("dead_field", square=square)
        else:
            why = c.check(Place(square, c.game.geometry.numbers[0]))
            if why is not None:
                c.say("no_number_here_because", square=square, reason=why.reason,
                  why=why.said())
            else:
                c.say("no_number_here", square=square)
    else:
        c.message = None


def computer_piece(c: Companion, square: str) -> None:
    """A piece put down while the computer is to move: its action when it goes where the
    computer plays (with the computer's number, not asked), else a piece to take away."""
    pending = c.pending
    assert pending is not None
    expect = c.expect
    if isinstance(expect, Place) and expect.cell == square:
        try_number(c, expect.number)
        return
    if isinstance(expect, Blank) and expect.cell == square:
        place_blank(c, square, expect.owner)
        c.blank_choice = None  # the computer chose the colour
        return
    if isinstance(expect, Joker) and expect.cell == square:
        if c.commit(expect) is None:
            c.pending = None
        return
    refusal = c.computer_refusal(Place(square, c.game.geometry.numbers[0]))
    pending.illegal = refusal
    if refusal is not None:
        c.say("not_computers_move", square=square, reason=refusal.reason, why=refusal.said())


def number_choices(c: Companion, square: str) -> list[int]:
    """The numbers the panel offers for a new piece on ``square``."""
    def compute() -> list[int]:
        state = c.state
        choices = c.game.placeable_numbers(state, square) if not state.over else []
        if not choices and state.phase == BLANKS_PHASE and c.check(EndTurn()) is None:
            # A number piece now belongs to whoever moves once the blank phase ends.
            after = c.game.apply(state, EndTurn())
            if not after.over:
                choices = c.game.placeable_numbers(after, square)
        return list(choices)
    return list(c.history.cached(f"choices {square}", compute))


def playable_numbers(c: Companion) -> list[int]:
    """The numbers worth choosing before a piece goes down: those the mover can play now
    (place somewhere, set aside, or lay as a joker), of the cards or stones left to them
    where the game hides the hand."""
    def compute() -> list[int]:
        state = c.state
        mover = state.to_move
        if state.over or mover is None:
            return []
        numbers = {a.number for a in c.game.legal_actions(state)
                   if isinstance(a, Place | Discard | Joker)}
        if c.game.hidden_hands:
            supply = c.game.hand_supply(state, mover)
            if supply is not None:
                numbers &= {n for n, k in supply.items() if k > 0}
        return sorted(numbers)
    return list(c.history.cached("playable numbers", compute))


def discard_choices(c: Companion) -> list[int]:
    """The numbers that fit nowhere now: the cards that may be set aside (none in games
    without discards)."""
    def compute() -> list[int]:
        if c.state.over or c.move_game:
            return []
        low, high = c.game.geometry.numbers
        return [n for n in range(low, high + 1) if c.check(Discard(n)) is None]
    return list(c.history.cached("discard choices", compute))


def joker_choices(c: Companion, square: str) -> list[int]:
    """The numbers a stone may show to be laid face down on ``square`` as a joker."""
    def compute() -> list[int]:
        if c.state.over or c.move_game:
            return []
        low, high = c.game.geometry.numbers
        return [n for n in range(low, high + 1) if c.check(Joker(square, n)) is None]
    return list(c.history.cached(f"joker choices {square}", compute))


def try_number(c: Companion, number: int) -> None:
    pending = c.pending
    assert pending is not None
    illegal = c.commit(Place(pending.square, number))
    if illegal is None:
        c.pending = None
        return
    pending.number = number
    pending.illegal = illegal
    c.say("number_illegal", number=number, square=pending.square, reason=illegal.reason,
                  why=illegal.said())


def place_blank(c: Companion, square: str, owner: int | None) -> None:
    mover = c.mover
    others = [p for p in range(c.game.players) if p != mover and owner is None
              and c.check(Blank(square, p)) is None]
    illegal = c.commit(Blank(square, owner))
    if illegal is not None:
        assert c.pending is not None
        c.pending.illegal = illegal
        c.say("blank_illegal", square=square, reason=illegal.reason,
                  why=illegal.said())
        return
    c.pending = None
    if others and mover is not None:
        c.blank_choice = (square, sorted([mover, *others]), mover)


def check_number(c: Companion, number: int) -> None:
    low, high = c.game.geometry.numbers
    if not low <= number <= high:
        raise InputError(N_("this game's numbers are {low} to {high}, not {number}"),
                         low=low, high=high, number=number)


def claim_piece(c: Companion, square: str) -> None:
    """Make ``square`` the new piece the panel speaks about, or say why it cannot be."""
    if c.pending is not None and c.pending.square == square:
        return
    if square not in c.cells:
        raise InputError(N_("{square} is not a cell of this board"), square=square)
    if c.move_game:
        raise InputError(N_("in this game pieces move: lift one and set it down"))
    if square not in c.occupied:
        raise InputError(N_("there is no {piece} on {square}: put it down first"), square=square,
                         piece=c.game.piece_word)
    if square in c.state.board:
        raise InputError(N_("the {piece} on {square} is already in the game"), square=square,
                         piece=c.game.piece_word)
    if c.pending is not None:
        raise InputError(N_("first deal with the new {piece} on {square}"),
                         square=c.pending.square, piece=c.game.piece_word)
    if not may_start_piece(c, square):
        raise InputError(N_("put the board right first (blinking orange or amber squares)"))
    c.pending = NewPiece(square)


def input_number(c: Companion, square: str | None, number: int) -> None:
    check_number(c, number)
    if square is None:
        if c.pending is not None:
            try_number(c, number)
            return
        if c.move_game:
            raise InputError(N_("in this game pieces move: no number is needed"))
        c.in_hand = number
        c.message = None  # the next step says it: "put your 4 on the board"
        return
    claim_piece(c, square)
    try_number(c, number)


def input_blank(c: Companion, square: str, owner: int | None) -> None:
    if owner is not None and not 0 <= owner < c.game.players:
        raise InputError(N_("there is no player {owner}"), owner=owner)
    choice = c.blank_choice
    if choice is not None and choice[0] == square and c.pending is None:
        if owner is None:
            raise InputError(N_("say which colour the blank on {square} shows"), square=square)
        if owner not in choice[1]:
            raise InputError(N_("a blank of player {owner} cannot go on {square}"),
                             owner=owner, square=square)
        piece = c.state.board.get(square)
        if piece is not None and piece.owner == owner:
            raise InputError(N_("the blank on {square} already counts as that colour"),
                             square=square)
        c.undo("colour_changed")
        c.pending = NewPiece(square)
        place_blank(c, square, owner)
        if c.pending is not None:  # the other colour is no longer legal: restore
            c.pending = NewPiece(square)
            place_blank(c, square, None)
        c.blank_choice = choice
        return
    claim_piece(c, square)
    place_blank(c, square, owner)


def input_discard(c: Companion, number: int) -> None:
    check_number(c, number)
    c.panel_action(Discard(number))
    c.in_hand = None
    if c.pending is not None and c.pending.number == number:
        c.pending = None  # that card was put down by mistake: now it shows extra


def input_joker(c: Companion, square: str, number: int) -> None:
    check_number(c, number)
    if c.pending is not None and c.pending.square != square:
        raise InputError(N_("first deal with the new {piece} on {square}"),
                         square=c.pending.square, piece=c.game.piece_word)
    c.panel_action(Joker(square, number))
    c.pending = None
    c.in_hand = None
