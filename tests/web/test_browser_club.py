"""The club's page and the watch page in a real Chromium, served by ``sudoku-table club``'s app
(and by a table's panel), looking on at a club evening through a real Mosquitto: three tables
of a club host games (one with a seat at a fourth table), two live and one finished. On a
phone held upright and sideways and on a laptop, in German and English: every board is drawn
and in view, nothing is clipped or overlaps, axe finds nothing; a move made at a table shows
on both pages by itself; the record so far comes as a file that replays; a watch code opens a
game from the table's page, and again after the server restarted."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.network.watching import Following
from sudoku_table.rules.record import Record, replay
from sudoku_table.web import create_app
from sudoku_table.web.club_app import create_club_app
from tests.network.clubs import Evening, club_evening, club_following, followed, moves
from tests.network.conftest import Mosquitto

from .axe import every_violation
from .helpers import LiveServer
from .layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENS = {"phone": (390, 844), "sideways": (844, 390), "laptop": (1280, 800)}


class Club:
    """The evening, the club app's address and what it follows."""

    def __init__(self, evening: Evening, url: str, following: Following, broker: str) -> None:
        self.evening, self.url, self.following, self.broker = evening, url, following, broker

    def game_id(self, variant: str) -> str:
        return next(g["game"] for g in self.following.club_games() if g["variant"] == variant)

    def game(self, variant: str) -> dict[str, Any]:
        found = self.following.game(self.game_id(variant))
        assert found is not None
        return found


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    folder = tmp_path_factory.mktemp("club")
    broker = Mosquitto(folder)
    broker.start()
    evening = club_evening(folder, broker.url)
    following = club_following(broker.url)
    server = None
    try:
        followed(following, 3, {"classic-sudoku": 6, "hexa-sudoku": 7})
        server = LiveServer(create_club_app(following, test_config={"TESTING": True}))
        yield Club(evening, server.url, following, broker.url)
    finally:
        if server is not None:
            server.close()
        following.stop()
        evening.close()
        broker.stop()


BOXES = """(selector) => [...document.querySelectorAll(selector)].map((n) => {
  const r = n.getBoundingClientRect();
  const card = n.closest('.card, .club-done-item') || n;
  const c = card.getBoundingClientRect();
  const box = (b) => ({left: b.left, right: b.right, top: b.top, bottom: b.bottom,
                       width: b.width, height: b.height});
  return {box: box(r), card: box(c), cells: n.querySelectorAll('.cell').length,
          pieces: n.querySelectorAll('circle.piece').length};
})"""


def pieces(page: Any, game: str) -> int:
    return int(page.evaluate(
        "(g) => document.querySelectorAll(`[data-game='${g}'] svg circle.piece`).length", game))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
            and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_club_page_shows_every_game_on_every_screen_in_both_languages(
        club: Club, page_for: Any, screen: str, language: str) -> None:
    width, height = SCREENS[screen]
    page = page_for(f"{club.url}/club", SCREENS[screen], language)
    page.wait_for_selector("body[data-live='2'][data-finished='1']")
    heading = page.locator("h1").inner_text()
    assert heading == ("Die Spiele des Clubs" if language == "de" else "The club's games")
    boards = page.evaluate(BOXES, ".club-board")
    assert len(boards) == 2
    for variant in ("classic-sudoku", "hexa-sudoku"):
        game = club.game(variant)
        assert pieces(page, game["game"]) == len(game["document"]["cells"]), variant
    for board in boards:
        box, card = board["box"], board["card"]
        assert board["cells"] > 0, "the board is drawn"
        assert box["width"] >= 150 and box["height"] >= 150, "big enough to follow"
        assert box["left"] >= card["left"] - 1 and box["right"] <= card["right"] + 1, \
            "not clipped by its card"
        assert box["left"] >= 0 and box["right"] <= width, "inside the screen"
    cards = [b["card"] for b in boards]
    assert not overlap(cards[0], cards[1])
    columns = page.evaluate("getComputedStyle(document.getElementById('club-live'))"
                            ".gridTemplateColumns.split(' ').length")
    if screen == "phone":
        assert columns == 1
        assert boards[0]["box"]["bottom"] <= height, "the first board is in view at once"
    if screen == "laptop":
        assert columns >= 3, "three or four games a row"
        assert all(b["box"]["bottom"] <= height for b in boards), "every board in view"
        assert cards[0]["top"] == cards[1]["top"]
    if screen == "sideways":
        assert boards[0]["box"]["height"] >= 0.6 * height, "as tall as the screen allows"
    done = page.locator("#club-done li")
    assert done.count() == 1
    result = done.inner_text()
    david = club.evening.host("vierer").view()["game"]
    winner = ["David", "Greta"][david["winners"][0]] if david["winners"] else ""
    assert ("Spielende" if language == "de" else "Game over") in result and winner in result
    assert pieces(page, club.game_id("vierer-dominari")) == len(david["cells"])
    assert check_layout(page) == []
    assert every_violation(page) == []
    assert not page.errors, page.errors


def test_a_move_at_a_table_shows_on_the_club_page_and_the_watch_page(
        club: Club, page_for: Any) -> None:
    table, clock = club.evening.games["hexa"]
    game = club.game_id("hexa-sudoku")
    board = page_for(f"{club.url}/club", SCREENS["laptop"])
    watch = page_for(f"{club.url}/watch/{game}", SCREENS["phone"], "de")
    before = pieces(board, game)
    moved = int(watch.evaluate("document.body.dataset.moves"))
    turn = board.locator(f"[data-game='{game}'] .club-state").inner_text()
    moves(table, clock, random.Random(11), 1)
    board.wait_for_function(
        "([g, n]) => document.querySelectorAll(`[data-game='${g}'] svg circle.piece`).length > n",
        arg=[game, before], timeout=10000)
    assert board.locator(f"[data-game='{game}'] .club-state").inner_text() != turn
    watch.wait_for_function("(n) => Number(document.body.dataset.moves) === n + 1",
                            arg=moved, timeout=10000)
    shown = watch.locator("#watch-board circle.piece").count()
    assert shown == len(table.view()["game"]["cells"])
    assert watch.locator("#watch-moves li").count() == moved + 1
    last = watch.locator("#watch-last").inner_text()
    assert last.startswith("Letzter Zug:")
    assert not board.errors and not watch.errors, board.errors + watch.errors


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_watch_page_fits_every_screen_and_gives_the_record(
        club: Club, page_for: Any, tmp_path: Path, screen: str, language: str) -> None:
    width, height = SCREENS[screen]
    game = club.game("classic-sudoku")
    page = page_for(f"{club.url}/watch/{game['game']}", SCREENS[screen], language)
    title = page.locator("#watch-title").inner_text()
    assert title.endswith("Classic-Sudoku")
    tables = page.locator("#watch-tables li").all_inner_texts()
    assert len(tables) == 2 and tables[0].startswith("Anna's table")
    assert "Ben's table" in tables[1]
    assert page.locator("#watch-players li").all_inner_texts()[0].startswith("Anna")
    assert page.locator("#watch-board circle.piece").count() == len(game["document"]["cells"])
    # Read-only: no control on the page acts in the game (the form and download do not).
    assert page.locator("#watch-game button").count() == 1
    board = page.locator("#watch-board").bounding_box()
    state = page.locator("#watch-state").bounding_box()
    assert board["width"] >= 250 and board["height"] >= 250, "big enough to follow"
    assert board["x"] >= 0 and board["x"] + board["width"] <= width + 1
    assert board["y"] >= 0 and board["y"] + board["height"] <= height + 1, "the board in view"
    assert state["y"] + state["height"] <= height, "whose turn it is, in view"
    assert check_layout(page, in_view=["#watch-board", "#watch-state"]) == []
    assert every_violation(page) == []
    with page.expect_download() as download:
        page.locator("#watch-download").click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert download.value.suggested_filename.startswith("classic-sudoku-")
    host = club.evening.host("classic").record()
    assert record["actions"] == host["actions"] and record["names"] == ["Anna", "Ben"]
    replayed, states = replay(Record.from_json(record))  # it replays, as a record does
    cells = club.evening.host("classic").view()["game"]["cells"]
    assert replayed.document(states[-1])["cells"] == cells
    assert not page.errors, page.errors


def test_a_watch_code_on_the_tables_page_opens_the_game(club: Club, page_for: Any) -> None:
    table = club.evening.guest[0] if club.evening.guest else None
    assert table is not None
    following = club_following(club.broker, club=None)
    server = LiveServer(create_app(table, following=following,
                                   test_config={"TESTING": True}))
    try:
        page = page_for(f"{server.url}/table", SCREENS["phone"], "de")
        card = page.locator("#looking-on")
        card.wait_for(state="visible")
        assert check_layout(page) == []
        assert every_violation(page) == []
        page.fill("#table-watch-code", club.evening.watch["hexa"])
        page.locator("#looking-on button[type=submit]").click()
        page.wait_for_url(f"**/watch/{club.game_id('hexa-sudoku')}#*")
        page.wait_for_selector("body[data-rendered='true']")
        page.wait_for_selector("body[data-state='live']")
        assert page.locator("#watch-title").inner_text() == "Zuschauen: Hexa-Sudoku"
        assert page.locator("#watch-players li").count() == 3
        page.goto(f"{server.url}/table")
        page.wait_for_selector("body[data-rendered='true']")
        page.fill("#table-watch-code", "ABCD-EFGH-JKLM")
        page.locator("#looking-on button[type=submit]").click()
        page.wait_for_selector("#toast:not([hidden])")
        assert "Zuschaucode" in page.locator("#toast").inner_text()
        assert page.url.endswith("/table")
    finally:
        server.close()
        following.stop()


def test_a_watch_link_finds_its_game_again_after_the_server_restarted(
        club: Club, page_for: Any) -> None:
    following = club_following(club.broker, club=None)  # a new server: it follows nothing
    server = LiveServer(create_club_app(following))
    try:
        game = club.game_id("classic-sudoku")
        page = page_for(f"{server.url}/watch/{game}#{club.evening.watch['classic']}",
                        SCREENS["laptop"])
        page.wait_for_selector("body[data-state='live']", timeout=20000)
        assert page.locator("#watch-board circle.piece").count() > 0
        bare = page_for(f"{server.url}/watch/{'0' * 32}", SCREENS["phone"])
        assert bare.evaluate("document.body.dataset.state") == "missing"
        assert bare.locator("#watch-missing .watch-form").is_visible()
        assert check_layout(bare) == []
    finally:
        server.close()
        following.stop()


@pytest.mark.parametrize("language", ["en", "de"])
def test_without_a_club_the_page_says_how_to_set_one(club: Club, page_for: Any,
                                                     language: str) -> None:
    following = club_following(club.broker, club=None)
    server = LiveServer(create_club_app(following))
    try:
        page = page_for(f"{server.url}/club", SCREENS["phone"], language)
        page.wait_for_selector("body[data-state='no_club']")
        assert page.locator("#club-unset-title").inner_text() == (
            "Kein Club eingestellt" if language == "de" else "No club is set")
        assert "club = " in page.locator(".config-example").inner_text()
        assert page.locator("#club-live-box").is_hidden()
        assert check_layout(page, in_view=["#club-unset-title"]) == []
        assert every_violation(page) == []
    finally:
        server.close()
        following.stop()


def test_a_game_whose_table_is_not_heard_yet_waits_on_its_card(club: Club,
                                                                page_for: Any) -> None:
    """An announcement of the club whose game says nothing yet (its table went off before its
    start reached the broker): a card that says it waits, with nothing drawn."""
    import os

    from sudoku_table.network.club import Club as ClubSecret
    from sudoku_table.network.codes import GameKeys
    from sudoku_table.network.link import Link, parse_broker

    secret = ClubSecret("a club of its own")
    link = Link(parse_broker(club.broker), "announcer", lambda _t, _p: None, clean=True)
    link.start()
    assert link.connected.wait(10)
    keys = GameKeys(os.urandom(16))
    secret.announce(link, keys, {"variant": "kakuro", "names": ["Uli"], "host": "Uli's table",
                                 "started": "2026-01-02T18:00:00Z"})
    following = club_following(club.broker, club="a club of its own")
    server = LiveServer(create_club_app(following))
    try:
        page = page_for(f"{server.url}/club", SCREENS["phone"], "de")
        page.wait_for_selector("body[data-live='1']")
        card = page.locator(f"[data-game='{keys.game}']")
        assert card.get_attribute("data-state") == "waiting"
        assert "Warten auf den Tisch des Spiels" in card.inner_text()
        assert check_layout(page) == []
        assert every_violation(page) == []
        assert not page.errors, page.errors
    finally:
        server.close()
        following.stop()
        link.stop()


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_game_taken_over_says_where_it_goes_on(club: Club, page_for: Any,
                                                 monkeypatch: pytest.MonkeyPatch, screen: str,
                                                 language: str) -> None:
    """The club knows that another table took the watched game over (its host was gone): the
    page says so above the board and links to the game where it goes on."""
    old, new = club.game_id("classic-sudoku"), club.game_id("hexa-sudoku")
    game = club.following.game

    def taken_over(wanted: str) -> dict[str, Any] | None:
        view = game(wanted)
        if view is not None and wanted == old:
            view["successor"] = {"game": new, "host": "Ben's table"}
        return view
    monkeypatch.setattr(club.following, "game", taken_over)
    page = page_for(f"{club.url}/watch/{old}", SCREENS[screen], language)
    banner = page.locator("#watch-moved")
    assert banner.is_visible()
    assert banner.inner_text().startswith(
        "Ben's table hat dieses Spiel übernommen" if language == "de"
        else "Ben's table took this game over")
    assert check_layout(page, in_view=["#watch-moved", "#watch-moved-link", "#watch-board"]) \
        == []
    assert every_violation(page) == []
    page.locator("#watch-moved-link").click()
    page.wait_for_url(f"**/watch/{new}")
    page.wait_for_selector("body[data-rendered='true']")
    assert not page.locator("#watch-moved").is_visible()
    assert not page.errors, page.errors
