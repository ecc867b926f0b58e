"""What a sensor event or a panel input means in the game now, and what the board should show.

A game at the table is three things side by side: the game (its states and actions, from the rules),
the physical board (which squares the sensors report occupied), and what is under way between
them (a new piece waiting for its number, a Halma piece in the air, Revers pieces still to turn
over, a take-back being made on the board). Everything it decides comes from the rules' generic
protocol and the kind of each action, never from the variant's name:

- a game whose actions are ``Move`` is played by lifting and setting down pieces;
- otherwise a new piece is a ``Place`` (the number comes from the panel), or a ``Blank`` when the
  rules accept a blank there; ``Discard``, ``Joker`` and ``EndTurn`` come from the panel;
- the pieces named in an action's ``flipped`` effects must be turned over on the board.

The companion is the door of one game: it hands each sensor event and panel input to its parts
once, in one direction, and owns none of their state. The parts are ``Board`` (what the sensors
feel), ``History`` (the states and actions), ``ComputerTurn``, ``Placing`` and ``Moving`` (the
flows under way), the ``Referee`` (through which every action and take-back counts) and
``Takeback`` (Undo, Redo and the take-back made on the board); they all say what they have to
say on one message ``Line``.

No threads, clocks or I/O here: the caller passes the time and gives a ``record`` callback that
writes each entry to the journal before anything becomes visible.

An entry the journal cannot take (``CannotSave`` from ``record``) does not count: the action or
take-back is **held** (``History.held``), as a new piece waits for its number. The board is then
expected to stand as after it (so the piece that was put down is no disagreement), its squares
show the ``unsaved`` light, and nothing else is inferred or accepted until the table saves it
(``save_held``) or the players cancel it: Undo, or the board put back as it was before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sudoku_table.rules.actions import Action
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import Game, Piece, State
from sudoku_table.rules.wording import N_

from .board import Board, expected
from .computer import ComputerTurn
from .dealing import Dealer
from .errors import CannotSave, InputError, NotYourSeat
from .history import Held, History, Recorder
from .line import Line
from .moving import Motion, Moving
from .placing import NewPiece, Placing
from .referee import Referee
from .takeback import Takeback
from .view import Message

__all__ = ["Companion", "Held"]

SEAT_INPUTS = frozenset({"number", "blank", "discard", "joker", "end_turn", "where", "bear_off",
                         "not_my_card"})
"""The inputs a player's own phone may send: what the player does in their own turn (Undo,
Redo, the hints switch and the computer's card belong to the shared panel)."""


class Companion:
    """One game on the physical board. Not thread-safe: the table calls it under its lock."""

    def __init__(
        self,
        game: Game,
        setup: Mapping[str, Piece],
        *,
        occupied: Iterable[str] = (),
        board: set[str] | None = None,
        hints: bool = False,
        record: Recorder | None = None,
        settle: float = 1.0,
        guide_setup: bool = True,
    ) -> None:
        self.game = game
        self.hints = hints
        self.where_asked: State | None = None
        """The state in which the players asked where a piece may go (lit until it changes)."""
        self.line = Line()
        self.history = History(game, setup, record)
        # The physical board: ``board`` is the caller's own set, shared so that one sensor
        # event updates it once; otherwise a set of its own, from ``occupied``.
        self.board = Board(game.geometry.cell_set, setup,
                           board if board is not None else set(occupied), self.line,
                           guide_setup=guide_setup, by_number=game.setup_by_number)
        self.computer = ComputerTurn(game, self.history, self.board, self.line)
        self.dealer = Dealer(game, self.history)
        self.referee = Referee(game, self.history, self.computer, self.line)
        self.placing = Placing(game, self.history, self.referee, self.computer, self.dealer,
                               self.board, self.line)
        self.moving = Moving(self.history, self.referee, self.computer, self.board, self.line,
                             settle)
        self.takeback = Takeback(self.history, self.board, self.referee, self.placing,
                                 self.moving, self.computer, settle)

    def start_clean(self) -> None:
        """A new game begins with a board check (``Board.start_clean``)."""
        self.board.start_clean()

    # --- what the table and the panel read -------------------------------------------------

    @property
    def state(self) -> State:
        return self.history.state

    @property
    def states(self) -> list[State]:
        return self.history.states

    @property
    def actions(self) -> list[Action]:
        return self.history.actions

    @property
    def mover(self) -> int | None:
        return self.history.mover

    @property
    def setup(self) -> dict[str, Piece]:
        return self.board.setup

    @property
    def setting_up(self) -> bool:
        return self.board.setting_up

    @property
    def clearing(self) -> bool:
        return self.board.clearing

    @property
    def held(self) -> Held | None:
        return self.history.held

    @property
    def pending(self) -> NewPiece | None:
        return self.placing.pending

    @property
    def in_hand(self) -> int | None:
        return self.placing.in_hand

    @property
    def motion(self) -> Motion | None:
        return self.moving.motion

    @property
    def message(self) -> Message | None:
        return self.line.message

    @property
    def computer_turn(self) -> bool:
        return self.computer.turn

    @property
    def needs_hand(self) -> bool:
        return self.computer.needs_hand

    @property
    def known_hand(self) -> int | None:
        return self.computer.known_hand

    @property
    def expect(self) -> Action | None:
        return self.computer.expect

    @property
    def computers(self) -> dict[int, str]:
        return self.computer.computers

    @property
    def draw_seed(self) -> int | None:
        return self.computer.draw_seed

    @property
    def plan(self) -> tuple[State, Action] | None:
        return self.computer.plan

    @property
    def plan_failed(self) -> State | None:
        return self.computer.plan_failed

    @property
    def advice(self) -> tuple[State, int | None, Any] | None:
        return self.computer.advice

    def say(self, code: str, **params: Any) -> None:
        """Set the message line: a code of ``view.MESSAGES`` with its parameters."""
        self.line.say(code, **params)

    def keep_message_for(self, actor: int | None, before: int | None) -> None:
        """Clear a message of another moment (``Line.keep_for``)."""
        self.line.keep_for(self.state, actor, before)

    def document(self) -> dict[str, Any]:
        return self.history.document()

    def take_events(self) -> list[str]:
        return self.history.take_events()

    def last_player(self) -> int | None:
        """Who made the last action (its ``last`` flash is their colour)."""
        return self.history.last_player()

    def can_undo(self) -> bool:
        return (bool(self.actions) or self.pending is not None or self.in_hand is not None
                or self.held is not None
                or (self.known_hand is not None and self.draw_seed is None))

    def can_redo(self) -> bool:
        return bool(self.history.undone) and not self.state.over

    # --- the computer's turn and hints -----------------------------------------------------

    def draw_for_computer(self) -> int | None:
        """Draw the computer's card where the table draws them (``ComputerTurn.draw``)."""
        return self.computer.draw()

    def replay_draw(self, data: Any) -> None:
        """Rebuild a journaled draw (``ComputerTurn.replay_draw``)."""
        self.computer.replay_draw(data)

    @property
    def hand(self) -> int | None:
        """The mover's card or stone as the table knows it before it is played: dealt by the
        table, or chosen first on the panel."""
        dealt = self.dealer.card()
        return dealt if dealt is not None else self.in_hand

    def hint_hand(self) -> int | None:
        """The card or stone a hint is for (``ComputerTurn.hint_hand``)."""
        return self.computer.hint_hand(self.hand)

    def advice_now(self) -> Any:
        """The hint asked for in this very state and hand (an ``Advice``), or None."""
        return self.computer.advice_now(self.hand)

    # --- the physical board ----------------------------------------------------------------

    def expected(self) -> set[str]:
        """The cells that should hold a piece now, counting what is under way (a held entry
        as if it counted)."""
        return expected(self.history, self.placing.pending, self.moving.motion)

    def differences(self) -> tuple[set[str], set[str]]:
        """(missing, extra): cells that should hold a piece and do not, and the other way."""
        return self.board.differences(self.expected())

    def agrees_apart_from(self, square: str) -> bool:
        missing, extra = self.differences()
        return not (missing - {square}) and not (extra - {square})

    def set_board(self, occupied: Iterable[str]) -> None:
        """Take the sensors' word for the whole board (start-up, recovery); infers no action."""
        self.placing.drop_piece()
        self.moving.clear()
        self.history.drop_turning()
        held = self.history.held
        self.board.take_word(occupied, held.board if held is not None else self.state.board)

    # --- sensor events ---------------------------------------------------------------------

    def sensor(self, square: str, occupied: bool, now: float) -> bool:
        """One debounced change; True when anything the players see changed. The event passes
        the board, then the one flow it belongs to (a piece turned over, a move, a placement),
        then the take-back watch."""
        held = self.history.held
        felt = self.board.feel(square, occupied, counting=held is None)
        if felt is None:
            return False  # a repeat (bounce that got through): nothing changed
        if felt and held is not None:
            # Nothing is inferred while an entry waits to be saved; the board put back as it
            # stood before it gives it up.
            board = set(self.state.board)
            if held.board != frozenset(board) and self.board.occupied & self.board.cells == board:
                self.referee.cancel_held(on_board=True)
        elif felt and self.history.turn_over(square, occupied):
            if occupied and self.history.all_turned:
                self.line.say("all_turned")  # said to the turner: gone once the next player acts
        elif felt and self.game.moves_pieces:
            self.moving.on_square(square, occupied, now, agrees=self.agrees_apart_from(square))
        elif felt:
            self.placing.on_square(square, occupied, in_place=square in self.expected(),
                                   agrees=self.agrees_apart_from(square))
        looked = felt and held is None
        self.takeback.after(lifted=None if occupied else square, looked=looked, watch=looked,
                            now=now)
        return True

    # --- time ------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do, or None."""
        times = [t for t in (self.takeback.at, self.moving.deadline()) if t is not None]
        return min(times) if times else None

    def tick(self, now: float) -> bool:
        """Do what waited for the board to settle; True when anything changed."""
        if self.history.held is not None:
            return False
        moved = self.moving.tick(now)
        return self.takeback.tick(now, moved) or moved

    # --- the journal -----------------------------------------------------------------------

    def replay(self, kind: str, action: Action | None, hints: bool | None = None) -> None:
        """Rebuild from the journal: apply (or take back, or switch hints) without writing it
        again."""
        if kind == "hints":
            if not isinstance(hints, bool):
                raise ValueError("a hints entry must be true or false")
            self.hints = hints
            return
        self.history.replay(kind, action)
        if action is not None:
            self.board.set_up()
        else:
            self.computer.forget(drawn_only=True)  # a drawn card goes back, as in ``undo``

    def commit(self, action: Action) -> Illegal | None:
        """Apply a legal action (the computer's end of turn, carried out by the table):
        ``Illegal`` if it cannot count now (``Referee.commit``)."""
        illegal = self.placing.count(action)
        self.takeback.after()
        return illegal

    def save_held(self) -> None:
        """Write the held entry again (``Referee.save_held``)."""
        self.referee.save_held()
        self.takeback.after()

    # --- panel inputs ----------------------------------------------------------------------

    def input(self, data: Mapping[str, Any], seat: int | None = None) -> None:
        """One panel input of docs/api.md (already shaped by ``sudoku_table.table.inputs``);
        ``seat``: sent by that seat's own phone, which may act for its own seat only."""
        if seat is not None:
            self._check_seat(data["type"], seat)
        try:
            self._input(data)
        finally:
            self.takeback.after()

    def _input(self, data: Mapping[str, Any]) -> None:
        kind = data["type"]
        if self.history.held is not None:
            self._while_held(kind)
        elif kind == "undo":
            self.takeback.undo_input(bool(data.get("confirm")))
        elif kind == "redo":
            self.takeback.redo()
        elif kind == "where":
            self._where()
        elif kind == "hints":
            self.history.record_hints(bool(data["on"]))
            self.hints = bool(data["on"])
        elif kind == "hand":
            self.computer.tell_hand(data["number"])
        elif kind == "not_my_card":
            self.dealer.not_my_card(self.line)
        else:
            self._play(kind, data)

    def _check_seat(self, kind: str, seat: int) -> None:
        """``InputError`` unless a seat's phone may send ``kind`` now: what its player does
        in their own turn, or telling that the card just dealt and played was another."""
        if kind not in SEAT_INPUTS:
            raise NotYourSeat(N_("a player's phone plays its own seat only: do this on the "
                                 "shared panel"))
        if kind == "not_my_card":
            if self.history.last_player() != seat:
                raise NotYourSeat(N_("only the player who put the last piece down can say it "
                                     "was not their card"))
        elif self.state.to_move != seat or seat in self.computers:
            raise NotYourSeat(N_("it is not your turn yet: wait until the table names your "
                                 "player"))

    def _while_held(self, kind: str) -> None:
        """Only Undo is heard while an entry waits to be saved: it gives the entry up."""
        held = self.history.held
        assert held is not None
        if kind == "undo":
            self.referee.cancel_held()
        elif held.kind == "undo":
            raise CannotSave(N_("the table cannot save yet: the take-back waits to be "
                                "saved; wait, or tap Undo to give it up"))
        else:
            raise CannotSave(N_("the table cannot save yet: the last action waits to be "
                                "saved; wait, or tap Undo to give it up"))

    def _where(self) -> None:
        if self.state.over:
            raise InputError(N_("the game is over: take back the last action or start a "
                                "new game"))
        if self.game.where_rule(self.state) is None:
            raise InputError(N_("here a piece may go on any free square its number fits"))
        self.where_asked = None if self.where_asked is self.state else self.state

    def _play(self, kind: str, data: Mapping[str, Any]) -> None:
        """An act of the game made on the panel: a number, a blank, a set-aside, a joker, the
        end of a turn, a piece borne off."""
        choice = self.placing.blank_choice
        last_blank = kind == "blank" and choice is not None and choice[0] == data["square"]
        if self.state.over and not last_blank:  # the blank that ended it may still be told
            raise InputError(N_("the game is over: take back the last action or start a new game"))
        if self.clearing:
            raise InputError(N_("first take away the pieces left on the board (they blink)"))
        if kind == "bear_off":
            self.moving.bear_off()
        else:
            square = data.get("square")
            agrees = square is not None and self.agrees_apart_from(square)
            self.placing.input(kind, data, agrees)
