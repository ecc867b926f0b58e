"""Write faults for the journal: a wrapper around its SQLite connection that fails chosen writes
the way a full or failing disk does, and a real small file system that fills up.

* ``Faults`` counts every write the journal makes (opening the file, each statement that
  changes it, each ``COMMIT``, each checkpoint, and each side file: the mark, the reserve, a
  set-aside file) and
  fails the ones it is told to, with the error the disk would give: ``SQLITE_FULL`` or
  ``SQLITE_IOERR`` from SQLite, ``ENOSPC``, ``EIO`` or ``EROFS`` from the file system.
  ``installed`` puts it under every journal opened in its block (``journal.disk`` makes each
  SQLite connection and side file of the journal).
* ``SmallDisk`` mounts a tmpfs of a few MiB (root only, as in CI) and fills it with a file
  that can be shrunk again: a real ``No space left on device`` for SQLite and for every file.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.table.journal import disk

WRITES = ("INSERT", "UPDATE", "DELETE", "COMMIT", "PRAGMA WAL_CHECKPOINT")
SQLITE_CODES = {"full": (13, "SQLITE_FULL", "database or disk is full"),
                "io": (10, "SQLITE_IOERR", "disk I/O error"),
                "read_only": (8, "SQLITE_READONLY", "attempt to write a readonly database")}
OS_CODES = {"full": errno.ENOSPC, "io": errno.EIO, "read_only": errno.EROFS}


def sqlite_error(cause: str) -> sqlite3.OperationalError:
    code, name, text = SQLITE_CODES[cause]
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = code
    error.sqlite_errorname = name
    return error


def os_error(cause: str) -> OSError:
    number = OS_CODES[cause]
    return OSError(number, os.strerror(number))


class Faults:
    """Which writes fail. ``fail(at, count)`` fails writes number ``at`` .. ``at + count - 1``
    (counting from 0 since the last ``reset``); ``down()`` fails every write until ``up()``.
    ``log`` names each write as it happened: ``sql:INSERT``, ``file:mark``..."""

    def __init__(self, cause: str = "full", kinds: set[str] | None = None) -> None:
        self.cause = cause
        self.kinds = kinds
        """Only writes of these kinds fail (``sql:COMMIT``, ``file:mark``...; None: all)."""
        self.count = 0
        self.failing: set[int] = set()
        self.always = False
        self.log: list[str] = []
        self.failed: list[str] = []

    def fail(self, at: int, count: int = 1) -> None:
        self.failing.update(range(at, at + count))

    def down(self, cause: str | None = None) -> None:
        self.always = True
        self.cause = cause or self.cause

    def up(self) -> None:
        self.always = False
        self.failing.clear()

    def reset(self) -> None:
        self.count = 0
        self.log.clear()
        self.failed.clear()

    def check(self, what: str) -> bool:
        """Count one write; True when it is to fail."""
        n = self.count
        self.count += 1
        self.log.append(what)
        if (self.always or n in self.failing) and (self.kinds is None or what in self.kinds):
            self.failed.append(what)
            return True
        return False


class FaultyConnection:
    """A SQLite connection whose writes fail as ``faults`` says; everything else is passed on.
    A failed ``COMMIT`` rolls the transaction back first, as SQLite does on a full disk."""

    def __init__(self, db: sqlite3.Connection, faults: Faults) -> None:
        object.__setattr__(self, "_db", db)
        object.__setattr__(self, "_faults", faults)

    def execute(self, sql: str, *args: Any) -> Any:
        head = " ".join(sql.split()[:2]).upper()
        word = head.split()[0] if head else ""
        kind = "PRAGMA WAL_CHECKPOINT" if head.startswith("PRAGMA WAL_CHECKPOINT") else word
        if kind in WRITES and self._faults.check(f"sql:{kind}"):
            if kind == "COMMIT" and self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise sqlite_error(self._faults.cause)
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._db, name, value)


@contextmanager
def installed(faults: Faults, monkeypatch: pytest.MonkeyPatch) -> Iterator[Faults]:
    """Every journal opened inside the block gets its SQLite connection and its side files
    through ``faults``."""
    real_connect = disk.connect
    real_write = disk.write_atomically
    real_reserve = disk.fill_file

    def connect(*args: Any, **kwargs: Any) -> Any:
        if faults.check("sql:OPEN"):  # a disk with no room for the shared memory file
            raise sqlite_error(faults.cause)
        return FaultyConnection(real_connect(*args, **kwargs), faults)

    def write(path: Path, text: str) -> None:
        what = "mark" if path.name.endswith(".mark") else "set-aside"
        if faults.check(f"file:{what}"):
            raise os_error(faults.cause)
        real_write(path, text)

    def reserve(path: Path, size: int) -> None:
        if faults.check("file:reserve"):
            raise os_error(faults.cause)
        real_reserve(path, size)

    with monkeypatch.context() as patched:  # undone when the block ends
        patched.setattr(disk, "connect", connect)
        patched.setattr(disk, "write_atomically", write)
        patched.setattr(disk, "fill_file", reserve)
        yield faults


# --- a real small disk --------------------------------------------------------------------------

def can_mount() -> str | None:
    """None when a tmpfs can be mounted here, else why not (the reason a test is skipped)."""
    if os.geteuid() != 0:
        return "a real full disk needs a tmpfs mount, which needs root (CI runs as root)"
    if shutil.which("mount") is None:
        return "no mount command on this machine"
    return None


class SmallDisk:
    """A tmpfs of ``size`` bytes at ``path``; ``fill()`` takes every free byte with a filler
    file, ``free(n)`` gives ``n`` bytes back, ``read_only()`` / ``writable()`` remount it."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        self.size = size
        self.filler = path / "filler"

    def mount(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs",
                        str(self.path)], check=True)

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False)

    def free_bytes(self) -> int:
        return shutil.disk_usage(self.path).free

    def fill(self) -> int:
        """Take every free byte; how many the filler holds."""
        with open(self.filler, "ab", buffering=0) as f:
            for chunk in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
                block = b"\0" * chunk
                try:
                    while True:
                        f.write(block)
                except OSError:
                    pass
        return self.filler.stat().st_size

    def free(self, n: int | None = None) -> None:
        """Give ``n`` bytes of the filler back (all of it when None)."""
        if not self.filler.exists():
            return
        if n is None:
            self.filler.unlink()
            return
        size = self.filler.stat().st_size
        os.truncate(self.filler, max(0, size - n))

    def read_only(self) -> None:
        subprocess.run(["mount", "-o", "remount,ro", str(self.path)], check=True)

    def writable(self) -> None:
        subprocess.run(["mount", "-o", "remount,rw", str(self.path)], check=True)


@contextmanager
def small_disk(size: int = 3 * 1024 * 1024, base: str | None = None) -> Iterator[SmallDisk]:
    """A mounted ``SmallDisk`` for the duration (skips the test without root)."""
    why = can_mount()
    if why is not None:
        pytest.skip(why)
    where = Path(tempfile.mkdtemp(prefix="small-disk-", dir=base))
    disk = SmallDisk(where, size)
    disk.mount()
    try:
        yield disk
    finally:
        disk.unmount()
        shutil.rmtree(where, ignore_errors=True)
