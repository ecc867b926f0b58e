"""Every page of the panel as a person sees it, in Chromium at a phone's size held upright
(390x844), the same phone sideways (844x390) and a laptop's (1280x800), in German and English:
nothing clipped, nothing overlapping, what matters in view and not covered, disabled controls
readable (``layout.check_layout``), and no accessibility violation (axe-core).

The play page is looked at in the moments that filled it most: a number chosen with the hint
showing in a KOSMOS game of three, a card waiting for its number after an illegal one, Revers
pieces to turn over, and a finished game with its moves and scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .axe import audit
from .layout import check_layout
from .test_browser import EXAMPLES, Phone

pytestmark = [pytest.mark.browser]

SIZES = {"phone": (390, 844), "sideways": (844, 390), "laptop": (1280, 800)}
LANGUAGES = ("de", "en")


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


@pytest.fixture(params=[(s, lang) for lang in LANGUAGES for s in SIZES],
                ids=[f"{s}-{lang}" for lang in LANGUAGES for s in SIZES])
def seen(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Phone]:
    size, language = request.param
    width, height = SIZES[size]
    mobile = width < 1000
    context = browser.new_context(viewport={"width": width, "height": height}, locale=language,
                                  is_mobile=mobile, has_touch=mobile, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(8000)
    phone = Phone(page, server)
    page.goto(f"{server}/language/{language}?next=/")
    yield phone
    context.close()
    assert not phone.errors, phone.errors


def upright(phone: Phone) -> bool:
    size = phone.page.viewport_size
    return size["height"] > size["width"]


def play_in_view(phone: Phone, over: bool = False) -> list[str]:
    """On the play page: the board and the bar always; sideways and on a laptop the scores
    too (at the end, the final scores in the rule book's parts), all without scrolling."""
    return ["#board", "#now"] + ([] if upright(phone) else ["#breakdown" if over else "#scores"])


def look(phone: Phone, path: str | None, in_view: list[str], moment: str) -> None:
    page = phone.page
    if path is not None:
        page.goto(phone.url + path)
        page.wait_for_selector("body[data-rendered='true']", state="attached")
    page.wait_for_timeout(150)  # fonts and the last view drawn
    playing = page.url.endswith("/play")
    share = {"#now": 1 / 3} if playing and upright(phone) else {}
    problems = check_layout(page, in_view=in_view, share=share)
    assert problems == [], (moment, problems)
    violations = audit(page)
    assert violations == [], (moment, violations)


def settled(phone: Phone) -> None:
    version = str(phone.api("/api/state")["version"])
    phone.page.wait_for_function("v => Number(document.body.dataset.version) >= Number(v)",
                                 arg=version)


def settled_scroll(page: Any, selector: str) -> None:
    """Wait until ``selector``'s top has come to rest in view (a smooth scroll has ended):
    the same place over two animation frames."""
    page.wait_for_function("""(selector) => new Promise((done) => {
        const top = () => document.querySelector(selector).getBoundingClientRect().top;
        const before = top();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          const now = top();
          done(now === before && now >= 0 && now < window.innerHeight);
        }));
      })""", arg=selector)


def place(phone: Phone, square: str, number: int) -> None:
    phone.post("/api/sim/square", {"square": square, "occupied": True})
    phone.post("/api/input", {"type": "number", "square": square, "number": number})


def test_every_page_in_every_moment(seen: Phone) -> None:
    phone, page = seen, seen.page
    # A KOSMOS game of three: a number chosen, the hint asked for, lit among the targets.
    phone.post("/api/game", {"variant": "classic-sudoku", "players": 3, "hints": True,
                             "names": ["Anna", "Ben", "Cleo"]})
    for action in example("classic-sudoku-7-66")["record"]["actions"][:11]:
        place(phone, action["cell"], action["number"])
    phone.post("/api/input", {"type": "number", "number": 4})
    page.goto(phone.url + "/play")
    page.wait_for_selector("body[data-rendered='true']", state="attached")
    page.click("#hint")
    page.wait_for_selector("#hint-box[data-status='ready']")
    # The hint's square stands out: every target steps back (thin, faint, no badge).
    rings = page.evaluate("""() => {
        const all = (s) => [...document.querySelectorAll(s)];
        return {targets: all('#board .signal-ring[data-signal=target]').length,
                behind: all('#board .signal-ring.behind[data-signal=target]').length,
                badges: all('#board .signal-dot').length,
                hint: all('#board .signal-ring[data-signal=hint]:not(.behind)').length,
                faint: all('#board .signal-ring.behind').every(
                    (r) => Number(r.getAttribute('stroke-opacity')) <= 0.35)};
    }""")
    assert rings["hint"] == 1 and rings["targets"] > 20 and rings["faint"], rings
    assert rings["behind"] == rings["targets"] and rings["badges"] < 5, rings
    look(phone, None, play_in_view(phone) + ["#hint-box", "#pad"], "a hint among targets")

    # A card put down, then one that does not fit: the reason said, the pad offered.
    phone.post("/api/input", {"type": "undo"})  # the number chosen in advance
    phone.post("/api/sim/square", {"square": "i1", "occupied": True})
    settled(phone)
    page.wait_for_selector("#pad[data-mode='answer']")
    look(phone, None, play_in_view(phone) + ["#pad"], "a card waits for its number")

    # Revers: the pieces a move flipped, to be turned over.
    record = example("revers-dominari-7-17")["record"]
    phone.post("/api/sim/clear", {})
    phone.post("/api/game", {"variant": "revers-dominari", "replace": True,
                             "setup": record["setup"]})
    for square in record["setup"]:
        phone.post("/api/sim/square", {"square": square, "occupied": True})
    for action in record["actions"]:
        view = phone.api("/api/state")
        flips = [s for s, w in view["table"]["signals"].items() if w == "flip"]
        if flips:
            break
        place(phone, action["cell"], action["number"])
    assert flips, "a move flipped pieces"
    look(phone, "/play", play_in_view(phone), "pieces to turn over")

    # A finished game: who won, the parts of each score, every move numbered.
    phone.post("/api/sim/clear", {})
    actions = example("vierer-dominari-7-12")["record"]["actions"]
    phone.post("/api/game", {"variant": "vierer-dominari", "replace": True})
    for action in actions:
        place(phone, action["cell"], action["number"])
    assert phone.api("/api/state")["game"]["over"]
    page.goto(phone.url + "/play")
    page.wait_for_selector("#end:not([hidden])")
    numbers = page.eval_on_selector_all("#moves li .move-number",
                                        "ns => ns.map(n => n.textContent)")
    assert numbers == [f"{n}." for n in range(1, len(actions) + 1)]
    look(phone, None, play_in_view(phone, over=True) + ["#rematch"], "the end")
    page.locator("#moves li").last.scroll_into_view_if_needed()
    assert check_layout(page) == [], "the end, scrolled to the last move"

    # The other pages: a game chosen on the start page, the table, the rules.
    page.goto(phone.url + "/")
    page.wait_for_selector("body[data-rendered='true']", state="attached")
    # Every game with a small drawing of its board, read out in words of this language.
    from sudoku_table.rules.game import all_variants

    pictures = page.evaluate("""() => [...document.querySelectorAll('svg[data-thumb]')].map(
        (svg) => [svg.dataset.thumb, svg.querySelectorAll('[data-square]').length,
                  svg.getAttribute('role'), svg.getAttribute('aria-label')])""")
    assert len(pictures) == len(all_variants()) == 13
    board_words = "Das Brett: " if page.evaluate("document.documentElement.lang") == "de" \
        else "The board: "
    for variant, squares, role, label in pictures:
        cells = len(phone.api(f"/api/variants/{variant}")["cells"])
        assert squares == cells and role == "img", variant
        assert label.startswith(board_words) and str(cells) in label, (variant, label)
    page.click("[data-variant='sudoku-family']")
    page.wait_for_selector("#player-names input")
    settled_scroll(page, "#setup-form")  # the form scrolls into view smoothly
    look(phone, None, [], "a new game")
    look(phone, "/table", [], "the table")
    page.goto(phone.url + "/rules")
    look(phone, None, [], "the rules")
    for variant in ("classic-sudoku", "sudoku-family"):
        look(phone, f"/rules/{variant}", [], f"the rules of {variant}")
