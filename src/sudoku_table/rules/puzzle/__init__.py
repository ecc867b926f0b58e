"""Solo Sudoku puzzles: a logical solver that grades as people feel it, a generator by seed,
hints that teach, and typed puzzles checked for one solution (docs/puzzles.md).

Pure like the rest of ``rules``: no I/O, no clock, no global random state. The modules, from
the bottom: ``boards`` (the three boards and how houses are named), ``grid`` (the solver's
bit-mask grid), ``techniques`` (one function per technique, each returning a ``Step``),
``logic`` (the walk, ``grade``, ``next_step``), ``generator`` (``generate``,
``puzzle_of_the_day``), ``words`` (names and sentences as data), ``hints`` (``hint``,
``candidates``, ``clashes``, ``mistakes``) and ``text`` (typed puzzles).
"""

from .boards import BOARD_KEYS, PuzzleBoard, PuzzleError, board, six_geometry
from .generator import GENERATOR_VERSION, Puzzle, generate, puzzle_of_the_day
from .hints import Clash, Hint, candidates, clashes, hint, mistakes, placement_chain, step_said
from .logic import Grade, grade, next_step, steps
from .techniques import TECHNIQUES, Step, Technique
from .text import check_puzzle, load_puzzle, parse_puzzle, puzzle_text
from .words import DIFFICULTIES, GERMAN, TECHNIQUE_NAMES, TEXTS, Difficulty, Said

__all__ = [
    "BOARD_KEYS",
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "GERMAN",
    "TECHNIQUES",
    "TECHNIQUE_NAMES",
    "TEXTS",
    "Clash",
    "Difficulty",
    "Grade",
    "Hint",
    "Puzzle",
    "PuzzleBoard",
    "PuzzleError",
    "Said",
    "Step",
    "Technique",
    "board",
    "candidates",
    "check_puzzle",
    "clashes",
    "generate",
    "grade",
    "hint",
    "load_puzzle",
    "mistakes",
    "next_step",
    "parse_puzzle",
    "placement_chain",
    "puzzle_of_the_day",
    "puzzle_text",
    "six_geometry",
    "step_said",
    "steps",
]
