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
    real: bool = False,
) -> Panel:
    """Load the config, open the hardware, the table with its journal, and build the app. On
    the real table a part that cannot be opened is left out and the panel says what is missing
    (``Hardware.problems``); ``real``: the real table even where this is not a Pi."""
    from sudoku_table.firmware.backend import open_hardware

    config = load_config(config_path)
    data_dir = Path(data) if data else default_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    simulate = True if sim else False if real else None
    hardware = open_hardware(config.hardware, simulate=simulate, degraded=True)
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
        table.attach(hardware.sensors)
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


def watchdog_interval(environ: dict[str, str] | os._Environ[str] = os.environ) -> float | None:
    """Seconds between heartbeats: half of systemd's ``$WATCHDOG_USEC`` (None: no watchdog)."""
    usec = environ.get("WATCHDOG_USEC", "")
    return int(usec) / 2e6 if usec.isascii() and usec.isdigit() and int(usec) > 0 else None


class Heartbeat:
    """systemd's watchdog is told the table is alive only while it is: every check must pass
    since the last beat (the sensor scan has moved on, the panel answers a request). A hung
    scan thread or a web server that no longer answers stops the beats, and systemd restarts
    the service after ``WatchdogSec``; a timer alone would beat on through either."""

    def __init__(self, checks: list[Callable[[], str | None]],
                 send: Callable[[str], bool] | None = None) -> None:
        from sudoku_table.firmware.watchdog import notify

        self.checks = checks
        self.send = send or notify
        self.beats = 0
        self.missed: list[str] = []
        """Why the last beat was left out (empty after a beat)."""

    def beat(self) -> bool:
        """Check, and tell systemd ``WATCHDOG=1`` when every check passed."""
        problems = [problem for check in self.checks if (problem := check()) is not None]
        self.missed = problems
        if problems:
            log.warning("no watchdog heartbeat: %s", "; ".join(problems))
            return False
        self.send("WATCHDOG=1")
        self.beats += 1
        return True


def scan_advances(sensors: Any) -> Callable[[], str | None]:
    """A check that the sensors' scan has moved on since it last asked (a source without a
    scan, as when the matrix is missing, passes: there is nothing to hang)."""
    last = [getattr(sensors, "scans", None)]

    def check() -> str | None:
        if not getattr(sensors, "running", False):
            return None
        scans = getattr(sensors, "scans", None)
        before, last[0] = last[0], scans
        if scans is not None and scans == before:
            return f"the sensor scan has not moved on since the last check ({scans} scans)"
        return None

    return check


def panel_answers(host: str, port: int, timeout: float,
                  path: str = "/api/table") -> Callable[[], str | None]:
    """A check that the panel answers a request for ``path`` (the table's state: it takes the
    table's lock too) on its own port within ``timeout``."""
    import http.client

    address = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)

    def check() -> str | None:
        connection = http.client.HTTPConnection(address, port, timeout=timeout)
        try:
            connection.request("GET", path)
            status = connection.getresponse().status
        except OSError as e:
            return f"the panel does not answer on {address}:{port}: {e}"
        finally:
            connection.close()
        return None if status == 200 else f"the panel answered {status}"

    return check


def _start_watchdog(stop: threading.Event, heartbeat: Heartbeat | None = None,
                    interval: float | None = None) -> None:
    """Tell systemd the panel is ready, then beat while the table is alive."""
    from sudoku_table.firmware.watchdog import notify

    notify("READY=1")
    if heartbeat is None or interval is None:
        return

    def beat() -> None:
        while not stop.wait(interval):
            heartbeat.beat()

    threading.Thread(target=beat, name="watchdog", daemon=True).start()


def serve(args: argparse.Namespace) -> int:
    """Run the panel until Ctrl-C or SIGTERM; print its address first."""
    _log_to_stderr()
    try:
        panel = open_panel(bool(args.sim), args.data, args.config,
                           real=bool(getattr(args, "real", False)))
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
    for problem in getattr(panel.hardware, "problems", ()):
        print(f"Hardware missing: {problem.english()}", flush=True)
    interval = watchdog_interval()
    heartbeat = None
    if interval is not None:
        heartbeat = Heartbeat([scan_advances(panel.hardware.sensors),
                               panel_answers(args.host, server.port, timeout=interval * 0.8)])
    _run(server, panel.close, heartbeat, interval)
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
    interval = watchdog_interval()
    heartbeat = None
    if interval is not None:
        heartbeat = Heartbeat([panel_answers(args.host, server.port, interval * 0.8, "/club")])
    _run(server, following.stop, heartbeat, interval)
    print("Sudoku Table club stopped.", flush=True)
    return 0


def _log_to_stderr() -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


def _run(server: PanelServer, close: Callable[[], None], heartbeat: Heartbeat | None = None,
         interval: float | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM (telling systemd's watchdog it is alive), then ``close``."""
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        server.stop()

    previous: dict[int, Callable[..., Any] | int | None] = {
        sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    _start_watchdog(stop, heartbeat, interval)
    try:
        server.run()
    finally:
        stop.set()
        close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
