"""Fixtures for the panel: a real table with the simulated hardware, an app and a client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from sudoku_table.table import Table
from sudoku_table.web import create_app

from .helpers import open_sim_hardware


@pytest.fixture
def hardware() -> Iterator[Any]:
    hw = open_sim_hardware()
    yield hw
    hw.close()


@pytest.fixture
def table(hardware: Any, tmp_path: Path) -> Iterator[Table]:
    t = Table(display=hardware.display, journal=tmp_path / "journal.sqlite3")
    t.sensors.attach(hardware.sensors)
    yield t
    t.close()


@pytest.fixture
def app(table: Table, hardware: Any, tmp_path: Path) -> Flask:
    return create_app(table, hardware=hardware, test_config={
        "TESTING": True, "SETTINGS_PATH": tmp_path / "settings.json"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


# --- the real browser and a live panel, for the browser tests -----------------------------------

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "Debian's chromium is needed: sudo apt-get install chromium"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``sudoku-table serve --sim`` in a thread: the real composition, a temporary data dir."""
    from .helpers import live_composition

    with live_composition(tmp_path / "data") as (url, _panel):
        yield url


