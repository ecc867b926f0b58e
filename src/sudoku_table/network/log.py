"""The game's log as a table receives it: every entry once, in order, whatever the network did.

The host numbers its entries 1, 2, 3...; the broker delivers them at least once (MQTT QoS 1)
and, after a reconnect, perhaps late. ``Inbox`` hands on the entries that come next, in order,
each exactly once; keeps early ones until the gap before them is filled; drops duplicates
(harmless); and says from which number to ask the host again (``missing``).

Each entry carries the hash of the game's state after it (``state_hash``): a table whose own
state after applying the entry hashes otherwise has another game than the host's, and says so.
"""

from __future__ import annotations

import hashlib
from typing import Any

from sudoku_table.rules.game import Game, State

from .sealing import canonical


def state_hash(game: Game, state: State) -> str:
    """A short hash of everything the game's document says of ``state`` (the same on every
    table that applied the same actions in the same order)."""
    return hashlib.sha256(canonical(game.document(state))).hexdigest()[:32]


class Inbox:
    """Entries in order (``receive``), from ``next`` on."""

    def __init__(self, applied: int = 0) -> None:
        self.next = applied + 1
        self._early: dict[int, dict[str, Any]] = {}

    def receive(self, entry: dict[str, Any]) -> list[dict[str, Any]]:
        """The entries that may be applied now, in order (none for a duplicate, or an entry
        after a gap: kept until the gap is filled)."""
        seq = entry.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < self.next:
            return []
        self._early.setdefault(seq, entry)
        ready = []
        while self.next in self._early:
            ready.append(self._early.pop(self.next))
            self.next += 1
        return ready

    @property
    def missing(self) -> int | None:
        """The first entry to ask the host for again (a gap before an early entry), or None."""
        return self.next if self._early else None
