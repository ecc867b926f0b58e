"""Parts never hold the table: no module of ``sudoku_table.table`` imports ``Table`` (not even
for a type) but the ones that build one. A part gets what it needs instead (the sensors' board,
an ``acting.Act``, an ``acting.Install``) and answers what changed; only the table takes its
lock and acts. Read from the code itself, as ``tests/test_layers.py`` reads the layers."""

from __future__ import annotations

import ast
from pathlib import Path

TABLE = Path(__file__).resolve().parents[2] / "src" / "sudoku_table" / "table"
PACKAGE = "sudoku_table.table"
MODULE = "sudoku_table.table.table"

BUILDERS = {
    "table.py": "defines Table: the composition root of the package",
    "__init__.py": "the package's face: hands Table to whoever builds one",
    "runner.py": "a program of its own (the JSON-lines driver): builds a Table from its "
                 "command line",
}
"""The modules that may import ``Table``, and why."""


def takes_table(tree: ast.Module, package: str = "sudoku_table.table") -> list[int]:
    """The lines of ``tree`` (a module of ``package``) that import the module
    ``sudoku_table.table.table`` or the name ``Table`` from the package, however spelled
    (``from .table import Table``, ``from . import table``, ``from .. import Table``, ...)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names = {alias.name for alias in node.names}
            if module == MODULE or module == PACKAGE and names & {"table", "Table"}:
                found.append(node.lineno)
        elif isinstance(node, ast.Import):
            if any(alias.name == MODULE for alias in node.names):
                found.append(node.lineno)
    return found


def package_of(path: Path) -> str:
    return ".".join([PACKAGE, *path.relative_to(TABLE).parts[:-1]])


def test_no_part_imports_the_table() -> None:
    offenders = []
    for path in sorted(TABLE.rglob("*.py")):
        name = path.relative_to(TABLE).as_posix()
        if name in BUILDERS:
            continue
        lines = takes_table(ast.parse(path.read_text(encoding="utf-8")), package_of(path))
        offenders += [f"{name}:{line}" for line in lines]
    assert offenders == []


def test_the_builders_are_there() -> None:
    """Each module allowed to import ``Table`` exists and does (else the list has gone stale)."""
    for name in BUILDERS:
        tree = ast.parse((TABLE / name).read_text(encoding="utf-8"))
        assert name == "table.py" or takes_table(tree), name


def test_the_check_sees_every_spelling() -> None:
    """The check can fail: every way of importing the table is seen, a type-only one too."""
    for source in ("from .table import Table",
                   "from . import table",
                   "from sudoku_table.table.table import Table",
                   "from sudoku_table.table import Table",
                   "import sudoku_table.table.table",
                   "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                   "    from .table import Table"):
        assert takes_table(ast.parse(source)), source
    for source in ("from .. import Table", "from ..table import Table", "from .. import table"):
        assert takes_table(ast.parse(source), f"{PACKAGE}.journal"), source
    for source in ("from .tables import x", "from .acting import Act",
                   "from sudoku_table.table import announce"):
        assert not takes_table(ast.parse(source)), source


CURRENT = {"current", "_current"}
"""The names the table's modules give the game on the table (``sessions.Current``)."""


def writes_current(tree: ast.Module) -> list[int]:
    """The lines of ``tree`` that make a game the table's: ``current.take(...)`` or an
    assignment to ``current.session`` / ``current.companion``."""
    found = []
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "take":
            target = node.func.value
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and node.attr in ("session", "companion"):
            target = node.value
        if isinstance(target, ast.Attribute) and target.attr in CURRENT \
                or isinstance(target, ast.Name) and target.id in CURRENT:
            found.append(node.lineno)
    return found


def test_only_the_table_installs_the_current_game() -> None:
    writers = {path.relative_to(TABLE).as_posix()
               for path in sorted(TABLE.rglob("*.py"))
               if writes_current(ast.parse(path.read_text(encoding="utf-8")))}
    assert writers == {"conductor.py"}  # ``Conductor._install``, the one writer


def test_the_writer_check_sees_a_second_writer() -> None:
    for source in ("self._current.take(moved, c)", "current.take(s, c)",
                   "self._current.companion = c"):
        assert writes_current(ast.parse(source)), source
    assert not writes_current(ast.parse("self._notices.take(journal.notices)"))


LOCKS = {"Lock", "RLock", "Condition"}


def names_a_lock(annotation: ast.expr) -> bool:
    """``annotation`` names one of ``LOCKS`` (bare, or as ``threading.Lock``), anywhere in it."""
    return any(isinstance(node, ast.Name) and node.id in LOCKS
               or isinstance(node, ast.Attribute) and node.attr in LOCKS
               for node in ast.walk(annotation))


def takes_a_lock(tree: ast.Module) -> list[str]:
    """The parameters of ``tree``'s functions given a lock or a condition (``threading.Lock``,
    ``Condition``, ``RLock``): a part handed the table's lock to take."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            found += [f"{node.name}({arg.arg})" for arg in args
                      if arg.annotation is not None and names_a_lock(arg.annotation)]
    return found


def test_no_part_is_handed_a_lock() -> None:
    """Only the table takes its lock: no function of the package is given one to take."""
    handed = [f"{path.relative_to(TABLE).as_posix()}: {where}"
              for path in sorted(TABLE.rglob("*.py"))
              for where in takes_a_lock(ast.parse(path.read_text(encoding="utf-8")))]
    assert handed == []


def test_the_lock_check_sees_a_lock_handed_in() -> None:
    source = ("def __init__(self, keeper: Keeper, lock: threading.Lock) -> None: ...\n"
              "def load(*, lock: Condition) -> None: ...\n"
              "def fine(self, act: Act, locked: Locked) -> None: ...\n")
    assert takes_a_lock(ast.parse(source)) == ["__init__(lock)", "load(lock)"]
