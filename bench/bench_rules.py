"""How fast the rules handle one action, per variant, on this machine.

For every registered variant, random games (each action drawn among the legal ones) supply
positions; for each position one legal action is timed through what the table does on every
event: ``check`` + ``apply`` + ``dead_fields`` + ``scores`` of the new position. Prints the
median and 99th percentile per action, and how many complete random games run per second
(listing the legal actions at every step included). The budget for the DOMINARI games is under
1 ms median per action.

Run: ``.venv/bin/python bench/bench_rules.py [--seconds 2.0]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_table.rules.game import Game, State, all_variants, new_game  # noqa: E402

BUDGET_MS = 1.0
DOMINARI = ("halma-dominari", "vierer-dominari", "revers-dominari", "score-dominari")
BUDGETS_MS: dict[str, float] = {"duell-der-meister": 2.0}
"""Median budgets per action of other variants (Duell: its early claims run inside apply)."""
KOSMOS = ("classic-sudoku", "labyrinth-sudoku", "killer-sudoku", "kakuro", "3d-sudoku",
          "hexa-sudoku")
BUDGETS_MS.update({variant: 2.0 for variant in KOSMOS})
BUDGETS_MS["sudoku-family"] = 2.0


def random_game(game: Game, rng: random.Random, limit: int = 2000) -> list[State]:
    """Every position of one random game."""
    state = game.initial_state(None)
    states = [state]
    for _ in range(limit):
        if state.over:
            break
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
        states.append(state)
    return states


def time_actions(game: Game, rng: random.Random, seconds: float) -> list[float]:
    """Seconds per action for actions from many random positions."""
    timings: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for state in random_game(game, rng):
            if state.over:
                continue
            action = rng.choice(list(game.legal_actions(state)))
            start = time.perf_counter()
            assert game.check(state, action) is None
            after = game.apply(state, action)
            game.dead_fields(after)
            game.scores(after)
            timings.append(time.perf_counter() - start)
    return timings


def games_per_second(game: Game, rng: random.Random, seconds: float) -> float:
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or played == 0:
        random_game(game, rng)
        played += 1
    return played / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time spent per variant on each measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{'variant':<20} {'actions':>8} {'median ms':>10} {'p99 ms':>8} {'games/s':>8}")
    over_budget = []
    for cls in all_variants():
        game = new_game(cls.id)
        try:
            timings = sorted(time_actions(game, rng, args.seconds))
            rate = games_per_second(game, rng, args.seconds / 2)
        except NotImplementedError:
            print(f"{cls.id:<20} {'not implemented yet':>36}")
            continue
        median = statistics.median(timings) * 1000
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1000
        print(f"{cls.id:<20} {len(timings):>8} {median:>10.3f} {p99:>8.3f} {rate:>8.1f}")
        if cls.id in DOMINARI and median >= BUDGET_MS:
            over_budget.append(cls.id)
        if cls.id in BUDGETS_MS and median >= BUDGETS_MS[cls.id]:
            over_budget.append(f"{cls.id} ({BUDGETS_MS[cls.id]} ms)")
    if over_budget:
        print(f"over the {BUDGET_MS} ms median budget: {', '.join(over_budget)}")
        return 1
    print(f"DOMINARI games within the {BUDGET_MS} ms median budget per action")
    for variant, budget in BUDGETS_MS.items():
        print(f"{variant} within its {budget} ms median budget per action")
    return 0


if __name__ == "__main__":
    sys.exit(main())
