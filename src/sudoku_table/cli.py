"""The command line: ``sudoku-table serve | club | replay | move | review | selftest |
overlay | parts | speak``.

overlay | speak | puzzle``.

The parts of ``serve`` are composed in ``sudoku_table.assembly``; the config file is read by
``sudoku_table.config`` and each command is handed its part."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any


def _load(path: str) -> tuple[Any, Any] | int:
    """The game and every state of the record at ``path`` (``-``: stdin); on bad input the
    JSON error is printed and 1 returned."""
    loaded = _load_record(path)
    return loaded if isinstance(loaded, int) else loaded[1:]


def _load_record(path: str) -> tuple[Any, Any, Any] | int:
    """The record at ``path`` (``-``: stdin), its game and every state; on bad input the
    JSON error is printed and 1 returned."""
    from .rules.errors import RecordError
    from .rules.record import Record, ReplayError, replay

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(json.dumps({"error": {"reason": f"cannot read {path}: {e}"}}))
        return 1
    try:
        record = Record.loads(text)
        return (record, *replay(record))
    except ReplayError as e:
        print(json.dumps(e.to_json()))
        return 1
    except RecordError as e:
        print(json.dumps({"error": {"reason": str(e)}}))
        return 1


def _replay(args: argparse.Namespace) -> int:
    loaded = _load(args.record)
    if isinstance(loaded, int):
        return loaded
    game, states = loaded
    print(json.dumps(game.document(states[-1]), indent=None if args.compact else 2))
    return 0


def _config(args: argparse.Namespace) -> Any:
    """The table's config for a command (``--config``); on a bad one the reason is printed on
    stderr and 2 returned."""
    from .config import ConfigError, load_config

    try:
        return load_config(args.config)
    except ConfigError as e:
        print(f"sudoku-table {args.command}: cannot start: {e}", file=sys.stderr)
        return 2


def _move(args: argparse.Namespace) -> int:
    from .ai import EngineError, decide

    config = _config(args)
    if isinstance(config, int):
        return config
    budget = config.computer.budget(args.level)
    loaded = _load(args.record)
    if isinstance(loaded, int):
        return loaded
    game, states = loaded
    state = states[-1]
    if state.over:
        print(json.dumps({"error": {"reason": "the game is over", "cells": []}}))
        return 1
    try:
        decision = decide(game, state, level=args.level, seed=args.seed, hand=args.hand,
                          budget=budget)
    except EngineError as e:
        print(json.dumps({"error": {"reason": str(e)}}))
        return 1
    if decision.clock_stop:
        print(f"sudoku-table move: the search stopped on the clock after {budget.seconds:g} s "
              f"({decision.positions} of {budget.positions} positions): the answer may differ "
              "from run to run", file=sys.stderr)
    print(json.dumps({"action": decision.action.to_json()}))
    return 0


def _review(args: argparse.Namespace) -> int:
    from .ai.review import review, review_budget
    from .web.review_words import (
        document,
        move_entry,
        move_lines,
        player_names,
        summary_lines,
        title_lines,
    )

    config = _config(args)
    if isinstance(config, int):
        return config
    budget = review_budget(config.computer.budget(args.level))
    loaded = _load_record(args.record)
    if isinstance(loaded, int):
        return loaded
    record, game, states = loaded
    language = report_language(args.language, config.panel.language)
    seats = player_names(game, record.names, language)
    judged = []
    if not args.json:
        print("\n".join(title_lines(game, seats, args.level, language)), flush=True)
    for judgement in review(game, states, record.actions, level=args.level, budget=budget):
        judged.append(judgement)
        if not args.json:  # each move as soon as it is judged: a long game shows progress
            entry = move_entry(game, states, record.actions, judgement.index, judgement, seats,
                               language)
            print("\n".join(move_lines(entry)), flush=True)
    doc = document(game, states, record.actions, judged, record.names, language,
                   {"level": args.level, "status": "done", "done": len(judged),
                    "total": len(record.actions)})
    if args.json:
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print("\n".join(summary_lines(doc, language)))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .assembly import serve

    return serve(args)


def _club(args: argparse.Namespace) -> int:
    from .assembly import serve_club

    return serve_club(args)


def _selftest(args: argparse.Namespace) -> int:
    from sudoku_table.firmware.selftest import main as selftest
    from sudoku_table.web.i18n import translate

    from .config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"sudoku-table selftest: cannot start: {e}", file=sys.stderr)
        return 2
    language = report_language(args.language, config.panel.language)
    return selftest(args, config=config.hardware,
                    say=lambda text: translate(text, language))


def report_language(chosen: str | None, table: str) -> str:
    """The language of a report on the command line: ``--language``, else the terminal's
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``de_DE.UTF-8`` is German), else the
    table's own (``[panel] language``)."""
    from sudoku_table.web.i18n import LANGUAGES

    if chosen:
        return chosen
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in os.environ.get(name, "").split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return table


def _overlay(args: argparse.Namespace) -> int:
    from sudoku_table.web.i18n import translate

    from .config import ConfigError, load_config
    from .overlay import fail
    from .overlay import main as overlay

    try:
        config = load_config(args.config)
    except ConfigError as e:
        return fail(str(e))
    language = report_language(args.language, config.panel.language)
    return overlay(args, config.board.square_mm, say=lambda text: translate(text, language))


def _parts(args: argparse.Namespace) -> int:
    from .config import ConfigError, load_config
    from .parts.files import fail
    from .parts.files import main as parts

    try:
        config = load_config(args.config)
    except ConfigError as e:
        return fail(str(e))
    return parts(args, config.board.square_mm, config.build, config.hardware.sensors,
                 config.hardware.leds)


def _speak(args: argparse.Namespace) -> int:
    from .config import ConfigError, load_config
    from .speech.cli import main as speak

    try:
        config = load_config(args.config).speech
    except ConfigError as e:
        print(f"sudoku-table speak: cannot start: {e}", file=sys.stderr)
        return 2
    return speak(args, config)


def _probe_square(text: str) -> str:
    """A square of the board for ``--probe``, or ``none``."""
    from sudoku_table.firmware.layout import SQUARES

    if text != "none" and text not in SQUARES:
        raise argparse.ArgumentTypeError(f"a square a1..i9 or none, got {text!r}")
    return text


def _puzzle(args: argparse.Namespace) -> int:
    """One puzzle as JSON (docs/puzzles.md): by seed, the puzzle of a day, or a typed one
    checked and graded. A difficulty the board does not offer exits 2; a typed puzzle that is
    malformed or has no or several solutions exits 1; both say why on stderr."""
    from datetime import date

    from .rules.puzzle import (
        PuzzleError,
        board,
        check_puzzle,
        generate,
        parse_puzzle,
        puzzle_of_the_day,
    )

    puzzle_board = board(args.board)
    if args.text is None and args.difficulty not in puzzle_board.difficulties:
        offered = ", ".join(str(d) for d in puzzle_board.difficulties)
        print(f"sudoku-table puzzle: the {args.board} board offers difficulties {offered}, "
              f"not {args.difficulty} (docs/puzzles.md says why)", file=sys.stderr)
        return 2
    try:
        if args.text is not None:
            puzzle = check_puzzle(puzzle_board, parse_puzzle(puzzle_board, args.text))
        elif args.date is not None:
            try:
                day = date.fromisoformat(args.date)
            except ValueError:
                print(f"sudoku-table puzzle: --date {args.date!r} is not a date YYYY-MM-DD",
                      file=sys.stderr)
                return 2
            puzzle = puzzle_of_the_day(day, args.board, args.difficulty)
        else:
            puzzle = generate(args.board, args.difficulty, args.seed)
    except PuzzleError as e:
        print(f"sudoku-table puzzle: {e}", file=sys.stderr)
        return 1
    print(json.dumps(puzzle.to_json()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku-table",
        description="A referee table for twelve Sudoku board games.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a game record and print the resulting state")
    p.add_argument("record", help="a record JSON file (docs/records.md), or - for stdin")
    p.add_argument("--compact", action="store_true", help="print the state on one line")
    p.set_defaults(func=_replay)

    from sudoku_table.web.i18n import LANGUAGES

    p = sub.add_parser("move", help="print the computer's next action for a record")
    p.add_argument("record", help="a record JSON file (docs/records.md), or - for stdin")
    from .ai.engine import LEVELS

    p.add_argument("--level", choices=LEVELS, default="normal",
                   help="how well the computer plays (default: normal)")
    p.add_argument("--seed", type=int, default=0,
                   help="the same seed gives the same action (default: 0)")
    p.add_argument("--hand", type=int, default=None,
                   help="the mover's card or stone where the game hides it (default: drawn "
                        "from the mover's remaining supply with the seed)")
    p.add_argument("--config", default=None, help="the table's TOML config ([computer])")
    p.set_defaults(func=_move)

    p = sub.add_parser("review", help="judge every move of a record beside the computer's")
    p.add_argument("record", help="a record JSON file (docs/records.md), or - for stdin")
    p.add_argument("--level", choices=LEVELS, default="strong",
                   help="the computer each move is compared with (default: strong)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON document for tools (docs/records.md) instead of text")
    p.add_argument("--language", choices=LANGUAGES, default=None,
                   help="the words' language (default: the terminal's, else the table's)")
    p.add_argument("--config", default=None, help="the table's TOML config ([computer])")
    p.set_defaults(func=_review)

    p = sub.add_parser("serve", help="start the phone panel and the table")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--sim", action="store_true", help="use the simulated table even on a Pi")
    p.add_argument("--real", action="store_true",
                   help="use the Pi's hardware even where this does not look like a Pi (a part "
                        "that cannot be opened is left out, and the Table page says why)")
    p.add_argument("--data", default=None, help="where the journal and settings live")
    p.add_argument("--config", default=None, help="the table's TOML config file")
    p.set_defaults(func=_serve)

    p = sub.add_parser("club", help="serve the club's page on a PC: every game of the club's "
                                    "tables live, and any game by its watch code")
    p.add_argument("--config", default=None,
                   help="a TOML config with the [network] broker and club of the club's tables")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8090)
    p.set_defaults(func=_club)

    p = sub.add_parser("selftest", help="light every square, show the live sensors, find faults")
    p.add_argument("--sim", action="store_true", help="test the simulated table")
    p.add_argument("--config", default=None, help="the table's TOML config file")
    p.add_argument("--seconds", type=float, default=None,
                   help="how long to show the live sensor matrix (default: until Ctrl-C; "
                        "with --sim: until the simulated hand has touched every square)")
    p.add_argument("--part", choices=("all", "leds", "sensors", "buzzer"), default="all",
                   help="test one part while building: the LEDs, the sensors (rows and "
                        "columns), or the buzzer (default: all)")
    p.add_argument("--probe", default="e5", metavar="SQUARE", type=_probe_square,
                   help="the ghost probe's square: a magnet held there alone, its neighbours "
                        "must read open (default e5; 'none' leaves the probe out)")
    p.add_argument("--inject", action="append", default=[], metavar="KIND:WHERE",
                   help="with --sim, break the simulated table first: stuck:c3, dead-row:4, "
                        "dead-column:e, short-column:e, short-row:4, reversed-diode:c3 or "
                        "chatter:d4 (repeatable)")

    p.add_argument("--language", choices=LANGUAGES, default=None,
                   help="the report's language (default: the terminal's, else the table's)")
    p.set_defaults(func=_selftest)

    p = sub.add_parser("overlay", help="print a printable board overlay as SVG")
    p.add_argument("variant", help="a variant id, e.g. classic-sudoku")
    p.add_argument("--options", default=None, help='variant options as JSON, e.g. {"clues": "B"}')
    p.add_argument("--config", default=None, help="the table's TOML config (square pitch)")
    p.add_argument("--language", choices=LANGUAGES, default=None,
                   help="the printed words' language (default: the terminal's, else the table's)")
    p.add_argument("--paper", choices=("a4", "letter"), default=None,
                   help="tile onto A4 or US Letter pages as one PDF (default: one SVG sheet)")
    p.add_argument("--out", default=None, help="write to this file (default: stdout)")
    p.set_defaults(func=_overlay)

    p = sub.add_parser("parts", help="write the build's drawings and printable parts (on a "
                                     "PC: needs the parts extra)")
    p.add_argument("--out", required=True, help="the folder to write them into")
    p.add_argument("--config", default=None,
                   help="the table's TOML config ([board] square_mm, [build] layers)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4",
                   help="the paper the drilling template is tiled onto (default: a4)")
    p.add_argument("--game", action="append", default=None, metavar="VARIANT",
                   help="make the tactile overlay and tiles for this game only (repeat for "
                        "more; default: every game)")
    p.set_defaults(func=_parts)

    from .rules.puzzle import BOARD_KEYS

    p = sub.add_parser("puzzle", help="print a Sudoku puzzle with one solution, graded, as JSON")
    p.add_argument("--board", choices=BOARD_KEYS, default="classic",
                   help="classic 9x9, six (6x6 with 2x3 blocks) or labyrinth (jigsaw regions)")
    p.add_argument("--difficulty", type=int, choices=range(1, 6), default=1, metavar="1-5",
                   help="1 singles by scanning ... 5 fish and wings (default: 1)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--seed", type=int, help="the same seed gives the same puzzle")
    which.add_argument("--date", help="the puzzle of the day YYYY-MM-DD (the same on every "
                                      "table of this version)")
    which.add_argument("--text", help="a typed puzzle, top rank first: digits, . or 0 for an "
                                      "empty cell; checked for one solution and graded")
    p.set_defaults(func=_puzzle)

    from .speech.cli import add_parser as add_speak

    add_speak(sub, LANGUAGES, _speak)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
