"""Long answers sent as they are made, at the pace the client reads them.

A response built whole (the export of a thousand games) costs its size in memory, and waitress
buffers whatever a client does not read (first in memory, then in temporary files, and past
16 MB it blocks the worker thread). So the archive's answers are generators, and ``paced``
waits before each chunk while more than ``PENDING_LIMIT`` bytes are still unsent: a client that
reads gets everything at once, a client that stops reading holds at most that much, and one
that reads nothing for ``STALL_SECONDS`` is let go (its answer ends there; it was not reading).

Reads of the archive also take a place in ``PanelState.readers`` (a few at once, one host not
all of them), given back when the answer ends however it ends.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

log = logging.getLogger(__name__)

PENDING_LIMIT = 256 * 1024
"""Unsent bytes of one answer after which ``paced`` waits for the client to read."""

STALL_SECONDS = 10.0
"""How long ``paced`` waits for a client that reads nothing before it ends the answer."""

WAIT_STEP = 0.02

BREATH_SECONDS = 0.0005
"""A pause after every chunk (a game of the export): it hands Python's interpreter lock to the
table's threads. Without it a read busy making text takes the lock for 5 ms at each turn, and
an input, which waits on the disk a few times, waited that long after each (measured: an
input's median 51 ms alone, 101 ms beside two exports, 17 ms with the pause)."""


def pending_bytes(disconnected: Callable[[], bool] | None) -> int:
    """Bytes of this response waiting in the server for a client that has not read them.

    Waitress gives a request ``waitress.client_disconnected``, a method of its connection, and
    the connection counts what is still to be sent; 0 under other servers."""
    channel = getattr(disconnected, "__self__", None)
    pending = getattr(channel, "total_outbufs_len", 0)
    return pending if isinstance(pending, int) else 0


def client_of(disconnected: Callable[[], bool] | None) -> str:
    """The client's address, for the log (``?`` under other servers)."""
    addr = getattr(getattr(disconnected, "__self__", None), "addr", None)
    return str(addr[0]) if isinstance(addr, tuple) and addr else "?"


def paced(chunks: Iterable[str], environ: dict[str, Any],
          limit: int = PENDING_LIMIT, stall: float = STALL_SECONDS,
          clock: Callable[[], float] = time.monotonic) -> Iterator[bytes]:
    """``chunks`` encoded, each sent only once the client has read all but ``limit`` bytes of
    what went before; ends early (closing the source) when the client goes away or reads
    nothing for ``stall`` seconds."""
    disconnected = environ.get("waitress.client_disconnected")
    source = iter(chunks)
    try:
        for chunk in source:
            waited_since = None
            while pending_bytes(disconnected) > limit:
                if disconnected is not None and disconnected():
                    return
                now = clock()
                waited_since = now if waited_since is None else waited_since
                if now - waited_since > stall:
                    log.info("%s reads nothing: its answer ended", client_of(disconnected))
                    return
                time.sleep(WAIT_STEP)
            yield chunk.encode("utf-8")
            time.sleep(BREATH_SECONDS)
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()


def release_once(release: Callable[[], None]) -> Callable[[], None]:
    """``release`` made safe to call from several places (the generator's end and the
    response's close): it runs once."""
    lock = threading.Lock()
    held = [True]

    def once() -> None:
        with lock:
            if held[0]:
                held[0] = False
                release()

    return once
