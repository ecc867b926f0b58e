"""The rooms of the code point one way: rules know nothing above them, the firmware knows no
game, the table knows the firmware only by its ports, and the web knows no firmware at all.
Only the composition root (``app.assembly``, ``app.config``, ``app.cli``) puts them together."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RULES = {
    "app/rules": {"app.table", "app.web", "app.assembly", "app.config", "app.overlay", "firmware",
                  "app.ai"},
    "app/ai": {"app.table", "app.web", "app.assembly", "app.config", "app.cli", "app.overlay",
               "firmware"},
    "firmware": {"app"},
    "app/web": {"firmware", "app.assembly", "app.config", "app.cli"},
    "app/speech": {"firmware", "app.web", "app.assembly", "app.config", "app.cli", "app.ai"},
    "app/table": {"app.web", "app.assembly", "app.config", "app.cli", "firmware.backend",
                  "firmware.config", "firmware.matrix", "firmware.leds", "firmware.simulator"},
}
"""For each room, the modules it must not import (a prefix forbids its submodules too)."""


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
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
    return found


@pytest.mark.parametrize("room", sorted(RULES))
def test_each_room_imports_only_downwards(room: str) -> None:
    forbidden = RULES[room]
    for path in sorted((ROOT / room).rglob("*.py")):
        for module in imports(path):
            for bad in forbidden:
                assert not (module == bad or module.startswith(bad + ".")), \
                    f"{path.relative_to(ROOT)} imports {module}"
