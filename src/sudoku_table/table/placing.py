"""The flow of a game of placements: a new piece goes down and waits for its number (or is a
blank, a joker, or a card to set aside), or a number is chosen first and its piece follows.

``Placing`` keeps the piece waiting for its number (``NewPiece``), the number chosen in advance
and the blank whose colour may still change; it reads the history and the board, and hands
every action to the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_table.rules.actions import Action, Blank, Discard, EndTurn, Joker, Place
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import BLANKS_PHASE, Game
from sudoku_table.rules.wording import N_

from .computer import check_number
from .errors import InputError

if TYPE_CHECKING:
    from .board import Board
    from .companion import Companion
    from .computer import ComputerTurn
    from .dealing import Dealer
    from .history import History
    from .line import Line
    from .referee import Referee


@dataclass
class NewPiece:
    """A piece put on an empty cell, waiting for its number (or shown illegal)."""

    square: str
    number: int | None = None
    illegal: Illegal | None = None

    def refuse(self, illegal: Illegal | None, number: int | None = None) -> None:
        """The piece cannot count as it is (``illegal``; ``number``: the number tried)."""
        if number is not None:
            self.number = number
        self.illegal = illegal


class Placing:
    """The placements under way: the new piece waiting for its number (``pending``), the number
    chosen before its piece goes down (``in_hand``) and the blank whose colour the table
    assumed (``blank_choice``: its square, the colours it may show, and the player who set it,
    asked of them, never taking over the next player's turn)."""

    def __init__(self, game: Game, history: History, referee: Referee, computer: ComputerTurn,
                 dealer: Dealer, board: Board, line: Line) -> None:
        self._game = game
        self._history = history
        self._referee = referee
        self._computer = computer
        self._dealer = dealer
        self._board = board
        self._line = line
        self.pending: NewPiece | None = None
        self.in_hand: int | None = None
        self.blank_choice: tuple[str, list[int], int] | None = None

    # --- the board -------------------------------------------------------------------------

    def on_square(self, square: str, occupied: bool, *, in_place: bool, agrees: bool) -> None:
        """A piece set down on ``square`` or lifted from it (a square the game counts now;
        ``in_place``: a piece the game has there, or one under way; ``agrees``: the board
        stands as the game does apart from this square)."""
        pending = self.pending
        if not occupied:
            if pending is not None and square == pending.square:
                self.pending = None
                self._line.clear()
            return
        if in_place:
            return  # a missing piece is back
        if self._may_start(square, agrees):
            self._new_piece(square)
        elif self._history.debt:
            self._line.say("turn_first")
        elif pending is not None:
            self._line.say("one_at_a_time", square=pending.square, piece=self._game.piece_word)

    def _may_start(self, square: str, agrees: bool) -> bool:
        history = self._history
        return (not history.state.over and not self._board.setting_up
                and self.pending is None and not history.debt and not history.turning
                and square not in history.state.board and agrees)

    def _new_piece(self, square: str) -> None:
        self.pending = NewPiece(square)
        if self._computer.turn:
            self._computer_piece(square)
            return
        dealt = self._dealer.card()
        if dealt is not None:
            self._dealt_piece(square, dealt)
            return
        if self.in_hand is not None:
            number = self.in_hand
            if not self._game.number_stays:
                self.in_hand = None
            self._try_number(number)
            return
        check = self._history.check
        if check(Blank(square)) is None:
            self._place_blank(square, None)
            return
        if self.number_choices(square):
            self._line.clear()
        elif square in self._history.dead():
            self._line.say("dead_field", square=square)
        else:
            why = check(Place(square, self._game.geometry.numbers[0]))
            if why is not None:
                self._line.say("no_number_here_because", square=square, reason=why.reason,
                               why=why.said())
            else:
                self._line.say("no_number_here", square=square)

    def _dealt_piece(self, square: str, dealt: int) -> None:
        """A piece put down while the table deals: the mover's dealt card, placed; a stone that
        fits nowhere but may lie there face down is a joker; else a piece to take away."""
        joker = Joker(square, dealt)
        if not self._game.placeable_numbers(self._history.state, square) \
                and self._history.check(joker) is None:
            if self.count(joker) is None:
                self.pending = None
            return
        self._try_number(dealt)

    def _computer_piece(self, square: str) -> None:
        """A piece put down while the computer is to move: its action when it goes where the
        computer plays (with the computer's number, not asked), else a piece to take away."""
        pending = self.pending
        assert pending is not None
        expect = self._computer.expect
        if isinstance(expect, Place) and expect.cell == square:
            self._try_number(expect.number)
            return
        if isinstance(expect, Blank) and expect.cell == square:
            self._place_blank(square, expect.owner)
            self.blank_choice = None  # the computer chose the colour
            return
        if isinstance(expect, Joker) and expect.cell == square:
            if self.count(expect) is None:
                self.pending = None
            return
        refusal = self._computer.refusal(Place(square, self._game.geometry.numbers[0]))
        pending.refuse(refusal)
        if refusal is not None:
            self._line.say("not_computers_move", square=square, reason=refusal.reason,
                           why=refusal.said())

    # --- what the panel offers -------------------------------------------------------------

    def number_choices(self, square: str) -> list[int]:
        """The numbers the panel offers for a new piece on ``square``."""
        game, history = self._game, self._history

        def compute() -> list[int]:
            state = history.state
            choices = game.placeable_numbers(state, square) if not state.over else []
            if not choices and state.phase == BLANKS_PHASE and history.check(EndTurn()) is None:
                # A number piece now belongs to whoever moves once the blank phase ends.
                after = game.apply(state, EndTurn())
                if not after.over:
                    choices = game.placeable_numbers(after, square)
            return list(choices)
        known, found = history.recall(f"choices {square}")
        return list(found if known else history.remember(f"choices {square}", compute()))

    def playable_numbers(self) -> list[int]:
        """The numbers worth choosing before a piece goes down: those the mover can play now
        (place somewhere, set aside, or lay as a joker), of the cards or stones left to them
        where the game hides the hand."""
        game, history = self._game, self._history

        def compute() -> list[int]:
            state = history.state
            mover = state.to_move
            if state.over or mover is None:
                return []
            numbers = {a.number for a in game.legal_actions(state)
                       if isinstance(a, Place | Discard | Joker)}
            if game.hidden_hands:
                supply = game.hand_supply(state, mover)
                if supply is not None:
                    numbers &= {n for n, k in supply.items() if k > 0}
            return sorted(numbers)
        known, found = history.recall("playable numbers")
        return list(found if known else history.remember("playable numbers", compute()))

    def discard_choices(self) -> list[int]:
        """The numbers that fit nowhere now: the cards that may be set aside (none in games
        without discards; where the table deals, the dealt card alone, if it fits nowhere)."""
        return self._fits("discard choices", Discard)

    def joker_choices(self, square: str) -> list[int]:
        """The numbers a stone may show to be laid face down on ``square`` as a joker (where
        the table deals, the dealt stone alone)."""
        return self._fits(f"joker choices {square}", lambda n: Joker(square, n))

    def _fits(self, key: str, make: Callable[[int], Action]) -> list[int]:
        game, history = self._game, self._history

        def compute() -> list[int]:
            if history.state.over or game.moves_pieces:
                return []
            low, high = game.geometry.numbers
            dealt = self._dealer.card()  # no other card can be played (``Dealer.check``)
            numbers = range(low, high + 1) if dealt is None else [dealt]
            return [n for n in numbers if history.check(make(n)) is None]
        known, found = history.recall(key)
        return list(found if known else history.remember(key, compute()))

    # --- acting ----------------------------------------------------------------------------

    def count(self, action: Action) -> Illegal | None:
        """Hand ``action`` to the referee; once it counts (or waits to be saved) the blank
        asked about belongs to the past."""
        illegal = self._referee.commit(action)
        if illegal is None:
            self.blank_choice = None
        return illegal

    def _try_number(self, number: int) -> None:
        pending = self.pending
        assert pending is not None
        illegal = self.count(Place(pending.square, number))
        if illegal is None:
            self.pending = None
            return
        pending.refuse(illegal, number)
        self._line.say("number_illegal", number=number, square=pending.square,
                       reason=illegal.reason, why=illegal.said())

    def _place_blank(self, square: str, owner: int | None) -> None:
        mover = self._history.mover
        others = [p for p in range(self._game.players) if p != mover and owner is None
                  and self._history.check(Blank(square, p)) is None]
        illegal = self.count(Blank(square, owner))
        if illegal is not None:
            assert self.pending is not None
            self.pending.refuse(illegal)
            self._line.say("blank_illegal", square=square, reason=illegal.reason,
                           why=illegal.said())
            return
        self.pending = None
        if others and mover is not None:
            self.blank_choice = (square, sorted([mover, *others]), mover)

    def _claim(self, square: str, agrees: bool) -> None:
        """Make ``square`` the new piece the panel speaks about, or say why it cannot be."""
        pending, piece = self.pending, self._game.piece_word
        if pending is not None and pending.square == square:
            return
        if square not in self._board.cells:
            raise InputError(N_("{square} is not a cell of this board"), square=square)
        if self._game.moves_pieces:
            raise InputError(N_("in this game pieces move: lift one and set it down"))
        if square not in self._board.occupied:
            raise InputError(N_("there is no {piece} on {square}: put it down first"),
                             square=square, piece=piece)
        if square in self._history.state.board:
            raise InputError(N_("the {piece} on {square} is already in the game"),
                             square=square, piece=piece)
        if pending is not None:
            raise InputError(N_("first deal with the new {piece} on {square}"),
                             square=pending.square, piece=piece)
        if not self._may_start(square, agrees):
            raise InputError(N_("put the board right first (blinking orange or amber squares)"))
        self.pending = NewPiece(square)

    # --- panel inputs ----------------------------------------------------------------------

    def input(self, kind: str, data: Mapping[str, Any], agrees: bool) -> None:
        """A number, a blank, a set-aside, a joker or the end of a turn, told on the panel
        (``agrees``: the board stands as the game does apart from the input's square)."""
        if kind == "number":
            if self._computer.turn:
                raise self._computer.busy()
            self.input_number(data.get("square"), data["number"], agrees)
        elif kind == "blank":
            self.input_blank(data["square"], data.get("owner"), agrees)
        elif kind == "discard":
            self.input_discard(data["number"])
        elif kind == "joker":
            self.input_joker(data["square"], data["number"])
        elif kind == "end_turn":
            self.act(EndTurn())
        else:  # inputs.py lets only known kinds through
            raise InputError(N_("unknown input {kind}"), kind=repr(kind))

    def input_number(self, square: str | None, number: int, agrees: bool) -> None:
        check_number(self._game, number)
        self._dealer.check(number)
        if square is None and self.pending is None and self._dealer.dealing:
            raise InputError(N_("the table deals in this game: put the {piece} down, its "
                                "number is known"), piece=self._game.piece_word)
        if square is None:
            if self.pending is not None:
                self._try_number(number)
                return
            if self._game.moves_pieces:
                raise InputError(N_("in this game pieces move: no number is needed"))
            self.in_hand = number
            self._line.clear()  # the next step says it: "put your 4 on the board"
            return
        self._claim(square, agrees)
        self._try_number(number)

    def input_blank(self, square: str, owner: int | None, agrees: bool) -> None:
        if owner is not None and not 0 <= owner < self._game.players:
            raise InputError(N_("there is no player {owner}"), owner=owner)
        choice = self.blank_choice
        if choice is not None and choice[0] == square and self.pending is None:
            self._recolour(choice, owner)
            return
        self._claim(square, agrees)
        self._place_blank(square, owner)

    def _recolour(self, choice: tuple[str, list[int], int], owner: int | None) -> None:
        """The blank's setter says it shows another colour: take it back and set it again."""
        square = choice[0]
        if owner is None:
            raise InputError(N_("say which colour the blank on {square} shows"), square=square)
        if owner not in choice[1]:
            raise InputError(N_("a blank of player {owner} cannot go on {square}"),
                             owner=owner, square=square)
        piece = self._history.state.board.get(square)
        if piece is not None and piece.owner == owner:
            raise InputError(N_("the blank on {square} already counts as that colour"),
                             square=square)
        self._referee.take_back("colour_changed")
        self.clear()
        self.pending = NewPiece(square)
        self._place_blank(square, owner)
        if self.pending is not None:  # the other colour is no longer legal: restore
            self.pending = NewPiece(square)
            self._place_blank(square, None)
        self.blank_choice = choice

    def input_discard(self, number: int) -> None:
        check_number(self._game, number)
        self._dealer.check(number)
        self.act(Discard(number))
        self.in_hand = None
        if self.pending is not None and self.pending.number == number:
            self.pending = None  # that card was put down by mistake: now it shows extra

    def input_joker(self, square: str, number: int) -> None:
        check_number(self._game, number)
        self._dealer.check(number)
        if self.pending is not None and self.pending.square != square:
            raise InputError(N_("first deal with the new {piece} on {square}"),
                             square=self.pending.square, piece=self._game.piece_word)
        self.act(Joker(square, number))
        self.pending = None
        self.in_hand = None

    def act(self, action: Action) -> None:
        """An action made on the panel (``InputError`` when it cannot count)."""
        illegal = self.count(action)
        if illegal is not None:
            raise InputError(illegal.reason)

    def cancel(self) -> bool:
        """Undo before anything else was done: cancel the new piece waiting for its number, or
        the number chosen in advance; True if there was one."""
        if self.pending is not None:
            square, self.pending = self.pending.square, None
            self._line.say("cancelled_piece", square=square, piece=self._game.piece_word)
            return True
        if self.in_hand is not None:
            number, self.in_hand = self.in_hand, None
            self._line.say("cancelled_number", number=number)
            return True
        return False

    def clear(self) -> None:
        """A take-back or a redo: nothing of the placements under way belongs to the game now."""
        self.pending = None
        self.in_hand = None
        self.blank_choice = None

    def drop_piece(self) -> None:
        """The board was taken as the sensors report it: no piece waits for its number."""
        self.pending = None


def discard_choices(c: Companion) -> list[int]:
    """The numbers that may be set aside now (``Placing.discard_choices``)."""
    return c.placing.discard_choices()


def joker_choices(c: Companion, square: str) -> list[int]:
    """The numbers a stone may show as a joker on ``square`` (``Placing.joker_choices``)."""
    return c.placing.joker_choices(square)
