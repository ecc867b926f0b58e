"""Ghost actions under the physical noise model, and what the scan loop costs.

1. Ghosts: many simulated slides (two to four squares, 0.1-1 m/s, reach 2-5 mm, 0-1 mm of
   hysteresis) and weak-magnet flickers (0.05-3 s) on the simulated table, through the real scan
   path (gpiozero mock pins, matrix, debouncer) and the real table and rules, on a manual clock
   (faster than real time, the same code). In a placement game (Vierer) the slides come in from
   above and are lifted off again; in Halma each slide starts from a piece of the player to move
   and is lifted off. A ghost is anything the game took from them: an action, a new piece
   waiting for its number, a landing. Budget: none. The same run on the old 20 ms settle path
   is printed for comparison.
2. Switch to feedback frame on the manual clock: what the scan cadence, the feedback window
   and the bounce cost, free of CPU contention (bench_firmware times the same in real time).
3. The scan loop's CPU cost in real time (its thread on the simulated matrix): CPU seconds per
   wall second and per scan, on a quiet board and while pieces slide and flicker all the time.

    .venv/bin/python bench/bench_noise.py [--slides 400] [--flickers 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.firmware.config import SensorConfig, SimulatorConfig  # noqa: E402
from sudoku_table.firmware.layout import SIZE, SQUARES, squares_in_line  # noqa: E402
from sudoku_table.firmware.matrix import ReedMatrix  # noqa: E402
from sudoku_table.firmware.simulator import ManualClock, SimulatedBoard, scan_until  # noqa: E402
from sudoku_table.table import Table  # noqa: E402
from sudoku_table.table.signals import FELT  # noqa: E402

HALMA_PIECES = ["a1", "b1", "c1", "a2", "b2", "a3", "f6", "e6", "d6", "f5", "e5", "f4"]
HALMA_MOVERS = ["c1", "b2", "a3"]
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]




class Rig:
    """The simulated table on a manual clock: board, matrix, table, rules."""

    def __init__(self, variant: str, pieces: list[str], seed: int, sensors: SensorConfig) -> None:
        self.clock = ManualClock(1000.0)
        self.board = SimulatedBoard(sensors, SimulatorConfig(seed=seed), clock=self.clock)
        for square in pieces:
            self.board.set_square(square, True)
        self.clock.now += 0.01
        self.matrix = ReedMatrix(sensors, pin_factory=self.board.factory, clock=self.clock)
        self.table = Table(None, clock=self.clock, ticker=False)
        self.table.new_game(variant)
        self.table.set_board(self.matrix.occupied())
        table = self.table
        self.matrix.listen(table.handle_sensor, table.handle_fault, table.handle_felt)

    def until(self, when: float) -> None:
        scan_until(self.matrix, self.clock, when, self.table.tick)

    def seen(self) -> tuple[int, Any, Any]:
        """What a ghost would change: the actions, the prompt, a landing's message."""
        table = self.table.view()["table"]
        record = self.table.record() or {}
        return len(record.get("actions", [])), table["prompt"], table["message_code"]

    def close(self) -> None:
        self.table.close()
        self.matrix.close()
        self.board.close()


def ghosts(sensors: SensorConfig, slides: int, flickers: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    counts = {"slides": 0, "flickers": 0, "ghosts": 0}
    for k in range(slides):
        halma = k % 2 == 1
        rig = Rig("halma-dominari" if halma else "vierer-dominari",
                  HALMA_PIECES if halma else [], rng.randrange(2**32), sensors)
        try:
            while True:
                start = rng.choice(HALMA_MOVERS if halma else SQUARES)
                path = squares_in_line(start, rng.choice(DIRECTIONS), rng.randint(2, 4), 6)
                if path and not (halma and any(s in HALMA_PIECES for s in path[1:])):
                    break
            before = rig.seen()
            reach = rng.uniform(2.0, 5.0)
            slide = rig.board.slide(path, rng.uniform(0.1, 1.0), reach_mm=reach,
                                    release_mm=reach + rng.uniform(0.0, 1.0), from_rest=halma)
            rig.until(slide.end + 0.4)
            after = rig.seen()
            if halma:  # the piece was really lifted; put back where it came from, it is no move
                rig.board.set_square(path[0], True)
                rig.until(rig.clock.now + 0.4)
                landed = after[2] is not None and after[2]["code"] != "cannot_move"
                counts["ghosts"] += int(after[0] != before[0] or landed
                                        or rig.seen()[0] != before[0])
            else:
                counts["ghosts"] += int(after != before)
            counts["slides"] += 1
        finally:
            rig.close()
    for k in range(flickers):
        halma = k % 2 == 1
        rig = Rig("halma-dominari" if halma else "vierer-dominari",
                  HALMA_PIECES if halma else [], rng.randrange(2**32), sensors)
        try:
            square = rng.choice(HALMA_PIECES if halma and k % 4 == 1 else SQUARES[:6])
            before = rig.seen()
            seconds = rng.uniform(0.05, 3.0)
            rig.board.flicker(square, seconds)
            rig.until(rig.clock.now + seconds + 2.0)
            counts["ghosts"] += int(rig.seen() != before)
            counts["flickers"] += 1
        finally:
            rig.close()
    return counts


def model_latency(changes: int, seed: int) -> list[float]:
    """Switch to feedback frame in ms on the manual clock: what the scan cadence, the windows
    and the bounce cost, without any CPU contention (the real-time figure is bench_firmware's)."""
    rng = random.Random(seed)
    rig = Rig("vierer-dominari", [], seed, SensorConfig())
    frames: list[tuple[float, Any]] = []
    rig.table.leds.display = Recorder(rig.clock, frames)  # the table's only display
    out = []
    try:
        for _ in range(changes):
            square = SQUARES[rng.randrange(6) * SIZE + rng.randrange(6)]
            rig.until(rig.clock.now + rng.uniform(0.0, 0.004))
            start = rig.clock.now
            rig.board.set_square(square, True)
            rig.until(start + 0.3)
            out.append(next(t for t, f in frames if t >= start and f.get(square) == FELT) - start)
            rig.board.set_square(square, False)
            rig.until(rig.clock.now + 0.3)
    finally:
        rig.close()
    return sorted(x * 1000 for x in out)


class Recorder:
    """A display that keeps each frame with the manual clock's time."""

    def __init__(self, clock: ManualClock, frames: list[tuple[float, Any]]) -> None:
        self.clock, self.frames = clock, frames

    def show(self, frame: Any) -> None:
        self.frames.append((self.clock.now, dict(frame)))

    def set_brightness(self, level: float) -> None:
        pass

    def close(self) -> None:
        pass


def scan_cost(seconds: float, noisy: bool, seed: int) -> tuple[float, float, int]:
    """CPU seconds per wall second and CPU microseconds per scan of the real scan thread."""
    sensors = SensorConfig()
    board = SimulatedBoard(sensors, SimulatorConfig(seed=seed))
    matrix = ReedMatrix(sensors, pin_factory=board.factory)
    rng = random.Random(seed)
    cpu: list[float] = []
    stop = threading.Event()

    def measured() -> None:
        start = time.thread_time()
        matrix._run()
        cpu.append(time.thread_time() - start)

    for square in ("a1", "e5", "i9", "c7", "g2"):
        board.set_square(square, True)
    matrix.listen(lambda e: None, lambda f: None, lambda e: None)
    thread = threading.Thread(target=measured, name="reed-matrix")
    scans = matrix.scans
    wall = time.perf_counter()
    thread.start()
    try:
        while time.perf_counter() - wall < seconds:
            if noisy:
                path = None
                while path is None or any(board.square(s) for s in path):
                    path = squares_in_line(rng.choice(SQUARES), rng.choice(DIRECTIONS),
                                           rng.randint(2, 4))
                board.slide(path, rng.uniform(0.1, 1.0))
                board.flicker(rng.choice(["b8", "h3"]), 0.2)
            stop.wait(0.3)
    finally:
        matrix._stop.set()
        thread.join()
        wall = time.perf_counter() - wall
        done = matrix.scans - scans
        matrix.close()
        board.close()
    return cpu[0] / wall, cpu[0] / max(1, done) * 1e6, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slides", type=int, default=400)
    parser.add_argument("--flickers", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--changes", type=int, default=300, help="put-downs for the latency")
    parser.add_argument("--seconds", type=float, default=3.0, help="per CPU measurement")
    args = parser.parse_args(argv)
    # the flickers' chatter reports
    logging.getLogger("sudoku_table.firmware").setLevel(logging.ERROR)
    now = ghosts(SensorConfig(), args.slides, args.flickers, args.seed)
    print(f"ghosts: {now['ghosts']} game actions, new pieces or landings from {now['slides']} "
          f"slides and {now['flickers']} flickers (confirmation {SensorConfig().settle_ms:g} ms; "
          "budget 0)")
    old = ghosts(SensorConfig(settle_ms=20.0), args.slides // 4, args.flickers // 4, args.seed)
    print(f"    for comparison, the old 20 ms settle path: {old['ghosts']} ghosts from "
          f"{old['slides']} slides and {old['flickers']} flickers")
    model = model_latency(args.changes, args.seed)
    print(f"switch to feedback frame on the scan path's own clock (scan cadence, windows and "
          f"bounce; no CPU contention), {len(model)} put-downs: p50 {model[len(model) // 2]:.1f} "
          f"ms, p99 {model[int(len(model) * 0.99)]:.1f} ms, max {model[-1]:.1f} ms")
    for noisy in (False, True):
        per_wall, per_scan, scans = scan_cost(args.seconds, noisy, args.seed)
        what = ("pieces sliding and flickering all the time" if noisy
                else "a quiet board with 5 pieces")
        print(f"scan loop, {what}: {per_wall:.3f} CPU s per wall s ({per_wall * 100:.1f}% of "
              f"a core), {per_scan:.0f} us CPU per scan, {scans / args.seconds:,.0f} scans/s")
    return 0 if now["ghosts"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
