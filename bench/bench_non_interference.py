"""Non-interference of a hidden card over many random games: every game with hidden hands,
each game played twice with only one player's hidden card changed (``tests/web/
non_interference.py``), half with the table dealing. Prints per game how many pairs ran,
how many reached the hidden card, and how many differed anywhere another device looks (the
goal: 0), with the first difference of each.

Run: .venv/bin/python bench/bench_non_interference.py [--games 200] [--only classic-sudoku]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.non_interference import GAMES, play  # noqa: E402


def first_difference(a: object, b: object, path: str = "") -> str:
    """Where two observations first differ, as a path into them."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:120]} | {str(b)[:120]}"


def sweep(variant: str, games: int) -> tuple[int, int, list[str]]:
    """Pairs reaching the card, pairs that differed (with where) over ``games`` seeds."""
    reached, differed = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(games):
            deal = seed % 2 == 0
            a = play(Path(tmp) / f"{seed}a", variant, seed, deal, second=False)
            b = play(Path(tmp) / f"{seed}b", variant, seed, deal, second=True)
            reached += bool(a)
            if a != b:
                differed.append(f"seed {seed} deal {deal}: {first_difference(a, b)}")
    return games, reached, differed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", action="append", choices=GAMES)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # a hint's search stopped by its clock is no finding
    print("| game | pairs | reached the card | differed | seconds |")
    print("|---|---|---|---|---|")
    failed = 0
    for variant in args.only or GAMES:
        start = time.monotonic()
        pairs, reached, differed = sweep(variant, args.games)
        failed += len(differed)
        print(f"| {variant} | {pairs} | {reached} | {len(differed)} | "
              f"{time.monotonic() - start:.0f} |", flush=True)
        for line in differed[:3]:
            print(f"    {line}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
