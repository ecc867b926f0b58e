"""Real browser tests: Chromium in a phone-sized window plays every family of games through the
panel on the simulated table, and what the player sees must match GET /api/state.

Each game runs on a fresh composition (config, simulated hardware, table with a journal, panel)
under a real waitress server, exactly as ``sudoku-table serve --sim`` builds it.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.drawing import drawing
from sudoku_table.rules.duell.game import DEFAULT_GOLD
from sudoku_table.rules.game import all_variants
from sudoku_table.rules.geometry import Geometry
from tests.rules.duell_positions import BOOK_RECORD

PHONE = {"width": 390, "height": 844}
EXAMPLES = Path(__file__).parent.parent / "data" / "examples"

pytestmark = [pytest.mark.browser]
# No silent skip: without Debian's chromium these tests fail and say what to install
# (make test installs it where it can).


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


ACCEPT_QUESTIONS = """
document.addEventListener('DOMContentLoaded', () => {
  const dialog = document.getElementById('ask-dialog');
  if (!dialog) return;
  new MutationObserver(() => { if (dialog.open) document.getElementById('ask-yes').click(); })
    .observe(dialog, {attributes: true, attributeFilter: ['open']});
});"""
"""An init script for a page whose every question is answered with the choice that does it (a
test about something else, where a family would say yes)."""


def answer_question(page: Any, yes: bool = True) -> str:
    """Answer the panel's question (its own dialog) with the choice that does it (``yes``) or
    the one that keeps things as they are; the question's text."""
    page.wait_for_selector("#ask-dialog[open]")
    question: str = page.inner_text("#ask-text")
    page.click("#ask-yes" if yes else "#ask-no")
    page.wait_for_selector("#ask-dialog:not([open])", state="attached")
    return question


class Phone:
    """One phone's page, with the few gestures a player makes and a check against the API."""

    def __init__(self, page: Any, url: str, language: str = "en") -> None:
        self.page = page
        self.url = url
        self.language = language  # the page's, so that the API words its answers alike
        self.errors: list[str] = []
        self.asked: list[str] = []  # the questions answered while starting games
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def api(self, path: str) -> Any:
        request = urllib.request.Request(self.url + path,
                                         headers={"Accept-Language": self.language})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def play_by_api(self, actions: list[dict[str, Any]]) -> None:
        """Play actions as another phone would, to reach the middle of a game quickly."""
        for action in actions:
            kind = action["type"]
            if kind in ("place", "joker", "blank"):
                self.post("/api/sim/square", {"square": action["cell"], "occupied": True})
            if kind == "place":
                self.post("/api/input", {"type": "number", "square": action["cell"],
                                         "number": action["number"]})
            elif kind == "joker":
                self.post("/api/input", {"type": "joker", "square": action["cell"],
                                         "number": action["number"]})
            elif kind in ("discard", "end_turn"):
                self.post("/api/input", action)

    def start(self, variant: str, players: int | None = None,
              setup: dict[str, dict[str, Any]] | None = None,
              options: dict[str, Any] | None = None) -> None:
        page = self.page
        page.goto(self.url + "/")
        page.click(f"[data-variant='{variant}']")
        if players is not None:
            page.click(f"#player-count [data-players='{players}']")
        for key, value in (options or {}).items():
            page.select_option(f"[data-option='{key}']", json.dumps(value))
        if setup is not None:
            page.wait_for_selector("#setup-pieces .setup-piece")
            rows = page.query_selector_all("#setup-pieces .setup-piece")
            assert len(rows) == len(setup)
            for row, (cell, piece) in zip(rows, sorted(setup.items()), strict=True):
                cell_input = row.query_selector("input")
                if cell_input.get_attribute("readonly") is None:
                    cell_input.fill(cell)
                else:
                    cell = cell_input.input_value()
                    piece = setup[cell]
                row.query_selector("select").select_option(str(piece["number"]))
        page.click("#start-game")
        # A game still running is replaced only when the question is answered yes.
        page.wait_for_function("() => location.pathname.endsWith('/play') || "
                               "document.querySelector('#ask-dialog[open]')")
        if page.evaluate("!!document.querySelector('#ask-dialog[open]')"):
            self.asked.append(answer_question(page))
        page.wait_for_url("**/play")
        page.wait_for_selector("#board [data-square]")

    def square(self, square: str) -> None:
        """Tap a square of the simulated board: put a piece down, or lift it."""
        page = self.page
        before = page.get_attribute(f"#board [data-square='{square}']", "data-occupied")
        after = "false" if before == "true" else "true"
        page.click(f"#board [data-square='{square}']")
        # at rest: confirmed, no longer only felt
        page.wait_for_selector(f"#board [data-square='{square}'][data-occupied='{after}']"
                               ":not([data-felt])")

    def number(self, number: int) -> None:
        self.page.click(f"#pad button[data-number='{number}']:not([disabled])")

    def enabled_numbers(self) -> list[int]:
        """The numbers the pad offers now (its enabled buttons)."""
        return [int(n) for n in self.page.eval_on_selector_all(
            "#pad button:not([disabled])", "bs => bs.map(b => b.dataset.number)")]

    def place(self, square: str, number: int) -> None:
        self.square(square)
        self.page.wait_for_selector("#pad[data-mode='answer']")
        self.number(number)
        self.page.wait_for_selector(f"#board [data-square='{square}'][data-number='{number}']")

    def drawn(self) -> dict[str, Any]:
        return self.page.evaluate("""() => {
            const squares = {};
            for (const g of document.querySelectorAll('#board [data-square]')) {
              squares[g.dataset.square] = {number: g.dataset.number, owner: g.dataset.owner,
                blank: g.dataset.blank, signal: g.dataset.signal, occupied: g.dataset.occupied};
            }
            const lights = {};
            for (const ring of document.querySelectorAll('#board .signal-ring')) {
              lights[ring.dataset.signal] = [ring.getAttribute('stroke'),
                [...ring.classList].find(c => c.startsWith('pattern-'))];
            }
            const scores = [...document.querySelectorAll('#scores tr')].map(
              (tr) => Number(tr.querySelector('.points').textContent));
            const names = [...document.querySelectorAll('#scores tbody tr')].map(
              (tr) => [...tr.cells[0].childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
                .map((n) => n.textContent).join('').trim());
            const now = document.getElementById('now').getBoundingClientRect();
            const shown = (el) => el && !el.hidden && el.getBoundingClientRect().height > 0;
            const controls = [...document.querySelectorAll(
                '#now button, #now .pad button')].filter(shown).map((b) => {
              const r = b.getBoundingClientRect();
              return [b.id || b.dataset.number || b.textContent, r.top, r.bottom, r.left, r.right];
            });
            return {squares, scores, names, lights, version: document.body.dataset.version,
                    turn: document.getElementById('now-who').textContent,
                    toMove: document.getElementById('now-who').dataset.actor,
                    next: document.getElementById('now-text').textContent,
                    message: document.getElementById('message').textContent,
                    bar: [now.top, now.bottom, now.left, now.right], controls,
                    viewport: [window.innerWidth, window.innerHeight]};
        }""")

    def check(self) -> dict[str, Any]:
        """What the phone shows equals the table's view: pieces, signals, scores, turn."""
        for _ in range(5):
            view = self.api("/api/state")
            version = str(view["version"])
            self.page.wait_for_function(
                "v => Number(document.body.dataset.version) >= Number(v)", arg=version)
            shown = self.drawn()
            if shown["version"] == version:
                break
        else:
            raise AssertionError("the page never settled on the table's view")
        game, table = view["game"], view["table"]
        for square, seen in shown["squares"].items():
            piece = game["cells"].get(square)
            if piece is None:
                assert seen["number"] is None and seen["owner"] is None, square
            elif piece.get("blank"):
                assert seen["blank"] == "true", square
            else:
                assert seen["number"] == str(piece["number"]), square
                # A flipped piece is drawn as it still stands until it has been turned over.
                owner = table["unturned"].get(square, piece["owner"])
                assert seen["owner"] == ("none" if owner is None else str(owner)), square
            assert seen["signal"] == table["signals"].get(square), square
            assert (seen["occupied"] == "true") == (square in table["occupied"]), square
        # Every signal is drawn in the colour and pattern its LED shows.
        legend = table["legend"]
        for word in set(table["signals"].values()):
            color, pattern = shown["lights"][word]
            assert color.lower() == legend[word]["color"].lower(), word
            assert pattern == f"pattern-{legend[word]['pattern']}", word
        assert shown["scores"] == game["scores"]
        # The players as the page names them in its language (the view's default names are
        # English: "White" is drawn "Weiß" on a German page).
        names = shown["names"]
        if self.language == "en":
            assert names == view["player_names"]
        if game["over"]:
            winners = game["winners"]
            if not winners:
                assert "draw" in shown["turn"]
            for w in winners:
                assert names[w] in shown["turn"]
        elif table["next"]["actor"] is not None:
            # Who acts now: the mover until the flips are turned, then the next player.
            actor = table["next"]["actor"]
            assert shown["toMove"] == str(actor)
            assert names[actor] in shown["turn"]
        assert shown["next"], "the what-now bar says what to do next"
        code = table["message_code"]
        if code and code["code"] == "action":  # said with the player's name and the points
            assert names[code["params"]["player"]] in shown["message"]
        elif self.language == "en":  # said as a sentence: its first letter upper case
            expected = table["message"] or ""  # (the view words it in English)
            assert shown["message"] == expected[:1].upper() + expected[1:]
        self.assert_bar_in_view(shown)
        return view

    @staticmethod
    def assert_bar_in_view(shown: dict[str, Any]) -> None:
        """The what-now bar and every control in it are inside the viewport, unscrolled."""
        width, height = shown["viewport"]
        top, bottom, left, right = shown["bar"]
        assert 0 <= top and bottom <= height + 0.5 and 0 <= left and right <= width + 0.5, (
            "the what-now bar is out of view", shown["bar"], shown["viewport"])
        for name, ctop, cbottom, cleft, cright in shown["controls"]:
            assert 0 <= ctop and cbottom <= height + 0.5 and 0 <= cleft and cright <= width + 0.5, (
                f"control {name} is out of view", shown["viewport"])

    def set_up(self) -> None:
        """Put every start piece where the table asks for it (cyan squares)."""
        while True:
            view = self.api("/api/state")
            prompt = view["table"]["prompt"]
            if not prompt or prompt["kind"] != "setup":
                return
            self.square(prompt["square"])


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Phone]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(5000)
    p = Phone(page, server)
    yield p
    context.close()
    assert not p.errors, p.errors


def play_record(phone: Phone, actions: list[dict[str, Any]], check_every: int = 4) -> None:
    """Play a record's placement actions through taps on the board and the number pad."""
    page = phone.page
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "place":
            phone.place(action["cell"], action["number"])
        elif kind == "blank":
            phone.square(action["cell"])
            page.wait_for_selector(f"#board [data-square='{action['cell']}'][data-blank='true']")
            if "owner" in action:
                page.click(f"#prompt-extra [data-blank-owner='{action['owner']}']")
                page.wait_for_selector(
                    f"#board [data-square='{action['cell']}'][data-owner='{action['owner']}']")
        elif kind == "end_turn":
            page.click("#end-turn")
            page.wait_for_selector("#end-turn", state="hidden")
        elif kind == "discard":
            page.click("#discard")
            page.wait_for_selector("#pad[data-mode='discard']")
            offered = phone.enabled_numbers()
            assert offered == phone.api("/api/state")["table"]["discard_choices"]
            assert action["number"] in offered
            phone.number(action["number"])
            page.wait_for_selector("#pad[data-mode='pre-choice'], #pad[hidden]", state="attached")
        elif kind == "joker":
            phone.square(action["cell"])
            page.click("#joker")
            page.wait_for_selector("#pad[data-mode='joker']")
            offered = phone.enabled_numbers()
            assert offered == phone.api("/api/state")["table"]["joker_choices"]
            assert action["number"] in offered
            phone.number(action["number"])
            page.wait_for_selector(f"#board [data-square='{action['cell']}'][data-blank='true']")
        else:
            raise AssertionError(f"cannot play {kind} by taps")
        if index % check_every == check_every - 1:
            phone.check()


def test_vierer_dominari_played_to_its_end(phone: Phone) -> None:
    record = example("vierer-dominari-7-12")
    phone.start("vierer-dominari")
    phone.check()
    play_record(phone, record["record"]["actions"])
    view = phone.check()
    assert view["game"]["over"] and view["game"]["winners"] == record["state"]["winners"]
    assert "Black wins" in phone.page.text_content("#now-who")
    assert phone.page.is_hidden("#pad")
    assert view["game"]["cells"] == record["state"]["cells"]
    page = phone.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#undo").bounding_box()["height"] >= 44

    # The table's page: the live sensor matrix and the finished game's record.
    page.goto(phone.url + "/table")
    page.wait_for_selector("#finished [data-game]")
    lit = page.eval_on_selector_all("#matrix .on", "cells => cells.map(c => c.dataset.square)")
    assert sorted(lit) == sorted(view["table"]["occupied"])
    with page.expect_download() as download:
        page.click("#finished [data-game] a")
    saved = json.loads(Path(download.value.path()).read_text())
    assert saved["actions"] == record["record"]["actions"]


def test_an_illegal_placement_is_explained_and_put_right(phone: Phone) -> None:
    page = phone.page
    phone.start("vierer-dominari")
    phone.place("c3", 3)
    phone.place("d3", 1)
    # Before a piece goes down the pad offers the numbers that fit somewhere: 3 still does (d2).
    assert phone.enabled_numbers() == phone.api("/api/state")["table"]["pad"]["numbers"]
    phone.number(3)  # chosen before the piece goes down
    page.wait_for_selector("#pad button[data-number='3'][aria-pressed='true']")
    phone.square("d4")
    page.wait_for_selector("#board [data-square='d4'][data-signal='illegal']")
    view = phone.check()
    assert view["table"]["signals"] == {"d4": "illegal", "c3": "conflict", "d3": "last"}
    message = page.locator("#message")
    assert "3 is already in" in message.text_content()
    assert "info" not in (message.get_attribute("class") or "")
    phone.square("d4")  # take the illegal piece away
    page.wait_for_selector("#board [data-square='d4']:not([data-signal])")
    # Black's 1 is taken back only after the question (it is White's turn): the page asks.
    page.click("#undo")
    asked = [answer_question(page)]
    page.wait_for_selector("#board [data-square='d3'][data-signal='extra']")
    assert asked and "Black" in asked[0] and "1 on d3" in asked[0]
    view = phone.check()
    assert view["game"]["cells"] == {"c3": {"owner": 0, "number": 3}}
    assert page.is_visible("#redo")


def test_a_tapped_piece_shows_at_once_and_counts_at_rest(phone: Phone) -> None:
    """The page draws a tapped piece as felt (a white ring) as soon as the sensor feels it,
    as the square's LED does, and the game answers once it is confirmed at rest."""
    page = phone.page
    phone.start("vierer-dominari")
    page.evaluate("""() => {
        window.__felt = [];
        const g = document.querySelector("#board [data-square='c3']");
        new MutationObserver(() => window.__felt.push([g.dataset.felt || '',
                                                       g.dataset.occupied, g.dataset.signal || '']))
          .observe(g, { attributes: true });
    }""")
    page.click("#board [data-square='c3']")
    page.wait_for_selector("#board [data-square='c3'][data-signal='number']:not([data-felt])")
    seen = page.evaluate("window.__felt")
    felt = [s for s in seen if s[0] == "true"]
    assert felt and felt[0][1] == "true" and felt[0][2] == "", \
        f"the piece was not drawn felt before the game answered: {seen}"
    assert page.locator("#board .felt-ring").count() == 0


def test_revers_dominari_flips_and_blanks(phone: Phone) -> None:
    record = example("revers-dominari-7-17")
    phone.start("revers-dominari", setup=record["record"]["setup"])
    phone.set_up()
    phone.check()
    actions = record["record"]["actions"]
    blank = next(i for i, a in enumerate(actions) if a["type"] == "blank")
    for action in actions[:blank + 1]:
        flips = [s for s, word in phone.api("/api/state")["table"]["signals"].items()
                 if word == "flip"]
        for square in flips:  # turning a piece over: lift it and set it down again
            phone.page.wait_for_selector(f"#board [data-square='{square}'][data-signal='flip']")
            phone.square(square)
            phone.square(square)
        play_record(phone, [action], check_every=1)
    # A blank may show either colour in Revers: its setter is asked, beside the next step.
    view = phone.check()
    choice = view["table"]["blank_choice"]
    mover = view["game"]["cells"][actions[blank]["cell"]]["owner"]
    assert choice["player"] == mover and choice["owner"] == mover
    other = 1 - mover
    # Only the colour it does not count as yet is offered: each tap changes it.
    assert phone.page.locator(f"#prompt-extra [data-blank-owner='{mover}']").count() == 0
    phone.page.click(f"#prompt-extra [data-blank-owner='{other}']")
    phone.page.wait_for_selector(
        f"#board [data-square='{actions[blank]['cell']}'][data-owner='{other}']")
    phone.page.click(f"#prompt-extra [data-blank-owner='{mover}']")
    phone.page.wait_for_selector(
        f"#board [data-square='{actions[blank]['cell']}'][data-owner='{mover}']")
    view = phone.check()
    played = phone.api("/api/record")["actions"]
    assert played[:blank] == actions[:blank]
    assert played[blank] == {**actions[blank], "owner": mover}


def test_halma_dominari_moves_by_taps(phone: Phone) -> None:
    record = example("halma-dominari-7-33")
    phone.start("halma-dominari", setup=record["record"]["setup"])
    phone.set_up()
    view = phone.check()
    assert phone.page.is_hidden("#pad")
    for action in record["record"]["actions"][:6]:
        path = action["path"]
        phone.square(path[0])
        for step in path[1:]:
            phone.square(step)
            if step != path[-1]:
                phone.square(step)
        phone.page.wait_for_selector(f"#board [data-square='{path[-1]}'][data-owner]")
        phone.page.wait_for_function(
            "s => !document.querySelector(`#board [data-square='${s}']`).dataset.owner",
            arg=path[0])
        view = phone.check()
    played = record["record"]["actions"][:6]
    assert phone.api("/api/record")["actions"] == played
    assert view["game"]["to_move"] == 0


def test_kosmos_classic_sudoku_with_three_players(phone: Phone) -> None:
    record = example("classic-sudoku-7-66")
    actions = record["record"]["actions"]
    phone.start("classic-sudoku", players=3)
    view = phone.check()
    assert view["game"]["players"] == 3
    play_record(phone, actions[:6], check_every=3)
    discard = next(i for i, a in enumerate(actions) if a["type"] == "discard")
    phone.play_by_api(actions[6:discard])
    phone.check()
    play_record(phone, [actions[discard]], check_every=1)  # "Set card aside" and the pad
    assert phone.api("/api/state")["game"]["discarded"] == 1
    phone.play_by_api(actions[discard + 1:])
    view = phone.check()
    assert view["game"]["over"] and view["game"]["winners"] == record["state"]["winners"]
    assert view["game"]["scores"] == record["state"]["scores"]


def test_duell_der_meister_with_gold_cards_entered(phone: Phone) -> None:
    record = example("duell-der-meister-7-62")
    actions = record["record"]["actions"]
    phone.start("duell-der-meister", setup=record["record"]["setup"])
    phone.set_up()
    view = phone.check()
    gold = {c: p for c, p in view["game"]["cells"].items() if p["owner"] is None}
    assert gold == record["record"]["setup"]
    play_record(phone, actions[:6], check_every=3)
    discard = next(i for i, a in enumerate(actions) if a["type"] == "discard")
    phone.play_by_api(actions[6:discard])
    play_record(phone, [actions[discard]], check_every=1)
    phone.play_by_api(actions[discard + 1:])
    view = phone.check()
    assert view["game"]["over"] and view["game"]["winners"] == record["state"]["winners"]
    assert "Markers" in phone.page.text_content("#extras")


def play_the_books_duell_example(phone: Phone) -> str:
    """The rule book's Duell example up to the blue 9, laid by taps; the message it brings, which
    must be wholly in view, on one phone width, and not cut off."""
    actions = BOOK_RECORD["actions"]
    phone.start("duell-der-meister",
                setup={c: {"owner": None, "number": n} for c, n in DEFAULT_GOLD.items()})
    phone.set_up()
    phone.play_by_api(actions[:-1])
    play_record(phone, actions[-1:], check_every=2)  # no check: it reads English names
    phone.page.wait_for_selector("#message:has-text('a8')")
    view = phone.api("/api/state")
    assert view["game"]["markers"] == {"file a": 0, "block a7": 0}
    box = phone.page.evaluate("""() => {
        const m = document.getElementById('message');
        const r = m.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                clipped: m.scrollWidth > m.clientWidth + 1 || m.scrollHeight > m.clientHeight + 1,
                width: window.innerWidth, height: window.innerHeight};
    }""")
    assert 0 <= box["left"] and box["right"] <= box["width"] + 0.5, box
    assert 0 <= box["top"] and box["bottom"] <= box["height"] + 0.5, box
    assert not box["clipped"], box
    return phone.page.text_content("#message")


def test_duell_a_claim_is_announced_with_the_card_that_decides_it(phone: Phone) -> None:
    said = play_the_books_duell_example(phone)
    phone.check()
    assert said == "Player 1: 9 on a8 \u2014 Player 1 +2 (file a; decided early: block a7)"
    # File a, which the card completed, is lit: the rings on its squares run over the corners
    # where the ranks are printed, and the ranks stay on top (the bar names squares by them).
    covered = phone.page.evaluate(COORDS_UNDER_RINGS)
    assert phone.page.locator("#board .signal-ring[data-signal='last']").count() >= 9
    assert covered == [], covered


COORDS_UNDER_RINGS = """() => {
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
                            && b.top < a.bottom;
    const rings = [...document.querySelectorAll('#board .signal-ring')];
    return [...document.querySelectorAll('#board .coord')].flatMap((label) => {
        const box = label.getBoundingClientRect();
        return rings.filter((ring) => meets(box, ring.getBoundingClientRect())
            && (label.compareDocumentPosition(ring) & Node.DOCUMENT_POSITION_FOLLOWING))
          .map((ring) => `${label.textContent} under ${ring.dataset.signal}`);
    });
}"""


def test_sudoku_family_with_a_joker(phone: Phone) -> None:
    record = example("sudoku-family-7-34")
    actions = record["record"]["actions"]
    phone.start("sudoku-family")
    assert phone.page.locator("#board circle.cell").count() == 36
    play_record(phone, actions[:6], check_every=3)
    joker = next(i for i, a in enumerate(actions) if a["type"] == "joker")
    phone.play_by_api(actions[6:joker])
    play_record(phone, [actions[joker]], check_every=1)  # the Joker button and the pad
    phone.play_by_api(actions[joker + 1:])
    view = phone.check()
    assert view["game"]["over"] and view["game"]["winners"] == record["state"]["winners"]


def test_every_board_is_drawn_in_its_shape(phone: Phone) -> None:
    """Every registered board: one tappable shape per cell, no broken coordinates, on screen."""
    page = phone.page
    page.goto(phone.url + "/play")
    page.wait_for_function("typeof Board !== 'undefined'")
    for cls in all_variants():
        geometry = phone.api(f"/api/variants/{cls.id}")
        drawn = page.evaluate("""(geometry) => {
            const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
            svg.setAttribute('width', '390');
            document.body.append(svg);
            Board.build(svg, geometry, {legend: {}, onSquare: () => {}});
            const squares = [...svg.querySelectorAll('[data-square]')].map(g => g.dataset.square);
            const shapes = [...svg.querySelectorAll('.cell')].map(
                c => c.getAttribute('points') || c.getAttribute('cx'));
            const box = svg.getAttribute('viewBox');
            svg.remove();
            return {squares, shapes, box};
        }""", geometry)
        assert sorted(drawn["squares"]) == sorted(geometry["cells"]), cls.id
        assert all(s and "NaN" not in s for s in drawn["shapes"]), cls.id
        assert "NaN" not in drawn["box"] and "Infinity" not in drawn["box"], cls.id


def served(geometry: Geometry) -> dict[str, Any]:
    """A geometry as ``GET /api/variants/ID`` serves it, with its drawing."""
    return json.loads(json.dumps({**geometry.to_json(), "drawing": drawing(geometry).to_json()}))


def test_kakuro_clues_and_family_dots_are_printed(phone: Phone) -> None:
    """Clue sums sit on the square before their run (across top right, down bottom left), the
    sensor grid is named around them, and SUDOKU FAMILY's black dots are marked."""
    page = phone.page
    page.goto(phone.url + "/play")
    page.wait_for_function("typeof Board !== 'undefined'")
    sums: Any = {"line 1": {"sum": 3}, "line 2": 4, "line 3": {"sum": 5}, "line 4": 7}
    geometry = served(Geometry(
        id="kakuro-example", cells=("b1", "c1", "b2", "c2"),
        houses={"line 1": ("b2", "c2"), "line 2": ("b1", "c1"), "line 3": ("b2", "b1"),
                "line 4": ("c2", "c1")}, clues=sums))
    drawn = page.evaluate("""(geometry) => {
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        document.body.append(svg);
        Board.build(svg, geometry, {legend: {}});
        const clues = {};
        for (const g of svg.querySelectorAll('.clue')) {
          clues[g.dataset.at] = [g.dataset.across, g.dataset.down,
                                 [...g.querySelectorAll('text')].map(t => t.textContent)];
        }
        const coords = [...svg.querySelectorAll('.coord')].map(t => t.textContent);
        const box = svg.getAttribute('viewBox').split(' ').map(Number);
        svg.remove();
        return {clues, coords, box};
    }""", geometry)
    assert drawn["clues"] == {"a2": ["3", "", ["3"]], "a1": ["4", "", ["4"]],
                              "b3": ["", "5", ["5"]], "c3": ["", "7", ["7"]]}
    assert sorted(drawn["coords"]) == ["1", "2", "3", "a", "b", "c"]
    x, y, width, height = drawn["box"]
    assert x < 0 and width > 300 and height > 300  # file a and rank 3 hold clues: on screen

    triangle = {c: (ord(c[0]) - 101.0, int(c[1]) - 5.0)
                for c in ("d5", "d6", "e4", "e6", "f4", "f5", "c5")}
    family = served(Geometry(id="triangle-example", shape="triangle", cells=tuple(sorted(triangle)),
                             coords=triangle, houses={}, numbers=(1, 6),
                             marked={"dots": ("d5", "d6", "e4", "e6", "f4", "f5")}))
    dots = page.evaluate("""(geometry) => {
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        document.body.append(svg);
        Board.build(svg, geometry, {legend: {}});
        const dots = [...svg.querySelectorAll('.dot')].map(d => d.dataset.dot);
        svg.remove();
        return dots;
    }""", family)
    assert sorted(dots) == ["d5", "d6", "e4", "e6", "f4", "f5"]

    # Hexagons: a light border only where two regions meet (b1|c1 and b1|b2, not a1|b1).
    hexes = {"a1": (0.0, 0.0), "b1": (1.0, 0.0), "c1": (2.0, 0.0), "b2": (1.5, 0.75 ** 0.5)}
    hexa = served(Geometry(id="hex-example", shape="hex", cells=tuple(sorted(hexes)),
                           coords=hexes, houses={},
                           regions={"region 1": ("a1", "b1"), "region 2": ("c1", "b2")}))
    borders = page.evaluate("""(geometry) => {
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        document.body.append(svg);
        Board.build(svg, geometry, {legend: {}});
        const count = svg.querySelectorAll('.hex-border').length;
        svg.remove();
        return count;
    }""", hexa)
    assert borders == 2


def test_start_page_options_names_hints_and_a_proposed_gold_setup(phone: Phone) -> None:
    """Kakuro's clue option, the hints switch and the names reach the game; Duell starts from
    the gold cards the page proposed (a second proposal replaces the first)."""
    page = phone.page
    page.goto(phone.url + "/")
    page.click("[data-variant='kakuro']")
    page.select_option("[data-option='clues']", json.dumps("A"))
    page.check("#hints")
    page.fill("#player-names input[data-player='0']", "Mia")
    page.click("#start-game")
    page.wait_for_url("**/play")
    page.wait_for_selector("#board .clue")
    assert phone.api("/api/record")["options"] == {"clues": "A"}
    view = phone.api("/api/state")
    assert view["table"]["hints"] is True and page.is_checked("#hints")
    assert view["player_names"][0] == "Mia"
    page.wait_for_selector("#scores tr[data-player='0'] >> text=Mia")
    geometry = phone.api("/api/variants/kakuro")
    assert page.locator("#board .clue-number").count() == len(geometry["clues"])
    assert page.get_attribute("#rules-link", "href") == "/rules/kakuro"

    page.goto(phone.url + "/")
    page.click("[data-variant='duell-der-meister']")
    page.wait_for_selector("#setup-pieces .setup-piece")

    def shown() -> dict[str, int]:
        return {row.query_selector("input").input_value():
                int(row.query_selector("select").input_value())
                for row in page.query_selector_all("#setup-pieces .setup-piece")}

    first = shown()
    page.click("#propose-setup")
    page.wait_for_function("""(first) => {
        const rows = [...document.querySelectorAll('#setup-pieces .setup-piece')];
        return rows.length === 9 && rows.some(r => first[r.querySelector('input').value] !==
                                               Number(r.querySelector('select').value));
    }""", arg=first)
    proposal = shown()
    assert len(proposal) == 9 and proposal != first
    page.click("#start-game")
    page.wait_for_url("**/play")
    page.wait_for_selector("#now-text >> text=Set up")
    prompt = phone.api("/api/state")["table"]["prompt"]
    assert page.text_content("#now-text") == (
        f"Set up: put the gold {prompt['piece']['number']} on {prompt['square']} (9 to go).")
    setup = phone.api("/api/record")["setup"]
    assert {c: p["number"] for c, p in setup.items()} == proposal
    assert all(p["owner"] is None for p in setup.values())
    phone.set_up()
    view = phone.check()
    assert view["table"]["prompt"] is None or view["table"]["prompt"]["kind"] != "setup"


def test_every_rules_page_shows_its_board(phone: Phone) -> None:
    page = phone.page
    for cls in all_variants():
        geometry = phone.api(f"/api/variants/{cls.id}")
        page.goto(f"{phone.url}/rules/{cls.id}")
        page.wait_for_selector("body[data-rendered='true']")
        squares = page.eval_on_selector_all("#rules-board [data-square]",
                                            "gs => gs.map(g => g.dataset.square)")
        assert sorted(squares) == sorted(geometry["cells"]), cls.id
        assert page.locator("#rules-board .clue-number").count() == len(geometry.get("clues") or {})


def test_cube_and_hexagon_boards_are_played_by_taps(phone: Phone) -> None:
    """The 3D cube's faces and the Hexa board's hexagons take pieces by taps like squares do."""
    from sudoku_table.rules.actions import Place
    from sudoku_table.rules.game import new_game

    for variant in ("3d-sudoku", "hexa-sudoku"):
        phone.start(variant)  # for the Hexa board, the cube's game still runs: asked
        rules = new_game(variant)
        state = rules.initial_state()
        placed = []
        for _ in range(2):
            action = next(a for a in rules.legal_actions(state) if isinstance(a, Place))
            phone.place(action.cell, action.number)
            offered = phone.api("/api/state")["game"]["cells"][action.cell]
            assert offered["number"] == action.number
            state = rules.apply(state, action)
            placed.append(action.cell)
        view = phone.check()
        assert view["game"]["to_move"] == 0 and len(view["game"]["cells"]) == 2
        for cell in placed:  # clear the board for the next game
            phone.square(cell)
    assert len(phone.asked) == 1 and "still running" in phone.asked[0]  # asked first


def test_a_new_game_asks_for_the_pin_once_per_tab(browser: Any, tmp_path: Path) -> None:
    """With a PIN in the config, a new game needs it: the page asks, a wrong PIN changes
    nothing, the right one starts the game and is remembered for the tab."""
    from sudoku_table.assembly import open_panel

    from .helpers import LiveServer

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None,
                       test_config={"PANEL_PIN": "2468"})
    live = LiveServer(panel.app)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(5000)
        phone = Phone(page, live.url)
        answers = iter(["1111", "2468"])
        asked: list[str] = []

        def on_dialog(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept(next(answers))

        page.on("dialog", on_dialog)
        page.goto(live.url + "/")
        page.click("[data-variant='vierer-dominari']")
        page.click("#start-game")  # asked for the PIN; a wrong one is refused
        page.wait_for_selector("#toast:not([hidden])")
        assert phone.api("/api/state")["game"] is None
        assert len(asked) == 1 and "PIN" in asked[0]
        page.click("#start-game")  # asked again; the right one starts the game
        page.wait_for_url("**/play")
        assert phone.api("/api/state")["game"]["variant"] == "vierer-dominari"
        page.goto(live.url + "/")
        page.click("[data-variant='score-dominari']")
        page.click("#start-game")  # the tab remembers the PIN: not asked again
        page.wait_for_url("**/play")
        assert phone.api("/api/state")["game"]["variant"] == "score-dominari"
        assert len(asked) == 2
        assert not phone.errors, phone.errors
    finally:
        context.close()
        live.close()
        panel.close()


def test_the_play_page_follows_the_table_across_ended_live_views(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server ends every live view after its lifetime (here one second); the page comes
    back by itself and keeps showing every change made elsewhere."""
    from sudoku_table.assembly import open_panel
    from sudoku_table.web import panel_state

    from ..waiting import until
    from .helpers import LiveServer

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None,
                       test_config={"STREAM_SECONDS": 1.0, "KEEPALIVE_SECONDS": 0.3})
    streams = panel_state(panel.app).streams
    opened: list[str] = []  # every live view the server granted
    acquire = streams.acquire

    def counted(host: str) -> str | None:
        refused = acquire(host)
        if refused is None:
            opened.append(host)
        return refused

    monkeypatch.setattr(streams, "acquire", counted)
    live = LiveServer(panel.app)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        panel.table.new_game("vierer-dominari")
        page = context.new_page()
        page.set_default_timeout(6000)
        page.goto(live.url + "/play")
        assert until(lambda: opened)
        for square in ("c3", "d4", "e2"):
            views = len(opened)  # the live view of the page has ended and come back since
            assert until(lambda views=views: len(opened) > views and streams.held() == 1)
            panel.hardware.simulator.set_square(square, True)
            page.wait_for_selector(f"#board [data-square='{square}'][data-occupied='true']"
                                   ":not([data-felt])")
    finally:
        context.close()
        live.close()
        panel.close()
