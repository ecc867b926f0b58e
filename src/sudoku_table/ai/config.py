"""The ``[computer]`` section of the table's config: each level's effort.

The defaults suit a desktop PC (``strong`` answers within a second); a Raspberry Pi is several
times slower, so its config lowers the positions (``src/sudoku_table/firmware/table.example.toml``
says how).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields

from .engine import DEFAULT_BUDGETS, LEVELS, Budget

MAX_POSITIONS = 1_000_000
MAX_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class ComputerConfig:
    """Per level: the positions its search evaluates (the effort: same seed, same move) and
    the seconds after which the clock stops it anyway (reported)."""

    easy_positions: int = DEFAULT_BUDGETS["easy"].positions
    easy_seconds: float = DEFAULT_BUDGETS["easy"].seconds
    normal_positions: int = DEFAULT_BUDGETS["normal"].positions
    normal_seconds: float = DEFAULT_BUDGETS["normal"].seconds
    strong_positions: int = DEFAULT_BUDGETS["strong"].positions
    strong_seconds: float = DEFAULT_BUDGETS["strong"].seconds

    @classmethod
    def from_section(cls, raw: Mapping[str, object]) -> ComputerConfig:
        """The checked section (``ValueError`` names the bad key and what it must be)."""
        values: dict[str, object] = {}
        for f in fields(cls):
            if f.name not in raw:
                continue
            value = raw[f.name]
            if f.name.endswith("_positions"):
                if isinstance(value, bool) or not isinstance(value, int) or \
                        not 1 <= value <= MAX_POSITIONS:
                    raise ValueError(f"computer.{f.name} must be a whole number from 1 to "
                                     f"{MAX_POSITIONS}, got {value!r}")
                values[f.name] = value
            else:
                if isinstance(value, bool) or not isinstance(value, int | float) or \
                        not math.isfinite(value) or not 0.01 <= value <= MAX_SECONDS:
                    raise ValueError(f"computer.{f.name} must be a number of seconds from "
                                     f"0.01 to {MAX_SECONDS:g}, got {value!r}")
                values[f.name] = float(value)
        return cls(**values)  # type: ignore[arg-type]

    def budget(self, level: str) -> Budget:
        """The effort of ``level`` (one of ``LEVELS``)."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")
        return Budget(getattr(self, f"{level}_positions"), getattr(self, f"{level}_seconds"))

    @property
    def budgets(self) -> dict[str, Budget]:
        """Every level's effort."""
        return {level: self.budget(level) for level in LEVELS}
