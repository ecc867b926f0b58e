"""How far each level's search sees beyond one look, in the games of hidden cards.

For positions of seeded games (both seats played by the one-look player, the bench's cards
dealt from each player's own supply), prints per game and level: the mover's actions for the
card in hand, and how many of them the search judged by the next player's replies (the rest
keep their one-look value), with the positions that took. The ``strong`` level of the KOSMOS
games is an expectimax (every card of the next player); every other search here is the tree
search, which judges a reply against one card drawn at random. It shows where the budget goes: in
a game of 40-80 open cells and up to nine cards, one action's replies cost hundreds of looks,
so a budget of a few hundred positions judges one or two actions beyond one look, and the
``normal`` tree search judges each of those against one card drawn at random.

Run: ``.venv/bin/python bench/bench_ai_width.py [--games 3] [--only VARIANT]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_table.ai import DEFAULT_BUDGETS, Budget  # noqa: E402
from sudoku_table.ai.engine import (  # noqa: E402
    Search,
    candidates,
    decide,
    draw,
    group_by_number,
    play_turn,
)
from sudoku_table.ai.heuristics import heuristic_for  # noqa: E402
from sudoku_table.rules.actions import action_number  # noqa: E402
from sudoku_table.rules.game import Game, State, new_game  # noqa: E402

HIDDEN = ("classic-sudoku", "kakuro", "3d-sudoku", "duell-der-meister")


def positions_of(game: Game, seed: int, every: int = 6) -> list[tuple[State, int]]:
    """Every ``every``-th position of a seeded one-look game, with the card in hand."""
    rng = random.Random(seed)
    heuristic = heuristic_for(game)
    state = game.initial_state(None)
    found = []
    ply = 0
    while not state.over and state.to_move is not None:
        supply = game.hand_supply(state, state.to_move)
        hand = draw(supply, rng) if supply else None
        actions = [a for a in candidates(game, state) if action_number(a) == hand]
        if ply % every == 0 and hand is not None and len(actions) > 1:
            found.append((state, hand))
        looked = decide(game, state, level="normal", hand=hand,
                        budget=Budget(1, float("inf"))).action
        state = play_turn(game, state, looked, heuristic)
        ply += 1
    return found


def reply_cost(game: Game, after: State) -> int:
    """The looks it takes to judge a position by the next player's best reply to every card
    they may hold (what the ``strong`` KOSMOS search does per action)."""
    if after.over or after.to_move is None:
        return 0
    groups = group_by_number(candidates(game, after))
    supply = game.hand_supply(after, after.to_move) or {}
    return sum(len(groups[n]) for n, left in supply.items() if left > 0 and n in groups)


def strong_width(game: Game, state: State, hand: int, budget: Budget) -> tuple[int, int]:
    """Actions judged by the replies, and positions used, in the ``strong`` expectimax."""
    heuristic = heuristic_for(game)
    actions = [a for a in candidates(game, state) if action_number(a) == hand]
    positions = len(actions)
    judged = 0
    for rank, action in enumerate(actions):
        if rank >= 2 and positions >= budget.positions:
            break
        positions += reply_cost(game, play_turn(game, state, action, heuristic))
        judged += 1
    return judged, positions


def normal_width(game: Game, state: State, hand: int, budget: Budget) -> tuple[int, int]:
    """Root actions whose replies the ``normal`` tree search opened, and positions used."""
    search = Search(game, heuristic_for(game), random.Random(0), budget)
    root = search.node(state)
    rounds = 0
    while search.positions < budget.positions and rounds < 2 * budget.positions:
        search.iterate(root, hand)
        rounds += 1
    return sum(1 for child in root.children.values() if child.children), search.positions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args(argv)
    print(f"{'game':<18} {'level':<7} {'search':<10} {'positions':>9} {'actions':>8} "
          f"{'judged beyond one look':>23} {'looks used':>10}")
    for variant in args.only or HIDDEN:
        game = new_game(variant, 2)
        found = [p for seed in range(args.games) for p in positions_of(game, seed)]
        widths = [len([a for a in candidates(game, s) if action_number(a) == h])
                  for s, h in found]
        expectimax = heuristic_for(game).search == "expectimax"
        for level in ("normal", "strong"):
            measure = strong_width if level == "strong" and expectimax else normal_width
            budget = Budget(DEFAULT_BUDGETS[level].positions, float("inf"))
            judged = [measure(game, s, h, budget) for s, h in found]
            search = "expectimax" if measure is strong_width else "tree"
            print(f"{variant:<18} {level:<7} {search:<10} {budget.positions:>9} "
                  f"{statistics.median(widths):>8.0f} "
                  f"{statistics.median(j for j, _ in judged):>12.0f} "
                  f"(max {max(j for j, _ in judged):>3})"
                  f" {statistics.median(p for _, p in judged):>15.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
