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
    t.attach(hardware.sensors)
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


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium per worker process, started by its first browser test; every test opens
    contexts of its own in it (a context shares nothing with another: cookies, storage, cache)."""
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


@pytest.fixture
def page_for(browser: Any) -> Iterator[Any]:
    """Opens a page of a live panel in a fresh browser context of a screen's size and a
    language, once it has rendered (``body[data-rendered]``); its ``errors`` collects the
    page's errors and console errors. axe comes in as the browser's own script, before the
    page: the panel's strict Content-Security-Policy stays in force (a violation of it is an
    error)."""
    from .axe import fetch as fetch_axe

    contexts = []

    def open_page(url: str, size: tuple[int, int], language: str = "en") -> Any:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                      locale=language, accept_downloads=True,
                                      extra_http_headers={"Accept-Language": language})
        context.add_init_script(script=fetch_axe().read_text(encoding="utf-8"))
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.goto(url)
        page.wait_for_selector("body[data-rendered='true']", timeout=20000)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def composed(tmp_path: Path) -> Iterator[Any]:
    """Composed as ``sudoku-table serve --sim`` composes it: the simulated table's speaker
    renders with espeak-ng and keeps what it said instead of playing it."""
    from sudoku_table.assembly import open_panel

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None)
    yield panel
    panel.close()
