"""Playing the table's speech: through a sound device on the real table, or not at all on the
simulated one (which keeps what it said instead, for the panel and the tests)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from typing import Protocol

from sudoku_table.rules.wording import N_

from .engine import SpeechError, measure


class Player(Protocol):
    """Something that plays a WAV file to the end (blocking: the speaker's thread waits)."""

    def problem(self) -> str | None:
        """Why nothing can be heard (None: it can)."""

    def play(self, wav: bytes) -> None:
        """Play ``wav``; ``SpeechError`` when the device refuses."""


class AplayPlayer:
    """ALSA's ``aplay`` (Debian's alsa-utils) on one device: a Pi 4's jack, an I2S amplifier
    or a USB sound stick (``[speech] device``)."""

    def __init__(self, device: str = "default", command: str = "aplay") -> None:
        self.device = device
        self.command = command

    def problem(self) -> str | None:
        if shutil.which(self.command) is None:
            return N_("aplay is not installed: sudo apt-get install alsa-utils")
        return None

    def play(self, wav: bytes) -> None:
        seconds = measure(wav).seconds
        try:
            done = subprocess.run([self.command, "-q", "-D", self.device, "-"], input=wav,
                                  capture_output=True, timeout=seconds + 10, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise SpeechError(f"{self.command} failed: {e}") from None
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SpeechError(f"the sound device {self.device!r} refused: "
                              f"{lines[-1] if lines else done.returncode}")


class QuietPlayer:
    """The simulated table's speaker: nothing is heard, but each text takes as long as it would
    to say (so that announcements queue as they do at a real table)."""

    def __init__(self, sleep: Callable[[float], None] = time.sleep) -> None:
        self._sleep = sleep

    def problem(self) -> str | None:
        return None

    def play(self, wav: bytes) -> None:
        self._sleep(measure(wav).seconds)
