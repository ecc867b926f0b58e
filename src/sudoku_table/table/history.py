"""The game as the companion keeps it: its states and actions, forward and back.

A legal action goes forward (``advance``) and a take-back goes back (``take_back``); each is
handed to the journal's recorder before it counts. What was taken back can be put back
(``redo``: the same action once more, journaled as an action) until a new action is made. The
history also keeps the pieces whose face up is wrong on the board after flips (``faces``: the
face each still shows, so it must be turned over) and who is to turn them (``turner``), because
that follows the actions forward and back, and caches what the rules answer about the current
state until the state changes.

An entry the journal cannot take yet is **held** (``Held``): made at the table, not counted,
until it is written (``release_held``) or given up. The pieces lifted to be turned over
(``turning``) are kept here too, with the faces they pay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from sudoku_table.rules.actions import Action, Move
from sudoku_table.rules.errors import Illegal, IllegalActionError
from sudoku_table.rules.game import Game, Piece, State
from sudoku_table.rules.wording import N_

from .errors import InputError

T = TypeVar("T")

Recorder = Callable[[str, Any], None]
"""Writes one journal entry (``"action"`` with its JSON, ``"undo"``, ``"hints"``, ``"draw"``)."""

GAME_FINISHED, GAME_REOPENED = "finished", "reopened"
"""What ``History.take_events`` reports: the game ended, or a finished game runs again."""


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


class History:
    """The states and actions of one game, each entry recorded before it counts."""

    def __init__(self, game: Game, setup: Mapping[str, Piece], record: Recorder | None = None):
        self.game = game
        self.states: list[State] = [game.initial_state(dict(setup) or None)]
        self.actions: list[Action] = []
        self.faces: dict[str, int | None] = {}
        """The pieces whose face up is wrong, with the owner whose face they still show: they
        must be turned over (the panel draws them as they stand until then)."""
        self.turner: int | None = None
        """Who is to turn them: the player who made the action that flipped them, or whose
        action was taken back."""
        self.undone: list[Action] = []
        """What was taken back since the last new action, the last taken back last (redo)."""
        self.turning: set[str] = set()
        """The pieces owed a turn that are lifted now (to be set down the other way up)."""
        self.held: Held | None = None
        """An entry the journal could not take yet (it does not count until written)."""
        self._record: Recorder = record or (lambda kind, data: None)
        self._events: list[str] = []
        self._cache: dict[str, Any] = {}

    # --- the current state -----------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def mover(self) -> int | None:
        return self.state.to_move

    @property
    def debt(self) -> set[str]:
        """The squares of the pieces to turn over."""
        return set(self.faces)

    def turn_over(self, square: str, occupied: bool) -> bool:
        """A piece owed a turn is lifted, or set down again (turned over: it shows the game's
        face now); False when the event is no part of turning pieces over."""
        if occupied:
            if square not in self.turning:
                return False
            self.turning.discard(square)
            self.faces.pop(square, None)
            return True
        if square in self.faces and square in self.state.board:
            self.turning.add(square)
            return True
        return False

    @property
    def all_turned(self) -> bool:
        return not self.faces and not self.turning

    def drop_turning(self) -> None:
        """The board was taken as the sensors report it: nothing is in the air."""
        self.turning.clear()

    def hold(self, held: Held) -> None:
        """Keep an entry the journal could not take (nothing counts until it is written)."""
        self.held = held

    def release_held(self) -> Held | None:
        """Give the held entry back (to write it again, or to give it up)."""
        held, self.held = self.held, None
        return held

    def player_of(self, index: int) -> int | None:
        """Who made the action ``index`` (counted from 0)."""
        return self.game.actor(self.states[index], self.actions[index])

    def last_player(self) -> int | None:
        """Who made the last action."""
        return self.player_of(len(self.actions) - 1) if self.actions else None

    def undone_player(self) -> int | None:
        """Who made the action taken back last, while the game stands where it was made (until
        a redo or a new action)."""
        return self.game.actor(self.state, self.undone[-1]) if self.undone else None

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per state (for the history's own answers; another part recalls
        and remembers its own, so that the history never calls back into it)."""
        known, value = self.recall(key)
        return value if known else self.remember(key, compute())

    def recall(self, key: str) -> tuple[bool, Any]:
        """Whether an answer for ``key`` is kept for the current state, and that answer."""
        return (True, self._cache[key]) if key in self._cache else (False, None)

    def remember(self, key: str, value: T) -> T:
        """Keep ``value`` as the answer for ``key`` until the state changes; ``value``."""
        self._cache[key] = value
        return value

    def document(self) -> dict[str, Any]:
        return self.cached("doc", lambda: self.game.document(self.state))

    def dead(self) -> frozenset[str]:
        return self.cached("dead", lambda: frozenset(self.game.dead_fields(self.state)))

    def moves_from(self, square: str) -> list[Move]:
        moves = self.cached("moves", lambda: [
            a for a in self.game.legal_actions(self.state) if isinstance(a, Move)])
        return [m for m in moves if m.path[0] == square]

    def check(self, action: Action) -> Illegal | None:
        if self.state.over:
            return Illegal(N_("the game is over"))
        return self.game.check(self.state, action)

    # --- forward and back ------------------------------------------------------------------

    def advance(self, action: Action) -> Illegal | None:
        """Apply a legal action: record it first, then make it the game's. ``Illegal`` if not."""
        illegal = self.check(action)
        if illegal is not None:
            return illegal
        try:
            new_state = self.game.apply(self.state, action)
        except IllegalActionError as e:
            return e.illegal
        self._record("action", action.to_json())
        self._push(new_state, action)
        self._forward(action)
        if new_state.over:
            self._events.append(GAME_FINISHED)
        return None

    def take_back(self) -> Action:
        """Take back the last action (recorded first); ``InputError`` when there is none."""
        if not self.actions:
            raise InputError(N_("there is nothing to take back"))
        was_over = self.state.over
        self._record("undo", None)
        action = self._pop()
        self.undone.append(action)
        if was_over:
            self._events.append(GAME_REOPENED)
        return action

    def redo(self) -> Action:
        """Put back the action taken back last (journaled as that action once more);
        ``InputError`` when nothing was taken back since the last new action."""
        if not self.undone:
            raise InputError(N_("there is nothing to put back: redo follows an undo"))
        action = self.undone[-1]
        illegal = self.advance(action)
        if illegal is not None:  # cannot happen: it was legal in this very state
            raise InputError(N_("{reason}"), reason=illegal.reason)
        return action

    def record_hints(self, on: bool) -> None:
        self._record("hints", on)

    def record_draw(self, seat: int, number: int) -> None:
        """The card the table drew for a computer seat in this state (before anyone sees it)."""
        self._record("draw", {"seat": seat, "number": number})

    def replay(self, kind: str, action: Action | None) -> None:
        """Rebuild from the journal: apply or take back without recording it again."""
        if kind == "undo":
            if not self.actions:
                raise ValueError("the journal takes back an action that is not there")
            self.undone.append(self._pop())
        elif action is not None:
            self._push(self.game.apply(self.state, action), action)
            self._forward(action)
        self.faces.clear()  # after a restart nobody can tell the faces; trust the board

    def last_turn_flips(self) -> list[str]:
        """The pieces on the board that the last player's latest actions turned over, and
        those that the actions taken back since had turned (what may still show another face
        when nobody can tell, after a restart)."""
        squares: set[str] = set()
        if self.actions:
            player = self.player_of(len(self.actions) - 1)
            for index in range(len(self.actions) - 1, -1, -1):
                if self.player_of(index) != player:
                    break
                squares.update(self.states[index + 1].last.flipped)
        state = self.state
        for action in reversed(self.undone):
            try:
                state = self.game.apply(state, action)
            except IllegalActionError:  # cannot happen: each was legal in this very order
                break
            squares.update(state.last.flipped)
        return sorted(squares & set(self.state.board))

    def take_events(self) -> list[str]:
        """What happened to the game since the last call (``GAME_FINISHED``,
        ``GAME_REOPENED``), for the table to keep in the journal; the list is emptied."""
        events, self._events = self._events, []
        return events

    def _forward(self, action: Action) -> None:
        """A redo puts back the action taken back last; any other action forgets them all."""
        if self.undone and self.undone[-1] == action:
            self.undone.pop()
        else:
            self.undone.clear()

    def _push(self, state: State, action: Action) -> None:
        before = self.state
        self.states.append(state)
        self.actions.append(action)
        self._turn_faces(state.last.flipped, before, state)
        if state.last.flipped:
            self.turner = self.player_of(len(self.actions) - 1)
        self._cache.clear()

    def _pop(self) -> Action:
        taker = self.player_of(len(self.actions) - 1)
        undone = self.states.pop()
        action = self.actions.pop()
        self._turn_faces(undone.last.flipped, undone, self.state)
        self.faces = {s: f for s, f in self.faces.items() if s in self.state.board}
        if undone.last.flipped:
            self.turner = taker  # who made the action taken back
        self._cache.clear()
        return action

    def _turn_faces(self, flipped: tuple[str, ...], was: State, now: State) -> None:
        """The game turned the pieces ``flipped`` from their owner in ``was`` to their owner in
        ``now``; each still shows the face it showed (the sensors cannot see faces), which is
        owed until it is the game's."""
        for square in flipped:
            old, new = was.board.get(square), now.board.get(square)
            if old is None or new is None:
                continue
            shown = self.faces.get(square, old.owner)
            if shown == new.owner:
                self.faces.pop(square, None)
            else:
                self.faces[square] = shown
