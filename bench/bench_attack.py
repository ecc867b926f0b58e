"""Bad requests against the live panel: how many were tried, how many gave a 5xx, and whether
any refused request changed the table; and how long guessing the PIN takes.

The panel runs as ``sudoku-table serve --sim`` composes it, under the real waitress server on
loopback, with a PIN set and a game running. Every API route (found in the app's URL map, so new
routes are covered) gets malformed bodies (deep nesting, huge numbers, NaN, bad UTF-8, wrong
types, Unicode digits in squares), random JSON objects built from the API's own field names,
bad query parameters, foreign hosts and origins, wrong content types and missing or wrong PINs.
A refused state-changing request must leave the table's version where it was.

Then the disk fills: the same live panel with its journal's writes failing as a full or failing
SD card fails them (``tests/table/faults.py``: SQLite's ``SQLITE_FULL`` and ``SQLITE_IOERR``,
``ENOSPC`` and ``EIO`` for the side files), switched on and off at random while phones play
through the API. Every answer that showed an action counted must find it again after a restart;
anything else must have said so (``503 cannot_save``, or the view's ``table.saving`` with the
action held).

Goals: 0 responses of 5xx except the documented ``503 cannot_save``; 0 state changes on a
refused request; 0 acknowledged actions lost to the full disk.

Run: .venv/bin/python bench/bench_attack.py [--random 2000] [--seed 1] [--disk-full 150]
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudoku_table.assembly import open_panel  # noqa: E402
from sudoku_table.table import Table  # noqa: E402
from sudoku_table.web.security import PinGuard  # noqa: E402
from sudoku_table.web.server import PanelServer  # noqa: E402

PIN = "4711"
FIELDS = ["type", "square", "number", "owner", "on", "variant", "players", "options", "setup",
          "hints", "names", "level", "occupied", "pin", "seed"]
KINDS = ["number", "blank", "discard", "joker", "undo", "end_turn", "bear_off", "hints", "x"]
FIXED_BODIES = [
    b"[" * 999 + b"]" * 999, b'{"a":' * 999 + b"1" + b"}" * 999, b"9" * 5000,
    b'{"type": "number", "number": ' + b"9" * 5000 + b"}", b'{"level": NaN}', b"\xff\xfe\x00",
    b"", b"null", b'"undo"', b"[]", '{"type":"number","square":"a٣","number":3}'.encode(),
    '{"square":"a٣","occupied":true}'.encode(), b'{"square":"a1","occupied":"false"}',
    b'{"type":"undo"}', b'{"type":"hints","on":true}', b'{"type":"end_turn"}',
    b'{"variant":"kakuro","setup":{"a1":{"owner":' + b"[" * 50 + b"]" * 50 + b"}}}",
]
QUERIES = ["seed=%C2%B2", "seed=%D9%A3", "seed=-1", "seed=" + "9" * 40, "seed=1&seed=2",
           "download=%00", "x=1", "download=1", "seed=7"]


def random_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(12 if depth < 3 else 8)
    if pick == 0:
        return rng.choice(KINDS)
    if pick == 1:
        return rng.choice(["a1", "i9", "e5", "j1", "a0", "a٣", "A1", "", "a1 ", "ａ1"])
    if pick == 2:
        return rng.choice([0, 1, 9, -1, 10, 2**31, 2**64, 10**30])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, 1e-308, 3.0])
    if pick == 4:
        return rng.choice([True, False, None])
    if pick == 5:
        letters = "ab19\u00b2\u0663\u202e\x00\"\\ "
        return "".join(rng.choice(letters) for _ in range(rng.randrange(9)))
    if pick == 6:
        return rng.choice(["classic-sudoku", "vierer-dominari", "sudoku-family", "nope"])
    if pick == 7:
        return "x" * rng.choice([1, 30, 5000])
    if pick in (8, 9):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return random_object(rng, depth + 1)


def random_object(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    return {rng.choice(FIELDS): random_value(rng, depth) for _ in range(rng.randrange(5))}


class Attacker:
    def __init__(self, port: int, panel: Any) -> None:
        self.port = port
        self.panel = panel
        self.statuses: Counter[int] = Counter()
        self.server_errors: list[str] = []
        self.changed: list[str] = []
        self.tried = 0

    def send(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        sent = {"Host": f"127.0.0.1:{self.port}", "Content-Type": "application/json"}
        sent.update(headers or {})
        before = self.panel.table.version
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            response.read()
            status = response.status
        finally:
            conn.close()
        self.tried += 1
        self.statuses[status] += 1
        label = f"{method} {path} {body[:60]!r}" if body is not None else f"{method} {path}"
        if status >= 500:
            self.server_errors.append(f"{status} {label}")
        elif status >= 400 and method == "POST" and self.panel.table.version != before:
            self.changed.append(f"{status} {label}")
        return status


def routes(app: Any) -> list[tuple[str, str]]:
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.rule == "/api/events":
            continue
        path = rule.rule.replace("<int:game_id>", "1").replace("<variant_id>", "kakuro")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, path))
    return found


def _post(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=json.dumps(body).encode(),
                     headers={"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def _get(port: int, path: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        data: dict[str, Any] = json.loads(conn.getresponse().read() or b"{}")
        return data
    finally:
        conn.close()


def disk_full(inputs: int, seed: int) -> dict[str, Any]:
    """Phones play Classic Sudoku through the API of a live panel whose journal's writes fail at
    random (full, then I/O errors; freed again after a while), and restart it at the end: how
    many actions were acknowledged, held or refused (told), and lost."""
    import pytest

    from tests.table.faults import Faults, installed

    rng = random.Random(seed)
    faults = Faults("full")
    counts: Counter[str] = Counter()
    acknowledged: dict[str, int] = {}
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as data, pytest.MonkeyPatch.context() as patch, \
            installed(faults, patch):
        panel = open_panel(sim=True, data=data, config_path=None, test_config={})
        server = PanelServer(panel.app, "127.0.0.1", 0)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            port = server.port
            status, view = _post(port, "/api/game", {"variant": "classic-sudoku", "players": 3})
            assert status == 200, view
            for _ in range(inputs):
                roll = rng.random()
                if roll < 0.1:
                    faults.down(rng.choice(["full", "io"]))
                elif roll < 0.25:
                    faults.up()
                state = view.get("table") or {}
                if (state.get("saving") or {}).get("state") == "failing":
                    if rng.random() < 0.3:  # somebody taps anyway: refused, and said so
                        status, answer = _post(port, "/api/input", {
                            "type": "hints", "on": not state.get("hints")})
                        counts["requests"] += 1
                        if status == 503 and answer.get("code") == "cannot_save":
                            counts["refused, told"] += 1
                        elif status >= 500:
                            errors.append(f"{status} {answer}")
                    time.sleep(2.2)  # the players wait for the table to try again
                    view = _get(port, "/api/state")
                    continue
                game = view.get("game") or {}
                if game.get("over"):
                    break
                cells = set(game.get("cells") or {})
                occupied = set(state.get("occupied") or [])
                prompt = state.get("prompt")
                if prompt and prompt.get("kind") == "number" and prompt.get("choices"):
                    body = {"type": "number", "square": prompt["square"],
                            "number": rng.choice(prompt["choices"])}
                    status, view = _post(port, "/api/input", body)
                elif occupied - cells:  # a piece that does not count: taken away again
                    status, view = _post(port, "/api/sim/square",
                                         {"square": sorted(occupied - cells)[0],
                                          "occupied": False})
                else:
                    free = [f"{f}{r}" for f in "abcdefghi" for r in "123456789"
                            if f"{f}{r}" not in cells | occupied]
                    status, view = _post(port, "/api/sim/square",
                                         {"square": rng.choice(free), "occupied": True})
                counts["requests"] += 1
                if status == 503 and view.get("code") == "cannot_save":
                    counts["refused, told"] += 1
                    view = _get(port, "/api/state")
                    continue
                if status >= 500:
                    errors.append(f"{status} {view}")
                if status != 200:
                    view = _get(port, "/api/state")
                    continue
                if ((view.get("table") or {}).get("saving") or {}).get("held") is not None:
                    counts["held, told"] += 1
                for cell, piece in ((view.get("game") or {}).get("cells") or {}).items():
                    acknowledged.setdefault(cell, piece["number"])
            faults.up()
            time.sleep(2.5)  # the table's timer saves what waited
        finally:
            server.stop()
            thread.join(timeout=5)
            panel.close()
        faults.up()
        again = Table(journal=Path(data) / "journal.sqlite3")
        game = again.view()["game"] or {}
        again.close()
    have = {cell: piece["number"] for cell, piece in (game.get("cells") or {}).items()}
    lost = [cell for cell, number in acknowledged.items() if have.get(cell) != number]
    return {"requests": counts["requests"], "acknowledged": len(acknowledged),
            "held": counts["held, told"], "refused": counts["refused, told"],
            "lost": len(lost), "errors": errors, "writes failed": len(faults.failed)}


def pin_guessing_days() -> tuple[int, float]:
    """Guesses one attacker gets through in a day against the shared budget, and the days all
    10,000 four-digit PINs would take."""
    now = [0.0]
    guard = PinGuard("9999", clock=lambda: now[0])
    guesses = 0
    while now[0] < 86400:
        try:
            guard.require(f"{guesses:04d}", "anywhere")
        except Exception as e:  # ApiError
            if getattr(e, "status", 0) == 429:
                now[0] += e.extra["retry_after"]  # type: ignore[attr-defined]
                continue
        guesses += 1
    return guesses, 10_000 / guesses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=2000, help="random JSON bodies per run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--disk-full", type=int, default=150,
                        help="inputs played while the journal's disk fills and fails")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    logging.getLogger("sudoku_table.web.security").setLevel(logging.ERROR)  # a wrong PIN is logged
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as data:
        panel = open_panel(sim=True, data=data, config_path=None,
                           test_config={"PANEL_PIN": PIN})
        server = PanelServer(panel.app, "127.0.0.1", 0)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            attacker = Attacker(server.port, panel)
            pin = {"X-Table-Pin": PIN}
            attacker.send("POST", "/api/game", json.dumps({"variant": "classic-sudoku",
                                                           "players": 3}).encode(), pin)
            table_routes = routes(panel.app)
            for method, path in table_routes:
                for body in FIXED_BODIES:
                    attacker.send(method, path, body if method == "POST" else None)
                for query in QUERIES:
                    attacker.send(method, f"{path}?{query}", b"{}" if method == "POST" else None)
                attacker.send(method, path, b"{}", {"Host": "evil.example"})
                attacker.send(method, path, b"{}", {"Origin": "http://evil.example"})
                attacker.send(method, path, b"{}", {"Origin": "null"})
                attacker.send(method, path, b"{}", {"Content-Type": "text/plain"})
            posts = [p for m, p in table_routes if m == "POST"]
            for _ in range(args.random):
                body = random_object(rng)
                if rng.random() < 0.3:
                    body["type"] = rng.choice(KINDS)
                attacker.send("POST", rng.choice(posts), json.dumps(body).encode())
            for _ in range(6):
                attacker.send("POST", "/api/input", b'{"type": "undo"}')
                attacker.send("POST", "/api/input", b'{"type": "undo", "pin": "0000"}')
        finally:
            server.stop()
            thread.join(timeout=5)
            panel.close()
    seconds = time.perf_counter() - started
    per_day, days = pin_guessing_days()
    print(f"bad requests tried: {attacker.tried} in {seconds:.1f} s")
    print("statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(attacker.statuses.items())))
    print(f"5xx seen: {len(attacker.server_errors)} (goal 0)")
    for line in attacker.server_errors[:10]:
        print(f"  {line}")
    print(f"state changes on a refused request: {len(attacker.changed)} (goal 0)")
    for line in attacker.changed[:10]:
        print(f"  {line}")
    print(f"PIN guesses one attacker gets in a day: {per_day}; all 10,000 take {days:.0f} days")
    logging.getLogger("sudoku_table.table").setLevel(logging.ERROR)  # every failed write is logged
    started = time.perf_counter()
    full = disk_full(args.disk_full, args.seed)
    seconds = time.perf_counter() - started
    print(f"\ndisk full and failing at random ({full['writes failed']} writes failed, "
          f"{seconds:.1f} s): {full['requests']} requests")
    print(f"  actions acknowledged: {full['acknowledged']}; held and told: {full['held']}; "
          f"refused with 503 cannot_save: {full['refused']}")
    print(f"  acknowledged lost after a restart: {full['lost']} (goal 0)")
    print(f"  other 5xx: {len(full['errors'])} (goal 0)")
    for line in full["errors"][:10]:
        print(f"  {line}")
    return 1 if attacker.server_errors or attacker.changed or full["lost"] or \
        full["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
