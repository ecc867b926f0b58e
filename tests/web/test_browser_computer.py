"""Playing against the computer in a real browser on a phone (390x844): the start form makes a
seat the computer, the person asks for a hint and reads why, and the whole game is played by
taps on the simulated table: the person's own moves, and the computer's where the bar and the
lights ask for them. Every view keeps the what-now bar in view."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sudoku_table.rules.actions import Place
from sudoku_table.rules.record import Record, replay

from .test_browser import Phone
from .test_companion import bar_in_view, open_phone

pytestmark = [pytest.mark.browser]


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Phone]:
    context, phone = open_phone(browser, server, (390, 844))
    phone.page.set_default_timeout(20000)  # the computer thinks in the background
    yield phone
    context.close()
    assert not phone.errors, phone.errors


def person_place(phone: Phone) -> None:
    """A legal placement of the person's, by taps: the piece, then its number on the pad."""
    game, states = replay(Record.from_json(phone.api("/api/record")))
    action = next(a for a in game.legal_actions(states[-1]) if isinstance(a, Place))
    phone.place(action.cell, action.number)


def test_a_game_against_the_computer_by_taps(phone: Phone) -> None:
    page = phone.page
    page.goto(phone.url + "/")
    page.click("[data-variant='vierer-dominari']")
    page.select_option("select[data-computer='1']", "easy")
    assert page.is_disabled("#player-names input[data-player='1']")
    page.check("#hints")
    page.click("#start-game")
    page.wait_for_url("**/play")
    page.wait_for_selector("#board [data-square]")
    assert phone.api("/api/state")["table"]["computers"] == {"1": "easy"}
    # A hint first: it lights, and the panel says why.
    page.click("#hint")
    page.wait_for_selector("#hint-box[data-status='ready']")
    assert page.text_content("#hint-action").startswith("Hint: ")
    assert page.query_selector_all("#hint-reasons li")
    page.wait_for_selector("#board [data-square][data-signal='hint']", state="attached")
    computer_moves = 0
    for _ in range(200):
        view = phone.api("/api/state")
        if view["game"]["over"]:
            break
        bar_in_view(phone)
        nxt = view["table"]["next"]
        if nxt["actor"] == 1:
            if nxt["code"] == "computer_thinking":
                page.wait_for_function("() => document.querySelector('#now').dataset.next "
                                       "!== 'computer_thinking'")
                continue
            page.wait_for_selector("#board [data-square][data-signal='computer']", state="attached")
            assert page.text_content("#now-who").strip() == "Computer (easy)"
            assert page.text_content("#now-text").startswith(("Put the computer's",
                                                              "Put a blank"))
            lit = page.get_attribute("#board [data-square][data-signal='computer']", "data-square")
            plan = phone.api("/api/state")["table"]["plan"]
            assert lit == plan["cell"]
            before = len(phone.api("/api/record")["actions"])
            phone.square(lit)
            for _ in range(50):  # it counts once the sensors report it
                if len(phone.api("/api/record")["actions"]) > before:
                    break
                page.wait_for_timeout(100)
            assert phone.api("/api/record")["actions"][before] == plan
            computer_moves += 1
        elif nxt["code"] == "blanks_or_end":
            page.click("#end-turn")
            page.wait_for_function("() => document.querySelector('#now').dataset.next "
                                   "!== 'blanks_or_end'")
        else:
            assert nxt["code"] == "place", nxt
            person_place(phone)
    view = phone.api("/api/state")
    assert view["game"]["over"] and computer_moves > 3
    assert page.is_visible("#rematch")


def test_the_table_draws_the_computers_card_in_kosmos(phone: Phone) -> None:
    """A KOSMOS game with the computer on the first seat and the table drawing its cards: the
    form offers the choice only with a computer seat, and the computer's first move is carried
    out by one tap on the square the bar names."""
    page = phone.page
    page.goto(phone.url + "/")
    page.evaluate("() => localStorage.clear()")
    page.goto(phone.url + "/")
    page.click("[data-variant='classic-sudoku']")
    assert page.is_hidden("#draws-box"), "no computer seat: nothing to draw for"
    page.select_option("select[data-computer='0']", "normal")
    assert page.is_visible("#draws-box") and page.is_hidden("#bag-help")
    assert "face up beside the board" in page.text_content("#draws-help")
    page.check("#computer-draws")
    page.click("#start-game")
    page.wait_for_url("**/play")
    page.wait_for_selector("#board [data-square]")
    view = phone.api("/api/state")
    assert view["table"]["computer_draws"] is True
    assert "face up beside the board" in page.text_content("#message")
    page.wait_for_function("() => (document.querySelector('#now').dataset.next || '')"
                           ".startsWith('computer_draw_')")
    bar_in_view(phone)
    view = phone.api("/api/state")
    plan = view["table"]["plan"]
    assert view["table"]["next"]["code"] == "computer_draw_place", view["table"]["next"]
    text = page.text_content("#now-text")
    assert text == f"Take the computer's {plan['number']} and put it on {plan['cell']}."
    assert page.text_content("#now-who").strip() == "Computer (normal)"
    assert page.is_hidden("#discard"), "nothing to set aside on the computer's placing turn"
    lit = page.get_attribute("#board [data-square][data-signal='computer']", "data-square")
    assert lit == plan["cell"]
    phone.square(lit)
    page.wait_for_function("() => document.querySelector('#now').dataset.next === 'place'")
    assert phone.api("/api/record")["actions"] == [plan]
    bar_in_view(phone)
    # The choice is remembered on this phone for the next game.
    page.goto(phone.url + "/")
    page.click("[data-variant='duell-der-meister']")
    assert page.is_visible("#draws-box") and page.is_checked("#computer-draws")
    page.click("[data-variant='sudoku-family']")
    assert page.is_hidden("#draws-box") and page.is_visible("#bag-help")
