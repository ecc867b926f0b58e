"""Helpers shared by the panel's tests: the simulated table and playing through the API."""

from __future__ import annotations

import contextlib
import json
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


def first_live_view(client: Any, token: str | None = None) -> dict[str, Any] | None:
    """The first view a live stream sends (``/api/events``; ``token``: a phone's seat token),
    or None when the stream ends without one."""
    response = client.get("/api/events" + (f"?token={token}" if token else ""), buffered=False)
    try:
        for chunk in response.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            for line in text.splitlines():
                if line.startswith("data: "):
                    return json.loads(line[6:])  # type: ignore[no-any-return]
    finally:
        response.close()
    return None


def panel_on_a_test_clock(tmp: Any) -> tuple[Any, Any, Any, Any, Any]:
    """A table on a test clock with a recording display, its board empty, and its panel:
    (clock, display, table, app, client)."""
    from sudoku_table.table import Table
    from sudoku_table.web import create_app
    from tests.table.helpers import Clock, RecordingDisplay

    clock, display = Clock(), RecordingDisplay()
    table = Table(display, None, clock=clock, settle=1.0, reserve=0, review_workers="thread")
    table.set_board([])
    app = create_app(table, test_config={"TESTING": True,
                                         "SETTINGS_PATH": tmp / "settings.json"})
    return clock, display, table, app, app.test_client()
