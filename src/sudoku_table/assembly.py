"""The composition root: the config, the hardware, the table and the panel, put together here
and nowhere else.

``open_panel`` reads the one config file, opens the real table on a Pi or the simulator
elsewhere (``sudoku_table.firmware.backend``), starts the table with its journal in the data
directory and attaches the sensors, and builds the panel app around it. ``serve`` runs that under
waitress (``sudoku_table.web.server``) until Ctrl-C or SIGTERM, telling systemd's watchdog it is
alive. The web layer receives its parts and never imports the firmware.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from .config import Config, load_config
from .network.club import Club
from .network.watching import Following
from .speech import Speaker
from .table import Table
from .table.sounds import TableSounds
from .web import create_app, panel_state, settings
from .web.looking import KEY as FOLLOWING
from .web.server import PanelServer, panel_addresses

log = logging.getLogger(__name__)

JOURNAL_NAME = "journal.sqlite3"
SETTINGS_NAME = "settings.json"


def default_data_dir() -> Path:
    """Where the journal and settings live when ``--data`` is not given (XDG data home)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sudoku-table"


@dataclass
class Panel:
    """A composed, running table with its panel app; ``close`` releases everything once."""

    config: Config
    hardware: Any
    table: Table
    app: Flask
    data_dir: Path
    sounds: TableSounds | None = None
    speaker: Speaker | None = None

    def close(self) -> None:
        panel_state(self.app).stop_streams()
        following = self.app.extensions.get(FOLLOWING)
        for part in (self.sounds, self.speaker, following, self.table, self.hardware):
            if part is None:
                continue
            try:
                part.stop() if isinstance(part, Following) else part.close()
            except Exception:  # closing must go on for the other parts
                log.exception("error while closing %r", part)


def open_panel(
    sim: bool,
    data: str | os.PathLike[str] | None,
    config_path: str | None,
    test_config: dict[str, Any] | None = None,
) -> Panel:
    """Load the config, open the hardware, the table with its journal, and build the app."""
    from sudoku_table.firmware.backend import open_hardware

    config = load_config(config_path)
    data_dir = Path(data) if data else default_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    hardware = open_hardware(config.hardware, simulate=True if sim else None)
    try:
        table = Table(display=hardware.display, journal=data_dir / JOURNAL_NAME,
                      computer=config.computer, network=config.network)
    except BaseException:
        hardware.close()
        raise
    try:
        settings_path = data_dir / SETTINGS_NAME
        saved = settings.load(settings_path).get("brightness")
        if isinstance(saved, (int, float)) and not isinstance(saved, bool):
            table.leds.set_brightness(float(saved))
        table.sensors.attach(hardware.sensors)
        options: dict[str, Any] = {"SETTINGS_PATH": settings_path,
                                   "OVERLAY_PITCH_MM": config.board.square_mm}
        options.update(test_config or {})
        app = create_app(table, hardware=hardware, config=config.panel,
                         brightness=config.hardware.leds.brightness, test_config=options,
                         following=open_following(config))
    except BaseException:
        table.close()
        hardware.close()
        raise
    sounds = None
    if hardware.buzzer is not None:
        state = panel_state(app)
        sounds = TableSounds(table, hardware.buzzer,
                             enabled=lambda: settings.table_sound(state.settings_path))
    speaker = open_speaker(config, table, app, simulated=hardware.is_simulated)
    return Panel(config=config, hardware=hardware, table=table, app=app, data_dir=data_dir,
                 sounds=sounds, speaker=speaker)


def open_following(config: Config) -> Following | None:
    """The games the panel looks on at through the broker (None without one): watched by
    their codes, and the club's when a club is set."""
    broker = config.network.parsed()
    if broker is None:
        return None
    club = Club(config.network.club) if config.network.club else None
    return Following(broker, club=club)


def open_speaker(config: Config, table: Table, app: Flask, simulated: bool) -> Speaker:
    """The table's voice: the configured engine, played on the configured sound device (on the
    simulated table only when a device is named), following the table's announcements."""
    from .speech.audio import AplayPlayer, Player, QuietPlayer
    from .speech.engine import open_engine
    from .web import speech as panel_speech

    device = config.hardware.speaker.device
    player: Player = (QuietPlayer() if simulated and not device
                      else AplayPlayer(device or "default"))
    speaker = Speaker(open_engine(config.speech), player, panel_speech.sentence_of,
                      panel_speech.settings_reader(panel_state(app)))
    table.announcer.listen(speaker.announce)
    panel_speech.attach(app, speaker)
    return speaker


def _start_watchdog(stop: threading.Event) -> None:
    """Tell systemd the panel is ready, then that it is alive, twice per watchdog interval."""
    from sudoku_table.firmware.watchdog import notify

    usec = os.environ.get("WATCHDOG_USEC")
    interval = int(usec) / 2e6 if usec and usec.isascii() and usec.isdigit() else None
    notify("READY=1")

    def beat() -> None:
        while interval and not stop.wait(interval):
            notify("WATCHDOG=1")

    threading.Thread(target=beat, name="watchdog", daemon=True).start()


def serve(args: argparse.Namespace) -> int:
    """Run the panel until Ctrl-C or SIGTERM; print its address first."""
    _log_to_stderr()
    try:
        panel = open_panel(bool(args.sim), args.data, args.config)
    except (OSError, ValueError) as e:  # ConfigError is a ValueError; a clear line, no traceback
        print(f"sudoku-table: cannot start: {e}", file=sys.stderr)
        return 2
    try:
        server = PanelServer(panel.app, args.host, args.port)
        panel.app.config["PANEL_LISTENS_ON"] = args.host  # phones need more than loopback
    except OSError as e:
        panel.close()
        print(f"sudoku-table: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    kind = "simulated table" if panel.hardware.is_simulated else "table"
    for address in panel_addresses(args.host, server.port):
        print(f"Sudoku Table panel: {address}", flush=True)
    print(f"({kind}; journal in {panel.data_dir}; Ctrl-C stops)", flush=True)
    _run(server, panel.close)
    print("Sudoku Table stopped.", flush=True)
    return 0


def serve_club(args: argparse.Namespace) -> int:
    """``sudoku-table club``: the club's page and the watch page on a PC, with no table,
    following the club's games through the config's broker until Ctrl-C or SIGTERM."""
    from .config import ConfigError
    from .web.club_app import create_club_app

    _log_to_stderr()
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"sudoku-table club: cannot start: {e}", file=sys.stderr)
        return 2
    following = open_following(config)
    if following is None:
        print("sudoku-table club: cannot start: set broker in the config's [network] section "
              "(the broker the club's tables meet through), and club (the club's secret "
              "words)", file=sys.stderr)
        return 2
    try:
        app = create_club_app(following, config.panel,
                              {"OVERLAY_PITCH_MM": config.board.square_mm})
        server = PanelServer(app, args.host, args.port)
    except OSError as e:
        following.stop()
        print(f"sudoku-table club: cannot listen on {args.host}:{args.port}: {e}",
              file=sys.stderr)
        return 2
    for address in panel_addresses(args.host, server.port):
        print(f"Sudoku Table club: {address}club", flush=True)
    if following.club is None:
        print("(no club is set in the config's [network] section: games can be watched by "
              "their codes only)", flush=True)
    broker = config.network.parsed()
    assert broker is not None  # open_following found one
    print(f"(through the broker at {broker.host}:{broker.port}; Ctrl-C stops)", flush=True)
    _run(server, following.stop)
    print("Sudoku Table club stopped.", flush=True)
    return 0


def _log_to_stderr() -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


def _run(server: PanelServer, close: Callable[[], None]) -> None:
    """Serve until Ctrl-C or SIGTERM (telling systemd's watchdog it is alive), then ``close``."""
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        server.stop()

    previous: dict[int, Callable[..., Any] | int | None] = {
        sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    _start_watchdog(stop)
    try:
        server.run()
    finally:
        stop.set()
        close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
