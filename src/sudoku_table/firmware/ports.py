"""The small interfaces between the wires and the companion.

The real hardware and the simulator both satisfy them, so ``sudoku_table.table`` never knows which
one it talks to. The firmware knows colours, patterns and squares; it knows nothing about games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

RGB = tuple[int, int, int]

PATTERNS = ("steady", "blink_fast", "blink_slow", "pulse", "flash", "double_blink")
"""How a light behaves over time: ``flash`` is a short burst that then goes dark;
``double_blink`` two short blinks and a pause, over and over (an alarm)."""


@dataclass(frozen=True, slots=True)
class SensorEvent:
    """A debounced change on one square: a piece arrived (occupied) or left.

    The sensors report each change twice: first tentatively (felt, a few ms after the switch:
    for LED feedback only), then confirmed once the piece has come to rest (it counts)."""

    square: str
    occupied: bool
    time: float


@dataclass(frozen=True, slots=True)
class SensorFault:
    """A switch that chatters, is stuck or a line that is silent; reported, never a move."""

    square: str | None
    kind: str  # "chatter", "stuck", "dead_row", "dead_column"
    detail: str
    """In English, with the figures (the log's words; the panel words the fault itself)."""
    time: float
    line: str | None = None
    """A dead line's rank number ("4") or file letter ("c")."""
    shorted: bool = False
    """A dead column that reads closed with no row driven (shorted to ground)."""


@dataclass(frozen=True, slots=True)
class Light:
    """What one square's LED shows: a colour, a pattern and a level (1.0 full, 0.3 dim)."""

    color: RGB
    pattern: str = "steady"
    level: float = 1.0


Frame = Mapping[str, Light]
"""Square name to light; squares not named are dark."""


class SensorSource(Protocol):
    """Something that reports sensor events: the reed matrix or the simulated board."""

    def start(self, on_event: Callable[[SensorEvent], None],
              on_fault: Callable[[SensorFault], None] | None = None,
              on_felt: Callable[[SensorEvent], None] | None = None) -> None:
        """Begin scanning in the background, calling ``on_event`` for every confirmed change
        and ``on_felt`` for every tentative one (feedback only, never a move)."""

    def stop(self) -> None:
        """Stop scanning; idempotent."""

    def occupied(self) -> frozenset[str]:
        """The squares that hold a piece now (confirmed)."""


class Display(Protocol):
    """Something that shows frames: the NeoPixel chain or the recording pixel buffer."""

    def show(self, frame: Frame) -> None:
        """Show ``frame`` from now on (animating its patterns); returns at once."""

    def set_brightness(self, level: float) -> None:
        """Global brightness from 0.0 to 1.0 (the config's value is the default)."""

    def close(self) -> None:
        """Turn every LED off and release the hardware; idempotent."""
