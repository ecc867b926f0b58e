"""The game between tables, as the host and as a guest keep it (no table, no broker here).

The **host** orders the game: its own seats' actions and the proposals of remote seats become
numbered log entries, signed with its key, each with the hash of the state after it. A
proposal counts only when it is from the seat's own table (``sealing.Proposals``), that seat
is the one to act, and the rules accept the action; otherwise it is refused and nothing
changes. The **guest** applies the host's entries in order (``log.Inbox``), each only when the
host signed it, and checks that its own state after it hashes as the host's did: a difference
is a ``Diverged`` the panel names, never passed over.

Every entry is ``{"seq", "kind", "data", "hash"}`` (signed), ``kind`` one of ``action``,
``undo`` (the last action taken back: decided at the host, or asked for by the seat that made
it), ``closed`` (the host left the game: it started another) and ``refused`` (a seat's
proposal that does not count, with why, so that its table takes its act back; it changes
nothing in the game). An entry made from a proposal names it in
``by`` (``{"seat", "n"}``), so the proposing table knows its answer.
A proposal names the number of actions it was made after (``at``): one made before the game
moved on (a late duplicate, or a race with another table) is refused, never applied twice.
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
        if kind in ("refused", "closed"):
            return
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
    """The host's side: the one order of the game. ``entries`` may be given (read back from
    the host's own copy after a restart): the line is rebuilt from them."""

    def __init__(self, line: GameLine, key: HostKey, remote: Mapping[int, bytes],
                 entries: list[dict[str, Any]] | None = None) -> None:
        self.line = line
        self.key = key
        self.proposals = Proposals(dict(remote))
        self.remote = frozenset(remote)
        self.entries: list[dict[str, Any]] = []
        self.cards: dict[tuple[int, int], int] = {}
        """Cards the host's table dealt to remote seats: (seat, after so many actions): card."""
        for entry in entries or []:
            self.line.apply(entry["kind"], entry.get("data"))
            self.entries.append(entry)
            by = entry.get("by")
            if isinstance(by, dict):
                self.proposals.taken(by)

    def _append(self, kind: str, data: Any, by: dict[str, Any] | None = None) -> dict[str, Any]:
        self.line.apply(kind, data)
        entry: dict[str, Any] = {"seq": len(self.entries) + 1, "kind": kind, "data": data,
                                 "hash": self.line.hash()}
        if by is not None:
            entry["by"] = {"seat": by["seat"], "n": by["n"]}
        signed = self.key.sign(entry)
        self.entries.append(signed)
        return signed

    def act(self, action: Action) -> dict[str, Any]:
        """An action of a seat at the host's own table (or its computer): the next entry
        (``RulesError`` when the rules refuse it, ``Refused`` for a remote seat's turn)."""
        actor = self.line.game.actor(self.line.state, action)
        if actor in self.remote:
            raise Refused("that seat plays at another table: its action comes from there")
        return self._append("action", action.to_json())

    def propose(self, proposal: Any) -> dict[str, Any]:
        """A remote seat's proposal: the next entry, an action or a take-back of that seat's
        own last action, once it is from that seat's table, new, made after as many actions
        as the game has, and allowed (``Refused`` for one that is not that table's or is old:
        nothing changes; ``Declined`` when it is that table's but does not count: the caller
        answers with ``refuse``)."""
        body = self.proposals.check(proposal)
        self.proposals.taken(body)  # answered either way: it may not come again
        if body.get("at") != len(self.line.actions):
            raise Declined(body, "the game moved on before it arrived")
        if body.get("undo") is True:
            if not self.line.actions or self.line.game.actor(
                    self.line.states[-2], self.line.actions[-1]) != body["seat"]:
                raise Declined(body, "only the seat's own last action can be taken back")
            return self._append("undo", None, body)
        try:
            action = action_from_json(body.get("action"))
        except (RulesError, ValueError, TypeError) as e:
            raise Declined(body, "not an action") from e
        if self.line.game.actor(self.line.state, action) != body["seat"]:
            raise Declined(body, "that seat is not the one to act now")
        dealt = self.cards.get((body["seat"], len(self.line.actions)))
        number = getattr(action, "number", None)
        if dealt is not None and number is not None and number != dealt:
            raise Declined(body, "that is not the card the table dealt")
        try:
            return self._append("action", body["action"], body)
        except RulesError as e:
            raise Declined(body, str(e)) from e

    def refuse(self, declined: Declined) -> dict[str, Any]:
        """The entry that tells a seat's table its proposal does not count."""
        return self._append("refused", {"reason": declined.reason}, declined.body)

    def undo(self) -> dict[str, Any]:
        """Take back the last action (decided at the host, as the players agreed)."""
        return self._append("undo", None)

    def adopt(self, actions: list[Action]) -> list[dict[str, Any]]:
        """A new host's first entries: the game so far, as the table that takes over has it."""
        return [self._append("action", action.to_json()) for action in actions]

    def close(self, data: Any = None) -> dict[str, Any]:
        """The host leaves the game (it starts another): the last entry; ``data``: what the
        tables of the game need to follow it into the next (``{"next": {seat: sealed}}``)."""
        return self._append("closed", data)

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The entries from ``seq`` on, for a guest catching up."""
        return self.entries[max(seq, 1) - 1:]


class Declined(ValueError):
    """A seat's own proposal that does not count (``reason``): answered with a ``refused``
    entry so that its table takes the act back."""

    def __init__(self, body: dict[str, Any], reason: str) -> None:
        super().__init__(reason)
        self.body, self.reason = body, reason


class Guest:
    """A guest's side: the host's entries applied once, in order, each checked."""

    def __init__(self, line: GameLine, host_public: str,
                 entries: list[dict[str, Any]] | None = None) -> None:
        self.line = line
        self.host_public = host_public
        self.entries: list[dict[str, Any]] = list(entries or [])
        """Every entry applied, as the host signed it (handed on when the host is away)."""
        for entry in self.entries:  # this table's own copy, read back after a restart
            self.line.apply(entry["kind"], entry.get("data"))
        self.inbox = Inbox(len(self.entries))

    def receive(self, entry: Any) -> list[dict[str, Any]]:
        """Apply what ``entry`` makes ready (``Refused`` for one the host did not sign,
        ``Diverged`` when the state after an entry is not the host's); the applied entries,
        each with the host's signature."""
        verify(self.host_public, entry)
        applied = []
        for ready in self.inbox.receive(entry):
            self.line.apply(ready["kind"], ready.get("data"))
            if self.line.hash() != ready.get("hash"):
                raise Diverged(f"after entry {ready['seq']} this table's game is not the host's")
            self.entries.append(ready)
            applied.append(ready)
        return applied

    def signed(self) -> list[dict[str, Any]] | None:
        """Every entry so far as the host signed it, for a watcher (None: some were kept
        without their signature, and a watcher could not check them)."""
        return list(self.entries) if all("sig" in e for e in self.entries) else None
