"""The panel when the table cannot save, in a real Chromium: the what-now bar says so in words
(German and English), the held piece shows the ``unsaved`` light, everything that matters is in
view at phone and desktop sizes, and the page follows the table once it saves again."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.table.faults import Faults, installed

from .helpers import live_composition
from .test_browser import Phone

pytestmark = pytest.mark.integration

SIZES = [(390, 844), (844, 390), (1280, 800)]
TITLES = {"en": "The table cannot save: its memory card is full.",
          "de": "Der Tisch kann nicht speichern: Seine Speicherkarte ist voll."}
LOW = {"en": "The memory card is full:", "de": "Die Speicherkarte ist voll:"}


@pytest.fixture
def failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Faults]]:
    """A live panel whose journal's writes fail when the test says so."""
    faults = Faults("full")
    with installed(faults, monkeypatch), live_composition(tmp_path / "data") as (url, _panel):
        yield url, faults


def post(url: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def geometry(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
        const box = (el) => { const r = el.getBoundingClientRect();
                              return [r.top, r.bottom, r.left, r.right]; };
        const shown = (el) => el && !el.hidden && el.getBoundingClientRect().height > 0;
        const controls = [...document.querySelectorAll('#now button, #now .pad button')]
          .filter(shown).map((b) => [b.id || b.textContent, ...box(b)]);
        const saving = document.getElementById('now-saving');
        return {bar: box(document.getElementById('now')), saving: box(saving),
                savingShown: shown(saving), controls,
                text: document.getElementById('now-text').textContent,
                savingText: saving.textContent, kind: saving.dataset.kind,
                viewport: [window.innerWidth, window.innerHeight],
                scrollWidth: document.documentElement.scrollWidth};
    }""")


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_bar_says_the_table_cannot_save_and_what_waits(
        browser: Any, failing: tuple[str, Faults], size: tuple[int, int], language: str) -> None:
    url, faults = failing
    status, _ = post(url, "/api/game", {"variant": "classic-sudoku", "players": 2,
                                        "names": ["Anna", "Ben"]})
    assert status == 200
    for square, number in (("a1", 1), ("b2", 3)):
        post(url, "/api/sim/square", {"square": square, "occupied": True})
        post(url, "/api/input", {"type": "number", "square": square, "number": number})
    faults.down()
    post(url, "/api/sim/square", {"square": "c3", "occupied": True})
    status, view = post(url, "/api/input", {"type": "number", "square": "c3", "number": 5})
    assert status == 200 and view["table"]["saving"]["held"] is not None
    status, refused = post(url, "/api/input", {"type": "hints", "on": True})
    assert status == 503 and refused["code"] == "cannot_save" and refused["cause"] == "full"

    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2, is_mobile=width < 900,
                                  has_touch=width < 900)
    page = context.new_page()
    page.set_default_timeout(8000)
    phone = Phone(page, url)
    try:
        page.goto(f"{url}/language/{language}?next=/play")
        page.wait_for_selector("#now-saving:not([hidden])")
        page.wait_for_selector("#now-text:not(:empty)")  # the game's part drawn too
        shown = geometry(page)
        assert shown["text"] == TITLES[language]
        assert shown["kind"] == "failing"
        held = {"en": "5 on c3 does not count yet", "de": "5 auf c3 zählt noch nicht"}
        assert held[language] in shown["savingText"]
        Phone.assert_bar_in_view(shown)
        top, bottom, left, right = shown["saving"]
        assert 0 <= top and bottom <= height + 0.5 and 0 <= left and right <= width + 0.5, (
            "what to do is out of view", shown["saving"], shown["viewport"])
        assert shown["scrollWidth"] <= width + 1, "the page scrolls sideways"
        ring = page.get_attribute("#board .signal-ring[data-signal='unsaved']", "class")
        assert ring is not None and "pattern-double_blink" in ring
        assert page.get_attribute("#board [data-square='c3']", "data-signal") == "unsaved"
        assert not page.is_disabled("#undo")  # Undo gives the held piece up
        # The disk is freed: the table saves the piece on its next try, and the page follows.
        faults.up()
        page.wait_for_selector("#board [data-square='c3'][data-number='5']", timeout=10000)
        page.wait_for_selector("#now-low:not([hidden])")
        shown = geometry(page)
        assert not shown["savingShown"]
        Phone.assert_bar_in_view(shown)  # play goes on: the controls stay in view
        low = page.evaluate("""() => { const r = document.getElementById('now-low')
            .getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right,
            document.getElementById('now-low').textContent]; }""")
        assert low[4].startswith(LOW[language])  # the reserve is in use: free space soon
        bar_bottom = shown["bar"][1]
        assert bar_bottom - 0.5 <= low[0] <= bar_bottom + 16, "the note is not below the bar"
        if (width, height) != (390, 844):  # upright, a phone scrolls a little to read it
            assert low[1] <= height + 0.5, ("the note is out of view", low, shown["viewport"])
    finally:
        context.close()
    assert not phone.errors, phone.errors
