"""The ``[computer]`` section: documented defaults, checked values, clear errors."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from sudoku_table.ai import DEFAULT_BUDGETS, LEVELS, Budget, ComputerConfig
from sudoku_table.config import ConfigError, load_config

EXAMPLE = files("sudoku_table.firmware") / "table.example.toml"


def test_the_example_documents_the_defaults() -> None:
    config = load_config(EXAMPLE).computer
    assert dict(config.budgets) == dict(DEFAULT_BUDGETS)
    text = EXAMPLE.read_text(encoding="utf-8")
    for name in ComputerConfig.model_fields:
        assert f"\n{name} = " in text


def test_a_section_sets_each_level(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[computer]\nstrong_positions = 200\nstrong_seconds = 3\n"
                    "normal_positions = 50\n", encoding="utf-8")
    config = load_config(path).computer
    assert config.budget("strong") == Budget(200, 3.0)
    assert config.budget("normal") == Budget(50, DEFAULT_BUDGETS["normal"].seconds)
    assert config.budget("easy") == DEFAULT_BUDGETS["easy"]
    assert set(config.budgets) == set(LEVELS)


@pytest.mark.parametrize("line,message", [
    ("strong_positions = 0", "computer.strong_positions must be a whole number from 1"),
    ("strong_positions = 2.5", "computer.strong_positions must be a whole number"),
    ("easy_positions = true", "computer.easy_positions must be a whole number"),
    ("normal_seconds = 0", "computer.normal_seconds must be a number of seconds from 0.01"),
    ("normal_seconds = \"fast\"", "computer.normal_seconds must be a number of seconds"),
    ("strong_seconds = inf", "computer.strong_seconds must be a number of seconds"),
    ("strong_iterations = 5", "unknown key computer.strong_iterations"),
])
def test_bad_values_are_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "table.toml"
    path.write_text(f"[computer]\n{line}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as info:
        load_config(path)
    assert str(path) in str(info.value)
