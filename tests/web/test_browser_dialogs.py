"""The panel's questions are its own dialogs: in the page's language, both choices named by what
they do, reachable by keyboard and screen reader (axe), and no tap goes through one to the
board, on a phone upright (390x844) and sideways (844x390). A card shown on the shared panel
stays until tapped, and the Hint button is absent while hints are off.

The panel's scripts hold no ``confirm(`` or ``alert(`` (checked on their text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_browser import Phone

pytestmark = [pytest.mark.browser, pytest.mark.integration]

STATIC = Path(__file__).resolve().parents[2] / "src" / "sudoku_table" / "web" / "static"

SIZES = {"upright": (390, 844), "sideways": (844, 390)}

WORDS = {
    "en": {"yes": "Take back Player 1's 1 on a1", "no": "Keep it", "question": "take back"},
    "de": {"yes": "1 auf a1 von Spieler 1 zurücknehmen", "no": "Behalten",
           "question": "zurücknehmen"},
}
"""What each language's question says (a part of it) and its two choices, named by what they
do: the move taken back, or kept."""


def test_no_browser_question_is_left_in_the_panels_scripts() -> None:
    found = {path.name: re.findall(r"\b(?:confirm|alert)\(", path.read_text(encoding="utf-8"))
             for path in STATIC.glob("*.js")}
    assert not {name: hits for name, hits in found.items() if hits}


@pytest.fixture
def opened(browser: Any, server: str) -> Iterator[Any]:
    """Opens the panel at a size and in a language as a phone (touch), its errors collected."""
    contexts = []
    phones: list[Phone] = []

    def open_phone(size: tuple[int, int], language: str) -> Phone:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                      device_scale_factor=2, is_mobile=True, has_touch=True,
                                      locale=language,
                                      extra_http_headers={"Accept-Language": language})
        from .axe import fetch as fetch_axe

        context.add_init_script(script=fetch_axe().read_text(encoding="utf-8"))
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        phone = Phone(page, server, language)
        phones.append(phone)
        return phone

    yield open_phone
    for context in contexts:
        context.close()
    for phone in phones:
        assert not phone.errors, phone.errors


def serious(page: Any, selector: str) -> list[dict[str, Any]]:
    """axe's serious and critical findings inside ``selector`` (axe came in before the page,
    as its init script: the panel's Content-Security-Policy allows no script added later)."""
    found: list[dict[str, Any]] = page.evaluate("""async (selector) => {
        const r = await axe.run(document.querySelector(selector), {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help}));
    }""", selector)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.query_selector(selector)
    assert found is not None, selector
    bounds = found.bounding_box()
    assert bounds is not None, f"{selector} is not shown"
    return bounds  # type: ignore[no-any-return]


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


def another_players_action(phone: Phone) -> None:
    """KOSMOS Classic for two: the first player's 1 on a1 is played; the second is to move."""
    phone.start("classic-sudoku", 2)
    phone.place("a1", 1)
    phone.page.wait_for_function(
        "() => document.querySelector('#board [data-square=a1]').dataset.number === '1'")


def question_is_shown(phone: Phone, language: str, size: tuple[int, int]) -> None:
    """Undo asks in the page's own dialog: its words, its choices, its place on the screen."""
    page = phone.page
    page.click("#undo")
    page.wait_for_selector("#ask-dialog[open]")
    words = WORDS[language]
    question = page.inner_text("#ask-text")
    yes, no = page.inner_text("#ask-yes"), page.inner_text("#ask-no")
    assert words["question"] in question.lower() or words["question"] in question, question
    assert (yes, no) == (words["yes"], words["no"])
    # Keyboard: the choice that changes nothing has the focus; Tab reaches the other.
    assert page.evaluate("document.activeElement.id") == "ask-no"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "ask-yes"
    # Screen reader: a modal dialog named by its question, nothing serious for axe.
    assert page.evaluate("document.querySelector('#ask-dialog').matches(':modal')")
    assert not serious(page, "#ask-dialog")
    # Geometry: the dialog lies wholly on the screen, both choices inside it, each big enough
    # for a finger and apart from the other.
    screen = {"x": 0.0, "y": 0.0, "width": float(size[0]), "height": float(size[1])}
    dialog, yes_box, no_box = (box(page, s) for s in ("#ask-dialog", "#ask-yes", "#ask-no"))
    assert inside(dialog, screen), (dialog, screen)
    assert abs(dialog["x"] + dialog["width"] / 2 - size[0] / 2) <= 2, dialog  # in the middle
    assert page.evaluate("(() => { const t = document.querySelector('#ask-text');"
                         " return t.scrollWidth <= t.clientWidth; })()"), "the question is cut"
    for button in (yes_box, no_box):
        assert inside(button, dialog), (button, dialog)
        assert button["height"] >= 40 and button["width"] >= 44, button
    apart = (yes_box["x"] >= no_box["x"] + no_box["width"]
             or yes_box["y"] >= no_box["y"] + no_box["height"])
    assert apart, (yes_box, no_box)


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("language", ["en", "de"])
def test_taking_back_another_players_move_is_asked_in_the_page(
        opened: Any, size: str, language: str) -> None:
    phone = opened(SIZES[size], language)
    another_players_action(phone)
    page = phone.page
    question_is_shown(phone, language, SIZES[size])
    # Escape keeps the move; nothing reached the board beneath the dialog.
    page.keyboard.press("Escape")
    page.wait_for_selector("#ask-dialog:not([open])", state="attached")
    assert phone.api("/api/state")["game"]["cells"]["a1"]["number"] == 1
    # "Keep it", tapped: the move stays, and the tap does not go through to the square below.
    question_is_shown(phone, language, SIZES[size])
    no = box(page, "#ask-no")
    page.touchscreen.tap(no["x"] + no["width"] / 2, no["y"] + no["height"] / 2)
    page.wait_for_selector("#ask-dialog:not([open])", state="attached")
    state = phone.api("/api/state")
    assert state["game"]["cells"]["a1"]["number"] == 1
    assert not state["table"]["occupied"] or set(state["table"]["occupied"]) == {"a1"}, (
        "the tap on the dialog reached the board")
    # The choice that does it, by keyboard: the move is taken back.
    question_is_shown(phone, language, SIZES[size])
    page.keyboard.press("Enter")  # on the focused choice after Tab: take back
    page.wait_for_selector("#ask-dialog:not([open])", state="attached")
    page.wait_for_function("() => !document.querySelector('#board [data-square=a1]')"
                           ".dataset.number")
    assert "a1" not in phone.api("/api/state")["game"]["cells"]


def test_the_hint_button_is_absent_while_hints_are_off(opened: Any) -> None:
    phone = opened(SIZES["upright"], "en")
    phone.start("classic-sudoku", 2)
    page = phone.page
    page.wait_for_selector("#board [data-square]")
    if page.is_checked("#hints"):
        page.click("#hints-switch")
    page.wait_for_function("() => document.querySelector('#hint').hidden")
    assert page.is_visible("#hint-off")
    page.click("#hints-switch")
    page.wait_for_selector("#hint:not([hidden])")
    assert not page.is_disabled("#hint")
