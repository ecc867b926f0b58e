"""Helpers shared by the panel's tests: the simulated table and playing through the API."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from sudoku_table.config import load_config
from sudoku_table.firmware.backend import open_hardware


def open_sim_hardware() -> Any:
    """The firmware's simulated table (gpiozero mock pins, recording LEDs)."""
    return open_hardware(load_config(None).hardware, simulate=True)


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
        from sudoku_table.web.server import PanelServer

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
    from sudoku_table.assembly import open_panel

    return open_panel(sim=True, data=data_dir, config_path=None)


@contextlib.contextmanager
def live_composition(data_dir: Any, **test_config: Any) -> Iterator[tuple[str, Any]]:
    """``open_composition`` (with ``test_config``) under a ``LiveServer``: its URL and the
    panel, both closed afterwards."""
    from sudoku_table.assembly import open_panel

    panel = open_panel(sim=True, data=data_dir, config_path=None, test_config=test_config)
    live = LiveServer(panel.app)
    try:
        yield live.url, panel
    finally:
        live.close()
        panel.close()
