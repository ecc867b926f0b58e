"""The ``[computer]`` section of the table's config: each level's effort.

The defaults suit a desktop PC (``strong`` answers within a second); a Raspberry Pi is several
times slower, so its config lowers the positions (``firmware/table.example.toml`` says how).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from .engine import DEFAULT_BUDGETS, LEVELS, Budget

MAX_POSITIONS = 1_000_000
MAX_SECONDS = 60.0


def _budgets() -> dict[str, Budget]:
    return dict(DEFAULT_BUDGETS)


@dataclass(frozen=True, slots=True)
class ComputerConfig:
    """Per level: ``positions`` the search evaluates (the effort; same seed, same move) and
    ``seconds`` after which the clock stops it anyway."""

    budgets: Mapping[str, Budget] = field(default_factory=_budgets)

    KEYS = tuple(f"{level}_{part}" for level in LEVELS for part in ("positions", "seconds"))
    """The section's keys: ``easy_positions``, ``easy_seconds``, ``normal_positions``..."""

    @classmethod
    def from_section(cls, raw: Mapping[str, object]) -> ComputerConfig:
        """The checked section (``ValueError`` names the bad key and what it must be)."""
        budgets = dict(DEFAULT_BUDGETS)
        for level in LEVELS:
            positions = raw.get(f"{level}_positions", budgets[level].positions)
            if isinstance(positions, bool) or not isinstance(positions, int) or \
                    not 1 <= positions <= MAX_POSITIONS:
                raise ValueError(f"computer.{level}_positions must be a whole number from 1 to "
                                 f"{MAX_POSITIONS}, got {positions!r}")
            seconds = raw.get(f"{level}_seconds", budgets[level].seconds)
            if isinstance(seconds, bool) or not isinstance(seconds, int | float) or \
                    not math.isfinite(seconds) or not 0.01 <= seconds <= MAX_SECONDS:
                raise ValueError(f"computer.{level}_seconds must be a number of seconds from "
                                 f"0.01 to {MAX_SECONDS:g}, got {seconds!r}")
            budgets[level] = Budget(positions, float(seconds))
        return cls(budgets)

    def budget(self, level: str) -> Budget:
        return self.budgets[level]
