"""Shape checks for request bodies, before anything reaches the table.

The table and the rules judge whether an input makes sense in the game; these checks only make
sure it is the right kind of thing (a known field, a sensor square, a whole number), so that a
malformed request gets a precise message and never touches the game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask import request

from sudoku_table.rules.squares import is_square
from sudoku_table.rules.wording import N_
from sudoku_table.safejson import parse_json

from . import palette
from .errors import ApiError

INPUT_FIELDS: Mapping[str, frozenset[str]] = {
    "number": frozenset({"square", "number"}),
    "blank": frozenset({"square", "owner"}),
    "discard": frozenset({"number"}),
    "joker": frozenset({"square", "number"}),
    "undo": frozenset({"confirm"}),
    "redo": frozenset(),
    "where": frozenset(),
    "end_turn": frozenset(),
    "bear_off": frozenset(),
    "hints": frozenset({"on"}),
    "hand": frozenset({"number"}),
}
"""Every input of docs/api.md (and the table's ``bear_off`` and ``hints``) with the fields it
may carry besides ``type``."""

INPUT_REQUIRED: Mapping[str, frozenset[str]] = {
    "number": frozenset({"number"}),
    "blank": frozenset({"square"}),
    "discard": frozenset({"number"}),
    "joker": frozenset({"square", "number"}),
    "undo": frozenset(),
    "redo": frozenset(),
    "where": frozenset(),
    "end_turn": frozenset(),
    "bear_off": frozenset(),
    "hints": frozenset({"on"}),
    "hand": frozenset({"number"}),
}

MAX_NAME_LENGTH = 24
MAX_PIN_LENGTH = 12
MAX_PLAYERS = 4
MAX_VERSION = 2**53 - 1
"""The largest view version an input may name (the largest whole number JavaScript keeps)."""


MAX_DEPTH = 8
"""The deepest nesting of arrays and objects any request needs (a setup piece is depth 3)."""

MAX_QUERY_VALUE = 16


def json_body() -> dict[str, Any]:
    """The request's JSON object; a clear 400 for anything else, 413 for too large a body.

    The body is read once, up to ``MAX_CONTENT_LENGTH`` (Flask answers 413 beyond it)."""
    raw = request.get_data(cache=True)
    try:
        data = parse_json(raw, MAX_DEPTH)
    except ValueError as e:
        raise ApiError(f"the request body is {e}" if str(e).startswith("not ")
                       else str(e)) from None
    if not isinstance(data, dict):
        raise ApiError(N_("the request body must be a JSON object"))
    return data


def query(allowed: Mapping[str, str]) -> dict[str, str]:
    """The query parameters, checked like a body: known names only, each once, and each value
    matching its pattern in ``allowed`` (a regular expression over ASCII)."""
    args = request.args
    unknown = sorted(k for k in args if k not in allowed)
    if unknown:
        names = ", ".join(sorted(allowed)) or "none"
        raise ApiError(N_("unknown query parameter {unknown} (parameters: {names})"),
                       params={"unknown": repr(unknown[0]), "names": names})
    clean: dict[str, str] = {}
    for name, pattern in allowed.items():
        values = args.getlist(name)
        if not values:
            continue
        if len(values) > 1:
            raise ApiError(N_("the query parameter {name} is given more than once"),
                           params={"name": repr(name)})
        value = values[0]
        if len(value) > MAX_QUERY_VALUE or not re.fullmatch(pattern, value, re.ASCII):
            raise ApiError(N_("the query parameter {name} has a bad value {value}"),
                           params={"name": name, "value": repr(value[:20])})
        clean[name] = value
    return clean


def only_fields(data: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    """Refuse unknown fields by name, so a typo is not silently ignored."""
    allowed = set(allowed) | {"pin"}
    unknown = sorted(k for k in data if k not in allowed)
    if unknown:
        raise ApiError(N_("{what} has no field {unknown} (fields: {items})"),
                       params={"what": what, "unknown": repr(unknown[0]),
                               "items": ", ".join(sorted(allowed))})
    pin = data.get("pin")
    if "pin" in data and (not isinstance(pin, str) or len(pin) > MAX_PIN_LENGTH):
        raise ApiError(N_("pin must be the table's PIN as text of at most {MAX_PIN_LENGTH} digits"),
                       params={"MAX_PIN_LENGTH": MAX_PIN_LENGTH})


def whole_number(value: object, name: str, low: int = 0, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(N_("{name} must be a whole number from {low} to {high}, got {value}"),
                       params={"name": name, "low": low, "high": high, "value": repr(value)})
    return value


def square(value: object, name: str = "square") -> str:
    if not is_square(value):
        raise ApiError(N_("{name} must be a sensor square a1..i9, got {value}"),
                       params={"name": name, "value": repr(value)})
    return value  # type: ignore[return-value]


def game_input(data: Mapping[str, Any]) -> dict[str, Any]:
    """One input of POST /api/input, checked for shape; returned without the PIN field."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in INPUT_FIELDS:
        raise ApiError(N_("unknown input type {kind} (one of {INPUT_FIELDS})"),
                       params={"kind": repr(kind), "INPUT_FIELDS": ', '.join(INPUT_FIELDS)})
    only_fields(data, INPUT_FIELDS[kind] | {"type", "version"}, f"a {kind} input")
    missing = sorted(INPUT_REQUIRED[kind] - set(data))
    if missing:
        raise ApiError(N_("a {kind} input needs {missing}"),
                       params={"kind": kind, "missing": repr(missing[0])})
    clean: dict[str, Any] = {"type": kind}
    if "square" in data:
        clean["square"] = square(data["square"])
    if "number" in data:
        clean["number"] = whole_number(data["number"], "number")
    if "owner" in data and data["owner"] is not None:
        clean["owner"] = whole_number(data["owner"], "owner", 0, MAX_PLAYERS - 1)
    if "on" in data:
        if not isinstance(data["on"], bool):
            raise ApiError(N_("on must be true or false, got {data}"),
                           params={"data": repr(data['on'])})
        clean["on"] = data["on"]
    if "confirm" in data:
        if not isinstance(data["confirm"], bool):
            raise ApiError(N_("confirm must be true or false, got {data}"),
                           params={"data": repr(data['confirm'])})
        clean["confirm"] = data["confirm"]
    if "version" in data:
        clean["version"] = whole_number(data["version"], "version", 0, MAX_VERSION)
    return clean


def new_game_request(data: Mapping[str, Any], known_variants: Iterable[str]) -> dict[str, Any]:
    """The body of POST /api/game, checked for shape."""
    only_fields(data, {"variant", "players", "options", "setup", "hints", "names", "replace",
                       "colors", "computers", "computer_draws"}, "a new game")
    variant = data.get("variant")
    known = list(known_variants)
    if variant not in known:
        raise ApiError(N_("unknown variant {variant} (one of {known})"),
                       params={"variant": repr(variant), "known": ', '.join(known)})
    players = data.get("players")
    if players is not None:
        players = whole_number(players, "players", 1, MAX_PLAYERS)
    options = data.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise ApiError(N_("options must be an object"))
    setup = data.get("setup")
    if setup is not None:
        if not isinstance(setup, dict):
            raise ApiError(N_("setup must be an object mapping squares to pieces"))
        for cell, piece in setup.items():
            square(cell, "a setup square")
            if not isinstance(piece, dict):
                raise ApiError(
                    N_('setup {cell} must be an object like {{"owner": 0, "number": 3}}'),
                    params={"cell": cell})
    hints = data.get("hints", False)
    if not isinstance(hints, bool):
        raise ApiError(N_("hints must be true or false"))
    names = data.get("names")
    names = [] if names is None else names
    if not isinstance(names, list) or len(names) > MAX_PLAYERS:
        raise ApiError(N_("names must be a list of at most {MAX_PLAYERS} player names"),
                       params={"MAX_PLAYERS": MAX_PLAYERS})
    clean_names = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or len(name.strip()) > MAX_NAME_LENGTH:
            raise ApiError(N_("name {value} must be text of at most {MAX_NAME_LENGTH} characters"),
                           params={"value": i + 1, "MAX_NAME_LENGTH": MAX_NAME_LENGTH})
        clean_names.append(name.strip())
    colors = data.get("colors")
    colors = [] if colors is None else colors
    if not isinstance(colors, list) or len(colors) > MAX_PLAYERS or not all(
            isinstance(c, str) and c in palette.CHOICES for c in colors):
        raise ApiError(N_("colors must be a list of at most {MAX_PLAYERS} of the panel's colours "
                          "({items})"),
                       params={"MAX_PLAYERS": MAX_PLAYERS, "items": ', '.join(palette.CHOICES)})
    if len(set(colors)) != len(colors):
        raise ApiError(N_("two players cannot have the same colour"))
    computers = data.get("computers")
    computers = {} if computers is None else computers
    if not isinstance(computers, dict) or len(computers) > MAX_PLAYERS:
        raise ApiError(N_("computers must be an object of at most {MAX_PLAYERS} seats with "
                          "the computer's level, like {example}"),
                       params={"MAX_PLAYERS": MAX_PLAYERS, "example": '{"1": "normal"}'})
    computer_draws = data.get("computer_draws", False)
    if not isinstance(computer_draws, bool):
        raise ApiError(N_("computer_draws must be true or false"))
    replace = data.get("replace", False)
    if not isinstance(replace, bool):
        raise ApiError(N_("replace must be true or false"))
    return {"variant": variant, "players": players, "options": options, "setup": setup,
            "hints": hints, "names": clean_names, "replace": replace, "colors": colors,
            "computers": computers, "computer_draws": computer_draws}
