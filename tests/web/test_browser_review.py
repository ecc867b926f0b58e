"""The review page in a real Chromium: on a phone held upright and sideways and on a laptop,
in German and English, for a game of every family. What matters is in view and nothing is
clipped or overlaps; axe finds no violation at all; the review fills in while the computer
judges; a move picked shows on the small board and on the table's LEDs."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from sudoku_table.ai import ComputerConfig
from sudoku_table.table import Table
from sudoku_table.web import create_app
from tests.table.test_archive import file_of

from ..waiting import until
from .axe import every_violation
from .helpers import LiveServer
from .layout import check_layout

pytestmark = [pytest.mark.browser]

QUICK = ComputerConfig(strong_positions=40, strong_seconds=30.0)
FAMILIES = {"classic-sudoku-7-66.json": "KOSMOS", "vierer-dominari-7-12.json": "DOMINARI",
            "duell-der-meister-7-62.json": "Duell", "sudoku-family-7-34.json": "Family"}
SCREENS = {"phone": (390, 844), "sideways": (844, 390), "laptop": (1280, 800)}


@pytest.fixture(scope="module")
def panel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Table]]:
    """A live panel with a finished game of every family, their reviews made beforehand."""
    data = tmp_path_factory.mktemp("review")
    table = Table(journal=data / "journal.sqlite3", computer=QUICK, review_workers="thread",
                  ticker=False)
    games = file_of(*FAMILIES)
    for game, names in zip(games["games"], (["Anna", "Ben", "Clara"], ["Anna", "Ben"],
                                             ["Lea", "Tom"], ["Oma", "Max"]), strict=True):
        game["record"] = {**game["record"], "names": names}
    table.finished.import_document(games)
    for entry in table.finished.every():
        table.reviews.request(entry["record"])
    for entry in table.finished.every():
        assert table.reviews.wait(entry["record"], timeout=600).status == "done"
    # one more game, not reviewed yet: its review is made while a page shows it
    table.finished.import_document(file_of("vierer-dominari-8-17.json"))
    app = create_app(table, test_config={"TESTING": True, "SETTINGS_PATH": data / "s.json"})
    server = LiveServer(app)
    yield server.url, table
    server.close()
    table.close()


def _id(table: Table, variant: str, actions: int | None = None) -> int:
    return next(g["id"] for g in table.finished.every() if g["variant"] == variant
                and (actions is None or len(g["record"]["actions"]) == actions))


GEOMETRY = """() => {
  const box = (sel) => { const n = document.querySelector(sel);
    if (!n) return null; const r = n.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
            height: r.height}; };
  const within = (sel) => [...document.querySelectorAll(sel)].map((n) => {
    const r = n.getBoundingClientRect(), p = n.closest('.card').getBoundingClientRect();
    return r.left >= p.left - 1 && r.right <= p.right + 1; });
  const buttons = [...document.querySelectorAll('.review-steps button')].map((b) =>
    b.getBoundingClientRect()).map((r) => ({left: r.left, right: r.right, top: r.top,
    bottom: r.bottom, width: r.width, height: r.height}));
  return {
    width: innerWidth, height: innerHeight,
    scrollWidth: document.scrollingElement.scrollWidth,
    title: box('#move-title'), board: box('#review-board'), verdict: box('#move-verdict'),
    steps: buttons, charts: within('.chart-svg'),
    texts: [...document.querySelectorAll('#review-summary li, #review-moves button')]
      .map((n) => n.scrollWidth <= n.clientWidth + 1),
  };
}"""


def _check_geometry(page: Any) -> dict[str, Any]:
    shown = page.evaluate(GEOMETRY)
    assert shown["scrollWidth"] <= shown["width"], "nothing runs off the side"
    for name in ("title", "board", "verdict"):
        box = shown[name]
        assert box["width"] > 0 and box["left"] >= 0 and box["right"] <= shown["width"], name
    board = shown["board"]
    assert board["height"] >= 150, "the board is big enough to read"
    steps = shown["steps"]
    assert all(s["height"] >= 44 and s["width"] >= 44 for s in steps), "tap targets"
    for a, b in zip(steps, steps[1:], strict=False):
        assert a["right"] <= b["left"] + 1 or a["bottom"] <= b["top"] + 1, "no overlap"
    assert all(shown["charts"]), "the charts stay inside their cards"
    assert all(shown["texts"]), "no text is clipped"
    return shown


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_review_fits_every_screen_in_both_languages(
        panel: tuple[str, Table], page_for: Any, screen: str, language: str) -> None:
    url, table = panel
    page = page_for(f"{url}/review/{_id(table, 'classic-sudoku')}", SCREENS[screen], language)
    page.wait_for_selector("body[data-status='done']")
    shown = _check_geometry(page)
    # The move and its board are in view at once, without scrolling, on every screen.
    assert shown["title"]["top"] >= 0 and shown["board"]["bottom"] <= shown["height"] + 1 or \
        screen == "phone", shown
    summary = page.locator("#review-summary li").all_inner_texts()
    assert [s.split(":")[0].strip() for s in summary] == ["Anna", "Ben", "Clara"]
    word = "Züge" if language == "de" else "moves"
    assert all(word in s for s in summary)
    assert page.locator("#chart-scores path.chart-line").count() == 3
    assert page.locator("#chart-loss rect.loss-bar").count() == 66
    assert page.locator("#review-moves li").count() == 66
    assert check_layout(page) == []  # nothing clipped or overlapping, the scores' table folded
    assert every_violation(page) == []
    assert not page.errors, page.errors


@pytest.mark.parametrize("name", [n for n in FAMILIES if not n.startswith("classic")])
def test_a_review_of_every_family(panel: tuple[str, Table], page_for: Any, name: str) -> None:
    url, table = panel
    variant = name.rsplit("-", 2)[0]
    page = page_for(f"{url}/review/{_id(table, variant)}", SCREENS["phone"], "de")
    page.wait_for_selector("body[data-status='done']")
    _check_geometry(page)
    assert page.locator("#review-known").inner_text().startswith("Jeder Zug wird")
    assert every_violation(page) == []
    assert not page.errors, page.errors


def test_the_review_fills_in_while_it_is_made(panel: tuple[str, Table], page_for: Any) -> None:
    url, table = panel
    page = page_for(f"{url}/review/{_id(table, 'vierer-dominari', 17)}", SCREENS["laptop"])
    # Every move is listed at once, before the computer has judged them.
    assert page.locator("#review-moves li").count() == 17
    assert page.locator("#review-progress").is_visible()
    counts = []
    for _ in range(600):
        status = page.evaluate("document.body.dataset.status")
        counts.append(int(page.evaluate("document.body.dataset.judged") or 0))
        if status == "done":
            break
        time.sleep(0.1)
    assert counts == sorted(counts) and counts[-1] == 17
    assert page.locator("#review-progress-text").inner_text().startswith("Every move judged")
    assert page.locator("#review-moves li[data-verdict='pending']").count() == 0


def _view(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/state", timeout=5) as response:
        return json.loads(response.read())


def test_a_move_picked_shows_on_the_board_and_on_the_table(
        panel: tuple[str, Table], page_for: Any) -> None:
    url, table = panel
    game = _id(table, "vierer-dominari", 12)
    page = page_for(f"{url}/review/{game}", SCREENS["phone"])
    page.wait_for_selector("body[data-status='done']")
    page.locator("#review-moves li[data-move='5'] button").click()
    assert page.locator("#move-title").inner_text() == "Move 5 of 12"
    played = table.finished.every()
    record = next(g for g in played if g["id"] == game)["record"]
    cell = record["actions"][4]["cell"]
    assert page.locator(f"#review-board [data-square='{cell}']").get_attribute(
        "data-signal") == "replayed"
    page.locator("#replay-show").click()
    page.wait_for_selector("body[data-replay='5']")
    assert _view(url)["table"]["replay"]["move"] == 5
    page.locator("#move-next").click()
    page.wait_for_selector("body[data-replay='6']", state="attached")
    assert until(lambda: _view(url)["table"]["replay"]["move"] == 6)
    page.locator("#replay-leave").click()
    page.wait_for_selector("body[data-replay='']", state="attached")
    assert _view(url)["table"]["replay"] is None
    assert not page.errors, page.errors


def test_the_review_draws_each_player_in_the_games_colours(
        panel: tuple[str, Table], page_for: Any) -> None:
    # DOMINARI's White is drawn white at the table (its piece look); the review once drew
    # it in the light blue of a seat colour.
    from sudoku_table.rules.game import variant_class

    url, table = panel
    page = page_for(f"{url}/review/{_id(table, 'vierer-dominari', 12)}", SCREENS["phone"], "en")
    page.wait_for_selector("body[data-status='done']")
    looks = variant_class("vierer-dominari").traits()["piece_looks"]
    drawn = page.eval_on_selector_all(
        "#chart-legend .swatch", "nodes => nodes.map((n) => getComputedStyle(n).backgroundColor)")
    wanted = [page.evaluate("(c) => { const n = document.createElement('span');"
                            " n.style.background = c; document.body.append(n);"
                            " const got = getComputedStyle(n).backgroundColor; n.remove();"
                            " return got; }", look["fill"]) for look in looks]
    assert drawn == wanted[:len(drawn)] and drawn, (drawn, wanted)
    assert not page.errors, page.errors
