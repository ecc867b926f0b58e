"""Panel inputs (docs/api.md) checked for shape before they reach the game.

Anything malformed gets a message a player can act on; nothing reaches the rules half-checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sudoku_table.rules.squares import is_square
from sudoku_table.rules.wording import N_

from .errors import InputError

KINDS = ("number", "blank", "discard", "joker", "undo", "redo", "end_turn", "bear_off", "hints",
         "hand", "where", "not_my_card")

CARD_INPUTS = ("number", "discard", "joker")
"""The inputs that name the mover's card or stone: where the table deals it to a phone, only
that phone may send them."""


def _whole(data: Mapping[str, Any], key: str, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(N_("{key} must be a whole number, got {value}"),
                         key=key, value=repr(value))
    return value


def _square(data: Mapping[str, Any], optional: bool = False) -> str | None:
    value = data.get("square")
    if value is None and optional:
        return None
    if not is_square(value):
        raise InputError(N_("square must be a square a1..i9, got {value}"), value=repr(value))
    return value


def parse_input(data: object) -> dict[str, Any]:
    """The input as a plain dict with checked fields; ``InputError`` says what is wrong. The
    ``version`` of the view it was made from, when given, is kept under that key."""
    if not isinstance(data, Mapping):
        raise InputError(N_("an input must be a JSON object like {\"type\": \"undo\"}"))
    parsed = _parse(data)
    if data.get("version") is not None:
        version = _whole(data, "version")
        if version is None or version < 0:
            raise InputError(N_("{key} must be a whole number, got {value}"), key="version",
                             value=repr(version))
        parsed["version"] = version
    return parsed


def _parse(data: Mapping[str, Any]) -> dict[str, Any]:
    kind = data.get("type")
    if kind not in KINDS:
        raise InputError(N_("unknown input type {kind} (one of {KINDS})"),
                         kind=repr(kind), KINDS=', '.join(KINDS))
    if kind == "number":
        return {"type": kind, "square": _square(data, optional=True),
                "number": _whole(data, "number")}
    if kind == "blank":
        return {"type": kind, "square": _square(data), "owner": _whole(data, "owner", True)}
    if kind in ("discard", "hand"):
        return {"type": kind, "number": _whole(data, "number")}
    if kind == "joker":
        return {"type": kind, "square": _square(data), "number": _whole(data, "number")}
    if kind == "hints":
        on = data.get("on")
        if not isinstance(on, bool):
            raise InputError(N_('hints needs "on": true or false, got {on}'), on=repr(on))
        return {"type": kind, "on": on}
    if kind == "undo":
        confirm = data.get("confirm", False)
        if not isinstance(confirm, bool):
            raise InputError(N_("confirm must be true or false, got {confirm}"),
                             confirm=repr(confirm))
        return {"type": kind, "confirm": confirm}
    return {"type": kind}
