"""A table driven by JSON lines: for tools, demonstrations and the crash-recovery test.

    python -m sudoku_table.table.runner --journal games.db [--board a1,b2] [--reserve-kb 4096]

Each line on stdin is one of
``{"sensor": "c3", "occupied": true}``, ``{"input": {...}}`` (docs/api.md),
``{"new_game": {"variant": ..., "players": ..., "options": ..., "setup": ..., "hints": ...,
"names": [...], "replace": true, "computers": {"1": "strong"}, "computer_draws": true}}``
(a new game starts on an empty board: pieces left on it must be lifted first; ``computers``
names the seats the computer plays, with its level, as in ``POST /api/game``),
``{"board": ["a1", ...]}`` (take this as the physical board) or ``{"wait": seconds}``. After
each line the view is printed as one JSON line (``{"error": ...}`` for a refused line, which
changes nothing); when the computer is thinking, the view is printed once its move is known,
so the same lines give the same answers. Lines are checked as strictly as the panel's
requests: bounded length and nesting, known fields only, ``occupied`` a real boolean,
``wait`` at most a minute. The first line printed is the view at start, after any recovery
from the journal.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from sudoku_table.firmware.ports import SensorEvent
from sudoku_table.rules.game import variant_class
from sudoku_table.rules.squares import is_square
from sudoku_table.safejson import parse_json

from .errors import InputError
from .journal import CHECKPOINT_BYTES, RESERVE_BYTES
from .table import Table
from .view import View


def _resolver(spec: str | None) -> Callable[[str], Any]:
    if not spec:
        return variant_class
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "resolve")


MAX_LINE = 64 * 1024
"""The longest line the runner reads; a new game with its setup is well under 2 KiB."""

MAX_DEPTH = 8
COMPUTER_WAIT = 30.0
"""The longest the runner waits for the computer's move before printing the view anyway."""
MAX_WAIT = 60.0
"""The longest ``wait`` a line may ask for, in seconds."""

LINE_FIELDS = {
    "sensor": {"sensor", "occupied"},
    "input": {"input"},
    "new_game": {"new_game"},
    "board": {"board"},
    "wait": {"wait"},
}
NEW_GAME_FIELDS = {"variant", "players", "options", "setup", "hints", "names", "replace",
                   "colors", "computers", "computer_draws"}


class LineError(ValueError):
    """A line the runner refuses; the message says why."""


def _only(data: dict[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(k for k in data if k not in allowed)
    if unknown:
        fields = ", ".join(sorted(allowed))
        raise LineError(f"{what} has no field {unknown[0]!r} (fields: {fields})")


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise LineError(f"{name} must be true or false, got {str(value)[:20]!r}")
    return value


def _wait_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LineError(f"wait must be a number of seconds, got {str(value)[:20]!r}")
    seconds = float(value)
    if not 0 <= seconds <= MAX_WAIT:
        raise LineError(f"wait must be from 0 to {MAX_WAIT:g} seconds, got {seconds:g}")
    return seconds


def parse_line(line: str) -> dict[str, Any]:
    """One line as a checked object of one known kind; ``LineError`` says what is wrong."""
    if len(line) > MAX_LINE:
        raise LineError(f"a line may be at most {MAX_LINE} characters long")
    try:
        data = parse_json(line, MAX_DEPTH)
    except ValueError as e:
        raise LineError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise LineError("each line must be a JSON object")
    kind = next((k for k in LINE_FIELDS if k in data), None)
    if kind is None:
        raise LineError("unknown line: use sensor, input, new_game, board or wait")
    _only(data, LINE_FIELDS[kind], f"a {kind} line")
    if kind == "sensor":
        if not is_square(data["sensor"]):
            raise LineError(f"sensor must be a square a1..i9, got {str(data['sensor'])[:20]!r}")
        _flag(data.get("occupied"), "occupied")
    elif kind == "new_game":
        spec = data["new_game"]
        if not isinstance(spec, dict) or not isinstance(spec.get("variant"), str):
            raise LineError("new_game needs an object with a variant")
        _only(spec, NEW_GAME_FIELDS, "new_game")
        _flag(spec.get("hints", False), "hints")
        _flag(spec.get("replace", False), "replace")
        _flag(spec.get("computer_draws", False), "computer_draws")
        names = spec.get("names")
        if names is not None and (not isinstance(names, list) or len(names) > 4 or not all(
                isinstance(n, str) and len(n) <= 24 for n in names)):
            raise LineError("names must be a list of at most 4 names of at most 24 characters")
        colors = spec.get("colors")
        if colors is not None and (not isinstance(colors, list) or len(colors) > 4 or not all(
                isinstance(c, str) and len(c) == 7 and c.startswith("#") for c in colors)):
            raise LineError("colors must be a list of at most 4 colours like #99ddff")
    elif kind == "board":
        board = data["board"]
        if not isinstance(board, list) or not all(is_square(s) for s in board):
            raise LineError("board must be a list of squares a1..i9")
    elif kind == "wait":
        data["wait"] = _wait_seconds(data["wait"])
    return data


def handle_line(table: Table, line: str) -> View | dict[str, Any]:
    """Apply one input line; the view, or ``{"error": reason}`` (and nothing changed)."""
    try:
        data = parse_line(line)
        if "sensor" in data:
            event = SensorEvent(data["sensor"], data["occupied"], time.monotonic())
            table.handle_sensor(event)
        elif "input" in data:
            table.input(data["input"])
        elif "new_game" in data:
            spec = data["new_game"]
            table.new_game(spec["variant"], spec.get("players"), spec.get("options"),
                           spec.get("setup"), spec.get("hints", False), spec.get("names"),
                           spec.get("replace", False), spec.get("colors"),
                           spec.get("computers"), spec.get("computer_draws", False))
        elif "board" in data:
            table.set_board(data["board"])
        else:
            time.sleep(data["wait"])
            table.tick()
    except (LineError, InputError) as e:
        return {"error": str(e)}
    table.wait_for_computer(COMPUTER_WAIT)
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
    parser = argparse.ArgumentParser(prog="python -m sudoku_table.table.runner",
                                     description=__doc__)
    parser.add_argument("--journal", default=None, help="the journal file (none: no journal)")
    parser.add_argument("--board", default="", help="the physical board at start: a1,b2,...")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds a Halma jump or a take-back must stand still")
    parser.add_argument("--resolve", default=None,
                        help="module:function that finds a variant class by id (for tests)")
    parser.add_argument("--reserve-kb", type=int, default=RESERVE_BYTES // 1024,
                        help="space kept beside the journal for the game in progress, in KiB")
    parser.add_argument("--checkpoint-kb", type=int, default=CHECKPOINT_BYTES // 1024,
                        help="WAL size after which the journal is checkpointed, in KiB")
    args = parser.parse_args(argv)
    table = Table(None, args.journal, resolve=_resolver(args.resolve), settle=args.settle,
                  reserve=args.reserve_kb * 1024, checkpoint=args.checkpoint_kb * 1024)
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
