"""Duell der Meister: majorities and early claims agree with a brute-force search.

The brute force knows nothing of matchings: it tries every way the opponent could fill any of
the empty cells of a house (different numbers, each allowed in its cell) and compares the full
card rankings, count first, then highest card, next highest and so on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.duell import best_top, claim_holds, house_winner, max_matching, ranking
from sudoku_table.rules.duell.claims import mask_of, numbers_of


def fills(options: Sequence[int], taken: int = 0) -> Iterator[list[int]]:
    """Every way to put different numbers on any subset of cells (``None`` = left empty)."""
    if not options:
        yield []
        return
    first, rest = options[0], options[1:]
    for tail in fills(rest, taken):
        yield tail
    for n in numbers_of(first & ~taken):
        for tail in fills(rest, taken | 1 << n):
            yield [n, *tail]


def brute_force_claim(claimant: list[int], opponent: list[int], options: list[int]) -> bool:
    if not claimant:
        return False
    mine = ranking(claimant)
    return all(ranking(opponent + extra) < mine for extra in fills(options))


def brute_force_matching(options: list[int]) -> int:
    return max(len(extra) for extra in fills(options))


def brute_force_top(options: list[int]) -> int:
    size = brute_force_matching(options)
    return max((max(extra) for extra in fills(options) if len(extra) == size and extra),
               default=0)


@st.composite
def houses(draw: st.DrawFn) -> tuple[list[int], list[int], list[int]]:
    """A house: the claimant's cards, the opponent's, and up to five empty cells with the
    numbers still possible there (never a number already in the house)."""
    numbers = draw(st.permutations(range(1, 10)))
    held = draw(st.integers(0, 9))
    owners = draw(st.lists(st.sampled_from([0, 1, None]), min_size=held, max_size=held))
    claimant = [n for n, o in zip(numbers, owners, strict=False) if o == 0]
    opponent = [n for n, o in zip(numbers, owners, strict=False) if o == 1]
    free = mask_of(numbers[held:])
    empty = draw(st.integers(0, min(5, 9 - held)))
    options = [draw(st.integers(0, 1023)) & free for _ in range(empty)]
    return claimant, opponent, options


@settings(max_examples=300, deadline=None, derandomize=True)
@given(houses())
def test_early_claim_agrees_with_brute_force(house: tuple[list[int], list[int], list[int]]) \
        -> None:
    claimant, opponent, options = house
    assert claim_holds(claimant, opponent, options) == \
        brute_force_claim(claimant, opponent, options)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 1023).map(lambda m: m & 0b11_1111_1110), max_size=5))
def test_matching_and_best_top_agree_with_brute_force(options: list[int]) -> None:
    size = brute_force_matching(options)
    assert max_matching(options) == size
    assert best_top(options) == brute_force_top(options)
    for limit in range(6):  # a bounded search: exact below its limit, the limit at or above
        assert max_matching(options, limit=limit) == min(size, limit)


def test_the_opponent_picks_the_matching_with_the_highest_card() -> None:
    # Claimant: 8 and 2. Opponent: 1, and two empty cells. Cell A takes 9 or 3, cell B takes
    # only 9. Filling both is possible only as A=3, B=9: two new cards with the 9, so the
    # opponent reaches three cards headed by a 9 - more cards than the claimant's two.
    a, b = mask_of([3, 9]), mask_of([9])
    assert not claim_holds([8, 2], [1], [a, b])
    # Now three claimant cards: the opponent can tie at three only with a maximum matching
    # (both cells), which must use the 9: the claimant's 8 loses the tie-break.
    assert not claim_holds([8, 5, 2], [1], [a, b])
    # With the claimant holding the 9 instead, that matching is impossible: B has no number
    # left, A takes 3, the opponent ends with two cards and the claim holds.
    assert claim_holds([9, 5, 2], [1], [mask_of([3]), 0])


def test_the_highest_possible_number_is_always_in_some_maximum_fill() -> None:
    # A takes 9 or 4, B only 4: the 9 on A loses nothing, since B takes the 4.
    assert best_top([mask_of([9, 4]), mask_of([4])]) == 9
    # A and B both take only the 9, C only the 2: two cells fill, one of them with the 9.
    assert best_top([mask_of([9]), mask_of([9]), mask_of([2])]) == 9
    # Three cells limited to 4 or 5: two fill, never higher than 5.
    assert best_top([mask_of([4, 5])] * 3) == 5
    assert best_top([]) == 0 and best_top([0, 0]) == 0


def test_equal_count_is_decided_by_the_highest_card() -> None:
    assert claim_holds([9], [8], [])
    assert not claim_holds([8], [9], [])
    assert claim_holds([9], [], [mask_of([5]), mask_of([5])])      # one 5 only ties, lower
    assert not claim_holds([4], [], [mask_of([5]), mask_of([5])])  # the 5 ties higher
    assert claim_holds([4, 1], [], [mask_of([5]), mask_of([5])])   # the 5 can only go once


def test_nobody_claims_with_no_card() -> None:
    assert not claim_holds([], [], [])
    assert not claim_holds([], [3], [])


def test_house_winner_counts_cards_then_ranks_them() -> None:
    assert house_winner([[1, 2, 3], [9, 8]]) == 0          # more cards beat higher cards
    assert house_winner([[7, 2], [6, 5]]) == 0             # equal count: the 7 beats the 6
    assert house_winner([[6, 5], [7, 2]]) == 1
    assert house_winner([[], []]) is None                  # only gold cards: nobody
    assert house_winner([[4, 3], [4, 2]]) == 0             # equal top: the next card decides
    assert house_winner([[4, 3], [4, 3]]) is None          # identical: nobody
