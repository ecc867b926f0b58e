"""Evidence survives: a non-empty WAL is copied aside with its main file before SQLite opens
them (closing the last connection would fold the WAL in and delete it), and the copies are
kept as ``<journal>.damaged-<stamp>`` when a check finds anything wrong."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from pathlib import Path

from . import disk
from .schema import Tell

LOW_SPACE = 1024 * 1024
"""Evidence copies at start are skipped (and said) when they would leave less free space."""

Held = list[tuple[Path, Path]]
"""Each copy made, with the file it copies."""


def hold(path: Path, tell: Tell) -> Held:
    """Copy the main file and a non-empty WAL aside before SQLite touches them."""
    wal = path.with_name(path.name + "-wal")
    held: Held = []
    try:
        if not wal.exists() or wal.stat().st_size == 0:
            return []
        sources = [(src, suffix) for src, suffix in ((path, ""), (wal, "-wal"))
                   if src.exists()]  # a WAL without its main file: keep the WAL alone
        need = sum(src.stat().st_size for src, _ in sources)
        if disk.free_space(path.parent) < need + LOW_SPACE:
            # The copies would take the space the game needs: none is made, and it is said.
            raise OSError(errno.ENOSPC, "too little free space for a copy")
        for src, suffix in sources:
            dst = path.with_name(f".{path.name}.held{suffix}")
            held.append((dst, src))
            shutil.copyfile(src, dst)
        return held
    except OSError as e:
        for copy, _ in held:  # never a half copy left taking space
            with contextlib.suppress(OSError):
                copy.unlink()
        tell("journal_not_copied", detail=str(e))
        return []


def settle(path: Path, held: Held, keep: bool, tell: Tell) -> None:
    """Keep the copies under a name of their own (``keep``: a check found something wrong)
    and say so, or remove them."""
    if not held:
        return
    if not keep:
        for copy, _ in held:
            with contextlib.suppress(OSError):
                copy.unlink()
        return
    base = disk.unique(path.with_name(f"{path.name}.damaged-{disk.stamp()}"))
    try:
        for copy, src in held:
            suffix = "-wal" if src.name.endswith("-wal") else ""
            os.replace(copy, base.with_name(base.name + suffix))
        disk.fsync_dir(path.parent)
        tell("journal_kept_main_and_wal" if len(held) == 2 else "journal_kept_wal",
             kept=base.name)
    except OSError as e:
        tell("journal_not_kept", detail=str(e))
