"""The phone panel: a Flask app around one table.

``create_app(table, hardware, config)`` receives the running table service instead of building
it, so tests, the benchmark and ``sudoku-table serve`` all compose the same app around a table of
their choice. Nothing is kept in module globals: everything lives in ``app.extensions``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from flask import Flask

from sudoku_table.network.watching import Following
from sudoku_table.power import Power, choose
from sudoku_table.table import Table
from sudoku_table.table.archive import MAX_GROWTH

from .config import PanelConfig
from .errors import register_error_handlers
from .i18n import init_i18n
from .limits import Holders, HostCounter
from .seating import Seating
from .security import PinGuard, init_security

MAX_BODY_BYTES = 16 * 1024
"""The largest request body: a new game with its setup is well under 2 KiB."""

IMPORT_MAX_BYTES = 8 * 1024 * 1024
"""The largest file of finished games the panel takes in (``POST /api/games/import``): about
a thousand games; the only request allowed more than ``MAX_BODY_BYTES``."""

IMPORT_PATH = "/api/games/import"

DEFAULT_MAX_STREAMS = 32
"""Open live views at once (a family and its guests); each holds one server thread."""

DEFAULT_STREAMS_PER_HOST = 6
"""Open live views one device may hold (a phone with a few tabs)."""

STREAMS_FREE_SHARE = 2
"""Live views a device may open while any is free; more only while ``STREAMS_RESERVE`` stay
free for devices not seen yet (``limits.HostCounter``)."""

STREAMS_RESERVE = 8

DEFAULT_STREAM_SECONDS = 300.0
"""A live view is ended after this long; the browser reconnects by itself within seconds."""

DEFAULT_ARCHIVE_READERS = 2
"""Reads of the finished games (a page, a record, the export) under way at once; each holds a
server thread while it sends."""

DEFAULT_ARCHIVE_READERS_PER_HOST = 1

DEFAULT_CONNECTIONS_PER_HOST = 32
"""Open connections one device may hold; further ones are closed at once (see ``server``)."""


class SimulatedBoard(Protocol):
    """The simulated board's hand: what the panel's board taps drive."""

    def set_square(self, square: str, occupied: bool, at: float | None = None) -> None: ...

    def clock(self) -> float: ...


class Hardware(Protocol):
    """What the panel needs of the table's hardware (``sudoku_table.firmware.backend.Hardware`` is
    one)."""

    @property
    def is_simulated(self) -> bool: ...

    @property
    def simulator(self) -> SimulatedBoard | None: ...


@dataclass
class PanelState:
    """What the blueprints share: the table, the hardware, the config and the guards."""

    table: Table
    hardware: Hardware | None = None
    config: PanelConfig = field(default_factory=PanelConfig)
    configured_brightness: float | None = None
    pin: PinGuard = field(default_factory=lambda: PinGuard(""))
    streams: HostCounter = field(default_factory=lambda: HostCounter(
        DEFAULT_MAX_STREAMS, DEFAULT_STREAMS_PER_HOST, STREAMS_FREE_SHARE, STREAMS_RESERVE))
    live_views: Holders = field(default_factory=Holders)
    readers: HostCounter = field(default_factory=lambda: HostCounter(
        DEFAULT_ARCHIVE_READERS, DEFAULT_ARCHIVE_READERS_PER_HOST))
    stream_seconds: float = DEFAULT_STREAM_SECONDS
    stopping: threading.Event = field(default_factory=threading.Event)
    keepalive_seconds: float = 10.0
    settings_path: str | os.PathLike[str] | None = None
    power: Power = field(default_factory=lambda: choose("off", simulated=True))
    seating: Seating = field(default_factory=lambda: Seating(None))
    """Which phone plays which seat (``seats``), kept beside the settings."""

    def stop_streams(self) -> None:
        """End every live view now: set the stop flag and wake the streams waiting for a change."""
        self.stopping.set()
        self.table.wake()

    @property
    def simulator(self) -> SimulatedBoard | None:
        """The simulated board, or None when real sensors (or none) are attached."""
        if self.hardware is None or not self.hardware.is_simulated:
            return None
        return self.hardware.simulator


def create_app(
    table: Table,
    hardware: Hardware | None = None,
    config: PanelConfig | None = None,
    test_config: Mapping[str, Any] | None = None,
    brightness: float | None = None,
    following: Following | None = None,
) -> Flask:
    """The panel for ``table``; ``hardware`` enables the simulated board when it is simulated;
    ``config`` is the ``[panel]`` section; ``brightness`` the LEDs' configured brightness (shown
    until one is chosen on the panel); ``following``: the games looked on at through the
    broker (``looking``; None without a broker).

    ``test_config`` overrides Flask settings and these panel settings: ``PANEL_PIN``,
    ``PANEL_HOSTS`` (extra host names to answer to), ``MAX_STREAMS`` and ``STREAMS_PER_HOST``
    (live views in all and per device), ``STREAM_SECONDS`` (a live view's longest life),
    ``CONNECTIONS_PER_HOST``, ``KEEPALIVE_SECONDS``, ``OVERLAY_PITCH_MM`` (the board's square
    pitch, for printable overlays), ``SETTINGS_PATH`` (where brightness is
    kept), ``POWER`` (an ``sudoku_table.power.Power`` instead of the one ``[panel] power`` chooses:
    tests hand in a fake), ``IMPORT_MAX_BYTES`` (the largest import file),
    ``IMPORT_MAX_GROWTH`` (the most one import may add to the journal),
    ``ARCHIVE_READERS`` and ``ARCHIVE_READERS_PER_HOST`` (reads of the finished games at once).
    """
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
        PANEL_PIN=config.pin if config is not None else "",
        PANEL_HOSTS=config.hosts if config is not None else (),
        PANEL_LANGUAGE=config.language if config is not None else "en",
        MAX_STREAMS=DEFAULT_MAX_STREAMS,
        STREAMS_PER_HOST=DEFAULT_STREAMS_PER_HOST,
        STREAMS_FREE_SHARE=STREAMS_FREE_SHARE,
        STREAMS_RESERVE=STREAMS_RESERVE,
        STREAM_SECONDS=DEFAULT_STREAM_SECONDS,
        CONNECTIONS_PER_HOST=DEFAULT_CONNECTIONS_PER_HOST,
        ARCHIVE_READERS=DEFAULT_ARCHIVE_READERS,
        ARCHIVE_READERS_PER_HOST=DEFAULT_ARCHIVE_READERS_PER_HOST,
        KEEPALIVE_SECONDS=10.0,
        SETTINGS_PATH=None,
        OVERLAY_PITCH_MM=40.0,
        TEMPLATES_AUTO_RELOAD=False,
        IMPORT_MAX_BYTES=IMPORT_MAX_BYTES,
        IMPORT_MAX_GROWTH=MAX_GROWTH,
        POWER=None,
    )
    if test_config:
        app.config.update(test_config)
    app.debug = False  # never the interactive debugger: the panel is open to the network
    panel_config = config if config is not None else PanelConfig()
    power = app.config["POWER"] or choose(
        panel_config.power, simulated=hardware is None or hardware.is_simulated)

    state = PanelState(
        table=table,
        hardware=hardware,
        config=config if config is not None else PanelConfig(),
        configured_brightness=brightness,
        pin=PinGuard(str(app.config["PANEL_PIN"] or "")),
        streams=HostCounter(int(app.config["MAX_STREAMS"]), int(app.config["STREAMS_PER_HOST"]),
                            int(app.config["STREAMS_FREE_SHARE"]),
                            int(app.config["STREAMS_RESERVE"])),
        readers=HostCounter(int(app.config["ARCHIVE_READERS"]),
                            int(app.config["ARCHIVE_READERS_PER_HOST"])),
        stream_seconds=float(app.config["STREAM_SECONDS"]),
        keepalive_seconds=float(app.config["KEEPALIVE_SECONDS"]),
        settings_path=app.config["SETTINGS_PATH"],
        power=power,
        seating=Seating(None if app.config["SETTINGS_PATH"] is None else
                        Path(app.config["SETTINGS_PATH"]).with_name("seats.json")),
    )
    app.extensions["sudoku_table"] = state
    table.phone_seats = state.seating.phones  # a hidden card shows on its own phone alone
    table.touch()
    if following is not None:
        app.extensions["sudoku_following"] = following
    from .validation import compiled

    app.extensions["sudoku_table_shapes"] = compiled()  # every request's shape, from the document

    from .api import api
    from .asking import asking_api
    from .club_pages import club_pages
    from .events import events
    from .looking import looking
    from .pages import pages
    from .reviewing import reviewing
    from .seats import init_seats
    from .speech import speech_api

    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(events)
    app.register_blueprint(looking)
    app.register_blueprint(club_pages)
    app.register_blueprint(reviewing)
    app.register_blueprint(speech_api)
    app.register_blueprint(asking_api)
    init_seats(app)
    register_error_handlers(app)
    init_security(app)
    init_i18n(app)
    return app


def panel_state(app: Flask) -> PanelState:
    """The shared state of ``app`` (for the server and tests)."""
    return app.extensions["sudoku_table"]
