"""A crowd on one broker: 100 tables playing 50 games at once, and 50 watchers.

One Mosquitto of the bench's own on loopback (its default config; ``--broker-nodelay``: with
``set_tcp_nodelay true``, so that it too sends each message at once). Each game is a host and a
guest as the table opens them (``network.shared.open_shared`` with the secrets ``new_host`` and
``new_guest`` make: the real ends, links, sealing, signing and checks), without the rest of a
table (no board, no LEDs, no journal: 100 whole ``Table`` objects would measure this machine
running 100 tables, not the broker), and their logs kept in memory (not synced to a disk). Each
watcher is a ``network.watching.Watcher`` on a connection of its own: it holds only the game's
read secret, reads the hello, follows the log, checks every entry's signature and applies it.
``--watchers`` are spread over the games (one each by default).

Every game plays a random legal action of ``--variant`` every ``--interval`` seconds on average
(spread at random, half to one and a half times; real play makes one every 10 to 30 s), the
host's seat 0 acting at the host and the guest's seat 1 proposing from the guest, for
``--seconds`` seconds; a game that ends is followed by a new one on new connections. Timed per
action, on the machine's monotonic clock:

- **host's action to the guest**: from the host's ``act`` (kept, signed, sealed, published) to
  the entry applied at the guest;
- **guest's proposal to the guest**: from the proposal sent to its entry applied at the guest
  (there and back: the host checks and orders it in between);
- **to each watcher**: from the action (either kind) to the entry applied at every watcher of
  its game.

The games are shared out over ``--processes`` processes (the simulated tables' own work, not
the broker's, is what one Python process could not keep up with); Mosquitto's CPU time and
memory are read from ``/proc`` before and after.

    .venv/bin/python bench/bench_network_crowd.py [--games 50] [--watchers 50]
        [--interval 1.0] [--seconds 60] [--processes 4] [--variant classic-sudoku]
        [--broker-nodelay] [--quick]

Goal: p99 under 200 ms per action on this machine. Nothing fails on a missed goal; actions
never applied (within 10 s of the end) and refused entries are counted and exit non-zero.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.network.codes import GameKeys, JoinCode, SeatKeys  # noqa: E402
from sudoku_table.network.link import Link, parse_broker  # noqa: E402
from sudoku_table.network.sealing import HostKey  # noqa: E402
from sudoku_table.network.shared import (  # noqa: E402
    SharedGame,
    Start,
    new_guest,
    new_host,
    open_shared,
)
from sudoku_table.network.watching import Watcher, resolve_start  # noqa: E402
from sudoku_table.rules.game import variant_class  # noqa: E402
from tests.network.conftest import Mosquitto  # noqa: E402

KINDS = ("host's action to the guest", "guest's proposal to the guest", "to each watcher")


@dataclass
class Played:
    """One game's actions as sent, and when each reached the guest and every watcher."""

    sent: dict[int, tuple[float, int]] = field(default_factory=dict)  # index: (time, seat)
    at_guest: dict[int, float] = field(default_factory=dict)
    at_watchers: list[dict[int, float]] = field(default_factory=list)


class Game:
    """One game between a host and a guest end, and its watchers, in this process."""

    def __init__(self, broker: str, variant: str, watchers: int, number: int) -> None:
        parsed = parse_broker(broker)
        game = variant_class(variant)(2, {})
        start = Start(variant, 2, {}, {}, False, ["Anna", "Ben"], [], {})
        saved = new_host(f"host {number}", start, [1])
        key = HostKey.from_bytes(bytes.fromhex(saved["host_key"]))
        hello = {"start": start.to_json(), "host_public": key.public(),
                 "host_table": saved["table"], "host_name": saved["name"]}
        keys = GameKeys(bytes.fromhex(saved["read"]))
        join = JoinCode(keys, SeatKeys(1, bytes.fromhex(saved["seats"]["1"])))
        self.played = Played()
        self._lock = threading.Lock()
        self.host: SharedGame = open_shared(parsed, saved, game, None)
        guest = new_guest(f"guest {number}", join, hello)
        self._guest: SharedGame | None = None  # its link may hand on a presence at once
        self.guest = self._guest = open_shared(parsed, guest, variant_class(variant)(2, {}),
                                               None, self._at_guest)
        self.watchers: list[Watcher] = []
        self.links: list[Link] = []
        for w in range(watchers):
            arrived: dict[int, float] = {}
            self.played.at_watchers.append(arrived)
            held: list[Watcher] = []
            watcher = Watcher(keys, resolve_start, lambda held=held, arrived=arrived:
                              self._at(watcher_actions(held[0]), arrived))
            held.append(watcher)
            link = Link(parsed, f"crowd-watcher-{number}-{w}-{os.getpid()}", watcher.handle,
                        clean=True)
            watcher.attach(link)
            link.start()
            self.watchers.append(watcher)
            self.links.append(link)
        self.game = game
        self.next_at = 0.0

    def _at(self, count: int, arrived: dict[int, float]) -> None:
        now = time.perf_counter()
        with self._lock:
            for index in range(count):
                arrived.setdefault(index, now)

    def _at_guest(self) -> None:
        if self._guest is not None:
            self._at(len(self._guest.actions()), self.played.at_guest)

    def ready(self) -> bool:
        """Connected everywhere, and every watcher has read the hello."""
        return (self.host.link.connected.is_set() and self.guest.link.connected.is_set()
                and all(w.guest is not None for w in self.watchers))

    def settled(self) -> bool:
        """The last action sent has reached the guest (the next may follow)."""
        return len(self.guest.actions()) == len(self.played.sent)

    def over(self) -> bool:
        line = self.host.end.host.line  # type: ignore[union-attr]
        return bool(line.state.over)

    def act(self, rng: random.Random) -> None:
        """A random legal action of the seat to move, at its own table."""
        line = self.host.end.host.line  # type: ignore[union-attr]
        state = line.state
        action = rng.choice(list(self.game.legal_actions(state)))
        seat = self.game.actor(state, action)
        index = len(line.actions)
        with self._lock:
            self.played.sent[index] = (time.perf_counter(), seat if seat is not None else 0)
        (self.guest if seat == 1 else self.host).act(action, index)

    def close(self) -> None:
        self.host.close()
        self.guest.close()
        for link in self.links:
            link.stop()


def watcher_actions(watcher: Watcher) -> int:
    guest = watcher.guest
    return len(guest.line.actions) if guest is not None else 0


def times(games: list[Game]) -> tuple[dict[str, list[float]], int, int]:
    """Every action's times (ms) by kind; actions that never arrived; entries refused."""
    out: dict[str, list[float]] = {kind: [] for kind in KINDS}
    never = refused = 0
    for game in games:
        played = game.played
        for index, (sent, seat) in played.sent.items():
            at = played.at_guest.get(index)
            if at is None:
                never += 1
            else:
                out[KINDS[seat]].append((at - sent) * 1000)
            for arrived in played.at_watchers:
                if index in arrived:
                    out[KINDS[2]].append((arrived[index] - sent) * 1000)
                else:
                    never += 1
        refused += game.host.end.refused + game.guest.end.refused
        refused += sum(1 for w in game.watchers if w.problem)
    return out, never, refused


def run(share: list[int], args: dict[str, Any], seed: int,
        results: Any) -> None:
    """One process: its share of the games, played for the given seconds."""
    logging.basicConfig(level=logging.WARNING)
    rng = random.Random(seed)
    watchers = args["watchers"]
    made = 0

    def a_game(number: int) -> Game:
        nonlocal made
        made += 1
        count = watchers // args["games"] + (1 if number < watchers % args["games"] else 0)
        return Game(args["broker"], args["variant"], count, number * 1000 + made)

    games = [a_game(number) for number in share]
    numbers = dict(zip(map(id, games), share, strict=True))
    deadline = time.monotonic() + 60
    while not all(g.ready() for g in games):
        if time.monotonic() > deadline:
            raise RuntimeError("the crowd did not connect within 60 s")
        time.sleep(0.05)
    everyone = list(games)
    began = time.perf_counter()
    for game in games:
        game.next_at = began + rng.uniform(0, args["interval"])
    end = began + args["seconds"]
    while time.perf_counter() < end:
        now = time.perf_counter()
        for i, game in enumerate(games):
            if now < game.next_at or not game.settled():
                continue
            if game.over():
                fresh = a_game(numbers[id(game)])
                numbers[id(fresh)] = numbers[id(game)]
                everyone.append(fresh)
                games[i] = fresh
                fresh.next_at = now + 1.0  # connected by then
                continue
            if not game.ready():
                continue
            game.act(rng)
            game.next_at = now + args["interval"] * rng.uniform(0.5, 1.5)
        time.sleep(0.005)
    sent = sum(len(g.played.sent) for g in everyone)
    grace = time.monotonic() + 10
    while time.monotonic() < grace and any(
            not g.settled() or any(len(a) < len(g.played.sent) for a in g.played.at_watchers)
            for g in everyone):
        time.sleep(0.05)
    measured, never, refused = times(everyone)
    for game in everyone:
        game.close()
    results.put({"times": measured, "never": never, "refused": refused, "sent": sent,
                 "games": len(everyone)})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def broker_usage(pid: int) -> tuple[float, float]:
    """Mosquitto's CPU seconds so far and its resident memory (MB)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return cpu, rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games (two tables each)")
    parser.add_argument("--watchers", type=int, default=50, help="spread over the games")
    parser.add_argument("--interval", type=float, default=1.0,
                        help="mean seconds between two actions of one game")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--variant", default="classic-sudoku")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--broker-nodelay", action="store_true",
                        help="the broker sends at once (Mosquitto's set_tcp_nodelay)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 10 games, 10 watchers, 10 s, 2 processes")
    args = parser.parse_args()
    if args.quick:
        args.games, args.watchers, args.seconds, args.processes = 10, 10, 10.0, 2
    folder = Path(tempfile.mkdtemp(prefix="bench-network-crowd-"))
    broker = Mosquitto(folder, nodelay=args.broker_nodelay)
    broker.start()
    assert broker.process is not None
    setup = {"broker": broker.url, "variant": args.variant, "games": args.games,
             "watchers": args.watchers, "interval": args.interval, "seconds": args.seconds}
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    shares = [list(range(p, args.games, args.processes)) for p in range(args.processes)]
    workers = [context.Process(target=run, args=(share, setup, args.seed * 100 + p, results))
               for p, share in enumerate(shares) if share]
    cpu_before, _ = broker_usage(broker.process.pid)
    began = time.perf_counter()
    try:
        for worker in workers:
            worker.start()
        gathered = [results.get(timeout=args.seconds + 300) for _ in workers]
        for worker in workers:
            worker.join(30)
        cpu_after, rss = broker_usage(broker.process.pid)
    finally:
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    wall = time.perf_counter() - began
    measured: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for got in gathered:
        for kind in KINDS:
            measured[kind] += got["times"][kind]
    sent = sum(g["sent"] for g in gathered)
    never = sum(g["never"] for g in gathered)
    refused = sum(g["refused"] for g in gathered)
    games = sum(g["games"] for g in gathered)
    print(f"{args.variant}: {args.games} games at once ({2 * args.games} tables, {games} games "
          f"in all), {args.watchers} watchers, one action per game every {args.interval:g} s "
          f"on average for {args.seconds:g} s, {len(workers)} processes; one Mosquitto on "
          f"loopback ({'set_tcp_nodelay' if args.broker_nodelay else 'its default config'})")
    print(f"{sent} actions, {sent / args.seconds:.0f} per second; Mosquitto used "
          f"{cpu_after - cpu_before:.1f} s of CPU in {wall:.0f} s "
          f"({100 * (cpu_after - cpu_before) / wall:.1f} % of a core), {rss:.1f} MB resident")
    print(f"{'from the action (ms)':<32}{'count':>7}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>8}")
    for kind in KINDS:
        values = measured[kind]
        if values:
            print(f"{kind:<32}{len(values):>7}{statistics.median(values):>8.1f}"
                  f"{percentile(values, 90):>8.1f}{percentile(values, 99):>8.1f}"
                  f"{max(values):>8.1f}")
    print(f"never applied (guest or watcher, 10 s after the end): {never}; "
          f"refused messages or problems: {refused}")
    return 1 if never or refused else 0


if __name__ == "__main__":
    sys.exit(main())
