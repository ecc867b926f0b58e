"""The rooms of the code point one way: rules know nothing above them, the firmware knows no
game, the table knows the firmware only by its ports, and the web knows no firmware at all.
Only the composition root (``sudoku_table.assembly``, ``sudoku_table.config``, ``sudoku_table.cli``)
puts them together."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

_ABOVE = {"table", "web", "assembly", "config", "cli", "overlay", "parts"}
_FIRMWARE = "sudoku_table.firmware"
_ALL = {"rules", "ai", "table", "web", "speech", "assembly", "config", "cli", "overlay", "power",
        "tiles", "safejson", "version", "network", "parts"}


def _of(*names: str) -> set[str]:
    return {f"sudoku_table.{name}" for name in names}


RULES = {
    "sudoku_table/rules": _of(*_ABOVE, "ai") | {_FIRMWARE},
    "sudoku_table/ai": _of(*_ABOVE) | {_FIRMWARE},
    "sudoku_table/firmware": _of(*_ALL),
    "sudoku_table/web": _of("assembly", "config", "cli") | {_FIRMWARE},
    "sudoku_table/network": _of(*_ABOVE, "ai", "speech") | {_FIRMWARE},
    "sudoku_table/speech": _of("table", "web", "assembly", "config", "cli", "ai") | {_FIRMWARE},
    "sudoku_table/parts": _of("table", "web", "assembly", "config", "cli", "ai", "network",
                              "speech") | {
        f"{_FIRMWARE}.{name}" for name in ("backend", "matrix", "leds", "simulator", "buzzer")},
    "sudoku_table/table": _of("web", "assembly", "config", "cli") | {
        f"{_FIRMWARE}.{name}" for name in ("backend", "config", "matrix", "leds", "simulator")},
}
"""For each room, the modules it must not import (a prefix forbids its submodules too)."""


def imports(path: Path, names: bool = False) -> set[str]:
    """The modules ``path`` imports, anywhere in it; with ``names``, also each name taken from
    a module as a possible submodule (``from . import x`` may import the module ``x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(SRC).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            if names:
                found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("room", sorted(RULES))
def test_each_room_imports_only_downwards(room: str) -> None:
    forbidden = RULES[room]
    for path in sorted((SRC / room).rglob("*.py")):
        for module in imports(path):
            for bad in forbidden:
                assert not (module == bad or module.startswith(bad + ".")), \
                    f"{path.relative_to(SRC)} imports {module}"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("room", ["rules", "ai"])
def test_no_two_modules_of_a_room_import_each_other(room: str) -> None:
    """Not even through others, nor by an import tucked into a function: such a circle breaks
    as soon as someone moves the import to the top where it belongs."""
    paths = {module_name(p): p for p in (SRC / "sudoku_table" / room).rglob("*.py")}
    known = set(paths)
    graph = {name: (imports(path, names=True) & known) - {name} for name, path in paths.items()}
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            circles.append(trail[trail.index(name):] + [name])
            return
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    assert not circles, "\n".join(" -> ".join(c) for c in circles)
