"""The attack on the journal, shared by the tests and ``bench/bench_trust.py``.

Two parts, both with fixed seeds:

* ``chaos``: a scripted game played through the JSON-lines runner in a subprocess, killed with
  SIGKILL at random points; after each restart every action whose view was printed before the
  kill must be in the resumed game (and at most the one line in flight more).
* ``damage_outcome``: a journal as a kill leaves it (a finished game and a running game of 30
  entries, all in the WAL), damaged in one way, then opened by a table. The outcome is
  ``recovered`` (nothing missing), ``told`` (something missing and the view says so) or
  ``silent`` (something missing and no word of it): the goal is no silent case.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.table import Table

from .helpers import Clock, make_table, put

ROOT = Path(__file__).resolve().parents[2]
FULL_GAME = [("a1", 1), ("b1", 2), ("c1", 3), ("d1", 4), ("a2", 3), ("b2", 4), ("c2", 1),
             ("d2", 2), ("a3", 2), ("b3", 1), ("c3", 4), ("d3", 3), ("a4", 4), ("b4", 3),
             ("c4", 2), ("d4", 1)]
RUNNING_ENTRIES = 30
NAME = "j.db"
TOLD = ("lost", "damaged", "set aside", "unreadable", "could not", "missing", "was kept")


def place(table: Table, clock: Clock, square: str, number: int) -> dict[str, Any]:
    put(table, clock, square)
    return table.input({"type": "number", "square": square, "number": number})


def play_running_game(table: Table, clock: Clock) -> None:
    """A running game of 30 entries: 15 placements, each followed by a hints switch."""
    table.new_game("fake-kosmos")
    table.set_board([])
    for i, (square, number) in enumerate(FULL_GAME[:15]):
        place(table, clock, square, number)
        table.input({"type": "hints", "on": i % 2 == 0})


def build_snapshot(base: Path) -> tuple[Path, dict[str, Any]]:
    """A journal with a finished game and a running game of 30 entries, as a kill -9 leaves it:
    the main file and its WAL, nothing checkpointed; and what a full recovery shows."""
    live = base / "live"
    live.mkdir(parents=True)
    table, clock, _ = make_table(live / NAME)
    table.new_game("fake-kosmos")
    for square, number in FULL_GAME:
        place(table, clock, square, number)
    play_running_game(table, clock)
    expected = {"game": table.view()["game"], "record": table.record(),
                "finished": [g["record"] for g in table.finished_games()]}
    snap = base / "snap"
    snap.mkdir()
    for p in live.iterdir():  # the connection is still open: nothing was checkpointed
        if not p.name.endswith("-shm"):
            shutil.copy2(p, snap / p.name)
    table.close()
    return snap, expected


def told(view: dict[str, Any]) -> bool:
    return any(any(word in n for word in TOLD) for n in view["table"]["notices"])


def outcome(path: Path, expected: dict[str, Any]) -> tuple[str, Table]:
    """``recovered``, ``told`` or ``silent`` (see the module docstring), and the open table."""
    table, _, _ = make_table(path)
    finished = [g["record"] for g in table.finished_games()]
    view = table.view()  # after finished_games: notices about skipped records reach the view
    complete = (view["game"] == expected["game"] and table.record() == expected["record"]
                and finished == expected["finished"])
    if complete:
        return "recovered", table
    return ("told" if told(view) else "silent"), table


def _random_bytes(name: str, seed: int, start: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        target = path.with_name(name)
        data = bytearray(target.read_bytes())
        rng = random.Random(seed)
        at = rng.randrange(start, len(data) - 200)
        data[at:at + 200] = rng.randbytes(200)
        target.write_bytes(bytes(data))
    return damage


def _checkpointed(damage: Callable[[Path], None]) -> Callable[[Path], None]:
    """The same damage after a clean stop moved everything into the main file."""
    def both(path: Path) -> None:
        db = sqlite3.connect(path)
        db.execute("SELECT count(*) FROM entries").fetchone()
        db.close()  # the last connection checkpoints and removes the WAL
        assert not path.with_name(path.name + "-wal").exists()
        damage(path)
    return both


def _sql(statement: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with sqlite3.connect(path) as db:
            db.execute(statement)
        db.close()
    return damage


def _delete(suffix: str) -> Callable[[Path], None]:
    return lambda path: path.with_name(path.name + suffix).unlink()


def _truncate(delete_wal: bool) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.write_bytes(b"")
        if delete_wal:
            path.with_name(path.name + "-wal").unlink()
    return damage


DAMAGE: dict[str, Callable[[Path], None]] = {
    "delete the WAL": _delete("-wal"),
    "delete the main file": lambda p: p.unlink(),
    "truncate the main file to 0": _truncate(False),
    "truncate the main file to 0, delete the WAL": _truncate(True),
    **{f"200 random bytes into the WAL, seed {s}": _random_bytes(NAME + "-wal", s, 32)
       for s in range(8)},
    **{f"200 random bytes into the main file, seed {s}": _random_bytes(NAME, s, 100)
       for s in range(4)},
    **{f"200 random bytes into the main file after a clean stop, seed {s}":
       _checkpointed(_random_bytes(NAME, s, 100)) for s in range(4)},
    "a damaged entry mid-game": _sql(
        "UPDATE entries SET data = '{\"type\": \"pla' WHERE game = 2 AND seq = 17"),
    "a changed entry mid-game": _sql(
        "UPDATE entries SET data = replace(data, '\"number\": 2', '\"number\": 4') "
        "WHERE game = 2 AND seq = 16"),
    "a missing entry mid-game": _sql("DELETE FROM entries WHERE game = 2 AND seq = 10"),
    "a damaged finished record": _sql("UPDATE games SET record = '{\"varia' WHERE id = 1"),
    "a damaged game start": _sql("UPDATE games SET options = '{\"x\": 1}' WHERE id = 2"),
    "delete the mark": _delete(".mark"),
    "garbage in the mark": lambda p: p.with_name(p.name + ".mark").write_text("{not json"),
}


def damage_outcome(snap: Path, expected: dict[str, Any], work: Path, case: str
                   ) -> tuple[str, dict[str, Any], list[str]]:
    """Copy the snapshot to ``work``, damage it, open it: the outcome, the view and the names of
    the files next to the journal after a clean stop."""
    shutil.copytree(snap, work)
    path = work / NAME
    DAMAGE[case](path)
    result, table = outcome(path, expected)
    view = table.view()
    table.close()
    return result, view, sorted(p.name for p in work.iterdir())


# --- kill -9 chaos ------------------------------------------------------------------------------

def runner(path: Path, board: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.table.runner", "--journal", str(path),
         "--board", ",".join(board), "--resolve", "tests.table.fakes:resolve"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def _cells(view: dict[str, Any] | None) -> set[str]:
    game = (view or {}).get("game")
    return set(game["cells"]) if game else set()


def chaos(base: Path, kills: int, seed: int, max_delay: float = 0.06) -> dict[str, Any]:
    """Play Fake Kosmos games through the runner and kill it ``kills`` times at random points.

    Returns ``kills``, ``survived`` (restarts where every acknowledged action was there),
    ``lost`` (acknowledged actions missing after a restart), ``games`` (games finished),
    ``acted`` (actions acknowledged) and ``problems`` (what went wrong, with the notices)."""
    rng = random.Random(seed)
    path = base / "chaos.db"
    board: list[str] = []
    acked: dict[str, Any] | None = None
    survived = lost = finished = acted = 0
    problems: list[str] = []
    for kill in range(kills + 1):
        proc = runner(path, board)
        assert proc.stdin is not None and proc.stdout is not None
        start = json.loads(proc.stdout.readline())
        if kill > 0:
            have, had = _cells(start), _cells(acked)
            game = start["game"]
            fresh_game = not have and acked is not None and acked["game"] and \
                acked["game"]["over"]
            missing = had - have
            if (missing and not fresh_game) or len(have - had) > 1:
                lost += len(missing)
                problems.append(f"kill {kill}: had {sorted(had)}, resumed {sorted(have)}")
            else:
                survived += 1
            if start["table"]["notices"]:
                problems.append(f"kill {kill}: notices {start['table']['notices']}")
            acked = start if game else acked
        elif start["game"]:
            acked = start  # a journal kept from an earlier run: all of it was acknowledged
        if kill == kills:
            proc.stdin.close()
            proc.wait(timeout=10)
            proc.stdout.close()
            break
        lines = []
        game = start["game"]
        if game is None or game["over"]:
            lines += [{"new_game": {"variant": "fake-kosmos"}}, {"board": []}]
            filled: set[str] = set()
        else:
            filled = set(game["cells"])
            lines.append({"board": sorted(filled)})
        for square, number in FULL_GAME:
            if square not in filled:
                lines += [{"sensor": square, "occupied": True},
                          {"input": {"type": "number", "square": square, "number": number}}]
        seen: list[dict[str, Any]] = []

        def read(out: Any = proc.stdout, seen: list[dict[str, Any]] = seen) -> None:
            for line in out:
                try:
                    seen.append(json.loads(line))
                except json.JSONDecodeError:
                    return  # a line cut by the kill was never acknowledged

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        proc.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        proc.stdin.flush()
        time.sleep(rng.uniform(0.0, max_delay))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        reader.join(timeout=10)
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except (BrokenPipeError, OSError):
                pass
        for line, view in zip(lines, seen, strict=False):
            if "input" in line and "error" not in view:
                acted += 1
                finished += bool(view["game"] and view["game"]["over"])
        views = [v for v in seen if "game" in v]
        if views:
            acked = views[-1]
        board = sorted(_cells(acked)) if acked and acked["game"] and \
            not acked["game"]["over"] else []
    return {"kills": kills, "survived": survived, "lost": lost, "games": finished,
            "acted": acted, "problems": problems}
