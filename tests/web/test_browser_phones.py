"""Every player's own phone, in real browsers: a shared panel offers each person's seat to a
phone (a code to scan or type), each phone joins in a browser context of its own and plays its
seat, and with the table dealing each phone shows its own card only; a piece put down on the
board becomes the dealt number with no number tapped. A player without a phone plays from the
shared panel, which shows their card on their turn. What a player must see is measured at a
phone's size (in view, nothing overlapping)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import Place
from sudoku_table.rules.record import Record, replay

from .layout import check_layout
from .test_browser import Phone, answer_question

pytestmark = [pytest.mark.browser]

UPRIGHT = (390, 844)
# A phone's vibrations, recorded (headless Chromium has no motor to ask).
VIBRATIONS = """navigator.vibrate = (pattern) => {
  (window.vibrations = window.vibrations || []).push(pattern); return true; };"""


def api(url: str, path: str, body: dict[str, Any] | None = None, token: str | None = None,
        method: str | None = None) -> tuple[int, Any]:
    """A request as a phone makes it (its seat's token, if any): the status and the JSON."""
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Table:
    """The browsers at one table: the shared panel and the players' own phones."""

    def __init__(self, browser: Any, url: str) -> None:
        self.browser = browser
        self.url = url
        self.contexts: list[Any] = []
        self.phones: dict[int, Phone] = {}
        self.panel = self.open()

    def open(self, size: tuple[int, int] = UPRIGHT, language: str = "en") -> Phone:
        width, height = size
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
            bypass_csp=True, locale=language)
        context.add_init_script(VIBRATIONS)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        return Phone(page, self.url)

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        errors = [e for p in [self.panel, *self.phones.values()] for e in p.errors]
        assert not errors, errors

    def offer(self, seat: int) -> dict[str, str]:
        """The shared panel's "Join on a phone" for ``seat``: the code its dialog shows."""
        page = self.panel.page
        page.click(f"#phones li[data-seat='{seat}'] [data-action='join']")
        page.wait_for_selector("#join-dialog[open] #join-code:not(:empty)")
        page.wait_for_function("() => document.querySelector('#join-qr').complete && "
                               "document.querySelector('#join-qr').naturalWidth > 0")
        return {"code": page.text_content("#join-code").strip(),
                "title": page.text_content("#join-title")}

    def join_by_code(self, seat: int, code: str) -> Phone:
        """A phone opens the join page and types the code."""
        phone = self.phones[seat] = self.open()
        page = phone.page
        page.goto(self.url + "/join")
        page.wait_for_selector("body[data-rendered='true']", state="attached")
        page.fill("#join-code-input", code.lower().replace("-", " "))  # as a person types it
        page.click("#join-submit")
        page.wait_for_url("**/play")
        page.wait_for_selector("#seat-line:not([hidden])")
        return phone

    def join_by_link(self, seat: int) -> Phone:
        """A phone scans the code: it opens the joining link (here on this panel's address)."""
        status, answer = api(self.url, f"/api/seats/{seat}/join", {})
        assert status == 200, answer
        assert answer["seat"] == seat and answer["link"].endswith("/join#" + answer["token"])
        phone = self.phones[seat] = self.open()
        phone.page.goto(f"{self.url}/join#{answer['token']}")
        phone.page.wait_for_url("**/play")
        phone.page.wait_for_selector("#seat-line:not([hidden])")
        return phone

    @staticmethod
    def token(phone: Phone) -> str:
        kept = phone.page.evaluate("() => JSON.parse(localStorage.getItem('sudoku-table-seat'))")
        return str(kept["token"])

    def view(self, phone: Phone | None = None) -> dict[str, Any]:
        status, view = api(self.url, "/api/state", token=self.token(phone) if phone else None)
        assert status == 200, view
        return view

    def settled(self, phone: Phone) -> dict[str, Any]:
        """The phone's page shows the table's newest view; that view (as the phone sees it)."""
        view = self.view(phone if phone is not self.panel else None)
        phone.page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                                     arg=view["version"])
        return view


@pytest.fixture
def table(browser: Any, server: str) -> Iterator[Table]:
    at = Table(browser, server)
    yield at
    at.close()


def legal_cell(url: str, number: int) -> str:
    """A square where ``number`` may go now (the record has no hidden card in it)."""
    status, data = api(url, "/api/record")
    assert status == 200
    game, states = replay(Record.from_json(data))
    places = [a for a in game.legal_actions(states[-1]) if isinstance(a, Place)
              and a.number == number]
    assert places, f"the dealt {number} fits nowhere"
    return places[0].cell


def put_down(url: str, square: str) -> dict[str, Any]:
    """A piece put down on the board, as the sensors feel it (nobody taps a number)."""
    status, view = api(url, "/api/sim/square", {"square": square, "occupied": True})
    assert status == 200, view
    return view


def layout_problems(page: Any, in_view: list[str], ignore: tuple[str, ...] = ()) -> list[str]:
    page.wait_for_timeout(150)  # the last view drawn
    return check_layout(page, in_view=in_view, ignore=("#toast", *ignore))


def test_three_phones_and_the_table_deals_in_kosmos(table: Table) -> None:
    url, panel = table.url, table.panel
    status, _ = api(url, "/api/game", {"variant": "classic-sudoku", "players": 3, "deal": True,
                                       "names": ["Anna", "Ben", "Cleo"]})
    assert status == 200
    panel.page.goto(url + "/play")
    panel.page.wait_for_selector("#phones-box:not([hidden]) #phones li[data-seat='2']")
    # Anna's phone joins by the code the shared panel shows: picture, code and words in view.
    offered = table.offer(0)
    assert offered["title"] == "Anna: join on a phone"
    problems = layout_problems(panel.page, ["#join-qr", "#join-code", "#join-close"],
                               ignore=("#game", ".topbar"))
    assert problems == [], problems
    anna = table.join_by_code(0, offered["code"])
    panel.page.wait_for_selector("#join-done:not([hidden])")
    assert panel.page.text_content("#join-done") == "Anna's phone has joined."
    panel.page.wait_for_selector("#join-dialog", state="hidden")
    # Ben's and Cleo's phones scan theirs.
    ben, cleo = table.join_by_link(1), table.join_by_link(2)
    phones = {0: anna, 1: ben, 2: cleo}
    panel.page.wait_for_selector("#phones li[data-seat='2'][data-phone='true']")
    assert table.view()["table"]["phones"] == [0, 1, 2]
    for seat, name in enumerate(["Anna", "Ben", "Cleo"]):
        assert phones[seat].page.text_content("#seat-name").strip() == f"{name}'s phone"
    played = []
    for turn in range(6):
        mover = table.view()["table"]["next"]["actor"]
        assert mover == turn % 3
        views = {seat: table.settled(phone) for seat, phone in phones.items()}
        shared = table.settled(panel)
        # Only the mover's phone has a card, and only that phone is told it.
        hand = views[mover]["table"]["hand"]
        assert isinstance(hand, int)
        assert "hand" not in shared["table"], "the shared panel never learns a card"
        for seat, view in views.items():
            page = phones[seat].page
            if seat == mover:
                assert page.text_content("#hand-number") == str(hand)
                assert page.is_visible("#your-turn") and page.is_visible("#hand")
                assert page.text_content("#hand-label") == "Your card"
            else:
                assert view["table"]["hand"] is None
                assert page.is_hidden("#hand") and page.is_hidden("#your-turn")
                assert str(hand) not in (page.text_content("#mine") or "")
                # Whose turn it is, in the third person, and none of the mover's controls.
                mover_name = ["Anna", "Ben", "Cleo"][mover]
                assert page.text_content("#now-who").strip() == f"{mover_name}'s turn"
                assert page.text_content("#now-text") == f"{mover_name} puts a card on the board."
                for control in ("#hint", "#pad", "#set-aside-dealt", "#discard", "#joker",
                                "#prompt-extra", "#hint-box"):
                    assert page.is_hidden(control), control
        # Nothing on the shared panel offers the card of a player with a phone.
        assert panel.page.is_hidden("#show-card")
        page = phones[mover].page
        if turn == 0:
            problems = layout_problems(page, ["#your-turn", "#hand", "#now", "#seat-name"])
            assert problems == [], problems
        # The card goes down on the board: it counts as the dealt number, nothing tapped.
        cell = legal_cell(url, hand)
        put_down(url, cell)
        page.wait_for_selector(f"#board [data-square='{cell}'][data-number='{hand}']")
        record = api(url, "/api/record")[1]
        assert record["actions"][-1] == {"type": "place", "cell": cell, "number": hand}
        played.append(cell)
        # The turn passes: the next phone is nudged (a vibration), this one offers the fix.
        following = phones[(mover + 1) % 3].page
        following.wait_for_selector("#your-turn:not([hidden])")
        assert 200 in following.evaluate("() => window.vibrations || []")
        page.wait_for_selector("#not-my-card:not([hidden])")
        assert page.is_hidden("#your-turn")
    assert len(set(played)) == 6
    # Cleo put down another card than the one dealt: one tap, and the bar says what to swap.
    said = table.view()["table"]["message_code"]
    assert said["code"] == "action" and said["params"]["player"] == 2
    actions = api(url, "/api/record")[1]["actions"]
    cleo.page.click("#not-my-card")
    cleo.page.wait_for_selector("#not-my-card", state="hidden")
    last = actions[-1]
    for page in (cleo.page, panel.page):
        page.wait_for_function("t => document.querySelector('#message').textContent.includes(t)",
                               arg=f"put the {last['number']} on {last['cell']}")
    assert api(url, "/api/record")[1]["actions"] == actions, "the game keeps the dealt card"
    # A phone cannot act for another seat, and is told why.
    status, answer = api(url, "/api/input", {"type": "number", "number": 5},
                         token=table.token(ben))
    assert status == 403 and "turn" in answer["error"]
    status, answer = api(url, "/api/sim/clear", {}, token=table.token(ben))
    assert status == 403 and answer["error"]


def test_sudoku_family_with_a_player_without_a_phone(table: Table) -> None:
    """Two players, the table dealing: Anna plays from her phone, Ben from the shared panel,
    which shows his stone on his turn (hidden again after a tap)."""
    url, panel = table.url, table.panel
    # The start form offers the deal in a game with hidden stones, and says what it means.
    page = panel.page
    page.goto(url + "/")
    page.click("[data-variant='vierer-dominari']")
    assert page.is_hidden("#deal-box"), "nothing is hidden in a DOMINARI game: nothing to deal"
    page.click("[data-variant='sudoku-family']")
    page.click("#player-count [data-players='2']")
    page.fill("#player-names input[data-player='0']", "Anna")
    page.fill("#player-names input[data-player='1']", "Ben")
    assert "sorted by number" in page.text_content("#deal-help")
    page.check("#deal")
    page.click("#start-game")
    page.wait_for_url("**/play")
    assert table.view()["table"]["deal"] is True
    panel.page.wait_for_selector("#phones li[data-seat='1'] [data-action='join']")
    anna = table.join_by_link(0)
    panel.page.wait_for_selector("#phones li[data-seat='0'][data-phone='true'] "
                                 "[data-action='take-back']")
    assert panel.page.is_visible("#phones li[data-seat='1'] [data-action='join']")
    movers = []
    for _ in range(6):
        table.settled(anna)
        shared = table.settled(panel)
        seat = shared["table"]["next"]["actor"]
        movers.append(seat)
        assert "hand" not in shared["table"]
        if seat == 0:
            hand = table.settled(anna)["table"]["hand"]
            assert anna.page.text_content("#hand-number") == str(hand)
            assert anna.page.text_content("#hand-label") == "Your stone"
            assert panel.page.is_hidden("#show-card")
        else:
            # Ben has no phone: the shared panel shows his stone on a tap, then hides it.
            assert anna.page.is_hidden("#hand") and anna.page.is_hidden("#your-turn")
            show = panel.page.locator("#show-card")
            assert show.is_visible() and show.text_content() == "Show my stone"
            status, answer = api(url, "/api/seats/1/hand")
            assert status == 200 and answer["seat"] == 1
            hand = answer["hand"]
            show.click()
            panel.page.wait_for_selector("#card-dialog[open]")
            assert panel.page.text_content("#card-number") == str(hand)
            assert panel.page.text_content("#card-title") == "Ben's stone"
            panel.page.click("#card-dialog")
            panel.page.wait_for_selector("#card-dialog", state="hidden")
            # The stone of a player with a phone is not the shared panel's to show.
            assert api(url, "/api/seats/0/hand")[0] == 403
            # Anna's phone may not play Ben's turn.
            status, answer = api(url, "/api/input", {"type": "number", "number": hand},
                                 token=table.token(anna))
            assert status == 403 and answer["error"]
        cell = legal_cell(url, hand)
        put_down(url, cell)
        panel.page.wait_for_selector(f"#board [data-square='{cell}'][data-number='{hand}']")
        # Right after Ben's placement the shared panel offers his fix, naming him; never
        # Anna's (her phone has it).
        fix = panel.page.locator("#not-my-card")
        if seat == 1:
            fix.wait_for(state="visible")
            assert fix.text_content() == "Ben: that was not my stone"
        else:
            table.settled(panel)
            assert fix.is_hidden()
    assert set(movers) == {0, 1}
    assert len(api(url, "/api/record")[1]["actions"]) == 6
    # Anna's phone is lost: the shared panel takes her seat back, and the phone says so.
    panel.page.click("#phones li[data-seat='0'] [data-action='take-back']")
    asked = [answer_question(panel.page)]
    panel.page.wait_for_selector("#phones li[data-seat='0'][data-phone='false']")
    assert table.view()["table"]["phones"] == []
    assert asked[0].startswith("Anna plays on this panel again; Anna's phone stops playing.")
    anna.page.wait_for_selector("#lost-dialog[open]", timeout=15000)
    assert anna.page.get_attribute("#join-again", "href") == "/join"
    # One message, in sentences, one name for the shared panel; the header names nobody.
    text = anna.page.text_content("#lost-text")
    assert text == ("The seat was handed to another phone, taken back on the shared panel, or a "
                    "new game began. To play on, join again with a new code from the shared "
                    "panel, or use this phone as the shared panel.")
    assert anna.page.is_hidden("#seat-line")
    problems = layout_problems(anna.page, ["#join-again", "#lost-shared"],
                               ignore=("#game", ".topbar"))
    assert problems == [], problems


def dealt(at: Table, anna: Phone) -> int:
    """The mover's dealt card: on Anna's phone (seat 0), else shown by the shared panel."""
    mover = at.view()["table"]["next"]["actor"]
    if mover == 0:
        return int(at.view(anna)["table"]["hand"])
    status, answer = api(at.url, f"/api/seats/{mover}/hand")
    assert status == 200, answer
    return int(answer["hand"])


def test_a_restart_of_the_table_is_told_and_every_page_follows_it(browser: Any,
                                                                  tmp_path: Path) -> None:
    """While the table cannot be reached every page says so (in its language), and after the
    table starts again its pages go on by themselves: the views of the new start count their
    versions anew, and are drawn all the same."""
    from sudoku_table.assembly import open_panel
    from sudoku_table.web.server import PanelServer

    from .helpers import LiveServer

    data = tmp_path / "data"
    panel = open_panel(sim=True, data=data, config_path=None)
    live = LiveServer(panel.app)
    url, port = live.url, live.server.port
    restarted: list[Any] = []
    at = Table(browser, url)
    try:
        status, _ = api(url, "/api/game", {"variant": "classic-sudoku", "players": 3,
                                           "deal": True, "names": ["Anna", "Ben", "Cleo"]})
        assert status == 200
        anna = at.join_by_link(0)
        german = at.open(language="de")  # a shared panel in German
        german.page.goto(url + "/play")
        german.page.wait_for_selector("#phones-jump:not([hidden])")
        # Some play first, so that the table's count of views is well on.
        played: list[str] = []
        for _ in range(3):
            played.append(legal_cell(url, dealt(at, anna)))
            put_down(url, played[-1])
        for on in [True, False] * 10:  # views of no consequence, counted all the same
            assert api(url, "/api/input", {"type": "hints", "on": on})[0] == 200
        before = at.settled(anna)["version"]
        german.page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                                      arg=at.view()["version"])
        live.close()
        panel.close()
        for phone, words in ((anna, "The table cannot be reached: trying again\u2026"),
                             (german, "Der Tisch ist nicht erreichbar: neuer Versuch läuft …")):
            line = phone.page.locator("#now-offline")
            line.wait_for(state="visible", timeout=15000)
            assert line.text_content() == words
            problems = layout_problems(phone.page, ["#now-offline"])
            assert problems == [], problems
        # The table starts again on the same address, with the same game.
        panel = open_panel(sim=True, data=data, config_path=None)
        server = PanelServer(panel.app, "127.0.0.1", port)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        restarted.extend([server, thread])
        for phone in (anna, german):
            phone.page.wait_for_selector("#now-offline", state="hidden", timeout=15000)
            assert phone.page.evaluate("() => !('offline' in document.body.dataset)")
        assert at.view()["version"] < before, "a new start counts its views anew"
        # The simulated board starts empty: its pieces go back where they stood.
        for square in played:
            put_down(url, square)
        hand = dealt(at, anna)
        cell = legal_cell(url, hand)
        put_down(url, cell)
        for phone in (anna, german):
            phone.page.wait_for_selector(f"#board [data-square='{cell}'][data-number='{hand}']")
        assert at.view()["version"] < before, "drawn although its version is lower"
    finally:
        at.close()
        if restarted:
            restarted[0].stop()
            restarted[1].join(timeout=5)
        else:
            live.close()
        panel.close()


def test_a_new_game_ends_an_old_phone_in_german_and_its_header_names_nobody(
        table: Table) -> None:
    url = table.url
    api(url, "/api/game", {"variant": "classic-sudoku", "players": 3, "deal": True,
                           "names": ["Oma Gisela", "Ben", "Cleo"]})
    status, answer = api(url, "/api/seats/0/join", {})
    assert status == 200
    oma = table.phones[0] = table.open(language="de")
    oma.page.goto(f"{url}/join#{answer['token']}")
    oma.page.wait_for_selector("#seat-line:not([hidden])")
    assert oma.page.text_content("#seat-name").strip() == "Handy von Oma Gisela"
    status, _ = api(url, "/api/game", {"variant": "classic-sudoku", "players": 2,
                                       "names": ["Lena", "Max"], "replace": True})
    assert status == 200
    oma.page.wait_for_selector("#lost-dialog[open]", timeout=15000)
    assert oma.page.text_content("#lost-title") == "Dieses Handy spielt seinen Platz nicht mehr"
    text = oma.page.text_content("#lost-text")
    assert text.startswith("Der Platz ging an ein anderes Handy") and text.endswith(".")
    assert "des Tisches" not in text and text.count("gemeinsame") == 3
    assert oma.page.is_hidden("#seat-line")
    assert "Lena" not in oma.page.text_content("body > header, #seat-line")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_seats_phone_is_told_at_once_that_new_games_start_on_the_shared_panel(
        table: Table, language: str) -> None:
    url = table.url
    api(url, "/api/game", {"variant": "classic-sudoku", "players": 2, "names": ["Anna", "Ben"]})
    status, answer = api(url, "/api/seats/1/join", {})
    phone = table.phones[1] = table.open(language=language)
    phone.page.goto(f"{url}/join#{answer['token']}")
    phone.page.wait_for_selector("#seat-line:not([hidden])")
    phone.page.click("nav a[href='/']")
    note = phone.page.locator("#seat-note")
    note.wait_for(state="visible")
    assert phone.page.is_hidden("#setup-form") and phone.page.is_hidden("#games")
    phone.page.wait_for_function("() => document.querySelector('#seat-note-text')"
                                 ".textContent.includes('Ben')")
    words = {"en": ("New games are started on the shared panel",
                    "This phone plays Ben's seat. To use it as the shared panel, leave the "
                    "seat first."),
             "de": ("Neue Spiele startet das gemeinsame Panel",
                    "Dieses Handy spielt den Platz von Ben. Um es als gemeinsames Panel zu "
                    "nutzen, verlass zuerst den Platz.")}[language]
    assert (note.locator("h1").text_content(), phone.page.text_content("#seat-note-text")) == words
    problems = layout_problems(phone.page, ["#seat-note-back", "#seat-note-leave"])
    assert problems == [], problems
    # Leaving the seat makes this phone a shared panel: the form is there.
    phone.page.click("#seat-note-leave")
    answer_question(phone.page)
    phone.page.wait_for_selector("#games [data-variant='classic-sudoku']")
    assert phone.page.is_hidden("#seat-note")
    assert table.view()["table"]["phones"] == []


def test_the_shared_panel_leads_to_the_phones_and_hands_a_seat_on(browser: Any,
                                                                  server: str) -> None:
    at = Table(browser, server)
    try:
        url = at.url
        api(url, "/api/game", {"variant": "classic-sudoku", "players": 4, "deal": True,
                               "names": ["Anna", "Ben", "Cleo", "Dora"]})
        old = at.join_by_link(0)
        desk = at.open(size=(1280, 800))
        page = desk.page
        page.goto(url + "/play")
        page.wait_for_selector("#phones li[data-seat='0'][data-phone='true']")
        # The way to the phones is in view at the top; the list itself starts below the fold.
        jump = page.locator("#phones-jump")
        assert jump.text_content().split() == ["Phones", "1", "of", "4"]
        problems = layout_problems(page, ["#phones-jump", "#now"])
        assert problems == [], problems
        assert not page.evaluate("() => { const r = document.querySelector('#phones-box')"
                                 ".getBoundingClientRect(); return r.bottom <= innerHeight; }")
        jump.click()
        page.wait_for_function("() => { const r = document.querySelector('#phones-box')"
                               ".getBoundingClientRect(); return r.top >= 0 && "
                               "r.bottom <= innerHeight; }")
        # Anna's seat goes to another phone: a new code; the old phone then loses the seat.
        page.click("#phones li[data-seat='0'] [data-action='hand-over']")
        page.wait_for_selector("#join-dialog[open] #join-code:not(:empty)")
        assert page.text_content("#join-title") == "Anna: hand to another phone"
        assert page.is_visible("#join-handing")
        code = page.text_content("#join-code").strip()
        problems = layout_problems(page, ["#join-code", "#join-close"], ignore=("#game", ".topbar"))
        assert problems == [], problems
        del at.phones[0]
        new = at.join_by_code(0, code)
        old.page.wait_for_selector("#lost-dialog[open]", timeout=15000)
        assert new.page.text_content("#seat-name").strip() == "Anna's phone"
        # A refusal of the table reads as a sentence.
        page.click("#join-close")
        page.evaluate("() => Panel.post('/api/seats/7/join').catch(() => {})")
        page.wait_for_selector("#toast:not([hidden])")
        toast = page.text_content("#toast")
        assert toast[0].isupper() and toast.endswith("."), toast
    finally:
        at.close()
