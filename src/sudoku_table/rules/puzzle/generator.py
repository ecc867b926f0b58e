"""Puzzles made by seed: one solution each, graded by the techniques a person needs.

``generate(board, difficulty, seed)`` starts from a random complete fill of the board (the
exact solver's), then takes givens away, a pair of squares symmetric about the centre at a time
(one square where the board has no such symmetry), in a random order, keeping each removal only
while the techniques up to the difficulty still finish the puzzle. What is left needs no more
than the difficulty; it is offered when its grade is exactly the difficulty.

Most such puzzles are easier than asked (of random minimal puzzles most need singles only), so
a puzzle that falls short climbs: a few removed pairs are put back and the givens left are
tried for removal again; the new puzzle is kept when it is at least as hard. After
``CLIMB_MOVES`` moves without reaching the difficulty the next fill is tried. The uniqueness of
the puzzle offered is proven once more by the exact solver (counting solutions up to two),
whatever the logic says.

Everything random comes from one ``random.Random`` seeded from ``GENERATOR_VERSION``, the
board, the difficulty and the seed, so the same four always give the same puzzle on every
machine. A change to this module, to the techniques or to the exact solver's fill that changes
any puzzle must raise ``GENERATOR_VERSION`` (tests/rules/test_puzzle_generator.py pins a few).

The puzzle of the day is the puzzle whose seed is the local date (``20250614``): every table of
one version offers the same one on the same day.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from ..solver import count_fills, random_fill
from ..wording import N_
from .boards import PuzzleBoard, PuzzleError, board
from .grid import reading_key
from .logic import grade, quick_grade, solvable

GENERATOR_VERSION = 1
"""Seeds give the same puzzles as long as this stays; raise it whenever they would not."""

MAX_ATTEMPTS = 10_000
"""Fills tried before a request is refused. An offered difficulty must never be refused (the
puzzle of the day is one seed per day), so this lies far beyond what any of them needs: the
rarest, the 6x6's difficulty 3, takes about 60 fills on average, so the chance of a seed
passing 10,000 is below 1e-70 (bench/bench_puzzles.py prints the most fills any seed took)."""
CLIMB_MOVES = {"classic": 40, "labyrinth": 40, "six": 10}
"""Climbing moves from one fill before the next fill is tried (measured: on the 6x6, whose
fills cost next to nothing, a fill that does not get there soon seldom does)."""
PUT_BACK = 3
"""Removed groups a climbing move puts back."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A puzzle with its solution and grade."""

    board: str
    difficulty: int | None
    """None for a brought puzzle the table's techniques cannot finish."""
    seed: int | None
    """None for a brought puzzle."""
    givens: Mapping[str, int]
    solution: Mapping[str, int]
    techniques: tuple[str, ...]
    """The ids of the techniques its walk needs, the hardest last."""
    version: int = GENERATOR_VERSION
    attempts: int = 1
    """How many fills it took (for the bench; not part of the puzzle)."""

    def to_json(self) -> dict[str, object]:
        """The puzzle as ``sudoku-table puzzle`` prints it."""
        puzzle_board = board(self.board)
        boxes = puzzle_board.boxes()
        return {
            "board": self.board,
            "difficulty": self.difficulty,
            "seed": self.seed,
            "version": self.version,
            "givens": {c: self.givens[c] for c in sorted(self.givens, key=_top_first)},
            "solution": {c: self.solution[c] for c in sorted(self.solution, key=_top_first)},
            "regions": [list(cells) for cells in boxes.values()],
            "region_names": list(boxes),
            "techniques": list(self.techniques),
        }


def _top_first(cell: str) -> tuple[int, int]:
    """Top rank first, left to right: the order a puzzle is printed and typed in."""
    rank, file = reading_key(cell)
    return -rank, file


def rng_for(board_key: str, difficulty: int, seed: int) -> random.Random:
    """The one random source of a puzzle, from the generator's version, the board, the
    difficulty and the seed (a hash, so that the seed means the same on every machine and
    Python)."""
    text = f"sudoku-table puzzle v{GENERATOR_VERSION} {board_key} {difficulty} {seed}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def generate(board_key: str, difficulty: int, seed: int) -> Puzzle:
    """The puzzle of ``board_key`` at ``difficulty`` for ``seed`` (see the module's docstring).
    ``PuzzleError`` for an unknown board or a difficulty the board does not offer."""
    puzzle_board = board(board_key)
    if difficulty not in puzzle_board.difficulties:
        raise PuzzleError(N_("the {board} board offers difficulties {offered}, not {difficulty}"),
                          board=board_key, offered=list(puzzle_board.difficulties),
                          difficulty=difficulty)
    rng = rng_for(board_key, difficulty, seed)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        fill = random_fill(puzzle_board.geometry, rng.getrandbits(32))
        givens = climb(puzzle_board, fill, difficulty, rng)
        if givens is None:
            continue
        graded = grade(puzzle_board, givens)
        if graded.difficulty == difficulty:
            if count_fills(puzzle_board.geometry, givens, limit=2) != 1:
                raise AssertionError("a logically solved puzzle has more than one solution")
            return Puzzle(board_key, difficulty, seed, givens, fill, graded.techniques,
                          attempts=attempt)
    raise PuzzleError(N_("no puzzle of difficulty {difficulty} on the {board} board after "
                      "{attempts} attempts"), difficulty=difficulty, board=board_key,
                      attempts=MAX_ATTEMPTS)


def climb(puzzle_board: PuzzleBoard, fill: Mapping[str, int], difficulty: int,
          rng: random.Random) -> dict[str, int] | None:
    """Givens of ``fill`` whose grade is ``difficulty``: carved, then climbing (see the
    module's docstring); None when ``CLIMB_MOVES`` moves do not reach it."""
    givens = carve(puzzle_board, fill, difficulty, rng)
    level = quick_grade(puzzle_board, givens, difficulty) or 0
    for _ in range(CLIMB_MOVES[puzzle_board.key]):
        if level == difficulty:
            return givens
        moved = _move(puzzle_board, fill, givens, difficulty, rng)
        moved_level = quick_grade(puzzle_board, moved, difficulty) or 0
        if moved_level >= level:
            givens, level = moved, moved_level
    return givens if level == difficulty else None


def carve(puzzle_board: PuzzleBoard, fill: Mapping[str, int], difficulty: int,
          rng: random.Random, givens: Mapping[str, int] | None = None,
          keep: frozenset[str] = frozenset()) -> dict[str, int]:
    """Givens taken away (from ``givens``, by default all of ``fill``) while the techniques up
    to ``difficulty`` still finish the puzzle: symmetric pairs, in a random order, each tried
    once; the cells of ``keep`` stay."""
    result = dict(fill if givens is None else givens)
    for group in _removal_order(puzzle_board, rng):
        if group[0] not in result or group[0] in keep:
            continue
        taken = {c: result.pop(c) for c in group}
        if not solvable(puzzle_board, result, difficulty):
            result.update(taken)
    return result


def _move(puzzle_board: PuzzleBoard, fill: Mapping[str, int], givens: Mapping[str, int],
          difficulty: int, rng: random.Random) -> dict[str, int]:
    """One climbing move: ``PUT_BACK`` removed groups back, then the other givens carved
    again."""
    removed = [g for g in _removal_order(puzzle_board, rng) if g[0] not in givens]
    back = rng.sample(removed, min(PUT_BACK, len(removed)))
    moved = dict(givens)
    for group in back:
        moved.update({c: fill[c] for c in group})
    return carve(puzzle_board, fill, difficulty, rng, moved,
                 frozenset(c for group in back for c in group))


def _removal_order(puzzle_board: PuzzleBoard, rng: random.Random) -> list[tuple[str, ...]]:
    """The cells in groups that are taken away together (a cell and its partner under the
    board's half turn), shuffled."""
    turn = puzzle_board.symmetry
    groups: dict[frozenset[str], tuple[str, ...]] = {}
    for cell in puzzle_board.geometry.cells:
        partner = cell if turn is None else turn[cell]
        groups.setdefault(frozenset((cell, partner)), tuple(sorted({cell, partner})))
    order = list(groups.values())
    rng.shuffle(order)
    return order


def day_seed(day: date) -> int:
    """The seed of a local date: ``20250614`` for the 14th of June 2025."""
    return day.year * 10000 + day.month * 100 + day.day


def puzzle_of_the_day(day: date, board_key: str, difficulty: int) -> Puzzle:
    """The puzzle every table of this generator's version offers on ``day`` (the table's local
    date) for this board and difficulty."""
    return generate(board_key, difficulty, day_seed(day))
