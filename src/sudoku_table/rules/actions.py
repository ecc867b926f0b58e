"""Actions: small frozen values, one per kind of thing a player can do.

Each parses from and writes to the JSON of docs/records.md. The player is never part of an
action: turn order decides who acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import RecordError
from .squares import is_square
from .wording import N_

OFF = "off"
"""The last element of a Halma path that bears the piece off the board."""


@dataclass(frozen=True, slots=True)
class Place:
    """A number piece or card put on ``cell``."""

    cell: str
    number: int
    type: ClassVar[str] = "place"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "cell": self.cell, "number": self.number}


@dataclass(frozen=True, slots=True)
class Blank:
    """A blank piece on a dead field; ``owner`` None means the mover's colour."""

    cell: str
    owner: int | None = None
    type: ClassVar[str] = "blank"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "cell": self.cell}
        if self.owner is not None:
            d["owner"] = self.owner
        return d


@dataclass(frozen=True, slots=True)
class Move:
    """A Halma move: the start cell, then every landing cell; ``"off"`` last to bear off."""

    path: tuple[str, ...]
    type: ClassVar[str] = "move"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "path": list(self.path)}

    @property
    def start(self) -> str:
        return self.path[0]

    @property
    def bears_off(self) -> bool:
        return self.path[-1] == OFF


@dataclass(frozen=True, slots=True)
class Discard:
    """A card that fits nowhere, set aside (KOSMOS games, Duell der Meister)."""

    number: int
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "number": self.number}


@dataclass(frozen=True, slots=True)
class Joker:
    """SUDOKU FAMILY: a stone showing ``number`` fits nowhere and is laid face down on ``cell``."""

    cell: str
    number: int
    type: ClassVar[str] = "joker"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "cell": self.cell, "number": self.number}


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The mover is done placing blanks."""

    type: ClassVar[str] = "end_turn"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


Action = Place | Blank | Move | Discard | Joker | EndTurn

ACTION_TYPES = ("place", "blank", "move", "discard", "joker", "end_turn")


def action_number(action: Action) -> int | None:
    """The card or stone number an action plays (None for blanks, moves, end of turn)."""
    if isinstance(action, Place | Discard | Joker):
        return action.number
    return None


def _cell(d: Mapping[str, Any], key: str = "cell") -> str:
    value = d.get(key)
    if not is_square(value):
        raise RecordError(N_("{key} must be a sensor square a1..i9, got {value}"),
                          key=key, value=repr(value))
    return value  # type: ignore[return-value]


def _int(d: Mapping[str, Any], key: str, optional: bool = False) -> int | None:
    value = d.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(N_("{key} must be a whole number, got {value}"),
                          key=key, value=repr(value))
    return value


def action_from_json(d: object) -> Action:
    """Parse one action of a record; ``RecordError`` names what is wrong with it."""
    if not isinstance(d, Mapping):
        raise RecordError(N_("an action must be a JSON object, got {d}"), d=repr(d))
    kind = d.get("type")
    if kind == "place":
        return Place(_cell(d), _int(d, "number"))  # type: ignore[arg-type]
    if kind == "blank":
        return Blank(_cell(d), _int(d, "owner", optional=True))
    if kind == "move":
        path = d.get("path")
        if not isinstance(path, list) or len(path) < 2:
            raise RecordError(N_("a move's path must list at least two cells, got {path}"),
                              path=repr(path))
        for i, step in enumerate(path):
            if not (is_square(step) or (step == OFF and i == len(path) - 1 and i > 0)):
                raise RecordError(N_("a move's path holds {step}: cells a1..i9, 'off' only last"),
                                  step=repr(step))
        return Move(tuple(path))
    if kind == "discard":
        return Discard(_int(d, "number"))  # type: ignore[arg-type]
    if kind == "joker":
        return Joker(_cell(d), _int(d, "number"))  # type: ignore[arg-type]
    if kind == "end_turn":
        return EndTurn()
    raise RecordError(N_("unknown action type {kind} (one of {ACTION_TYPES})"),
                      kind=repr(kind), ACTION_TYPES=', '.join(ACTION_TYPES))
