"""Missing and extra pieces are paired by least total distance, not first come."""

from __future__ import annotations

import itertools
import random

from sudoku_table.table.pairing import assign, distance, pair_up


def test_pairing_beats_the_greedy_choice() -> None:
    # Greedy from c1 takes d1 (1) and leaves e1 with a1 (4); the assignment pays 2 + 1.
    assert pair_up(["c1", "e1"], ["d1", "a1"]) == [("a1", "c1"), ("d1", "e1")]


def test_left_over_pieces_are_not_paired() -> None:
    assert pair_up(["a1"], []) == []
    assert pair_up(["a1"], ["i9", "b2"]) == [("b2", "a1")]
    assert pair_up(["a1", "i9"], ["b2"]) == [("b2", "a1")]


def test_assignment_is_optimal_on_random_cases() -> None:
    rng = random.Random(7)
    for _ in range(200):
        n, m = rng.randint(1, 5), rng.randint(1, 6)
        if m < n:
            n, m = m, n
        costs = [[rng.randint(0, 20) for _ in range(m)] for _ in range(n)]
        got = assign(costs)
        assert len(set(got)) == n
        best = min(sum(costs[i][p[i]] for i in range(n))
                   for p in itertools.permutations(range(m), n))
        assert sum(costs[i][got[i]] for i in range(n)) == best


def test_distance() -> None:
    assert distance("a1", "a1") == 0
    assert distance("a1", "d5") == 5
