"""``sudoku-table serve``: the config, the hardware, the table and the panel, under waitress.

The parts are composed here and nowhere else: the config says which pins and LEDs; the backend
opens the real table on a Pi or the simulator elsewhere; the table keeps its journal in the data
directory and listens to the sensors; the panel serves phones. Waitress gets many more threads
than phones are expected, because every open live view holds one (see ``events``).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from . import create_app, panel_state, settings

log = logging.getLogger(__name__)

JOURNAL_NAME = "journal.sqlite3"
SETTINGS_NAME = "settings.json"
MAX_STREAMS = 16
SPARE_THREADS = 8
"""Threads left for ordinary requests when every live view is open."""


def default_data_dir() -> Path:
    """Where the journal and settings live when ``--data`` is not given (XDG data home)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sudoku-table"


@dataclass
class Panel:
    """A composed, running table with its panel app; ``close`` releases everything once."""

    config: Any
    hardware: Any
    table: Any
    app: Flask
    data_dir: Path

    def close(self) -> None:
        panel_state(self.app).stop_streams()
        for part in (self.table, self.hardware):
            try:
                part.close()
            except Exception:  # closing must go on for the other parts
                log.exception("error while closing %r", part)


def open_panel(
    sim: bool,
    data: str | os.PathLike[str] | None,
    config_path: str | None,
    test_config: dict[str, Any] | None = None,
) -> Panel:
    """Load the config, open the hardware, the table with its journal, and build the app."""
    from app.table import Table
    from firmware.backend import open_hardware
    from firmware.config import load_config

    config = load_config(config_path)
    data_dir = Path(data) if data else default_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    hardware = open_hardware(config, simulate=True if sim else None)
    try:
        table = Table(display=hardware.display, journal=data_dir / JOURNAL_NAME)
    except BaseException:
        hardware.close()
        raise
    try:
        settings_path = data_dir / SETTINGS_NAME
        saved = settings.load(settings_path).get("brightness")
        if isinstance(saved, (int, float)) and not isinstance(saved, bool):
            table.set_brightness(float(saved))
        table.attach(hardware.sensors)
        options = {"MAX_STREAMS": MAX_STREAMS, "SETTINGS_PATH": settings_path}
        options.update(test_config or {})
        app = create_app(table, hardware=hardware, config=config, test_config=options)
    except BaseException:
        table.close()
        hardware.close()
        raise
    return Panel(config=config, hardware=hardware, table=table, app=app, data_dir=data_dir)


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


def _watchdog_notifier() -> Callable[[str], None] | None:
    """The firmware's systemd notify helper, when it provides one."""
    try:
        from firmware import watchdog  # type: ignore[attr-defined]
    except ImportError:
        return None
    notify = getattr(watchdog, "notify", None)
    return notify if callable(notify) else None


def _start_watchdog(stop: threading.Event) -> None:
    notify = _watchdog_notifier()
    if notify is None:
        return
    usec = os.environ.get("WATCHDOG_USEC")
    interval = int(usec) / 2e6 if usec and usec.isdigit() else None
    notify("READY=1")

    def beat() -> None:
        while interval and not stop.wait(interval):
            notify("WATCHDOG=1")

    threading.Thread(target=beat, name="watchdog", daemon=True).start()


def serve(args: argparse.Namespace) -> int:
    """Run the panel until Ctrl-C or SIGTERM; print its address first."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    try:
        panel = open_panel(bool(args.sim), args.data, args.config)
    except (OSError, ValueError) as e:  # ConfigError is a ValueError; a clear line, no traceback
        print(f"sudoku-table: cannot start: {e}", file=sys.stderr)
        return 2
    try:
        server = PanelServer(panel.app, args.host, args.port)
    except OSError as e:
        panel.close()
        print(f"sudoku-table: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        server.stop()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    kind = "simulated table" if panel.hardware.is_simulated else "table"
    for address in panel_addresses(args.host, server.port):
        print(f"Sudoku Table panel: {address}", flush=True)
    print(f"({kind}; journal in {panel.data_dir}; Ctrl-C stops)", flush=True)
    _start_watchdog(stop)
    try:
        server.run()
    finally:
        stop.set()
        panel.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("Sudoku Table stopped.", flush=True)
    return 0
