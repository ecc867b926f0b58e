"""What reed contacts and hands really do, reproducibly: the simulated table's physical noise.

The simulator (:class:`~sudoku_table.firmware.simulator.SimulatedBoard`) plays these as timelines of
contact changes per square; the real scan path reads them through the mock pins. Every random draw
comes from one ``random.Random(seed)``, so the same seed and the same sequence of hand actions give
the same noise, in tests and in the bench alike.

- **Contact bounce**: after each make and each break the contact alternates for a random time
  up to ``bounce_ms`` (closures and openings of 0.05-3 ms each) before it rests.
- **A slide**: a magnet moved across squares at hand speed (0.1-1 m/s; squares are
  ``PITCH_MM`` apart). A reed closes when the magnet comes within ``reach_mm`` of it and opens
  again only when the magnet is more than ``release_mm`` away (a reed's pull-in and drop-out
  distances differ); each make and break bounces. With a reach of a few mm the squares passed
  over give a train of short closures; a reach over half the pitch makes neighbours overlap.
- **A flicker**: a weak magnet at the edge of a reed's range: random runs, closed and open, of
  1-50 ms each, for as long as it sits there.

Times are seconds (as the clocks of the firmware); lengths are millimetres.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .exc import SimulatorError
from .layout import SIZE, square_index

PITCH_MM = 40.0
"""Centre-to-centre distance of the board's squares (the overlays' ``square_mm``)."""

BOUNCE_RUN_MS = (0.05, 3.0)
"""The length of one closure or opening while a contact bounces."""

FLICKER_RUN_MS = (1.0, 50.0)
"""The length of one closed or open run of a weak magnet at the edge of a reed's range."""

HAND_SPEED = (0.1, 1.0)
"""How fast hands slide pieces, in m/s."""

Transition = tuple[float, bool]
"""A contact change: at this time the contact becomes closed (True) or open (False)."""


@dataclass(frozen=True, slots=True)
class Slide:
    """A magnet slid along the centres of ``path`` (adjacent or not, on the board) at ``speed``
    m/s, starting at ``at``.

    ``from_rest``: the piece stood on ``path[0]`` before (its reed was closed); otherwise it is
    put down there at ``at`` and slid on at once. ``rest``: it stays on the last square;
    otherwise it slides on half a square past the last centre and is lifted off the board.
    """

    path: tuple[str, ...]
    speed: float
    at: float
    reach_mm: float = 4.0
    release_mm: float = 5.0
    from_rest: bool = False
    rest: bool = False

    def __post_init__(self) -> None:
        if len(self.path) < 2:
            raise SimulatorError("a slide passes at least two squares")
        for square in self.path:
            square_index(square)  # a clear error for a name that is not a square
        if any(a == b for a, b in pairwise(self.path)):
            raise SimulatorError(f"a slide moves on from each square, got {list(self.path)}")
        if not 0 < self.speed <= 10:
            raise SimulatorError(f"a slide's speed must be above 0 and at most 10 m/s, "
                                 f"got {self.speed!r}")
        if not 0 < self.reach_mm <= self.release_mm <= PITCH_MM:
            raise SimulatorError(f"a slide needs 0 < reach_mm <= release_mm <= {PITCH_MM:g}, got "
                                 f"{self.reach_mm!r} and {self.release_mm!r}")

    @property
    def end(self) -> float:
        """When the magnet stops (rest) or is lifted off."""
        return self.at + _length(self._points()) / (self.speed * 1000)

    def _points(self) -> list[tuple[float, float]]:
        points = [centre(s) for s in self.path]
        if not self.rest:
            (x0, y0), (x1, y1) = points[-2], points[-1]
            d = math.hypot(x1 - x0, y1 - y0)
            if d > 0:
                points.append((x1 + (x1 - x0) / d * PITCH_MM / 2,
                               y1 + (y1 - y0) / d * PITCH_MM / 2))
        return points

    def closures(self) -> dict[int, list[tuple[float, float]]]:
        """Square index to the intervals (make, break) in which its reed is closed, without
        bounce; a break of ``math.inf`` stays closed. The first square of a slide from rest
        makes at ``-inf`` (it was closed before)."""
        points = self._points()
        speed = self.speed * 1000  # mm/s
        out: dict[int, list[tuple[float, float]]] = {}
        for index in range(SIZE * SIZE):
            c = (float(index % SIZE) * PITCH_MM, float(index // SIZE) * PITCH_MM)
            reach = _inside(points, c, self.reach_mm)
            if not reach:
                continue
            release = _inside(points, c, self.release_mm)
            intervals: list[tuple[float, float]] = []
            for start, _ in reach:
                if intervals and start <= intervals[-1][1]:
                    continue  # still closed from the last pull-in
                stop = next(e for s, e in release if s <= start <= e)
                intervals.append((start, stop))
            total = _length(points)
            timed = []
            for start, stop in intervals:
                make = self.at + start / speed
                if start <= 0 and self.from_rest and index == square_index(self.path[0]):
                    make = -math.inf
                brk = self.at + stop / speed
                if stop >= total and self.rest:
                    brk = math.inf
                timed.append((make, brk))
            out[index] = timed
        return out


def centre(square: str) -> tuple[float, float]:
    """The centre of ``square`` in mm from a1's centre (x along the files, y along the ranks)."""
    i = square_index(square)
    return (float(i % SIZE) * PITCH_MM, float(i // SIZE) * PITCH_MM)


def _length(points: Sequence[tuple[float, float]]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(points))


def _inside(points: Sequence[tuple[float, float]], c: tuple[float, float],
            radius: float) -> list[tuple[float, float]]:
    """The stretches (in mm along the path) in which the path is within ``radius`` of ``c``,
    joined where they touch."""
    out: list[tuple[float, float]] = []
    offset = 0.0
    for (ax, ay), (bx, by) in pairwise(points):
        length = math.hypot(bx - ax, by - ay)
        if length == 0:
            continue
        dx, dy = (bx - ax) / length, (by - ay) / length
        fx, fy = ax - c[0], ay - c[1]
        b = dx * fx + dy * fy
        disc = b * b - (fx * fx + fy * fy - radius * radius)
        if disc > 0:
            root = math.sqrt(disc)
            lo, hi = max(0.0, -b - root), min(length, -b + root)
            if lo < hi:
                lo, hi = lo + offset, hi + offset
                if out and lo <= out[-1][1] + 1e-9:
                    out[-1] = (out[-1][0], hi)
                else:
                    out.append((lo, hi))
        offset += length
    return out


def follow(before: list[Transition], after: list[Transition]) -> list[Transition]:
    """The changes ``after`` following ``before``: a new make or break cuts short whatever the
    contact was still doing (a bounce not yet over)."""
    if not after:
        return list(before)
    start = after[0][0]
    return [c for c in before if c[0] < start] + after


class NoiseModel:
    """The random part of the simulated physics, from one seed."""

    def __init__(self, seed: int | None = 1, bounce_ms: float = 5.0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.bounce_ms = bounce_ms

    def bounce(self, at: float, closed: bool) -> list[Transition]:
        """The contact changes of a make (``closed``) or break at ``at``: it alternates for a
        random time up to ``bounce_ms``, each closure and opening 0.05-3 ms, then rests in
        ``closed``."""
        rng = self.rng
        end = at + rng.uniform(0.0, self.bounce_ms) / 1000
        out: list[Transition] = [(at, closed)]
        state, t = closed, at
        low, high = BOUNCE_RUN_MS
        while True:
            t += rng.uniform(low, high) / 1000
            if t >= end:
                break
            state = not state
            out.append((t, state))
        if state != closed:
            out.append((end, closed))
        return out

    def flicker(self, at: float, seconds: float, rest: bool) -> list[Transition]:
        """A weak magnet at the edge of a reed's range for ``seconds`` from ``at``: closed and
        open runs of 1-50 ms, starting closed; afterwards the contact is ``rest``."""
        rng = self.rng
        end = at + seconds
        out: list[Transition] = []
        state, t = True, at
        low, high = FLICKER_RUN_MS
        while t < end:
            out.append((t, state))
            t += rng.uniform(low, high) / 1000
            state = not state
        out.append((end, rest))
        return out

    def slide(self, slide: Slide) -> dict[int, list[Transition]]:
        """The contact changes, bounce included, of every reed the slide passes."""
        out: dict[int, list[Transition]] = {}
        for index, intervals in slide.closures().items():
            changes: list[Transition] = []
            for make, brk in intervals:
                if make != -math.inf:
                    changes = follow(changes, self.bounce(make, True))
                if brk != math.inf:
                    changes = follow(changes, self.bounce(brk, False))
            out[index] = changes
        return out

    def slide_speed(self) -> float:
        """A hand speed drawn from ``HAND_SPEED`` (m/s)."""
        return self.rng.uniform(*HAND_SPEED)
