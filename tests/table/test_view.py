"""The view is typed and its messages are data: a code, its parameters, and an English wording."""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.table import Table
from sudoku_table.table.view import MESSAGES, PROMPT_KINDS, message, render

from .fakes import resolve
from .helpers import make_table, put

ROOT = Path(__file__).resolve().parents[2]


def literals() -> set[str]:
    """Every string literal of the table's code outside ``view.py``."""
    found: set[str] = set()
    for path in (ROOT / "src" / "sudoku_table" / "table").rglob("*.py"):
        if path.name == "view.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def test_every_message_code_is_used() -> None:
    """No wording is kept that nothing says (a code may be built as ``code + "_because"``)."""
    used = literals()
    used |= {code + "_because" for code in used}
    assert set(MESSAGES) <= used, set(MESSAGES) - used


def test_every_code_said_exists() -> None:
    for path in (ROOT / "src" / "sudoku_table" / "table").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") in
                    ("say", "_tell", "notice", "undo") and node.args
                    and isinstance(node.args[0], ast.Constant)):
                assert node.args[0].value in MESSAGES, (path.name, node.args[0].value)


def test_every_wording_names_only_known_parameters() -> None:
    known = {"action", "game", "square", "number", "reason", "start", "file", "detail", "error",
             "kept", "actions", "games", "resume", "seq", "entries", "first", "variant", "name",
             "pieces", "piece", "squares", "table"}
    for code, text in MESSAGES.items():
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        assert names <= known, code


def test_an_unknown_code_is_a_bug() -> None:
    with pytest.raises(KeyError):
        message("no_such_code")


@pytest.mark.integration
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
                               "player": 0, "points": [], "completed": [], "claimed": []}}
    assert view["table"]["message"] == render(code) == "3 on b2"
    prompt = put(table, clock, "c3")["table"]["prompt"]
    assert prompt is not None and prompt["kind"] in PROMPT_KINDS
    table.close()


@pytest.mark.integration
def test_a_table_without_a_game_has_no_message_code() -> None:
    table = Table(resolve=resolve, ticker=False)
    assert table.view()["table"]["message_code"] is None
    table.close()


def test_every_next_step_is_said_and_worded() -> None:
    from sudoku_table.table.computer import PLAN_STEPS
    from sudoku_table.table.view import NEXT_STEPS

    source = (ROOT / "src" / "sudoku_table" / "table" / "present.py").read_text(encoding="utf-8")
    said = {node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "step"
            and node.args and isinstance(node.args[0], ast.Constant)}
    # A step for the computer or, the same act, for a seat at another table (``_for``).
    for_either = {node.args[1].value for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_for"
                  and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)}
    said |= for_either | {code.replace("computer_", "remote_", 1) for code in for_either}
    # The computer's action is said by ``computer.plan_step``, one code per kind of action.
    source = (ROOT / "src" / "sudoku_table" / "table" / "computer.py").read_text(encoding="utf-8")
    returned = {node.value.elts[0].value for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)
                and isinstance(node.value.elts[0], ast.Constant)}
    assert returned == set(PLAN_STEPS)
    # A remote seat's action is said as the computer's, never as drawn by this table.
    said |= {code.replace("computer_", "remote_", 1) for code in returned if "_draw_" not in code}
    # A step the panel says instead of the table's, to the devices that may not know a card.
    source = (ROOT / "src" / "sudoku_table" / "web" / "seats.py").read_text(encoding="utf-8")
    said |= {value.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Dict)
             for key, value in zip(node.keys, node.values, strict=True)
             if isinstance(key, ast.Constant) and key.value == "code"
             and isinstance(value, ast.Constant)}
    assert said | returned == set(NEXT_STEPS)


def final_documents() -> list[tuple[str, str, dict[str, Any]]]:
    """(file, variant, final state document) of every reference record."""
    import json

    from sudoku_table.rules.record import Record, replay

    out = []
    for path in sorted((ROOT / "tests" / "data").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "record" in data:
            game, states = replay(Record.from_json(data["record"]))
            out.append((path.name, game.id, game.document(states[-1])))
    return out


def test_every_finished_reference_game_says_why_it_ended() -> None:
    from sudoku_table.rules.game import END_REASONS

    reasons = set()
    for name, _, doc in final_documents():
        if doc["over"]:
            assert doc["end_reason"] in END_REASONS, name
            reasons.add(doc["end_reason"])
        else:
            assert "end_reason" not in doc
    assert len(reasons) >= 4


def test_every_breakdown_adds_up_to_the_score() -> None:
    from sudoku_table.rules.game import SCORE_PARTS

    broken = set()
    for name, variant, doc in final_documents():
        for parts, score in zip(doc.get("breakdown", []), doc["scores"], strict=False):
            assert set(parts) <= set(SCORE_PARTS), name
            assert sum(parts.values()) == score, name
            broken.add(variant)
    assert len(broken) >= 5  # Revers, Score, Halma, the KOSMOS games, Duell
