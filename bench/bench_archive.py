"""The archive under load: a phone's input while many clients read 1,000 finished games, and
while the largest file the table takes is imported; the server's memory during import bombs.

The panel runs as ``sudoku-table serve --sim`` in a process of its own (so that its memory is its
own, read from /proc), on loopback, with 1,000 finished games in its journal. A phone
(127.0.0.2) switches hints on and off with ``POST /api/input`` again and again, and the worst and
99th-percentile time of its answers are printed:

- alone (the baseline);
- while 32 clients from 32 addresses page through the list, download records and the export,
  as fast as they are answered;
- while the largest real file it takes is imported (as many games as fit the 64 MiB the journal
  may grow by, from a file of up to 8 MiB);

and the server's resident memory above idle (its worker processes included) at its peak during
that import, during one import of
8 MB of empty objects, and during 16 such imports at once. Goals: no input delayed by more than
100 ms over the baseline; peak memory under 64 MB above idle.

Run: .venv/bin/python bench/bench_archive.py [--games 1000] [--readers 32] [--port 8130]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudoku_table.table.archive import export_document, plan_import  # noqa: E402
from sudoku_table.table.journal import Journal  # noqa: E402

EXAMPLES = ROOT / "tests" / "data" / "examples"
PHONE = "127.0.0.2"
GOAL_MS = 100.0
MEMORY_GOAL_MB = 64.0


def finished_examples() -> list[dict[str, Any]]:
    """The finished example games, replayed once (record and final state)."""
    games = []
    for n, path in enumerate(sorted(EXAMPLES.glob("*.json"))):
        example = json.loads(path.read_text(encoding="utf-8"))
        if example["state"]["over"]:
            games.append({"id": n, "variant": example["record"]["variant"],
                          "finished": "2025-01-01T20:00:00+00:00", **example})
    plan = plan_import(export_document(games, "now", {}), [])
    return plan.new


def moment(n: int) -> str:
    day, minute = divmod(n, 24 * 60)
    return (f"20{20 + day // 336:02d}-{day // 28 % 12 + 1:02d}-{day % 28 + 1:02d}"
            f"T{minute // 60:02d}:{minute % 60:02d}:00+00:00")


def fill_journal(path: Path, count: int, games: list[dict[str, Any]]) -> None:
    journal = Journal(path)
    try:
        for start in range(0, count, 100):
            batch = [{"record": g["record"], "state": g["state"], "finished": moment(start + i)}
                     for i, g in enumerate(games[(start + k) % len(games)]
                                           for k in range(min(100, count - start)))]
            journal.import_finished(batch)
    finally:
        journal.close()


class Server:
    def __init__(self, data: Path, port: int) -> None:
        self.port = port
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudoku_table.cli", "serve", "--sim", "--data", str(data),
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if request(port, "GET", "/api/version")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the panel did not start")

    def rss_mb(self) -> float:
        """The resident memory of the server and of its worker processes (an import replays
        its games in one), in MB."""
        pids = [self.proc.pid]
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*/children"):
            pids += [int(p) for p in task.read_text().split()]
        total = 0.0
        for pid in pids:
            try:
                lines = Path(f"/proc/{pid}/status").read_text().splitlines()
            except OSError:
                continue
            total += sum(int(line.split()[1]) / 1024 for line in lines
                         if line.startswith("VmRSS:"))
        return total

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def request(port: int, method: str, path: str, body: bytes | None = None,
            source: str = "127.0.0.1", timeout: float = 60) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Phone(threading.Thread):
    """Switches hints on and off, one input after the other, timing each answer."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.times: list[float] = []
        self.failed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        on = True
        while not self.stop.is_set():
            body = json.dumps({"type": "hints", "on": on}).encode()
            started = time.perf_counter()
            status, _ = request(self.port, "POST", "/api/input", body, PHONE)
            self.times.append(time.perf_counter() - started)
            self.failed += status != 200
            on = not on
            time.sleep(0.02)

    def figures(self) -> tuple[float, float, int]:
        times = sorted(self.times)
        if not times:
            return float("nan"), float("nan"), 0
        return times[-1] * 1000, times[int(len(times) * 0.99) - 1] * 1000, len(times)


def measure(port: int, seconds: float, load: Any = None) -> tuple[float, float, int]:
    phone = Phone(port)
    phone.start()
    try:
        if load is None:
            time.sleep(seconds)
        else:
            load(seconds)
    finally:
        phone.stop.set()
        phone.join(10)
    return phone.figures()


def readers(port: int, count: int, seconds: float, counts: dict[str, int]) -> None:
    stop = threading.Event()

    def read(n: int) -> None:
        source = f"127.0.1.{n + 1}"
        kind = n % 3
        while not stop.is_set():
            try:
                if kind == 0:
                    status, body = request(port, "GET", "/api/games?limit=20", source=source)
                    after = json.loads(body).get("next") if status == 200 else None
                    while status == 200 and after is not None and not stop.is_set():
                        status, body = request(port, "GET", f"/api/games?limit=20&after={after}",
                                               source=source)
                        after = json.loads(body).get("next") if status == 200 else None
                elif kind == 1:
                    status, _ = request(port, "GET", f"/api/games/{1 + n * 7 % 900}/record",
                                        source=source)
                else:
                    status, _ = request(port, "GET", "/api/games/export?download=0",
                                        source=source)
            except OSError:
                status = 0
            counts[str(status)] = counts.get(str(status), 0) + 1
            if status == 503:
                time.sleep(0.05)

    threads = [threading.Thread(target=read, args=(n,), daemon=True) for n in range(count)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(60)


def importing(server: Server, files: list[bytes]) -> tuple[float, list[int], float]:
    """Post ``files`` at once; the peak memory above idle meanwhile, the statuses, seconds."""
    idle = server.rss_mb()
    peak = [idle]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], server.rss_mb())
            time.sleep(0.01)

    statuses: list[int] = []

    def post(data: bytes, n: int) -> None:
        try:
            statuses.append(request(server.port, "POST", "/api/games/import", data,
                                    f"127.0.2.{n + 1}", timeout=600)[0])
        except OSError:  # refused from its headers while the body was still being sent
            statuses.append(0)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    started = time.perf_counter()
    posts = [threading.Thread(target=post, args=(f, n)) for n, f in enumerate(files)]
    for t in posts:
        t.start()
    for t in posts:
        t.join(900)
    seconds = time.perf_counter() - started
    done.set()
    watcher.join(5)
    return peak[0] - idle, statuses, seconds


def import_file(games: list[dict[str, Any]], most_bytes: int, most_growth: int) -> bytes:
    from sudoku_table.table.journal import stored_size

    chosen, size, growth, n = [], 200, 0, 0
    while True:
        g = games[n % len(games)]
        entry = {"id": n, "variant": g["variant"], "finished": moment(10_000_000 + n),
                 "record": g["record"], "state": g["state"]}
        text = len(json.dumps(entry)) + 2
        grows = stored_size(entry)
        if size + text > most_bytes or growth + grows > most_growth:
            break
        chosen.append(entry)
        size, growth, n = size + text, growth + grows, n + 1
    return json.dumps(export_document(chosen, "now", {"version": "bench"})).encode()


def empty_objects(size: int) -> bytes:
    head = b'{"format": "sudoku-table-games", "version": 1, "games": ['
    return head + b",".join([b"{}"] * ((size - len(head)) // 3)) + b"]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--readers", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=8130)
    args = parser.parse_args()
    from sudoku_table.table.archive import MAX_GROWTH
    from sudoku_table.web import IMPORT_MAX_BYTES

    games = finished_examples()
    with tempfile.TemporaryDirectory() as data:
        fill_journal(Path(data) / "journal.sqlite3", args.games, games)
        server = Server(Path(data), args.port)
        try:
            request(args.port, "POST", "/api/game", b'{"variant": "classic-sudoku"}')
            alone = measure(args.port, args.seconds / 2)
            counts: dict[str, int] = {}
            reading = measure(args.port, args.seconds,
                              lambda s: readers(args.port, args.readers, s, counts))
            largest = import_file(games, IMPORT_MAX_BYTES - 4096, MAX_GROWTH - 1024 * 1024)
            result: dict[str, Any] = {}

            def load(_: float) -> None:
                result["largest"] = importing(server, [largest])

            during_import = measure(args.port, 0, load)
            bomb = empty_objects(IMPORT_MAX_BYTES - 1024)
            result["bomb"] = importing(server, [bomb])
            result["bombs"] = importing(server, [bomb] * 16)
            wal = Path(data) / "journal.sqlite3-wal"
            wal_mb = wal.stat().st_size / 1e6 if wal.exists() else 0.0
            journal_mb = (Path(data) / "journal.sqlite3").stat().st_size / 1e6
        finally:
            server.close()

    def line(label: str, figures: tuple[float, float, int]) -> str:
        worst, p99, n = figures
        return f"{label}: worst {worst:.1f} ms, p99 {p99:.1f} ms ({n} inputs)"

    print(f"finished games on the table: {args.games}")
    print(line("a phone's input alone", alone))
    print(line(f"with {args.readers} clients reading the archive", reading)
          + f"; reads answered: {counts}")
    memory, statuses, seconds = result["largest"]
    games_in = json.loads(largest)["games"]
    print(line(f"while importing {len(games_in)} games ({len(largest) / 1e6:.1f} MB)",
               during_import) + f"; import {statuses} in {seconds:.1f} s")
    print(f"server memory above idle: largest import {memory:.1f} MB; 8 MB of empty objects "
          f"{result['bomb'][0]:.1f} MB {result['bomb'][1]}; 16 of them at once "
          f"{result['bombs'][0]:.1f} MB {sorted(result['bombs'][1])} (0: refused from its "
          "headers, the connection closed while the body was still being sent)")
    print(f"journal after the import: {journal_mb:.1f} MB, WAL {wal_mb:.1f} MB")
    baseline = alone[0]
    delays = [reading[0] - baseline, during_import[0] - baseline]
    memories = [memory, result["bomb"][0], result["bombs"][0]]
    print(f"worst delay over the baseline: {max(delays):.1f} ms (goal {GOAL_MS:g}); "
          f"peak memory {max(memories):.1f} MB (goal {MEMORY_GOAL_MB:g})")
    ok = max(delays) <= GOAL_MS and max(memories) <= MEMORY_GOAL_MB
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
