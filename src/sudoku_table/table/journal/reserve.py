"""The reserve: real disk blocks kept beside the journal (``<journal>.reserve``) and given back
when the disk fills, so that the game in progress can be finished and saved."""

from __future__ import annotations

import logging
from pathlib import Path

from . import disk

log = logging.getLogger(__name__)

RESERVE_BYTES = 4 * 1024 * 1024
"""The space kept beside the journal for the game in progress. With checkpoints every
``CHECKPOINT_BYTES`` of WAL, a game needs at most that much WAL plus its entries in the main
file (some 400 bytes each): 4 MiB hold several thousand entries, many games' worth."""


class Reserve:
    """The reserve of one journal: ``size`` bytes (0: none), whether they are ``held`` (the
    file stands at its full size, as this journal made or found it) and whether they were
    ``used`` (the disk filled and the reserve was given back to go on writing)."""

    def __init__(self, journal: Path, size: int) -> None:
        self.path = journal.with_name(journal.name + ".reserve")
        self.size = max(0, int(size))
        self.held = self.size == 0
        self.used = False

    def _whole(self) -> bool:
        try:
            return self.path.stat().st_size >= self.size
        except OSError:
            return False

    def keep(self) -> bool:
        """Take the reserve's space (again) if the disk has room for it twice over; True when
        it is held (or none is wanted)."""
        if self.size <= 0:
            return True
        if self._whole():
            self.used = False
            self.held = True
            return True
        if disk.free_space(self.path.parent) < 2 * self.size:
            return False
        try:
            disk.fill_file(self.path, self.size)
        except OSError as e:
            log.warning("the journal's reserve could not be kept: %s", e)
            return False
        self.used = False
        self.held = True
        return True

    def release(self) -> bool:
        """The disk is full: give the reserve's space to the journal. True if there was any."""
        if self.size <= 0:
            return False
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        except OSError as e:
            log.warning("the journal's reserve could not be given back: %s", e)
            return False
        disk.fsync_dir(self.path.parent)
        self.used = True
        self.held = False
        log.warning("the disk is full: the journal goes on in its reserve of %d bytes",
                    self.size)
        return True
