"""Live updates: every phone keeps one Server-Sent Events stream open.

Each stream sends the whole view at once and again after every change (``table.wait_for_change``
wakes it the moment the table changes). Under waitress each open stream holds one worker thread,
so the number of streams is capped, and a comment line goes out every few seconds: writing to a
closed tab fails, which ends the stream and frees its thread. A server that is stopping ends
every stream within a fraction of a second.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, request

from .errors import ApiError

if TYPE_CHECKING:
    from . import PanelState
from .security import check_request
from .views import present

events = Blueprint("events", __name__, url_prefix="/api")

POLL_SECONDS = 0.5
"""How often a waiting stream looks at the stop flag and the client's connection."""


def sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    """One Server-Sent Event; JSON never holds a raw newline, so ``data`` is one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@events.get("/events")
def stream() -> Response:
    check_request()
    panel = current_app.extensions["sudoku_table"]
    if not panel.streams.acquire(blocking=False):
        raise ApiError("too many live views are open: close a tab and reload", 429)
    disconnected = request.environ.get("waitress.client_disconnected")
    release = _release_once(panel)
    response = Response(_stream(panel, disconnected, release), mimetype="text/event-stream")
    # A stream closed before its first event never runs its own ``finally``: release here too.
    response.call_on_close(release)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _release_once(panel: PanelState) -> Callable[[], None]:
    lock = threading.Lock()
    held = [True]

    def release() -> None:
        with lock:
            if held[0]:
                held[0] = False
                panel.streams.release()

    return release


def _stream(panel: PanelState, disconnected: Callable[[], bool] | None,
            release: Callable[[], None]) -> Iterator[str]:
    table = panel.table
    keepalive = panel.keepalive_seconds
    try:
        version = table.version
        yield "retry: 2000\n\n"
        yield sse("view", present(panel, table.view()), version)
        quiet_since = time.monotonic()
        while not panel.stopping.is_set():
            if disconnected is not None and disconnected():
                return
            new_version, view = table.wait_for_change(version, POLL_SECONDS, panel.stopping)
            if new_version != version:
                version = new_version
                quiet_since = time.monotonic()
                yield sse("view", present(panel, view), version)
            elif time.monotonic() - quiet_since >= keepalive:
                quiet_since = time.monotonic()
                yield ": keep-alive\n\n"
    finally:
        release()
