"""The panel under waitress: the server, stoppable from any thread, and its addresses.

The parts it serves are composed in ``sudoku_table.assembly``. Waitress gets many more threads than
phones are expected, because every open live view holds one (see ``events``).
"""

from __future__ import annotations

import copy
import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from waitress.utilities import Error

from sudoku_table.rules.wording import N_

from . import IMPORT_PATH, PanelState, i18n
from .errors import ApiError
from .limits import HostCounter
from .streaming import release_once

log = logging.getLogger(__name__)

SPARE_THREADS = 8
"""Threads left for ordinary requests when every live view and every archive read is open."""

CONNECTION_LIMIT = 400
"""Open connections in all (``HostCounter``): far more than one host may hold."""

CONNECTIONS_FREE_SHARE = 8
"""Connections any host may open while any is free (a phone opens a handful)."""

CONNECTIONS_RESERVE = 96
"""Connections kept for hosts holding fewer than ``CONNECTIONS_FREE_SHARE``: twelve newcomers'
worth, whatever the hosts already here hold."""

WAITRESS_CONNECTIONS = CONNECTION_LIMIT + 50
"""Waitress's own limit, above ours: past it waitress stops accepting, and a newcomer would
wait in the backlog instead of being let in by ``fair_channel_class``."""

CHANNEL_TIMEOUT = 10
"""Seconds a connection with no request in progress may stay idle before it is closed."""

REQUEST_SECONDS = 10.0
"""A request's head must arrive whole within this many seconds of its first byte, however it
trickles in (waitress's idle timer restarts with every byte, so a byte every few seconds kept a
connection forever)."""

BODY_BYTES_PER_SECOND = 64 * 1024
"""The slowest upload the deadline allows for a body: its length at this rate, on top of
``REQUEST_SECONDS`` (8 MiB: 138 s; a phone on Wi-Fi sends it in a few)."""

UPLOADS = 2
"""Large bodies (imports) being received or handled at once, one per host: a further one is
refused from its headers, before its body is read or written to a temporary file."""

MAX_HEADER_BYTES = 32 * 1024

Gate = Callable[[Any, str], "Refusal | None"]
"""Looks at a request's head (a waitress parser) from a host, before any of its body is read;
a ``Refusal`` answers it at once."""


class Refusal(Error):
    """A request refused from its head: JSON ``{"error": ...}`` in the reader's language, like
    every answer of the API, with its status and extra fields (``retry_after`` also as a
    header)."""

    def __init__(self, code: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.reason = HTTP_REASONS.get(code, "Error")
        self.message = message
        self.extra = extra

    def to_response(self, ident: str | None = None) -> tuple[str, list[tuple[str, str]], bytes]:
        body = json.dumps({"error": self.message, **self.extra}).encode("utf-8")
        headers = [("Content-Type", "application/json")]
        retry = self.extra.get("retry_after")
        if isinstance(retry, int):
            headers.append(("Retry-After", str(retry)))
        return f"{self.code} {self.reason}", headers, body


HTTP_REASONS = {400: "Bad Request", 401: "Unauthorized", 413: "Request Entity Too Large",
                429: "Too Many Requests", 431: "Request Header Fields Too Large",
                501: "Not Implemented", 503: "Service Unavailable"}

SERVER_ERRORS = {
    400: N_("the request could not be read"),
    413: N_("the request body is too large"),
    431: N_("the request's headers are too large"),
    501: N_("this way of sending a body is not supported"),
}
"""What waitress's own refusals say, in the reader's language."""


def make_server(app: Flask, host: str, port: int) -> Any:
    """A waitress server for ``app`` (``port`` 0 picks a free one: see ``effective_port``),
    set up for a small appliance on a home network (``fair_channel_class`` and ``gate`` say
    how):

    - a body above the panel's limit is refused with 413 as soon as its ``Content-Length`` is
      read (a chunked one once it passes the limit), never spooled to disk; only the paths of
      ``large_bodies`` (the import of finished games) take more, up to their own cap. Every
      refusal is JSON in the reader's language;
    - the import's PIN and size are checked from its headers, and at most ``UPLOADS`` imports
      are received at once: a refused one is answered before its body is read;
    - a request must arrive whole within ``REQUEST_SECONDS`` (plus time for its body), and a
      connection idle for ``CHANNEL_TIMEOUT`` seconds is closed;
    - connections are shared out by host (``HostCounter``: a free share each, room kept for
      newcomers, and when all are taken a newcomer takes an idle one back from the host
      holding the most);
    - one thread per live view and archive read plus ``SPARE_THREADS`` for everything else.
    """
    from waitress import create_server

    state = table_state(app)
    held = state.streams.total + state.readers.total if state is not None else 0
    server = create_server(
        app,
        host=host,
        port=port,
        threads=held + SPARE_THREADS,
        # Lets a live view notice a closed tab at its next poll instead of at its next write.
        channel_request_lookahead=1,
        ident="sudoku-table",
        clear_untrusted_proxy_headers=True,
        max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]) + 1,  # waitress refuses >=
        max_request_header_size=MAX_HEADER_BYTES,
        connection_limit=WAITRESS_CONNECTIONS,
        channel_timeout=int(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT)),
        cleanup_interval=1,
        # poll, not select: select fails outright once a socket's number passes 1024, which a
        # crowd of connections (or a busy process) reaches.
        asyncore_use_poll=True,
    )
    per_host = int(app.config.get("CONNECTIONS_PER_HOST", CONNECTION_LIMIT))
    shares = HostCounter(CONNECTION_LIMIT, per_host, CONNECTIONS_FREE_SHARE, CONNECTIONS_RESERVE)
    server.channel_class = fair_channel_class(server.channel_class, shares, gate(app), app)
    seconds = float(app.config.get("REQUEST_SECONDS", REQUEST_SECONDS))
    keep_deadlines(server, seconds)
    return server


def table_state(app: Flask) -> PanelState | None:
    """The table's panel state, or None for an app without a table (the club page of
    ``sudoku-table club``: no live views, no archive, no import)."""
    return app.extensions.get("sudoku_table")


def _stop_streams(app: Flask) -> None:
    state = table_state(app)
    if state is not None:
        state.stop_streams()


def keep_deadlines(server: Any, seconds: float) -> None:
    """Close every connection whose request has not arrived whole in time (checked with
    waitress's own sweep for idle connections, every ``cleanup_interval``)."""
    sweep = server.maintenance

    def maintenance(now: float) -> None:
        sweep(now)
        for channel in list(server.active_channels.values()):
            started = getattr(channel, "request_started", None)
            if started is None:
                continue
            parser = channel.request
            body = int(getattr(parser, "content_length", 0) or 0)
            if now - started > seconds + body / BODY_BYTES_PER_SECOND:
                log.info("%s sent too slowly: closed", getattr(channel, "host", "?"))
                channel.will_close = True

    server.maintenance = maintenance


def gate(app: Flask) -> Gate:
    """What the panel decides from a request's head (see ``make_server``): its language, and
    for a large body (the import) its size, the PIN and an upload place."""
    state = table_state(app)
    uploads = HostCounter(UPLOADS, 1)

    def look(parser: Any, host: str) -> Refusal | None:
        headers = parser.headers
        language = i18n.language_of(headers.get("COOKIE"), headers.get("ACCEPT_LANGUAGE"),
                                    str(app.config.get("PANEL_LANGUAGE") or i18n.SOURCE))
        parser.language = language
        cap = large_bodies(app).get(parser.path)
        if cap is None or parser.command != "POST":
            return None
        length = int(parser.content_length or 0)
        if length > cap:
            return Refusal(413, i18n.translate(
                N_("the file is too large: {size} MB; the table takes files of up to {most} MB"),
                language, size=i18n.megabytes(length, language),
                most=i18n.megabytes(cap, language)))
        try:
            if state is not None:
                state.pin.require(headers.get("X_TABLE_PIN"), host)
        except ApiError as e:
            return Refusal(e.status, i18n.translate(e.template, language, **e.params),
                           **e.extra)
        refused = uploads.acquire(host)
        if refused is not None:
            return Refusal(503, i18n.translate(
                N_("another file of finished games is being loaded: try again when it is "
                   "done"), language), retry_after=5)
        parser.release_slot = release_once(lambda: uploads.release(host))
        return None

    return look


def large_bodies(app: Flask) -> dict[str, int]:
    """The paths that take bodies above the panel's limit, with their cap (read anew for each
    request, so that a test may change the import's cap); none without a table."""
    if table_state(app) is None:
        return {}
    return {IMPORT_PATH: int(app.config["IMPORT_MAX_BYTES"])}


def gate_parser(base: type, app: Flask | None, look: Gate | None, host: str) -> type:
    """Waitress's request parser with the panel's ``look`` at every request's head, and a
    larger body limit (its cap) for the paths of ``large_bodies``; every other path keeps the
    server's limit. Both are decided as soon as the head is parsed, before any body is read."""

    class GateParser(base):
        adj: Any
        path: str
        error: Any
        completed: bool
        language: str | None = None
        refusal: Refusal | None = None
        release_slot: Callable[[], None] | None = None

        def parse_header(self, header_plus: bytes) -> None:
            super().parse_header(header_plus)
            cap = large_bodies(app).get(self.path) if app is not None else None
            if cap is not None:
                adj = copy.copy(self.adj)
                adj.max_request_body_size = cap + 1
                self.adj = adj
            self.refusal = look(self, host) if look is not None else None
            if self.refusal is not None:
                self.error = self.refusal
                self.completed = True  # answered now: the body is never read

        def received(self, data: bytes) -> int:
            consumed = int(super().received(data))
            if self.refusal is not None:  # waitress's own size check must not replace it
                self.error = self.refusal
            return consumed

    return GateParser


def fair_channel_class(base: Any, shares: HostCounter, look: Gate | None = None,
                       app: Flask | None = None) -> Callable[..., Any]:
    """Waitress's channel class, counting each host's connections against ``shares``: a new
    connection beyond them takes an idle one back from the host ``shares.crowding`` names, or
    is closed at once, before it is read. Every request's head passes ``look`` (``gate``),
    and the large bodies of ``app`` get their cap; each request's start is kept for
    ``keep_deadlines``."""
    held: dict[str, list[Any]] = {}

    class FairChannel(base):
        error_task_class = json_error_task(base.error_task_class)

        def __init__(self, server: Any, sock: socket.socket, addr: Any, adj: Any,
                     map: Any = None) -> None:
            self.host = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
            self.counted = True
            self.request_started: float | None = None
            self.parser_class = gate_parser(base.parser_class, app, look, self.host)
            super().__init__(server, sock, addr, adj, map=map)
            held.setdefault(self.host, []).append(self)

        def received(self, data: bytes) -> bool:
            result = bool(super().received(data))
            if self.request is None:
                self.request_started = None
            elif self.request_started is None:
                self.request_started = time.time()
            return result

        def service(self) -> None:
            request = self.requests[0] if self.requests else None
            try:
                super().service()
            finally:
                release = getattr(request, "release_slot", None)
                if release is not None:
                    release()

        def del_channel(self, map: Any = None) -> None:
            if self.counted:
                self.counted = False
                shares.release(self.host)
                mine = held.get(self.host, [])
                if self in mine:
                    mine.remove(self)
                if not mine:
                    held.pop(self.host, None)
                for request in [self.request, *self.requests]:
                    release = getattr(request, "release_slot", None)
                    if release is not None:
                        release()
            super().del_channel(map)

    def take_back(victim: str) -> bool:
        """Close the oldest connection of ``victim`` that is not being answered."""
        idle = [c for c in held.get(victim, []) if not c.requests]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.creation_time)
        log.info("%s holds the most connections: one given to a newcomer", victim)
        oldest.handle_close()
        return True

    def accept(server: Any, sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> Any:
        host = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
        refused = shares.acquire(host)
        if refused is not None:
            victim = shares.crowding(host)
            if victim is not None and take_back(victim):
                refused = shares.acquire(host)
        if refused is not None:
            log.info("%s: one more connection closed (%s)", host, refused)
            sock.close()
            return None
        return FairChannel(server, sock, addr, adj, map=map)

    return accept


def json_error_task(base: type) -> type:
    """Waitress's error task answering JSON in the reader's language (``Refusal`` as it is,
    waitress's own refusals with the panel's words), never plain text."""

    class JsonErrorTask(base):
        request: Any

        def execute(self) -> None:
            error = self.request.error
            if not isinstance(error, Refusal):
                language = getattr(self.request, "language", None) or i18n.SOURCE
                code = int(getattr(error, "code", 400))
                words = SERVER_ERRORS.get(code, SERVER_ERRORS[400])
                self.request.error = Refusal(code, i18n.translate(words, language))
            super().execute()

    return JsonErrorTask


class PanelServer:
    """Waitress serving the panel, stoppable from any thread or a signal handler.

    The network loop runs in whichever thread calls ``run`` and also shuts itself down there:
    closing waitress's sockets from another thread while it waits on them fails.
    """

    LOOP_SECONDS = 0.5

    def __init__(self, app: Flask, host: str, port: int) -> None:
        self.app = app
        self.server = make_server(app, host, port)
        self._stop = threading.Event()

    @property
    def port(self) -> int:
        return int(self.server.effective_port)

    def run(self) -> None:
        """Serve until ``stop``; then end the live views, the workers and the sockets."""
        server = self.server
        try:
            while not self._stop.is_set():
                server.asyncore.loop(timeout=self.LOOP_SECONDS, map=server._map, count=1,
                                     use_poll=server.adj.asyncore_use_poll)
        finally:
            _stop_streams(self.app)
            server.task_dispatcher.shutdown(timeout=3)
            server.asyncore.close_all(server._map)

    def stop(self) -> None:
        """Ask ``run`` to return soon; safe in a signal handler and from other threads."""
        self._stop.set()
        _stop_streams(self.app)
        try:
            self.server.pull_trigger()
        except OSError:
            pass  # the loop has already closed its sockets


def panel_addresses(host: str, port: int) -> list[str]:
    """The addresses to print: for a wildcard host, this machine's address on the network."""
    if host in ("", "0.0.0.0", "::"):
        names = ["127.0.0.1"]
        lan = _lan_address()
        if lan:
            names.append(lan)
    else:
        names = [host]
    return [f"http://{f'[{n}]' if ':' in n else n}:{port}/" for n in names]


def _lan_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent; this only picks a route
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address
