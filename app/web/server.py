"""The panel under waitress: the server, stoppable from any thread, and its addresses.

The parts it serves are composed in ``app.assembly``. Waitress gets many more threads than
phones are expected, because every open live view holds one (see ``events``).
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

from flask import Flask

from . import panel_state

log = logging.getLogger(__name__)

MAX_STREAMS = 16
SPARE_THREADS = 8
"""Threads left for ordinary requests when every live view is open."""


def make_server(app: Flask, host: str, port: int) -> Any:
    """A waitress server for ``app`` (``port`` 0 picks a free one: see ``effective_port``)."""
    from waitress import create_server

    streams = int(app.config.get("MAX_STREAMS", MAX_STREAMS))
    return create_server(
        app,
        host=host,
        port=port,
        threads=streams + SPARE_THREADS,
        # Lets a live view notice a closed tab at its next poll instead of at its next write.
        channel_request_lookahead=1,
        ident="sudoku-table",
        clear_untrusted_proxy_headers=True,
    )


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
