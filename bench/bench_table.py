"""How long the table takes to handle one sensor event, through the rules to the new LED frame.

Plays random legal games of every registered variant on the physical board (pieces put down,
lifted, set down, turned over), timing each ``Table.handle_sensor`` call from the event to the
frame handed to a recording display. Panel inputs (the number of a new piece, which commits a
placement) are timed separately. Run once without a journal and once with one (every accepted
action then waits for SQLite's synchronous write).

    .venv/bin/python bench/bench_table.py [--games 6] [--seed 1]

Budget: under 2 ms median per sensor event.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.firmware.ports import Frame, SensorEvent  # noqa: E402
from sudoku_table.rules.actions import OFF, Blank, Discard, EndTurn, Joker, Move, Place  # noqa: E402
from sudoku_table.rules.game import all_variants  # noqa: E402
from sudoku_table.table import InputError, Table  # noqa: E402


class RecordingDisplay:
    def __init__(self) -> None:
        self.frames = 0
        self.last: Frame = {}

    def show(self, frame: Frame) -> None:
        self.frames += 1
        self.last = frame

    def set_brightness(self, level: float) -> None:
        pass

    def close(self) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Timed:
    """Drives one table and keeps every sensor-event and panel-input time in microseconds."""

    def __init__(self, table: Table, clock: Clock) -> None:
        self.table, self.clock = table, clock
        self.sensor_us: list[float] = []
        self.input_us: list[float] = []

    def event(self, square: str, occupied: bool) -> None:
        self.clock.now += 0.2
        event = SensorEvent(square, occupied, self.clock.now)
        start = time.perf_counter_ns()
        self.table.handle_sensor(event)
        self.sensor_us.append((time.perf_counter_ns() - start) / 1000)

    def input(self, data: dict[str, Any]) -> None:
        start = time.perf_counter_ns()
        try:
            self.table.input(data)
        finally:
            self.input_us.append((time.perf_counter_ns() - start) / 1000)

    def settle(self) -> None:
        self.clock.now += 2.0
        self.table.tick()


def play(t: Timed, action: Any, mover: int | None) -> None:
    if isinstance(action, Place):
        t.event(action.cell, True)
        t.input({"type": "number", "square": action.cell, "number": action.number})
    elif isinstance(action, Blank):
        t.event(action.cell, True)
        if action.owner is not None and action.owner != mover:
            t.input({"type": "blank", "square": action.cell, "owner": action.owner})
    elif isinstance(action, Move):
        t.event(action.path[0], False)
        landings = [c for c in action.path[1:] if c != OFF]
        for i, cell in enumerate(landings):
            t.event(cell, True)
            if i < len(landings) - 1 or action.bears_off:
                t.event(cell, False)
        if action.bears_off:
            t.input({"type": "bear_off"})
        t.settle()
    elif isinstance(action, Discard):
        t.input({"type": "discard", "number": action.number})
    elif isinstance(action, Joker):
        t.event(action.cell, True)
        t.input({"type": "joker", "square": action.cell, "number": action.number})
    elif isinstance(action, EndTurn):
        t.input({"type": "end_turn"})


def run_games(variant: str, games: int, seed: int, journal: Path | None,
              max_actions: int = 80) -> Timed:
    rng = random.Random(seed)
    clock = Clock()
    table = Table(RecordingDisplay(), journal, clock=clock, ticker=False)
    timed = Timed(table, clock)
    for _ in range(games):
        table.set_board([])  # the last game's pieces are cleared away first
        view = table.new_game(variant, replace=True)
        table.set_board(list(view["game"]["cells"]))
        companion = table._companion  # noqa: SLF001 - the bench picks legal actions from it
        assert companion is not None
        for _ in range(max_actions):
            state = companion.state
            if state.over:
                break
            legal = list(companion.game.legal_actions(state))
            if not legal:
                break
            try:
                play(timed, rng.choice(legal), state.to_move)
            except InputError as e:
                raise SystemExit(f"{variant}: the table refused a legal action: {e}") from None
            for square in companion.state.last.flipped:
                timed.event(square, False)
                timed.event(square, True)
            # a knocked piece put back: noise the table must shrug off
            if companion.state.board and rng.random() < 0.3:
                square = rng.choice(sorted(companion.state.board))
                timed.event(square, False)
                timed.event(square, True)
    table.close()
    return timed


def figures(samples: list[float]) -> str:
    if not samples:
        return f"{'-':>8} {'-':>8} {'-':>8}"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"{statistics.median(ordered) / 1000:8.3f} {p99 / 1000:8.3f} "
            f"{ordered[-1] / 1000:8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal-dir", default=".",
                        help="where the timed journals are written (a real disk, not tmpfs)")
    args = parser.parse_args()
    variants = [v.id for v in all_variants()]
    print(f"sensor event -> rules -> frame, ms ({args.games} random games per variant)")
    print(f"{'variant':22} {'journal':8} {'events':>7} {'median':>8} {'p99':>8} {'max':>8}"
          f"   panel input median/p99/max")
    worst = 0.0
    with tempfile.TemporaryDirectory(dir=args.journal_dir, prefix=".bench-journal-") as tmp:
        for variant in variants:
            for label in ("none", "sqlite"):
                path = None if label == "none" else Path(tmp) / f"{variant}.db"
                timed = run_games(variant, args.games, args.seed, path)
                median = statistics.median(timed.sensor_us) / 1000 if timed.sensor_us else 0
                worst = max(worst, median)
                print(f"{variant:22} {label:8} {len(timed.sensor_us):7} "
                      f"{figures(timed.sensor_us)}   {figures(timed.input_us)}")
    verdict = "within" if worst < 2.0 else "OVER"
    print(f"worst median per sensor event: {worst:.3f} ms ({verdict} the 2 ms budget)")
    return 0 if worst < 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
