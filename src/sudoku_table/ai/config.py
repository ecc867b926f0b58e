"""The ``[computer]`` section of the table's config: each level's effort.

The defaults suit a desktop PC (``strong`` answers within a second); a Raspberry Pi is several
times slower, so its config lowers the positions (``src/sudoku_table/firmware/table.example.toml``
says how).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from sudoku_table.sections import Says, Section

from .engine import DEFAULT_BUDGETS, LEVELS, Budget

MAX_POSITIONS = 1_000_000
MAX_SECONDS = 60.0

Positions = Annotated[int, Strict(), Field(ge=1, le=MAX_POSITIONS),
                      Says(f"must be a whole number from 1 to {MAX_POSITIONS}", always=True)]
Seconds = Annotated[float, Strict(), Field(ge=0.01, le=MAX_SECONDS, allow_inf_nan=False),
                    Says(f"must be a number of seconds from 0.01 to {MAX_SECONDS:g}",
                         always=True)]


class ComputerConfig(Section):
    """Per level: the positions its search evaluates (the effort: same seed, same move) and
    the seconds after which the clock stops it anyway (reported)."""

    easy_positions: Positions = DEFAULT_BUDGETS["easy"].positions
    """Positions the easy level evaluates for one move."""
    easy_seconds: Seconds = DEFAULT_BUDGETS["easy"].seconds
    """Seconds after which the easy level's clock stops its search."""
    normal_positions: Positions = DEFAULT_BUDGETS["normal"].positions
    """Positions the normal level evaluates for one move."""
    normal_seconds: Seconds = DEFAULT_BUDGETS["normal"].seconds
    """Seconds after which the normal level's clock stops its search."""
    strong_positions: Positions = DEFAULT_BUDGETS["strong"].positions
    """Positions the strong level evaluates for one move."""
    strong_seconds: Seconds = DEFAULT_BUDGETS["strong"].seconds
    """Seconds after which the strong level's clock stops its search."""

    def budget(self, level: str) -> Budget:
        """The effort of ``level`` (one of ``LEVELS``)."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")
        return Budget(getattr(self, f"{level}_positions"), getattr(self, f"{level}_seconds"))

    @property
    def budgets(self) -> dict[str, Budget]:
        """Every level's effort."""
        return {level: self.budget(level) for level in LEVELS}
