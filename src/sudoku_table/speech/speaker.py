"""The table's speaker: announcements queued off the table's lock and said in a thread of its
own, the newest of each kind only.

``Speaker.announce`` is called under the table's lock (``Table.announcer.listen``): it only
queues the announcement's parts and returns. The speaker's thread words each part in the
table's language, renders it with the engine and plays it. A part still waiting when a newer
part of the same kind arrives is dropped (the player whose turn it was is no longer the one to
move; the computer's move already made), so a speaker that falls behind catches up instead of
reading out history. Nothing is said twice, unless the panel asks to repeat it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .announcement import Announcement, Part, Seats
from .audio import Player
from .engine import Engine, SpeechError, measure

log = logging.getLogger(__name__)

Word = Callable[[Part, Seats, str], str]
"""Says one part as a sentence of a language (``sudoku_table.web.speech.sentence_of``)."""


@dataclass(frozen=True)
class SpeechSettings:
    """The Table page's settings: speech on or off, its volume (0..1) and language."""

    on: bool = False
    volume: float = 0.6
    language: str = "en"


@dataclass(frozen=True)
class Said:
    """One sentence the table said: for the Table page, the simulator and the tests."""

    id: str
    kind: str
    language: str
    text: str
    seconds: float
    render_seconds: float


@dataclass
class _Item:
    id: str
    kind: str
    part: Part
    seats: Seats


class Speaker:
    """Says the table's announcements through ``engine`` and ``player`` while ``settings()``
    says speech is on."""

    def __init__(self, engine: Engine, player: Player, word: Word,
                 settings: Callable[[], SpeechSettings], keep: int = 64) -> None:
        self.engine = engine
        self.player = player
        self._word = word
        self._settings = settings
        self._lock = threading.Condition()
        self._pending: list[_Item] = []
        self._busy = False
        self._closed = False
        self.said: deque[Said] = deque(maxlen=keep)
        self.dropped = 0
        """Parts replaced by a newer part of their kind before they were said."""
        self.error: str | None = None
        """The last failure of the engine or the device (None once speaking works again)."""
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def problem(self) -> str | None:
        """Why the table cannot speak (no engine, no player), else None."""
        return self.engine.problem() or self.player.problem()

    def announce(self, said: Announcement) -> None:
        """Queue an announcement's parts and return at once (called under the table's lock)."""
        with self._lock:
            if self._closed:
                return
            for part in said["parts"]:
                before = len(self._pending)
                self._pending = [i for i in self._pending if i.kind != part["kind"]]
                self.dropped += before - len(self._pending)
                self._pending.append(_Item(said["id"], part["kind"], part, said["seats"]))
            self._lock.notify_all()

    def idle(self, timeout: float = 10.0) -> bool:
        """True once nothing waits to be said (False after ``timeout``): for tests and tools."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._pending and not self._busy,
                                       timeout=timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._pending or self._closed)
                if self._closed:
                    return
                item = self._pending.pop(0)
                self._busy = True
            try:
                self._say(item)
            except Exception as e:  # speech is a help: it never stops the table
                log.warning("the table could not speak: %s", e)
                self.error = str(e)
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()

    def _say(self, item: _Item) -> None:
        settings = self._settings()
        if not settings.on:
            return
        text = self._word(item.part, item.seats, settings.language)
        if not text:
            return
        started = time.perf_counter()
        try:
            wav = self.engine.render(text, settings.language, settings.volume)
        except SpeechError as e:
            self.error = str(e)
            raise
        rendered = time.perf_counter() - started
        self.said.append(Said(item.id, item.kind, settings.language, text,
                              measure(wav).seconds, rendered))
        self.player.play(wav)
        self.error = None

    def status(self) -> dict[str, Any]:
        """What the Table page shows of the speaker: what it cannot do, its last sentences."""
        return {"problem": self.problem(), "error": self.error,
                "said": [{"id": s.id, "kind": s.kind, "language": s.language, "text": s.text,
                          "seconds": round(s.seconds, 2)} for s in list(self.said)[-5:]]}

    def close(self) -> None:
        """Stop after the sentence being said; idempotent."""
        with self._lock:
            self._closed = True
            self._pending.clear()
            self._lock.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
