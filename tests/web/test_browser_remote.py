"""Tables connected, in real browsers: two real tables (two ``sudoku-table serve --sim``
processes, each with its own data folder, port and config) meet through a Mosquitto of the
test's own. The host's new-game form marks a seat "at another table", its panel shows that
seat's code, the other table joins by the code typed into "Join a game", and a move made at
one table shows at the other as the step a person there carries out. What a person must see
is measured at a phone's size (in view, not clipped, nothing overlapping)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import Place
from sudoku_table.rules.record import Record, replay
from tests.network.conftest import Mosquitto, _free_port

from .layout import check_layout
from .test_browser import ACCEPT_QUESTIONS, Phone
from .test_browser_phones import api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

UPRIGHT = (390, 844)
SERVE = Path(sys.executable).with_name("sudoku-table")


class TableProcess:
    """One Sudoku Table as a user runs it: ``sudoku-table serve --sim`` with its own data
    folder and config (``broker``: the ``[network]`` broker, empty for none)."""

    def __init__(self, folder: Path, name: str, broker: str) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.config = folder / "table.toml"
        self.config.write_text(f'[network]\nbroker = "{broker}"\nname = "{name}"\n')
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert SERVE.exists(), SERVE
        with (self.folder / "out.log").open("ab") as out:  # the process keeps its own copy
            self.process = subprocess.Popen(
                [str(SERVE), "serve", "--sim", "--port", str(self.port), "--data",
                 str(self.folder / "data"), "--config", str(self.config)],
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (self.folder / "out.log").read_text()
            try:
                with urllib.request.urlopen(self.url + "/api/version", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the table did not start")

    def kill(self) -> None:
        """Gone at once, as when its power is cut (no goodbye to the broker)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def view(self) -> dict[str, Any]:
        status, view = api(self.url, "/api/state")
        assert status == 200, view
        return view


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[tuple[TableProcess, TableProcess]]:
    (tmp_path / "broker").mkdir()
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    anna = TableProcess(tmp_path / "anna", "Anna's table", broker.url)
    ben = TableProcess(tmp_path / "ben", "Ben's table", broker.url)
    try:
        anna.start()
        ben.start()
        yield anna, ben
    finally:
        anna.stop()
        ben.stop()
        broker.stop()


class Panels:
    """The browsers of the test, each a phone of its own, upright."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.phones: list[Phone] = []

    def open(self, url: str, language: str = "en", size: tuple[int, int] = UPRIGHT) -> Phone:
        context = self.browser.new_context(viewport={"width": size[0], "height": size[1]},
                                           is_mobile=True, has_touch=True, locale=language)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        context.add_init_script(script=ACCEPT_QUESTIONS)  # "a game is running: go on?"
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        phone = Phone(page, url)
        self.phones.append(phone)
        return phone

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        errors = [e for phone in self.phones for e in phone.errors]
        assert not errors, errors


@pytest.fixture
def panels(browser: Any) -> Iterator[Panels]:
    opened = Panels(browser)
    yield opened
    opened.close()


def layout(page: Any, in_view: list[str], ignore: tuple[str, ...] = ()) -> list[str]:
    page.wait_for_timeout(150)  # the last view drawn
    return check_layout(page, in_view=in_view, ignore=("#toast", *ignore))


def next_code(page: Any) -> str:
    return str(page.get_attribute("#now", "data-next") or "")


def start_with_a_remote_seat(host: Phone, variant: str) -> None:
    """The host's new-game form: Anna here, seat 2 at another table."""
    page = host.page
    page.goto(host.url + "/")
    page.wait_for_selector("body[data-rendered='true']")
    page.click(f"[data-variant='{variant}']")
    page.fill("input[data-player='0']", "Anna")
    page.select_option("select[data-computer='1']", "remote")
    assert page.is_enabled("input[data-player='1']")  # named here if the host likes
    assert page.is_visible(".seat[data-seat='1'] #remote-help")
    page.click("#start-game")
    page.wait_for_url("**/play")


def join_by_code(guest: Phone, code: str) -> None:
    """The other table's "Join a game": the code typed as a person types it."""
    page = guest.page
    page.goto(guest.url + "/")
    page.wait_for_selector("body[data-rendered='true']")
    page.click("#join-game-open")
    page.wait_for_selector("#join-game-dialog[open]")
    page.fill("#join-game-code", code.lower().replace("-", " "))
    problems = layout(page, ["#join-game-dialog", "#join-game-code", "#join-game-submit"],
                      ignore=("#main > :not(dialog)", ".topbar", ".footer"))
    assert problems == [], problems
    page.click("#join-game-submit")
    page.wait_for_url("**/play")
    page.wait_for_selector("body[data-rendered='true']")


def a_move(table: TableProcess) -> Place:
    """A move the rules allow now at ``table`` (from its record)."""
    status, data = api(table.url, "/api/record")
    assert status == 200, data
    game, states = replay(Record.from_json(data))
    places = [a for a in game.legal_actions(states[-1]) if isinstance(a, Place)]
    assert places, "no piece may go down"
    return places[len(places) // 2]


def put_and_tell(phone: Phone, table: TableProcess) -> Place:
    """A piece put down on this table's simulated board where the rules allow, and its
    number tapped on the pad; that move."""
    move = a_move(table)
    phone.place(move.cell, move.number)
    return move


def test_two_tables_play_one_vierer_game_through_a_broker(
        tables: tuple[TableProcess, TableProcess], panels: Panels) -> None:
    anna_table, ben_table = tables
    host, guest = panels.open(anna_table.url), panels.open(ben_table.url)
    start_with_a_remote_seat(host, "vierer-dominari")
    # The codes' dialog opens by itself while the other table has not joined: the code in
    # view, whole, in groups of four.
    page = host.page
    page.wait_for_selector("#invite-dialog[open] #invite-codes li[data-state='waiting']")
    code = str(page.get_attribute("#invite-codes .invite-code", "data-code"))
    view = anna_table.view()
    assert code == view["table"]["join"]["codes"][0]["code"]
    groups = page.eval_on_selector_all("#invite-codes .invite-code .code-group",
                                       "gs => gs.map(g => g.textContent)")
    assert "-".join(groups) == code and all(len(g) <= 4 for g in groups)
    assert page.text_content("#invite-codes .invite-state") == "Waiting for its table to join."
    problems = layout(page, ["#invite-title", "#invite-codes .invite-code", "#invite-close"],
                      ignore=("#game", ".topbar"))
    assert problems == [], problems
    # Copied as it is, for a message to the other table.
    page.click("#invite-codes [data-action='copy']")
    assert page.evaluate("() => navigator.clipboard.readText()") == code
    # Before the other table is there, its seat waits for it.
    assert "not joined yet" in (page.text_content("#scores tr[data-player='1']") or "")

    join_by_code(guest, code)
    # The host's dialog says the table has joined and closes by itself.
    page.wait_for_selector("#invite-done:not([hidden])")
    assert page.text_content("#invite-done") == "Ben's table has joined: the game can begin."
    page.wait_for_selector("#invite-dialog", state="hidden")
    assert page.text_content("#invite-count") == "1 of 1"
    # Both tables name the seats alike: Anna at Anna's table, seat 2 by Ben's table's name.
    assert (page.text_content("#scores tr[data-player='1'] td") or "").strip() == "Ben's table"
    guest.page.wait_for_selector("#scores tr[data-player='0'] [data-seat-where]")
    assert guest.page.text_content("#scores tr[data-player='0'] [data-seat-where]") == \
        "at Anna's table"
    assert (guest.page.text_content("#scores tr[data-player='1'] td") or "").strip() == \
        "Ben's table"
    # Anna's turn: the other table waits for her move and plays for nobody.
    assert next_code(guest.page) == "remote_waiting"
    assert guest.page.text_content("#now-text") == "Waiting for Anna's move at Anna's table."
    assert guest.page.is_hidden("#pad") and guest.page.is_hidden("#hint")

    # Anna plays on her board; at Ben's table a person carries her move out.
    move = put_and_tell(host, anna_table)
    guest.page.wait_for_function("() => document.querySelector('#now').dataset.next === "
                                 "'remote_place'")
    assert guest.page.text_content("#now-text") == \
        f"From Anna's table: put the {move.number} on {move.cell}."
    assert guest.page.get_attribute(f"#board [data-square='{move.cell}']",
                                    "data-signal") == "computer"
    assert guest.page.text_content("#now-who").strip() == "Anna"
    problems = layout(guest.page, ["#now-text", "#now-who"])
    assert problems == [], problems
    page.wait_for_function("() => document.querySelector('#now').dataset.next === "
                           "'remote_waiting'")
    assert page.text_content("#now-text") == "Waiting for the move from Ben's table."
    guest.square(move.cell)
    guest.page.wait_for_function("() => document.querySelector('#now').dataset.next === 'place'")
    # Ben's move, on his board; at Anna's table it is carried out the same way.
    move = put_and_tell(guest, ben_table)
    page.wait_for_function("() => document.querySelector('#now').dataset.next === "
                           "'remote_place'")
    assert page.text_content("#now-text") == \
        f"From Ben's table: put the {move.number} on {move.cell}."
    host.square(move.cell)
    page.wait_for_function("() => document.querySelector('#now').dataset.next === 'place'")
    assert anna_table.view()["game"] == ben_table.view()["game"]

    # Anna moves again, then Ben's table is gone at once (its power cut): Anna's bar says
    # whom it waits for, since when, and that nobody here plays for that seat.
    put_and_tell(host, anna_table)
    page.wait_for_function("() => document.querySelector('#now').dataset.next === "
                           "'remote_waiting'")
    ben_table.kill()
    page.wait_for_selector("#now-away:not([hidden])", timeout=30000)
    text = page.text_content("#now-text") or ""
    assert text.startswith("Waiting for Ben's table (offline ") and text.endswith(" s).")
    assert page.text_content("#now-away") == \
        "Nobody here can move for Ben's table meanwhile; nothing is lost."
    assert "offline" in (page.text_content("#scores tr[data-player='1']") or "")
    assert page.is_hidden("#pad") and page.is_hidden("#hint")
    page.wait_for_timeout(150)
    problems = check_layout(page, in_view=["#now-text", "#now-away"], share={"#now": 1 / 3})
    assert problems == [], problems
    # It counts on by itself.
    before = page.text_content("#now-text")
    page.wait_for_function("t => document.querySelector('#now-text').textContent !== t",
                           arg=before, timeout=12000)


def test_a_mistyped_code_is_told_and_changes_nothing_in_german(
        tables: tuple[TableProcess, TableProcess], panels: Panels) -> None:
    anna_table, ben_table = tables
    status, view = api(anna_table.url, "/api/game", {"variant": "classic-sudoku", "players": 2,
                                                     "names": ["Anna", ""], "remote": [1]})
    assert status == 200, view
    code = view["table"]["join"]["codes"][0]["code"]
    wrong = ("0" if code[5] != "0" else "1").join([code[:5], code[6:]])  # one character off
    guest = panels.open(ben_table.url, language="de")
    page = guest.page
    page.goto(ben_table.url + "/")
    page.wait_for_selector("body[data-rendered='true']")
    assert page.text_content("#join-game-open") == "Einem Spiel beitreten"
    # Beside it, watching a game at other tables (the club page, with its watch-code form).
    assert page.text_content("#watch-game-link") == "Einem Spiel zuschauen"
    assert page.get_attribute("#watch-game-link", "href") == "/club"
    assert layout(page, ["#join-game-open", "#watch-game-link"]) == []
    page.click("#join-game-open")
    page.click("#join-game-submit")  # nothing typed yet
    page.wait_for_selector("#join-game-dialog #toast:not([hidden])")
    assert page.text_content("#toast") == \
        "Tippe den Code ein, den der andere Tisch zeigt, oder füge ihn ein."
    page.fill("#join-game-code", wrong)
    page.click("#join-game-submit")
    page.wait_for_function("() => document.querySelector('#toast').textContent.startsWith("
                           "'Das ist kein Beitrittscode')")
    assert page.text_content("#toast") == \
        "Das ist kein Beitrittscode: der Code ist vertippt (seine Prüfzeichen passen nicht)."
    # Said over the dialog, in view; the dialog stays for another try.
    page.wait_for_timeout(150)
    problems = check_layout(page, in_view=["#join-game-dialog #toast", "#join-game-code"],
                            ignore=("#main > :not(dialog)", ".topbar", ".footer"))
    assert problems == [], problems
    assert page.is_visible("#join-game-dialog") and page.is_enabled("#join-game-submit")
    assert ben_table.view()["game"] is None


def test_the_form_offers_another_table_only_with_a_broker(server: str, browser: Any) -> None:
    """A table with no broker in its config: no "at another table", no "Join a game"."""
    context = browser.new_context(viewport={"width": UPRIGHT[0], "height": UPRIGHT[1]})
    try:
        page = context.new_page()
        page.goto(server + "/")
        page.wait_for_selector("body[data-rendered='true']")
        assert page.is_hidden("#join-game-line")
        page.click("[data-variant='classic-sudoku']")
        values = page.eval_on_selector_all("select[data-computer='1'] option",
                                           "os => os.map(o => o.value)")
        assert "remote" not in values and values[0] == ""
    finally:
        context.close()


def test_the_form_sends_the_remote_seats_and_no_deal(
        tables: tuple[TableProcess, TableProcess], panels: Panels) -> None:
    anna_table, _ = tables
    host = panels.open(anna_table.url, language="de")
    page = host.page
    page.goto(anna_table.url + "/")
    page.wait_for_selector("body[data-rendered='true']")
    page.click("[data-variant='classic-sudoku']")
    page.click("#player-count [data-players='3']")
    assert page.is_visible("#deal-box")  # the table may deal while everybody is here
    page.select_option("select[data-computer='2']", "remote")
    page.select_option("select[data-computer='1']", "normal")
    assert page.is_hidden("#deal-box"), "the table deals only to its own seats"
    assert page.input_value("select[data-computer='2']") == "remote"
    assert page.get_attribute("input[data-player='2']", "placeholder") == "Spieler 3"
    page.fill("input[data-player='2']", "Clara")  # the player at the other table, named here
    # The line under the seat says what comes next.
    assert page.is_visible(".seat[data-seat='2'] #remote-help")
    page.locator("#remote-help").scroll_into_view_if_needed()
    problems = layout(page, ["#remote-help", "select[data-computer='2']"])
    assert problems == [], problems
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.url.endswith("/api/game") and r.method == "POST" else None)
    page.click("#start-game")
    page.wait_for_url("**/play")
    assert sent and sent[0]["remote"] == [2] and sent[0]["computers"] == {"1": "normal"}
    assert sent[0]["names"][2] == "Clara" and "deal" not in sent[0]
    status, record = api(anna_table.url, "/api/record")
    assert status == 200 and record["names"][2] == "Clara"
    view = anna_table.view()
    assert [s["kind"] for s in view["table"]["seats"]] == ["here", "computer", "remote"]
    # Remembered on this phone for the next game.
    page.goto(anna_table.url + "/")
    page.wait_for_selector("body[data-rendered='true']")
    page.click("[data-variant='classic-sudoku']")
    assert page.input_value("select[data-computer='2']") == "remote"


def joined_by_the_api(host: TableProcess, guest: TableProcess) -> None:
    """A Vierer-Dominari of Anna at ``host`` and a seat at ``guest``, which has joined."""
    status, view = api(host.url, "/api/game", {"variant": "vierer-dominari", "players": 2,
                                               "names": ["Anna", ""], "remote": [1]})
    assert status == 200, view
    status, view = api(guest.url, "/api/join",
                       {"code": view["table"]["join"]["codes"][0]["code"]})
    assert status == 200, view


def test_a_table_whose_host_left_hosts_the_game_itself(
        tables: tuple[TableProcess, TableProcess], panels: Panels) -> None:
    """The host starts another game: the other table keeps the first one, offers to host it
    itself, and once it does, shows the code for the seat of the table that left."""
    anna_table, ben_table = tables
    joined_by_the_api(anna_table, ben_table)
    guest = panels.open(ben_table.url)
    page = guest.page
    page.goto(ben_table.url + "/play")
    page.wait_for_selector("body[data-rendered='true']")
    assert page.is_hidden("#take-over"), "the host is there"
    status, _ = api(anna_table.url, "/api/game", {"variant": "classic-sudoku", "players": 2,
                                                  "replace": True})
    assert status == 200
    page.wait_for_selector("#take-over:not([hidden])")
    assert page.text_content("#message") == \
        "Anna's table left the game to start another: this table keeps it as it stands"
    problems = layout(page, ["#take-over", "#message"])
    assert problems == [], problems
    page.click("#take-over")  # asked first; the test's browser says yes
    page.wait_for_selector("#invite-dialog[open] #invite-codes li[data-seat='0']")
    assert page.text_content("#invite-codes li[data-seat='0'] strong") == "Anna"
    assert ben_table.view()["table"]["network"]["role"] == "host"
    assert page.is_hidden("#take-over")


def test_a_table_whose_host_is_away_says_when_it_can_go_on_alone(
        tables: tuple[TableProcess, TableProcess], panels: Panels) -> None:
    """The host's table loses its power: the other table says whom it waits for, and that it
    can go on with the game itself if that table does not come back, counting down to when."""
    anna_table, ben_table = tables
    joined_by_the_api(anna_table, ben_table)
    guest = panels.open(ben_table.url, language="de")
    page = guest.page
    page.goto(ben_table.url + "/play")
    page.wait_for_selector("body[data-rendered='true']")
    assert page.is_hidden("#now-away")
    anna_table.kill()
    page.wait_for_function("() => (document.querySelector('#now-away').textContent || '')"
                           ".includes('kann dieser Tisch das Spiel in')", timeout=30000)
    words = page.text_content("#now-away") or ""
    assert "Falls Anna's table nicht zurückkommt, kann dieser Tisch das Spiel in " in words
    assert page.is_hidden("#take-over"), "not before the host has been away 30 s"
    problems = check_layout(page, in_view=["#now-text", "#now-away"])
    assert problems == [], problems
