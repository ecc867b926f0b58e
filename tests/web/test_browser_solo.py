"""Solo Sudoku through the panel in a real browser: chosen on the new-game page by its words,
set up by the lights with no number tapped, solved with number-first input, the time kept and
the game's positions served back; and the pages of it at a phone's size upright and sideways
and a laptop's, in German and English, with nothing clipped or covered."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.puzzle import generate

from .helpers import live_composition
from .layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.integration]

SIZES = {"phone": (390, 844), "sideways": (844, 390), "laptop": (1280, 800)}
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "solo"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    with live_composition(tmp_path / "data") as pair:
        yield pair


def open_page(browser: Any, url: str, size: str, language: str) -> tuple[Any, Any, list[str]]:
    width, height = SIZES[size]
    mobile = width < 1000
    context = browser.new_context(viewport={"width": width, "height": height}, locale=language,
                                  is_mobile=mobile, has_touch=mobile,
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def choose_puzzle(page: Any, url: str, board: str, difficulty_words: str) -> None:
    """The new-game page: Solo Sudoku, its board and its difficulty chosen by their words."""
    page.goto(url + "/")
    page.wait_for_selector("body[data-rendered]")
    page.click("[data-variant='sudoku-puzzle']")
    page.wait_for_selector("#option-difficulty")
    assert page.is_hidden("#setup-box")  # the options name the givens: nothing to change
    page.select_option("#option-board", value=f'"{board}"')
    page.select_option("#option-difficulty", label=difficulty_words)
    seeds = page.eval_on_selector_all("#option-seed option", "os => os.map(o => o.textContent)")
    assert seeds[0] in ("the puzzle of the day", "das Rätsel des Tages")


def lit_squares(page: Any) -> set[str]:
    return set(page.eval_on_selector_all(
        "#board [data-square][data-signal='setup']", "ss => ss.map(s => s.dataset.square)"))


def test_a_whole_puzzle_is_played_through_the_panel(browser: Any, live: tuple[str, Any]) -> None:
    url, panel = live
    context, page, errors = open_page(browser, url, "phone", "en")
    try:
        choose_puzzle(page, url, "six", "Beginner")
        page.click("#setup-form [type='submit']")
        page.wait_for_url("**/play")
        page.wait_for_selector("#board [data-square='f6']")
        assert page.locator("#board [data-square]").count() == 36  # the 6x6, as chosen
        options = panel.table.view()["game"]["options"]
        puzzle = generate("six", 1, options["seed"])
        # Set up by the lights: a number at a time, every square of it lit, no number tapped.
        numbers = sorted(set(puzzle.givens.values()))
        for number in numbers:
            squares = {c for c, n in puzzle.givens.items() if n == number}
            page.wait_for_function(
                "n => document.querySelector('#now').textContent.includes(`the ${n}s`)", arg=number)
            assert lit_squares(page) == squares
            assert re.search(rf"{len(squares)} lit squares", page.inner_text("#now"))
            for cell in sorted(squares):
                page.click(f"#board [data-square='{cell}']")
                page.wait_for_selector(f"#board [data-square='{cell}'][data-occupied='true']"
                                       ":not([data-felt])")
        assert not lit_squares(page)
        # Solved number first: each number tapped once, then its pieces put down.
        for number in range(1, 7):
            cells = sorted(c for c, n in puzzle.solution.items()
                           if n == number and c not in puzzle.givens)
            if not cells:
                continue
            page.click(f"#pad [data-number='{number}']")
            page.wait_for_selector(f"#pad [data-number='{number}'][aria-pressed='true']")
            for cell in cells:
                page.click(f"#board [data-square='{cell}']")
                page.wait_for_function(
                    "c => { const s = document.querySelector(`#board [data-square='${c}']`);"
                    " return s && s.dataset.number !== undefined; }", arg=cell)
        page.wait_for_selector("#end:not([hidden])")
        assert "the puzzle is solved" in page.inner_text("#end-why")
        game = panel.table.view()["game"]
        assert game["over"] and game["end_reason"] == "solved"
        record = page.evaluate("fetch('/api/record').then(r => r.json())")
        assert len(record["actions"]) == 36 - len(puzzle.givens)
        assert all("number" in a for a in record["actions"])
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_puzzle_s_pages_at_every_size(browser: Any, live: tuple[str, Any], size: str,
                                          language: str) -> None:
    url, panel = live
    context, page, errors = open_page(browser, url, size, language)
    try:
        choose_puzzle(page, url, "classic", "Expert" if language == "en" else "Experte")
        page.locator("#options").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"start-{size}-{language}.png"))
        assert check_layout(page, ["#option-board", "#option-difficulty"]) == []
        panel.table.new_game("sudoku-puzzle", options={"board": "classic", "difficulty": 1,
                                                       "seed": 3})
        page.goto(url + "/play")
        page.wait_for_selector("#board [data-square='i9']")
        page.wait_for_function("document.querySelectorAll(\"#board [data-signal='setup']\")"
                               ".length > 1")
        page.screenshot(path=str(SHOTS / f"setup-{size}-{language}.png"))
        assert check_layout(page, ["#board", "#now"]) == []
        # Every lit square on the board drawing, all of one number, and the bar says it.
        givens = generate("classic", 1, 3).givens
        first = min(givens.values())
        assert lit_squares(page) == {c for c, n in givens.items() if n == first}
        assert str(first) in page.inner_text("#now")
        assert not errors, errors
    finally:
        context.close()
