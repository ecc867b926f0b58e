"""Hosts against everybody else: idle connections, silent live views, huge bodies, and a crowd.

The panel runs under the real waitress server on loopback; 127.0.0.1 plays the attacking host and
127.0.0.2 a family's phone. Printed:

- a crowd: 16 addresses each holding every connection they may (half idle, half trickling one
  header byte every 2 s) and every live view they may (never read) while a game goes on; then
  new phones from addresses not seen yet: the worst wait for an answer to ``GET /api/state``
  (goal: under 1 s) and for a live view's first event (goal: under 5 s);

- how many idle connections one host holds (it keeps opening, up to 600) and the worst time a
  normal request from the phone waits meanwhile (goal: under 2 s at every step);
- how long until a live view whose client never reads is ended and its slot is free;
- how long a body announced as 100 MB takes to be refused, and how much of it was sent.

Run: .venv/bin/python bench/bench_connections.py [--connections 600]
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudoku_table.assembly import open_panel  # noqa: E402
from sudoku_table.web.server import PanelServer  # noqa: E402

PHONE = "127.0.0.2"
BUDGET_S = 2.0


def connect(port: int, source: str = "127.0.0.1", rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    return sock


def request(port: int, path: str, source: str = PHONE) -> tuple[int, float]:
    started = time.monotonic()
    sock = connect(port, source)
    try:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     "Connection: close\r\n\r\n".encode())
        head = sock.recv(64)
    finally:
        sock.close()
    return int(head.split()[1]), time.monotonic() - started


def still_open(sock: socket.socket) -> bool:
    sock.settimeout(0.01)
    try:
        return sock.recv(1) != b""
    except TimeoutError:
        return True
    except OSError:
        return False


def idle_connections(port: int, count: int) -> tuple[int, float]:
    held: list[socket.socket] = []
    worst = 0.0
    try:
        for i in range(count):
            try:
                held.append(connect(port))
            except OSError:
                break
            if i % 25 == 0:
                _, seconds = request(port, "/api/state")
                worst = max(worst, seconds)
        _, seconds = request(port, "/api/state")
        worst = max(worst, seconds)
        open_count = sum(still_open(s) for s in held)
    finally:
        for sock in held:
            sock.close()
    return open_count, worst


def silent_view(port: int, panel: object) -> float:
    table = panel.table  # type: ignore[attr-defined]
    table.new_game("classic-sudoku", 4)
    silent = []
    for _ in range(6):  # one host's whole share
        sock = connect(port, rcvbuf=4096)
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        silent.append(sock)
    time.sleep(0.3)
    started = time.monotonic()
    try:
        while time.monotonic() - started < 30:
            for square in ("a1", "b2", "c3", "d4"):
                table.set_board([square])
            holding = panel.app.extensions["sudoku_table"].streams.held("127.0.0.1")  # type: ignore[attr-defined]
            if holding < 6:
                return time.monotonic() - started
        return float("inf")
    finally:
        for sock in silent:
            sock.close()


def huge_body(port: int) -> tuple[float, int, bytes]:
    sock = connect(port)
    sent = 0
    answer = b""
    try:
        sock.sendall(f"POST /api/input HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                     "application/json\r\nContent-Length: 100000000\r\n\r\n".encode())
        started = time.monotonic()
        sock.settimeout(0.05)
        while time.monotonic() - started < 10 and b"\r\n" not in answer:
            try:
                sent += sock.send(b" " * 65536)
            except (TimeoutError, BlockingIOError):
                pass
            except OSError:
                break
            try:
                answer += sock.recv(4096)
            except (TimeoutError, BlockingIOError):
                pass
        return time.monotonic() - started, sent, answer.split(b"\r\n", 1)[0]
    finally:
        sock.close()


CROWD = 16
REQUEST_GOAL_S = 1.0
VIEW_GOAL_S = 5.0


def first_view(port: int, source: str) -> float:
    """Seconds until a live view from ``source`` sends its first event (inf if refused)."""
    started = time.monotonic()
    sock = connect(port, source)
    try:
        sock.settimeout(10)
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        seen = b""
        while b"event: view" not in seen:
            chunk = sock.recv(65536)
            if not chunk or seen.startswith(b"HTTP/1.1 429"):
                return float("inf")
            seen += chunk
        return time.monotonic() - started
    except OSError:
        return float("inf")
    finally:
        sock.close()


def crowd(port: int, panel: object, newcomers: int = 8) -> tuple[int, int, float, float]:
    """The crowd of the docstring; what it holds and the new phones' worst waits."""
    table = panel.table  # type: ignore[attr-defined]
    table.new_game("classic-sudoku", 4)
    hosts = [f"127.0.8.{n}" for n in range(1, CROWD + 1)]
    views: list[socket.socket] = []
    idle: list[socket.socket] = []
    trickling: list[socket.socket] = []
    stop = threading.Event()

    def play() -> None:  # a game going on: a view a few times a second
        squares = ["a1", "b2", "c3", "d4"]
        n = 0
        while not stop.is_set():
            table.set_board([squares[n % 4]])
            n += 1
            time.sleep(0.2)

    def keep_trickling() -> None:
        while not stop.is_set():
            for sock in list(trickling):
                try:
                    sock.sendall(b"X")
                except OSError:
                    trickling.remove(sock)
            stop.wait(2.0)

    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        for host in hosts:
            for _ in range(6):
                sock = connect(port, host, rcvbuf=4096)
                sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                             .encode())
                views.append(sock)
            for n in range(40):
                try:
                    sock = connect(port, host)
                    if n % 2:
                        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-A: ")
                        trickling.append(sock)
                    else:
                        idle.append(sock)
                except OSError:
                    break
        trickler = threading.Thread(target=keep_trickling, daemon=True)
        trickler.start()
        time.sleep(3)
        shares = panel.app.extensions["sudoku_table"]  # type: ignore[attr-defined]
        held_views = shares.streams.held()
        worst_request, worst_view = 0.0, 0.0
        for n in range(newcomers):
            source = f"127.0.9.{n + 1}"
            try:
                _, seconds = request(port, "/api/state", source)
            except OSError:
                seconds = float("inf")
            worst_request = max(worst_request, seconds)
            worst_view = max(worst_view, first_view(port, source))
            time.sleep(0.5)
        open_count = sum(still_open(s) for s in idle + trickling)
        return open_count, held_views, worst_request, worst_view
    finally:
        stop.set()
        for sock in views + idle + trickling:
            sock.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=600)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        panel = open_panel(sim=True, data=data, config_path=None)
        server = PanelServer(panel.app, "127.0.0.1", 0)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            crowd_held, crowd_views, crowd_request, crowd_view = crowd(server.port, panel)
            held, worst = idle_connections(server.port, args.connections)
            evicted = silent_view(server.port, panel)
            refused, sent, status = huge_body(server.port)
        finally:
            server.stop()
            thread.join(timeout=5)
            panel.close()
    ok = (worst < BUDGET_S and crowd_request < REQUEST_GOAL_S and crowd_view < VIEW_GOAL_S)
    print(f"a crowd of {CROWD} addresses (idle, trickling, silent live views): holding "
          f"{crowd_held} connections and {crowd_views} live views")
    print(f"a new phone meanwhile: answered within {crowd_request * 1000:.0f} ms at worst "
          f"(goal {REQUEST_GOAL_S:g} s), its live view within {crowd_view * 1000:.0f} ms "
          f"(goal {VIEW_GOAL_S:g} s)")
    print(f"idle connections one host opened: {args.connections}; held open: {held} "
          f"(the rest closed at once)")
    print(f"worst wait of a normal request from another host meanwhile: {worst * 1000:.1f} ms "
          f"(budget {BUDGET_S:g} s)")
    print(f"a live view that never reads: ended and its slot free after {evicted:.2f} s")
    print(f"a body announced as 100 MB: {status.decode()!r} after {refused * 1000:.1f} ms, "
          f"{sent / 1e6:.2f} MB sent by then")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
