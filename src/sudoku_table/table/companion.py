"""What a sensor event or a panel input means in the game now, and what the board should show.

The companion keeps three things side by side: the game (its states and actions, from the rules),
the physical board (which squares the sensors report occupied), and what is under way between
them (a new piece waiting for its number, a Halma piece in the air, Revers pieces still to turn
over, a take-back being made on the board). Everything it decides comes from the rules' generic
protocol and the kind of each action, never from the variant's name:

- a game whose actions are ``Move`` is played by lifting and setting down pieces;
- otherwise a new piece is a ``Place`` (the number comes from the panel), or a ``Blank`` when the
  rules accept a blank there; ``Discard``, ``Joker`` and ``EndTurn`` come from the panel;
- the pieces named in an action's ``flipped`` effects must be turned over on the board.

No threads, clocks or I/O here: the caller passes the time and gives a ``record`` callback that
writes each entry to the journal before anything becomes visible.

An entry the journal cannot take (``CannotSave`` from ``record``) does not count: the action or
take-back is **held** (``held``), as a new piece waits for its number. The board is then expected
to stand as after it (so the piece that was put down is no disagreement), its squares show the
``unsaved`` light, and nothing else is inferred or accepted until the table saves it
(``save_held``) or the players cancel it: Undo, or the board put back as it was before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sudoku_table.rules.actions import Action, EndTurn, Move
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import Game, Piece, State
from sudoku_table.rules.wording import N_

from . import computer, moving, placing
from .errors import CannotSave, ConfirmNeeded, InputError
from .history import History, Recorder
from .moving import Motion
from .placing import NewPiece
from .view import ANNOUNCEMENTS, Message, message


@dataclass(frozen=True)
class Held:
    """An entry made at the table that the journal could not take yet: an ``action`` (made) or
    an ``undo`` (``action`` is the one taken back; ``how`` the message code of the take-back),
    and the board as it stands once it counts."""

    kind: str
    action: Action
    board: frozenset[str]
    how: str = "taken_back"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "action": self.action.to_json()}


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
        self.setup = dict(setup)
        self.hints = hints
        self.settle = settle
        self.history = History(game, self.setup, record)
        self.cells = game.geometry.cell_set
        # The physical board: ``board`` is the caller's own set, shared so that one sensor
        # event updates it once; otherwise a set of its own, from ``occupied``.
        self.occupied: set[str] = board if board is not None else set(occupied)
        self.pending: NewPiece | None = None
        self.motion: Motion | None = None
        self.turning: set[str] = set()  # debt pieces lifted to be turned over
        self.in_hand: int | None = None  # a number chosen before its piece goes down
        self.blank_choice: tuple[str, list[int], int] | None = None
        """A blank whose colour the table assumed: its square, the colours it may show, and
        the player who set it (asked of them, never taking over the next player's turn)."""
        self.takeback_at: float | None = None
        self.takeback: str | None = None
        """``"undo"`` or ``"redo"`` while the board is being put as the game now stands after a
        take-back or a redo (the bar says what to take away, put back and turn)."""
        self.changes = 0
        self.changed: dict[str, int] = {}
        """When each square last changed (counting sensor events): a piece must leave one
        square before it can stand on another, so an extra piece that came before a square
        went empty is not that square's piece."""
        self.strays: set[str] = set()
        """Pieces the game does not have that already stood on the board when the table took
        the sensors' word for it (a restart): nobody can tell which pieces they are, so they
        are never sent to a square as if they were its piece, until they are lifted."""
        self.known_extra: dict[str, Piece] = {}
        """Pieces standing on the board that the game no longer has but the table knows: the
        piece of an action taken back, until it is lifted (never paired with another number)."""
        self.where_asked: State | None = None
        """The state in which the players asked where a piece may go (lit until it changes)."""
        self.message: Message | None = None
        self.message_for: tuple[State, int | None] | None = None
        self.move_game = game.moves_pieces
        # Computer seats (seat: level). What the computer holds and chose belongs to one state:
        # a take-back or a new action makes them stale, and the table thinks again.
        self.computers: dict[int, str] = {}
        self.hand: tuple[State, int] | None = None  # the computer's card or stone, as told
        # With the table drawing the computer's cards (own piles only): the game's seed, and
        # how many cards it drew so far (each journaled; the next draw's index).
        self.draw_seed: int | None = None
        self.draws = 0
        self.plan: tuple[State, Action] | None = None  # the computer's action, to carry out
        self.plan_failed: State | None = None  # the engine could not answer: people play it
        self.advice: tuple[State, int | None, Any] | None = None  # the last hint (an Advice)
        self.held: Held | None = None  # an entry the journal could not take yet
        self.setup_order = sorted(self.setup, key=lambda c: (self.setup[c].owner is None,
                                                             self.setup[c].owner or 0, c[1], c))
        self.setting_up = bool(self.setup) and guide_setup
        self.clearing = False  # pieces of an earlier game must leave the board first
        self._check_setup_done()

    def start_clean(self) -> None:
        """A new game begins with a board check: any piece the sensors feel (on or off this
        game's board) is left over from before and must be taken away before the start position
        is set up; until then no game action is inferred."""
        self.clearing = bool(self.occupied)
        if self.clearing:
            self.setting_up = bool(self.setup)

    # --- the game --------------------------------------------------------------------------

    def say(self, code: str, **params: Any) -> None:
        """Set the message line: a code of ``view.MESSAGES`` with its parameters."""
        self.message = message(code, **params)
        self.message_for = None

    def keep_message_for(self, actor: int | None, before: int | None) -> None:
        """A message belongs to the moment it was said for: the game's state, and (unless it
        announces what happened to the game, ``view.ANNOUNCEMENTS``) the player who was acting
        when it was said (``before``: an answer to their act). Called after every change with
        the player who acts now (None while anybody may put the board right, which keeps
        what was said: "take the cancelled piece away" is for whoever does it); a message of
        another moment is cleared."""
        if self.message is None:
            return
        if self.message_for is None:
            self.message_for = (self.state, before)
        state, said_to = self.message_for
        if state is not self.state or (said_to != actor and actor is not None
                                       and self.message["code"] not in ANNOUNCEMENTS):
            self.message = None
            self.message_for = None

    # The game's history, as the other parts read it.

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
    def debt(self) -> set[str]:
        return self.history.debt

    @property
    def mover(self) -> int | None:
        return self.history.mover

    def document(self) -> dict[str, Any]:
        return self.history.document()

    # The computer's turn.

    @property
    def computer_turn(self) -> bool:
        """The mover is a computer seat and the table is ready for its action."""
        return (self.mover in self.computers and not self.state.over and not self.clearing
                and not self.setting_up and self.plan_failed is not self.state
                and self.held is None)

    @property
    def known_hand(self) -> int | None:
        """The computer's card or stone in this state, once a person has told it."""
        return self.hand[1] if self.hand is not None and self.hand[0] is self.state else None

    @property
    def needs_hand(self) -> bool:
        """A person must first turn over the computer's card (or draw its stone)."""
        mover = self.mover
        return (self.computer_turn and self.game.hidden_hands and mover is not None
                and self.draw_seed is None
                and self.game.hand_supply(self.state, mover) is not None
                and self.known_hand is None)

    def draw_for_computer(self) -> int | None:
        """Where the table draws the computer's cards and it is to move without one: draw it
        at random from what is left to it, journal it, and hold it (its number), else None."""
        mover = self.mover
        if (self.draw_seed is None or not self.computer_turn or mover is None
                or self.known_hand is not None):
            return None
        supply = self.game.hand_supply(self.state, mover)
        if not supply:
            return None
        number = computer.draw_card(supply, self.draw_seed, self.draws)
        self.history.record_draw(mover, number)
        self.hand = (self.state, number)
        self.draws += 1
        return number

    def replay_draw(self, data: Any) -> None:
        """Rebuild a journaled draw: the computer to move holds that card again. A draw that
        cannot be one of this game's now (its seats or seed lost with damaged start data) is
        passed over, never a reason to set aside the actions after it: the card is then drawn
        again, or told by a person."""
        self.draws += 1
        mover = self.mover
        if self.draw_seed is None or mover is None or mover not in self.computers:
            return
        if not isinstance(data, dict) or data.get("seat") != mover:
            return
        number = data.get("number")
        supply = self.game.hand_supply(self.state, mover) or {}
        if isinstance(number, int) and not isinstance(number, bool) and supply.get(number, 0) > 0:
            self.hand = (self.state, number)

    @property
    def expect(self) -> Action | None:
        """The computer's chosen action in this state, while a person carries it out."""
        if not self.computer_turn or self.plan is None or self.plan[0] is not self.state:
            return None
        return self.plan[1]

    def computer_refusal(self, action: Action) -> Illegal | None:
        """Why ``action`` cannot count now (the computer is to move and it is not its
        action), or None."""
        if not self.computer_turn:
            return None
        expect = self.expect
        if expect is None:
            if self.needs_hand:
                return Illegal(N_("first tell the computer's {piece}: turn it over and tap its "
                                  "number"), piece=self.game.piece_word)
            return Illegal(N_("wait: the computer is still choosing its move"))
        if action != expect:
            squares = sorted(computer.plan_squares(self, expect))
            return Illegal(N_("that is not the computer's move: follow the lights ({squares})"),
                           squares=", ".join(squares) or "-")
        return None

    def hint_hand(self) -> int | None:
        """The card or stone a hint is for, where the game hides it: the number chosen on the
        pad (``InputError`` until one is chosen, or when it cannot be the mover's)."""
        mover = self.mover
        if not self.game.hidden_hands or mover is None:
            return None
        supply = self.game.hand_supply(self.state, mover)
        if supply is None:
            return None
        hand = self.in_hand
        if hand is None:
            raise InputError(N_("first tap the number of your {piece}, then ask for a hint"),
                             piece=self.game.piece_word)
        if supply.get(hand, 0) <= 0:
            raise InputError(N_("no {number} is left to you: tap the number of your {piece}"),
                             number=hand, piece=self.game.piece_word)
        return hand

    def advice_now(self) -> Any:
        """The hint asked for in this very state and hand (an ``Advice``), or None."""
        if self.advice is None or self.advice[0] is not self.state:
            return None
        hand = self.in_hand if self.game.hidden_hands else None
        if self.advice[1] is not None and self.advice[1] != hand:
            return None
        return self.advice[2]

    def dead(self) -> frozenset[str]:
        return self.history.dead()

    def moves_from(self, square: str) -> list[Move]:
        moves = self.history.moves_from(square)
        if self.computer_turn:  # only the computer's own move may be made for it
            return [m for m in moves if m == self.expect]
        return moves

    def check(self, action: Action) -> Illegal | None:
        return self.history.check(action)

    def take_events(self) -> list[str]:
        return self.history.take_events()

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
            self.setting_up = False
        elif self.draw_seed is not None:
            self.hand = self.plan = None  # a drawn card goes back, as in ``undo``

    def commit(self, action: Action) -> Illegal | None:
        """Apply a legal action: journal it first, then make it the game's. ``Illegal`` if not
        (or, on a computer's turn, if it is not the computer's action). When the journal
        cannot take it, it is held (``held``): not counted, and no reason to refuse it."""
        if self.held is not None:
            return Illegal(N_("wait: the table cannot save the last action yet"))
        illegal = self.computer_refusal(action)
        if illegal is not None:
            return illegal
        try:
            illegal = self.history.advance(action)
        except CannotSave:
            board = frozenset(self.game.apply(self.state, action).board)
            self.held = Held("action", action, board)
            self.blank_choice = None
            self.takeback_at = None
            self.say("held", action=action.to_json(), player=self.mover)
            return None
        if illegal is not None:
            return illegal
        self._counted(action, "action")
        return None

    def _counted(self, action: Action, how: str = "action") -> None:
        """What follows an action that counted (``how``: ``action``, or ``redone``)."""
        self.blank_choice = None
        self.takeback_at = None
        self.takeback = "redo" if how == "redone" else None
        self.known_extra = {}
        last = self.state.last
        self.say(how, action=action.to_json(), player=self.history.last_player(),
                 points=list(last.points), completed=list(last.completed),
                 claimed=list(last.claimed))
        self._board_put_right()

    def save_held(self) -> None:
        """Write the held entry again; it counts now (``CannotSave`` when it still cannot be
        written: it stays held)."""
        held = self.held
        if held is None:
            return
        if held.kind == "action":
            illegal = self.history.advance(held.action)
            self.held = None
            if illegal is not None:  # the game did not move meanwhile; never expected
                self.say("illegal", reason=illegal.reason, why=illegal.said())
                return
            self._counted(held.action)
        else:
            was = self.state
            self.history.take_back()
            self.held = None
            self._taken_back(held.action, held.how, was)

    def cancel_held(self, on_board: bool = False) -> bool:
        """Give up the held entry (it never counted): by Undo, or ``on_board`` by putting the
        board back as it was before it; True if there was one."""
        held = self.held
        if held is None:
            return False
        self.held = None
        codes = {("action", False): "held_cancelled", ("undo", False): "held_cancelled_undo",
                 ("action", True): "held_cancelled_on_board",
                 ("undo", True): "held_cancelled_on_board_undo"}
        self.say(codes[held.kind, on_board], action=held.action.to_json())
        return True

    def cancel_pending(self) -> bool:
        """Cancel what is under way on the panel's side (a new piece waiting for its number, a
        number chosen in advance); True if there was something to cancel."""
        if self.pending is not None:
            square, self.pending = self.pending.square, None
            self.say("cancelled_piece", square=square, piece=self.game.piece_word)
            return True
        if self.in_hand is not None:
            number, self.in_hand = self.in_hand, None
            self.say("cancelled_number", number=number)
            return True
        hand = self.known_hand
        if hand is not None and self.motion is None and self.draw_seed is None:
            self.hand = self.plan = None
            self.say("cancelled_hand", number=hand)
            return True
        return False

    def can_undo(self) -> bool:
        return (bool(self.actions) or self.pending is not None or self.in_hand is not None
                or self.held is not None
                or (self.known_hand is not None and self.draw_seed is None))

    def can_redo(self) -> bool:
        return bool(self.history.undone) and not self.state.over

    def actor(self) -> int | None:
        """Who acts now: the player who is to turn pieces over, else the mover."""
        return self.history.turner if self.debt else self.mover

    def undo_question(self) -> ConfirmNeeded | None:
        """Taking back more than one action, or another player's action, is asked first: the
        question to ask, or None when Undo takes back the actor's own last action."""
        if not self.actions:
            return None
        index = len(self.actions) - 1
        player = self.history.player_of(index)
        action = self.actions[-1].to_json()
        undone = len(self.history.undone)
        if undone:
            return ConfirmNeeded(N_("{count} taken back already: take back {player}'s "
                                    "{action} as well?"), "undo", count=undone,
                                 player=player, action=action)
        actor = self.actor()
        if actor is not None and player is not None and player != actor:
            return ConfirmNeeded(N_("It is {actor}'s turn: take back {player}'s {action}?"),
                                 "undo", actor=actor, player=player, action=action)
        return None

    def _refuse_undo_onto_a_stray(self) -> None:
        """A take-back still owed on the board leaves pieces where the game has none; taking
        back an action that had a piece on such a square would make the board look right with
        another piece there (in a game of moves, the one still to be carried away), so the
        board is put right first."""
        if self.takeback is None or not self.actions:
            return
        action = self.actions[-1]
        squares = set(action.path) if isinstance(action, Move) else {getattr(action, "cell", "")}
        stray = sorted(squares & self.differences()[1])
        if stray:
            raise InputError(N_("first put the board right as the bar says ({squares}); then "
                                "Undo takes back more"), squares=", ".join(stray))

    def undo(self, how: str = "taken_back") -> None:
        """Take back the last action; the signals then show what to put right on the board.
        When the journal cannot take the take-back, it is held (``held``)."""
        was = self.state
        try:
            action = self.history.take_back()
        except CannotSave:
            action = self.actions[-1]
            self.held = Held("undo", action, frozenset(self.states[-2].board), how)
            self._clear_under_way()
            self.say("held_undo", action=action.to_json())
            return
        self._taken_back(action, how, was)

    def _taken_back(self, action: Action, how: str, was: State) -> None:
        """What follows a take-back that counted: ``was`` the state before it."""
        cell = getattr(action, "cell", None)
        self.known_extra = ({cell: was.board[cell]} if isinstance(cell, str)
                            and cell in was.board else {})
        self._clear_under_way()
        self.takeback = "undo"
        self.say(how, action=action.to_json(), player=self.history.undone_player())
        self._board_put_right()

    def _clear_under_way(self) -> None:
        if self.draw_seed is not None:
            # The computer's drawn card goes back to its cards beside the board: the table
            # draws again (a new, journaled draw) when it is the computer's turn.
            self.hand = self.plan = None
        self.pending = None
        self.motion = None
        self.in_hand = None
        self.blank_choice = None
        self.takeback_at = None

    def redo(self) -> None:
        """Put back what Undo took last (the same action, journaled again); ``CannotSave``
        from the journal changes nothing, as for any other input."""
        if self.pending is not None:
            raise InputError(N_("first deal with the new piece on {square}"),
                             square=self.pending.square)
        if self.motion is not None:
            raise InputError(N_("first set the lifted piece down"))
        action = self.history.redo()
        self.hand = self.plan = None
        self.in_hand = None
        self._counted(action, "redone")

    def _board_put_right(self) -> None:
        """A take-back or redo is over once the board stands as the game does."""
        if self.takeback is not None and not self.debt and not self.turning:
            missing, extra = self.differences()
            if not missing and not extra:
                self.takeback = None

    def set_hints(self, on: bool) -> None:
        self.history.record_hints(bool(on))
        self.hints = bool(on)

    # --- the physical board ----------------------------------------------------------------

    def expected(self) -> set[str]:
        """The cells that should hold a piece now, counting what is under way (a held entry
        as if it counted)."""
        expected = set(self.held.board if self.held is not None else self.state.board)
        if self.motion is not None:
            expected.discard(self.motion.start)
            if self.motion.at is not None:
                expected.add(self.motion.at)
        if self.pending is not None:
            expected.add(self.pending.square)
        expected -= self.turning
        return expected

    def differences(self) -> tuple[set[str], set[str]]:
        """(missing, extra): cells that should hold a piece and do not, and the other way."""
        expected = self.expected()
        if self.clearing:
            return set(), set(self.occupied)
        on_board = self.occupied & self.cells
        missing = expected - on_board
        if self.setting_up:
            missing -= set(self.setup)
        return missing, on_board - expected

    def set_board(self, occupied: Iterable[str]) -> None:
        """Take the sensors' word for the whole board (start-up, recovery); infers no action."""
        squares = set(occupied)
        self.changed.clear()
        self.occupied.clear()
        self.occupied.update(squares)
        self.pending = None
        self.motion = None
        self.turning.clear()
        if self.clearing and not squares:
            self.clearing = False
        self.strays = set() if self.clearing else self.differences()[1]
        self._check_setup_done()

    def _check_setup_done(self) -> None:
        if self.clearing:
            return
        if self.setting_up and all(c in self.occupied for c in self.setup):
            self.setting_up = False
            self.say("board_set")

    def agrees_apart_from(self, square: str) -> bool:
        missing, extra = self.differences()
        return not (missing - {square}) and not (extra - {square})

    # --- sensor events ---------------------------------------------------------------------

    def sensor(self, square: str, occupied: bool, now: float) -> bool:
        """One debounced change; True when anything the players see changed."""
        if occupied == (square in self.occupied):
            return False  # a repeat (bounce that got through): nothing changed
        if occupied:
            self.occupied.add(square)
        else:
            self.occupied.discard(square)
            self.known_extra.pop(square, None)
            self.strays.discard(square)
        self.changes += 1
        self.changed[square] = self.changes
        if self.clearing:
            if not self.occupied:
                self.clearing = False
                self.say("board_clear")
                self._check_setup_done()
            return True
        if square not in self.cells:
            return True
        if self.held is not None:
            # Nothing is inferred while an entry waits to be saved; the board put back as it
            # stood before it gives it up.
            if self.held.board != frozenset(self.state.board) and \
                    self.occupied & self.cells == set(self.state.board):
                self.cancel_held(on_board=True)
            return True
        moving.before(self, square, occupied, now)
        if occupied:
            self._set_down(square, now)
        else:
            self._lift(square)
        self._check_setup_done()
        self._watch_takeback(now)
        self._board_put_right()
        return True

    def _set_down(self, square: str, now: float) -> None:
        if square in self.turning:
            self.turning.discard(square)
            self.history.turned(square)
            if not self.debt and not self.turning:
                self.say("all_turned")  # said to the turner: gone once the next player acts
            return
        motion = self.motion
        if motion is not None and motion.at is None and (
                square == motion.start or square not in self.state.board):
            moving.land(self, square, now)
            return
        if square in self.expected():
            return  # a missing piece is back
        if placing.may_start_piece(self, square):
            placing.new_piece(self, square)
            return
        if self.debt and not self.move_game:
            self.say("turn_first")
        elif self.pending is not None:
            self.say("one_at_a_time", square=self.pending.square, piece=self.game.piece_word)

    def _lift(self, square: str) -> None:
        if self.pending is not None and square == self.pending.square:
            self.pending = None
            self.message = None
            return
        if square in self.debt and square in self.state.board:
            self.turning.add(square)
            return
        motion = self.motion
        if motion is not None and motion.at == square:
            motion.at = None
            motion.ready = None
            motion.settle = None
            motion.illegal = False
            motion.conflict = ()
            self.message = None
            return
        piece = self.state.board.get(square)
        if (self.move_game and motion is None and piece is not None
                and piece.owner == self.mover and not self.state.over
                and not self.setting_up and self.agrees_apart_from(square)):
            self.motion = Motion(square)
            if not self.moves_from(square) and moving.bear_off_offer(self) is None:
                self.say("cannot_move", square=square)
            else:
                self.message = None

    # --- time ------------------------------------------------------------------------------

    def _takeback_position(self) -> bool:
        """True when the board stands exactly as before the last action that changed it."""
        if (len(self.states) < 2 or self.pending is not None or self.motion is not None
                or self.turning or self.setting_up):
            return False
        before, now = set(self.states[-2].board), set(self.state.board)
        return before != now and (self.occupied & self.cells) == before

    def _watch_takeback(self, now: float) -> None:
        if self._takeback_position():
            if self.takeback_at is None:
                self.takeback_at = now + self.settle
        else:
            self.takeback_at = None

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do, or None."""
        times = [t for t in (self.takeback_at,
                             self.motion.settle if self.motion else None) if t is not None]
        return min(times) if times else None

    def tick(self, now: float) -> bool:
        """Do what waited for the board to settle; True when anything changed."""
        if self.held is not None:
            return False
        changed = False
        motion = self.motion
        if motion and motion.ready and motion.settle is not None and now >= motion.settle:
            moving.commit_motion(self, motion.ready)
            changed = True
            self._watch_takeback(now)
        if self.takeback_at is not None and now >= self.takeback_at:
            self.takeback_at = None
            if self._takeback_position():
                self.undo("taken_back_on_board")
                changed = True
                self._watch_takeback(now)
        return changed

    # --- panel inputs ----------------------------------------------------------------------

    def input(self, data: Mapping[str, Any]) -> None:
        """One panel input of docs/api.md (already shaped by ``sudoku_table.table.inputs``)."""
        kind = data["type"]
        if self.held is not None:
            if kind == "undo":
                self.cancel_held()
                return
            if self.held.kind == "undo":
                raise CannotSave(N_("the table cannot save yet: the take-back waits to be "
                                    "saved; wait, or tap Undo to give it up"))
            raise CannotSave(N_("the table cannot save yet: the last action waits to be saved; "
                                "wait, or tap Undo to give it up"))
        if kind == "undo":
            if self.cancel_pending():
                return
            if self.state.over and not data.get("confirm"):
                raise ConfirmNeeded(N_("the game is over: taking back its last action reopens "
                                       "it (it stays in the finished games)"), "reopen")
            self._refuse_undo_onto_a_stray()
            question = self.undo_question()
            if question is not None and not data.get("confirm"):
                raise question
            self.undo()
            return
        if kind == "redo":
            self.redo()
            return
        if kind == "where":
            if self.state.over:
                raise InputError(N_("the game is over: take back the last action or start a "
                                    "new game"))
            if self.game.where_rule(self.state) is None:
                raise InputError(N_("here a piece may go on any free square its number fits"))
            self.where_asked = None if self.where_asked is self.state else self.state
            return
        if kind == "hints":
            self.set_hints(data["on"])
            return
        if kind == "hand":
            self.tell_hand(data["number"])
            return
        last_blank = (kind == "blank" and self.blank_choice is not None
                      and self.blank_choice[0] == data["square"])
        if self.state.over and not last_blank:  # the blank that ended it may still be told
            raise InputError(N_("the game is over: take back the last action or start a new game"))
        if self.clearing:
            raise InputError(N_("first take away the pieces left on the board (they blink)"))
        if kind == "number" and self.computer_turn:
            raise InputError(N_("it is the computer's turn: carry out its move as the bar and "
                                "the lights show"))
        if kind == "number":
            placing.input_number(self, data.get("square"), data["number"])
        elif kind == "blank":
            placing.input_blank(self, data["square"], data.get("owner"))
        elif kind == "discard":
            placing.input_discard(self, data["number"])
        elif kind == "joker":
            placing.input_joker(self, data["square"], data["number"])
        elif kind == "end_turn":
            self.panel_action(EndTurn())
        elif kind == "bear_off":
            offer = moving.bear_off_offer(self)
            if offer is None:
                raise InputError(N_("no piece is ready to be borne off: lift it from its exit "
                                    "corner"))
            moving.commit_motion(self, offer)
        else:  # inputs.py lets only known kinds through
            raise InputError(N_("unknown input {kind}"), kind=repr(kind))

    def tell_hand(self, number: int) -> None:
        """A person turned over the computer's card (or drew its stone): its number."""
        if self.draw_seed is not None:
            raise InputError(N_("the table draws the computer's cards in this game: take the "
                                "one the bar names from its cards beside the board"))
        if not self.needs_hand:
            if self.computer_turn and self.known_hand is not None:
                raise InputError(N_("the computer's {piece} is already told: take back to tell "
                                    "it again"), piece=self.game.piece_word)
            raise InputError(N_("no card or stone of the computer's is asked for now"))
        placing.check_number(self, number)
        computer.check_hand(self, number)
        self.hand = (self.state, number)
        self.say("hand_told", number=number)

    def panel_action(self, action: Action) -> None:
        illegal = self.commit(action)
        if illegal is not None:
            raise InputError(illegal.reason)

    def last_player(self) -> int | None:
        """Who made the last action (its ``last`` flash is their colour)."""
        return self.history.last_player()
