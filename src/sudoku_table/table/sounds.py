"""When the table sounds: the same three cues the phone plays, read from two successive views.

``cue(before, after)`` names the sound a change deserves (``illegal`` when an illegal piece
appears, ``points`` when an action scored, ``turn`` when someone else must act now), or None;
``TableSounds`` watches a table and plays the cues on a buzzer while the panel's switch is on.
The phone's ``sound.js`` applies the same three rules to the views it receives.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

CUES = ("illegal", "points", "turn")


class Player(Protocol):
    def play(self, name: str) -> bool: ...


class Watched(Protocol):
    version: int

    def wait_for_change(self, version: int, timeout: float,
                        stop: threading.Event | None = None) -> tuple[int, Any]: ...

    def wake(self) -> None: ...


def _table(view: Any) -> dict[str, Any]:
    table = view.get("table") if isinstance(view, dict) else None
    return table if isinstance(table, dict) else {}


def cue(before: Any, after: Any) -> str | None:
    """The sound for the change from view ``before`` to view ``after`` (None: silence).
    An illegal piece outranks points, and points outrank the next turn."""
    if not before or not isinstance(after, dict) or not after.get("game"):
        return None
    if before.get("version") == after.get("version"):
        return None
    was, now = _table(before), _table(after)
    if ("illegal" in (now.get("signals") or {}).values()
            and "illegal" not in (was.get("signals") or {}).values()):
        return "illegal"
    code = now.get("message_code")
    if (isinstance(code, dict) and code.get("code") == "action"
            and any(isinstance(n, int) and n > 0 for n in (code.get("params") or {}).get(
                "points") or [])
            and code != was.get("message_code")):
        return "points"
    actor_before = (was.get("next") or {}).get("actor")
    actor_after = (now.get("next") or {}).get("actor")
    if actor_after is not None and actor_after != actor_before:
        return "turn"
    return None


class TableSounds:
    """A thread that follows the table's views and plays each cue while ``enabled()``."""

    def __init__(self, table: Watched, player: Player, enabled: Callable[[], bool]) -> None:
        self._table = table
        self._player = player
        self._enabled = enabled
        self._stop = threading.Event()
        self.following = False
        """Switched on and holding a view to compare the next one with: from now on every
        change gets its cue."""
        self._thread = threading.Thread(target=self._run, name="table-sounds", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        before: Any = None
        version = -1
        while not self._stop.is_set():
            if not self._on():
                # Off (the default): follow nothing, so no view is built for the buzzer on
                # any sensor event; look at the switch again in a second.
                before, version, self.following = None, -1, False
                self._stop.wait(1.0)
                continue
            version, after = self._table.wait_for_change(version, timeout=5.0, stop=self._stop)
            if self._stop.is_set():
                return
            name = cue(before, after)
            before, self.following = after, True
            if name is not None:
                try:
                    self._player.play(name)
                except Exception:  # sound is a nicety: it never stops the table
                    log.exception("table sound %s", name)

    def _on(self) -> bool:
        try:
            return bool(self._enabled())
        except Exception:
            log.exception("table sound switch")
            return False

    def close(self) -> None:
        self._stop.set()
        self._table.wake()
        self._thread.join(timeout=2)
