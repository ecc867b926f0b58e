"""The optional piezo buzzer: the table's three sounds, played without holding anyone up.

A passive piezo transducer on one GPIO (``[buzzer] pin``, default GPIO8), driven through
gpiozero's :class:`~gpiozero.TonalBuzzer` (software PWM through lgpio on a Pi; a mock PWM pin in
the simulator). :class:`Buzzer` plays the same three sounds as the phone (illegal, points, your
turn) from a worker thread, so a tune never delays a scan or a request; a sound asked for while
two are waiting is dropped rather than played late. Whether the table sounds at all is the
panel's setting (off by default): this module only knows how.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

from .config import BuzzerConfig
from .exc import FrameError

log = logging.getLogger(__name__)

Note = tuple[float | None, float]
"""A frequency in Hz (None: a rest) and how long, in seconds."""

SOUNDS: Mapping[str, tuple[Note, ...]] = {
    "illegal": ((233.0, 0.12), (None, 0.06), (233.0, 0.12)),
    "points": ((880.0, 0.15), (1320.0, 0.25)),
    "turn": ((660.0, 0.12),),
}
"""The three sounds, as the phone plays them (a piezo cannot go as low as the phone's buzz, so
the illegal sound is two short low notes)."""

MID_TONE = 880.0
OCTAVES = 2
"""TonalBuzzer's range: 220 Hz to 3.5 kHz, around a small piezo's loudest band."""


class Buzzer:
    """One buzzer on one pin. ``play(name)`` returns at once; ``played`` keeps the last
    sounds' names (the simulated table shows them)."""

    def __init__(self, config: BuzzerConfig, pin_factory: Any = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._device = TonalBuzzer(config.pin, mid_tone=Tone(frequency=MID_TONE),
                                   octaves=OCTAVES, pin_factory=pin_factory)
        self._sleep = sleep
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=2)
        self.played: deque[str] = deque(maxlen=32)
        self.tones: deque[float] = deque(maxlen=256)
        """Every frequency sent to the pin, newest last (for tests and the simulator)."""
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    def play(self, name: str) -> bool:
        """Queue one of :data:`SOUNDS`; False when two are already waiting (dropped)."""
        if name not in SOUNDS:
            raise FrameError(f"unknown sound {name!r} (known: {', '.join(SOUNDS)})")
        try:
            self._queue.put_nowait(name)
        except queue.Full:
            return False
        return True

    def idle(self, timeout: float = 2.0) -> bool:
        """Wait until every queued sound has been played (True) or ``timeout`` passed."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._queue.unfinished_tasks == 0:
                return True
            time.sleep(0.005)
        return False

    def _run(self) -> None:
        while True:
            name = self._queue.get()
            try:
                if name is None:
                    return
                for frequency, seconds in SOUNDS[name]:
                    if frequency is None:
                        self._device.stop()
                    else:
                        self._device.play(Tone(frequency=frequency))
                        self.tones.append(frequency)
                    self._sleep(seconds)
                self._device.stop()
                self.played.append(name)
            except Exception as e:  # a failing pin must not kill the thread or the table
                log.warning("buzzer: %s", e)
            finally:
                self._queue.task_done()

    def close(self) -> None:
        """Finish the sound being played, then release the pin; idempotent."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=2)
        self._device.close()
