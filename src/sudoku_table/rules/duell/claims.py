"""Who wins a house in Duell der Meister, and when a house is already decided.

Numbers are handled as bit masks: number ``n`` is the bit ``1 << n``, so a set of numbers 1-9 is
one small integer. Everything here is pure and knows nothing of cells or boards: a house is
described by the cards each player holds in it and, for each of its empty cells, the mask of
numbers that could still go there.

A house goes to the player with more cards in it; with equal counts the player whose highest
card is higher wins, then the next highest, and so on (``ranking``). The numbers in one house are
all different, so two different players' rankings are never equal unless both hold nothing.

A house is decided for a claimant when even the opponent's best case cannot outdo the claimant's
cards as they stand. The opponent's best case fills as many empty cells as possible: a maximum
matching between the empty cells and the numbers still possible in them. More cells than that
cannot be filled; to tie the count the opponent must fill that many, and the highest card they
can then reach is the highest number used by any maximum matching (``best_top``), which is
always the highest number still possible in any of the empty cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

ALL_NUMBERS = 0b11_1111_1110
"""Bits 1..9: every number of the game."""


def numbers_of(mask: int) -> list[int]:
    """The numbers whose bits are set in ``mask``, ascending."""
    return [n for n in range(1, 10) if mask >> n & 1]


def mask_of(numbers: Iterable[int]) -> int:
    """The bit mask of ``numbers``."""
    mask = 0
    for n in numbers:
        mask |= 1 << n
    return mask


def ranking(numbers: Iterable[int]) -> tuple[int, tuple[int, ...]]:
    """How a player's cards in a house compare: more cards first, then the highest card, the
    next highest and so on. Greater is better."""
    ordered = tuple(sorted(numbers, reverse=True))
    return len(ordered), ordered


def house_winner(cards: Sequence[Iterable[int]]) -> int | None:
    """The player whose cards in a house rank highest, or None when nobody holds a card there
    or the best rankings are equal."""
    rankings = [ranking(c) for c in cards]
    best = max(rankings)
    if best[0] == 0 or rankings.count(best) > 1:
        return None
    return rankings.index(best)


def max_matching(options: Sequence[int], limit: int | None = None) -> int:
    """The most empty cells that can be filled at once with different numbers, where
    ``options[i]`` is the mask of numbers cell ``i`` may take (augmenting paths); with ``limit``,
    the search stops once that many are found (the answer is then ``limit``: at least as many)."""
    holder: dict[int, int] = {}  # number -> cell index holding it

    def augment(cell: int, seen: int) -> tuple[bool, int]:
        choices = options[cell] & ~seen
        while choices:
            bit = choices & -choices
            choices ^= bit
            seen |= bit
            n = bit.bit_length() - 1
            other = holder.get(n)
            if other is None:
                holder[n] = cell
                return True, seen
            moved, seen = augment(other, seen)
            if moved:
                holder[n] = cell
                return True, seen
        return False, seen

    size = 0
    for cell in range(len(options)):
        if size == limit:
            break
        if options[cell] and augment(cell, 0)[0]:
            size += 1
    return size


def best_top(options: Sequence[int]) -> int:
    """The highest number that some maximum matching of ``options`` uses (0 when no cell can be
    filled).

    This is simply the highest number possible in any empty cell: take a maximum matching
    without it and a cell ``c`` that allows it. ``c`` is matched (otherwise adding it would make
    the matching larger), so putting the high number on ``c`` instead of its current one gives
    another maximum matching that uses it. The tests check this against a brute force.
    """
    union = 0
    for mask in options:
        union |= mask
    return union.bit_length() - 1 if union else 0


def claim_holds(claimant: Sequence[int], opponent: Sequence[int],
                options: Sequence[int]) -> bool:
    """Whether a house is decided for the claimant: with the claimant's cards ``claimant``, the
    opponent's ``opponent``, and ``options[i]`` the numbers the opponent could still put on the
    house's empty cell ``i``, even the opponent's best case ranks lower than the claimant."""
    have, mine = len(claimant), len(opponent)
    if have == 0 or mine > have:
        return False
    # Quick answers before any matching: too few empty cells to catch up, or already level.
    open_cells = sum(1 for m in options if m)
    if mine + open_cells < have:
        return True
    # Only whether the opponent can reach the claimant's count, or pass it, matters: the
    # matching may stop one cell beyond the count that would tie.
    size = max_matching(options, limit=have - mine + 1)
    if mine + size != have:
        return mine + size < have
    top_claimant = max(claimant)
    if max(opponent, default=0) > top_claimant:
        return False
    return best_top(options) < top_claimant
