"""The code stays as clean as the Makefile's ``lint`` target demands: ruff and mypy pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing() -> None:
    result = run(str(BIN / "ruff"), "check", "--no-cache", "src", "tests", "bench",
                 "hardware")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing(tmp_path: Path) -> None:
    result = run(str(BIN / "mypy"), "--cache-dir", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
