"""Live updates: every phone keeps one Server-Sent Events stream open.

Each stream sends the whole view at once and again after every change (``table.wait_for_change``
wakes it the moment the table changes). Under waitress each open stream holds one worker thread,
so streams are counted: at most ``MAX_STREAMS`` in all and ``STREAMS_PER_HOST`` per device, so
one host cannot take every live view. A stream ends, freeing its thread, when its tab closes
(noticed at the next poll or keep-alive), when its client stops reading (more than
``PENDING_LIMIT`` bytes wait to be sent), after ``STREAM_SECONDS`` (the browser's EventSource
reconnects by itself after the ``retry`` delay and gets the whole view again), and within a
fraction of a second when the server stops.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, g, request

from sudoku_table.rules.wording import N_

from .errors import ApiError
from .security import check_request
from .streaming import client_of, pending_bytes, release_once
from .validation import query
from .views import present

if TYPE_CHECKING:
    from . import PanelState

events = Blueprint("events", __name__, url_prefix="/api")
log = logging.getLogger(__name__)

POLL_SECONDS = 0.5
"""How often a waiting stream looks at the stop flag and the client's connection."""


def sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    """One Server-Sent Event; JSON never holds a raw newline, so ``data`` is one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


PENDING_LIMIT = 64 * 1024
"""Bytes of a live view still waiting to be sent after which its client counts as not reading:
the stream ends and its slot is free again (a phone that reads has almost nothing pending)."""


def _client() -> str:
    return request.remote_addr or "?"


STALL_SECONDS = 4.0
"""A live view whose sent bytes stay unread this long (the connection's buffers are full: its
client stopped reading) is ended and its slot freed."""

SEND_BUFFER = 16 * 1024
"""The kernel's send buffer for a live view: small, so that a client that stops reading shows
as unsent bytes within a few views instead of after megabytes."""

EVICTION_WAIT = 2.0
"""How long a newcomer waits for the live view it took back to end (it ends at its next
poll)."""


@events.get("/events")
def stream() -> Response:
    check_request()
    query()
    panel = current_app.extensions["sudoku_table"]
    host = _client()
    refused = panel.streams.acquire(host)
    if refused is not None:
        victim = panel.streams.crowding(host)
        if victim is not None and panel.live_views.end_newest(victim):
            log.info("%s holds the most live views: one given to %s", victim, host)
            deadline = time.monotonic() + EVICTION_WAIT
            while refused is not None and time.monotonic() < deadline:
                time.sleep(POLL_SECONDS / 10)
                refused = panel.streams.acquire(host)
    if refused is not None:
        raise ApiError(N_("no live view is free ({refused}): close a tab and reload"),
                       429, params={"refused": refused})
    disconnected = request.environ.get("waitress.client_disconnected")
    _small_send_buffer(disconnected)
    ended = panel.live_views.add(host)

    def free() -> None:
        panel.live_views.remove(host, ended)
        panel.streams.release(host)

    release = release_once(free)
    seat = g.get("seat")
    token = request.args.get("token") if seat is not None else None
    response = Response(_stream(panel, disconnected, release, ended, seat, token),
                        mimetype="text/event-stream")
    # A stream closed before its first event never runs its own ``finally``: release here too.
    response.call_on_close(release)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _small_send_buffer(disconnected: Callable[[], bool] | None) -> None:
    sock = getattr(getattr(disconnected, "__self__", None), "socket", None)
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)


def _stream(panel: PanelState, disconnected: Callable[[], bool] | None,
            release: Callable[[], None], ended: threading.Event, seat: int | None = None,
            token: str | None = None) -> Iterator[str]:
    """The live views of one client; ``seat`` and its ``token``: a seat's phone, whose views
    carry its own card while the phone still holds the seat (a seat taken back or handed on
    ends its phone's live view)."""
    table = panel.table
    keepalive = panel.keepalive_seconds
    ends = time.monotonic() + panel.stream_seconds
    unread_since: float | None = None
    try:
        version = table.version
        yield "retry: 2000\n\n"
        yield sse("view", present(panel, table.view(), seat), version)
        quiet_since = time.monotonic()
        while not panel.stopping.is_set() and time.monotonic() < ends and not ended.is_set():
            if disconnected is not None and disconnected():
                return
            pending = pending_bytes(disconnected)
            now = time.monotonic()
            unread_since = (now if unread_since is None else unread_since) if pending else None
            if pending > PENDING_LIMIT or (unread_since is not None
                                           and now - unread_since > STALL_SECONDS):
                log.info("a live view of %s does not read: ended", client_of(disconnected))
                return
            new_version, view = table.wait_for_change(version, POLL_SECONDS, panel.stopping)
            if new_version != version:
                version = new_version
                quiet_since = time.monotonic()
                if token is not None and panel.seating.seat_of(table.game_id, token) != seat:
                    return  # the phone lost its seat: its next connection is told why
                yield sse("view", present(panel, view, seat), version)
            elif time.monotonic() - quiet_since >= keepalive:
                quiet_since = time.monotonic()
                yield ": keep-alive\n\n"
    finally:
        release()
