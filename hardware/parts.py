"""Generate the build's drawings in ``hardware/parts/`` from the default config.

    python hardware/parts.py            # rewrite hardware/parts/*.svg
    python hardware/parts.py --check    # exit 1 if a committed drawing is out of date

The guide shows these SVGs where they are needed. They come from ``sudoku_table.parts`` with the
defaults of ``[board]`` and ``[build]``, so they cannot drift from the figures the guide quotes.
A maker with other sheets runs ``sudoku-table parts --out DIR --config table.toml`` instead, which
also writes the DXF, the STL meshes and the tiled PDF.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT / "src"))

from sudoku_table.config import Config  # noqa: E402
from sudoku_table.parts.files import svg_drawings  # noqa: E402

OUTPUT = Path(__file__).with_name("parts")


def drawings() -> dict[str, str]:
    """The drawings from the defaults (whatever ``$SUDOKU_TABLE_CONFIG`` says)."""
    config = Config()
    return svg_drawings(config.board.square_mm, config.build, config.hardware.sensors,
                        config.hardware.leds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a committed drawing differs from a fresh one")
    args = parser.parse_args(argv)
    stale = []
    for name, text in drawings().items():
        path = OUTPUT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            OUTPUT.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"out of date: {', '.join(stale)} (run: python hardware/parts.py)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
