"""Solo Sudoku: one player solves a puzzle on the table, as one more game of the house.

The puzzle comes from the game's options: a board (``classic``, ``six``, ``labyrinth``), a
difficulty and a seed, which name one puzzle of the generator (``generate``), or ``givens``
brought along (typed as a line of characters or as cells and numbers), checked for exactly one
solution before play. Its givens are the game's set-up: pieces of nobody (``owner`` None) that
the table guides onto the board, lighting every square of one number at once
(``setup_by_number``). The player then places the missing numbers, one piece at a time, under
the house rule of every game here: a number stands once in each rank, file and block or region.
A number that breaks it is refused, as in the other games; a number that keeps it but is not
the solution's is allowed (the player finds out, or asks for help).

The game ends when the board is full (the puzzle is solved: with the house rule kept and one
solution, a full board is that solution), or when some empty cell has no number left that the
house rule allows (a dead end: an earlier number was wrong; the table's take-back undoes it).
The score is the number of pieces the player placed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from datetime import date
from functools import lru_cache
from typing import Any, ClassVar

from ..actions import Action, Place
from ..errors import Illegal, RecordError
from ..game import (
    PLACEMENT_SIGNALS,
    Effects,
    Game,
    Piece,
    State,
    candidates,
    dead_fields,
    house_conflict,
    register,
)
from ..geometry import Geometry
from ..wording import N_
from .boards import BOARD_KEYS, PuzzleError
from .boards import board as puzzle_board
from .generator import Puzzle, day_seed, generate
from .text import check_puzzle, parse_puzzle

MAX_SEED = 2**53
"""Seeds stay below this, so that every JavaScript number that names one is exact."""

DEFAULT_SEED = 1
"""The puzzle of a game made with no seed and no givens (a record that names none; the table
makes its choice of the seed when a game starts, ``fixed_options``)."""

TODAY = "today"
"""The seed option's choice of the puzzle of the day (the table's local date names it)."""
NEW = "new"
"""The seed option's choice of a puzzle nobody has asked for yet (a random seed)."""


@lru_cache(maxsize=64)
def _generated(board_key: str, difficulty: int, seed: int) -> Puzzle:
    """A generated puzzle, made once per process: games are built often (a record read, a
    view served), and the hard difficulties take a while to make."""
    return generate(board_key, difficulty, seed)


@lru_cache(maxsize=64)
def _brought(board_key: str, givens: tuple[tuple[str, int], ...]) -> Puzzle:
    """A brought puzzle, checked once per process."""
    return check_puzzle(puzzle_board(board_key), dict(givens))


@lru_cache(maxsize=len(BOARD_KEYS))
def solo_geometry(board_key: str) -> Geometry:
    """The puzzle board's houses and regions under this game's id, without the scoring areas
    of the KOSMOS game whose board it shares (a puzzle scores nothing)."""
    g = puzzle_board(board_key).geometry
    return Geometry(id=SudokuPuzzle.id, cells=g.cells, houses=g.houses, numbers=g.numbers,
                    neighbours=g.neighbours, regions=g.regions, coords=g.coords, shape=g.shape)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register
class SudokuPuzzle(Game):
    """A Sudoku puzzle for one player (see the module's docstring)."""

    id: ClassVar[str] = "sudoku-puzzle"
    order: ClassVar[int] = 130
    name: ClassVar[str] = "Solo Sudoku"
    family: ClassVar[str] = "Solo Sudoku"
    summary: ClassVar[str] = N_("One player solves a Sudoku with one solution: the table lights "
                                "where the givens go, a number at a time, and checks every "
                                "number against the house rule.")
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    setup_from_options: ClassVar[bool] = True
    number_stays: ClassVar[bool] = True
    setup_by_number: ClassVar[bool] = True
    signals: ClassVar[tuple[str, ...]] = (*PLACEMENT_SIGNALS, "setup")
    option_defaults: ClassVar[Mapping[str, Any]] = {
        "board": "classic", "difficulty": 1, "seed": TODAY}
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {
        "board": BOARD_KEYS, "difficulty": (1, 2, 3, 4, 5), "seed": (TODAY, NEW)}
    option_labels: ClassVar[Mapping[str, str]] = {
        "board": N_("board"), "difficulty": N_("difficulty"), "seed": N_("puzzle")}
    choice_labels: ClassVar[Mapping[str, Mapping[Any, str]]] = {
        "board": {"classic": N_("classic 9x9"), "six": N_("6x6"),
                  "labyrinth": N_("Labyrinth")},
        "difficulty": {1: N_("Beginner"), 2: N_("Easy"), 3: N_("Medium"), 4: N_("Hard"),
                       5: N_("Expert")},
        "seed": {TODAY: N_("the puzzle of the day"), NEW: N_("a new puzzle")},
    }
    """Besides these, ``givens`` brings a puzzle along instead of a seed."""
    end_reasons: ClassVar[Mapping[str, str]] = {
        "solved": N_("the puzzle is solved"),
        "dead_end": N_("an empty square has no number left: a number placed before is wrong"),
    }

    # --- the puzzle -------------------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options as the game keeps them: a board and a difficulty it offers, and either
        a seed or the givens (as ``{"c3": 5, ...}``, however they were brought). A brought
        puzzle's difficulty is its grade (None when the table's techniques cannot finish
        it). ``RecordError`` (``PuzzleError``) for anything else, naming it."""
        if not isinstance(options, Mapping):
            raise RecordError(N_("options must be an object, got {options}"), options=repr(options))
        known = (*self.option_defaults, "givens")
        unknown = [key for key in options if key not in known]
        if unknown:
            raise RecordError(N_("{id} has no option {key} (options: {known})"), id=self.id,
                              key=repr(unknown[0]), known=", ".join(known))
        result = {"board": "classic", "difficulty": 1, "seed": None, **options}
        if result["seed"] in (TODAY, NEW):  # the table fixes it as the game starts
            result["seed"] = DEFAULT_SEED if result.get("givens") is None else None
        key = result["board"]
        if key not in BOARD_KEYS:
            raise RecordError(N_("option {key} must be one of {choices}, got {value}"),
                              key="'board'", choices=list(BOARD_KEYS), value=repr(key))
        seed, givens = result["seed"], result.get("givens")
        if givens is not None:
            if seed is not None:
                raise RecordError(N_("a puzzle is named by its seed or brought as its givens, "
                                     "not both"))
            puzzle = self._bring(key, givens)
            result["givens"] = dict(puzzle.givens)
            result["difficulty"] = puzzle.difficulty
            return result
        difficulty = result["difficulty"]
        if difficulty not in self.option_choices["difficulty"] or not _whole(difficulty):
            raise RecordError(N_("option {key} must be one of {choices}, got {value}"),
                              key="'difficulty'", choices=list(self.option_choices["difficulty"]),
                              value=repr(difficulty))
        if seed is None:
            seed = result["seed"] = DEFAULT_SEED
        if not _whole(seed) or not 0 <= seed < MAX_SEED:
            raise RecordError(N_("the seed must be a whole number from 0 to {high}, got "
                                 "{value}"), high=MAX_SEED - 1, value=repr(seed)[:20])
        _generated(key, difficulty, seed)  # a difficulty the board does not offer: refused now
        return result

    @classmethod
    def fixed_options(cls, options: Mapping[str, Any], today: date,
                      draw: Callable[[], int]) -> dict[str, Any]:
        """The seed of the puzzle of the day (``today`` as ``20261207``) or a new one."""
        fixed = dict(options)
        seed = fixed.get("seed", TODAY)
        if fixed.get("givens") is not None:
            if seed in (TODAY, NEW):
                fixed.pop("seed", None)  # a brought puzzle has no seed
        elif seed == TODAY:
            fixed["seed"] = day_seed(today)
        elif seed == NEW:
            fixed["seed"] = draw()
        return fixed

    @staticmethod
    def _bring(board_key: str, givens: object) -> Puzzle:
        """A brought puzzle, checked: typed text or a mapping of cells to numbers."""
        if isinstance(givens, str):
            givens = parse_puzzle(puzzle_board(board_key), givens)
        if not isinstance(givens, Mapping) or not all(
                isinstance(c, str) and _whole(n) for c, n in givens.items()):
            raise PuzzleError("the givens are a puzzle's line of characters or an object of "
                              "cells and numbers")
        return _brought(board_key, tuple(sorted(givens.items())))

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle the options name (made or checked once per process)."""
        key = self.options["board"]
        givens = self.options.get("givens")
        if givens is not None:
            return _brought(key, tuple(sorted(givens.items())))
        return _generated(key, self.options["difficulty"], self.options["seed"])

    def build_geometry(self) -> Geometry:
        return solo_geometry(self.options["board"])

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        """The puzzle's givens, pieces of nobody (``seed`` is not used: the options name the
        puzzle)."""
        givens = self.puzzle.givens
        return {c: Piece(None, givens[c]) for c in sorted(givens, key=_reading)}

    def parse_setup(self, setup: object) -> dict[str, Piece]:
        """A record's set-up must be the puzzle's givens, exactly."""
        pieces = super().parse_setup(setup)
        if pieces and pieces != self.default_setup():
            raise RecordError(N_("the setup of a Solo Sudoku must be its puzzle's givens"))
        return pieces

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> State:
        board = dict(self.default_setup())
        if setup and dict(setup) != board:
            raise RecordError(N_("the setup of a Solo Sudoku must be its puzzle's givens"))
        return self._settled(State(players=1, board=board, to_move=0))

    # --- play -------------------------------------------------------------------------------

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state.over:
            return
        for cell in self.geometry.cells:
            if cell not in state.board:
                for number in candidates(self.geometry, state.board, cell):
                    yield Place(cell, number)

    def placeable_numbers(self, state: State, cell: str) -> list[int]:
        if state.over or cell not in self.geometry.cell_set or cell in state.board:
            return []
        return candidates(self.geometry, state.board, cell)

    def check(self, state: State, action: Action) -> Illegal | None:
        if state.over:
            return Illegal(N_("the game is over"))
        if not isinstance(action, Place):
            return Illegal(N_("{game} has no {kind} actions: put a number piece on an empty "
                              "square"), game=self.name, kind=repr(action.type))
        bad = self.check_cell(action.cell)
        if bad is not None:
            return bad
        low, high = self.geometry.numbers
        if action.number not in self.geometry.number_range:
            return Illegal(N_("{number} is not a number of this puzzle ({low}-{high})"),
                           number=action.number, low=low, high=high)
        if action.cell in state.board:
            return Illegal(N_("{cell} is already occupied"), (action.cell,), cell=action.cell)
        return house_conflict(self.geometry, state.board, action.cell, action.number)

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(action, Place)
        board = dict(state.board)
        board[action.cell] = Piece(0, action.number)
        completed = tuple(house for house in self.geometry.houses_of[action.cell]
                          if all(c in board for c in self.geometry.houses[house]))
        return self._settled(state.replace(board=board,
                                           last=Effects(completed=completed, points=(0,))))

    def _settled(self, state: State) -> State:
        """The state with the game over when the board is full or at a dead end."""
        if len(state.board) == len(self.geometry.cells):
            return state.replace(over=True, to_move=None, winners=(0,))
        if self.dead_fields(state):
            return state.replace(over=True, to_move=None, winners=())
        return state

    # --- questions --------------------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        return [sum(1 for p in state.board.values() if p.owner == 0)]

    def end_reason(self, state: State) -> str | None:
        if not state.over:
            return None
        return "solved" if len(state.board) == len(self.geometry.cells) else "dead_end"

    def mistakes(self, state: State) -> list[str]:
        """The player's numbers that are not the solution's."""
        solution = self.puzzle.solution
        return sorted((c for c, p in state.board.items()
                       if p.owner is not None and solution[c] != p.number), key=_reading)

    def extras(self, state: State) -> dict[str, Any]:
        puzzle = self.puzzle
        return {"puzzle": {"board": puzzle.board, "difficulty": puzzle.difficulty,
                           "seed": puzzle.seed, "techniques": list(puzzle.techniques)},
                "empty": len(self.geometry.cells) - len(state.board)}

    def dead_fields(self, state: State) -> frozenset[str]:
        return dead_fields(self.geometry, state.board)


def _reading(cell: str) -> tuple[int, str]:
    return int(cell[1:]), cell[0]
