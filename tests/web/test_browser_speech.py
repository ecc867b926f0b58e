"""The phone speaks, in its own language, only when switched on: Chromium with the browser's
``speechSynthesis.speak`` replaced in an init script that keeps every utterance."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..waiting import until
from .test_browser import Phone

pytestmark = pytest.mark.browser

CAPTURE = """
(() => {
  window.__said = [];
  if (typeof window.SpeechSynthesisUtterance !== "function") {
    window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ""; };
  }
  const speak = (u) => {
    window.__said.push({ text: u.text, lang: u.lang });
    setTimeout(() => { if (u.onend) u.onend(); }, 5);
  };
  if (window.speechSynthesis) {
    window.speechSynthesis.speak = speak;
    window.speechSynthesis.cancel = () => {};
  } else {
    window.speechSynthesis = { speak, cancel() {}, getVoices() { return []; } };
  }
})();
"""

WORDS = {
    "de": {"on": "Dieses Handy spricht.", "move": "Anna: 7 auf c4.", "turn": "Ben ist dran.",
           "other": "Ben: 3 auf e5.", "anna": "Anna ist dran.", "lang": "de-DE"},
    "en": {"on": "This phone speaks.", "move": "Anna: 7 on c4.", "turn": "Ben's turn.",
           "other": "Ben: 3 on e5.", "anna": "Anna's turn.", "lang": "en-GB"},
}


@pytest.fixture(params=["de", "en"])
def speaking_phone(request: Any, browser: Any, server: str) -> Iterator[tuple[Phone, str]]:
    language = request.param
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, locale="de-DE" if language == "de" else "en-GB")
    context.add_init_script(CAPTURE)
    page = context.new_page()
    page.set_default_timeout(5000)
    phone = Phone(page, server)
    yield phone, language
    assert not phone.errors, phone.errors
    context.close()


def said(phone: Phone) -> list[dict[str, str]]:
    return phone.page.evaluate("() => window.__said.slice()")


def wait_said(phone: Phone, count: int) -> list[dict[str, str]]:
    phone.page.wait_for_function("n => window.__said.length >= n", arg=count)
    return said(phone)


def open_game(phone: Phone) -> None:
    phone.post("/api/game", {"variant": "classic-sudoku", "players": 2, "names": ["Anna", "Ben"]})
    phone.page.goto(phone.url + "/play")
    phone.page.wait_for_selector("body[data-rendered='true']")


def playing(speaking_phone: tuple[Phone, str]) -> tuple[Phone, dict[str, str], Any]:
    """A game opened on the phone: the phone, the words it should say, its page."""
    phone, language = speaking_phone
    open_game(phone)
    return phone, WORDS[language], phone.page


def test_the_phone_speaks_each_announcement_in_its_language_once_switched_on(
        speaking_phone: tuple[Phone, str]) -> None:
    phone, words, page = playing(speaking_phone)
    # Off by default: a move is shown, not said; the page opening reads out nothing old.
    assert not page.is_checked("#speech")  # a switch that shows it is off
    phone.place("c4", 7)
    page.wait_for_timeout(300)
    assert said(phone) == []
    page.click("#speech")
    assert page.is_checked("#speech")
    assert wait_said(phone, 1) == [{"text": words["on"], "lang": words["lang"]}]
    # Another phone plays Ben's move: this phone says it, then whose turn it is.
    phone.play_by_api([{"type": "place", "cell": "e5", "number": 3}])
    assert [u["text"] for u in wait_said(phone, 3)[1:]] == [words["other"], words["anna"]]
    assert {u["lang"] for u in said(phone)} == {words["lang"]}
    # Remembered on this phone; a reload says nothing already said.
    page.reload()
    page.wait_for_selector("body[data-rendered='true']")
    assert page.is_checked("#speech")
    page.wait_for_timeout(300)
    assert said(phone) == []
    # Repeat says the last announcement again.
    page.click("#repeat")
    assert [u["text"] for u in wait_said(phone, 2)] == [words["other"], words["anna"]]


def test_a_seat_s_own_phone_hears_what_is_addressed_to_its_seat(
        speaking_phone: tuple[Phone, str]) -> None:
    phone, words, page = playing(speaking_phone)
    page.evaluate("() => localStorage.setItem('sudoku-table-speech', 'on')")
    page.evaluate("() => Speech.setSeat(1)")  # this phone belongs to Ben
    phone.play_by_api([{"type": "place", "cell": "c4", "number": 7}])
    assert [u["text"] for u in wait_said(phone, 1)] == [words["turn"]]
    phone.play_by_api([{"type": "place", "cell": "e5", "number": 3}])
    page.wait_for_timeout(300)
    assert [u["text"] for u in said(phone)] == [words["turn"]]  # Anna's turn is not Ben's


def test_repeat_with_this_phone_silent_asks_the_table(speaking_phone: tuple[Phone, str]) -> None:
    phone, language = speaking_phone
    page = phone.page
    open_game(phone)
    page.wait_for_selector("#repeat:not([disabled])")
    page.click("#repeat")
    toast = page.wait_for_selector("#toast:not([hidden])")
    # The toast says the table's sentence as a sentence: a capital first, a full stop last.
    expected = "Die Sprache am Tisch ist aus" if language == "de" else "Speech at the table is off"
    text = toast.text_content() or ""
    assert text.startswith(expected) and text.endswith(".")
    assert said(phone) == []


@pytest.mark.parametrize("viewport", [(390, 844), (844, 390), (1280, 800)])
def test_the_speech_controls_are_in_view_and_apart(browser: Any, server: str,
                                                   viewport: tuple[int, int]) -> None:
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_init_script(CAPTURE)
    page = context.new_page()
    phone = Phone(page, server)
    open_game(phone)
    # Repeat and Undo in the bar, in view; the switches for this phone's sounds and speech
    # below it (measured together, scrolled to), each a row of at least 44 px inside the
    # page's width; no two of either pair overlapping.
    pairs = [{name: page.locator(f"#{name}").bounding_box() for name in ("repeat", "undo")}]
    page.locator("#speech-switch").scroll_into_view_if_needed()
    pairs.append({name: page.locator(f"#{name}").bounding_box()
                  for name in ("sound-switch", "speech-switch")})
    for boxes in pairs:
        for name, box in boxes.items():
            assert box is not None and box["height"] >= 44, name
            assert 0 <= box["x"] and box["x"] + box["width"] <= viewport[0] + 0.5, name
            assert 0 <= box["y"] and box["y"] + box["height"] <= viewport[1] + 0.5, name
        one, two = boxes.values()
        apart = (one["x"] + one["width"] <= two["x"] or two["x"] + two["width"] <= one["x"]
                 or one["y"] + one["height"] <= two["y"] or two["y"] + two["height"] <= one["y"])
        assert apart, list(boxes)
    # The Table page's speech card: every control inside the page's width.
    page.goto(server + "/table")
    page.wait_for_selector("#speech-language option", state="attached")
    for selector in ("#table-speech", "#speech-volume", "#speech-language"):
        page.locator(selector).scroll_into_view_if_needed()
        box = page.locator(selector).bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= viewport[0]
        assert page.locator(selector).is_enabled(), selector
    context.close()


def test_the_table_page_switches_the_table_s_speech(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = context.new_page()
    page.goto(server + "/table")
    page.wait_for_selector("#speech-language option", state="attached")
    assert not page.is_checked("#table-speech")  # a switch that shows it is off
    phone = Phone(page, server)

    def kept(field: str, value: Any) -> None:  # each change kept before the next is made
        assert until(lambda: phone.api("/api/table/speech")["speech"][field] == value), \
            (field, value, phone.api("/api/table/speech"))

    page.click("#table-speech")
    page.wait_for_selector("#table-speech:checked")
    kept("on", True)
    page.wait_for_selector("#speech-language:not([disabled])")
    page.select_option("#speech-language", "de")
    kept("language", "de")
    page.locator("#speech-volume").fill("0.8")
    page.locator("#speech-volume").dispatch_event("change")
    page.wait_for_function("() => document.getElementById('speech-volume-value')"
                           ".textContent === '80 %'")
    def speech() -> tuple[Any, ...]:
        said = phone.api("/api/table/speech")["speech"]
        return said["on"], said["volume"], said["language"]

    # the three changes are three requests: wait for all of them
    assert until(lambda: speech() == (True, 0.8, "de")), speech()
    page.reload()
    page.wait_for_selector("#table-speech:checked")
    context.close()
