"""The attack on the journal, shared by the tests and ``bench/bench_trust.py``.

Four parts, all with fixed seeds:

* ``chaos``: a scripted game played through the JSON-lines runner in a subprocess, killed with
  SIGKILL at random points; after each restart every action whose view was printed before the
  kill must be in the resumed game (and at most the one line in flight more).
* ``damage_outcome``: a journal as a kill leaves it (a finished game and a running game of 30
  entries, all in the WAL), damaged in one way, then opened by a table. The outcome is
  ``recovered`` (nothing missing), ``told`` (something missing and the view says so) or
  ``silent`` (something missing and no word of it): the goal is no silent case.
* ``write_faults``: a scripted evening (a game with a hints switch, take-backs from the panel
  and on the board, a finish, a reopen, an import, a new game) played once per write it makes,
  with that write failing as a full or failing disk fails it (``faults.Faults``). After each
  step whatever did not count must be said (the input refused, or the view's ``saving`` state
  ``failing``); then the disk comes back, the table saves what waited, and the evening goes on
  exactly as without the fault. After a restart every acknowledged action and finished game
  is there and the journal's chain holds.
* ``disk_full_chaos``: Fake Kosmos through the runner in a subprocess on a real small disk
  (a tmpfs, root only) that is filled and freed at random, the runner killed (SIGKILL) at
  random points and restarted, sometimes while the disk is still full. After each restart
  every acknowledged action is there, and every piece on the board the game does not count
  shows as a disagreement (or the view says the table cannot save).
* ``issue_forty`` and ``issue_sixty``: the two sequences issue 22 measured on a real small disk
  (5 of 40 and 50 of 60 acknowledged actions were lost before the fix). They use only what the
  table had before it could tell a failed write: a player who sees an action not counted takes
  the piece away and tries it again later.
"""

from __future__ import annotations

import contextlib
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

from sudoku_table.table import Table
from sudoku_table.table.errors import CannotSave, InputError
from sudoku_table.table.journal import RESERVE_BYTES, Journal, JournalError
from sudoku_table.table.table import RETRY_SECONDS, SPACE_SECONDS

from .faults import Faults, SmallDisk, installed
from .helpers import Clock, lift, make_table, place, put

ROOT = Path(__file__).resolve().parents[2]
FULL_GAME = [("a1", 1), ("b1", 2), ("c1", 3), ("d1", 4), ("a2", 3), ("b2", 4), ("c2", 1),
             ("d2", 2), ("a3", 2), ("b3", 1), ("c3", 4), ("d3", 3), ("a4", 4), ("b4", 3),
             ("c4", 2), ("d4", 1)]
RUNNING_ENTRIES = 30
NAME = "j.db"
TOLD = ("lost", "damaged", "set aside", "unreadable", "could not", "missing", "was kept")


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
                "finished": [g["record"] for g in table.finished.every()]}
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
    finished = [g["record"] for g in table.finished.every()]
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

def runner(path: Path, board: list[str], *extra: str,
           quiet: bool = False) -> subprocess.Popen[str]:
    """The JSON-lines runner on ``path``; ``quiet``: its log (every failed write) unseen."""
    return subprocess.Popen(
        [sys.executable, "-m", "sudoku_table.table.runner", "--journal", str(path),
         "--board", ",".join(board), "--resolve", "tests.table.fakes:resolve", *extra],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        stderr=subprocess.DEVNULL if quiet else None, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _cells(view: dict[str, Any] | None) -> set[str]:
    game = (view or {}).get("game")
    return set(game["cells"]) if game else set()


def chaos(base: Path, kills: int, seed: int, max_delay: float = 0.004) -> dict[str, Any]:
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
        # The kill falls after a drawn number of answers, then a drawn moment more (between two
        # lines or inside one's write): where it lands in the game does not hang on the
        # machine's speed, only on the seed.
        answers = rng.randrange(len(lines) + 1)
        deadline = time.monotonic() + 30
        while len(seen) < answers and reader.is_alive() and time.monotonic() < deadline:
            time.sleep(0.0005)
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


# --- write faults -------------------------------------------------------------------------------

EVENING: list[tuple[Any, ...]] = [
    ("new",), ("place", "a1", 1), ("place", "b1", 2), ("hints", True),
    ("choose", "c1", 3),  # the number first: the piece's sensor event makes the action
    ("undo",), ("choose", "c1", 3), ("place", "d1", 4),
    ("takeback", "d1"),  # lifted again: taken back on the board once it has settled
    *[("place", square, number) for square, number in FULL_GAME[3:]],  # the last one finishes
    ("reopen",), ("place", "d4", 1), ("import",), ("new",), ("place", "a1", 1),
    ("hints", False), ("place", "b1", 2),
]
"""The evening each write fault is tried on."""


def _import_document() -> dict[str, Any]:
    from sudoku_table.table.archive import export_document
    from tests.web.appliance import example

    game = example()
    return export_document([{"id": 1, "variant": game["record"]["variant"],
                             "finished": "2025-01-01T20:00:00+00:00", **game}],
                           "2025-02-01T10:00:00+00:00", {"version": "0.1.0"})


def _evening_step(table: Table, clock: Clock, step: tuple[Any, ...],
                  document: dict[str, Any]) -> None:
    """One step of ``EVENING``; raises ``CannotSave`` or ``JournalError`` when refused."""
    kind = step[0]
    if kind == "new":
        table.new_game("fake-kosmos", replace=True)
        table.set_board([])
    elif kind == "place":
        place(table, clock, step[1], step[2])
    elif kind == "choose":
        table.input({"type": "number", "number": step[2]})
        put(table, clock, step[1])
    elif kind == "hints":
        table.input({"type": "hints", "on": step[1]})
    elif kind == "undo":  # meant: Undo asks before taking back another player's action
        table.input({"type": "undo", "confirm": True})
    elif kind == "reopen":
        table.input({"type": "undo", "confirm": True})
    elif kind == "takeback":
        lift(table, clock, step[1])
        clock.now += 1.1
        table.tick()
    elif kind == "import":
        table.finished.import_document(document)


def _snapshot(table: Table) -> tuple[Any, list[Any]]:
    """The running game's record and the finished games' records in their order. Not their
    numbers: an import given up after some of its games were staged leaves a gap in them
    (SQLite never hands out a number twice), which loses nothing."""
    finished = sorted(table.finished.every(), key=lambda g: g["id"])
    return table.record(), [(bool(g["imported"]), g["record"]) for g in finished]


def _until_saved(table: Table, clock: Clock, faults: Faults, rounds: int = 40) -> bool:
    """Let the table's timer try again until it saves (the disk is freed after a few tries,
    as a person would free it); True once it does."""
    for n in range(rounds):
        state = table.saving()["state"]
        if state == "ok":
            return True
        if n == 3:
            faults.up()
        clock.now += RETRY_SECONDS if state == "failing" else SPACE_SECONDS
        table.tick()
    return table.saving()["state"] == "ok"


def _evening(path: Path, faults: Faults, reference: list[Any] | None, reserve: int,
             checkpoint: int) -> dict[str, Any]:
    """Play ``EVENING`` once; with ``reference`` (the snapshots of a run without faults), check
    every step against it. Returns the snapshots, the problems and counts."""
    document = _import_document()
    table, clock, _ = make_table(path, reserve=reserve, checkpoint=checkpoint)
    snaps: list[Any] = []
    problems: list[str] = []
    told = 0
    try:
        for index, step in enumerate(EVENING):
            refused = False
            try:
                _evening_step(table, clock, step, document)
            except (CannotSave, JournalError):
                refused = True
            except InputError as e:
                problems.append(f"step {index} {step}: refused for another reason: {e}")
            snap = _snapshot(table)
            if reference is not None and snap != reference[index]:
                if refused or table.saving()["state"] == "failing":
                    told += 1
                else:
                    problems.append(f"step {index} {step}: did not count and nothing said")
            if not _until_saved(table, clock, faults):
                problems.append(f"step {index} {step}: never saved again: {table.saving()}")
            if refused:  # a refused input is given again once the table saves
                try:
                    _evening_step(table, clock, step, document)
                except (InputError, JournalError) as e:
                    problems.append(f"step {index} {step}: refused again: {e}")
                _until_saved(table, clock, faults)
            if step[0] in ("undo", "reopen"):  # the piece taken back leaves the board
                view = table.view()
                for square in sorted(set(view["table"]["occupied"])
                                     - set((view["game"] or {}).get("cells", {}))):
                    lift(table, clock, square)
            snap = _snapshot(table)
            if reference is not None and snap != reference[index]:
                problems.append(f"step {index} {step}: the evening went another way")
            snaps.append(snap)
        last = snaps[-1]
    finally:
        table.close()
    faults.up()
    again, _, _ = make_table(path, reserve=0)
    after = _snapshot(again)
    notices = again.view()["table"]["notices"]
    again.close()
    had = (last[0] or {}).get("actions", [])
    have = (after[0] or {}).get("actions", [])
    kept = next((i for i, (a, b) in enumerate(zip(had, have, strict=False)) if a != b),
                min(len(had), len(have)))
    lost = len(had) - kept + len([g for g in last[1] if g not in after[1]])
    if lost or after != last:
        problems.append(f"after the restart {lost} acknowledged missing")
    if notices:
        problems.append(f"the restart said: {notices}")
    journal = Journal(path, reserve=0)
    if journal.troubled:
        problems.append(f"the journal's checks failed: {journal.notices}")
    journal.close()
    return {"snaps": snaps, "problems": problems, "told": told, "lost": lost,
            "acknowledged": len((last[0] or {}).get("actions", [])) + len(last[1])}


def write_faults(base: Path, monkeypatch: Any, cause: str = "full", persist: int = 1,
                 reserve: int = 0, checkpoint: int = 16 * 1024,
                 only: Callable[[list[str]], list[int]] | None = None) -> dict[str, Any]:
    """``EVENING`` once without faults (counting its writes), then once per write with that
    write failing (and the ``persist - 1`` after it; 0: until the disk is freed) with ``cause``
    (``full``, ``io``, ``read_only``); ``only`` picks some writes by their kinds in order.
    Returns ``writes``, ``runs``, ``acknowledged``, ``lost``, ``told`` (steps that did not count
    and said so), ``silent`` and ``problems``."""
    faults = Faults(cause)
    with installed(faults, monkeypatch):
        clean = _evening(base / "clean.db", faults, None, reserve, checkpoint)
        writes = faults.count
        kinds = list(faults.log)
        result = {"writes": writes, "runs": 0, "acknowledged": 0, "lost": 0, "told": 0,
                  "silent": 0, "problems": list(clean["problems"])}
        for k in (range(writes) if only is None else only(kinds)):
            faults.reset()
            faults.up()
            if persist:
                faults.fail(k, persist)
            else:
                faults.fail(k, 10 ** 6)
            run = _evening(base / f"fault{k}.db", faults, clean["snaps"], reserve, checkpoint)
            result["runs"] += 1
            result["acknowledged"] += run["acknowledged"]
            result["lost"] += run["lost"]
            result["told"] += run["told"]
            silent = [p for p in run["problems"] if "nothing said" in p]
            result["silent"] += len(silent)
            result["problems"] += [f"write {k} ({kinds[k] if k < len(kinds) else '?'}): {p}"
                                   for p in run["problems"]]
            for p in (base / f"fault{k}.db", ):
                for side in p.parent.glob(p.name + "*"):
                    side.unlink()
    return result


# --- a real disk that fills, with kill -9 -------------------------------------------------------

class _Runner:
    """The runner in a subprocess, one line in and one view out at a time."""

    def __init__(self, path: Path, board: set[str], reserve_kb: int, checkpoint_kb: int) -> None:
        self.proc = runner(path, sorted(board), "--reserve-kb", str(reserve_kb),
                           "--checkpoint-kb", str(checkpoint_kb), quiet=True)
        self.seen: list[dict[str, Any]] = []
        self.start = self.read()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        view: dict[str, Any] = json.loads(line) if line.strip() else {"error": "no answer"}
        self.seen.append(view)
        return view

    def send(self, line: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(line) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def kill(self, rng: random.Random, line: dict[str, Any] | None) -> None:
        """SIGKILL, now or while ``line`` is being handled; the views it printed before dying
        are read too (they were shown: acknowledged)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if line is not None:
            self.proc.stdin.write(json.dumps(line) + "\n")
            self.proc.stdin.flush()
            time.sleep(rng.uniform(0.0, 0.03))
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        for text in self.proc.stdout.read().splitlines():
            try:
                self.seen.append(json.loads(text))
            except json.JSONDecodeError:
                pass  # cut by the kill: never shown
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(BrokenPipeError, OSError):
                stream.close()

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=20)
        self.proc.stdout.close()


def _counted(view: dict[str, Any]) -> dict[str, Any] | None:
    """The cells a view shows counted, with whether its game is over (None: no view of a
    game)."""
    game = view.get("game")
    if not game:
        return None
    return {"cells": dict(game["cells"]), "over": bool(game["over"])}


def disk_full_chaos(disk: SmallDisk, rounds: int, seed: int, reserve_kb: int = 256,
                    checkpoint_kb: int = 64) -> dict[str, Any]:
    """Fake Kosmos games through the runner on ``disk``, which is filled and freed at random
    between lines; the runner is killed at random points (between lines or while one is
    handled) and restarted with the board as the players left it, often while the disk is
    still full. Returns ``rounds``, ``acknowledged`` (actions shown counted), ``lost``
    (acknowledged, then missing after a restart), ``held`` (actions the table could not save
    and said so), ``told`` (restarts where a piece the game does not count shows as a
    disagreement, or the view says the table cannot save), ``silent`` and ``problems``."""
    rng = random.Random(seed)
    path = disk.path / "journal.db"
    board: set[str] = set()  # the pieces the players left on the table
    acked: dict[str, Any] | None = None  # the last view of the game shown
    result: dict[str, Any] = {"rounds": rounds, "acknowledged": 0, "lost": 0, "held": 0,
                              "told": 0, "silent": 0, "fills": 0, "problems": []}
    seen_acks: set[tuple[int, str]] = set()
    game_no = 0
    problems: list[str] = result["problems"]

    def note(view: dict[str, Any]) -> None:
        nonlocal acked
        counted = _counted(view)
        if counted is None or "error" in view:
            return
        acked = counted
        for square in counted["cells"]:
            if (game_no, square) not in seen_acks:
                seen_acks.add((game_no, square))
                result["acknowledged"] += 1

    for round_no in range(rounds + 1):
        last = round_no == rounds
        if last:
            disk.free()
        run = _Runner(path, board, reserve_kb, checkpoint_kb)
        start = run.start
        saving = start["table"].get("saving", {})
        have = _counted(start)
        if acked is not None:
            if have is None:
                if saving.get("state") == "failing":
                    result["told"] += 1  # the journal could not be opened, and it says so
                else:
                    result["silent"] += 1
                    problems.append(f"round {round_no}: no game after the restart, nothing said")
            else:
                missing = set(acked["cells"]) - set(have["cells"])
                if missing and not (acked["over"] and not have["cells"]):
                    result["lost"] += len(missing)
                    problems.append(f"round {round_no}: lost {sorted(missing)}")
                extra = set(have["cells"]) - set(acked["cells"])
                if len(extra) > 2:
                    problems.append(f"round {round_no}: {sorted(extra)} appeared")
                uncounted = (board - set(have["cells"])) & set(FULL_CELLS)
                signals = start["table"]["signals"]
                if uncounted and not have["over"]:
                    if all(signals.get(sq) in ("extra", "unsaved") for sq in uncounted):
                        result["told"] += 1
                    else:
                        result["silent"] += 1
                        problems.append(f"round {round_no}: {sorted(uncounted)} on the board, "
                                        f"not counted, shown as {signals}")
                note(start)
        if last:
            run.close()
            break
        line: dict[str, Any] | None = None
        try:
            for square in sorted(board - set((have or {}).get("cells") or {})):
                note(run.send({"sensor": square, "occupied": False}))  # the board put right
                board.discard(square)
            game = start.get("game")
            if game is None or game["over"]:
                view = run.send({"new_game": {"variant": "fake-kosmos", "replace": True}})
                if "error" in view:  # no room for a new game: the players free space
                    disk.free()
                    raise _Stop
                game_no += 1
                board = set()
                acked = None
                note(run.send({"board": []}))
            for square, number in FULL_GAME:
                if square in ((acked or {}).get("cells") or {}):
                    continue
                roll = rng.random()
                if roll < 0.25:
                    disk.fill()
                    result["fills"] += 1
                elif roll < 0.45:
                    disk.free()
                if rng.random() < 0.12:
                    line = {"sensor": square, "occupied": True}
                    board.add(square)
                    raise _Stop
                note(run.send({"sensor": square, "occupied": True}))
                board.add(square)
                line = {"input": {"type": "number", "square": square, "number": number}}
                if rng.random() < 0.12:
                    raise _Stop
                view = run.send(line)
                line = None
                note(view)
                held = (view.get("table") or {}).get("saving", {}).get("held")
                if "error" in view:  # refused, and said so: the piece is taken away again
                    problems.append(f"round {round_no}: {square} refused: {view['error']}")
                    note(run.send({"sensor": square, "occupied": False}))
                    board.discard(square)
                    raise _Stop
                if held is not None:
                    result["held"] += 1
                    choice = rng.random()
                    if choice < 0.4:  # the players free space and wait for the table
                        disk.free()
                        view = run.send({"wait": 2.5})
                        note(view)
                        if square not in ((_counted(view) or {}).get("cells") or {}):
                            problems.append(f"round {round_no}: {square} not saved after "
                                            f"space came back: {view['table']['saving']}")
                    elif choice < 0.7:  # they give it up and take the piece away
                        note(run.send({"input": {"type": "undo"}}))
                        note(run.send({"sensor": square, "occupied": False}))
                        board.discard(square)
                    else:
                        raise _Stop  # and the table is switched off with the piece down
                if (acked or {}).get("over"):
                    raise _Stop
            raise _Stop
        except _Stop:
            run.kill(rng, line)
            for view in run.seen:
                if "error" not in view and "game" in view:
                    note(view)
    return result


class _Stop(Exception):
    """The end of a round: the runner is killed."""


FULL_CELLS = [square for square, _ in FULL_GAME]


# --- the issue's own sequences ------------------------------------------------------------------

def _shown(view: dict[str, Any]) -> set[tuple[str, int]]:
    game = view.get("game")
    return {(c, v["number"]) for c, v in game["cells"].items()} if game else set()


def _games_after(path: Path) -> list[set[tuple[str, int]]]:
    """Every game's placements as the journal has them after a restart, oldest first."""
    table, _, _ = make_table(path)
    try:
        games = [g["record"] for g in sorted(table.finished.every(), key=lambda g: g["id"])]
        record = table.record()
        if record is not None and record not in games:
            games.append(record)
        return [{(a["cell"], a["number"]) for a in g["actions"] if a.get("type") == "place"}
                for g in games]
    finally:
        table.close()


def _lost(acknowledged: list[set[tuple[str, int]]],
          after: list[set[tuple[str, int]]]) -> list[tuple[int, str]]:
    """(game, cell) of each placement shown counted that the journal no longer has."""
    return [(n, cell) for n, game in enumerate(acknowledged) for cell, number in sorted(game)
            if n >= len(after) or (cell, number) not in after[n]]


def chain_holds(path: Path) -> bool:
    """The journal at ``path`` opens with nothing wrong (its chain, seals and mark hold)."""
    journal = Journal(path, reserve=0)
    try:
        return not journal.troubled
    finally:
        journal.close()


def issue_forty(disk: SmallDisk) -> dict[str, Any]:
    """40 placements of Fake Kosmos (two games and a half) in one table; the disk fills before
    the 34th (in the running third game) and is freed five turns later; then a restart.
    Returns ``acknowledged`` (placements shown counted), ``kept`` (placements in the journal
    after the restart), ``lost`` (shown counted, then missing), ``not_counted`` (placements
    refused or left waiting) and ``chain_holds``."""
    path = disk.path / NAME
    table, clock, _ = make_table(path)
    acknowledged: list[set[tuple[str, int]]] = []  # each game's placements shown counted
    not_counted = made = 0
    filled: int | None = None
    for turn in range(400):
        if filled is not None and turn == filled + 5:
            disk.free()  # five turns later someone frees space
        clock.now += 5.0
        table.tick()  # a waiting action is saved once the disk takes writes again
        view = table.view()
        if acknowledged:
            acknowledged[-1] |= _shown(view)
            made = 16 * (len(acknowledged) - 1) + len(acknowledged[-1])
        if made >= 40:
            break
        if made == 33 and filled is None:
            disk.fill()
            filled = turn
        if view["game"] is None or view["game"]["over"]:
            try:
                table.new_game("fake-kosmos", replace=True)
            except InputError:
                continue  # no room for a new game: they wait
            table.set_board([])
            acknowledged.append(set())
            continue
        if set(view["table"]["occupied"]) - set(view["game"]["cells"]):
            continue  # a piece waits to be saved: the players wait with it
        square, number = FULL_GAME[made % 16]
        try:
            view = place(table, clock, square, number)
        except InputError:
            lift(table, clock, square)  # refused: they take it away and try again later
            not_counted += 1
            continue
        acknowledged[-1] |= _shown(view)
        not_counted += (square, number) not in _shown(view)  # placed, waits to be saved
    table.close()
    after = _games_after(path)
    return {"acknowledged": sum(map(len, acknowledged)), "kept": sum(map(len, after)),
            "lost": _lost(acknowledged, after), "not_counted": not_counted,
            "chain_holds": chain_holds(path)}


def issue_sixty(disk: SmallDisk, reserve_kb: int | None = None) -> dict[str, Any]:
    """60 placements of Fake Kosmos through the runner (a new game after each 16); the disk
    fills before the 11th and stays full; the runner is killed (SIGKILL) after the 60th and
    the journal opened while the disk is still full, then again once it is freed. ``reserve_kb``:
    the runner's reserve (None: the table's default). Returns ``acknowledged``, ``lost_while_full``
    and ``lost`` (shown counted, missing after each restart), ``not_counted`` (refused, or left
    waiting), ``unsaid`` (not counted, and the view did not say the table cannot save),
    ``restart_said`` (the restart while full said the table cannot save, or that it saves in its
    reserve) and ``chain_holds``."""
    path = disk.path / NAME
    extra = () if reserve_kb is None else ("--reserve-kb", str(reserve_kb))
    proc = runner(path, [], *extra, quiet=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdout.readline()
    acknowledged: list[set[tuple[str, int]]] = []
    not_counted = unsaid = 0

    def send(line: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(line) + "\n")
        proc.stdin.flush()
        view: dict[str, Any] = json.loads(proc.stdout.readline())
        return view

    for i in range(60):
        if i == 10:
            disk.fill()
        square, number = FULL_GAME[i % 16]
        if i % 16 == 0:
            view = send({"new_game": {"variant": "fake-kosmos", "replace": True}})
            if "error" in view:
                not_counted += 60 - i  # no room for a new game, said in words
                break
            send({"board": []})
            acknowledged.append(set())
        send({"sensor": square, "occupied": True})
        view = send({"input": {"type": "number", "square": square, "number": number}})
        if "error" in view:
            not_counted += 1
            send({"sensor": square, "occupied": False})
            continue
        acknowledged[-1] |= _shown(view)
        if (square, number) not in _shown(view):
            not_counted += 1
            unsaid += view["table"]["saving"]["state"] != "failing"
    proc.kill()  # SIGKILL, the disk still full
    proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout):
        stream.close()
    lost_while_full = _lost(acknowledged, _games_after(path))
    reserve = RESERVE_BYTES if reserve_kb is None else reserve_kb * 1024
    table, _, _ = make_table(path, reserve=reserve)
    restart_said = table.saving()["state"] in ("failing", "low")
    table.close()
    disk.free()
    return {"acknowledged": sum(map(len, acknowledged)), "lost_while_full": lost_while_full,
            "lost": _lost(acknowledged, _games_after(path)), "not_counted": not_counted,
            "unsaid": unsaid, "restart_said": restart_said, "chain_holds": chain_holds(path)}
