"""Help for a player solving by hand: the next step that teaches, mistakes against the
solution, rule clashes and the candidates for pencil marks.

A hint works from the numbers on the board alone (givens and the player's numbers): it walks
the easiest steps from there up to the first number it can place, and keeps of the steps before
that placement only those the placement needs (``placement_chain``): "in block d4 the 7 can
only go on d5, e5, all in rank 5: so it cannot go on h5", then "in rank 5 the 7 can only go on
g5". Each step comes with what proves it (its ``pattern``) and what it changes (its
``targets``), for the lights, and with its sentence as a code and parameters (``said``), for the
panel and the voice. Houses are named as the board shows them (``block d4``, ``rank 5``,
``file c``, ``region a1``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .boards import PuzzleBoard
from .grid import Contradiction, layout, reading_key
from .logic import check_numbers, first_step, start
from .techniques import Step, apply, premises
from .words import Said


@dataclass(frozen=True, slots=True)
class Clash:
    """A number standing more than once in a house (by the name the board shows)."""

    house: str
    number: int
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hint:
    """What to tell a player who asks for help.

    ``kind`` is ``step`` (``steps`` lead to a placement, the last step), ``solved``,
    ``clash``, ``mistakes``, ``contradiction`` (the numbers cannot all be right, and there is
    no solution to say which), ``reveal`` (no step the table knows leads on: ``cells`` holds
    one cell and ``number`` its number from the solution) or ``no_step`` (the same with no
    solution to reveal). ``said`` holds a sentence per step (one for the other kinds);
    ``cells`` are the cells the hint is about for the other kinds (the clash, the mistakes).
    """

    kind: str
    said: tuple[Said, ...]
    steps: tuple[Step, ...] = ()
    cells: tuple[str, ...] = ()
    number: int | None = None

    @property
    def pattern(self) -> tuple[str, ...]:
        """The cells that prove the hint's steps (lit in one colour), without its targets."""
        targets = set(self.targets)
        seen = dict.fromkeys(c for s in self.steps for c in s.pattern if c not in targets)
        return tuple(sorted(seen, key=reading_key))

    @property
    def targets(self) -> tuple[str, ...]:
        """The cell the hint places a number on (lit in another colour); for the other kinds
        its ``cells``."""
        if self.steps:
            return self.steps[-1].targets
        return self.cells


def candidates(board: PuzzleBoard, numbers: Mapping[str, int]) -> dict[str, tuple[int, ...]]:
    """For every empty cell the numbers none of its houses holds (the table's pencil marks).
    ``PuzzleError`` when the numbers clash."""
    grid = start(board, numbers)
    lay = grid.layout
    return {lay.cells[i]: lay.numbers(grid.candidates[i]) for i in lay.reading
            if not grid.values[i]}


def clashes(board: PuzzleBoard, numbers: Mapping[str, int]) -> tuple[Clash, ...]:
    """Every number that stands more than once in a house, houses in the board's order."""
    found = []
    for name in layout(board).house_names:
        by_number: dict[int, list[str]] = {}
        for cell in board.geometry.houses[name]:
            if cell in numbers:
                by_number.setdefault(numbers[cell], []).append(cell)
        for number, cells in sorted(by_number.items()):
            if len(cells) > 1:
                found.append(Clash(board.shown[name], number,
                                   tuple(sorted(cells, key=reading_key))))
    return tuple(found)


def mistakes(numbers: Mapping[str, int], solution: Mapping[str, int]) -> tuple[str, ...]:
    """The cells whose number is not the solution's, in reading order."""
    return tuple(sorted((c for c, n in numbers.items() if solution.get(c) != n), key=reading_key))


def placement_chain(board: PuzzleBoard, numbers: Mapping[str, int]) -> tuple[Step, ...]:
    """The steps to the next number placed: the easiest steps one after another up to the
    first placement, keeping only the earlier steps that take away a candidate the later kept
    ones rely on (``premises``); empty when no step the table knows applies.
    ``Contradiction`` when the numbers cannot all be right."""
    grid = start(board, numbers)
    lay = grid.layout
    walked: list[Step] = []
    removed_by: dict[tuple[str, int], int] = {}
    while True:
        step = first_step(grid)
        if step is None:
            return ()
        apply(grid, step)
        if step.placement is not None:
            break
        for pair in step.eliminations:
            removed_by.setdefault(pair, len(walked))
        walked.append(step)
    needed: set[int] = set()
    todo = [step]
    while todo:
        for pair in premises(lay, todo.pop()):
            k = removed_by.get(pair)
            if k is not None and k not in needed:
                needed.add(k)
                todo.append(walked[k])
    return (*(walked[k] for k in sorted(needed)), step)


def hint(board: PuzzleBoard, numbers: Mapping[str, int],
         solution: Mapping[str, int] | None = None) -> Hint:
    """What to tell a player with ``numbers`` on the board (see ``Hint``): a clash first, then
    mistakes (when the ``solution`` is known), then the steps to the next placement.
    ``PuzzleError`` when a cell or number is not the board's."""
    check_numbers(board, numbers)
    found = clashes(board, numbers)
    if found:
        clash = found[0]
        return Hint("clash", (Said("clash", {"number": clash.number, "house": [clash.house],
                                             "cells": list(clash.cells)}),), cells=clash.cells)
    if solution is not None:
        wrong = mistakes(numbers, solution)
        if wrong:
            return Hint("mistakes", (Said("mistakes", {"cells": list(wrong)}),), cells=wrong)
    if len(numbers) == len(board.geometry.cells):
        return Hint("solved", (Said("solved"),))
    try:
        chain = placement_chain(board, numbers)
    except Contradiction:
        return Hint("contradiction", (Said("contradiction"),))
    if chain:
        return Hint("step", tuple(step_said(board, s) for s in chain), steps=chain)
    if solution is None:
        return Hint("no_step", (Said("no_step"),))
    cell = _fewest_candidates(board, numbers)
    return Hint("reveal", (Said("reveal", {"cell": cell, "number": solution[cell]}),),
                cells=(cell,), number=solution[cell])


def _fewest_candidates(board: PuzzleBoard, numbers: Mapping[str, int]) -> str:
    """The empty cell with the fewest candidates (the first in reading order among equals):
    the number that helps most when no step is known."""
    options = candidates(board, numbers)
    return min(options, key=lambda c: (len(options[c]), reading_key(c)))


def step_said(board: PuzzleBoard, step: Step) -> Said:
    """The sentence of ``step`` as a code and parameters (``words.TEXTS``)."""
    shown = board.shown

    def names(houses: tuple[str, ...]) -> list[str]:
        return [shown[h] for h in houses]

    kind = step.technique
    targets = list(step.targets)
    if step.placement is not None:
        cell, number = step.placement
        if kind == "naked_single":
            complete = len(step.pattern) == len(board.geometry.number_range) - 1
            if not complete:
                return Said("naked_single_left", {"cell": cell, "number": number})
            return Said(kind, {"cell": cell, "number": number, "houses": names(step.houses)})
        return Said(kind, {"cell": cell, "number": number, "house": names(step.houses)})
    if kind in ("pointing", "claiming"):
        box, line = (step.houses, step.crossing) if kind == "pointing" else (
            step.crossing, step.houses)
        return Said(kind, {"box": names(box), "line": names(line), "number": step.numbers[0],
                           "cells": list(step.pattern), "targets": targets})
    if kind in ("naked_pair", "naked_triple"):
        return Said(kind, {"cells": list(step.pattern), "houses": names(step.houses),
                           "numbers": list(step.numbers), "targets": targets})
    if kind in ("hidden_pair", "hidden_triple"):
        return Said(kind, {"house": names(step.houses), "numbers": list(step.numbers),
                           "cells": list(step.pattern)})
    if kind in ("x_wing", "swordfish"):
        return Said(kind, {"bases": names(step.houses), "covers": names(step.crossing),
                           "number": step.numbers[0], "cells": list(step.pattern),
                           "targets": targets})
    x, y, z = step.numbers
    pivot, first, second = step.pattern
    return Said(kind, {"pivot": pivot, "first": first, "second": second, "x": x, "y": y,
                       "z": z, "targets": targets})
