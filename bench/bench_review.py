"""How long the review of a whole game takes, for each of the twelve games.

Each game is a full finished game: the longest finished reference record of its variant in
``tests/data/examples`` where there is one; the five KOSMOS variants without one (Labyrinth,
Killer, Kakuro, 3D, Hexa) get a game the computer plays against itself at ``normal`` (two
players, fixed seed), the same on every run. Every move is judged as the table's worker does
(``sudoku_table.ai.review.judge`` at ``strong``, with the review's clock, one move after another in
this process), once with the default budgets (``[computer]`` of a desktop PC) and once with the
budgets ``src/sudoku_table/firmware/table.example.toml`` proposes for a Pi 4 (``strong_positions =
200``).

Printed per game and budget, in CPU seconds of this process (what the judging costs, the same
on a busy machine as on an idle one; the wall clock is printed too): moves, the first move
(what the review page shows first), the median and slowest move, and the whole game; for the Pi
budgets also the whole game estimated on a Pi 4, at the example config's "about four times
slower". Then the time from asking for a review to its first judgement through the real worker
process (``Reviews``, spawned fresh: the start of a Python process with the rules and the
engine, plus the first move), on the wall clock.

Run: ``.venv/bin/python bench/bench_review.py [--only VARIANT] [--budgets desktop|pi|both]``.
Timing figures move with the machine's load: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.ai import Budget, ComputerConfig, choose  # noqa: E402
from sudoku_table.ai.review import judge, review_budget  # noqa: E402
from sudoku_table.rules.game import all_variants, new_game  # noqa: E402
from sudoku_table.rules.record import Record, replay  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples"
PI_SLOWER = 4.0
"""How much slower a Pi 4 is than the desktop PC (the config example,
``firmware/table.example.toml``, says so)."""
BUDGETS = {"desktop": ComputerConfig(), "pi": ComputerConfig(strong_positions=200)}


def finished_example(variant: str) -> dict[str, Any] | None:
    """The longest finished reference record of ``variant``, if there is one."""
    best = None
    for path in sorted(EXAMPLES.glob(f"{variant}-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["state"].get("over") and (
                best is None or len(data["record"]["actions"]) > len(best["actions"])):
            best = data["record"]
    return best


def played_game(variant: str, seed: int = 1) -> dict[str, Any]:
    """A whole game the computer plays against itself at ``normal`` (two players)."""
    game = new_game(variant, 2)
    state = game.initial_state(game.default_setup())
    actions = []
    move = 0
    while not state.over:
        action = choose(game, state, level="normal", seed=seed * 1000 + move,
                        budget=Budget(150, 60.0))
        actions.append(action.to_json())
        state = game.apply(state, action)
        move += 1
    return {"variant": variant, "players": 2, "options": dict(game.options),
            "setup": {c: p.to_json() for c, p in game.default_setup().items()},
            "actions": actions}


def time_review(record: dict[str, Any], config: ComputerConfig) -> tuple[list[float], float]:
    """CPU seconds per move judging the whole game at ``strong`` with ``config``'s budget, and
    the whole game on the wall clock."""
    rec = Record.from_json(record)
    game, states = replay(rec)
    budget = review_budget(config.budget("strong"))
    times = []
    wall = time.perf_counter()
    for index, action in enumerate(rec.actions):
        started = time.process_time()
        judge(game, states[index], action, index=index, budget=budget)
        times.append(time.process_time() - started)
    return times, time.perf_counter() - wall


def first_through_the_worker(record: dict[str, Any]) -> float:
    """Seconds from asking the real worker process for a review to its first judgement."""
    from sudoku_table.table.reviews import Reviews

    with tempfile.TemporaryDirectory() as folder:
        reviews = Reviews(Path(folder) / "reviews", BUDGETS["desktop"], workers="process")
        started = time.perf_counter()
        reviews.request(record)
        seen = reviews.changes
        while reviews.progress(record).done < 1:
            seen = reviews.wait_for_change(seen, timeout=60)
        elapsed = time.perf_counter() - started
        reviews.close()
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", default=[], help="a variant id (repeat)")
    parser.add_argument("--budgets", choices=("desktop", "pi", "both"), default="both")
    parser.add_argument("--no-worker", action="store_true",
                        help="leave out the time to a first judgement through the worker")
    args = parser.parse_args()
    chosen = ["desktop", "pi"] if args.budgets == "both" else [args.budgets]
    print(f"load average at start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'game':<18} {'budget':<8} {'moves':>5} {'first s':>8} {'median s':>9} "
          f"{'slowest s':>10} {'game s':>8} {'on a Pi 4':>10} {'wall s':>8}")
    records = {}
    for cls in all_variants():
        if args.only and cls.id not in args.only:
            continue
        record = finished_example(cls.id)
        source = "example"
        if record is None:
            record, source = played_game(cls.id), "played"
        records[cls.id] = record
        for name in chosen:
            times, wall = time_review(record, BUDGETS[name])
            total = sum(times)
            pi = f"{total * PI_SLOWER / 60:.1f} min" if name == "pi" else ""
            print(f"{cls.id:<18} {name:<8} {len(times):>5} {times[0]:>8.2f} "
                  f"{statistics.median(times):>9.2f} {max(times):>10.2f} {total:>8.1f} "
                  f"{pi:>10} {wall:>8.1f}  ({source}, {record.get('players', 2)} players)",
                  flush=True)
    if records and not args.no_worker:
        first = next(iter(records.values()))
        print(f"asking the worker process to its first judgement "
              f"({first['variant']}): {first_through_the_worker(first):.2f} s")
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
