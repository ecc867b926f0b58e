"""One host against everybody else: idle connections, silent live views and huge bodies.

The panel runs under the real waitress server on loopback; 127.0.0.1 plays the attacking host and
127.0.0.2 a family's phone. Printed:

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

from app.assembly import open_panel  # noqa: E402
from app.web.server import PanelServer  # noqa: E402

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
            held, worst = idle_connections(server.port, args.connections)
            evicted = silent_view(server.port, panel)
            refused, sent, status = huge_body(server.port)
        finally:
            server.stop()
            thread.join(timeout=5)
            panel.close()
    ok = worst < BUDGET_S
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
