"""The companion's parts own their state: each changes only its own fields, behind its own
methods, and what the players see is read without changing anything.

Read from the code itself (like ``tests/test_layers.py``): a part module that assigns a field of
another object (``c.pending = None``, ``history.debt = ...``), a module holding the companion that
assigns a part's field, or a ``present`` function that calls a method changing a part fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TABLE = Path(__file__).resolve().parents[2] / "src" / "sudoku_table" / "table"

PARTS = ("board", "companion", "computer", "history", "line", "moving", "placing", "referee",
         "takeback")
"""The modules of the companion's parts."""

READERS = ("present",)
"""Modules that only read the parts (they change nothing)."""

OLDER_SPELLINGS: dict[str, set[str]] = {}
"""Fields a holder of the companion may still set on it (none: the computer's seats, plan and
advice go through ``ComputerTurn.seat``, ``chose`` and ``advised``)."""


def tree(name: str) -> ast.Module:
    return ast.parse((TABLE / f"{name}.py").read_text(encoding="utf-8"))


def stores(module: ast.Module) -> list[ast.Attribute]:
    """Every attribute assigned, augmented or deleted in ``module``."""
    found: list[ast.Attribute] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            found.append(node)
    return found


def on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"


MUTATORS = {"add", "append", "clear", "discard", "extend", "pop", "remove", "setdefault",
            "update"}
"""Methods of sets, lists and dicts that change them."""

MEMOS = {"cached", "remember"}
"""``History.cached`` and ``History.remember`` keep what the rules answered for the current
state: reading through them changes nothing the game or the players see."""


def _changes_own(fn: ast.FunctionDef) -> bool:
    """``fn`` assigns a field of ``self``, an item of one, or calls a changing method on one."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del) \
                and on_self(node):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del) \
                and isinstance(node.value, ast.Attribute) and on_self(node.value):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MUTATORS and isinstance(node.func.value, ast.Attribute) \
                and on_self(node.func.value):
            return True
    return False


def fields_and_changers() -> tuple[set[str], set[str]]:
    """The fields the parts keep (assigned on ``self``) and the names of their methods that
    change a part, directly or through another (property setters included)."""
    fields: set[str] = set()
    methods: list[ast.FunctionDef] = []
    changers: set[str] = set()
    for name in PARTS:
        for cls in (n for n in ast.walk(tree(name)) if isinstance(n, ast.ClassDef)):
            for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
                fields.update(s.attr for s in stores(fn) if on_self(s))
                methods.append(fn)
                setter = any(isinstance(d, ast.Attribute) and d.attr == "setter"
                             for d in fn.decorator_list)
                if fn.name not in MEMOS and (setter or _changes_own(fn)):
                    changers.add(fn.name)
    grown = True
    while grown:  # a method calling a method that changes a part changes it too
        grown = False
        for fn in methods:
            if fn.name in changers or fn.name in MEMOS:
                continue
            if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                   and n.func.attr in changers for n in ast.walk(fn)):
                changers.add(fn.name)
                grown = True
    changers.discard("__init__")
    return fields, changers


def foreign_stores(module: ast.Module) -> list[str]:
    """The assignments in ``module`` to a field of an object other than ``self``."""
    return [f"line {s.lineno}: {ast.unparse(s)}" for s in stores(module) if not on_self(s)]


@pytest.mark.parametrize("name", PARTS + READERS)
def test_a_part_changes_only_its_own_fields(name: str) -> None:
    assert foreign_stores(tree(name)) == [], f"{name}.py assigns another object's field"


@pytest.mark.parametrize("name", READERS)
def test_what_the_players_see_is_only_read(name: str) -> None:
    module = tree(name)
    assert [ast.unparse(s) for s in stores(module)] == [], f"{name}.py assigns a field"
    _, changers = fields_and_changers()
    calls = sorted({node.func.attr for node in ast.walk(module)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in changers})
    assert calls == [], f"{name}.py calls methods that change a part: {calls}"


def holders() -> list[str]:
    """The other modules of the table that hold the companion."""
    names = []
    for path in sorted(TABLE.glob("*.py")):
        if path.stem in PARTS + READERS:
            continue
        if "Companion" in path.read_text(encoding="utf-8"):
            names.append(path.stem)
    return names


@pytest.mark.parametrize("name", holders())
def test_a_holder_of_the_companion_sets_no_part_field(name: str) -> None:
    fields, _ = fields_and_changers()
    allowed = OLDER_SPELLINGS.get(name, set())
    wrong = [f"line {s.lineno}: {ast.unparse(s)}" for s in stores(tree(name))
             if not on_self(s) and s.attr in fields and s.attr not in allowed
             and _names_companion(s)]
    assert wrong == [], f"{name}.py sets a field of the companion's parts"


def _names_companion(node: ast.Attribute) -> bool:
    """The assigned object is the companion or one of its parts (``c``, ``companion``,
    ``self._companion``, ``companion.placing``...)."""
    base = ast.unparse(node.value)
    return base in ("c", "companion") or "companion" in base


def test_the_check_sees_a_field_assigned_from_outside() -> None:
    """The checks above can fail: the assignments the parts once made of each other's fields
    are found."""
    sample = ast.parse("def f(c, history):\n    c.pending = None\n    history.debt = set()\n"
                       "    self.ok = 1\n")
    assert foreign_stores(sample) == ["line 2: c.pending", "line 3: history.debt"]
    fields, changers = fields_and_changers()
    assert {"pending", "motion", "in_hand", "blank_choice", "held", "kind"} <= fields
    assert {"feel", "commit", "take_back", "clear", "say"} <= changers
    assert _names_companion(ast.parse("c.pending = 1").body[0].targets[0])  # type: ignore[attr-defined]
