"""The LED chain's output: the table composes frames under its lock, this shows the newest one
outside it (newest first wins, so a slow LED chain never stalls the panel or the scanner), and
runs the LED test."""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable

from sudoku_table.firmware.ports import Display, Frame, Light
from sudoku_table.rules.squares import SQUARES
from sudoku_table.rules.wording import N_

from . import present, signals
from .errors import InputError

log = logging.getLogger(__name__)


def game_frame(look: present.Look | None, unsaved: bool) -> Frame:
    """The game's frame: its LED words (``look``), or with no game the four corners while the
    journal cannot be written (``unsaved``)."""
    if look is not None:
        return signals.compose_frame(look.signals, look.last_player)
    if unsaved:
        return signals.compose_frame(dict.fromkeys(("a1", "i1", "a9", "i9"), "unsaved"))
    return {}


class LedOutput:
    """Frames for ``display`` (None: a table without LEDs); ``failed`` hears a chain that
    could not show one (called outside the table's lock)."""

    def __init__(self, display: Display | None, failed: Callable[[Exception], None]) -> None:
        self.display = display
        self._failed = failed
        self._lock = threading.Lock()
        self._shown = -1
        self._testing = False
        self._count = 0
        self._newest: tuple[int, Frame] = (0, {})
        self._game: Frame = {}

    def game(self, look: present.Look | None, unsaved: bool) -> None:
        """The game's own frame changed (``game_frame``; under the table's lock): ``feedback``
        puts it up."""
        self._game = game_frame(look, unsaved)

    def feedback(self, replay: Frame | None, unconfirmed: set[str]) -> None:
        """Put up the game's frame (or the ``replay``'s) with the feedback light on every
        ``unconfirmed`` square, whose tentative state differs from the confirmed board (under
        the table's lock)."""
        frame = self._game if replay is None else replay
        if unconfirmed:
            frame = {**frame, **dict.fromkeys(unconfirmed, signals.FELT)}
        self.put(frame)

    @property
    def frame(self) -> Frame:
        """The newest frame (a copy)."""
        return dict(self._newest[1])

    def put(self, frame: Frame) -> None:
        """A new frame to show (under the table's lock)."""
        self._count += 1
        self._newest = (self._count, frame)

    def show(self) -> None:
        """Show the newest frame, outside the table's lock; older frames never overwrite it."""
        display = self.display
        if display is None:
            return
        with self._lock:
            version, frame = self._newest
            if version <= self._shown or self._testing:
                return
            self._shown = version
            try:
                display.show(frame)
            except Exception as e:  # a broken LED chain must not stop the game
                self._failed(e)

    def test(self, step: float = 0.04, wait: bool = False) -> None:
        """Light every square in turn for a moment, then restore the newest frame."""
        display = self.display
        if display is None:
            return

        def run() -> None:
            with self._lock:
                self._testing = True
            try:
                for square in SQUARES:
                    display.show({square: Light(signals.WHITE, "steady", 1.0)})
                    time.sleep(step)
            finally:
                with self._lock:
                    self._testing = False
                    self._shown = -1
                self.show()

        if wait:
            run()
        else:
            threading.Thread(target=run, name="led-test", daemon=True).start()

    def set_brightness(self, level: float) -> None:
        """Global LED brightness from 0.0 to 1.0 (``InputError`` for any other value)."""
        if isinstance(level, bool) or not isinstance(level, int | float) or not 0 <= level <= 1:
            raise InputError(N_("brightness must be between 0 and 1, got {level}"),
                             level=repr(level))
        if self.display is not None:
            self.display.set_brightness(float(level))

    def darken(self) -> None:
        """Darken the LEDs for good (the table closes): no frame is shown after this."""
        if self.display is None:
            return
        with self._lock:
            self._shown = sys.maxsize
            try:
                self.display.show({})
            except Exception:
                log.exception("the LEDs could not be darkened")
