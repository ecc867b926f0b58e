"""How the journal meets the disk: why a write failed (``JournalError`` and its cause), and the
side files written whole or not at all (the mark, a set-aside file, the reserve, a file moved
aside). Every SQLite connection and side file of the journal is made here (``connect``,
``write_atomically``, ``fill_file``), so the fault tests wrap these three names alone."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

FULL, READ_ONLY, IO, OTHER = "full", "read_only", "io", "other"
"""Why a write failed: no space, a read-only file system, an I/O error, anything else."""
_SQLITE_CAUSES = {13: FULL, 8: READ_ONLY, 10: IO, 14: IO}  # FULL, READONLY, IOERR, CANTOPEN
_OS_CAUSES = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY}
_SQLITE_DAMAGE = {11, 26}
"""SQLITE_CORRUPT and SQLITE_NOTADB: the file itself is damaged. Every other failure to open
(no space, read-only, busy, cannot open, I/O) leaves the file as it is."""

connect = sqlite3.connect
"""How the journal opens its SQLite connection (the tests put a fault-injecting wrapper here)."""


class JournalError(Exception):
    """The journal could not be written; the message says why, ``cause`` what kind of failure
    (``FULL``, ``READ_ONLY``, ``IO``, ``OTHER``)."""

    def __init__(self, message: str, cause: str = OTHER) -> None:
        super().__init__(message)
        self.cause = cause


def cause_of(error: BaseException, directory: Path | None = None) -> str:
    """What kind of failure a SQLite or OS error is. An I/O error on a file system that has
    turned read-only or has no space left is that (SQLite reports a full disk while growing
    its shared memory file as an I/O error)."""
    cause = OTHER
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int):
            cause = _SQLITE_CAUSES.get(code & 0xFF, OTHER)
        else:  # an error raised without a code: its words
            text = str(error).lower()
            cause = (FULL if "full" in text else READ_ONLY if "readonly" in text
                     else IO if "i/o" in text else OTHER)
    elif isinstance(error, OSError):
        cause = _OS_CAUSES.get(error.errno or 0, IO)
    if cause == IO and directory is not None:
        cause = disk_state(directory) or IO
    return cause


def disk_state(directory: Path) -> str | None:
    """``READ_ONLY`` or ``FULL`` when the file system of ``directory`` is so, else None."""
    try:
        stat = os.statvfs(directory)
    except OSError:
        return None
    if stat.f_flag & os.ST_RDONLY:
        return READ_ONLY
    if stat.f_bavail * stat.f_frsize < 64 * 1024:
        return FULL
    return None


def free_space(directory: Path) -> int:
    """Bytes an unprivileged writer may still use on the file system of ``directory``."""
    try:
        stat = os.statvfs(directory)
    except OSError:
        return 0
    return stat.f_bavail * stat.f_frsize


def transient(error: BaseException) -> bool:
    """True for a failure to open that says nothing about the file (no space, read-only,
    busy...): the journal is kept as it is and opened again later."""
    if isinstance(error, JournalError):
        return error.cause != OTHER
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, sqlite3.DatabaseError) and isinstance(code, int):
        return code & 0xFF not in _SQLITE_DAMAGE
    return isinstance(error, sqlite3.OperationalError)


def stamp() -> str:
    """The time in a side file's name."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S")


def fsync_dir(directory: Path) -> None:
    """Make a rename or a removal in ``directory`` durable (as far as the system allows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new text after a cut; a
    write that fails leaves the old text and no temporary file."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)


def fill_file(path: Path, size: int) -> None:
    """Make ``path`` a file of ``size`` bytes of real disk blocks (not a sparse file), synced:
    ``OSError`` (and no file) when the disk has no room for it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            try:
                os.posix_fallocate(fd, 0, size)
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                    raise
                block = b"\0" * 65536
                for start in range(0, size, len(block)):
                    os.write(fd, block[:min(len(block), size - start)])
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    fsync_dir(path.parent)


def unique(path: Path) -> Path:
    """``path``, or ``path-1``, ``path-2``... the first name that neither it nor its WAL uses."""
    candidate, n = path, 1
    while candidate.exists() or candidate.with_name(candidate.name + "-wal").exists():
        candidate = path.with_name(f"{path.name}-{n}")
        n += 1
    return candidate


def set_aside(path: Path) -> Path:
    """Move a SQLite file that cannot be used, with its ``-wal`` and ``-shm``, to a name of its
    own (``<name>.unreadable-<stamp>``), so that a fresh file can start at ``path`` without the
    old one's WAL; the new name (``OSError`` when it cannot be moved)."""
    aside = unique(path.with_name(f"{path.name}.unreadable-{stamp()}"))
    os.replace(path, aside)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, aside.with_name(aside.name + suffix))
    fsync_dir(path.parent)
    return aside
