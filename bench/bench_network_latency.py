"""How long a remote action takes from one table to the other table's LEDs, through a broker.

Two whole tables (``Table`` on the simulated board, each with its own journal on the disk and a
display that notes the moment of every frame it is handed), each in a process of its own as
two real tables are, play games of ``--variant`` with each other through a Mosquitto of the
bench's own on loopback: the host's seat 0 against the guest's seat 1, every action a random
legal one. For each action a person makes at one table, the time runs from the start of the
call that counts it there (the number tapped for a piece put down) to the first frame the
other table's display is handed whose squares show that action as the plan to carry out (the
"computer" light on the piece's square); both moments are read from the machine's monotonic
clock, which the two processes share. Then a person at the other table carries the plan out,
and the next action follows once both tables have it.

- **host to guest**: the host counts its own action, keeps the log's entry (synced to the
  disk) and publishes it; the guest checks and applies it, keeps it, and shows the plan.
- **guest to host**: the guest counts its own action and sends it as a proposal; the host
  checks it, keeps and publishes the entry, and shows the plan (the guest's own act counts
  there once the entry comes back, which is not timed here).

The broker is Mosquitto with its default config, which leaves Nagle's algorithm on for what
it sends (the tables turn it off for what they send); ``--broker-nodelay`` runs it with
``set_tcp_nodelay true``. ``--one-process`` runs both tables in the bench's own process (as
the tests do), where they also share Python's interpreter lock.

    .venv/bin/python bench/bench_network_latency.py [--actions 300] [--variant classic-sudoku]
        [--seed 1] [--one-process] [--broker-nodelay] [--quick]

Goal: p99 under 50 ms plus the network (on loopback the network's own share is about a
millisecond). Nothing fails on a missed goal: the figures are printed.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.firmware.ports import Frame  # noqa: E402
from sudoku_table.network.config import NetworkConfig  # noqa: E402
from sudoku_table.rules.actions import Joker, Place, action_from_json  # noqa: E402
from sudoku_table.table import Table  # noqa: E402
from sudoku_table.table.computer import plan_squares  # noqa: E402
from sudoku_table.table.signals import LIGHTS  # noqa: E402
from tests.network.conftest import Mosquitto  # noqa: E402
from tests.network.test_tables import actions, connected, until  # noqa: E402
from tests.table.helpers import Clock, put  # noqa: E402
from tests.table.test_computer import QUICK, carry_out, person_action, turn_over  # noqa: E402

PLAN = LIGHTS["computer"]
"""The light of a plan to carry out: the computer's, and a remote seat's alike."""


class TimedDisplay:
    """A display that keeps the moment of every frame it is handed and which squares showed
    a plan, and wakes whoever waits for one."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, set[str]]] = []
        self._cond = threading.Condition()

    def show(self, frame: Frame) -> None:
        now = time.perf_counter()
        with self._cond:
            self.frames.append((now, {s for s, light in frame.items() if light == PLAN}))
            self._cond.notify_all()

    def set_brightness(self, level: float) -> None:
        pass

    def close(self) -> None:
        pass

    def count(self) -> int:
        with self._cond:
            return len(self.frames)

    def wait_for_plan(self, squares: set[str], after: int, timeout: float) -> float | None:
        """When the first frame from index ``after`` on showed the plan on all ``squares``
        (None: not within ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for when, lit in self.frames[after:]:
                    if squares <= lit:
                        return when
                after = len(self.frames)
                left = deadline - time.monotonic()
                if left <= 0 or not self._cond.wait(left):
                    return None


class Player:
    """One table and the person at it (in the process that runs it)."""

    def __init__(self, folder: str, name: str, broker: str, seed: int) -> None:
        self.display = TimedDisplay()
        self.clock = Clock()
        self.rng = random.Random(seed)
        self.table = Table(self.display, Path(folder) / "journal.db", clock=self.clock,
                           settle=1.0, computer=QUICK,
                           network=NetworkConfig(broker=broker, name=name))

    def new_game(self, variant: str) -> str:
        return str(self.table.new_game(variant, remote=[1])["table"]["join"]["codes"][0]["code"])

    def join(self, code: str) -> None:
        self.table.join(code)

    def connected(self) -> bool:
        return connected(self.table)

    def look(self) -> dict[str, Any]:
        """Turn over what is to be turned; whether the game is over, who acts, the plan."""
        view = turn_over(self.table, self.clock, self.table.view())
        return {"over": view["game"]["over"], "actor": view["table"]["next"]["actor"],
                "plan": view["table"]["plan"]}

    def act(self) -> tuple[dict[str, Any], float, int]:
        """A random legal action of the seat here, made as a person would: the action, the
        start of the call that counted it (the number tapped after the piece is put down;
        for any other action the start of the first act, which can only make the time
        longer), and the number of actions the game has now."""
        action = person_action(self.table, self.rng)
        start = time.perf_counter()
        if isinstance(action, Place | Joker):
            prompt = put(self.table, self.clock, action.cell)["table"]["prompt"]
            if prompt and prompt["kind"] == "number":
                start = time.perf_counter()
                self.table.input({"type": "number" if isinstance(action, Place) else "joker",
                                  "square": action.cell, "number": action.number})
        else:
            carry_out(self.table, self.clock, action)
        return action.to_json(), start, len(actions(self.table))

    def carry_out(self, action: dict[str, Any]) -> None:
        carry_out(self.table, self.clock, action_from_json(action))

    def actions(self) -> list[Any]:
        return actions(self.table)

    def frames(self) -> int:
        return self.display.count()

    def wait_for_plan(self, squares: list[str], after: int, timeout: float) -> float | None:
        return self.display.wait_for_plan(set(squares), after, timeout)

    def close(self) -> None:
        self.table.close()


def _serve(conn: Connection, args: tuple[Any, ...]) -> None:
    """A table's own process: answer the bench's calls until it closes the table."""
    logging.basicConfig(level=logging.WARNING)
    player = Player(*args)
    while True:
        method, params = conn.recv()
        try:
            conn.send((True, getattr(player, method)(*params)))
        except Exception as e:  # told to the bench, which stops
            conn.send((False, repr(e)))
        if method == "close":
            return


class Elsewhere:
    """A ``Player`` in a process of its own, called through a pipe."""

    def __init__(self, *args: Any) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs, args), daemon=True)
        self._process.start()

    def __getattr__(self, method: str) -> Any:
        def call(*params: Any) -> Any:
            self._conn.send((method, params))
            ok, result = self._conn.recv()
            if not ok:
                raise RuntimeError(f"{method}: {result}")
            if method == "close":
                self._process.join(30)
            return result
        return call


def pair(folder: Path, broker: Mosquitto, variant: str, seed: int,
         apart: bool) -> tuple[Any, Any]:
    make = Elsewhere if apart else Player
    host = make(str(folder / "anna"), "Anna's table", broker.url, seed)
    code = host.new_game(variant)
    guest = make(str(folder / "ben"), "Ben's table", broker.url, seed + 1)
    guest.join(code)
    if not until(lambda: host.connected() and guest.connected(), 30.0):
        raise RuntimeError("the tables did not connect")
    return host, guest


def play(host: Any, guest: Any, goal: int, times: dict[str, list[float]],
         missed: list[str]) -> None:
    """Play one game to its end (or until ``goal`` actions were timed in each direction)."""
    seats = {0: (host, guest, "host to guest"), 1: (guest, host, "guest to host")}
    while min(len(t) for t in times.values()) < goal:
        look = host.look()
        guest.look()
        if look["over"]:
            return
        me, other, direction = seats[look["actor"]]
        shown = other.frames()
        action, start, count = me.act()
        squares = sorted(plan_squares(action_from_json(action)))
        if squares:
            seen = other.wait_for_plan(squares, shown, 10.0)
            if seen is None:
                missed.append(f"{direction}: {action}")
            else:
                times[direction].append((seen - start) * 1000)
        plan = until(lambda other=other: other.look()["plan"], 10.0)
        if plan is None:
            raise RuntimeError(f"the plan of {action} did not arrive ({direction})")
        other.carry_out(plan)
        if not until(lambda count=count: len(host.actions()) == len(guest.actions()) == count,
                     10.0) or host.actions() != guest.actions():
            raise RuntimeError("the tables did not agree after an action")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=300,
                        help="actions timed in each direction (default 300)")
    parser.add_argument("--variant", default="classic-sudoku")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one-process", action="store_true",
                        help="both tables in this process (as the tests run them)")
    parser.add_argument("--broker-nodelay", action="store_true",
                        help="the broker sends at once too (Mosquitto's set_tcp_nodelay)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20 actions each way")
    args = parser.parse_args()
    goal = 20 if args.quick else args.actions
    logging.basicConfig(level=logging.WARNING)
    folder = Path(tempfile.mkdtemp(prefix="bench-network-"))
    broker = Mosquitto(folder, nodelay=args.broker_nodelay)
    broker.start()
    times: dict[str, list[float]] = {"host to guest": [], "guest to host": []}
    missed: list[str] = []
    games = 0
    began = time.perf_counter()
    try:
        while min(len(t) for t in times.values()) < goal:
            games += 1
            host, guest = pair(folder / f"game{games}", broker, args.variant,
                               args.seed * 1000 + 2 * games, not args.one_process)
            try:
                play(host, guest, goal, times, missed)
            finally:
                host.close()
                guest.close()
    finally:
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    where = "both in this process" if args.one_process else "each in its own process"
    nagle = "set_tcp_nodelay" if args.broker_nodelay else "its default config"
    print(f"{args.variant}: {games} games between two tables ({where}) through Mosquitto "
          f"({nagle}) on loopback, journals on the disk, {time.perf_counter() - began:.0f} s")
    print("a person's action at one table to the other table's LED frame showing it (ms):")
    print(f"{'direction':<15}{'actions':>8}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    for direction, values in times.items():
        print(f"{direction:<15}{len(values):>8}{statistics.median(values):>9.1f}"
              f"{percentile(values, 90):>9.1f}{percentile(values, 99):>9.1f}"
              f"{max(values):>9.1f}")
    print(f"frames never shown within 10 s: {len(missed)}"
          + (f" ({missed[:3]})" if missed else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
