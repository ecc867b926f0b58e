"""A table's own copy of a game's log, on disk before anything is sent or counted.

The host writes each entry here before it publishes it (an entry the broker has is one the host
kept); a guest writes each entry it applies. After a restart both read it back: the host answers
catch-ups and refuses old proposals from it, a guest asks the host only for what came after it,
and either could take over as host from it. One JSON object per line, flushed and synced to the
disk per entry; a last line cut off by a power cut is left out when read back (that entry was
never counted: the host had not sent it, the guest asks for it again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class LogFile:
    """The entries of one game at ``path`` (None: kept in memory only, for tools and tests)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._memory: list[dict[str, Any]] = []

    def read(self) -> list[dict[str, Any]]:
        """Every whole entry kept, in order."""
        if self.path is None:
            return list(self._memory)
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        entries = []
        for line in lines:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut off at a power cut: it and nothing after it counted
            if isinstance(entry, dict):
                entries.append(entry)
        return entries

    def append(self, entry: dict[str, Any]) -> None:
        """Keep ``entry`` (on the disk when this returns; ``OSError`` when it cannot be)."""
        if self.path is None:
            self._memory.append(entry)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
