"""What Duell der Meister's early claims cost: one action, and a computer move built on many.

Every action of Duell der Meister looks for the houses decided for each player (a matching over
each open house's empty cells), so its cost is felt most in the computer's search, which applies
one action per position it looks at (the strong level: 800 positions a move, with a 1 s clock
safety stop). On a Raspberry Pi, Python runs several times slower than on a desktop PC, so a few
tenths of a millisecond per action decide whether a strong move stays inside its clock.

Positions come from random games of fixed seeds (each action drawn among the legal ones, on the
default gold cards); every position that is not over gets one random legal action. Measured in
CPU time of this process (so that other programs on a busy machine count as little as possible),
the best of several rounds:

- ``apply``: one action, median over the rounds' means, in microseconds;
- ``claims``: of that, finding the houses decided for both players on the new board;
- ``strong move``: the strong level's whole move from positions among the first 30 actions of
  the same games, with the clock safety stop moved out of the way, so that every move looks at
  all 800 positions.

Run: ``.venv/bin/python bench/bench_duell.py [--games 12] [--rounds 5] [--moves 12]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_table.ai import DEFAULT_BUDGETS, Budget, choose  # noqa: E402
from sudoku_table.rules.actions import Action  # noqa: E402
from sudoku_table.rules.duell import game as duell  # noqa: E402
from sudoku_table.rules.game import State, new_game  # noqa: E402

VARIANT = "duell-der-meister"


def positions(games: int, seed: int) -> list[list[tuple[State, Action]]]:
    """Per random game of ``games``, one random legal action for every position of it."""
    game = new_game(VARIANT)
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        pairs: list[tuple[State, Action]] = []
        state = game.initial_state(None)
        while not state.over:
            action = rng.choice(list(game.legal_actions(state)))
            pairs.append((state, action))
            state = game.apply(state, action)
        played.append(pairs)
    return played


def cpu_per_call(run: Callable[[], object], calls: int, rounds: int) -> float:
    """Microseconds of CPU per call of the ``calls`` that ``run`` makes, best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def claims_of(state: State) -> object:
    """The houses decided for each player on ``state``'s board, as ``apply`` looks for them."""
    if hasattr(duell, "house_views"):  # one look at the board serves both players
        views = duell.house_views(state.board, state.markers)  # type: ignore[attr-defined]
        return [duell.decided_houses(state, p, views) for p in (0, 1)]  # type: ignore
    return [duell.decided_houses(state, p) for p in (0, 1)]  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="random games for the positions")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the best one counts")
    parser.add_argument("--moves", type=int, default=12, help="strong moves timed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = new_game(VARIANT)
    played = positions(args.games, args.seed)
    pairs = [pair for game_pairs in played for pair in game_pairs]
    afters = [game.apply(s, a) for s, a in pairs]

    def apply_all() -> None:
        for state, action in pairs:
            game.apply(state, action)

    def claims_all() -> None:
        for state in afters:
            claims_of(state)

    apply_us = cpu_per_call(apply_all, len(pairs), args.rounds)
    claims_us = cpu_per_call(claims_all, len(afters), args.rounds)
    print(f"{len(pairs)} actions from {args.games} random games (CPU time, best of "
          f"{args.rounds} rounds)")
    print(f"apply, per action:                       {apply_us:8.0f} us")
    print(f"claims for both players, per action:     {claims_us:8.0f} us")

    budget = Budget(DEFAULT_BUDGETS["strong"].positions, 3600.0)
    # The same positions under any ruling: the boards of a game's first 30 actions do not depend
    # on when houses are awarded (a game of Duell lasts well beyond 30 actions).
    picks = [played[i % len(played)][6 + 23 * i % 24][0] for i in range(args.moves)]
    seconds = []
    for i, state in enumerate(picks):
        start = time.process_time()
        choose(game, state, level="strong", seed=i, budget=budget)
        seconds.append(time.process_time() - start)
    print(f"strong move ({budget.positions} positions), median of {len(picks)}: "
          f"{statistics.median(seconds) * 1000:6.0f} ms (max {max(seconds) * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
