"""The play page offers exactly what the model player derives from the view.

The model player (``tests/table/model_player.py``) never opens a browser: it reads which
controls the page offers from the view, with ``offered`` (the page's own decisions, written
once more in Python). Here a real Chromium shows a sample of moments of real games, and the
number pad's enabled numbers and every enabled button must be exactly those ``offered``
names, so the model's checks speak for the page. The moments are the ones the model player
found hard: a blank phase, a blank whose colour is asked beside the next turn, the pieces to
turn after a take-back, Redo, SUDOKU FAMILY's second stone, a card that fits nowhere.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sudoku_table.rules.game import variant_class

from ..table.model_player import offered
from .test_browser import EXAMPLES, Phone, phone  # noqa: F401 (the phone fixture)

pytestmark = [pytest.mark.browser]

SHOWN = """() => {
  const visible = (el) => !!el && !el.closest('[hidden]') && el.getBoundingClientRect().height > 0;
  const buttons = [];
  const named = {undo: '#undo', redo: '#redo', 'end-turn': '#end-turn', discard: '#discard',
                 joker: '#joker', hint: '#hint'};
  for (const [name, selector] of Object.entries(named)) {
    const b = document.querySelector(selector);
    if (visible(b) && !b.disabled) buttons.push(name);
  }
  const kinds = {joker: 'prompt-joker', discard: 'prompt-discard', bear_off: 'prompt-bear-off',
                 where: 'where'};
  for (const b of document.querySelectorAll('#prompt-extra button, #now-rule-row button')) {
    if (!visible(b) || b.disabled) continue;
    if (b.dataset.blankOwner !== undefined) buttons.push('blank-' + b.dataset.blankOwner);
    else if (b.dataset.action in kinds) buttons.push(kinds[b.dataset.action]);
  }
  const pad = document.getElementById('pad');
  const numbers = visible(pad)
    ? [...pad.querySelectorAll('button:not([disabled])')].map((b) => Number(b.dataset.number))
    : null;
  return {buttons: buttons.sort(), pad: numbers, version: document.body.dataset.version,
          who: document.getElementById('now-who').textContent,
          text: document.getElementById('now-text').textContent,
          rule: visible(document.getElementById('now-rule'))
            ? document.getElementById('now-rule').textContent : null};
}"""


def record(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text())["record"]


def same(on: Phone) -> dict[str, Any]:
    """The page at the table's newest view shows the controls ``offered`` derives from it."""
    for _ in range(5):
        view = on.api("/api/state")
        on.page.wait_for_function(
            "v => Number(document.body.dataset.version) >= Number(v)", arg=str(view["version"]))
        shown = on.page.evaluate(SHOWN)
        if shown["version"] == str(view["version"]):
            break
    else:
        raise AssertionError("the page never settled on the table's view")
    traits = variant_class(view["game"]["variant"]).traits()
    controls = offered(view, traits)
    assert shown["pad"] == controls.pad, (view["table"]["next"], shown, controls)
    assert shown["buttons"] == sorted(controls.buttons), (view["table"]["next"], shown, controls)
    return {**view, "shown": shown}


def sim(on: Phone, square: str, occupied: bool = True) -> None:
    on.post("/api/sim/square", {"square": square, "occupied": occupied})


def tap(on: Phone, data: dict[str, Any]) -> None:
    on.post("/api/input", data)


def start(on: Phone, variant: str, setup: dict[str, Any] | None = None,
          players: int | None = None) -> None:
    body: dict[str, Any] = {"variant": variant}
    if setup is not None:
        body["setup"] = setup
    if players is not None:
        body["players"] = players
    on.post("/api/game", body)
    for square in (setup or {}):
        sim(on, square)
    on.page.goto(on.url + "/play")
    on.page.wait_for_selector("#board [data-square]")


def test_revers_the_controls_fit_every_moment(phone: Phone) -> None:  # noqa: F811
    rec = record("revers-dominari-7-17")
    start(phone, "revers-dominari", rec["setup"])
    view = same(phone)
    assert "where" in view["shown"]["buttons"]  # the rule is said; where may be shown
    assert "opposing" in view["shown"]["rule"]  # said before the first try
    for index, action in enumerate(rec["actions"][:9]):
        sim(phone, action["cell"])
        if action["type"] == "place":
            same(phone)  # the pad offers exactly the legal numbers of the new piece
            tap(phone, {"type": "number", "square": action["cell"], "number": action["number"]})
        view = same(phone)
        if index == 6:  # White's blank phase: no number asked, End turn offered
            assert view["shown"]["pad"] is None and "end-turn" in view["shown"]["buttons"]
        for square in view["game"]["last"]["flipped"]:
            if view["table"]["signals"].get(square) == "flip":
                sim(phone, square, False)
                sim(phone, square)
        view = same(phone)
    # Black's blank on c1 ended Black's turn: White's pad, Black's question beside it.
    assert view["table"]["next"]["actor"] == 0 and view["shown"]["pad"]
    buttons = view["shown"]["buttons"]
    assert buttons.count("blank-0") == 1 and "blank-1" not in buttons
    tap(phone, {"type": "undo", "confirm": True})
    view = same(phone)
    assert "redo" in view["shown"]["buttons"] and view["shown"]["pad"] is None
    assert view["table"]["next"]["code"] == "undo_on_board"
    tap(phone, {"type": "redo"})
    same(phone)


REGION_NUMBERS = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const cells = [...document.querySelectorAll('#board [data-square] .cell-hit')];
  const names = [...document.querySelectorAll('#board .cell-name')]
    .map((n) => n.getBoundingClientRect());
  const apart = (a, b) => a.right <= b.left || b.right <= a.left
    || a.bottom <= b.top || b.bottom <= a.top;
  return [...document.querySelectorAll('#board .region-number')].map((label) => {
    const r = label.getBoundingClientRect();
    const at = new DOMPoint(Number(label.getAttribute('x')), Number(label.getAttribute('y')));
    return {region: label.dataset.region, text: label.textContent,
            inside: r.left >= board.left && r.right <= board.right
                    && r.top >= board.top && r.bottom <= board.bottom && r.height > 0,
            on_a_cell: cells.some((c) => c.isPointInFill(at)),
            on_a_name: names.some((n) => !apart(r, n))};
  });
}"""


def test_family_second_stone_and_kosmos_set_aside(phone: Phone) -> None:  # noqa: F811
    start(phone, "sudoku-family")
    same(phone)
    # The triangles the refusals name are numbered on the board, between the cells, in view.
    labels = phone.page.evaluate(REGION_NUMBERS)
    assert sorted(label["text"] for label in labels) == ["1", "2", "3", "4", "5", "6"]
    assert all(label["region"] == f"triangle {label['text']}" for label in labels)
    assert all(label["inside"] and not label["on_a_cell"] and not label["on_a_name"]
               for label in labels), labels
    sim(phone, "d5")
    same(phone)
    tap(phone, {"type": "number", "square": "d5", "number": 3})
    sim(phone, "c6")
    tap(phone, {"type": "number", "square": "c6", "number": 4})
    view = same(phone)
    assert view["table"]["next"]["params"]["nth"] == 2
    assert "second" in view["shown"]["text"]
    rec = record("classic-sudoku-7-66")
    phone.post("/api/sim/clear", {})
    phone.post("/api/game", {"variant": "classic-sudoku", "players": 3, "replace": True})
    actions = rec["actions"]
    discard = next(i for i, a in enumerate(actions) if a["type"] == "discard")
    phone.play_by_api(actions[:discard])
    view = same(phone)
    assert ("discard" in view["shown"]["buttons"]) == bool(view["table"]["discard_choices"])
    phone.play_by_api([actions[discard]])
    same(phone)


def test_a_game_of_moves_offers_no_pad(phone: Phone) -> None:  # noqa: F811
    rec = record("halma-dominari-7-33")
    start(phone, "halma-dominari", rec["setup"])
    view = same(phone)
    assert view["shown"]["pad"] is None
    move = rec["actions"][0]["path"]
    sim(phone, move[0], False)
    same(phone)
    sim(phone, move[-1])
    view = same(phone)
    assert view["shown"]["pad"] is None


def test_the_page_speaks_in_words_after_a_take_back(phone: Phone) -> None:  # noqa: F811
    """German: what to take away and turn back, by the right player."""
    phone.page.goto(phone.url + "/language/de?next=/")
    rec = record("revers-dominari-7-17")
    start(phone, "revers-dominari", rec["setup"])
    for action in rec["actions"][:6]:
        sim(phone, action["cell"])
        tap(phone, {"type": "number", "square": action["cell"], "number": action["number"]})
        for square in phone.api("/api/state")["game"]["last"]["flipped"]:
            sim(phone, square, False)
            sim(phone, square)
    tap(phone, {"type": "undo", "confirm": True})
    view = same(phone)
    shown = view["shown"]
    assert view["table"]["next"]["actor"] == 1 and "Schwarz" in shown["who"]
    assert "Zurückgenommen" in shown["text"] and "c6" in shown["text"]
    assert "wieder um" in shown["text"] and "c5" in shown["text"]
    drawn = phone.drawn()
    assert drawn["squares"]["c5"]["owner"] == "1"  # it still shows Black's face
