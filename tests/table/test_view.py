"""The view is typed and its messages are data: a code, its parameters, and an English wording."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from app.table import Table
from app.table.view import MESSAGES, PROMPT_KINDS, message, render

from .fakes import resolve
from .helpers import make_table, put

ROOT = Path(__file__).resolve().parents[2]


def codes_used() -> set[str]:
    """Every message code the table's code names: ``say("code"``, ``undo("code"``, and both
    codes of ``say("a" if ... else "b"``."""
    used: set[str] = set()
    for path in (ROOT / "app" / "table").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r'\b(?:say|undo)\(\s*"([a-z_]+)"', text))
        for pair in re.findall(r'say\(\s*"([a-z_]+)" if [^\n]* else "([a-z_]+)"', text):
            used.update(pair)
    return used


def test_every_message_code_is_used_and_every_used_code_exists() -> None:
    used = codes_used() | {"taken_back"}  # the default of ``undo``
    assert used <= set(MESSAGES), used - set(MESSAGES)
    assert set(MESSAGES) <= used, set(MESSAGES) - used


def test_every_wording_names_only_known_parameters() -> None:
    known = {"action", "game", "square", "number", "reason", "start"}
    for code, text in MESSAGES.items():
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        assert names <= known, code


def test_an_unknown_code_is_a_bug() -> None:
    with pytest.raises(KeyError):
        message("no_such_code")


def test_the_view_carries_the_code_and_its_english_wording() -> None:
    table, clock, _ = make_table()
    table.new_game("fake-kosmos")
    view = table.view()
    assert view["table"]["message_code"] == {"code": "new_game",
                                             "params": {"game": "Fake Kosmos"}}
    assert view["table"]["message"] == "Fake Kosmos: new game"
    put(table, clock, "b2")
    view = table.input({"type": "number", "number": 3})
    code = view["table"]["message_code"]
    assert code == {"code": "action",
                    "params": {"action": {"type": "place", "cell": "b2", "number": 3},
                               "player": 0}}
    assert view["table"]["message"] == render(code) == "3 on b2"
    prompt = put(table, clock, "c3")["table"]["prompt"]
    assert prompt is not None and prompt["kind"] in PROMPT_KINDS
    table.close()


def test_a_table_without_a_game_has_no_message_code() -> None:
    table = Table(resolve=resolve, ticker=False)
    assert table.view()["table"]["message_code"] is None
    table.close()
