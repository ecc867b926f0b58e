"""The computer at the table: which seats it plays, and what a person is to do for it.

A computer seat cannot move pieces, so the table asks a person to carry out its action: the
squares light with the ``computer`` word, the what-now bar says the act in words, and the
action counts only once the sensors see it done (a placement's number is the computer's, so it
is not asked). In a game with hidden hands a person first turns over the computer's card (or
draws its stone) and tells its number; or, in a game where each player has an own pile
(``Game.own_piles``) and the players chose so, the computer's cards lie face up beside the board
and the table draws one at random (``draw_card``, journaled) and names it in the same step.
Anything else done on the board is a disagreement to put right, never the computer's move.
Searching happens outside the table's lock (``Table``); here are only the pure parts: checking
the seats, the hand, the draw, and the squares and words of a plan. ``ComputerTurn`` keeps
what belongs to the computer's seats in the running game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sudoku_table.ai import LEVELS
from sudoku_table.ai.engine import draw
from sudoku_table.rules.actions import OFF, Action, Blank, Discard, Joker, Move, Place
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import Game, State
from sudoku_table.rules.wording import N_

from .errors import InputError

ANOTHER_TABLE = "another table"
"""A remote seat's table before its name is known (it has not connected yet)."""

if TYPE_CHECKING:
    from .board import Board
    from .history import History
    from .line import Line
    from .moving import Motion

LEVEL_WORDS: Mapping[str, str] = {"easy": N_("easy"), "normal": N_("normal"),
                                  "strong": N_("strong")}
"""Each level as the players read it ("Computer (strong)")."""

COMPUTER_NAME = N_("Computer ({level})")
"""How a computer seat is named at the table and on the panel."""


def parse_computers(raw: object, players: int) -> dict[int, str]:
    """``{seat: level}`` from a request or the journal (seats as numbers or their strings);
    ``InputError`` names what is wrong and nothing is kept."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(N_("computers must be an object of seat and level, like {example}, "
                            "got {value}"), example='{"1": "normal"}', value=repr(raw)[:40])
    seats: dict[int, str] = {}
    for key, level in raw.items():
        text = str(key)
        if not text.isascii() or not text.isdigit() or len(text) > 1 or \
                not 0 <= int(text) < players:
            raise InputError(N_("computers: {seat} is not a seat of this game (seats 0 to "
                                "{last})"), seat=repr(key)[:12], last=players - 1)
        if level not in LEVELS:
            raise InputError(N_("computers: the level of seat {seat} must be one of {levels}, "
                                "got {level}"), seat=text, levels=", ".join(LEVELS),
                             level=repr(level)[:20])
        seats[int(text)] = str(level)
    return seats


def check_draws(game: Game, seats: Mapping[int, str]) -> None:
    """``InputError`` unless the table can draw the computer's cards in ``game``: each player
    has a pile of their own (a shared bag leaves stones unseen in the box), and a seat is the
    computer's."""
    if not game.own_piles:
        raise InputError(N_("the table can draw the computer's cards only in a game where each "
                            "player has a pile of their own (KOSMOS SUDOKU, Duell der Meister), "
                            "not in {game}"), game=game.name)
    if not seats:
        raise InputError(N_("the table draws cards only for the computer: make a seat the "
                            "computer's, or leave computer_draws off"))


def computers_json(seats: Mapping[int, str]) -> dict[str, str]:
    """The seats as the view and the journal keep them (JSON keys are strings)."""
    return {str(seat): level for seat, level in sorted(seats.items())}


def draw_card(supply: Mapping[int, int], seed: int, index: int) -> int:
    """The ``index``-th card the table draws for the computer from ``supply`` (number: how many
    are left): every card left is as likely as any other, and the same game seed and index
    always draw the same card (a restart draws what was drawn before it)."""
    if sum(supply.values()) <= 0:
        raise ValueError("the computer has no card left to draw")
    return draw({n: left for n, left in supply.items() if left > 0},
                random.Random(f"draw {seed} {index}"))


def plan_squares(action: Action, motion: Motion | None = None) -> set[str]:
    """Where the LEDs show the computer's action: the square of a placement, or the start and
    every landing of a move still to be made (``motion``: the piece in the air)."""
    if isinstance(action, Place | Blank | Joker):
        return {action.cell}
    if isinstance(action, Move):
        path = [s for s in action.path if s != OFF]
        if motion is None:
            return set(path)
        done = {motion.start, *motion.touched}
        return {s for s in path[1:] if s not in done}
    return set()


def check_number(game: Game, number: int) -> None:
    """``InputError`` unless ``number`` is one of the game's numbers."""
    low, high = game.geometry.numbers
    if not low <= number <= high:
        raise InputError(N_("this game's numbers are {low} to {high}, not {number}"),
                         low=low, high=high, number=number)


class ComputerTurn:
    """The computer's seats (seat: level) and what it holds and chose. What the computer holds
    and chose belongs to one state: a take-back or a new action makes them stale, and the table
    thinks again."""

    def __init__(self, game: Game, history: History, board: Board, line: Line) -> None:
        self._game = game
        self._history = history
        self._board = board
        self._line = line
        self.computers: dict[int, str] = {}
        self.remote: dict[int, str] = {}
        """Seats played at another table (seat: that table's name): their actions arrive over
        the network and a person here carries them out, as the computer's."""
        self.hand: tuple[State, int] | None = None  # the computer's card or stone, as told
        # With the table drawing the computer's cards (own piles only): the game's seed, and
        # how many cards it drew so far (each journaled; the next draw's index).
        self.draw_seed: int | None = None
        self.draws = 0
        self.plan: tuple[State, Action] | None = None  # the computer's action, to carry out
        self.plan_failed: State | None = None  # the engine could not answer: people play it
        self.advice: tuple[State, int | None, Any] | None = None  # the last hint (an Advice)

    # --- what the table tells it -----------------------------------------------------------

    def seat(self, computers: Mapping[int, str], draw_seed: int | None = None) -> None:
        """The seats the computer plays (seat: level), and the seed of its drawn cards (None:
        people tell its cards, or it has none)."""
        self.computers = dict(computers)
        self.draw_seed = draw_seed

    def seat_remote(self, remote: Mapping[int, str]) -> None:
        """The seats played at another table (seat: that table's name)."""
        self.remote = dict(remote)

    def busy(self) -> InputError:
        """Why nobody tells a number while the computer's move, or another table's, waits to
        be carried out (its table named, once known)."""
        seat = self._history.state.to_move
        table = self._table_of(seat)
        if table:
            return InputError(N_("the move comes from {table}: carry it out as the bar and the "
                                 "lights show"), table=table)
        if seat in self.remote:
            return InputError(N_("the move comes from the other table: carry it out as the bar "
                                 "and the lights show"))
        return InputError(N_("it is the computer's turn: carry out its move as the bar and the "
                             "lights show"))

    def _table_of(self, seat: int | None) -> str | None:
        """The name of the table a remote ``seat`` is played at, once it is known."""
        name = self.remote.get(seat) if seat is not None else None
        return name if name and name != ANOTHER_TABLE else None

    def chose(self, state: State, action: Action | None) -> None:
        """The engine's answer in ``state``: the action to carry out, or None (it could not
        answer: people play that turn)."""
        if action is None:
            self.plan_failed = state
        else:
            self.plan = (state, action)

    def advised(self, state: State, hand: int | None, advice: Any) -> None:
        """The hint found for ``state`` (and the hand it was asked for)."""
        self.advice = (state, hand, advice)

    def forget(self, drawn_only: bool = False) -> None:
        """The computer's card and action are stale (``drawn_only``: only where the table
        draws its cards, which go back beside the board and are drawn again)."""
        if not drawn_only or self.draw_seed is not None:
            self.hand = self.plan = None

    # --- its turn --------------------------------------------------------------------------

    @property
    def turn(self) -> bool:
        """The mover is a computer seat (or a seat at another table) and the table is ready
        for its action."""
        state = self._history.state
        return ((state.to_move in self.computers or state.to_move in self.remote)
                and not state.over
                and not self._board.clearing and not self._board.setting_up
                and self.plan_failed is not state and self._history.held is None)

    @property
    def known_hand(self) -> int | None:
        """The computer's card or stone in this state, once a person has told it."""
        hand = self.hand
        return hand[1] if hand is not None and hand[0] is self._history.state else None

    @property
    def needs_hand(self) -> bool:
        """A person must first turn over the computer's card (or draw its stone)."""
        state = self._history.state
        mover = state.to_move
        return (self.turn and self._game.hidden_hands and mover is not None
                and mover not in self.remote and self.draw_seed is None
                and self._game.hand_supply(state, mover) is not None
                and self.known_hand is None)

    @property
    def expect(self) -> Action | None:
        """The computer's chosen action in this state, while a person carries it out."""
        if not self.turn or self.plan is None or self.plan[0] is not self._history.state:
            return None
        return self.plan[1]

    def refusal(self, action: Action) -> Illegal | None:
        """Why ``action`` cannot count now (the computer is to move and it is not its
        action; or it is the action of a seat at another table, made here), or None."""
        if not self.turn:
            state = self._history.state
            if self.remote and self._game.actor(state, action) in self.remote:
                return Illegal(N_("that would be the next player's move, and they play at "
                                  "another table: take the piece away"))
            return None
        expect = self.expect
        if expect is None:
            if self.needs_hand:
                return Illegal(N_("first tell the computer's {piece}: turn it over and tap its "
                                  "number"), piece=self._game.piece_word)
            table = self._table_of(self._history.state.to_move)
            if table:
                return Illegal(N_("wait: the move comes from {table}"), table=table)
            if self._history.state.to_move in self.remote:
                return Illegal(N_("wait: the move comes from the other table"))
            return Illegal(N_("wait: the computer is still choosing its move"))
        if action != expect:
            squares = sorted(plan_squares(expect))
            table = self._table_of(self._history.state.to_move)
            if table:
                return Illegal(N_("that is not the move from {table}: follow the lights "
                                  "({squares})"), table=table, squares=", ".join(squares) or "-")
            if self._history.state.to_move in self.remote:
                return Illegal(N_("that is not the move from the other table: follow the "
                                  "lights ({squares})"), squares=", ".join(squares) or "-")
            return Illegal(N_("that is not the computer's move: follow the lights ({squares})"),
                           squares=", ".join(squares) or "-")
        return None

    def hand_choices(self) -> list[int]:
        """The numbers the computer's card or stone may show now (its own pile, or the bag)."""
        state = self._history.state
        mover = state.to_move
        if mover is None:
            return []
        supply = self._game.hand_supply(state, mover) or {}
        return sorted(n for n, left in supply.items() if left > 0)

    # --- its cards -------------------------------------------------------------------------

    def draw(self) -> int | None:
        """Where the table draws the computer's cards and it is to move without one: draw it
        at random from what is left to it, journal it, and hold it (its number), else None."""
        state = self._history.state
        mover = state.to_move
        if (self.draw_seed is None or not self.turn or mover not in self.computers
                or self.known_hand is not None):
            return None
        supply = self._game.hand_supply(state, mover)
        if not supply:
            return None
        number = draw_card(supply, self.draw_seed, self.draws)
        self._history.record_draw(mover, number)
        self.hand = (state, number)
        self.draws += 1
        return number

    def replay_draw(self, data: Any) -> None:
        """Rebuild a journaled draw: the computer to move holds that card again. A draw that
        cannot be one of this game's now (its seats or seed lost with damaged start data) is
        passed over, never a reason to set aside the actions after it: the card is then drawn
        again, or told by a person."""
        self.draws += 1
        state = self._history.state
        mover = state.to_move
        if self.draw_seed is None or mover is None or mover not in self.computers:
            return
        if not isinstance(data, dict) or data.get("seat") != mover:
            return
        number = data.get("number")
        supply = self._game.hand_supply(state, mover) or {}
        if isinstance(number, int) and not isinstance(number, bool) and supply.get(number, 0) > 0:
            self.hand = (state, number)

    def tell_hand(self, number: int) -> None:
        """A person turned over the computer's card (or drew its stone): its number."""
        if self.draw_seed is not None:
            raise InputError(N_("the table draws the computer's cards in this game: take the "
                                "one the bar names from its cards beside the board"))
        if not self.needs_hand:
            if self.turn and self.known_hand is not None:
                raise InputError(N_("the computer's {piece} is already told: take back to tell "
                                    "it again"), piece=self._game.piece_word)
            raise InputError(N_("no card or stone of the computer's is asked for now"))
        check_number(self._game, number)
        choices = self.hand_choices()
        if number not in choices:
            raise InputError(N_("the computer cannot hold a {number} now: the numbers left to "
                                "it are {held}"), number=number,
                             held=", ".join(str(n) for n in choices) or "-")
        self.hand = (self._history.state, number)
        self._line.say("hand_told", number=number)

    def cancel_hand(self) -> bool:
        """Undo before anything else was done: forget the card a person told (never one the
        table drew); True if there was one."""
        hand = self.known_hand
        if hand is None or self.draw_seed is not None:
            return False
        self.hand = self.plan = None
        self._line.say("cancelled_hand", number=hand)
        return True

    # --- hints -----------------------------------------------------------------------------

    def hint_hand(self, in_hand: int | None) -> int | None:
        """The card or stone a hint is for, where the game hides it: the number chosen on the
        pad (``InputError`` until one is chosen, or when it cannot be the mover's)."""
        state = self._history.state
        mover = state.to_move
        if not self._game.hidden_hands or mover is None:
            return None
        supply = self._game.hand_supply(state, mover)
        if supply is None:
            return None
        if in_hand is None:
            raise InputError(N_("first tap the number of your {piece}, then ask for a hint"),
                             piece=self._game.piece_word)
        if supply.get(in_hand, 0) <= 0:
            raise InputError(N_("no {number} is left to you: tap the number of your {piece}"),
                             number=in_hand, piece=self._game.piece_word)
        return in_hand

    def advice_now(self, in_hand: int | None) -> Any:
        """The hint asked for in this very state and hand (an ``Advice``), or None."""
        advice = self.advice
        if advice is None or advice[0] is not self._history.state:
            return None
        hand = in_hand if self._game.hidden_hands else None
        if advice[1] is not None and advice[1] != hand:
            return None
        return advice[2]


PLAN_STEPS = ("computer_place", "computer_draw_place", "computer_draw_set_aside",
              "computer_blank", "computer_blank_of", "computer_joker", "computer_set_aside",
              "computer_bear_off", "computer_jump", "computer_move",
              "computer_end_turn")
"""The next steps ``plan_step`` says (``view.NEXT_STEPS`` words them)."""


def plan_step(action: Action, drawn: bool = False) -> tuple[str, dict[str, Any]]:
    """The next-step code and parameters that say the computer's action in words; ``drawn``:
    the table drew its card, so the step also says which card to take."""
    if isinstance(action, Place):
        if drawn:
            return "computer_draw_place", {"number": action.number, "square": action.cell}
        return "computer_place", {"number": action.number, "square": action.cell}
    if isinstance(action, Blank):
        if action.owner is None:
            return "computer_blank", {"square": action.cell}
        return "computer_blank_of", {"square": action.cell, "player": action.owner}
    if isinstance(action, Joker):
        return "computer_joker", {"number": action.number, "square": action.cell}
    if isinstance(action, Discard):
        if drawn:
            return "computer_draw_set_aside", {"number": action.number}
        return "computer_set_aside", {"number": action.number}
    if isinstance(action, Move):
        path = list(action.path)
        if action.bears_off:
            return "computer_bear_off", {"start": path[0], "via": path[1:-1]}
        if len(path) > 2:
            return "computer_jump", {"start": path[0], "square": path[-1], "via": path[1:-1]}
        return "computer_move", {"start": path[0], "square": path[-1]}
    return "computer_end_turn", {}
