"""Ask the table on the play page, in Chromium: a square typed or tapped on the board, each
question's answer shown as the API gives it in the page's language, said by the phone's own
voice on request, large buttons inside the screen at a phone's size upright and sideways and a
laptop's, in German and English, with axe-core at 0 violations."""

from __future__ import annotations

import contextlib
import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .axe import every_violation
from .layout import check_layout
from .test_browser import Phone
from .test_browser_speech import CAPTURE

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "sideways": (844, 390), "laptop": (1280, 800)}


@contextlib.contextmanager
def _opened(browser: Any, server: str, size: str, language: str) -> Iterator[Phone]:
    """The play page of a KOSMOS game with two cards down, at ``size`` in ``language``, the
    phone's voice captured (``window.__said``) and axe loaded."""
    from .axe import fetch as fetch_axe

    width, height = SIZES[size]
    mobile = width < 1000
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="de-DE" if language == "de" else "en-GB",
                                  is_mobile=mobile, has_touch=mobile)
    context.add_init_script(CAPTURE)
    context.add_init_script(script=fetch_axe().read_text(encoding="utf-8"))
    page = context.new_page()
    page.set_default_timeout(10000)
    phone = Phone(page, server, language)
    phone.size = size  # type: ignore[attr-defined]
    phone.post("/api/game", {"variant": "classic-sudoku", "players": 2,
                             "names": ["Anna", "Ben"]})
    phone.play_by_api([{"type": "place", "cell": "c3", "number": 5},
                       {"type": "place", "cell": "e4", "number": 7}])
    page.goto(server + "/play")
    page.wait_for_selector("body[data-rendered='true']")
    yield phone
    assert not phone.errors, phone.errors
    context.close()


@pytest.fixture(params=[(size, lang) for lang in ("de", "en") for size in SIZES],
                ids=[f"{size}-{lang}" for lang in ("de", "en") for size in SIZES])
def asking(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Phone]:
    with _opened(browser, server, *request.param) as phone:
        yield phone


def _said_by_api(phone: Phone, **query: str) -> str:
    return str(phone.api("/api/say?" + urllib.parse.urlencode(query))["text"])


def _answer_is(phone: Phone, text: str) -> None:
    phone.page.wait_for_function(
        "(text) => document.getElementById('ask-answer').textContent === text", arg=text)


def _box(phone: Phone, selector: str) -> dict[str, float]:
    box = phone.page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


def test_every_question_is_asked_and_answered_on_the_play_page(asking: Phone,
                                                               tmp_path: Path) -> None:
    page = asking.page
    page.locator("#ask-box").scroll_into_view_if_needed()
    page.fill("#ask-square", "c3")
    page.click("#ask-box [data-q='square']")
    _answer_is(asking, _said_by_api(asking, q="square", square="c3"))
    assert page.locator("#ask-answer").text_content().startswith("c3: ")
    # A square tapped on the board is chosen for the questions and not played there.
    page.click("#ask-pick")
    assert page.get_attribute("#ask-pick", "aria-pressed") == "true"
    page.click("#board [data-square='e5']")
    assert page.input_value("#ask-square") == "e5"
    assert "e5" not in asking.api("/api/state")["table"]["occupied"]
    for q, query in (("may", {"square": "e5"}), ("rank", {"rank": "5"}),
                     ("file", {"file": "e"}), ("block", {"square": "e5"})):
        page.click(f"#ask-box [data-q='{q}']")
        _answer_is(asking, _said_by_api(asking, q=q, **query))
    page.select_option("#ask-number", "7")
    page.click("#ask-box [data-q='where']")
    _answer_is(asking, _said_by_api(asking, q="where", number="7"))
    for q in ("scores", "now", "repeat"):
        page.click(f"#ask-box [data-q='{q}']")
        _answer_is(asking, _said_by_api(asking, q=q))
    # Said on this phone on request, in its language.
    now = _said_by_api(asking, q="repeat")
    page.click("#ask-say")
    page.wait_for_function("() => window.__said.length > 0")
    said = page.evaluate("() => window.__said.slice()")
    assert said[-1] == {"text": now, "lang": "de-DE" if asking.language == "de" else "en-GB"}
    _look(asking, tmp_path)


def _look(phone: Phone, folder: Path) -> None:
    """The box as a person sees it: every question a large button inside the screen's width,
    the answer in view below them, nothing clipped or overlapping, no axe violation."""
    page = phone.page
    page.locator("#ask-answer").scroll_into_view_if_needed()
    width = page.viewport_size["width"]
    for button in page.locator("#ask-box button:visible").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 48 and box["width"] >= 48
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert _box(phone, "#ask-answer")["y"] > _box(phone, "#ask-box [data-q='repeat']")["y"]
    problems = check_layout(page, in_view=["#ask-answer"])
    assert problems == []
    assert every_violation(page) == []
    # Coming back up to the square's field by keyboard: it stops below the sticky "what now"
    # bar, not under it (sideways it did).
    page.evaluate("() => { scrollTo(0, 1e6); "
                  "document.querySelector('.play-side').scrollTop = 1e6; }")
    page.focus("#ask-square")
    page.wait_for_function("() => document.getElementById('ask-square').getBoundingClientRect()"
                           ".top >= document.getElementById('now').getBoundingClientRect().bottom")
    # What a person sees (the screen, not the element: the sticky bar stays over the page):
    # the square and its questions, then the answer (ASK_SHOTS names a folder to keep them).
    shots = Path(os.environ.get("ASK_SHOTS", folder))
    shots.mkdir(parents=True, exist_ok=True)
    name = f"ask-{phone.size}-{phone.language}"  # type: ignore[attr-defined]
    page.evaluate("() => document.querySelector(\"#ask-box [data-q='block']\")"
                  ".scrollIntoView({block: 'end'})")
    assert check_layout(page, in_view=["#ask-box [data-q='block']"]) == []
    page.screenshot(path=str(shots / f"{name}-questions.png"))
    # An answer is brought into view by itself, clear of the "more below" line.
    page.click("#ask-box [data-q='square']")
    _answer_is(phone, _said_by_api(phone, q="square", square="e5"))
    page.wait_for_function("() => { const r = document.getElementById('ask-answer')"
                           ".getBoundingClientRect(); return r.bottom <= innerHeight - 40; }")
    assert check_layout(page, in_view=["#ask-answer"]) == []
    page.screenshot(path=str(shots / f"{name}-answer.png"))


def test_a_question_without_a_square_says_what_is_missing(browser: Any, server: str) -> None:
    with _opened(browser, server, "phone", "en") as asking:
        _without_a_square(asking)


def _without_a_square(asking: Phone) -> None:
    page = asking.page
    page.click("#ask-box [data-q='may']")
    _answer_is(asking, "Type a square such as c3 first, or tap it on the board.")
    assert page.evaluate("() => document.activeElement.id") == "ask-square"
    page.fill("#ask-square", "z9")
    page.click("#ask-box [data-q='square']")
    _answer_is(asking, "Type a square such as c3 first, or tap it on the board.")
