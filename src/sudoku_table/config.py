"""The table's one config file, read once and handed to each layer its own part.

The file is TOML (``src/sudoku_table/firmware/table.example.toml`` documents every key). Each layer
owns its sections and declares them as pydantic models (``sudoku_table.sections``): the firmware
``[sensors]``, ``[leds]``, ``[buzzer]``, ``[speaker]`` and ``[simulator]``
(``sudoku_table.firmware.config``), the panel ``[panel]`` (``sudoku_table.web.config``), the
overlays ``[board]`` (``sudoku_table.overlay``), the build's drawings ``[build]``
(``sudoku_table.parts.config``), the computer opponent ``[computer]``
(``sudoku_table.ai.config``), the table's voice ``[speech]``
(``sudoku_table.speech.config``), the tables it meets ``[network]``
(``sudoku_table.network.config``).
:data:`ConfigFile` puts them together as the file is written; its JSON schema is
``docs/config.schema.json`` (``python -m sudoku_table.config --schema`` prints it). A section
nobody owns, or a bad value anywhere, stops the start with one line naming the file and the key.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field, ValidationError, create_model

from sudoku_table.firmware.config import SECTIONS as HARDWARE_SECTIONS
from sudoku_table.firmware.config import HardwareConfig, read_toml
from sudoku_table.firmware.exc import ConfigError
from sudoku_table.sections import Section, first_problem

from .ai.config import ComputerConfig
from .network.config import NetworkConfig
from .overlay import BoardConfig
from .parts.config import BuildConfig
from .speech.config import SpeechConfig
from .web.config import PanelConfig

__all__ = ["Config", "ConfigError", "ConfigFile", "load_config"]


LAYER_SECTIONS: dict[str, Any] = {
    "panel": PanelConfig,
    "board": BoardConfig,
    "build": BuildConfig,
    "computer": ComputerConfig,
    "speech": SpeechConfig,
    "network": NetworkConfig,
}
"""The sections read by layers above the firmware."""

ConfigFile: type[Section] = create_model(  # type: ignore[call-overload]
    "ConfigFile", __base__=Section, __doc__="The table's config file (TOML), section by section.",
    **{name: (cls, Field(default_factory=cls)) for name, cls in HARDWARE_SECTIONS.items()},
    panel=(PanelConfig, Field(default_factory=PanelConfig)),
    board=(BoardConfig, Field(default_factory=BoardConfig)),
    build=(BuildConfig, Field(default_factory=BuildConfig)),
    computer=(ComputerConfig, Field(default_factory=ComputerConfig)),
    speech=(SpeechConfig, Field(default_factory=SpeechConfig)),
    network=(NetworkConfig, Field(default_factory=NetworkConfig)),
)
"""Every section of the file; unknown sections and keys are refused."""


class Config(BaseModel):
    """The whole config: the firmware's part and the sections of the other layers."""

    model_config = {"frozen": True}

    hardware: HardwareConfig = HardwareConfig()
    panel: PanelConfig = PanelConfig()
    board: BoardConfig = Field(default_factory=BoardConfig)
    build: BuildConfig = Field(default_factory=BuildConfig)
    computer: ComputerConfig = ComputerConfig()
    speech: SpeechConfig = SpeechConfig()
    network: NetworkConfig = NetworkConfig()

    @property
    def source(self) -> str | None:
        """The file the config came from (None: the defaults)."""
        return self.hardware.source


def from_mapping(data: Mapping[str, Any], source: str | None = None) -> Config:
    """The checked config from parsed TOML (``ConfigError`` names the first bad key)."""
    try:
        parsed = ConfigFile.model_validate(data)
        hardware = HardwareConfig(**{name: getattr(parsed, name) for name in HARDWARE_SECTIONS},
                                  source=source)
    except ValidationError as e:
        raise ConfigError(first_problem(e, ConfigFile)) from None
    return Config(hardware=hardware,
                  **{name: getattr(parsed, name) for name in LAYER_SECTIONS})


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """The config at ``path``, else at ``$SUDOKU_TABLE_CONFIG``, else the defaults."""
    data, source = read_toml(path)
    try:
        return from_mapping(data, source)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}" if source else str(e)) from None


def json_schema() -> dict[str, Any]:
    """The JSON schema of the config file, as ``docs/config.schema.json`` publishes it."""
    schema = ConfigFile.model_json_schema()
    schema["title"] = "Sudoku Table config file"
    return schema


if __name__ == "__main__":
    if sys.argv[1:] != ["--schema"]:
        sys.exit("usage: python -m sudoku_table.config --schema")
    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
