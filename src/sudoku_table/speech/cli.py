"""``sudoku-table speak``: render a text with the table's own engine and voices, to a WAV file.

Exit 0 with the file written; 1 when the text cannot be spoken or the file not written (the
message says why; no file is left behind); 2 when the engine is missing or the config is bad.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from .config import SpeechConfig
from .engine import SpeechError, measure, open_engine


def add_parser(sub: argparse._SubParsersAction, languages: tuple[str, ...],
               run: Callable[[argparse.Namespace], int]) -> None:
    """The ``speak`` command of ``sudoku-table``."""
    p = sub.add_parser("speak", help="render a text with the table's speech engine to a WAV file")
    p.add_argument("text", help="what to say (- reads it from stdin)")
    p.add_argument("--language", choices=languages, required=True,
                   help="the language to speak it in")
    p.add_argument("--out", required=True, help="the WAV file to write (- for stdout)")
    p.add_argument("--volume", type=float, default=0.6, help="from 0 to 1 (default: 0.6)")
    p.add_argument("--config", default=None, help="the table's TOML config ([speech])")
    p.set_defaults(func=run)


def main(args: argparse.Namespace, config: SpeechConfig) -> int:
    """Render ``args.text`` to ``args.out`` with the engine ``config`` names."""
    engine = open_engine(config)
    problem = engine.problem()
    if problem:
        print(f"sudoku-table speak: cannot speak: {problem}", file=sys.stderr)
        return 2
    text = sys.stdin.read() if args.text == "-" else args.text
    if not 0 <= args.volume <= 1:
        print(f"sudoku-table speak: the volume must be from 0 to 1, got {args.volume}",
              file=sys.stderr)
        return 1
    try:
        wav = engine.render(text, args.language, args.volume)
        audio = measure(wav)
    except SpeechError as e:
        print(f"sudoku-table speak: {e}", file=sys.stderr)
        return 1
    if args.out == "-":
        sys.stdout.buffer.write(wav)
        sys.stdout.flush()
    else:
        target = Path(args.out)
        try:  # whole or not at all: a temporary file beside it, then renamed
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
            with os.fdopen(fd, "wb") as f:
                f.write(wav)
            os.replace(tmp, target)
        except OSError as e:
            print(f"sudoku-table speak: cannot write {args.out}: {e.strerror or e}",
                  file=sys.stderr)
            return 1
    print(f"{args.out}: {audio.seconds:.2f} s of speech ({engine.name}, {args.language})",
          file=sys.stderr)
    return 0
