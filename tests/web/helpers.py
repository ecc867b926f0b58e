"""Helpers shared by the panel's tests: the simulated table and playing through the API."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from firmware.ports import SensorEvent


class _InstantSensors:
    """A stand-in sensor source used only while the firmware's simulator is not available."""

    def __init__(self) -> None:
        self._occupied: set[str] = set()
        self._on_event: Callable[[SensorEvent], None] | None = None
        self._lock = threading.Lock()

    def start(self, on_event: Callable[[SensorEvent], None], on_fault: Any = None) -> None:
        self._on_event = on_event

    def stop(self) -> None:
        self._on_event = None

    def occupied(self) -> frozenset[str]:
        return frozenset(self._occupied)

    def set_square(self, square: str, occupied: bool) -> None:
        with self._lock:
            if (square in self._occupied) == occupied:
                return
            (self._occupied.add if occupied else self._occupied.discard)(square)
        if self._on_event is not None:
            self._on_event(SensorEvent(square, occupied, time.monotonic()))


class _InstantHardware:
    is_simulated = True

    def __init__(self) -> None:
        self.sensors = _InstantSensors()
        self.simulator = self.sensors
        self.display = None

    def close(self) -> None:
        self.sensors.stop()


def open_sim_hardware() -> Any:
    """The firmware's simulated table (gpiozero mock pins, recording LEDs)."""
    try:
        from firmware.backend import open_hardware
        from firmware.config import load_config
    except ImportError:
        return _InstantHardware()
    return open_hardware(load_config(None), simulate=True)


def put(client: Any, square: str, occupied: bool = True) -> dict[str, Any]:
    """Put a piece down on the simulated board (or lift it) and return the view."""
    response = client.post("/api/sim/square", json={"square": square, "occupied": occupied})
    assert response.status_code == 200, response.get_json()
    view = response.get_json()
    assert (square in view["table"]["occupied"]) == occupied
    return view


def place(client: Any, square: str, number: int) -> dict[str, Any]:
    """Put a new piece on ``square`` and tell the panel its number."""
    put(client, square)
    response = client.post("/api/input", json={"type": "number", "square": square,
                                                "number": number})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


class LiveServer:
    """The panel under a real waitress server in a thread, on a free port of 127.0.0.1."""

    def __init__(self, app: Any) -> None:
        from app.web.server import PanelServer

        self.app = app
        self.server = PanelServer(app, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.port}"
        self._thread = threading.Thread(target=self.server.run, name="test-server", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.stop()
        self._thread.join(timeout=5)
        assert not self._thread.is_alive(), "the server did not stop"


def open_composition(data_dir: Any) -> Any:
    """What ``sudoku-table serve --sim`` composes, with its data in ``data_dir``."""
    try:
        import firmware.backend  # noqa: F401
    except ImportError:
        from app.table import Table
        from app.web import create_app
        from app.web.server import Panel

        hardware = _InstantHardware()
        table = Table(display=None, journal=data_dir / "journal.sqlite3")
        table.attach(hardware.sensors)
        return Panel(config=None, hardware=hardware, table=table,
                     app=create_app(table, hardware=hardware), data_dir=data_dir)
    from app.web.server import open_panel

    return open_panel(sim=True, data=data_dir, config_path=None)
