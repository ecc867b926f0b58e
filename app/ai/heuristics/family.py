"""SUDOKU FAMILY: points are kept, so the score is the standing; the search sees the rest."""

from __future__ import annotations

from app.rules.family import SudokuFamily

from . import Heuristic, register


class Family(Heuristic):
    """The points earned so far."""

    scale = 5.0


register(SudokuFamily, Family())
