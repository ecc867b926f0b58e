"""Panel settings kept in the data directory: the LED brightness and the table's sound.

A small JSON file beside the journal, so that what is chosen on the phone survives a restart.
A missing or unreadable file means the config's defaults.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudoku_table.table.journal import write_atomically

if TYPE_CHECKING:
    from . import PanelState

log = logging.getLogger(__name__)

lock = threading.RLock()
"""Held around every read-change-write of the file: two phones changing two settings at once
(the speaker switched on while its language is chosen) both keep theirs."""


class NotSaved(OSError):
    """The settings file could not be written: the change is not kept (said to the phone)."""


def load(path: str | os.PathLike[str] | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        log.warning("ignoring unreadable settings %s: %s", path, e)
        return {}
    return data if isinstance(data, dict) else {}


def save(path: str | os.PathLike[str] | None, data: dict[str, Any]) -> None:
    """Write atomically: a power cut leaves the old file or the new one, never half of one.
    A write that fails (a full or read-only card) raises ``NotSaved`` and leaves the old file
    (and no temporary file taking the space)."""
    if path is None:
        return
    try:
        with lock:
            write_atomically(Path(path), json.dumps(data, indent=2))
    except OSError as e:
        log.warning("cannot save settings %s: %s", path, e)
        raise NotSaved(str(e)) from None


def update(path: str | os.PathLike[str] | None, **changes: Any) -> None:
    """Change some settings and keep the others, as one step under ``lock``."""
    with lock:
        data = load(path)
        data.update(changes)
        save(path, data)


def brightness(panel: PanelState) -> float | None:
    saved = load(panel.settings_path).get("brightness")
    if isinstance(saved, (int, float)) and not isinstance(saved, bool):
        return float(saved)
    configured = panel.configured_brightness
    return float(configured) if configured is not None else None


def save_brightness(panel: PanelState, level: float) -> None:
    update(panel.settings_path, brightness=level)


def table_sound(path: str | os.PathLike[str] | None) -> bool:
    """Whether the table's buzzer sounds (off unless switched on)."""
    return load(path).get("table_sound") is True


def save_table_sound(path: str | os.PathLike[str] | None, on: bool) -> None:
    update(path, table_sound=on)
