"""What players see at the edges: the finished games a page at a time, and a stale tap.

At a phone held upright, turned sideways and on a laptop: the list shows the first page and
"Show older games" fetches the next one (in view, not clipped, no game twice); an Undo tapped on
a view another phone has changed meanwhile is refused with a message in view, and the page
shows the game as it now stands; a phone whose live view is refused (too many at once) still
shows the game and follows it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .test_companion import SIZES, open_phone

pytestmark = [pytest.mark.browser]


def post(phone: Any, path: str, body: Any) -> Any:
    answer = phone.page.request.post(phone.url + path, data=json.dumps(body),
                                     headers={"Content-Type": "application/json"})
    return answer.json()


def inside(box: dict[str, float] | None, width: int) -> bool:
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.parametrize("size", list(SIZES))
def test_the_finished_games_come_a_page_at_a_time(browser: Any, server: str,
                                                  size: str) -> None:
    from tests.table.test_archive import FINISHED, file_of

    context, phone = open_phone(browser, server, SIZES[size])
    try:
        for month in (1, 2, 3):
            post(phone, "/api/games/import",
                 file_of(*FINISHED, finished=f"2025-{month:02d}-{{n:02d}}T20:00:00+00:00"))
        total = 3 * len(FINISHED)
        page = phone.page
        page.goto(server + "/table")
        page.wait_for_selector("#finished [data-game]")
        assert page.locator("#finished [data-game]").count() == min(20, total)
        assert str(total) in page.text_content("#finished-count")
        more = page.locator("#finished-more")
        more.scroll_into_view_if_needed()
        assert more.is_visible() and inside(more.bounding_box(), SIZES[size][0])
        last = page.locator("#finished [data-game]").last.bounding_box()
        button = more.bounding_box()
        assert last is not None and button is not None and button["y"] >= last["y"] + last["height"]
        while more.is_visible():
            shown = page.locator("#finished [data-game]").count()
            more.click()
            page.wait_for_function(f"document.querySelectorAll('#finished [data-game]').length"
                                   f" > {shown}")
        ids = page.eval_on_selector_all("#finished [data-game]",
                                        "items => items.map(i => i.dataset.game)")
        assert len(ids) == len(set(ids)) == total
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_stale_undo_is_refused_and_the_page_shows_the_game_as_it_stands(
        browser: Any, server: str, size: str) -> None:
    context, phone = open_phone(browser, server, SIZES[size])
    try:
        page = phone.page
        post(phone, "/api/game", {"variant": "vierer-dominari", "replace": True})
        page.goto(server + "/play")
        for square, number in (("e3", 3), ("d3", 1)):
            post(phone, "/api/sim/square", {"square": square, "occupied": True})
            post(phone, "/api/input", {"type": "number", "square": square, "number": number})
        page.wait_for_function("document.body.dataset.rendered === 'true'")
        page.wait_for_selector("#board [data-square='d3'] .piece, #board [data-square='d3']")
        # This phone hears no more live views (its Wi-Fi drops for a moment)...
        page.evaluate("window.dispatchEvent(new Event('pagehide'))")
        seen = int(page.evaluate("document.body.dataset.version"))
        # ...while another phone takes back the last action.
        now = phone.api("/api/state")
        post(phone, "/api/input", {"type": "undo", "version": now["version"],
                                   "confirm": True})  # Undo asks first: that phone said yes
        actions = len(phone.api("/api/record")["actions"])
        page.click("#undo")
        page.wait_for_selector("#toast:not([hidden])")
        toast = page.locator("#toast")
        assert "nothing was done" in toast.text_content()
        assert inside(toast.bounding_box(), SIZES[size][0])
        page.wait_for_function(f"Number(document.body.dataset.version) > {seen}")
        assert len(phone.api("/api/record")["actions"]) == actions  # the tap changed nothing
        undo = page.locator("#undo").bounding_box()
        assert undo is not None and undo["y"] + undo["height"] <= SIZES[size][1]
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_whose_live_view_is_refused_still_shows_the_game(
        browser: Any, tmp_path: Any, language: str) -> None:
    """Too many phones at once: the table refuses one more live view (429). That phone's page
    still shows the game (it asks for the view while it tries again), follows a move within a
    few seconds, and does not say the table cannot be reached."""
    from .helpers import live_composition

    with live_composition(tmp_path / "data", MAX_STREAMS=1, STREAMS_PER_HOST=1) as (url, panel):
        panel.table.new_game("classic-sudoku", 2, names=["Anna", "Ben"])
        pages = []
        try:
            for _ in range(2):
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              locale=language)
                page = context.new_page()
                page.set_default_timeout(10000)
                refused: list[int] = []
                page.on("response", lambda r, seen=refused: seen.append(r.status)
                        if "/api/events" in r.url else None)
                page.goto(f"{url}/play")
                pages.append((page, refused))
            first, (second, refused) = pages[0][0], pages[1]
            first.wait_for_selector("body[data-rendered='true']")
            second.wait_for_selector("#board .cell")
            second.wait_for_function("() => document.querySelector('#now-text').textContent")
            assert 429 in refused, "the second live view was refused"
            text = second.locator("#now-text").inner_text()
            answer = first.request.post(f"{url}/api/sim/square",
                                        data=json.dumps({"square": "e5", "occupied": True}),
                                        headers={"Content-Type": "application/json"})
            assert answer.ok
            second.wait_for_function(
                "t => document.querySelector('#now-text').textContent !== t", arg=text)
            assert second.evaluate("document.body.dataset.offline") is None
            assert second.locator("[data-offline-line]").first.is_hidden()
        finally:
            for page, _refused in pages:
                page.context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_sensor_faults_are_worded_in_the_pages_language(browser: Any, tmp_path: Any,
                                                        language: str) -> None:
    """A column shorted to ground and a row that went dead under its pieces, as the scanning
    code finds them on the simulated board: the Table page names each in its own language
    (the English details with their figures stay in its tooltip), in view and not clipped."""
    from .helpers import live_composition
    from .layout import check_layout

    with live_composition(tmp_path / "data") as (url, panel):
        board = panel.hardware.simulator
        for square in ("a4", "b4", "c4", "d4"):  # one at a time, as a hand puts them down
            board.set_square(square, True)  # (four of a rank at once would be a fault itself)
            assert panel.table.wait_for_occupied(square, True, 30)
        board.set_shorted_column(5)
        board.set_dead_row(3)
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language)
        try:
            page = context.new_page()
            page.goto(f"{url}/table")
            page.wait_for_function("() => document.querySelectorAll('#faults li').length >= 2")
            words = page.locator("#faults li").all_inner_texts()
            expected = {"en": ("File f reads a piece with no row driven", "Rank 4: many squares"),
                        "de": ("Spalte f meldet einen Stein", "Reihe 4: Viele Felder")}
            for start in expected[language]:
                assert any(w.startswith(start) for w in words), words
            titles = [page.locator("#faults li").nth(i).get_attribute("title")
                      for i in range(len(words))]
            assert any("no row driven" in (title or "") for title in titles)
            page.locator("#faults").scroll_into_view_if_needed()
            assert check_layout(page, in_view=["#faults"]) == []
        finally:
            context.close()


def test_a_sentence_that_starts_with_a_square_keeps_its_name(browser: Any, server: str) -> None:
    """The panel opens every message with a capital, except a square's name, which stays as
    the board prints it."""
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector("body[data-rendered='true']")
        said = page.evaluate("""() => [Panel.sentence("c3: two pieces"),
                                        Panel.sentence("take the piece away"),
                                        Panel.sentence("e10 is not a square")]""")
        assert said == ["c3: two pieces.", "Take the piece away.", "e10 is not a square."]
    finally:
        page.close()
