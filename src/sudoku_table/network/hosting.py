"""The game between tables, as the host and as a guest keep it (no table, no broker here).

The **host** orders the game: its own seats' actions and the proposals of remote seats become
numbered log entries, signed with its key, each with the hash of the state after it. A
proposal counts only when it is from the seat's own table (``sealing.Proposals``), that seat
is the one to act, and the rules accept the action; otherwise it is refused and nothing
changes. The **guest** applies the host's entries in order (``log.Inbox``), each only when the
host signed it, and checks that its own state after it hashes as the host's did: a difference
is a ``Diverged`` the panel names, never passed over.

Undo between tables is an entry of its own (``undo``), made by the host only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sudoku_table.rules.actions import Action, action_from_json
from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.game import Game, State

from .log import Inbox, state_hash
from .sealing import HostKey, Proposals, Refused, verify


class Diverged(RuntimeError):
    """This table's game is not the host's after an entry (the hashes differ)."""


@dataclass
class GameLine:
    """One game's states and actions, as every table keeps them in the same order."""

    game: Game
    states: list[State]
    actions: list[Action] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game, setup: Mapping[str, Any] | None = None) -> GameLine:
        pieces = None if setup is None else game.parse_setup(setup)
        return cls(game, [game.initial_state(pieces)])

    @property
    def state(self) -> State:
        return self.states[-1]

    def apply(self, kind: str, data: Any) -> None:
        """Apply one entry's content (``RulesError`` when the rules refuse it)."""
        if kind == "undo":
            if not self.actions:
                raise Refused("nothing to take back")
            self.actions.pop()
            self.states.pop()
            return
        action = action_from_json(data)
        illegal = self.game.check(self.state, action)
        if illegal is not None:
            raise RulesError(illegal.reason)
        self.states.append(self.game.apply(self.state, action))
        self.actions.append(action)

    def hash(self) -> str:
        return state_hash(self.game, self.state)


class Host:
    """The host's side: the one order of the game."""

    def __init__(self, line: GameLine, key: HostKey, remote: Mapping[int, bytes]) -> None:
        self.line = line
        self.key = key
        self.proposals = Proposals(dict(remote))
        self.remote = frozenset(remote)
        self.entries: list[dict[str, Any]] = []

    def _append(self, kind: str, data: Any) -> dict[str, Any]:
        self.line.apply(kind, data)
        entry = self.key.sign({"seq": len(self.entries) + 1, "kind": kind, "data": data,
                               "hash": self.line.hash()})
        self.entries.append(entry)
        return entry

    def act(self, action: Action) -> dict[str, Any]:
        """An action of a seat at the host's own table (or its computer): the next entry
        (``RulesError`` when the rules refuse it, ``Refused`` for a remote seat's turn)."""
        actor = self.line.game.actor(self.line.state, action)
        if actor in self.remote:
            raise Refused("that seat plays at another table: its action comes from there")
        return self._append("action", action.to_json())

    def propose(self, proposal: Any) -> dict[str, Any]:
        """A remote seat's proposal: the next entry once it is from that seat's table, for
        that seat's turn, legal, and new (``Refused`` or ``RulesError`` otherwise; nothing
        changes, and its counter is not used up)."""
        body = self.proposals.check(proposal)
        try:
            action = action_from_json(body.get("action"))
        except (RulesError, ValueError, TypeError) as e:
            raise Refused("not an action") from e
        if self.line.game.actor(self.line.state, action) != body["seat"]:
            raise Refused("that seat is not the one to act now")
        entry = self._append("action", body["action"])
        self.proposals.taken(body)
        return entry

    def undo(self) -> dict[str, Any]:
        """Take back the last action (decided at the host, as the players agreed)."""
        return self._append("undo", None)

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The entries from ``seq`` on, for a guest catching up."""
        return self.entries[max(seq, 1) - 1:]


class Guest:
    """A guest's side: the host's entries applied once, in order, each checked."""

    def __init__(self, line: GameLine, host_public: str) -> None:
        self.line = line
        self.host_public = host_public
        self.inbox = Inbox()

    def receive(self, entry: Any) -> list[dict[str, Any]]:
        """Apply what ``entry`` makes ready (``Refused`` for one the host did not sign,
        ``Diverged`` when the state after an entry is not the host's); the applied entries."""
        body = verify(self.host_public, entry)
        applied = []
        for ready in self.inbox.receive(body):
            self.line.apply(ready["kind"], ready.get("data"))
            if self.line.hash() != ready.get("hash"):
                raise Diverged(f"after entry {ready['seq']} this table's game is not the host's")
            applied.append(ready)
        return applied
