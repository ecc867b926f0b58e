"""Parsing JSON from outside with bounds: every request body and every runner line.

Python's ``json`` recurses once per level of nesting, so a body of a few kilobytes nested a
thousand deep raises ``RecursionError``; an integer of thousands of digits raises a bare
``ValueError``; ``NaN`` and ``Infinity`` parse although JSON has no such numbers. ``parse_json``
turns all of these into one ``ValueError`` with a sentence, before any of it reaches the table.
"""

from __future__ import annotations

import json
from typing import Any

DEFAULT_MAX_DEPTH = 8


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text``, without parsing it (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(raw: bytes | str, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """Parse one JSON document with bounds; ``ValueError`` with a sentence for anything else.

    The shared parser of every request body and runner line: its depth is checked before
    parsing, so no nesting reaches Python's recursion limit; ``NaN`` and ``Infinity`` are
    refused; an integer too long to convert is a ``ValueError`` like any other bad number.
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not UTF-8 text") from None
    else:
        text = raw
    if json_depth(text) > max_depth:
        raise ValueError(f"the JSON nests deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise ValueError(f"not valid JSON ({e})") from None
