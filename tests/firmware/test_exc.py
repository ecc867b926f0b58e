"""The firmware's errors: one root for everything it raises on purpose."""

from __future__ import annotations

import ast
from pathlib import Path

from sudoku_table.firmware import exc

PROTOCOL_ERRORS = {"IndexError", "KeyError", "NotImplementedError"}
"""Errors that are part of Python's own protocols (a sequence index out of range)."""


def test_every_error_the_firmware_raises_has_one_root() -> None:
    """Like gpiozero's ``GPIOZeroError``: callers catch the firmware's refusals by one name."""
    root = Path(exc.__file__).parent
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", None)
                if name is None or name in PROTOCOL_ERRORS:
                    continue
                cls = getattr(exc, name, None)
                assert cls is not None and issubclass(cls, exc.FirmwareError), \
                    f"{path.name}:{node.lineno} raises {name}, not an error of firmware.exc"
