"""An installed table (``pip install .``, as the Pi's installer does) has every file the code
reads at run time: pages, scripts, catalogs, rules texts in every language."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_runtime_file(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    needed = {"sudoku_table/web/static/play.js", "sudoku_table/web/templates/play.html",
              "sudoku_table/web/openapi.yaml",
              "sudoku_table/web/translations/de/LC_MESSAGES/messages.mo",
              "sudoku_table/firmware/table.example.toml"}
    for text in (ROOT / "src" / "sudoku_table" / "rules" / "text").rglob("*.md"):
        needed.add(str(text.relative_to(ROOT / "src")))
    missing = sorted(needed - names)
    assert not missing, missing
