"""A table driven by JSON lines: for tools, demonstrations and the crash-recovery test.

    python -m app.table.runner --journal games.db [--board a1,b2]

Each line on stdin is one of
``{"sensor": "c3", "occupied": true}``, ``{"input": {...}}`` (spec/api.md),
``{"new_game": {"variant": ..., "players": ..., "options": ..., "setup": ..., "hints": ...}}``,
``{"board": ["a1", ...]}`` (take this as the physical board) or ``{"wait": seconds}``. After
each line the view is printed as one JSON line (``{"error": ...}`` for a refused line). The
first line printed is the view at start, after any recovery from the journal.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from app.rules.game import variant_class
from firmware.ports import SensorEvent

from .errors import InputError
from .table import Table


def _resolver(spec: str | None) -> Callable[[str], Any]:
    if not spec:
        return variant_class
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "resolve")  # type: ignore[no-any-return]


def handle_line(table: Table, line: str) -> dict[str, Any]:
    """Apply one input line; the view, or ``{"error": reason}``."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        return {"error": f"not JSON: {e}"}
    if not isinstance(data, dict):
        return {"error": "each line must be a JSON object"}
    try:
        if "sensor" in data:
            table.handle_sensor(SensorEvent(str(data["sensor"]), bool(data.get("occupied")),
                                            time.monotonic()))
        elif "input" in data:
            table.input(data["input"])
        elif "new_game" in data:
            spec = data["new_game"]
            if not isinstance(spec, dict) or "variant" not in spec:
                return {"error": "new_game needs an object with a variant"}
            table.new_game(spec["variant"], spec.get("players"), spec.get("options"),
                           spec.get("setup"), bool(spec.get("hints", False)))
        elif "board" in data:
            table.set_board(list(data["board"]))
        elif "wait" in data:
            time.sleep(float(data["wait"]))
            table.tick()
        else:
            return {"error": "unknown line: use sensor, input, new_game, board or wait"}
    except (InputError, TypeError, ValueError) as e:
        return {"error": str(e)}
    return table.view()


def run(table: Table, lines: TextIO, out: TextIO) -> None:
    out.write(json.dumps(table.view()) + "\n")
    out.flush()
    for line in lines:
        if not line.strip():
            continue
        out.write(json.dumps(handle_line(table, line)) + "\n")
        out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.table.runner", description=__doc__)
    parser.add_argument("--journal", default=None, help="the journal file (none: no journal)")
    parser.add_argument("--board", default="", help="the physical board at start: a1,b2,...")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds a Halma jump or a take-back must stand still")
    parser.add_argument("--resolve", default=None,
                        help="module:function that finds a variant class by id (for tests)")
    args = parser.parse_args(argv)
    table = Table(None, args.journal, resolve=_resolver(args.resolve), settle=args.settle)
    try:
        board = [s for s in args.board.split(",") if s]
        if board:
            table.set_board(board)
        run(table, sys.stdin, sys.stdout)
    except InputError as e:
        print(json.dumps({"error": str(e)}))
        return 1
    finally:
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
