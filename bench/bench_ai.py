"""How strong the computer opponent is, measured by playing it.

Every level of every game plays against two plain opponents, in both seats, from fixed seeds:

- **random**: each turn draws uniformly among the legal actions of the card or stone in hand
  (in a DOMINARI blank phase: among the blanks and ending the turn);
- **greedy**: looks one action ahead and plays the one after which its own score minus the best
  other score is highest (``Game.scores``: points, markers, pieces borne off); ties are broken
  by material, its own pieces on the board minus the others' (what Revers flips change), then,
  in Halma, by how far its pieces have come towards the exit; remaining ties at random.

Cards and stones are dealt by the bench: before each turn of a hidden-hand game the mover's card
is drawn from their own supply (``Game.hand_supply``) with the game's seed, and both players
play the card they were dealt.

Printed per game, level and opponent: games, win rate with its 95 % Wilson interval (a draw or
a shared first place is no win), draws, and the engine's mean time per move. Then ``normal``
against ``easy`` in every two-player game, and for KOSMOS games with three and four players the
share of first places (shared ones split) of each level at a table of mixed levels (three
players: easy, normal, strong; four: the same plus greedy), every seat order in turn.

The ladder (``--ladder GAMES``): in every two-player game, five players, weakest first:
random, one-look (the family's heuristic one action ahead, the best action always: the
``normal`` search given one position), easy, normal and strong; every pair of them plays GAMES
games, seats swapped every game, fixed seeds, the clock stop off unless ``--seconds`` sets one
(the moves are then the same on any machine, however busy). Printed per game and level: a
Bradley-Terry rating in Elo points (random at 0; 400 points are odds of 10 to 1) with its 95 %
interval from resampling the games of every pairing, the level's score against the level below
(draws half; 95 % Wilson interval) and its seconds per move; then every pair's score.
``--pi`` plays at the Pi's budgets (every level's positions divided by ``PI_DIVISOR``).

Run: ``.venv/bin/python bench/bench_ai.py [--games 30] [--games-fast 20] [--games-multi 24]
[--workers 2]`` (about 40 minutes on a 2-core PC with the defaults)
(``--only VARIANT`` repeats to pick games, ``--levels strong`` to pick levels; ``--games 0
--games-fast 0`` leaves out the duels, ``--players 4`` keeps only the four-player tables;
``--seconds 30`` moves every level's clock safety stop to 30 s, so that on a busy machine the
searches still look at every position of their budget and play as on a quiet one).
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_table.ai import DEFAULT_BUDGETS, LEVELS, Budget, choose  # noqa: E402
from sudoku_table.ai.engine import candidates, draw  # noqa: E402
from sudoku_table.rules.actions import (  # noqa: E402
    Action,
    Move,
    action_number,  # noqa: E402
)
from sudoku_table.rules.game import Game, State, all_variants, new_game  # noqa: E402
from sudoku_table.rules.squares import parse_square  # noqa: E402

KOSMOS_MULTI = ("classic-sudoku", "labyrinth-sudoku", "killer-sudoku", "kakuro", "3d-sudoku",
                "hexa-sudoku")
MAX_ACTIONS = 3000


# --- the plain opponents ---------------------------------------------------------------------

def options(game: Game, state: State, hand: int | None) -> list[Action]:
    actions = candidates(game, state)
    if hand is not None:
        actions = [a for a in actions if action_number(a) == hand]
    return actions


def random_player(game: Game, state: State, hand: int | None, rng: random.Random) -> Action:
    actions = options(game, state, hand)
    return actions[rng.randrange(len(actions))]


def _material(game: Game, state: State, player: int) -> tuple[float, float]:
    mine = others = 0
    advance = 0.0
    for cell, piece in state.board.items():
        if piece.owner == player:
            mine += 1
            f, r = parse_square(cell)
            advance += (f + r) if player == 0 else -(f + r)
        elif piece.owner is not None:
            others += 1
    return float(mine - others), advance


def greedy_player(game: Game, state: State, hand: int | None, rng: random.Random) -> Action:
    mover = state.to_move
    assert mover is not None
    best: tuple[float, ...] | None = None
    chosen: list[Action] = []
    for action in options(game, state, hand):
        after = game.apply(state, action)
        scores = game.scores(after)
        margin = scores[mover] - max(s for p, s in enumerate(scores) if p != mover)
        if after.over and after.winners == (mover,):
            margin = math.inf
        material, advance = _material(game, after, mover)
        key = (margin, material, advance if isinstance(action, Move) else 0.0)
        if best is None or key > best:
            best, chosen = key, [action]
        elif key == best:
            chosen.append(action)
    return chosen[rng.randrange(len(chosen))]


PLAIN: dict[str, Callable[[Game, State, int | None, random.Random], Action]] = {
    "random": random_player, "greedy": greedy_player,
}


# --- one game --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    variant: str
    seats: tuple[str, ...]
    seed: int
    clock: float | None = None
    """The searches' clock safety stop in seconds (None: each level's own)."""
    divisor: int = 1
    """The levels' positions are divided by this (``PI_DIVISOR``: the Pi's budgets)."""


ONE_LOOK = "one-look"
"""A seat that looks one action ahead with the family's heuristic and plays the best: the
``normal`` search given one position (it then looks at every action once and nothing more),
without ``easy``'s random moves."""

PI_DIVISOR = 4
"""The Pi's budgets are the desktop's positions divided by this (the config example's advice
for a Raspberry Pi 4)."""


def seat_budget(seat: str, clock: float | None, divisor: int = 1) -> tuple[str, Budget | None]:
    """The engine's level and budget for a seat of the bench (None: the level's default)."""
    if seat == ONE_LOOK:
        return "normal", Budget(1, clock if clock is not None else math.inf)
    default = DEFAULT_BUDGETS[seat]
    if clock is None and divisor == 1:
        return seat, None
    return seat, Budget(max(1, default.positions // divisor),
                        clock if clock is not None else default.seconds)


@dataclass
class Outcome:
    table: Table
    winners: tuple[int, ...]
    engine_seconds: dict[int, float]
    engine_moves: dict[int, int]


def play(table: Table) -> Outcome:
    game = new_game(table.variant, len(table.seats))
    rng = random.Random(table.seed)
    state = game.initial_state(None)
    seconds: dict[int, float] = defaultdict(float)
    moves: dict[int, int] = defaultdict(int)
    ply = 0
    while not state.over and ply < MAX_ACTIONS:
        mover = state.to_move
        assert mover is not None
        supply = game.hand_supply(state, mover)
        hand = draw(supply, rng) if supply and state.phase is None else None
        seat = table.seats[mover]
        if seat in PLAIN:
            action = PLAIN[seat](game, state, hand, rng)
        else:
            start = time.perf_counter()
            level, budget = seat_budget(seat, table.clock, table.divisor)
            action = choose(game, state, level=level, seed=table.seed * 1000 + ply, hand=hand,
                            budget=budget)
            seconds[mover] += time.perf_counter() - start
            moves[mover] += 1
        state = game.apply(state, action)
        ply += 1
    return Outcome(table, tuple(state.winners) if state.over else (), dict(seconds), dict(moves))


# --- figures ---------------------------------------------------------------------------------

def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def duel_tables(variant: str, level: str, opponent: str, games: int,
                clock: float | None = None) -> list[Table]:
    tables = []
    for i in range(games):
        seats = (level, opponent) if i % 2 == 0 else (opponent, level)
        tables.append(Table(variant, seats, seed=10_000 + i, clock=clock))
    return tables


def summarise(outcomes: Sequence[Outcome], level: str) -> tuple[int, int, int, float]:
    """Games, wins and draws of ``level``, and its mean seconds per move."""
    wins = draws = 0
    seconds = 0.0
    moves = 0
    for o in outcomes:
        seat = o.table.seats.index(level)
        if o.winners == (seat,):
            wins += 1
        elif not o.winners or seat in o.winners:
            draws += 1
        seconds += o.engine_seconds.get(seat, 0.0)
        moves += o.engine_moves.get(seat, 0)
    return len(outcomes), wins, draws, seconds / max(moves, 1)


def duel_line(key: tuple[str, str, str], outcomes: Sequence[Outcome]) -> str:
    """One line of the table: game, level, opponent, games, win rate [CI], draws, s/move."""
    variant, level, opponent = key
    games, wins, draws, per_move = summarise(outcomes, level)
    low, high = wilson(wins, games)
    return (f"{variant:<18} {level:<7} {opponent:<8} {games:>5}  "
            f"{wins / games:>4.0%} [{low:>4.0%}, {high:>4.0%}]     {draws:>5} {per_move:>7.3f}")


# --- the ladder ---------------------------------------------------------------------------------

LADDER = ("random", ONE_LOOK, "easy", "normal", "strong")
"""The ladder's rungs, weakest first."""
ELO = 400 / math.log(10)
"""Bradley-Terry strengths as Elo points: 400 points are odds of 10 to 1."""


def ladder_tables(variant: str, games: int, clock: float | None, divisor: int,
                  rungs: Sequence[str] = LADDER) -> list[Table]:
    """Every pair of rungs, ``games`` games each, seats swapped every game, fixed seeds."""
    tables = []
    for a, b in itertools.combinations(rungs, 2):
        for i in range(games):
            seats = (a, b) if i % 2 == 0 else (b, a)
            tables.append(Table(variant, seats, seed=30_000 + i, clock=clock, divisor=divisor))
    return tables


def scores_of(outcome: Outcome) -> tuple[str, str, float]:
    """The two seats and the first seat's score: 1 a win, 0 a loss, 1/2 a draw or shared
    win."""
    a, b = outcome.table.seats
    if outcome.winners == (0,):
        return a, b, 1.0
    if outcome.winners == (1,):
        return a, b, 0.0
    return a, b, 0.5


def bradley_terry(results: Sequence[tuple[str, str, float]], rungs: Sequence[str],
                  prior: float = 1.0, rounds: int = 500) -> dict[str, float]:
    """Each rung's Bradley-Terry rating in Elo points, the weakest rung at 0.

    Fitted by the minorise-maximise iteration (Hunter 2004) on the scores, with ``prior``
    drawn games against an average virtual opponent per rung, so that a rung that won (or
    lost) every game still gets a finite rating. Written here rather than taken from a
    library: the project's dependencies have no statistics package, and the fit is a few
    lines."""
    index = {r: i for i, r in enumerate(rungs)}
    n = len(rungs)
    wins = [prior / 2] * n
    games = [[0.0] * n for _ in range(n)]
    for a, b, score in results:
        i, j = index[a], index[b]
        wins[i] += score
        wins[j] += 1 - score
        games[i][j] += 1
        games[j][i] += 1
    strength = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            denominator = prior / (strength[i] + 1.0)
            denominator += sum(games[i][j] / (strength[i] + strength[j]) for j in range(n)
                               if j != i and games[i][j])
            new.append(wins[i] / denominator)
        strength = new
    base = strength[0]
    return {r: ELO * math.log(strength[index[r]] / base) for r in rungs}


def bootstrap(results: Sequence[tuple[str, str, float]], rungs: Sequence[str],
              samples: int = 200, seed: int = 1) -> dict[str, tuple[float, float]]:
    """Each rung's 95 % interval of its rating, by resampling the games of every pairing."""
    rng = random.Random(seed)
    by_pair: dict[tuple[str, str], list[tuple[str, str, float]]] = defaultdict(list)
    for result in results:
        by_pair[tuple(sorted(result[:2]))].append(result)  # type: ignore[index]
    found: dict[str, list[float]] = defaultdict(list)
    for _ in range(samples):
        resampled = [rng.choice(pair) for pair in by_pair.values() for _ in pair]
        for rung, rating in bradley_terry(resampled, rungs).items():
            found[rung].append(rating)
    intervals = {}
    for rung, ratings in found.items():
        ratings.sort()
        intervals[rung] = (ratings[int(0.025 * samples)], ratings[int(0.975 * samples) - 1])
    return intervals


def share(results: Sequence[tuple[str, str, float]], upper: str, lower: str) -> tuple[float, int]:
    """``upper``'s score against ``lower`` (draws half) and the games they played."""
    total = 0.0
    n = 0
    for a, b, score in results:
        if {a, b} == {upper, lower}:
            total += score if a == upper else 1 - score
            n += 1
    return total, n


def ladder_lines(variant: str, outcomes: Sequence[Outcome], rungs: Sequence[str]) -> list[str]:
    """The ladder of one game: each rung's rating [95 %] and its score against the rung below
    (with the Wilson interval), and strong against one-look."""
    results = [scores_of(o) for o in outcomes]
    ratings = bradley_terry(results, rungs)
    intervals = bootstrap(results, rungs)
    seconds: dict[str, float] = defaultdict(float)
    moves: dict[str, int] = defaultdict(int)
    for o in outcomes:
        for seat, spent in o.engine_seconds.items():
            seconds[o.table.seats[seat]] += spent
            moves[o.table.seats[seat]] += o.engine_moves.get(seat, 0)
    lines = []
    for below, rung in zip((None, *rungs), rungs, strict=False):
        low, high = intervals[rung]
        text = f"{variant:<18} {rung:<8} {ratings[rung]:>6.0f} [{low:>5.0f}, {high:>5.0f}]"
        if below is not None:
            won, n = share(results, rung, below)
            lo, hi = wilson(won, n)
            text += f"   {won / n:>4.0%} [{lo:>4.0%}, {hi:>4.0%}] of {n:>3} vs {below:<8}"
        else:
            text += " " * 42
        if moves[rung]:
            text += f"  {seconds[rung] / moves[rung]:.3f} s/move"
        lines.append(text)
    pairs = []
    for lower, upper in itertools.combinations(rungs, 2):
        won, n = share(results, upper, lower)
        if n:
            pairs.append(f"{upper} vs {lower} {won / n:.0%}")
    lines.append(f"{variant:<18} every pair (the stronger-named first, its score): "
                 + "; ".join(pairs))
    return lines


def run_ladder(variants: Sequence[str], games: int, clock: float, divisor: int,
               workers: int, rungs: Sequence[str]) -> int:
    """Play and print the ladder of every game in ``variants``."""
    tables = {v: ladder_tables(v, games, clock, divisor, rungs) for v in variants}
    everything = [t for ts in tables.values() for t in ts]
    everything.sort(key=lambda t: -sum(s == "strong" for s in t.seats))
    started = time.perf_counter()
    results: dict[Table, Outcome] = {}
    left = {v: len(ts) for v, ts in tables.items()}
    print(f"{'game':<18} {'level':<8} {'rating [95%]':>20}   score vs the level below "
          f"[95% CI]", flush=True)
    with multiprocessing.Pool(workers) as pool:
        for outcome in pool.imap_unordered(play, everything):
            results[outcome.table] = outcome
            left[outcome.table.variant] -= 1
            if left[outcome.table.variant] == 0:
                variant = outcome.table.variant
                print("\n".join(ladder_lines(variant, [results[t] for t in tables[variant]],
                                             rungs)), flush=True)
    print(f"\n{len(everything)} games in {time.perf_counter() - started:.0f} s with {workers} "
          f"workers; budgets: desktop / {divisor}; clock stop {clock} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30,
                        help="games per line for the strong level (default 30)")
    parser.add_argument("--games-fast", type=int, default=20,
                        help="games per line for easy and normal (default 20)")
    parser.add_argument("--games-multi", type=int, default=24,
                        help="games per KOSMOS table of mixed levels (default 24)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", action="append", default=[], help="a variant id (repeatable)")
    parser.add_argument("--levels", nargs="*", default=list(LEVELS), choices=LEVELS)
    parser.add_argument("--opponents", nargs="*", default=["random", "greedy"],
                        choices=["random", "greedy"])
    parser.add_argument("--no-multi", action="store_true", help="skip the mixed tables")
    parser.add_argument("--players", nargs="*", type=int, default=[3, 4], choices=[3, 4],
                        help="the mixed tables' numbers of players (default 3 4)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="every search's clock safety stop (default: each level's own)")
    parser.add_argument("--ladder", type=int, default=0, metavar="GAMES",
                        help="play the ladder instead: random, one-look, easy, normal, strong, "
                             "GAMES games per pair of levels in every game (seats swapped)")
    parser.add_argument("--pi", action="store_true",
                        help=f"the ladder at the Pi's budgets (positions / {PI_DIVISOR})")
    parser.add_argument("--rungs", nargs="*", default=list(LADDER), choices=LADDER,
                        help="the ladder's levels (default all five)")
    args = parser.parse_args(argv)
    variants = [cls.id for cls in all_variants() if not args.only or cls.id in args.only]
    if args.ladder:
        return run_ladder(variants, args.ladder, args.seconds or math.inf,
                          PI_DIVISOR if args.pi else 1, args.workers,
                          [r for r in LADDER if r in args.rungs])

    duels: dict[tuple[str, str, str], list[Table]] = {}
    for variant in variants:
        for level in args.levels:
            n = args.games if level == "strong" else args.games_fast
            if n <= 0:
                continue
            for opponent in args.opponents:
                duels[(variant, level, opponent)] = duel_tables(variant, level, opponent, n,
                                                                args.seconds)
        if "normal" in args.levels and "easy" in args.levels and args.games_fast > 0:
            duels[(variant, "normal", "easy")] = duel_tables(variant, "normal", "easy",
                                                             args.games_fast, args.seconds)
    multi: dict[tuple[str, int], list[Table]] = {}
    if not args.no_multi:
        for variant in variants:
            if variant not in KOSMOS_MULTI:
                continue
            for players in args.players:
                roster = ["easy", "normal", "strong"] + (["greedy"] if players == 4 else [])
                orders = list(itertools.permutations(roster))
                multi[(variant, players)] = [
                    Table(variant, tuple(orders[i % len(orders)]), seed=20_000 + i,
                          clock=args.seconds)
                    for i in range(args.games_multi)]

    everything = [t for ts in duels.values() for t in ts] + [t for ts in multi.values()
                                                            for t in ts]
    # the slow games first, so that both workers finish together
    everything.sort(key=lambda t: -sum(s == "strong" for s in t.seats))
    started = time.perf_counter()
    results: dict[Table, Outcome] = {}
    line_of = {t: key for key, ts in duels.items() for t in ts}
    left = {key: len(ts) for key, ts in duels.items()}
    with multiprocessing.Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(play, everything), start=1):
            results[outcome.table] = outcome
            key = line_of.get(outcome.table)
            if key is not None:
                left[key] -= 1
                if left[key] == 0:  # a line is complete: show it at once (stderr)
                    print("  " + duel_line(key, [results[t] for t in duels[key]]),
                          file=sys.stderr, flush=True)
            if done % 50 == 0:
                print(f"  ... {done}/{len(everything)} games, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    print(f"{'game':<18} {'level':<7} {'opponent':<8} {'games':>5}  {'win rate [95% CI]':<21} "
          f"{'draws':>5} {'s/move':>7}")
    for key, tables in duels.items():
        print(duel_line(key, [results[t] for t in tables]))
    if multi:
        print()
        print(f"{'game':<18} {'players':>7} {'games':>5}  first places by level "
              "(share [95% CI]); the engine's seconds per move by level")
        for (variant, players), tables in multi.items():
            firsts: dict[str, float] = defaultdict(float)
            seconds: dict[str, float] = defaultdict(float)
            moves: dict[str, int] = defaultdict(int)
            for t in tables:
                o = results[t]
                for seat in o.winners:
                    firsts[t.seats[seat]] += 1 / len(o.winners)
                for seat, spent in o.engine_seconds.items():
                    seconds[t.seats[seat]] += spent
                    moves[t.seats[seat]] += o.engine_moves.get(seat, 0)
            cells = []
            for level in ("easy", "normal", "strong", "greedy")[:players]:
                low, high = wilson(firsts[level], len(tables))
                cells.append(f"{level} {firsts[level] / len(tables):.0%} "
                             f"[{low:.0%}, {high:.0%}]")
            timing = ", ".join(f"{level} {seconds[level] / max(moves[level], 1):.3f}"
                               for level in LEVELS)
            print(f"{variant:<18} {players:>7} {len(tables):>5}  " + "; ".join(cells)
                  + f"  (s/move: {timing})")
    print(f"\n{len(everything)} games in {time.perf_counter() - started:.0f} s "
          f"with {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
