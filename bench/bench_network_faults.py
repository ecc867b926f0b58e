"""Faults while two tables play one game through a broker: is any action lost, do they end apart?

Two whole tables (``Table`` on the simulated board, journals on the disk, in this process as
the tests run them) play games of ``--variant`` through a Mosquitto of the bench's own on
loopback, every action a random legal one made by a person at the table whose seat acts, and
every remote action carried out by a person at the other table as its lights say. After a
random number of actions (1 to 8), and a random moment after the last one (0 to 30 ms, while
its messages may still be on their way), one fault of these, chosen at random:

- **broker killed**: Mosquitto gets SIGKILL (everything since its last save is gone: retained
  messages, sessions, messages on their way) and starts again 0.1 to 2 s later;
- **power cut at the host / at the guest**: the table's connection is cut without a word (the
  broker publishes its last will), the table is closed and a new one opened on the same
  journal folder; the pieces stay on the simulated board (``Table.set_board``);
- **link dropped at the host / at the guest**: the table's connection to the broker is cut
  under paho, which connects again by itself.

Play goes on after every fault. A game ends when it is over or when play stands still for 30 s
(counted as **stalled**: neither table has anything to do). Then both tables are given up to
30 s to agree, and counted:

- **actions lost**: an action either table counted (its record had it after a step) that the
  end record of either table does not have at the same place;
- **journals that differ**: games whose two tables end with different ``record()["actions"]``.

Proposals the host refused are shown too, with why (its log's ``refused`` entries: a guest
that restarts before the answer to its own act reaches it sends the act again, and the host
refuses the copy as late; the act counted, so the guest does not tell it as refused). A
stalled game names its last fault, both tables' next step and what happened before; a game
that hangs for 10 minutes ends the bench with every thread's stack.

    .venv/bin/python bench/bench_network_faults.py [--faults 100] [--variant classic-sudoku]
        [--seed 1] [--quick]

Goal: 0 actions lost, 0 journals that differ. Exits non-zero otherwise.
"""

from __future__ import annotations

import argparse
import faulthandler
import logging
import random
import shutil
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.rules.actions import action_from_json  # noqa: E402
from sudoku_table.table import Table  # noqa: E402
from tests.network.conftest import Mosquitto  # noqa: E402
from tests.network.test_tables import a_table, actions, connected, step, until  # noqa: E402
from tests.table.helpers import Clock  # noqa: E402
from tests.table.test_computer import carry_out, turn_over  # noqa: E402

KINDS = ("broker killed", "power cut at the host", "power cut at the guest",
         "link dropped at the host", "link dropped at the guest")
NAMES = {"host": "Anna's table", "guest": "Ben's table"}


def cut(table: Table) -> None:
    """Cut the table's connection to the broker under paho, without a word."""
    shared = table.remote.shared
    sock = shared.link._client.socket() if shared is not None else None  # paho's own socket
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already gone


def carry_plan(table: Table, clock: Clock) -> bool:
    """A person at ``table`` carries out the other table's action the lights show, if any."""
    view = turn_over(table, clock, table.view())
    plan = view["table"]["plan"]
    if not view["table"]["next"]["code"].startswith("remote_") or plan is None:
        return False
    carry_out(table, clock, action_from_json(plan))
    return True


class Pair:
    """One game between a host and a guest table, each opened again after a power cut."""

    def __init__(self, folder: Path, broker: Mosquitto, variant: str) -> None:
        self.folder, self.broker = folder, broker
        host, host_clock = a_table(folder / "host", NAMES["host"], broker.url)
        code = host.new_game(variant, remote=[1])["table"]["join"]["codes"][0]["code"]
        guest, guest_clock = a_table(folder / "guest", NAMES["guest"], broker.url)
        guest.join(code)
        self.tables: dict[str, tuple[Table, Clock]] = {"host": (host, host_clock),
                                                       "guest": (guest, guest_clock)}
        self.seen: set[tuple[int, str]] = set()
        self.trail: list[str] = []
        if not until(lambda: connected(host) and connected(guest), 30.0):
            raise RuntimeError("the tables did not connect")

    def table(self, role: str) -> Table:
        return self.tables[role][0]

    def step(self, rng: random.Random) -> bool:
        """One thing a person at either table does now (False: nothing to do at either)."""
        return any(step(table, clock, rng) for table, clock in self.tables.values())

    def over(self) -> bool:
        return bool(self.table("host").view()["game"]["over"])

    def observe(self, what: str = "") -> None:
        """Note every action either table has counted (and what just happened)."""
        self.trail.append(f"{what} {self.counts()}".strip())
        for role in self.tables:
            for i, action in enumerate(actions(self.table(role))):
                self.seen.add((i, repr(sorted(action.items()))))

    def power_cut(self, role: str) -> None:
        table, _clock = self.tables[role]
        board = table.view()["table"]["occupied"]
        cut(table)
        table.close()
        table, clock = a_table(self.folder / role, NAMES[role], self.broker.url)
        table.set_board(board)  # the pieces stood on while the table was off
        self.tables[role] = (table, clock)

    def fault(self, kind: str, rng: random.Random) -> None:
        if kind == "broker killed":
            self.broker.kill()
            time.sleep(rng.uniform(0.1, 2.0))
            self.broker.start()
        elif kind.startswith("power cut"):
            self.power_cut(kind.rsplit(" ", 1)[1])
        else:
            cut(self.table(kind.rsplit(" ", 1)[1]))

    def settle(self) -> bool:
        """Both tables connected and with the same actions (within 30 s), a person at each
        carrying out what arrives from the other."""
        def agreed() -> bool:
            for table, clock in self.tables.values():
                carry_plan(table, clock)
            host, guest = self.table("host"), self.table("guest")
            return connected(host) and connected(guest) and actions(host) == actions(guest)
        return bool(until(agreed, 30.0))

    def counts(self) -> str:
        """Each table's actions / its copy of the log, and a guest's unanswered proposals."""
        parts = []
        for role in self.tables:
            table = self.table(role)
            shared = table.remote.shared
            log = len(shared.actions()) if shared is not None else "-"
            waiting = "+" if shared is not None and shared.awaiting else ""
            parts.append(f"{role[0]}{len(actions(table))}/{log}{waiting}")
        return " ".join(parts)

    def lost(self) -> int:
        ends = [[repr(sorted(a.items())) for a in actions(self.table(role))]
                for role in self.tables]
        return sum(1 for i, action in self.seen
                   if any(i >= len(end) or end[i] != action for end in ends))

    def refused(self) -> list[str]:
        """Why the host refused the guest's proposals (its log's ``refused`` entries)."""
        shared = self.table("host").remote.shared
        if shared is None:
            return []
        return [str(e["data"].get("reason")) for e in shared.end.host.entries  # type: ignore
                if e.get("kind") == "refused"]

    def next_steps(self) -> str:
        """Both tables' next step, and the last things that happened (actions / log)."""
        steps = "; ".join(f"{role}: {self.table(role).view()['table']['next']['code']}"
                          for role in self.tables)
        return f"{steps}; {self.counts()}; before: {' | '.join(self.trail[-6:])}"

    def close(self) -> None:
        for table, _clock in self.tables.values():
            table.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--faults", type=int, default=100)
    parser.add_argument("--variant", default="classic-sudoku")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 10 faults")
    args = parser.parse_args()
    goal = 10 if args.quick else args.faults
    logging.basicConfig(level=logging.CRITICAL)  # the faults' own complaints are expected
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-network-faults-"))
    broker = Mosquitto(folder)
    broker.start()
    kinds: Counter[str] = Counter()
    games = lost = differ = stalled = counted = 0
    refused: Counter[str] = Counter()
    problems: list[str] = []
    began = time.perf_counter()
    try:
        while sum(kinds.values()) < goal:
            games += 1
            faulthandler.dump_traceback_later(600, exit=True)  # a hang: every thread's stack
            pair = Pair(folder / f"game{games}", broker, args.variant)
            last = "none"
            try:
                countdown = rng.randint(1, 8)
                while not pair.over() and sum(kinds.values()) < goal:
                    if not until(lambda pair=pair: pair.step(rng) or pair.over(), 30.0):
                        stalled += 1
                        problems.append(f"game {games} stalled after {last}: "
                                        f"{pair.next_steps()}")
                        break
                    pair.observe()
                    countdown -= 1
                    if countdown == 0:
                        time.sleep(rng.uniform(0, 0.03))
                        last = rng.choice(KINDS)
                        pair.fault(last, rng)
                        kinds[last] += 1
                        pair.observe(last)
                        countdown = rng.randint(1, 8)
                if not pair.settle():
                    problems.append(f"game {games} did not settle after {last}: "
                                    f"{pair.next_steps()}")
                pair.observe()
                game_lost = pair.lost()
                lost += game_lost
                if actions(pair.table("host")) != actions(pair.table("guest")):
                    differ += 1
                    problems.append(f"game {games}: the journals differ "
                                    f"({len(actions(pair.table('host')))} actions at the host, "
                                    f"{len(actions(pair.table('guest')))} at the guest)")
                refused.update(pair.refused())
                counted += len(actions(pair.table("host")))
            finally:
                pair.close()
            print(f"game {games}: {sum(kinds.values())} faults so far, "
                  f"{lost} lost, {differ} differ, {stalled} stalled", flush=True)
    finally:
        faulthandler.cancel_dump_traceback_later()
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\n{args.variant}: {games} games, {counted} actions at the end, "
          f"{sum(kinds.values())} faults in {time.perf_counter() - began:.0f} s")
    for kind in KINDS:
        print(f"  {kind:<28}{kinds[kind]:>4}")
    print(f"actions lost: {lost}")
    print(f"journals that differ: {differ}")
    print(f"games stalled: {stalled}")
    print(f"proposals the host refused: {sum(refused.values())}"
          + "".join(f"\n  {count} x {reason}" for reason, count in refused.items()))
    for problem in problems:
        print(f"  {problem}")
    return 1 if lost or differ else 0


if __name__ == "__main__":
    sys.exit(main())
