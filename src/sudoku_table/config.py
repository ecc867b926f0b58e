"""The table's one config file, read once and handed to each layer its own part.

The file is TOML (``src/sudoku_table/firmware/table.example.toml`` documents every key). Each layer
owns its sections and checks them: the firmware ``[sensors]``, ``[leds]`` and ``[simulator]``
(``sudoku_table.firmware.config``), the panel ``[panel]`` (``sudoku_table.web.config``), the
overlays ``[board]`` (``sudoku_table.overlay``), the computer opponent ``[computer]``
(``sudoku_table.ai.config``), the table's voice ``[speech]`` (``sudoku_table.speech.config``). A
section nobody owns, or a bad value anywhere, stops the start with one line naming the file and the
key.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from sudoku_table.firmware.config import HardwareConfig, read_toml, section
from sudoku_table.firmware.config import from_mapping as hardware_from_mapping
from sudoku_table.firmware.exc import ConfigError

from .ai.config import ComputerConfig
from .overlay import BoardConfig
from .speech.config import SpeechConfig
from .web.config import PanelConfig

__all__ = ["Config", "ConfigError", "load_config"]


@dataclass(frozen=True, slots=True)
class Config:
    """The whole config: the firmware's part and the sections of the other layers."""

    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    computer: ComputerConfig = field(default_factory=ComputerConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)

    @property
    def source(self) -> str | None:
        """The file the config came from (None: the defaults)."""
        return self.hardware.source


LAYER_SECTIONS: dict[str, tuple[type, Callable[[Mapping[str, Any]], Any]]] = {
    "panel": (PanelConfig, PanelConfig.from_section),
    "board": (BoardConfig, BoardConfig.from_section),
    "computer": (ComputerConfig, ComputerConfig.from_section),
    "speech": (SpeechConfig, SpeechConfig.from_section),
}
"""The sections read by layers above the firmware, with their reader."""


def from_mapping(data: Mapping[str, Any], source: str | None = None) -> Config:
    """The checked config from parsed TOML (``ConfigError`` names the first bad key)."""
    hardware = hardware_from_mapping(data, source=source, others=LAYER_SECTIONS)
    parts: dict[str, Any] = {}
    for name, (cls, read) in LAYER_SECTIONS.items():
        raw = section(data, name, [f.name for f in fields(cls)])
        try:
            parts[name] = read(raw)
        except ValueError as e:
            raise ConfigError(str(e)) from None
    return Config(hardware=hardware, **parts)


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """The config at ``path``, else at ``$SUDOKU_TABLE_CONFIG``, else the defaults."""
    data, source = read_toml(path)
    try:
        return from_mapping(data, source)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}" if source else str(e)) from None
