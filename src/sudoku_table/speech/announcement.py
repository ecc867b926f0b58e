"""What the speaker is handed to say: one announcement, its parts and who sits where.

The table decides what is said (``sudoku_table.table.announce`` builds these values after every
change) and drives the speaker; the speaker only words and plays them. So the shape of an
announcement is the speaker's own, and the table imports it from here: the arrow runs one way,
from the table to its voice.
"""

from __future__ import annotations

from typing import Any, TypedDict


class Part(TypedDict):
    """One thing said: its ``kind`` (of ``sudoku_table.table.announce.KINDS``), a ``code`` with
    ``params``, and the seat it is addressed to: the player who must act on it (their turn,
    their flips, their piece to take away); None for what is news to everybody (an action, the
    end, the computer's move)."""

    kind: str
    code: str
    params: dict[str, Any]
    seat: int | None


class Seats(TypedDict):
    """Who sits at the table, for naming them: the names as typed (empty: the seat's own
    name), each seat's own name (White, Black; empty: "Player n"), and the computer's seats."""

    players: int
    names: list[str]
    labels: list[str]
    computers: dict[str, str]


class Announcement(TypedDict):
    """One announcement: a new ``id`` for each, its parts in order, and who sits where."""

    id: str
    parts: list[Part]
    seats: Seats
