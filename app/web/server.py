"""The panel under waitress: the server, stoppable from any thread, and its addresses.

The parts it serves are composed in ``app.assembly``. Waitress gets many more threads than
phones are expected, because every open live view holds one (see ``events``).
"""

from __future__ import annotations

import copy
import logging
import socket
import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask

from . import panel_state
from .limits import HostCounter

log = logging.getLogger(__name__)

SPARE_THREADS = 8
"""Threads left for ordinary requests when every live view is open."""

CONNECTION_LIMIT = 400
"""Open connections in all: far more than one host may hold (``CONNECTIONS_PER_HOST``)."""

CHANNEL_TIMEOUT = 10
"""Seconds a connection with no request in progress may stay idle before it is closed."""

MAX_HEADER_BYTES = 32 * 1024


def make_server(app: Flask, host: str, port: int) -> Any:
    """A waitress server for ``app`` (``port`` 0 picks a free one: see ``effective_port``),
    set up for a small appliance on a home network:

    - bodies above the panel's limit are refused by waitress with 413 as soon as their
      ``Content-Length`` is read (a chunked one once it passes the limit), never spooled to disk;
      only the paths of ``LARGE_BODIES`` (the import of finished games) take more: twice their
      own cap, so that a file just over it gets the panel's own message (JSON, in the reader's
      language) rather than waitress's plain one;
    - a connection idle for ``CHANNEL_TIMEOUT`` seconds is closed, and one host may hold at most
      ``CONNECTIONS_PER_HOST`` connections: further ones are closed at once, so one host cannot
      fill the ``CONNECTION_LIMIT`` that everybody shares;
    - one thread per live view plus ``SPARE_THREADS`` for everything else.
    """
    from waitress import create_server

    state = panel_state(app)
    server = create_server(
        app,
        host=host,
        port=port,
        threads=state.streams.total + SPARE_THREADS,
        # Lets a live view notice a closed tab at its next poll instead of at its next write.
        channel_request_lookahead=1,
        ident="sudoku-table",
        clear_untrusted_proxy_headers=True,
        max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]) + 1,  # waitress refuses >=
        max_request_header_size=MAX_HEADER_BYTES,
        connection_limit=CONNECTION_LIMIT,
        channel_timeout=int(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT)),
        cleanup_interval=2,
    )
    per_host = int(app.config.get("CONNECTIONS_PER_HOST", CONNECTION_LIMIT))
    server.channel_class = fair_channel_class(server.channel_class,
                                              HostCounter(CONNECTION_LIMIT, per_host),
                                              dict(app.config.get("LARGE_BODIES") or {}))
    return server


def path_limit_parser(base: type, limits: Mapping[str, int]) -> type:
    """Waitress's request parser with a larger body limit (``2 * cap``) for the paths in
    ``limits``; every other path keeps the server's limit. The limit is chosen as soon as the
    request line is parsed, before any of the body is read."""

    class PathLimitParser(base):
        adj: Any
        path: str

        def parse_header(self, header_plus: bytes) -> None:
            super().parse_header(header_plus)
            cap = limits.get(self.path)
            if cap is not None:
                adj = copy.copy(self.adj)
                adj.max_request_body_size = 2 * cap + 1
                self.adj = adj

    return PathLimitParser


def fair_channel_class(base: Any, shares: HostCounter,
                       large_bodies: Mapping[str, int] | None = None) -> Callable[..., Any]:
    """Waitress's channel class, counting each host's connections against ``shares``; a new
    connection over its host's share is closed at once, before it is read. The paths of
    ``large_bodies`` may carry larger bodies (``path_limit_parser``)."""

    class FairChannel(base):
        parser_class = path_limit_parser(base.parser_class, large_bodies or {})

        def __init__(self, server: Any, sock: socket.socket, addr: Any, adj: Any,
                     map: Any = None) -> None:
            self.host = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
            self.counted = True
            super().__init__(server, sock, addr, adj, map=map)

        def del_channel(self, map: Any = None) -> None:
            if self.counted:
                self.counted = False
                shares.release(self.host)
            super().del_channel(map)

    def accept(server: Any, sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> Any:
        host = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
        if shares.acquire(host) is not None:
            log.info("%s holds too many connections: one more closed", host)
            sock.close()
            return None
        return FairChannel(server, sock, addr, adj, map=map)

    return accept


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
            panel_state(self.app).stop_streams()
            server.task_dispatcher.shutdown(timeout=3)
            server.asyncore.close_all(server._map)

    def stop(self) -> None:
        """Ask ``run`` to return soon; safe in a signal handler and from other threads."""
        self._stop.set()
        panel_state(self.app).stop_streams()
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
