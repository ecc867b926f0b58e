"""Puzzles by the thousand: every board and difficulty, every puzzle checked, and what making
and grading one costs.

For each board and each difficulty it offers, ``--count`` puzzles (1,000 by default) are made
with seeds 0, 1, 2, ... exactly as the table asks for them (``generate``), and each is checked:
exactly one solution (the exact solver counting up to two), the grade asked for, givens
symmetric about the centre, a difficulty-1 puzzle never needing more than full houses and
hidden singles (not even a naked single), a difficulty 4 or 5 puzzle never finished by the
techniques up to locked candidates. Printed per board and difficulty: the failures (goal 0),
the CPU time of making one (median, p90, max) and the fills it took, the CPU time of grading
one (median, p90, max; budget 100 ms), the givens, and which technique was the hardest.

Times are CPU seconds of the process making the puzzle (the load of other programs does not
change them; the wall clock of the whole run is printed too). "On a Pi 4" multiplies by
``PI_SLOWER``: the project's measured factor for pure Python on a Pi 4's Cortex-A72 against
this development machine (firmware/table.example.toml, bench_review.py).

Run: ``.venv/bin/python bench/bench_puzzles.py [--count N] [--workers N] [--board B]
[--difficulty D]`` (``--board`` and ``--difficulty`` may repeat); exits 1 when a puzzle fails a
check (a seed without a puzzle included) or grading one takes more than 100 ms.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.rules.puzzle import (  # noqa: E402
    BOARD_KEYS,
    PuzzleError,
    board,
    generate,
    grade,
)
from sudoku_table.rules.puzzle.generator import MAX_ATTEMPTS  # noqa: E402
from sudoku_table.rules.puzzle.logic import quick_grade  # noqa: E402
from sudoku_table.rules.solver import count_fills  # noqa: E402

PI_SLOWER = 4.0
"""How much slower a Pi 4 is than the development PC for pure Python (the project's factor)."""
GRADE_BUDGET = 0.100
MAKE_BUDGET = 1.0
"""Median seconds to make a puzzle when asked; slower ones are made ahead (docs/puzzles.md)."""


@dataclass(frozen=True)
class Made:
    """One puzzle made and checked."""

    make_seconds: float
    grade_seconds: float
    attempts: int
    givens: int
    hardest: str
    failures: tuple[str, ...]


def make_and_check(board_key: str, difficulty: int, seed: int) -> Made:
    """Make the puzzle of ``seed`` and check it (see the module's docstring)."""
    puzzle_board = board(board_key)
    start = time.process_time()
    try:
        puzzle = generate(board_key, difficulty, seed)
    except PuzzleError as e:
        spent = time.process_time() - start
        return Made(spent, 0.0, MAX_ATTEMPTS, 0, "none", (f"seed {seed}: {e}",))
    made = time.process_time()
    graded = grade(puzzle_board, puzzle.givens)
    graded_at = time.process_time()
    failures = []
    if count_fills(puzzle_board.geometry, puzzle.givens, limit=2) != 1:
        failures.append("not exactly one solution")
    if graded.difficulty != difficulty:
        failures.append(f"graded {graded.difficulty}")
    turn = puzzle_board.symmetry
    if turn is not None and {turn[c] for c in puzzle.givens} != set(puzzle.givens):
        failures.append("givens not symmetric")
    if difficulty == 1 and not set(graded.techniques) <= {"full_house", "hidden_single"}:
        failures.append("a difficulty-1 puzzle needs more than singles")
    if difficulty >= 4 and quick_grade(puzzle_board, puzzle.givens, 3) is not None:
        failures.append("locked candidates finish it")
    return Made(made - start, graded_at - made, puzzle.attempts, len(puzzle.givens),
                graded.techniques[-1], tuple(failures))


def run(board_key: str, difficulty: int, seed: int) -> Made:
    return make_and_check(board_key, difficulty, seed)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(board_key: str, difficulty: int, results: list[Made]) -> bool:
    """Print one board and difficulty; True when every check and the grading budget held."""
    make = [r.make_seconds for r in results]
    grading = [r.grade_seconds for r in results]
    failed = [r for r in results if r.failures]
    hardest = collections.Counter(r.hardest for r in results)
    median = statistics.median(make)
    print(f"{board_key:9} {difficulty}  {len(results):5}  {len(failed):3}  "
          f"{median:6.3f} {quantile(make, 0.9):6.3f} {max(make):6.2f}  "
          f"{median * PI_SLOWER:6.2f} {quantile(make, 0.9) * PI_SLOWER:6.2f}  "
          f"{statistics.mean(r.attempts for r in results):5.1f} "
          f"{max(r.attempts for r in results):4}  "
          f"{statistics.median(grading) * 1000:5.1f} {quantile(grading, 0.9) * 1000:5.1f} "
          f"{max(grading) * 1000:6.1f}  {statistics.median(r.givens for r in results):4.0f}  "
          + ", ".join(f"{name} {count}" for name, count in hardest.most_common()),
          flush=True)
    for r in failed[:5]:
        print("    failed:", ", ".join(r.failures))
    return not failed and max(grading) <= GRADE_BUDGET


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--board", choices=BOARD_KEYS, action="append")
    parser.add_argument("--difficulty", type=int, choices=range(1, 6), action="append")
    args = parser.parse_args(argv)
    print(f"{args.count} puzzles per board and difficulty, {args.workers} worker(s); "
          f"load average {os.getloadavg()[0]:.1f}. Times in CPU seconds (make) and ms (grade); "
          f"'Pi 4' = x{PI_SLOWER:g}.")
    print("board     d  count fail  make: median    p90    max  Pi 4: med    p90  fills: mean"
          " max  grade ms: med   p90    max  givens  hardest technique")
    started = time.perf_counter()
    good = True
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for board_key in args.board or BOARD_KEYS:
            for difficulty in board(board_key).difficulties:
                if args.difficulty and difficulty not in args.difficulty:
                    continue
                seeds = range(args.count)
                results = list(pool.map(run, [board_key] * len(seeds),
                                        [difficulty] * len(seeds), seeds, chunksize=4))
                good &= report(board_key, difficulty, results)
    minutes = (time.perf_counter() - started) / 60
    print(f"{minutes:.1f} min on the wall clock; load average {os.getloadavg()[0]:.1f}")
    slow = "made ahead where the Pi 4 median passes 1 s (docs/puzzles.md)"
    print(f"budgets: grading at most {GRADE_BUDGET * 1000:.0f} ms; making {MAKE_BUDGET:g} s "
          f"median when asked, {slow}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
