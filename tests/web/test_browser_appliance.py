"""In the browser: shutting down from the Table page (a fake bus client stands in for
busctl), and all finished games saved to a file and loaded on another table."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.power import LogindPower

from .appliance import calls, example, fake_busctl
from .helpers import LiveServer

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def api_post(url: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def finish_a_game(url: str) -> None:
    """Play a short game to its end on the simulated board, as another phone would."""
    record = example()["record"]
    api_post(url, "/api/game", {"variant": record["variant"], "players": record["players"]})
    for action in record["actions"]:
        api_post(url, "/api/sim/square", {"square": action["cell"], "occupied": True})
        view = api_post(url, "/api/input", {"type": "number", "square": action["cell"],
                                             "number": action["number"]})
    assert view["game"]["over"]


class Live:
    def __init__(self, directory: Path, **test_config: Any) -> None:
        from sudoku_table.assembly import open_panel

        self.panel = open_panel(sim=True, data=directory, config_path=None,
                                test_config=test_config)
        self.server = LiveServer(self.panel.app)
        self.url = self.server.url

    def close(self) -> None:
        self.server.close()
        self.panel.close()


@pytest.fixture
def powered(tmp_path: Path) -> Iterator[tuple[Live, Path]]:
    busctl, log = fake_busctl(tmp_path)
    live = Live(tmp_path / "data", POWER=LogindPower([str(busctl)]))
    yield live, log
    live.close()


def test_shut_down_asks_first_then_says_when_to_unplug(browser: Any,
                                                       powered: tuple[Live, Path]) -> None:
    live, log = powered
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/table")
    page.wait_for_selector("body[data-rendered='true']")
    assert page.is_enabled("#power-off") and page.is_hidden("#power-unavailable")
    asked = len(calls(log))

    page.click("#power-off")
    dialog = page.locator("#power-dialog")
    assert dialog.is_visible()
    assert page.text_content("#power-dialog-title") == "Shut the table down?"
    page.click("#power-cancel")
    assert not dialog.is_visible()
    assert len(calls(log)) == asked and page.is_hidden("#power-state")  # nothing happened

    page.click("#power-off")
    page.click("#power-confirm")
    page.wait_for_selector("#power-state:not([hidden])")
    assert "safe to unplug" in page.text_content("#power-state")
    assert calls(log)[-1][-3:] == ["PowerOff", "b", "false"]
    assert page.is_disabled("#power-off") and page.is_disabled("#power-restart")
    assert errors == []
    page.close()


def test_the_simulated_table_shows_the_control_as_unavailable(browser: Any,
                                                              server: str) -> None:
    page = browser.new_page(viewport=PHONE, locale="de-DE")
    page.goto(server + "/table")
    page.wait_for_selector("body[data-rendered='true']")
    assert page.is_disabled("#power-off") and page.is_disabled("#power-restart")
    assert "kein Raspberry Pi" in page.text_content("#power-unavailable")
    page.close()


def test_save_all_games_then_load_them_on_another_table(browser: Any, tmp_path: Path) -> None:
    first, second = Live(tmp_path / "first"), Live(tmp_path / "second")
    try:
        finish_a_game(first.url)
        page = browser.new_page(viewport=PHONE, accept_downloads=True)
        page.goto(first.url + "/table")
        page.wait_for_selector("#finished [data-game]")
        with page.expect_download() as info:
            page.click("#export")
        download = info.value
        assert download.suggested_filename.startswith("sudoku-table-games-")
        saved = tmp_path / download.suggested_filename
        download.save_as(saved)
        assert len(json.loads(saved.read_text(encoding="utf-8"))["games"]) == 1

        page.goto(second.url + "/table")
        page.wait_for_selector("body[data-rendered='true']")
        assert page.locator("#finished [data-game]").count() == 0
        page.set_input_files("#import-file", str(saved))
        page.wait_for_selector("body[data-imported='true']")
        assert page.text_content("#import-report") == "1 added, 0 already here, 0 refused."
        page.wait_for_selector("#finished [data-game]")

        page.set_input_files("#import-file", str(saved))  # the same file again: nothing new
        page.locator("#import-report p").filter(has_text="0 added").wait_for()
        assert "1 already here" in page.text_content("#import-report")
        assert page.locator("#finished [data-game]").count() == 1
        page.close()
    finally:
        first.close()
        second.close()
